#!/usr/bin/env python3
"""plots/04_threads.py: chapter 04's chart, speed-up from 1 to 2 threads beside GFLOP/s by size.

    python3 plots/04_threads.py results/xeon-2c/04_threads.csv docs/figures/xeon-2c/04_threads.png

The CSV is the harness's (see docs/measuring.md). plots/plot.py draws one chart per thread count
(04_threads_t1.png, _t2.png, _t3.png); `make plots` then calls this script for the chart the
chapter is about, which those cannot show: how much the second thread bought.

  left   GFLOP/s against size on 2 threads (solid) and 1 thread (dotted, same colour), for the
         row split and the three tile splits at T = 16 (small sizes), 64 and 256
  right  the speed-up: for each pair of runs made back to back (the bench alternates 1,2,1,2,...),
         2-thread GFLOP/s over 1-thread GFLOP/s; the median over the pairs

GFLOP/s are medians over the same pairs. FAIL rows are left out.
"""
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from chart_style import size_axis  # noqa: E402
from reader import RESULT, read_rows  # noqa: E402
from stage_cli import passed_square, pyplot, run, save, split_tile  # noqa: E402

plt = pyplot()  # (before anything is read: a python without matplotlib says so)
import matplotlib  # noqa: E402  (its colour maps; pyplot() made sure it is there)

# a colour family for each variant, a shade of it for each tile (darker: larger), so that no two
# lines share a colour (with the marker for the tile as a second cue)
COLOURS = {"omp_rows": "Greys", "omp_tiled": "Blues", "omp_tiled_dyn": "Oranges",
           "pthreads_tiled": "Greens", "omp_cols": "Purples", "omp_grid": "Reds",
           "pthreads_dyn": "YlOrBr"}  # (the last three: the exercise's)
MARKERS = {None: "o", 16: "v", 64: "s", 256: "o"}


def colour(series, v, t):
    """The shade of v's colour family for tile t among v's tiles in series."""
    tiles = sorted(tt or 0 for vv, tt in series if vv == v)
    shade = 0.55 + 0.4 * tiles.index(t or 0) / max(1, len(tiles) - 1)
    return matplotlib.colormaps[COLOURS.get(v, "Purples")](shade)


def load(path):
    """{(variant, tile, n): [(GFLOP/s on 1 thread, on 2 threads), ...]}: a 1-thread row paired
    with the next row of the same variant, size and baseline if that one is on 2 threads. The
    bench's runs alternate 1,2,1,2,..., so each pair was measured back to back in one process;
    rows without a partner (the 2-against-3-threads run) are left out. Where a size has pairs
    timed alone (--no-baseline), those are drawn, not the ones timed beside OpenBLAS (bench.sh's
    run 4), as in the chapter's table."""
    last, pairs = {}, defaultdict(lambda: defaultdict(list))  # (variant, tile, n) -> alone? -> [...]
    device = ""
    for r in passed_square(read_rows(path, RESULT, stage="04_threads"), path):
        if r["baseline"] and r["variant"] == r["baseline"].lower():
            continue
        device = device or r["device"]
        name, tile = split_tile(r["variant"])
        key, prev = (name, tile, r["n"]), last.get((name, tile, r["n"], r["baseline"]))
        # (a 1-thread rate of 0 gives no speed-up: such a pair is left out)
        if prev is not None and prev["threads"] == 1 and r["threads"] == 2 and prev["gflops"] > 0:
            pairs[key][not r["baseline"]].append((prev["gflops"], r["gflops"]))
        last[key + (r["baseline"],)] = r
    return {k: p[True] or p[False] for k, p in pairs.items()}, device


def main(src, dst):
    pairs, device = load(src)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.4), dpi=120)
    fig.suptitle(f"04_threads: 1 and 2 threads, alternated\n{device}", fontsize=11)
    series = sorted({(v, t) for (v, t, _) in pairs}, key=lambda s: (s[0], s[1] or 0))
    sizes = sorted({n for (_, _, n) in pairs})
    med = statistics.median
    for v, t in series:
        label = v + (f"/{t}" if t else "")
        style = dict(color=colour(series, v, t), marker=MARKERS.get(t, "o"), markersize=4)
        mine = {n: p for (vv, tt, n), p in pairs.items() if (vv, tt) == (v, t)}
        ns = sorted(mine)
        left.plot(ns, [med(b for _, b in mine[n]) for n in ns], "-", label=label, **style)
        left.plot(ns, [med(a for a, _ in mine[n]) for n in ns], ":", **style)
        right.plot(ns, [med(b / a for a, b in mine[n]) for n in ns], "-", label=label, **style)
    for ax in (left, right):
        size_axis(ax, sizes=[n for n in sizes if n & (n - 1) == 0])
        ax.grid(True, alpha=0.3)
    left.set_ylabel("GFLOP/s (solid: 2 threads, dotted: 1 thread)")
    left.set_ylim(bottom=0)
    left.set_title("GFLOP/s by size", fontsize=10)
    right.axhline(2, color="black", linewidth=0.8, linestyle="--")
    right.axhline(1, color="black", linewidth=0.8)
    right.set_ylabel("speed-up, 2 threads / 1 (back-to-back pairs)")
    right.set_ylim(0, max([2.6] + [1.05 * y for ln in right.lines for y in ln.get_ydata()]))
    right.set_title("what the second thread bought", fontsize=10)
    handles, labels = right.get_legend_handles_labels()
    fig.tight_layout(rect=(0, 0.07 if handles else 0, 1, 1))
    if handles:  # one legend for both panels (the same colours), below them
        fig.legend(handles, labels, fontsize=8, ncol=min(len(labels), 5), loc="lower center")
    save(fig, src, dst)


if __name__ == "__main__":
    run(main, "plots/04_threads.py RESULTS.csv OUT.png")

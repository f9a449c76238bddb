#!/usr/bin/env python3
"""plots/03_tiling.py: chapter 03's chart, the tile sweep beside the usual GFLOP/s by size.

    python3 plots/03_tiling.py results/xeon-2c/03_tiling.csv docs/figures/xeon-2c/03_tiling.png

The CSV is the harness's (see docs/measuring.md); the blocked variants' rows are named
"tiled/64" and so on, after the tile they ran with. plots/plot.py draws every such row as a
line of its own, which for six tiles and three variants is more lines than a reader can follow,
so `make plots` calls this script after it, and this chart takes the place of that one:

  left   GFLOP/s against size: 02's ikj, each blocked variant at its best tile (the tile with
         the highest median fraction of OpenBLAS over all sizes), and OpenBLAS
  right  the sweep: each variant's speed against the tile, at the three largest sizes, as a
         fraction of OpenBLAS timed alternately with it (the ratio survives a busy machine)

Rows that FAILed their check are left out; repeated rows are combined by their median.
"""
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from chart_style import legend_below, odd_sizes_key, plot_by_size, size_axis  # noqa: E402
from reader import RESULT, read_rows  # noqa: E402
from stage_cli import passed_square, pyplot, run, save, split_tile  # noqa: E402

plt = pyplot()  # (before anything is read: a python without matplotlib says so)

BLOCKED = ("tiled", "tiled_copy", "unroll_2x4")
COLOURS = {"ikj": "tab:gray", "tiled": "tab:blue", "tiled_copy": "tab:orange",
           "unroll_2x4": "tab:green"}


def load(path):
    gflops = defaultdict(list)   # (variant, tile or None, n) -> [GFLOP/s]
    ratio = defaultdict(list)    # (variant, tile or None, n) -> [fraction of the baseline]
    baseline = defaultdict(list)  # n -> [baseline GFLOP/s]
    device = ""
    for r in passed_square(read_rows(path, RESULT, stage="03_tiling"), path):
        n, g = r["n"], r["gflops"]
        device = device or r["device"]
        if r["baseline"] and r["variant"] == r["baseline"].lower():
            baseline[n].append(g)
            continue
        name, tile = split_tile(r["variant"])
        key = (name, tile, n)
        gflops[key].append(g)
        if r["baseline_gflops"] > 0:
            ratio[key].append(g / r["baseline_gflops"])
    med = lambda d: {k: statistics.median(v) for k, v in d.items()}  # noqa: E731
    return med(gflops), med(ratio), med(baseline), device


def main(src, dst):
    gflops, ratio, baseline, device = load(src)
    sizes = sorted({n for _, _, n in gflops})
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.4), dpi=120, layout="constrained")
    fig.suptitle(f"03_tiling: cache blocking, one thread\n{device}", fontsize=11)

    # left: by size, each blocked variant at its best tile
    odd = []  # the sizes drawn as points of their own: 1000 beside 1024
    line = {n: g for (v, t, n), g in gflops.items() if v == "ikj"}
    if line:
        odd += plot_by_size(left, line, "ikj (02's, linked)", color=COLOURS["ikj"])[1]
    for v in BLOCKED:
        tiles = sorted({t for (name, t, _) in ratio if name == v and t})
        if not tiles:
            continue
        best = max(tiles, key=lambda t: statistics.median(
            r for (name, tt, _), r in ratio.items() if name == v and tt == t))
        line = {n: g for (name, t, n), g in gflops.items() if name == v and t == best}
        odd += plot_by_size(left, line, f"{v}, T = {best}", color=COLOURS[v])[1]
    if baseline:
        odd += plot_by_size(left, baseline, "OpenBLAS, 1 thread", marker=None, color="black",
                            linestyle="--")[1]
    odd_sizes_key(left, odd)
    # (1000 sits next to 1024: no tick of its own)
    size_axis(left, sizes=[n for n in sizes if n & (n - 1) == 0])
    left.grid(True, alpha=0.3)
    left.set_ylabel("GFLOP/s")
    left.set_ylim(bottom=0)
    left.set_title("GFLOP/s by size (each variant at its best tile)", fontsize=10)
    if left.get_legend_handles_labels()[0]:  # nothing labelled: no legend
        legend_below(left, ncol=2)

    # right: the sweep, fraction of OpenBLAS against the tile, one line per variant and size;
    # the three largest sizes only (with 1000 among them when it was measured, beside 1024)
    swept = sizes[-3:]
    dashes = ["-", "--", ":"]
    for v in BLOCKED:
        for si, n in enumerate(swept):
            pts = sorted((t, r) for (name, t, nn), r in ratio.items() if name == v and nn == n and t)
            if len(pts) < 2:
                continue
            right.plot([t for t, _ in pts], [r for _, r in pts], marker="o", markersize=3,
                       linestyle=dashes[si % len(dashes)], color=COLOURS[v],
                       label=f"{v}, n = {n}")
    size_axis(right, "tile edge T (blocks of T x T floats)", sorted({t for (_, t, _) in ratio if t}))
    right.grid(True, alpha=0.3)
    right.set_ylabel("fraction of OpenBLAS timed alternately")
    right.set_ylim(bottom=0)
    if right.get_legend_handles_labels()[0]:  # nothing labelled: no legend
        legend_below(right, ncol=3, fontsize=7)
    right.set_title(f"the tile sweep at n = {', '.join(map(str, swept))}", fontsize=10)
    save(fig, src, dst)


if __name__ == "__main__":
    run(main, "plots/03_tiling.py RESULTS.csv OUT.png")

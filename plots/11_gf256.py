#!/usr/bin/env python3
"""plots/11_gf256.py: chapter 11's chart from its CSV (a schema of its own, see the chapter).

    python3 plots/11_gf256.py results/xeon-2c/11_gf256.csv docs/figures/xeon-2c/11_gf256.png

GB/s of data in (log scale) against the chunk length, RS(10,4), one thread: every CPU variant and ISA-L
(and, for a GPU CSV, the kernel and end-to-end rows with the copy bandwidth as a ceiling).
Repeated rows of one variant, timing and length are combined by their median.
"""
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from reader import GF256, read_rows  # noqa: E402
from chart_style import Styles, legend_below, log_axes  # noqa: E402
from stage_cli import pyplot, run, save  # noqa: E402

plt = pyplot()  # (before anything is read: a python without matplotlib says so)


def size_text(n):
    """4096 -> 4K, 1048576 -> 1M (binary multiples, as --len takes them)."""
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def main(src, dst):
    rows = read_rows(src, GF256, stage="11_gf256")
    series = defaultdict(lambda: defaultdict(list))
    copy_rw = None
    for r in rows:
        if r["variant"] == "copy_d2d":
            copy_rw = max(copy_rw or 0, r["gbps_rw"])
            continue
        if (r["k"], r["m"]) != (10, 4) or r["threads"] not in (0, 1):
            continue
        if "FAIL" in (r["encode_check"], r["decode_check"]):
            print(f"{src}: leaving out a FAIL row of {r['variant']}", file=sys.stderr)
            continue
        name = r["variant"] + (" (end to end)" if r["timing"] == "end_to_end" else "")
        series[name][r["len"]].append(r["gbps_in"])
    fig, ax = plt.subplots(figsize=(7.5, 5.5))
    styles = Styles()
    for name in sorted(series):
        pts = sorted(series[name].items())
        if len(pts) < 2:
            continue
        ax.plot([p[0] for p in pts], [statistics.median(p[1]) for p in pts], marker="o",
                **(styles.library(name) if name.startswith("isa-l") else styles.variant()),
                label=name)
    if copy_rw:  # data-in rate at which RS(10,4) moves copy_rw bytes (read + written) per second
        ax.axhline(copy_rw * 10 / 14, **styles.take(("grey",), (":",)),
                   label=f"copy bandwidth x 10/14 ({copy_rw:.0f} GB/s r+w)")
    lengths = sorted({n for s in series.values() for n in s})
    log_axes(ax, lengths, [size_text(n) for n in lengths], fontsize=8,  # ticks at 4K, 16K, 1M
             xlabel="chunk length in bytes", ylabel="GB/s of data in")
    device = rows[0]["device"]
    ax.set_title(f"11_gf256: RS(10,4) encode, {device}", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:  # nothing labelled: no legend
        legend_below(ax, below=36, ncol=3)  # under the axes: inside, it covered points
    fig.tight_layout()
    save(fig, src, dst, dpi=110)


if __name__ == "__main__":
    run(main, "plots/11_gf256.py RESULTS.csv OUT.png")

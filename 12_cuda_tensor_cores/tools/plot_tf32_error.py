#!/usr/bin/env python3
"""plot_tf32_error.py: the chart of tf32_error's CSV (emulated on the CPU).

    plot_tf32_error.py CSV PNG

The largest |error| over the FP32 bound 2 (K + 2) u S against K, one line per method; solid:
the truncating adder model (trunc2), dashed: one rounding to nearest per instruction (exact_rn).
Above 1: the FP32 bound that stages 01-09 pass is exceeded.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {  # method: (label, colour)
    "fp32": ("FP32 FMA chain (09's warptile)", "black"),
    "tf32_rna": ("1xTF32, inputs rounded (cvt.rna)", "tab:red"),
    "tf32_rz": ("1xTF32, inputs truncated (raw FP32 bits)", "tab:orange"),
    "3xtf32": ("3xTF32, small terms first", "tab:blue"),
    "3xtf32_big_first": ("3xTF32, big*big first", "tab:cyan"),
}


def main():
    if len(sys.argv) != 3:
        print("usage: plot_tf32_error.py CSV PNG", file=sys.stderr)
        return 2
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "max_err_ratio" not in rows[0]:
        print(f"{sys.argv[1]}: not a tf32_error CSV", file=sys.stderr)
        return 2
    fig, ax = plt.subplots(figsize=(8, 5.2))
    for method, (label, colour) in STYLE.items():
        for model, dash in (("fma", "-"), ("trunc2", "-"), ("exact_rn", "--")):
            pts = sorted((int(r["k"]), float(r["max_err_ratio"])) for r in rows
                         if r["method"] == method and r["model"] == model)
            if not pts:
                continue
            ks, ratios = zip(*pts)
            ax.plot(ks, ratios, dash, color=colour, marker="o" if dash == "-" else None,
                    markersize=3, label=label if model != "exact_rn" else None)
    ax.axhline(1.0, color="grey", linewidth=1)
    ax.text(1.1, 1.25, "the FP32 bound: 2 (K+2) u S", color="grey", fontsize=8)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("K (M = N = %s)" % rows[0]["m"])
    ax.set_ylabel("largest |error| / FP32 bound")
    ax.set_title("TF32 and 3xTF32 sums against the FP32 bound, emulated on the CPU\n"
                 "solid: truncating adder (2 extra bits), dashed: one rounding to nearest",
                 fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    fig.text(0.01, 0.01, "%s, commit %s" % (rows[0]["device"], rows[0]["git"]), fontsize=7,
             color="grey")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(sys.argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())

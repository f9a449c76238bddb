#!/usr/bin/env python3
"""plot_tf32_error.py: TF32 and 3xTF32 against the FP32 bound, emulated or measured.

    plot_tf32_error.py CSV [CSV ...] PNG

The largest |error| over the FP32 bound 2 (K + 2) u S against K, one line per method or variant;
above 1 the bound that stages 01-09 pass is exceeded. The schema of the CSVs picks the chart:
  - tf32_error's CSV (columns method, model: emulated on the CPU, tools/tf32_error.c): solid, the
    truncating adder model (trunc2); dashed, one rounding to nearest per instruction (exact_rn);
  - the harness's CSV (columns variant, k, max_err_ratio: measured on the GPU by
    `cuda_tensor_cores --fp32 --bound fp32`, and 09's warptile beside it), e.g.
        plot_tf32_error.py results/h100/12_runs/tf32_accuracy.csv \\
            results/h100/12_runs/tf32_accuracy_warptile.csv docs/figures/h100/12_tf32_error.png
    mma_3xtf32 is drawn only where it differs from 3xtf32 (on the H100 it is equal at every K).
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

EMULATED = {  # method: (label, colour)
    "fp32": ("FP32 FMA chain (09's warptile)", "black"),
    "tf32_rna": ("1xTF32, inputs rounded (cvt.rna)", "tab:red"),
    "tf32_rz": ("1xTF32, inputs truncated (raw FP32 bits)", "tab:orange"),
    "3xtf32": ("3xTF32, small terms first", "tab:blue"),
    "3xtf32_big_first": ("3xTF32, big*big first", "tab:cyan"),
}

MEASURED = {  # variant: (label, colour, line, marker)
    "tf32": ("tf32 (wgmma; A truncated, B rounded)", "tab:orange", "-", "o"),
    "mma_tf32": ("mma_tf32 (mma.sync; A, B rounded)", "tab:red", "-", "s"),
    "cublas_tf32": ("cublas_tf32", "darkred", "--", "x"),
    "3xtf32": ("3xtf32", "tab:blue", "-", "o"),
    "mma_3xtf32": ("mma_3xtf32", "tab:cyan", "--", "s"),
    "tf32_rs": ("tf32_rs", "tab:olive", "--", "d"),
    "cublas_fp32": ("cublas_fp32 (pedantic)", "grey", "--", "x"),
    "warptile": ("warptile (09, FP32 FMAs)", "black", "-", "^"),
}


def points(rows, key, name, model=None):
    return sorted((int(r["k"]), float(r["max_err_ratio"])) for r in rows
                  if r[key] == name and (model is None or r["model"] == model))


def plot_emulated(ax, rows):
    for method, (label, colour) in EMULATED.items():
        for model, dash in (("fma", "-"), ("trunc2", "-"), ("exact_rn", "--")):
            pts = points(rows, "method", method, model)
            if not pts:
                continue
            ks, ratios = zip(*pts)
            ax.plot(ks, ratios, dash, color=colour, marker="o" if dash == "-" else None,
                    markersize=3, label=label if model != "exact_rn" else None)
    ax.set_title("TF32 and 3xTF32 sums against the FP32 bound, emulated on the CPU\n"
                 "solid: truncating adder (2 extra bits), dashed: one rounding to nearest",
                 fontsize=10)
    return 1.1, "upper right"  # where the bound's label and the legend leave the lines clear


TWINS = {"mma_3xtf32": "3xtf32", "tf32_rs": "tf32"}  # drawn as one line where equal at every K


def plot_measured(ax, rows):
    same = {twin: points(rows, "variant", twin) == points(rows, "variant", of)
            for twin, of in TWINS.items() if points(rows, "variant", twin)}
    for variant, (label, colour, dash, marker) in MEASURED.items():
        pts = points(rows, "variant", variant)
        if not pts or same.get(variant):
            continue
        for twin, of in TWINS.items():
            if of == variant and same.get(twin):
                label += " = %s (equal at every K)" % twin
        ks, ratios = zip(*pts)
        ax.plot(ks, ratios, dash, color=colour, marker=marker, markersize=4, label=label)
    ax.set_title("FP32 matrices on the tensor cores: largest error against the FP32 bound\n"
                 "measured, every element of 256 x 256 x K checked (--fp32 --bound fp32)",
                 fontsize=10)
    return 1500, "lower left"


def main():
    if len(sys.argv) < 3:
        print("usage: plot_tf32_error.py CSV [CSV ...] PNG", file=sys.stderr)
        return 2
    rows, kinds = [], set()
    for path in sys.argv[1:-1]:
        with open(path, newline="") as f:
            part = list(csv.DictReader(f))
        cols = part[0].keys() if part else ()
        if "max_err_ratio" not in cols or "k" not in cols or not ({"method", "variant"} & cols):
            print(f"{path}: neither tf32_error's CSV nor the harness's", file=sys.stderr)
            return 2
        kinds.add("method" if "method" in cols else "variant")
        rows += part
    if len(kinds) > 1:
        print("emulated and measured CSVs: one kind per chart", file=sys.stderr)
        return 2
    fig, ax = plt.subplots(figsize=(8, 5.2))
    label_k, legend_at = (plot_emulated if "method" in kinds else plot_measured)(ax, rows)
    ax.axhline(1.0, color="grey", linewidth=1)
    ax.text(label_k, 1.25, "the FP32 bound: 2 (K+2) u S", color="grey", fontsize=8)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("K (M = N = %s)" % rows[0]["m"])
    ax.set_ylabel("largest |error| / FP32 bound")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc=legend_at)
    devices = sorted({r["device"] for r in rows})
    commits = sorted({r["git"] for r in rows})
    fig.text(0.01, 0.01, "%s, commit %s" % (", ".join(devices), ", ".join(commits)), fontsize=7,
             color="grey")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(sys.argv[-1], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())

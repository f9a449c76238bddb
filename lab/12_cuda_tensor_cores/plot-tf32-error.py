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
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
from stage_cli import pyplot  # noqa: E402

plt = pyplot()
from chart_style import legend_below, log_label  # noqa: E402
from reader import RESULT, TF32_ERROR, InputError, read  # noqa: E402

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
    return sorted((r["k"], r["max_err_ratio"]) for r in rows
                  if r[key] == name and (model is None or r["model"] == model) and
                  r["max_err_ratio"] is not None)


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
    return 1.1  # where the bound's label leaves the lines clear


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
    return 1500


def main():
    if len(sys.argv) < 3:
        print("usage: plot_tf32_error.py CSV [CSV ...] PNG", file=sys.stderr)
        return 2
    rows, kinds = [], set()
    for path in sys.argv[1:-1]:
        try:  # plots/reader.py: tf32_error's CSV or the harness's, whole
            schema, part = read(path, (TF32_ERROR, RESULT))
        except (InputError, OSError) as e:
            print(f"plot_tf32_error.py: {e}", file=sys.stderr)
            return 2
        kinds.add("method" if schema is TF32_ERROR else "variant")
        rows += part
    if len(kinds) > 1:
        print("emulated and measured CSVs: one kind per chart", file=sys.stderr)
        return 2
    fig, ax = plt.subplots(figsize=(8, 6.4))
    label_k = (plot_emulated if "method" in kinds else plot_measured)(ax, rows)
    ax.axhline(1.0, color="grey", linewidth=1)
    ax.text(label_k, 1.25, "the FP32 bound: 2 (K+2) u S", color="grey", fontsize=8)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(log_label("K (M = N = %s)" % rows[0]["m"]))
    ax.set_ylabel(log_label("largest |error| / FP32 bound"))
    ax.grid(True, which="major", alpha=0.3)
    legend_below(ax, ncol=2)  # (inside, it covered the small K's points)
    devices = sorted({r["device"] for r in rows})
    commits = sorted({r["git"] for r in rows})
    fig.text(0.01, 0.01, "%s, commit %s" % (", ".join(devices), ", ".join(commits)), fontsize=7,
             color="grey")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(sys.argv[-1], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""plots/14_amx.py CSV PNG: chapter 14's chart, from lab/14_amx/bench.sh's CSVs.

    CSV   results/<machine>/14_amx.csv (its siblings 14_amx_fp32.csv and 14_runs/peak.txt are
          read from the same folder when present)
    PNG   where the chart goes (make plots: docs/figures/<machine>/14_amx.png)

Left: BF16 A and B on one thread, GFLOP/s against n for every variant and MKL's BF16 GEMM, the
three units' peaks (--peak) dotted. Right: FP32 A, B and C, amx_fp32 against MKL's and OpenBLAS's
sgemm and the FP32 FMA peak. Medians over the rounds; rows that failed their check are left out.
"""
import os
import re
import statistics
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from reader import RESULT, InputError, read_rows, read_text, sibling  # noqa: E402
from chart_style import Styles, legend_below, log_axes  # noqa: E402
from stage_cli import passed_square, pyplot, run, save  # noqa: E402

plt = pyplot()  # (before anything is read: a python without matplotlib says so)


def lines(data, threads):
    """{(name, is_library): {n: median GFLOP/s}}: the variants' rows, and each library's own rows"""
    acc = defaultdict(lambda: defaultdict(list))
    for r in data:
        if r["threads"] == threads:
            lib = bool(r["baseline"]) and r["variant"] == r["baseline"].lower()
            acc[(r["baseline"] if lib else r["variant"], lib)][r["n"]].append(r["gflops"])
    return {v: {n: statistics.median(g) for n, g in sorted(d.items())} for v, d in acc.items()}


def peaks(folder):
    """{'FP32 FMA': x, 'VDPBF16PS': y, 'TDPBF16PS': z} from 14_runs/peak.txt: the higher of the
    --peak runs at the start and the end of bench.sh"""
    out = {}
    path = os.path.join(folder, "14_runs", "peak.txt")
    names = {"VFMADD231PS": "FP32 FMA", "VDPBF16PS": "VDPBF16PS", "TDPBF16PS": "TDPBF16PS"}
    if os.path.exists(path):
        for line in read_text(path).splitlines():
            m = re.match(r"(\S+) .*?\s([0-9.]+) GFLOP/s", line)
            if m and m.group(1) in names:
                key = names[m.group(1)]
                out[key] = max(out.get(key, 0.0), float(m.group(2)))
    return out


STYLE = {"simd": ("05's FP32 kernel (simd)", "tab:gray", "o"),
         "avx512_bf16": ("avx512_bf16", "tab:olive", "v"),
         "amx_naive": ("amx_naive", "tab:cyan", "s"),
         "amx_blocked": ("amx_blocked", "tab:blue", "D"),
         "amx_pipelined": ("amx_pipelined", "tab:green", "^"),
         "amx_bf16x1": ("amx_bf16x1 (not FP32-accurate)", "tab:pink", "x"),
         "amx_fp32_folded": ("amx_fp32_folded", "tab:purple", "s"),
         "amx_fp32": ("amx_fp32", "tab:red", "D")}


def panel(ax, data, title, variants, peak_lines):
    styles = Styles()  # each variant its own colour; each library a dash and colour of its own
    for label, value, color in peak_lines:
        ax.axhline(value, **styles.take((color,), (":",)), linewidth=1)
        # x in the axes' own units, so the label stays inside whatever the sizes are
        ax.text(0.02, value * 1.015, f"{label} peak {value:.0f} (--peak)", fontsize=7, color=color,
                transform=ax.get_yaxis_transform())
    for (name, lib), line in sorted(lines(data, 1).items(), key=lambda kv: kv[0][1]):
        if not lib and name in variants:
            label, color, marker = STYLE[name]
            ax.plot(list(line), list(line.values()), marker=marker,
                    **styles.take((color,), ("-",)), label=label)
        elif lib:
            ax.plot(list(line), list(line.values()), **styles.library(name), marker=".",
                    label=name + " (library)")
    sizes = sorted({n for line in lines(data, 1).values() for n in line})
    # the sizes measured as numbers (1024, not 2^10)
    log_axes(ax, sizes, [str(n) for n in sizes], xlabel="n (M = N = K)", ylabel="GFLOP/s, one thread")
    top = max((value for _, value, _ in peak_lines), default=0) * 1.08
    if top > ax.get_ylim()[1]:  # room above the highest peak for its label
        ax.set_ylim(top=top)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    legend_below(ax, below=32, ncol=2, fontsize=7)  # under the axes: it covered the 4096 ends


def main(csv_path, png):
    folder = os.path.dirname(csv_path)
    bf16 = list(passed_square(read_rows(csv_path, RESULT, stage="14_amx"), csv_path))
    fp32 = list(passed_square(sibling(csv_path, "14_amx_fp32.csv", RESULT, stage="14_amx"),
                              os.path.join(folder, "14_amx_fp32.csv")))
    if not bf16:
        raise InputError(f"{csv_path}: no checked rows of square sizes")
    pk = peaks(folder)
    device = bf16[0]["device"]
    # the FP32 panel only where bench.sh wrote its CSV (make run writes the BF16 one alone)
    fig, axes = plt.subplots(1, 2 if fp32 else 1, figsize=(12, 4.8) if fp32 else (6.5, 4.8),
                             squeeze=False)
    axes = axes[0]
    panel(axes[0], bf16, "BF16 A and B, FP32 C (checked against the rounded inputs)",
          ["simd", "avx512_bf16", "amx_naive", "amx_blocked", "amx_pipelined"],
          [(k, v, c) for k, v, c in (("TDPBF16PS", pk.get("TDPBF16PS"), "tab:blue"),
                                     ("FP32 FMA", pk.get("FP32 FMA"), "tab:gray"),
                                     ("VDPBF16PS", pk.get("VDPBF16PS"), "tab:olive")) if v])
    if fp32:
        panel(axes[1], fp32, "FP32 A, B and C (checked against the FP32 bound)",
              ["simd", "amx_fp32_folded", "amx_fp32"],
              [("FP32 FMA", pk["FP32 FMA"], "tab:gray")] if "FP32 FMA" in pk else [])
    rounds = max(Counter((r["variant"], r["n"], r["threads"]) for r in bf16).values())
    fig.suptitle(f"14_amx on {os.path.basename(os.path.abspath(folder))} ({device}), "
                 f"{'medians of %d rounds' % rounds if rounds > 1 else 'one round'} on a shared "
                 "machine: compare lines within a panel, not with other runs", fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(png) or ".", exist_ok=True)
    save(fig, csv_path, png, dpi=110)


if __name__ == "__main__":
    run(main, "plots/14_amx.py results/<machine>/14_amx.csv OUT.png")

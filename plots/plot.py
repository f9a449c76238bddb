#!/usr/bin/env python3
"""plot.py: result CSVs -> PNG charts (matplotlib, no display needed).

Usage:
    plot.py [--out DIR] [--size N] PATH...

    PATH      a CSV file, or a directory (every *.csv in it, not recursive)
    --out     where the PNGs go (default docs/figures)
    --size    the matrix size of the progression bar chart (default 1024 on a CPU, 4096 on
              a GPU, where 1024 is too small to fill the device: the chapters quote 4096)

Input: result CSVs written by the stages' --csv option, with the header
    stage,variant,m,n,k,threads,reps,ms_median,ms_min,gflops,baseline,
    baseline_gflops,max_err_ratio,check,device,compiler,git,date,load,ratio_spread
(or the same without the last two columns, as written before the harness recorded them)
and, optionally, peak CSVs written by `make peak`, with the header
    device,measure,threads,value,unit,date
A file's kind is told by its header, not by its name.

Why it is one file: one reader of the CSVs and one style for every chart (axes, ticks, colours,
the busy marks), so that every figure of the book reads the same way.

Charts written (each path is printed on stdout):
    <stage>.png          GFLOP/s against size for every variant of the stage, with
                         the baseline library (dashed) and the measured FMA peak
                         (dotted). <stage>_t<T>.png when the stage ran at several
                         thread counts; _<device> is added when several devices did.
    progression.png      the best variant of each stage at --size, as bars (best: the highest
                         ratio to the library timed beside it, where all have one against
                         one library; else the most GFLOP/s)
    progression_sizes.png  the best variant of each stage against size
    When both CPU and GPU results are given, the progression charts are split into
    progression_cpu*.png and progression_gpu*.png (a cuBLAS baseline means GPU);
    with several devices of one kind, one set per device (_<device> added).
    Progression charts have a log GFLOP/s axis; a stage chart has one when its
    lines are more than 30x apart; every log axis says so in its label. No two
    lines of a chart share colour and dash (plots/chart_style.py): variants
    solid, each library dashed in its own colour and dash; legends below the axes.

Rows with check FAIL are left out (with a warning on stderr). Line charts need
square problems (m = n = k, plotted at n); other shapes are left out with a note.
Repeated rows of one variant, size and thread count are combined by their median.
Bad input (a missing file; a CSV that is binary, cut off, damaged or of an unknown header, a
number out of its range, a stage that is not a plain name, plots/reader.py; no rows) exits with
status 2 and one line; no chart is written outside --out.
"""
import argparse
import glob
import os
import re
import statistics
import sys
from collections import defaultdict

from stage_cli import pyplot  # noqa: E402

plt = pyplot()  # (before anything is read: a python without matplotlib says so)
from matplotlib.ticker import FuncFormatter  # noqa: E402

from chart_style import (Styles, legend_below, log_y as log_y_axis, odd_sizes_key,  # noqa: E402
                         plot_by_size, size_axis)
from reader import PEAK, RESULT, InputError, OtherSchema, read  # noqa: E402  (plots/reader.py)

PEAK_NAMES = {"fma_scalar": "scalar FMA", "fma_avx2": "AVX2 FMA",
              "fma_avx512": "AVX-512 FMA", "fp32_fma": "FP32 FMA"}
GPU_BASELINES = ("cublas", "cublasxt")
BUSY_CORES = 0.5  # the harness's mark (common/bench.h): a row measured under this much load
BF16_STAGES = re.compile(r"^(12|14)_")  # stages whose default run multiplies BF16 inputs
FP32_MODE = re.compile(r"tf32|^amx_fp32|^amx_bf16x")  # their --fp32 variants


# ---------------------------------------------------------------- reading

def csv_files(paths):
    """Expand directories into their *.csv files as (path, named) pairs, named being False
    for files found in a folder; complain about missing paths."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(glob.glob(os.path.join(path, "*.csv")))
            if not found:
                raise InputError(f"{path}: no .csv files in this directory")
            files += [(f, False) for f in found]
        elif os.path.isfile(path):
            files.append((path, True))
        else:
            raise InputError(f"{path}: no such file or directory")
    return files


def read_csv(path):
    """('result' | 'peak', rows) with the numeric fields converted (plots/reader.py); a header
    alone gives no rows (load() refuses a run with no result rows at all)."""
    schema, rows = read(path, (RESULT, PEAK), need_rows=False)
    return ("peak" if schema is PEAK else "result"), rows


def load(paths):
    """All result rows and all peak rows from the given paths. Each result row gets a
    "family": "bf16" for stage 12's tensor-core rows (BF16 inputs, its default run), "fp32" for
    every other row, stage 12's --fp32 rows (tf32, 3xtf32) among them: a file of stage 12 with
    a tf32 variant in it is an --fp32 run, baseline rows and all."""
    results, peaks = [], []
    for path, named in csv_files(paths):
        try:
            kind, rows = read_csv(path)
        except OtherSchema:
            if named:
                raise
            print(f"plot.py: skipping {path}: another schema (a stage's own CSV)", file=sys.stderr)
            continue
        if kind == "result":
            # stages 12 and 14 run BF16 products by default and FP32 ones with --fp32 (tf32,
            # 3xtf32; amx_fp32 and its steps): a file with one of those is an --fp32 run
            fp32_run = any(FP32_MODE.search(r["variant"]) for r in rows if BF16_STAGES.match(r["stage"]))
            for r in rows:
                r["family"] = "bf16" if BF16_STAGES.match(r["stage"]) and not fp32_run else "fp32"
        (results if kind == "result" else peaks).extend(rows)
    if not results:
        raise InputError("no result rows in " + " ".join(paths))
    return results, peaks


def plottable(results):
    """Drop FAIL rows (warning) and non-square shapes (note); return the rest."""
    kept, odd = [], []
    for r in results:
        if r["check"].upper() == "FAIL":
            print(f"warning: skipping FAIL row: {r['stage']} {r['variant']} "
                  f"{r['m']}x{r['n']}x{r['k']} threads={r['threads']} ({r['device']})",
                  file=sys.stderr)
        elif not r["m"] == r["n"] == r["k"]:
            odd.append(f"{r['stage']} {r['variant']} {r['m']}x{r['n']}x{r['k']}")
        else:
            kept.append(r)
    if odd:
        print(f"note: {len(odd)} non-square row(s) left out of the charts "
              f"(they need m=n=k), e.g. {odd[0]}", file=sys.stderr)
    if not kept:
        raise InputError("no square rows that passed their check: nothing to plot")
    return kept


# ---------------------------------------------------------------- summarising

def is_gpu(rows):
    """GPU results are the ones measured against cuBLAS or cuBLASXt (or, run with
    --no-baseline, the ones whose device name says NVIDIA or GPU)."""
    return any(r["baseline"].lower() in GPU_BASELINES
               or (not r["baseline"] and re.search(r"nvidia|gpu", r["device"], re.I))
               for r in rows)


def is_baseline_row(r):
    return r["baseline"] != "" and r["variant"] == r["baseline"].lower()


def median_by(rows, key, value):
    """{key(row): median of value(row)} over rows, ignoring negative values (missing)."""
    groups = defaultdict(list)
    for r in rows:
        if value(r) >= 0:
            groups[key(r)].append(value(r))
    return {k: statistics.median(v) for k, v in groups.items()}


def variant_lines(rows):
    """{variant: {n: median GFLOP/s}} for the variants (not the baseline's rows)."""
    lines = defaultdict(dict)
    for (variant, n), g in median_by([r for r in rows if not is_baseline_row(r)],
                                     lambda r: (r["variant"], r["n"]),
                                     lambda r: r["gflops"]).items():
        lines[variant][n] = g
    return dict(lines)


def baseline_lines(rows):
    """{(library, threads): {n: GFLOP/s}}: from the baseline's own rows where there are
    any, else the median of the baseline_gflops column measured beside the variants."""
    lines = {}
    for name, threads in sorted({(r["baseline"], r["threads"]) for r in rows if r["baseline"]}):
        mine = [r for r in rows if r["baseline"] == name and r["threads"] == threads]
        own = [r for r in mine if is_baseline_row(r)]
        line = (median_by(own, lambda r: r["n"], lambda r: r["gflops"]) if own else
                median_by(mine, lambda r: r["n"], lambda r: r["baseline_gflops"]))
        if line:
            lines[(name, threads)] = line
    return lines


def pick_size(sizes, want):
    """want if measured, else the largest size below it, else the nearest above."""
    below = [s for s in sizes if s <= want]
    return max(below) if below else min(sizes, key=lambda s: abs(s - want))


def peak_line(peaks, device, threads, gpu):
    """(GFLOP/s, label) of the measured FMA peak for device at threads, or None."""
    fma = [p for p in peaks if p["device"] == device and p["unit"].lower() == "gflop/s"
           and (p["measure"] == "fp32_fma" if gpu else p["measure"].startswith("fma"))]
    if not fma:
        return None
    if gpu:
        best = max(fma, key=lambda p: p["value"])
        return best["value"], f"{PEAK_NAMES['fp32_fma']} peak (make peak)"
    closest = min(abs(p["threads"] - threads) for p in fma)
    best = max((p for p in fma if abs(p["threads"] - threads) == closest),
               key=lambda p: p["value"])
    name = PEAK_NAMES.get(best["measure"], best["measure"])
    return best["value"], f"{name} peak{threads_suffix(best['threads'], gpu)} (make peak)"


def threads_suffix(t, gpu):
    """", 2 threads" for CPU rows; GPU rows say nothing unless the column is above 1."""
    if gpu:
        return f", threads={t}" if t > 1 else ""
    return f", {t} thread" + ("s" if t != 1 else "")


def gflops_text(g):
    return f"{g:,.0f}" if g >= 100 else f"{g:.3g}"


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "unknown"


def chart_path(out_dir, name):
    """out_dir/name. A chart's name comes from the CSV (its stage; plots/reader.py refuses a stage
    that is not a plain name): one that would be written outside out_dir, or hidden, is bad input."""
    if name.startswith(".") or "/" in name or (os.altsep and os.altsep in name) or os.sep in name:
        raise InputError(f"a chart named {name!r}, from a field of the CSV, would be written "
                         f"outside {out_dir} or hidden in it: not drawn")
    return os.path.join(out_dir, name)


# ---------------------------------------------------------------- drawing

def new_axes(title, subtitle, ylabel="GFLOP/s"):
    fig, ax = plt.subplots(figsize=(8, 5), dpi=120, layout="constrained")
    fig.suptitle(f"{title}\n{subtitle}", fontsize=11)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", alpha=0.3)
    return fig, ax


def draw_baselines(ax, styles, rows, gpu, with_threads=True):
    """Each baseline library against size, dashed: a colour for each library (OpenBLAS black,
    BLIS grey, ...) and a dash for each of its cores and thread counts (chart_style.Styles), so
    that no two share a style. Returns (every value drawn, the odd sizes drawn apart)."""
    lines = baseline_lines(rows)
    busy = {r["n"] for r in rows if r.get("load", -1) >= BUSY_CORES}
    odd = []
    for (name, threads), line in sorted(lines.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        style = styles.library(name)
        sizes = sorted(line)
        odd += plot_by_size(ax, line, name + (threads_suffix(threads, gpu) if with_threads else ""),
                            marker=None, **style)[1]
        # timed alternately with the variants: under the same load, so hollow where they are
        marked = [s for s in sizes if s in busy]
        if marked:
            ax.plot(marked, [line[s] for s in marked], "o", mfc="white", mec=style["color"],
                    zorder=3)
    return [g for line in lines.values() for g in line.values()], odd


def draw_peak(ax, styles, peak):
    """The measured FMA peak (make peak) as a dotted red line."""
    if peak:
        ax.axhline(peak[0], **styles.take(("tab:red",), (":",)), linewidth=1.5, label=peak[1])


def save(fig, ax, out_dir, name, log_y):
    if log_y:
        log_y_axis(ax, ax.get_ylabel(), gflops_text)
    else:
        ax.set_ylim(bottom=0)
    widest = max((len(t) for t in ax.get_legend_handles_labels()[1]), default=0)
    legend_below(ax, ncol=3 if 3 * widest <= 120 else 2)  # so that it never hides a line
    path = chart_path(out_dir, name)
    fig.savefig(path, bbox_inches="tight")  # the legend below the axes too, however wide
    plt.close(fig)
    print(path)


def near_sizes(rows):
    """{size: the size it stands beside}: sizes within 1% of a rounder one (4095 and 4097
    beside 4096, a sweep's odd-size probes; on a log axis they stack into a vertical
    bar). Of each such cluster the chart keeps the roundest size, the one with the most factors
    of two (4096; 6016 beside 6000), on a tie the one more variants ran; the CSV and the
    chapter's tables keep them all."""
    count = defaultdict(set)
    for r in rows:
        count[r["n"]].add(r["variant"])
    def rank(n):
        return ((n & -n) if n > 0 else 0, len(count[n]))
    sizes, near, cluster = sorted(count), {}, []
    for n in sizes + [None]:
        if cluster and (n is None or n - cluster[-1] > 0.01 * n):
            keep = max(cluster, key=rank)
            near.update((c, keep) for c in cluster if c != keep)
            cluster = []
        if n is not None:
            cluster.append(n)
    return near


def plot_stage(rows, peaks, out_dir, name):
    """One stage, one device, one thread count: GFLOP/s against size per variant."""
    # A line drops a near size only where it has the size kept (a line measured at 4097 alone
    # keeps its point).
    near, have = near_sizes(rows), {(r["variant"], r["n"]) for r in rows}
    dropped = [r for r in rows if r["n"] in near and (r["variant"], near[r["n"]]) in have]
    if dropped:
        print(f"note: {name}: sizes {', '.join(map(str, sorted({r['n'] for r in dropped})))} "
              "left out of the lines that also ran the size within 1% of them")
        rows = [r for r in rows if r not in dropped]
    r0, gpu = rows[0], is_gpu(rows)
    fig, ax = new_axes(f"{r0['stage']}: GFLOP/s by size{threads_suffix(r0['threads'], gpu)}",
                       r0["device"] or "unknown device")
    styles = Styles()
    values = []
    busy = {(r["variant"], r["n"]) for r in rows if r.get("load", -1) >= BUSY_CORES}
    odd = []  # sizes drawn as points of their own (1000 beside 1024)
    for variant, line in sorted(variant_lines(rows).items()):
        sizes = sorted(line)
        drawn, more = plot_by_size(ax, line, variant, **styles.variant())
        odd += more
        values += line.values()
        marked = [s for s in sizes if (variant, s) in busy]
        if marked:  # measured while others took a core: hollow, so a reader discounts it
            ax.plot(marked, [line[s] for s in marked], "o", mfc="white",
                    mec=drawn.get_color(), zorder=3)
    if busy:
        ax.plot([], [], "o", color="black", mfc="white", mec="black",
                label=f"hollow: measured while other processes took {BUSY_CORES}+ cores")
    drawn, more = draw_baselines(ax, styles, rows, gpu, with_threads=False)
    values += drawn
    odd_sizes_key(ax, odd + more)
    peak = peak_line(peaks, r0["device"], r0["threads"], gpu)
    draw_peak(ax, styles, peak)
    values = [v for v in values + ([peak[0]] if peak else []) if v > 0]
    size_axis(ax)
    # A naive loop and a tuned library differ by 100x: a log axis keeps both visible.
    save(fig, ax, out_dir, name, log_y=bool(values) and max(values) > 30 * min(values))


BEST_RULE = "best: the highest ratio to the library timed beside it (else the most GFLOP/s)"


def best_per_stage(rows, want):
    """{stage: (variant, threads, n, GFLOP/s)}: each stage's best variant at size `want` (or the
    nearest size measured), with its median GFLOP/s there. Best: the highest ratio to the library
    timed alternately with it, where every variant measured there has one against the same
    library; else the most GFLOP/s. On a shared machine GFLOP/s measured minutes apart move
    with the load and the ratios taken side by side do not: at 1024 chapter 02's ikj ran at 0.126
    of OpenBLAS and transposed_simd at 0.101, though their GFLOP/s read 9.3 and 11.3. The
    README's table names the same variant (tests/readme_progression.py)."""
    best = {}
    for stage in sorted({r["stage"] for r in rows}):
        mine = [r for r in rows if r["stage"] == stage and not is_baseline_row(r)]
        if not mine:
            continue
        n = pick_size({r["n"] for r in mine}, want)
        at = [r for r in mine if r["n"] == n]
        key = lambda r: (r["variant"], r["threads"])  # noqa: E731
        gflops = median_by(at, key, lambda r: r["gflops"])
        paired = len({r["baseline"] for r in at}) == 1 and all(r["baseline_gflops"] > 0 for r in at)
        score = median_by(at, key, lambda r: r["gflops"] / r["baseline_gflops"]) if paired else gflops
        variant, threads = max(score, key=score.get)
        best[stage] = (variant, threads, n, gflops[(variant, threads)])
    return best


def device_peak(rows, peaks, gpu):
    """The peak of the rows' device at the most threads they used."""
    return peak_line(peaks, rows[0]["device"], max(r["threads"] for r in rows), gpu)


# stages 12's and 14's --fp32 variants within the FP32 bound (tf32, amx_bf16x1 and x3 are not;
# 14's "simd" is 05's kernel, linked for comparison)
FP32_ACCURATE = ("3xtf32", "mma_3xtf32", "amx_fp32", "amx_fp32_folded")


def progression_panels(rows, gpu):
    """[(title, rows)]: the panels of a progression chart. CPU: one per thread count. GPU: the
    FP32 stages (with stage 12's FP32-accurate 3xTF32), the tensor cores' BF16 climb, and the
    stages on several GPUs, each against what measures it."""
    if not gpu:  # a panel a thread count; BF16 products (stage 14) in panels of their own
        panels = []
        for fam in ("fp32", "bf16"):
            mine = [r for r in rows if r.get("family", "fp32") == fam and
                    (fam == "bf16" or not BF16_STAGES.match(r["stage"]) or
                     r["variant"] in FP32_ACCURATE or is_baseline_row(r))]
            for t in sorted({r["threads"] for r in mine}):
                what = f"{t} thread{'s' if t != 1 else ''}"
                panels.append((what if fam == "fp32" else f"BF16 products, {what}",
                               [r for r in mine if r["threads"] == t]))
        return panels
    multi = {r["stage"] for r in rows if r["baseline"].lower() == "cublasxt"}
    fp32 = [r for r in rows if r["stage"] not in multi and r.get("family") != "bf16" and
            (not BF16_STAGES.match(r["stage"]) or r["variant"] in FP32_ACCURATE or
             is_baseline_row(r))]
    bf16 = [r for r in rows if r.get("family") == "bf16"]
    several = [r for r in rows if r["stage"] in multi]
    if several:
        most = max(r["threads"] for r in several)
        several = [r for r in several if r["threads"] == most]
    panels = [("FP32 (FP32 inputs, FP32-accurate)", fp32), ("BF16 on the tensor cores", bf16),
              (f"several GPUs ({max((r['threads'] for r in several), default=0)})", several)]
    return [(t, p) for t, p in panels if any(not is_baseline_row(r) for r in p)]


LIBRARIES = ("openblas", "mkl", "blis", "cublas")  # (06's "classic" baseline is its own code)


def best_library(rows, want, gpu):
    """(name, n, GFLOP/s) of the fastest library in rows near size want, or None."""
    best = None
    for (name, _), line in baseline_lines(rows).items():
        if not name.lower().startswith(LIBRARIES):
            continue
        n = pick_size(line, want)
        if best is None or line[n] > best[2]:
            best = (name, n, line[n])
    return best


def progression_bars(rows, want, gpu):
    """[(stage, variant, GFLOP/s, n)]: the bars of one progression panel, each stage's best
    variant at size want (or the nearest measured) in rows; GPU stage 12 gives each of its
    variants (the climb)."""
    bars = []
    for stage, (variant, threads, n, g) in best_per_stage(rows, want).items():
        if gpu and stage.startswith("12_") and rows and rows[0].get("family") == "bf16":
            for v, line in sorted(variant_lines([r for r in rows if r["stage"] == stage]).items(),
                                  key=lambda kv: kv[1].get(pick_size(kv[1], want), 0)):
                m = pick_size(line, want)
                bars.append((stage, v, line[m], m))
        else:
            bars.append((stage, variant, g, n))
    return bars


def draw_progression_panel(ax, title, rows, peaks, want, gpu):
    """Bars: progression_bars(). One line for the best library measured beside them, and the
    ceiling that bounds them, each named in the legend."""
    bars = [(f"{stage[:2]}: {v}" if gpu and stage.startswith("12_") and rows[0].get("family") == "bf16"
             else f"{stage}\n{v}", g, n) for stage, v, g, n in progression_bars(rows, want, gpu)]
    heights = [b[1] for b in bars]
    drawn = ax.bar(range(len(bars)), heights, color="tab:blue", width=0.6)
    labels = [gflops_text(g) + (f"\nn={n}" if n != want else "") for _, g, n in bars]
    ax.bar_label(drawn, labels=labels, fontsize=7, padding=2)
    ax.set_xticks(range(len(bars)), [b[0] for b in bars], fontsize=7, rotation=30, ha="right")
    values = list(heights)
    lib = best_library(rows, want, gpu)
    if lib:
        ax.axhline(lib[2], linestyle="--", color="black",
                   label=f"best library here: {lib[0]}, n={lib[1]} ({gflops_text(lib[2])})")
        values.append(lib[2])
    device = rows[0]["device"]
    if gpu:
        measure = {"BF16 on the tensor cores": "bf16_wgmma"}.get(title, "fp32_fma")
        ceiling = [p for p in peaks if p["device"] == device and p["measure"] == measure]
        if ceiling and not title.startswith("several"):
            c = max(p["value"] for p in ceiling)
            ax.axhline(c, linestyle=":", color="tab:red", linewidth=1.5,
                       label=f"{'BF16 tensor-core' if measure == 'bf16_wgmma' else 'FP32 FMA'} "
                             f"peak, measured ({gflops_text(c)})")
            values.append(c)
    elif not title.startswith("BF16"):  # (the FP32 FMA peak says nothing of the matrix unit's)
        peak = peak_line(peaks, device, rows[0]["threads"], gpu)
        if peak:
            ax.axhline(peak[0], linestyle=":", color="tab:red", linewidth=1.5,
                       label=f"{peak[1]} ({gflops_text(peak[0])})")
            values.append(peak[0])
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda g, _: gflops_text(g)))
    low, high = min(v for v in values if v > 0), max(values)
    ax.set_ylim(low / 3, high * 6)  # room above for the labels and the legend
    ax.set_title(title, fontsize=10)
    ax.set_ylabel("GFLOP/s (log scale)")
    ax.grid(True, which="major", axis="y", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="upper left")


def progression_chart(rows, want, gpu):
    """[(title, rows)]: the panels the progression chart of one device draws, [] for none."""
    # (a thread count that only one stage ran, 04's sweep to 3 threads, is no progression)
    panels = [(t, p) for t, p in progression_panels(rows, gpu) if best_per_stage(p, want)]
    if not gpu:  # FP32 panels of one stage give way to those of several; 14's BF16 ones stay
        fp32 = [(t, p) for t, p in panels if not t.startswith("BF16")]
        several = [(t, p) for t, p in fp32 if len(best_per_stage(p, want)) >= 2]
        panels = (several or fp32) + [(t, p) for t, p in panels if t.startswith("BF16")]
    if not [t for t, _ in panels if not t.startswith("several GPUs")]:
        return []  # only the baseline's rows, or only stage 10 (its own chart): nothing to add
    return panels


def plot_progression(rows, peaks, out_dir, suffix, want):
    """The best variant of each stage at one size, a panel per thread count (CPU) or per kind
    of arithmetic (GPU), each against the best library measured there and its ceiling.
    rows: one device's rows, of one kind (CPU or GPU)."""
    gpu, device = is_gpu(rows), rows[0]["device"] or "unknown device"
    panels = progression_chart(rows, want, gpu)
    if not panels:
        return
    widths = [max(3, len(best_per_stage(p, want)) + (4 if gpu and "BF16" in t else 0))
              for t, p in panels]
    fig, axes = plt.subplots(1, len(panels), figsize=(max(8, 1.15 * sum(widths) + 2), 5.6),
                             dpi=120, layout="constrained", squeeze=False,
                             gridspec_kw={"width_ratios": widths})
    fig.suptitle(f"Progression ({'GPU' if gpu else 'CPU'}): the best variant of each stage, "
                 f"n={want} (or the nearest measured size, marked)\n{BEST_RULE}\n{device}",
                 fontsize=11)
    for ax, (title, mine) in zip(axes[0], panels):
        draw_progression_panel(ax, title, mine, peaks, want, gpu)
    path = chart_path(out_dir, f"progression{suffix}.png")
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    print(path)


def plot_progression_sizes(rows, peaks, out_dir, suffix, want):
    """Lines: for each stage its best variant (the best at --size) against size."""
    gpu, device = is_gpu(rows), rows[0]["device"] or "unknown device"
    if gpu:  # one arithmetic on one GPU: the FP32 panel's rows
        rows = dict(progression_panels(rows, gpu)).get("FP32 (FP32 inputs, FP32-accurate)", [])
    best = best_per_stage(rows, want)
    if not best:
        return
    fig, ax = new_axes(f"Progression ({'GPU, FP32' if gpu else 'CPU'}): each stage's best "
                       f"variant at n={want} (or nearest), by size\n{BEST_RULE}", device)
    styles, used_threads, odd = Styles(), set(), []
    for stage, (variant, threads, _, _) in best.items():
        line = variant_lines([r for r in rows if r["stage"] == stage
                              and r["threads"] == threads])[variant]
        odd += plot_by_size(ax, line, f"{stage}: {variant}{threads_suffix(threads, gpu)}",
                            **styles.variant())[1]
        used_threads.add(threads)
    for t in sorted(used_threads, reverse=True):  # a line a thread count: the best library there
        mine = [r for r in rows if r["threads"] == t]
        lib = best_library(mine, want, gpu)
        if lib:
            odd += plot_by_size(ax, baseline_lines(mine)[(lib[0], t)],
                                f"best library: {lib[0]}{threads_suffix(t, gpu)}", marker=None,
                                **styles.library(lib[0]))[1]
    draw_peak(ax, styles, device_peak(rows, peaks, gpu))
    odd_sizes_key(ax, odd)
    size_axis(ax)
    save(fig, ax, out_dir, f"progression{suffix}_sizes.png", log_y=True)


def plot_stages(rows, peaks, out_dir):
    """One chart per stage, device and thread count; the name says only what varies."""
    groups = defaultdict(list)  # (stage, family, device, threads) -> rows
    for r in rows:
        groups[(r["stage"], r.get("family", "fp32"), r["device"], r["threads"])].append(r)
    for (stage, family, device, threads), mine in sorted(groups.items()):
        several_devices = len({d for s, _, d, _ in groups if s == stage}) > 1
        several_threads = len({t for s, f, d, t in groups if s == stage and d == device}) > 1
        # stage 12 draws its BF16 climb under its name, an --fp32 run beside it
        two_families = len({f for s, f, _, _ in groups if s == stage}) > 1
        name = (stage + (f"_{family}" if two_families and family != "bf16" else "")
                + (f"_{slug(device)}" if several_devices else "")
                + (f"_t{threads}" if several_threads else ""))
        plot_stage(mine, peaks, out_dir, name + ".png")


def progression_groups(rows, want):
    """[(suffix, size, rows)]: a progression chart per kind (CPU, GPU: 1000x apart) and per
    device, its file name's suffix and its bars' size (want, or None: each kind's default)."""
    groups = defaultdict(list)  # (kind, device) -> rows
    for key in {(r["stage"], r["device"]) for r in rows}:
        mine = [r for r in rows if (r["stage"], r["device"]) == key]
        groups[("gpu" if is_gpu(mine) else "cpu", key[1])] += mine
    kinds = {kind for kind, _ in groups}
    out = []
    for (kind, device), mine in sorted(groups.items()):
        several_devices = len([k for k, _ in groups if k == kind]) > 1
        suffix = ((f"_{kind}" if len(kinds) > 1 else "")
                  + (f"_{slug(device)}" if several_devices else ""))
        out.append((suffix, want or (4096 if kind == "gpu" else 1024), mine))
    return out


def plot_progressions(rows, peaks, out_dir, want):
    """The progression charts of progression_groups()."""
    for suffix, n, mine in progression_groups(rows, want):
        plot_progression(mine, peaks, out_dir, suffix, n)
        plot_progression_sizes(mine, peaks, out_dir, suffix, n)


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description="Draw stage and progression charts "
                                 "from result CSVs.")
    ap.add_argument("--out", default="docs/figures", help="output folder (docs/figures)")
    ap.add_argument("--size", type=int, default=None,
                    help="size of the progression bars (default 1024 on a CPU, 4096 on a GPU)")
    ap.add_argument("paths", nargs="+", metavar="PATH", help="CSV file or folder of CSVs")
    args = ap.parse_args()
    try:
        if args.size is not None and args.size < 1:
            raise InputError(f"--size {args.size}: must be at least 1")
        results, peaks = load(args.paths)
        rows = plottable(results)
    except (InputError, OSError) as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 2
    try:
        os.makedirs(args.out, exist_ok=True)
        plot_stages(rows, peaks, args.out)
        plot_progressions(rows, peaks, args.out, args.size)
    except InputError as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"plot.py: cannot write a chart: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""report.py: chapter 06's tables and two charts from the CSVs that bench.sh writes.

Usage:
    lab/06_strassen/tables.py [MACHINE]        (default xeon-2c)

Reads   results/MACHINE/06_strassen.csv            (headline, --vs classic)
        results/MACHINE/06_strassen/crossover.csv  (one level forced, --vs classic)
        results/MACHINE/06_strassen/errors.csv     (--errors: max_err_ratio in (K+2)u units)
        results/MACHINE/06_strassen/breakdown.csv  (--breakdown)
        results/MACHINE/06_strassen/fold.csv       (--fold-c last / every / none)
Prints  the chapter's tables (Markdown) on stdout
Writes  docs/figures/MACHINE/06_strassen_crossover.png, 06_strassen_errors.png

"vs classic" in every table is the paired ratio the harness measures: classic's median
time over this variant's, the two timed alternately in one run. bench.sh repeats each run;
a table gives the median over the runs and, in brackets, the lowest and highest run.
A missing CSV skips its table.
"""
import os
import statistics
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
from reader import RESULT, STRASSEN_BREAKDOWN, InputError, read_rows  # noqa: E402

# c of each variant's check (main.c): the normwise bound max|C-R| <= c (K+2) u max(scale)
ERR_C = {"classic": 2, "reloaded_0lvl": 2, "strassen_1lvl": 24, "reloaded_1lvl": 24,
         "winograd_1lvl": 36, "strassen_2lvl": 72, "reloaded_2lvl": 72, "hybrid_2lvl": 108,
         "winograd": 162}
ORDER = ["classic", "reloaded_0lvl", "strassen_1lvl", "winograd_1lvl", "reloaded_1lvl",
         "strassen_2lvl", "winograd", "reloaded_2lvl", "hybrid_2lvl"]


def rows_of(path, schema=RESULT):
    """The rows of one of bench.sh's CSVs, read by plots/reader.py (a bad one is refused)."""
    if not os.path.isfile(path):
        print(f"({path}: not there, table skipped)\n")
        return []
    return read_rows(path, schema, "06_strassen")


def order_key(v):
    base = v.split("+")[0]
    return (ORDER.index(base) if base in ORDER else len(ORDER), v)


def spread(xs, fmt="{:.3f}"):
    if not xs:
        return "-"
    med = fmt.format(statistics.median(xs))
    if len(xs) == 1:
        return med
    return f"{med} [{fmt.format(min(xs))}–{fmt.format(max(xs))}]"


def paired(rows):
    """From --vs classic rows, per (variant, n), one value per run: the harness's paired
    ratio (classic's median time / the variant's, the two alternated) and the variant's
    GFLOP/s (median time). classic's own rows (variant == baseline) are left out."""
    ratio, gflops = defaultdict(list), defaultdict(list)
    for r in rows:
        if r["variant"] == r["baseline"] or r["baseline_gflops"] <= 0:
            continue
        key = (r["variant"], r["n"])
        gflops[key].append(r["gflops"])
        ratio[key].append(r["gflops"] / r["baseline_gflops"])
    return ratio, gflops


def headline(machine):
    rows = rows_of(f"results/{machine}/06_strassen.csv")
    if not rows:
        return
    ratio, gflops = paired(rows)
    sizes = sorted({n for _, n in ratio})
    variants = sorted({v for v, _ in ratio}, key=order_key)
    runs = max(len(x) for x in ratio.values())
    print(f"### Headline: vs classic, 2 threads ({runs} runs; median [lowest–highest run])\n")
    print("| variant | " + " | ".join(f"{n}: vs classic | GFLOP/s" for n in sizes) + " |")
    print("|---|" + "---:|---:|" * len(sizes))
    for v in variants:
        cells = []
        for n in sizes:
            cells.append(spread(ratio[(v, n)]) + "×" if (v, n) in ratio else "-")
            cells.append(spread(gflops[(v, n)], "{:.0f}") if (v, n) in ratio else "-")
        print(f"| {v} | " + " | ".join(cells) + " |")
    classic = defaultdict(list)
    for r in rows:
        if r["variant"] == "classic" and r["baseline"] == "classic" and r["baseline_gflops"] > 0:
            classic[r["n"]].append(r["baseline_gflops"])
    print("\nclassic's own GFLOP/s (the interleaved runs): " +
          ", ".join(f"{n}: {spread(classic[n], '{:.0f}')}" for n in sorted(classic)) + "\n")


def crossover(machine):
    rows = rows_of(f"results/{machine}/06_strassen/crossover.csv")
    if not rows:
        return None
    ratio, _ = paired(rows)
    sizes = sorted({n for _, n in ratio})
    variants = sorted({v for v, _ in ratio}, key=order_key)
    print("### Crossover: one level forced (--cutoff 2), vs classic\n")
    print("| size | " + " | ".join(variants) + " |")
    print("|---:|" + "---:|" * len(variants))
    for n in sizes:
        print(f"| {n} | " + " | ".join(spread(ratio.get((v, n), [])) + "×" for v in variants) + " |")
    print()
    for v in variants:
        meds = [(n, statistics.median(ratio[(v, n)])) for n in sizes if (v, n) in ratio]
        pays = [n for i, (n, _) in enumerate(meds) if all(m >= 1.0 for _, m in meds[i:])]
        print(f"{v}: pays (median >= 1.00x from here on) from {pays[0] if pays else 'no size'}")
    # the cutoff: the smallest size from which the middle one-level variant (the median of
    # the variants' medians) is at least as fast as classic, at that size and every larger one
    mid = [(n, statistics.median([statistics.median(ratio[(v, n)]) for v in variants
                                  if (v, n) in ratio])) for n in sizes]
    ok = [n for i, (n, _) in enumerate(mid) if all(m >= 1.0 for _, m in mid[i:])]
    print("middle variant: " + ", ".join(f"{n}: {m:.3f}" for n, m in mid))
    print(f"suggested cutoff (strassen_default_cutoff): {ok[0] if ok else 'none: no size pays'}")
    print()
    return ratio, sizes, variants


def errors(machine):
    rows = rows_of(f"results/{machine}/06_strassen/errors.csv")
    if not rows:
        return None
    err = {(r["variant"], r["n"]): r["max_err_ratio"] for r in rows
           if r["max_err_ratio"] is not None}
    sizes = sorted({n for _, n in err})
    variants = sorted({v for v, _ in err}, key=order_key)
    print("### Normwise error max|C−R| / ((K+2)·u·max(|A||B|)), cutoff 64\n")
    print("| variant | c | " + " | ".join(str(n) for n in sizes) +
          " | × classic (median) | share of its bound (max) |")
    print("|---|---:|" + "---:|" * len(sizes) + "---:|---:|")
    for v in variants:
        vals = [err.get((v, n)) for n in sizes]
        rel = [err[(v, n)] / err[("classic", n)] for n in sizes
               if (v, n) in err and err.get(("classic", n))]
        share = max(x for x in vals if x is not None) / ERR_C.get(v, 2)
        print(f"| {v} | {ERR_C.get(v, 2)} | " +
              " | ".join(f"{x:.4f}" if x is not None else "-" for x in vals) +
              f" | {statistics.median(rel):.1f}× | {share:.4f} |")
    print()
    return err, sizes, variants


def breakdown(machine):
    rows = rows_of(f"results/{machine}/06_strassen/breakdown.csv", STRASSEN_BREAKDOWN)
    if not rows:
        return
    print("### Breakdown: the additions' share (--breakdown, median of the reps)\n")
    print("| variant | size | ms total | ms additions | share | GB moved | GB/s | ms packing (thread 0) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in sorted(rows, key=lambda r: (r["n"], order_key(r["variant"]))):
        tot, add, pack = r["ms_total"], r["ms_additions"], r["ms_packing_t0"]
        print(f"| {r['variant']} | {r['n']} | {tot:.1f} | {add:.1f} | {100 * add / tot:.1f}% | "
              f"{r['add_gbytes']:.3f} | {r['add_gbs']:.1f} | "
              f"{f'{pack:.1f}' if pack > 0 else '-'} |")
    print()


def fold(machine):
    rows = rows_of(f"results/{machine}/06_strassen/fold.csv")
    if not rows:
        return
    ratio, gflops = paired(rows)
    print("### Folding modes at 4096 (--cutoff 1024), vs classic\n")
    print("| variant (+mode) | vs classic | GFLOP/s |")
    print("|---|---:|---:|")
    for (v, n) in sorted(ratio, key=lambda k: order_key(k[0])):
        print(f"| {v} | {spread(ratio[(v, n)])}× | {spread(gflops[(v, n)], '{:.0f}')} |")
    print()


def charts(machine, cross, err):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from chart_style import legend_below, log_label  # (it draws with matplotlib too)
    except ImportError:
        # the PATH's python3 may lack it where another one has it (pyenv beside the system's)
        other = subprocess.run(["scripts/find-python.sh"], capture_output=True, text=True).stdout.strip()
        print(f"(no matplotlib in {sys.executable}: charts skipped"
              + (f"; {other} {' '.join(sys.argv)} draws them)" if other else ")"))
        return
    # your own runs' charts stay beside their CSVs, out of the tracked docs/figures/
    out = "results/local" if machine == "local" else f"docs/figures/{machine}"
    os.makedirs(out, exist_ok=True)
    if cross:
        ratio, sizes, variants = cross
        fig, ax = plt.subplots(figsize=(7, 5))
        for v in variants:
            ns = [n for n in sizes if (v, n) in ratio]
            med = [statistics.median(ratio[(v, n)]) for n in ns]
            lo = [min(ratio[(v, n)]) for n in ns]
            hi = [max(ratio[(v, n)]) for n in ns]
            line, = ax.plot(ns, med, marker="o", label=v)
            ax.fill_between(ns, lo, hi, color=line.get_color(), alpha=0.12)
        ax.axhline(1.0, color="black", linestyle="--", linewidth=1, label="classic (1.00×)")
        ax.axhline(8 / 7, color="gray", linestyle=":", linewidth=1, label="8/7: products only")
        ax.set_xlabel("n (square problems, one level forced)")
        ax.set_ylabel("speed-up over classic (paired)")
        ax.set_title(f"06_strassen: where one level pays ({machine}, 2 threads)")
        ax.grid(alpha=0.3)
        legend_below(ax, ncol=3)  # (inside, it covered the small sizes' points)
        fig.tight_layout()
        fig.savefig(f"{out}/06_strassen_crossover.png", dpi=110)
        print(f"{out}/06_strassen_crossover.png")
    if err:
        e, sizes, variants = err
        fig, ax = plt.subplots(figsize=(7, 5))
        for v in variants:
            ns = [n for n in sizes if (v, n) in e]
            ax.plot(ns, [e[(v, n)] for n in ns], marker="o", label=f"{v} (c = {ERR_C.get(v, 2)})")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel(log_label("n (square, cutoff 64)"))
        ax.set_ylabel(log_label("max|C−R| / ((K+2) u max(|A||B|))"))
        ax.set_title(f"06_strassen: normwise error ({machine})")
        ax.grid(alpha=0.3, which="both")
        legend_below(ax, ncol=3, fontsize=7)
        fig.tight_layout()
        fig.savefig(f"{out}/06_strassen_errors.png", dpi=110)
        print(f"{out}/06_strassen_errors.png")


def main():
    machine = sys.argv[1] if len(sys.argv) > 1 else "xeon-2c"
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    try:  # every CSV read before a chart is drawn
        headline(machine)
        cross = crossover(machine)
        err = errors(machine)
        breakdown(machine)
        fold(machine)
    except (InputError, OSError) as e:
        print(f"lab/06_strassen/tables.py: {e}", file=sys.stderr)
        return 2
    charts(machine, cross, err)
    return 0


if __name__ == "__main__":
    sys.exit(main())

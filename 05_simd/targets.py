#!/usr/bin/env python3
"""targets.py: chapter 05's tables and targets, from the CSVs bench.sh writes.

Usage:  targets.py RESULTS.csv PEAK.csv [--markdown]

RESULTS.csv  rows from 05_simd, one process per library, size, thread count and round: each row's
             baseline column names the library it was timed against, alternately, in that
             process ("OpenBLAS", "OpenBLAS-SkylakeX", "OpenBLAS-Haswell", "MKL-avx2",
             "BLIS-zen3"; "OpenBLAS-Cooperlake(SkylakeX)": that core asked for, this one taken)
PEAK.csv     build/peak's rows (fma_avx512 at 1 and 2 threads, or fma_avx2 on a CPU without
             AVX-512), measured before and after

Prints, for each thread count, the best variant's ratio to every library: the median over the
processes (rounds) of each process's ratio of medians, and the spread of those ratios (largest /
smallest: 1.05 means the rounds agreed within 5%); our GFLOP/s and its share of the widest FMA
peak measured; every variant against OpenBLAS where the CSV has several; then the targets,
each HELD or NOT HELD with its figures:

  - the best variant >= 1.00x MKL, on 1 and 2 threads, at 512, 1024, 2048, 4096 (medians);
  - >= 1.00x OpenBLAS's best core there (at each size, the OpenBLAS core whose own median
    GFLOP/s is the highest);
  - >= 85% of the FMA peak on 1 thread at 1024 and above, by median.

Only the standard library: no matplotlib needed.
"""
import csv
import statistics
import sys
from collections import defaultdict

TARGET_SIZES = (512, 1024, 2048, 4096)


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def family(lib):
    """OpenBLAS, MKL or BLIS: what a baseline label names, whatever its core."""
    return lib.split("-")[0]


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in argv
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rows = read(args[0])
    peak_rows = read(args[1])
    measures = {p["measure"] for p in peak_rows}
    measure = next((m for m in ("fma_avx512", "fma_avx2") if m in measures), None)
    peak_name = {"fma_avx512": "AVX-512 FMA", "fma_avx2": "AVX2 FMA"}.get(measure)
    peaks = defaultdict(list)  # threads -> that measure's GFLOP/s values (before, after)
    for p in peak_rows:
        if p["measure"] == measure:
            peaks[int(p["threads"])].append(float(p["value"]))
    if not rows or not peaks:
        what = args[0] if not rows else f"{args[1]} (no fma_avx512 or fma_avx2 rows)"
        print(f"targets.py: no rows in {what}: run 05_simd/bench.sh first", file=sys.stderr)
        return 2

    def is_baseline_row(r):
        return r["variant"] == r["baseline"].lower()

    variants = [r for r in rows if not is_baseline_row(r) and r["baseline"]]
    order = []  # variants in table order: the first is the stage's best on this CPU
    for r in variants:
        if r["variant"] not in order:
            order.append(r["variant"])
    best = order[0]
    libs = []
    for r in variants:
        if r["baseline"] not in libs:
            libs.append(r["baseline"])

    ratio = defaultdict(list)  # (threads, n, lib) -> our median / theirs, one per process
    ours = defaultdict(list)   # (threads, n) -> our median GFLOP/s, every process
    theirs = defaultdict(list) # (threads, n, lib) -> the library's median GFLOP/s
    sweep = defaultdict(lambda: defaultdict(list))  # (threads, n) -> variant -> vs OpenBLAS
    for r in variants:
        key = (int(r["threads"]), int(r["n"]))
        g, b = float(r["gflops"]), float(r["baseline_gflops"] or "nan")
        if r["check"] == "FAIL":
            print(f"warning: FAIL row {r['variant']} {key}", file=sys.stderr)
        if r["variant"] == best:
            ratio[key + (r["baseline"],)].append(g / b)
            ours[key].append(g)
            theirs[key + (r["baseline"],)].append(b)
        if r["baseline"] == "OpenBLAS":
            sweep[key][r["variant"]].append(g)

    peak = {t: max(v) for t, v in peaks.items()}
    fmt_row = (lambda cells: "| " + " | ".join(cells) + " |") if markdown else \
        (lambda cells: "  ".join(f"{c:>17}" for c in cells))
    threads = sorted({k[0] for k in ours})

    def med_spread(v):
        return statistics.median(v), max(v) / min(v)

    for t in threads:
        sizes = sorted(n for (tt, n) in ours if tt == t)
        pk = peak.get(t) or peak[min(peak, key=lambda x: abs(x - t))]
        print(f"\n{best}, {t} thread{'s' if t > 1 else ''}: ratio to each library, median of "
              f"the processes (spread: largest/smallest); GFLOP/s ours/theirs, medians")
        head = ["n"] + libs + ["ours GFLOP/s", f"of {pk:.0f} peak"]
        print(fmt_row(head))
        if markdown:
            print("|" + "---|" * len(head))
        for n in sizes:
            cells = [str(n)]
            for lib in libs:
                v = ratio.get((t, n, lib))
                if v:
                    m, s = med_spread(v)
                    g = statistics.median(theirs[(t, n, lib)])
                    cells.append(f"{m:.2f}x ({s:.2f}) {g:.0f}")
                else:
                    cells.append("-")
            g = statistics.median(ours[(t, n)])
            cells += [f"{g:.1f} ({len(ours[(t, n)])})", f"{100 * g / pk:.0f}%"]
            print(fmt_row(cells))
        print(f"  each library cell: ratio (spread) and the library's median GFLOP/s; ours: the "
              f"median over every process (how many)")
        print(f"  {peak_name} peak at {t} thread{'s' if t > 1 else ''}: "
              + ", ".join(f"{v:.1f}" for v in peaks.get(t, [])) + f" GFLOP/s (each a best of "
              f"several runs); the share uses the highest, {pk:.1f}")

    for t in threads:
        sizes = sorted(n for (tt, n) in sweep if tt == t)
        if len(order) < 2 or not sizes:
            continue
        print(f"\nevery variant against OpenBLAS as it loads, {t} thread{'s' if t > 1 else ''} "
              f"(GFLOP/s, medians)")
        head = ["n"] + order
        print(fmt_row(head))
        if markdown:
            print("|" + "---|" * len(head))
        for n in sizes:
            print(fmt_row([str(n)] + [f"{statistics.median(sweep[(t, n)][v]):.1f}"
                                      if sweep[(t, n)][v] else "-" for v in order]))

    print(f"\ntargets ({best}; sizes {', '.join(map(str, TARGET_SIZES))}; 1 and 2 threads; "
          f"medians of the processes' ratios):")

    def verdict(name, got, want):
        if not got:
            print(f"  NO DATA   {name}")
            return
        ok = all(x >= want for _, _, x, _ in got)
        cells = ", ".join(f"{n}/{t}t {x:.3f}x{extra}" for t, n, x, extra in got)
        print(f"  {'HELD    ' if ok else 'NOT HELD'}  {name}: {cells}")

    mkl = [(t, n, statistics.median(ratio[(t, n, lib)]), "")
           for t in (1, 2) for n in TARGET_SIZES for lib in libs
           if family(lib) == "MKL" and (t, n, lib) in ratio]
    verdict(">= 1.00x MKL", mkl, 1.0)
    best_core = []
    for t in (1, 2):
        for n in TARGET_SIZES:
            cores = [lib for lib in libs if family(lib) == "OpenBLAS" and (t, n, lib) in theirs]
            if cores:
                top = max(cores, key=lambda lib: statistics.median(theirs[(t, n, lib)]))
                best_core.append((t, n, statistics.median(ratio[(t, n, top)]), f" ({top})"))
    verdict(">= 1.00x OpenBLAS's best core", best_core, 1.0)
    if 1 in peak:
        share = [(1, n, statistics.median(ours[(1, n)]) / peak[1], "")
                 for n in TARGET_SIZES if n >= 1024 and (1, n) in ours]
        print(f"  {'HELD    ' if share and all(s >= 0.85 for *_, s, _ in share) else 'NOT HELD'}"
              f"  >= 85% of the {peak_name} peak ({peak[1]:.1f}) on 1 thread, n >= 1024: "
              + ", ".join(f"{n} {100 * s:.0f}%" for _, n, s, _ in share))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""targets.py: chapter 05's tables and targets, from the CSVs bench.sh and bench-host.sh write.

Usage:  targets.py RESULTS.csv [RESULTS.csv ...] PEAK.csv [--markdown]

RESULTS.csv  rows from 05_simd, one process per library, size, thread count and round: each row's
             baseline column names the library it was timed against, alternately, in that
             process ("OpenBLAS", "OpenBLAS-SkylakeX", "OpenBLAS-Haswell", "MKL-avx512",
             "MKL-avx2", "BLIS-zen3"; "OpenBLAS-Cooperlake(SkylakeX)": that core asked for, this
             one taken)
PEAK.csv     build/peak's rows (fma_avx512 on 1 core and on all of them, or fma_avx2 on a CPU
             without AVX-512), measured before and after

Prints, for each variant and thread count, its ratio to every library: the median over the
processes (rounds) of each process's ratio of medians, and the spread of those ratios (largest /
smallest: 1.05 means the rounds agreed within 5%); its GFLOP/s and share of the widest FMA peak
measured on that many cores (or the nearest count measured). Then the targets, each HELD, NOT
HELD or NOT RUN (no rows for it in these files), with its figures:

  - on 16 threads, the best variant >= 1.00x MKL at 4096 and 8192;
  - on 16 threads, >= 85% of the all-core FMA peak measured with it, at 4096 and 8192;
  - on 1 and 2 threads, >= 1.00x MKL at 1024, 2048 and 4096;
  - avx2_6x16 on 1 thread >= 1.00x OpenBLAS's AVX2 core (OPENBLAS_CORETYPE=Haswell) at 1024,
    2048 and 4096.

The best variant is the first in the files that is not avx2_6x16 (on a CPU without AVX-512,
avx2_6x16 itself). Only the standard library: no matplotlib needed.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

SMALL_SIZES = (1024, 2048, 4096)
BIG_SIZES = (4096, 8192)
BIG_THREADS = 16


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def family(lib):
    """OpenBLAS, MKL or BLIS: what a baseline label names, whatever its core."""
    return lib.split("-")[0]


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in argv
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    missing = [path for path in args if not os.path.exists(path)]
    for path in missing:
        print(f"targets.py: {path}: no such file (left out)", file=sys.stderr)
    rows = [r for path in args[:-1] if path not in missing for r in read(path)]
    if args[-1] in missing:
        return 2
    peak_rows = read(args[-1])
    measures = {p["measure"] for p in peak_rows}
    measure = next((m for m in ("fma_avx512", "fma_avx2") if m in measures), None)
    peak_name = {"fma_avx512": "AVX-512 FMA", "fma_avx2": "AVX2 FMA"}.get(measure)
    peaks = defaultdict(list)  # threads -> that measure's GFLOP/s values (before, after)
    avx2_peaks = defaultdict(list)  # the same for the AVX2 FMA loop: the AVX2 kernels' ceiling
    for p in peak_rows:
        if p["measure"] == measure:
            peaks[int(p["threads"])].append(float(p["value"]))
        if p["measure"] == "fma_avx2":
            avx2_peaks[int(p["threads"])].append(float(p["value"]))
    if not rows or not peaks:
        what = args[0] if not rows else f"{args[-1]} (no fma_avx512 or fma_avx2 rows)"
        print(f"targets.py: no rows in {what}: run lab/05_simd/bench.sh first", file=sys.stderr)
        return 2

    def is_baseline_row(r):
        return r["variant"] == r["baseline"].lower()

    variants = [r for r in rows if not is_baseline_row(r) and r["baseline"]]
    order = []  # variants in the order they first appear
    for r in variants:
        if r["variant"] not in order:
            order.append(r["variant"])
    best = next((v for v in order if v != "avx2_6x16"), order[0])
    libs = []
    for r in variants:
        if r["baseline"] not in libs:
            libs.append(r["baseline"])

    ratio = defaultdict(list)   # (variant, threads, n, lib) -> our median / theirs, per process
    ours = defaultdict(list)    # (variant, threads, n) -> our median GFLOP/s, every process
    theirs = defaultdict(list)  # (variant, threads, n, lib) -> the library's median GFLOP/s
    for r in variants:
        key = (r["variant"], int(r["threads"]), int(r["n"]))
        g, b = float(r["gflops"]), float(r["baseline_gflops"] or "nan")
        if r["check"] == "FAIL":
            print(f"warning: FAIL row {key}", file=sys.stderr)
        ratio[key + (r["baseline"],)].append(g / b)
        ours[key].append(g)
        theirs[key + (r["baseline"],)].append(b)

    peak = {t: max(v) for t, v in peaks.items()}
    peak2 = {t: max(v) for t, v in avx2_peaks.items()}
    fmt_row = (lambda cells: "| " + " | ".join(cells) + " |") if markdown else \
        (lambda cells: "  ".join(f"{c:>17}" for c in cells))

    def med_spread(v):
        return statistics.median(v), max(v) / min(v)

    def peak_for(t, v=""):
        pk = peak2 if v.startswith(("avx2", "generic")) and peak2 else peak
        return pk.get(t) or pk[min(pk, key=lambda x: abs(x - t))]

    for v in order:
        for t in sorted({k[1] for k in ours if k[0] == v}):
            sizes = sorted(n for (vv, tt, n) in ours if vv == v and tt == t)
            vlibs = [lib for lib in libs if any((v, t, n, lib) in ratio for n in sizes)]
            pk = peak_for(t, v)
            print(f"\n{v}, {t} thread{'s' if t > 1 else ''}: ratio to each library, median of "
                  f"the processes (spread: largest/smallest); GFLOP/s ours/theirs, medians")
            head = ["n"] + vlibs + ["ours GFLOP/s", f"of {pk:.0f} peak"]
            print(fmt_row(head))
            if markdown:
                print("|" + "---|" * len(head))
            for n in sizes:
                cells = [str(n)]
                for lib in vlibs:
                    got = ratio.get((v, t, n, lib))
                    if got:
                        m, s = med_spread(got)
                        g = statistics.median(theirs[(v, t, n, lib)])
                        cells.append(f"{m:.2f}x ({s:.2f}) {g:.0f}")
                    else:
                        cells.append("-")
                g = statistics.median(ours[(v, t, n)])
                cells += [f"{g:.1f} ({len(ours[(v, t, n)])})", f"{100 * g / pk:.0f}%"]
                print(fmt_row(cells))
            which = peak_name if pk in peak.values() else "AVX2 FMA"
            got = peaks if which == peak_name else avx2_peaks
            print(f"  {which} peak on {t} core{'s' if t > 1 else ''}: "
                  + (", ".join(f"{x:.1f}" for x in got[t]) if t in got else
                     f"not measured; the share uses {pk:.1f} (the nearest count measured)"))

    print(f"\ntargets ({best}; medians of the processes' ratios, spread in brackets):")

    def cells_for(v, ts, sizes, fam=None, core=None):
        got = []
        for t in ts:
            for n in sizes:
                for lib in libs:
                    if (v, t, n, lib) not in ratio:
                        continue
                    if (fam and family(lib) != fam) or (core and core not in lib):
                        continue
                    m, s = med_spread(ratio[(v, t, n, lib)])
                    got.append((t, n, m, f" ({s:.2f})"))
        return got

    def verdict(name, got, want, fmt="{:.2f}x"):
        if not got:
            print(f"  NOT RUN   {name}")
            return
        ok = all(x >= want for _, _, x, _ in got)
        cells = ", ".join(f"{n}/{t}t " + fmt.format(x) + extra for t, n, x, extra in got)
        print(f"  {'HELD    ' if ok else 'NOT HELD'}  {name}: {cells}")

    verdict(f">= 1.00x MKL on {BIG_THREADS} threads at 4096 and 8192",
            cells_for(best, (BIG_THREADS,), BIG_SIZES, fam="MKL"), 1.0)
    if BIG_THREADS in peaks:
        share = [(BIG_THREADS, n, statistics.median(ours[(best, BIG_THREADS, n)]) /
                  peak[BIG_THREADS], f" of {peak[BIG_THREADS]:.0f}")
                 for n in BIG_SIZES if (best, BIG_THREADS, n) in ours]
    else:
        share = []
    verdict(f">= 85% of the all-core {peak_name} peak on {BIG_THREADS} threads, 4096 and 8192",
            share, 0.85, "{:.0%}")
    verdict(">= 1.00x MKL on 1 and 2 threads at 1024-4096",
            cells_for(best, (1, 2), SMALL_SIZES, fam="MKL"), 1.0)
    verdict(">= 1.00x OpenBLAS's AVX2 core (Haswell), avx2_6x16 on 1 thread at 1024-4096",
            cells_for("avx2_6x16", (1,), SMALL_SIZES, fam="OpenBLAS", core="Haswell"), 1.0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

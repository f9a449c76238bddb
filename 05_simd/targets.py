#!/usr/bin/env python3
"""targets.py: chapter 05's tables and the issue's targets, from the CSVs bench.sh writes.

Usage:  targets.py RESULTS.csv PEAK.csv [--markdown]

RESULTS.csv  rows from 05_simd (bench.sh runs one process per library and size; each row's
             baseline column names the library it was timed against, side by side)
PEAK.csv     build/peak's rows (fma_avx512 at 1 and 2 threads), measured before and after

Prints, for each thread count: the best variant's GFLOP/s and its ratio to every library,
measured alternately in the same process; every variant against OpenBLAS's default core;
the share of the AVX-512 FMA peak; then the three targets of the issue, each HELD or NOT
HELD with the figures. Only the standard library: no matplotlib needed.
"""
import csv
import statistics
import sys
from collections import defaultdict

TARGET_SIZES = (512, 1024, 2048, 4096)


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in argv
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rows = read(args[0])
    peaks = defaultdict(list)  # threads -> fma_avx512 GFLOP/s values (before, after)
    for p in read(args[1]):
        if p["measure"] == "fma_avx512":
            peaks[int(p["threads"])].append(float(p["value"]))
    if not rows or not peaks:
        print("targets.py: no rows (run 05_simd/bench.sh first)", file=sys.stderr)
        return 2

    def is_baseline_row(r):
        return r["variant"] == r["baseline"].lower()

    variants = [r for r in rows if not is_baseline_row(r)]
    order = []  # variants in table order
    for r in variants:
        if r["variant"] not in order:
            order.append(r["variant"])
    best = order[0]
    libs = []
    for r in rows:
        if r["baseline"] and r["baseline"] not in libs:
            libs.append(r["baseline"])
    default = "OpenBLAS"

    # (threads, n) -> {library: (ours, theirs, ratio)} for the best variant
    side = defaultdict(dict)
    ours_all = defaultdict(list)  # (threads, n) -> the best variant's GFLOP/s in every process
    sweep = defaultdict(dict)     # (threads, n) -> {variant: GFLOP/s} against the default core
    for r in variants:
        key = (int(r["threads"]), int(r["n"]))
        g, b = float(r["gflops"]), float(r["baseline_gflops"] or "nan")
        if r["check"] == "FAIL":
            print(f"warning: FAIL row {r['variant']} {key}", file=sys.stderr)
        if r["variant"] == best:
            side[key][r["baseline"]] = (g, b, g / b)
            ours_all[key].append(g)
        if r["baseline"] == default:
            sweep[key][r["variant"]] = g

    peak = {t: max(v) for t, v in peaks.items()}
    fmt_row = (lambda cells: "| " + " | ".join(cells) + " |") if markdown else \
        (lambda cells: "  ".join(f"{c:>12}" for c in cells))
    threads = sorted({k[0] for k in side})

    for t in threads:
        sizes = sorted(n for (tt, n) in side if tt == t)
        pk = peak.get(t) or peak[min(peak, key=lambda x: abs(x - t))]
        print(f"\n{best}, {t} thread{'s' if t > 1 else ''}: GFLOP/s of ours / of the library, "
              f"and ours/theirs, each pair timed alternately in one process")
        head = ["n"] + libs + ["ours: median", "of peak"]
        print(fmt_row(head))
        if markdown:
            print("|" + "---|" * len(head))
        for n in sizes:
            cells = [str(n)]
            for lib in libs:
                v = side[(t, n)].get(lib)
                cells.append(f"{v[0]:.0f}/{v[1]:.0f} {v[2]:.2f}x" if v else "-")
            med = statistics.median(ours_all[(t, n)])
            cells += [f"{med:.1f}", f"{100 * med / pk:.0f}%"]
            print(fmt_row(cells))
        print(f"  AVX-512 FMA peak at {t} thread{'s' if t > 1 else ''}: "
              + ", ".join(f"{v:.1f}" for v in peaks.get(t, [])) + f" GFLOP/s (before, after); "
              f"the share uses the higher, {pk:.1f}")

    for t in threads:
        sizes = sorted(n for (tt, n) in sweep if tt == t)
        print(f"\nevery variant against OpenBLAS's default core, {t} thread{'s' if t > 1 else ''}"
              f" (GFLOP/s; the library's own in the last column)")
        libg = {}
        for r in rows:
            if is_baseline_row(r) and r["baseline"] == default and int(r["threads"]) == t:
                libg[int(r["n"])] = float(r["gflops"])
        head = ["n"] + order + [default]
        print(fmt_row(head))
        if markdown:
            print("|" + "---|" * len(head))
        for n in sizes:
            print(fmt_row([str(n)] + [f"{sweep[(t, n)][v]:.1f}" if v in sweep[(t, n)] else "-"
                                      for v in order] + [f"{libg.get(n, float('nan')):.1f}"]))

    print("\ntargets (sizes 512-4096, 1 and 2 threads, each ratio from one process):")
    coop = next((l for l in libs if "cooperlake" in l.lower()), None)

    def verdict(name, cells, ok):
        print(f"  {'HELD    ' if ok else 'NOT HELD'}  {name}: {cells}")

    for lib, want, name in ((coop, 1.0, f"{best} >= {coop}"),
                            (default, 1.5, f"{best} >= 1.5x {default} (default core)")):
        if not lib:
            continue
        got = [(t, n, side[(t, n)][lib][2]) for t in threads for n in TARGET_SIZES
               if lib in side.get((t, n), {})]
        verdict(name, ", ".join(f"{n}/{t}t {x:.2f}x" for t, n, x in got),
                bool(got) and all(x >= want for _, _, x in got))
    got = [(n, statistics.median(ours_all[(1, n)])) for n in TARGET_SIZES
           if n >= 1024 and (1, n) in ours_all]
    if 1 in peak:
        verdict(f"{best} >= 85% of the AVX-512 FMA peak ({peak[1]:.1f}) on 1 thread, n >= 1024",
                ", ".join(f"{n} {100 * g / peak[1]:.0f}%" for n, g in got),
                bool(got) and all(g >= 0.85 * peak[1] for _, g in got))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

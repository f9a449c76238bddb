#!/usr/bin/env python3
"""targets.py: chapter 05's tables and the issue's targets, from the CSVs bench.sh writes.

Usage:  targets.py RESULTS.csv PEAK.csv [--markdown]

RESULTS.csv  rows from 05_simd (bench.sh runs one process per library and size; each row's
             baseline column names the library it was timed against, side by side)
PEAK.csv     build/peak's rows (fma_avx512 at 1 and 2 threads, or fma_avx2 on a CPU without
             AVX-512), measured before and after

Prints, for each thread count: the best variant's GFLOP/s and its ratio to every library,
measured alternately in the same process; every variant against OpenBLAS's default core;
the share of the widest FMA peak measured (AVX-512, else AVX2); then the three targets of the
issue, each HELD or NOT HELD with the figures. Only the standard library: no matplotlib needed.

Two statistics of the same runs: the median (the harness's figure: what a typical run took)
and the best run (ms_min). On a shared machine a run that another process interrupted is
slower, never faster, so the best run is the better estimate of what the code can do when it
has the core; build/peak reports its best of three runs for the same reason, so the share of
the peak is given both ways, the best against the best.
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
    # the widest FMA the CPU has: build/peak writes no fma_avx512 rows on a CPU without AVX-512
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

    def gflops_min(r):
        n3 = 2.0 * int(r["m"]) * int(r["n"]) * int(r["k"])
        return n3 / (float(r["ms_min"]) * 1e6)

    # the library's best run in each process: its own row, all its samples at that size
    lib_best = {(int(r["threads"]), int(r["n"]), r["baseline"]): gflops_min(r)
                for r in rows if is_baseline_row(r)}
    # (threads, n) -> {library: (ours, theirs, ratio, ours best, theirs best, best ratio)}
    side = defaultdict(dict)
    best_all = defaultdict(list)  # (threads, n) -> the best variant's best run, every process
    ours_all = defaultdict(list)  # (threads, n) -> the best variant's GFLOP/s in every process
    sweep = defaultdict(dict)     # (threads, n) -> {variant: GFLOP/s} against the default core
    for r in variants:
        key = (int(r["threads"]), int(r["n"]))
        g, b = float(r["gflops"]), float(r["baseline_gflops"] or "nan")
        if r["check"] == "FAIL":
            print(f"warning: FAIL row {r['variant']} {key}", file=sys.stderr)
        if r["variant"] == best:
            gb = gflops_min(r)
            lb = lib_best.get(key + (r["baseline"],), float("nan"))
            side[key][r["baseline"]] = (g, b, g / b, gb, lb, gb / lb)
            ours_all[key].append(g)
            best_all[key].append(gb)
        if r["baseline"] == default:
            sweep[key][r["variant"]] = g

    peak = {t: max(v) for t, v in peaks.items()}
    fmt_row = (lambda cells: "| " + " | ".join(cells) + " |") if markdown else \
        (lambda cells: "  ".join(f"{c:>12}" for c in cells))
    threads = sorted({k[0] for k in side})

    for t in threads:
        sizes = sorted(n for (tt, n) in side if tt == t)
        pk = peak.get(t) or peak[min(peak, key=lambda x: abs(x - t))]
        print(f"\n{best}, {t} thread{'s' if t > 1 else ''}: ours/theirs, the ratio of the medians "
              f"(of the best runs in brackets), each pair timed alternately in one process")
        head = ["n"] + libs + ["ours: median", "best", "of peak: median", "best"]
        print(fmt_row(head))
        if markdown:
            print("|" + "---|" * len(head))
        for n in sizes:
            cells = [str(n)]
            for lib in libs:
                v = side[(t, n)].get(lib)
                cells.append(f"{v[2]:.2f}x ({v[5]:.2f}x)" if v else "-")
            med = statistics.median(ours_all[(t, n)])
            top = max(best_all[(t, n)])
            cells += [f"{med:.1f}", f"{top:.1f}", f"{100 * med / pk:.0f}%", f"{100 * top / pk:.0f}%"]
            print(fmt_row(cells))
        print(f"  ours: the median over the {len(libs)} processes of each one's median, and the "
              f"best single run of them all (GFLOP/s)")
        print(f"  {peak_name} peak at {t} thread{'s' if t > 1 else ''}: "
              + ", ".join(f"{v:.1f}" for v in peaks.get(t, [])) + f" GFLOP/s (each a best of 3); "
              f"the share uses the highest, {pk:.1f}")
        print(f"\n  GFLOP/s medians, ours/theirs:")
        print(fmt_row(["n"] + libs))
        if markdown:
            print("|" + "---|" * (len(libs) + 1))
        for n in sizes:
            print(fmt_row([str(n)] + [f"{side[(t, n)][l][0]:.0f}/{side[(t, n)][l][1]:.0f}"
                                      if l in side[(t, n)] else "-" for l in libs]))

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
        for stat, idx in (("medians", 2), ("best runs", 5)):
            got = [(t, n, side[(t, n)][lib][idx]) for t in threads for n in TARGET_SIZES
                   if lib in side.get((t, n), {})]
            verdict(f"{name} ({stat})", ", ".join(f"{n}/{t}t {x:.2f}x" for t, n, x in got),
                    bool(got) and all(x >= want for _, _, x in got))
    for stat, table in (("median", ours_all), ("best run", best_all)):
        pick = statistics.median if stat == "median" else max
        got = [(n, pick(table[(1, n)])) for n in TARGET_SIZES if n >= 1024 and (1, n) in table]
        if 1 in peak:
            verdict(f"{best} >= 85% of the {peak_name} peak ({peak[1]:.1f}) on 1 thread, n >= 1024"
                    f" ({stat})", ", ".join(f"{n} {100 * g / peak[1]:.0f}%" for n, g in got),
                    bool(got) and all(g >= 0.85 * peak[1] for _, g in got))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

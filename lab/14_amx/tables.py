#!/usr/bin/env python3
"""lab/14_amx/tables.py DIR: chapter 14's tables and targets from the CSVs lab/14_amx/bench.sh wrote.

    DIR/14_amx.csv          BF16 variants against MKL's BF16 GEMM (several rounds)
    DIR/14_amx_onednn.csv   amx_blocked against oneDNN's matmul (if present)
    DIR/14_amx_fp32.csv     FP32 variants against MKL's and OpenBLAS's sgemm
    DIR/14_amx_accuracy.csv every FP32 variant against the FP32 bound (max_err_ratio)
    DIR/14_amx_unrounded.csv  BF16 variants against the unrounded inputs
    DIR/14_amx_host_*.csv   the same from the 16-core host (lab/14_amx/bench-host.sh), if present

A ratio is taken row by row (the variant and the library alternated in one process), then the
median over the rounds, with the range. Standard library only.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict


def rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f)]


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def span(xs):
    return f"{min(xs):.2f}-{max(xs):.2f}" if len(xs) > 1 else (f"{xs[0]:.2f}" if xs else "-")


def table(data, baselines_own):
    """data rows -> {(variant, threads, n): [gflops...]}, {(variant, threads, n): [ratio...]}"""
    g, ratio = defaultdict(list), defaultdict(list)
    for r in data:
        key = (r["variant"], int(r["threads"]), int(r["n"]))
        g[key].append(float(r["gflops"]))
        if r["baseline_gflops"] and r["variant"] not in baselines_own:
            ratio[(r["baseline"],) + key].append(float(r["gflops"]) / float(r["baseline_gflops"]))
    return g, ratio


def print_climb(title, data, order):
    if not data:
        return {}, {}
    own = {r["variant"] for r in data if r["baseline"] and r["variant"] == r["baseline"].lower()}
    g, ratio = table(data, own)
    print(f"\n{title} (GFLOP/s, median of rounds; ratio to the library alternated in the same run)")
    for t in sorted({k[1] for k in g}):
        for n in sorted({k[2] for k in g if k[1] == t}):
            print(f"  threads {t}, n = {n}:")
            for v in order + sorted(own):
                if (v, t, n) not in g:
                    continue
                line = f"    {v:18s} {med(g[(v, t, n)]):9.1f}"
                for key, rs in ratio.items():
                    if key[1:] == (v, t, n):
                        line += f"   {med(rs):.2f}x {key[0]} ({span(rs)}, {len(rs)} runs)"
                print(line)
    return g, ratio


def ratio_of(ratio, base_prefix, v, t, n):
    for key, rs in ratio.items():
        if key[0].lower().startswith(base_prefix) and key[1:] == (v, t, n):
            return rs
    return []


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "results/local"
    bf16 = rows(f"{d}/14_amx.csv")
    fp32 = rows(f"{d}/14_amx_fp32.csv")
    g16, r16 = print_climb("BF16 A and B, FP32 C", bf16,
                           ["simd", "avx512_bf16", "amx_naive", "amx_blocked", "amx_pipelined"])
    print_climb("against oneDNN", rows(f"{d}/14_amx_onednn.csv"), ["amx_blocked"])
    g32, r32 = print_climb("FP32 A, B and C", fp32,
                           ["simd", "amx_bf16x1", "amx_bf16x3", "amx_fp32_folded", "amx_fp32"])

    acc = rows(f"{d}/14_amx_accuracy.csv")
    if acc:
        print("\nlargest error / the FP32 bound (c = 2), every element of 256 x 256 x K")
        ks = sorted({int(r["k"]) for r in acc})
        print("  " + " " * 18 + "".join(f"{'K=' + str(k):>10s}" for k in ks))
        for v in dict.fromkeys(r["variant"] for r in acc):
            m = {int(r["k"]): float(r["max_err_ratio"]) for r in acc if r["variant"] == v}
            print(f"  {v:18s}" + "".join(f"{m.get(k, float('nan')):10.3g}" for k in ks))
    unr = rows(f"{d}/14_amx_unrounded.csv")
    if unr:
        print("\nBF16 inputs against the unrounded product (--reference unrounded), 1024 x 1024 x K")
        for r in unr:
            print(f"  {r['variant']:14s} K = {r['k']:>6s}: {float(r['max_err_ratio']):8.3g} x the bound "
                  f"(c = 1)")

    print("\ntargets (one thread unless said; medians of the rounds, range in brackets)")

    def verdict(name, rs, want):
        if not rs:
            print(f"  {name}: not measured here")
            return
        print(f"  {name}: {med(rs):.2f}x ({span(rs)}) -> {'held' if med(rs) >= want else 'NOT held'}")

    for t, want in ((1, 1.2), (2, 1.0)):
        for n in (2048, 4096):
            best = max(("amx_blocked", "amx_pipelined"),
                       key=lambda v: med(ratio_of(r16, "mkl", v, t, n) or [0]))
            verdict(f"{best} (the better BF16 variant) >= {want}x MKL BF16 at {n}, {t} thread(s)",
                    ratio_of(r16, "mkl", best, t, n), want)
    verdict("amx_fp32 >= 1.2x MKL sgemm at 4096", ratio_of(r32, "mkl", "amx_fp32", 1, 4096), 1.2)
    ran = [r for r in acc if r["variant"] in ("amx_fp32", "amx_fp32_folded")]
    if ran:  # a CPU without AMX has no such rows: nothing held, nothing failed
        bad = [r for r in ran if r["check"] != "PASS"]
        ks = sorted({int(r["k"]) for r in ran})
        print(f"  amx_fp32 within the FP32 bound, K = {ks[0]} to {ks[-1]}: "
              f"{'held' if not bad else 'NOT held: ' + str(len(bad)) + ' rows over'}")
    else:
        print("  amx_fp32 within the FP32 bound: not measured here")
    # avx512_bf16 against 05's kernel: both alternate with MKL in the same process, so their ratio
    # is taken per process: the rows up to the library's own row, which closes each run
    by_n, run = defaultdict(list), {}
    for r in bf16:
        if r["baseline"] and r["variant"] == r["baseline"].lower():
            if int(r["threads"]) == 1 and "avx512_bf16" in run and "simd" in run:
                by_n[int(r["n"])].append(run["avx512_bf16"] / run["simd"])
            run = {}
        else:
            run[r["variant"]] = float(r["gflops"])
    for n in sorted(by_n):
        verdict(f"avx512_bf16 >= 1.5x 05's kernel (simd) at {n}", by_n[n], 1.5)
    host = rows(f"{d}/14_amx_host.csv")
    if not host:
        print("  16 threads on the 16-core host (>= 1.5x MKL BF16 at 4096 and 8192): not run here")
        return
    _, rh = print_climb("the 16-core host (lab/14_amx/bench-host.sh): amx_blocked against MKL BF16", host,
                        ["amx_blocked"])
    print_climb("the 16-core host: amx_fp32 against MKL sgemm", rows(f"{d}/14_amx_host_fp32.csv"),
                ["amx_fp32"])
    print_climb("the 16-core host, 16 threads, other block sizes (the wall)",
                rows(f"{d}/14_amx_host_wall.csv"), ["amx_blocked"])
    for n in sorted({int(r["n"]) for r in host if int(r["threads"]) == 16}):
        verdict(f"amx_blocked >= 1.5x MKL BF16 on 16 threads at {n} (host)",
                ratio_of(rh, "mkl", "amx_blocked", 16, n), 1.5)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""plot_scaling.py: stages 04 and 05 on 1 to 16 threads, from 05_simd/bench-host.sh's CSVs.

Usage:  plot_scaling.py FOLDER [OUT.png] [--table]

FOLDER holds 05_simd_scaling.csv, 04_threads_scaling.csv and 05_simd_baselines_peak.csv (what
bench-host.sh writes; the reference run is results/h100/05_host). Draws GFLOP/s against threads: 05's
best variant and 04's omp_tiled_dyn at each size, each with its one-thread rate times the threads
(dotted), MKL where it ran, OpenBLAS where its rows are a same-thread comparison, and the FMA
peak (build/peak: one core times the threads, and all cores together, as measured). --table
prints the rows as Markdown instead.

OpenBLAS rows on more than one thread are left out when the run bound its threads: the first
host run (git 2c84878) set OMP_PROC_BIND, and its pthread OpenBLAS then counted one processor
and ran every call on one thread (the harness now warns; bench-host.sh no longer binds).
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

BOUND_RUNS = {"2c84878"}  # runs whose OpenBLAS saw one processor (see above)


def read(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def series(rows):
    """{(label, size): {threads: median GFLOP/s}}, ours and the libraries' rows apart."""
    acc = defaultdict(lambda: defaultdict(list))
    for r in rows:
        t, n, g = int(r["threads"]), int(r["m"]), float(r["gflops"])
        lib_row = r["variant"] == r["baseline"].lower()
        if lib_row and r["baseline"].startswith("OpenBLAS") and t > 1 and r["git"] in BOUND_RUNS:
            continue
        label = r["baseline"].split("-")[0] if lib_row else r["variant"]
        acc[(label, n)][t].append(g)
    return {k: {t: statistics.median(v) for t, v in d.items()} for k, d in acc.items()}


def peaks(rows):
    """{threads: [GFLOP/s]} of the widest FMA build/peak measured (AVX-512, else AVX2)."""
    for kind in ("fma_avx512", "fma_avx2"):
        got = defaultdict(list)
        for r in rows:
            if r["measure"] == kind:
                got[int(r["threads"])].append(float(r["value"]))
        if got:
            return kind, got
    return None, {}


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    folder, rest = argv[0], argv[1:]
    s05 = series(read(os.path.join(folder, "05_simd_scaling.csv")))
    s04 = series(read(os.path.join(folder, "04_threads_scaling.csv")))
    kind, pk = peaks(read(os.path.join(folder, "05_simd_baselines_peak.csv")))
    if not s05 and not s04:
        print(f"plot_scaling.py: no scaling rows in {folder}", file=sys.stderr)
        return 2
    allser = {**{("05 " + k[0], k[1]): v for k, v in s05.items()},
              **{("04 " + k[0], k[1]): v for k, v in s04.items()}}
    if "--table" in rest:
        threads = sorted({t for d in allser.values() for t in d})
        print("| GFLOP/s | n | " + " | ".join(f"{t} thr." for t in threads) + " | 16 / (16 x 1) |")
        print("|---|---|" + "---:|" * (len(threads) + 1))
        for (label, n), d in sorted(allser.items()):
            eff = f"{d[16] / (16 * d[1]):.0%}" if 1 in d and 16 in d else "-"
            cells = " | ".join(f"{d[t]:.0f}" if t in d else "" for t in threads)
            print(f"| {label} | {n} | {cells} | {eff} |")
        if pk:
            print("\n" + kind + ": " + ", ".join(
                f"{t} thr. {min(v):.0f}-{max(v):.0f}" for t, v in sorted(pk.items())))
        return 0

    try:
        import matplotlib
    except ImportError:
        print("plot_scaling.py: this python has no matplotlib (scripts/find-python.sh names one "
              "that has; --table needs none)", file=sys.stderr)
        return 77
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = next((a for a in rest if a.endswith(".png")), os.path.join(folder, "05_scaling.png"))
    fig, ax = plt.subplots(figsize=(8, 5.2))
    styles = {"05 ": ("tab:blue", "o"), "04 ": ("tab:orange", "s")}
    for (label, n), d in sorted(allser.items()):
        ts = sorted(d)
        ours = not label.endswith(("mkl", "openblas", "MKL", "OpenBLAS"))
        lib = label.split(" ", 1)[1]
        if ours:
            colour, marker = styles[label[:3]]
            ls = "-" if n in (4096,) else "--"
            ax.plot(ts, [d[t] for t in ts], ls, color=colour, marker=marker,
                    label=f"{label} (stage {label[:2]}), n = {n}")
            if 1 in d and len(ts) > 1:
                ax.plot(ts, [d[1] * t for t in ts], ":", color=colour, alpha=0.5, lw=1)
        elif label.startswith("05 "):  # the same library rows appear in both files
            colour = "tab:red" if lib == "MKL" else "tab:green"
            ax.plot(ts, [d[t] for t in ts], "*" if lib == "MKL" else "D", color=colour, ms=10,
                    linestyle="none", label=f"{lib}, n = {n}")
            for t in ts:
                ax.annotate(str(n), (t, d[t]), textcoords="offset points", xytext=(6, -3),
                            fontsize=7, color=colour)
    if pk:
        one = statistics.median(pk.get(1, [0])) or None
        if one:
            ts = [1, 2, 4, 8, 16]
            ax.plot(ts, [one * t for t in ts], "-", color="0.6", lw=1,
                    label=f"{kind} peak, one core x threads")
        for t, v in pk.items():
            if t > 1:
                ax.plot([t, t], [min(v), max(v)], "-", color="k", lw=3, alpha=0.6,
                        label=f"{kind} peak, {t} cores together (range measured)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xticks([1, 2, 4, 8, 16])
    ax.set_xticklabels(["1", "2", "4", "8", "16"])
    ticks = [32, 64, 128, 256, 512, 1024, 2048]
    ax.set_yticks(ticks)
    ax.set_yticklabels([str(t) for t in ticks])
    ax.set_xlabel("threads (the host has 16 cores, one thread each)")
    ax.set_ylabel("GFLOP/s (dotted: one thread's rate x threads)")
    cpu = next((r["device"] for r in read(os.path.join(folder, "05_simd_scaling.csv"))), "")
    ax.set_title(f"Stages 04 and 05 on 1-16 cores ({cpu}), against MKL and OpenBLAS", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""plot_scaling.py: stages 04 and 05 on 1 to 16 threads, from lab/05_simd/bench-host.sh's CSVs.

Usage:  plot_scaling.py FOLDER [OUT.png] [--table]

FOLDER holds 05_simd_scaling.csv, 04_threads_scaling.csv and the peak, 05_simd_peak.csv (or
05_simd_baselines_peak.csv, the name the first host runs used). Draws two panels against the
thread count: GFLOP/s of 05's best variant at each size (with one thread's rate times the threads,
dotted), MKL and OpenBLAS as measured beside it, 04's omp_tiled_dyn, and the FMA peak (one core
times the threads, and all cores together, as measured in the same run); and 05's ratio to each
library, the median of the processes that alternated the two run by run (a bar: the range of
those processes). --table prints the same as Markdown instead.

OpenBLAS rows on more than one thread are left out when the run bound its threads: the first
host run (git 2c84878) set OMP_PROC_BIND, and its pthread OpenBLAS then counted one processor
and ran every call on one thread (the harness now warns; bench-host.sh no longer binds).
"""
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
from chart_style import log_label  # noqa: E402
from reader import PEAK, RESULT, InputError, optional  # noqa: E402

BOUND_RUNS = {"2c84878"}  # runs whose OpenBLAS saw one processor (see above)


def read(path, schema, stage=None):
    """The rows of a CSV of the folder (plots/reader.py: a bad one is refused); [] where absent."""
    return optional(path, schema, stage)


def library(r):
    return r["baseline"].split("-")[0]


def collect(rows):
    """ours[(variant, n)][t] -> [GFLOP/s], lib[(LIB, n)][t] -> [GFLOP/s],
    ratio[(LIB, n)][t] -> [ours / LIB, one per process]: the square rows only."""
    ours, lib, ratio = (defaultdict(lambda: defaultdict(list)) for _ in range(3))
    for r in rows:
        if not (r["m"] == r["n"] == r["k"]) or not r["baseline"] and r["variant"] == "":
            continue
        t, n, g = r["threads"], r["m"], r["gflops"]
        name = library(r) if r["baseline"] else ""
        if name == "OpenBLAS" and t > 1 and r["git"] in BOUND_RUNS:
            continue
        if r["baseline"] and r["variant"] == r["baseline"].lower():
            lib[(name, n)][t].append(g)
        else:
            ours[(r["variant"], n)][t].append(g)
            if r["baseline_gflops"] > 0:
                ratio[(name, n)][t].append(g / r["baseline_gflops"])
    return ours, lib, ratio


def peaks(rows):
    """(kind, {threads: [GFLOP/s]}) of the widest FMA build/peak measured (AVX-512, else AVX2)."""
    for kind in ("fma_avx512", "fma_avx2"):
        got = defaultdict(list)
        for r in rows:
            if r["measure"] == kind:
                got[r["threads"]].append(r["value"])
        if got:
            return kind, got
    return None, {}


def med(v):
    return statistics.median(v)


def table(o05, l05, r05, o04, kind, pk):
    peak_all = {t: max(v) for t, v in pk.items()}
    print("| n | threads | 05 GFLOP/s | x MKL (range) | x OpenBLAS (range) | MKL | OpenBLAS "
          "| 04 GFLOP/s | 05 of the peak |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    variant = next(iter(sorted(o05)))[0] if o05 else ""
    for n in sorted({n for (_, n) in o05}):
        d = o05[(variant, n)]
        for t in sorted(d):
            cells = [str(n), str(t), f"{med(d[t]):.0f}"]
            for name in ("MKL", "OpenBLAS"):
                v = r05.get((name, n), {}).get(t)
                cells.append(f"{med(v):.2f} ({min(v):.2f}-{max(v):.2f})" if v else "")
            for name in ("MKL", "OpenBLAS"):
                v = l05.get((name, n), {}).get(t)
                cells.append(f"{med(v):.0f}" if v else "")
            v04 = next((dd[t] for (vv, nn), dd in o04.items() if nn == n and t in dd), None)
            cells.append(f"{med(v04):.0f}" if v04 else "")
            cells.append(f"{med(d[t]) / peak_all[t]:.0%}" if t in peak_all else "")
            print("| " + " | ".join(cells) + " |")
    if pk:
        print(f"\n{kind} peak (build/peak, this run): " + ", ".join(
            f"{t} core{'s' if t > 1 else ''} {min(v):.0f}-{max(v):.0f}"
            for t, v in sorted(pk.items())) + " GFLOP/s")


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    folder, rest = argv[0], argv[1:]
    try:
        rows05 = read(os.path.join(folder, "05_simd_scaling.csv"), RESULT, "05_simd")
        rows04 = read(os.path.join(folder, "04_threads_scaling.csv"), RESULT, "04_threads")
        peak_file = next((p for p in ("05_simd_peak.csv", "05_simd_baselines_peak.csv")
                          if os.path.exists(os.path.join(folder, p))), "05_simd_peak.csv")
        peak_rows = read(os.path.join(folder, peak_file), PEAK)
    except (InputError, OSError) as e:
        print(f"plot_scaling.py: {e}", file=sys.stderr)
        return 2
    o05, l05, r05 = collect(rows05)
    o04, _, _ = collect(rows04)
    kind, pk = peaks(peak_rows)
    if not o05 and not o04:
        print(f"plot_scaling.py: no scaling rows in {folder}", file=sys.stderr)
        return 2
    if "--table" in rest:
        table(o05, l05, r05, o04, kind, pk)
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
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(12, 5.2), gridspec_kw={"width_ratios": [3, 2]})
    sizes = sorted({n for (_, n) in list(o05) + list(o04)})
    styles = ["--", "-", "-."] if len(sizes) >= 3 else ["--", "-"]
    style = {n: styles[min(i, len(styles) - 1)] for i, n in enumerate(sizes[-3:])}
    threads = sorted({t for d in list(o05.values()) + list(o04.values()) for t in d})
    for (variant, n), d in sorted(o05.items()):
        ts = sorted(d)
        ax.plot(ts, [med(d[t]) for t in ts], style.get(n, ":"), color="tab:blue", marker="o",
                label=f"05 {variant}, n = {n}")
        if 1 in d and len(ts) > 1:
            ax.plot(ts, [med(d[1]) * t for t in ts], ":", color="tab:blue", alpha=0.4, lw=1)
    for (variant, n), d in sorted(o04.items()):
        ts = sorted(d)
        ax.plot(ts, [med(d[t]) for t in ts], style.get(n, ":"), color="tab:orange", marker="s",
                ms=4, label=f"04 {variant}, n = {n}")
    marks = {"MKL": ("tab:red", "*"), "OpenBLAS": ("tab:green", "D")}
    for (name, n), d in sorted(l05.items()):
        colour, marker = marks.get(name, ("0.4", "x"))
        ts = sorted(d)
        ax.plot(ts, [med(d[t]) for t in ts], marker, color=colour, ms=7 if marker == "*" else 4,
                linestyle="none", alpha=0.8,
                label=f"{name} beside it" if n == max(s for (nm, s) in l05 if nm == name) else None)
    if pk:
        one = med(pk.get(1, [0])) or None
        if one:
            ax.plot(threads, [one * t for t in threads], "-", color="0.6", lw=1,
                    label=f"{kind} peak, one core x threads")
        for t, v in pk.items():
            if t > 1:
                # (a bar from the least to the most measured; a tick where there is one figure)
                ax.plot([t, t], [min(v), max(v)], "-", color="k", lw=4, alpha=0.6, marker="_",
                        ms=14, mew=3, label=f"{kind} peak, {t} cores together (this run)")
    for a in (ax, ax2):
        a.set_xscale("log", base=2)
        a.set_xticks(threads)
        a.set_xticklabels([str(t) for t in threads])
        a.grid(True, which="both", alpha=0.3)
        a.set_xlabel(log_label("threads (one a core)"))
    ax.set_yscale("log", base=2)
    ticks = [t for t in (16, 32, 64, 128, 256, 512, 1024, 2048, 4096)
             if t >= min(16, min((med(v) for d in o04.values() for v in d.values()), default=16))]
    ax.set_yticks(ticks)
    ax.set_yticklabels([str(t) for t in ticks])
    ax.set_ylabel(log_label("GFLOP/s (dotted: one thread's rate x threads)"))
    ax.legend(fontsize=7, loc="upper left", handlelength=4)  # long enough to show the dashes

    for (name, n), d in sorted(r05.items()):
        colour = marks.get(name, ("0.4", "x"))[0]
        ts = sorted(d)
        ms = [med(d[t]) for t in ts]
        ax2.plot(ts, ms, style.get(n, ":"), color=colour, marker="o", ms=4,
                 label=f"05 / {name}, n = {n}")
        for t in ts:
            if len(d[t]) > 1:
                ax2.plot([t, t], [min(d[t]), max(d[t])], "-", color=colour, lw=1, alpha=0.5)
    ax2.axhline(1.0, color="k", lw=1)
    ax2.set_ylabel("05 / library, alternated in one process (median; bar: range)")
    ax2.legend(fontsize=7, loc="upper left", handlelength=4)  # the ratios sit near 1, low in the panel
    cpu = next((r["device"] for r in rows05), "")
    stages = "Stages 04 and 05" if o04 else "Stage 05"  # a run without 04's step has no 04 line
    fig.suptitle(f"{stages} on 1-{max(threads)} cores ({cpu}), against MKL and OpenBLAS",
                 fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""plots/13_distributed.py: chapter 13's runs and its cost model (13_distributed/cost_model.py), drawn.

    python3 plots/13_distributed.py results/h100/13_distributed.csv docs/figures/h100/13_distributed.png
    python3 plots/13_distributed.py --table results/h100/13_distributed.csv   (the chapter's tables)
    python3 plots/13_distributed.py --projection results/h100    (cost_model.py --projection's table)
    python3 plots/13_distributed.py --timeline results/h200x4/13_distributed_timeline.csv OUT.png

Reads the GEMM rows (13_distributed.csv, written by --csv) and, beside them, the message timings
(13_distributed_comm.csv, written by --bench-comm) and stage 09's kernel rates on the GPU
(09_cuda_registers.csv, where the folder has one).

Writes OUT.png (the projection, and this host's runs against the model) and prints the check.
--table prints the chapter's tables (markdown) instead: the measured runs, then each run beside
the model's prediction, alpha and beta, and the projection. The model's formulas, its fits and
its projection are 13_distributed/cost_model.py's; this file draws and tabulates them.
"""
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "13_distributed"))
from reader import DISTRIBUTED, DISTRIBUTED_TIMELINE, InputError, read_rows  # noqa: E402
from cost_model import (CLUSTER, GPU_SUMMA, SIZES, Bcast, cluster_for, comm_rows, error,  # noqa: E402
                        gpu_checks, gpu_grid_runs, host_checks, kernel_rates, print_projection,
                        projection)
from chart_style import log_label  # noqa: E402
from stage_cli import guard, pyplot, run  # noqa: E402

STAGE = "13_distributed"


def fail(msg):
    raise InputError(msg)


HOST_GRIDS = (("4x4", 1), ("2x2", 4))  # 16 ranks x 1 thread, 4 ranks x 4 threads
HOST_BARS = ("summa", "summa_overlap", "local_only", "psgemm")


def host_rates(rows):
    """The runs on the chapter's two grids (square sizes, nb 256): {(n, grid, threads): {variant:
    GFLOP/s}} (the median where repeated), and {(n, grid, threads): P x the GFLOP/s of one rank
    alone on one rank's share (local_only on a 1x1 grid, the same threads)}."""
    got, alone = defaultdict(lambda: defaultdict(list)), {}
    for r in rows:
        if (r["grid"], r["threads"]) in HOST_GRIDS and r["variant"] in HOST_BARS and \
                r["m"] == r["n"] == r["k"] and r["nb"] == 256:
            # summa's reruns beside --slices are another step's: keep those alternated with PSGEMM
            if r["variant"] in ("summa", "summa_overlap") and not r["baseline"]:
                continue
            got[(r["n"], r["grid"], r["threads"])][r["variant"]].append(r["gflops"])
    for key in got:
        n, grid, t = key
        pr, pc = (int(x) for x in grid.split("x"))
        one = [r["gflops"] for r in rows if r["variant"] == "local_only" and r["grid"] == "1x1" and
               r["threads"] == t and (r["m"], r["n"], r["k"]) == (n // pr, n // pc, n)]
        if one:
            alone[key] = pr * pc * statistics.median(one)
    rates = {k: {v: statistics.median(x) for v, x in d.items()} for k, d in got.items()
             if "summa" in d or "summa_overlap" in d}
    return dict(sorted(rates.items(), key=lambda kv: (kv[0][0], kv[0][2]))), alone


def paired_ratio(rows, variant, key):
    """variant's GFLOP/s over PSGEMM's in the runs alternated with it (the CSV's baseline
    column), the median where repeated; None without."""
    n, grid, t = key
    got = [r["gflops"] / r["baseline_gflops"] for r in rows if r["variant"] == variant and
           (r["n"], r["grid"], r["threads"], r["nb"]) == (n, grid, t, 256) and r["m"] == r["k"] == n and
           r["baseline_gflops"] > 0]
    return statistics.median(got) if got else None


# ---------------------------------------------------------------- the model against the runs

def size_of(r):
    return f"{r['m']}" if r["m"] == r["n"] == r["k"] else f"{r['m']}x{r['n']}x{r['k']}"


def print_host_runs(rows, comm):
    checks = host_checks(rows, comm)
    if not checks:
        return
    print("\nThe model against the runs (gamma under load: local_only on as many ranks; "
          "alone: one rank on a 1x1 grid):\n")
    print("| variant | n | grid | ranks x threads | nb | measured ms | model ms (under load) | error | "
          "model ms (alone) | error |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r, tl, ta in checks:
        fmt = lambda t: (f"{t * 1e3:.1f} | {error(t, r['ms_median']):+.1f}%" if t else "- | -")  # noqa: E731
        print(f"| {r['variant']} | {size_of(r)} | {r['grid']} | {r['ranks']} x {r['threads']} | {r['nb']} | "
              f"{r['ms_median']:.1f} | {fmt(tl)} | {fmt(ta)} |")
    errs = [abs(error(tl, r["ms_median"])) for r, tl, _ in checks if tl]
    if errs:
        print(f"\nlargest error under load: {max(errs):.1f}% over {len(errs)} runs")


def print_one_gpu(rows):
    g = gpu_checks(rows)
    if not g:
        return
    print("\nOne GPU: summa_nccl against its kernel alone on the whole product (the model's time "
          "for a 1x1 grid):\n")
    print("| variant | n | nb | measured ms | kernel alone ms | overhead |")
    print("|---|---|---|---|---|---|")
    for r, t in g:
        print(f"| {r['variant']} | {r['n']} | {r['nb']} | {r['ms_median']:.2f} | {t * 1e3:.2f} | "
              f"{100.0 * (r['ms_median'] * 1e-3 / t - 1):+.1f}% |")


def print_gpu_runs(rows, comm):
    runs = gpu_grid_runs(rows, comm)
    if not runs:
        return
    print("\nSeveral GPUs, one rank each (GFLOP/s, medians; % of P x alone: against P times the "
          "kernel alone on the whole product on one GPU, the same call; model: gamma of the "
          "kernel alone, and of local_only_gpu on the same grid):\n")
    print("| variant | n | grid | nb | ms | GFLOP/s | % of P x alone | model ms (alone) | error | "
          "model ms (grid) | error | check |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    fmt = lambda t, r: f"{t * 1e3:.1f} | {error(t, r['ms_median']):+.1f}%" if t else "- | -"  # noqa: E731
    for r, ideal, ta, tg in sorted(runs, key=lambda x: (x[0]["n"], x[0]["ranks"], x[0]["grid"],
                                                        x[0]["nb"], x[0]["variant"])):
        share = f"{100.0 * r['gflops'] / ideal:.1f}%" if ideal else "-"
        print(f"| {r['variant']} | {size_of(r)} | {r['grid']} | {r['nb']} | {r['ms_median']:.1f} | "
              f"{r['gflops']:.0f} | {share} | {fmt(ta, r)} | {fmt(tg, r)} | {r['check']} |")
    errs = [abs(error(t, r["ms_median"])) for r, _, ta, tg in runs for t in (ta, tg) if t]
    if errs:
        print(f"\nlargest model error over the GPU runs: {max(errs):.1f}% ({len(errs)} predictions)")
    b = Bcast(comm, "nccl")
    nccl = [(q, f) for q, f in sorted(b.fits.items()) if q > 1]
    if nccl:
        print("\nalpha and beta fitted to --bench-comm (NCCL broadcasts between GPUs; alpha: 8 B, "
              "beta: the slope between the two largest sizes):\n")
        print("| ranks | alpha (us) | beta (GB/s) |")
        print("|---|---|---|")
        for q, (a, be) in nccl:
            print(f"| {q} | {a * 1e6:.1f} | {1e-9 / be if be else float('inf'):.0f} |")


def print_mpi_fits(comm):
    b = Bcast(comm)
    if not b.pingpong and not [q for q in b.fits if q > 1]:
        print("\nalpha and beta: no MPI timings on 2 ranks or more in the comm CSV (--bench-comm)")
        return
    print("\nalpha and beta fitted to --bench-comm (MPI):\n")
    print("| what | ranks | alpha (us) | beta (GB/s) |")
    print("|---|---|---|---|")
    if b.pingpong:
        print(f"| ping-pong | 2 | {b.pingpong[0] * 1e6:.2f} | {1e-9 / b.pingpong[1] if b.pingpong[1] else float('inf'):.2f} |")
    for q, (a, be) in sorted(b.fits.items()):
        if q < 2:
            continue
        print(f"| broadcast | {q} | {a * 1e6:.2f} | {1e-9 / be if be else float('inf'):.2f} |")


# ---------------------------------------------------------------- output

def load_all(src):
    rows = read_rows(src, DISTRIBUTED, STAGE)
    folder = os.path.dirname(os.path.abspath(src))
    return rows, comm_rows(folder), folder


def tables(src):
    rows, comm, folder = load_all(src)
    print("Measured (every row of the CSV; ms median; GF/s per core = GFLOP/s / (ranks x threads)):\n")
    print("| variant | n | grid | ranks x threads | nb | ms | GFLOP/s | GF/s per core | vs PSGEMM | check |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        size = size_of(r)
        base = r["baseline_gflops"]  # (0.000 on a tiny size, -1 for none: no ratio)
        vs = f"{r['gflops'] / base:.2f}x" if base > 0 else "-"
        print(f"| {r['variant']} | {size} | {r['grid']} | {r['ranks']} x {r['threads']} | {r['nb']} | "
              f"{r['ms_median']:.1f} | {r['gflops']:.1f} | {r['gflops'] / (r['ranks'] * r['threads']):.2f} | "
              f"{vs} | {r['check']} |")
    rates, alone = host_rates(rows)
    if rates:
        print("\nThe targets on 16 cores (nb 256; vs PSGEMM: against the PSGEMM runs alternated with "
              "it; P x alone: one rank on one rank's share, times the ranks):\n")
        print("| n | grid | ranks x threads | variant | GFLOP/s | vs PSGEMM | % of P x alone |")
        print("|---|---|---|---|---|---|---|")
        for key, got in rates.items():
            n, grid, t = key
            for v in HOST_BARS[:3]:
                if v not in got:
                    continue
                ratio = paired_ratio(rows, v, key)
                share = f"{100.0 * got[v] / alone[key]:.1f}%" if key in alone else "-"
                print(f"| {n} | {grid} | {16 // t} x {t} | {v} | {got[v]:.1f} | "
                      f"{f'{ratio:.2f}x' if ratio else '-'} | {share} |")
            if key in alone:
                print(f"| {n} | {grid} | {16 // t} x {t} | P x one rank alone | {alone[key]:.1f} | - | 100% |")
    print_host_runs(rows, comm)
    print_one_gpu(rows)
    print_gpu_runs(rows, comm)
    print_mpi_fits(comm)
    print_projection(folder)


GPU_COLOURS = {"summa_nccl": "tab:blue", "summa_nccl_cublas": "tab:orange",
               "local_only_gpu": "tab:green"}


def draw_gpus(ax, ax_model, runs):
    """Bars: each grid's SUMMA runs (nb 4096, no split) as % of P x the same kernel alone on one
    GPU, by n (local_only_gpu is left out: it multiplies zeros, which a GPU may run faster than
    data); and the model (gamma alone: o, on the grid: x) against every run."""
    plain = [(r, ideal) for r, ideal, _, _ in runs if ideal and r["nb"] == 4096 and
             "+" not in r["variant"] and r["variant"] in GPU_SUMMA]
    keys = sorted({(r["n"], r["ranks"], r["grid"]) for r, _ in plain})
    variants = [v for v in GPU_COLOURS if any(r["variant"] == v for r, _ in plain)]
    width = 0.8 / max(1, len(variants))
    for i, key in enumerate(keys):
        for j, v in enumerate(variants):
            got = [100.0 * r["gflops"] / ideal for r, ideal in plain
                   if (r["n"], r["ranks"], r["grid"]) == key and r["variant"] == v]
            if got:
                ax.bar(i - 0.4 + (j + 0.5) * width, got[0], width, color=GPU_COLOURS[v],
                       label=v if v not in ax.get_legend_handles_labels()[1] else None)
    ax.axhline(97, color="k", lw=0.8, ls="--", label="97% (the target)")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([f"{g}\n{n // 1024}K" for n, _, g in keys], fontsize=7)
    ax.set_ylim(80, 106)
    ax.set_ylabel("% of P x the same kernel alone on one GPU")
    ax.set_xlabel("grid, n (nb 4096)")
    ax.set_title(f"{runs[0][0]['device']} x {max(r['ranks'] for r, *_ in runs)}: "
                 "SUMMA over NCCL", fontsize=9)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7, loc="upper left", ncol=3)
    pts = [(r, t, marker) for r, _, ta, tg in runs for t, marker in ((ta, "o"), (tg, "x")) if t]
    for r, t, marker in pts:
        ax_model.scatter(r["ms_median"], error(t, r["ms_median"]), marker=marker, s=20,
                         color=GPU_COLOURS[r["variant"].split("+")[0]])
    ax_model.axhspan(-10, 10, color="k", alpha=0.08, label="within 10% (the target)")
    ax_model.axhline(0, color="k", lw=0.8)
    from matplotlib.patches import Patch  # (a colour's key: a swatch, not a marker)
    handles = [h for h in ax_model.get_legend_handles_labels()[0]]
    for v in ("summa_nccl", "summa_nccl_cublas"):
        if any(r["variant"].split("+")[0] == v for r, _, _ in pts):
            handles.append(Patch(color=GPU_COLOURS[v], label=v))
    handles.append(ax_model.scatter([], [], marker="o", color="k",
                                    label="gamma: the kernel alone, one GPU"))
    if any(m == "x" for _, _, m in pts):
        handles.append(ax_model.scatter([], [], marker="x", color="k",
                                        label="gamma: local_only_gpu, same grid"))
    ax_model.set_xscale("log")
    ax_model.set_ylim(-15, 5)
    ax_model.set_xlabel("measured ms (log scale; n = 16K, 32K, 64K on 2 and 4 GPUs)")
    ax_model.set_ylabel("model error, % ((model - measured) / measured)")
    ax_model.set_title("the model (NCCL's alpha and beta of this host) against every run", fontsize=9)
    ax_model.grid(alpha=0.3, which="both")
    ax_model.legend(handles=handles, fontsize=7, loc="lower right")


def draw_timeline(src, dst, variant="summa_nccl", n=None):
    """--timeline's rows of one traced run (variant, the largest n, the first grid found): the
    whole run, a lane per rank (broadcasts above, products below), and two close-ups: the first
    panel, with the same run cut by --first-split 4 beside it where traced, and the end."""
    plt = pyplot()
    rows = read_rows(src, DISTRIBUTED_TIMELINE, STAGE)
    n = n or max((r["n"] for r in rows if r["variant"] == variant), default=None)

    def run_of(v):
        got = [r for r in rows if r["variant"] == v and r["n"] == n and r["nb"] == 4096]
        grids = sorted({r["grid"] for r in got})
        return [r for r in got if r["grid"] == grids[0]] if grids else []

    main, split = run_of(variant), run_of(variant + "+split4")
    if not main:
        fail(f"{src}: no {variant} rows at n = {n}")
    ranks = sorted({r["rank"] for r in main})
    end = max(r["end_ms"] for r in main)
    first = max((r["start_ms"] for r in main if r["what"] == "gemm" and r["panel"] == 0), default=None)
    if first is None:
        fail(f"{src}: no product of panel 0 in the {variant} run at n = {n}")
    fig, axes = plt.subplots(1, 3, figsize=(15.5, 4.2), dpi=110, sharey=True,
                             gridspec_kw={"width_ratios": [2.2, 1, 1]})
    colour = {"bcast_a": "tab:red", "bcast_b": "tab:purple"}

    def lanes(ax, spans, x0, x1, tag=""):
        for r in spans:
            a, b = r["start_ms"], r["end_ms"]
            if b <= x0 or a >= x1 or (r["what"] != "gemm" and r["bytes"] == 0):
                continue
            y = 2 * ranks.index(r["rank"])
            if r["what"] == "gemm":
                c = "tab:blue" if r["panel"] % 2 == 0 else "tab:cyan"
                ax.broken_barh([(a, b - a)], (y + 0.05, 0.8), color=c)
            else:
                ax.broken_barh([(a, b - a)], (y + 1.0, 0.8), color=colour[r["what"]])
        ax.set_xlim(x0, x1)
        ax.set_yticks([2 * i + 0.45 for i in range(len(ranks))] + [2 * i + 1.4 for i in range(len(ranks))])
        ax.set_yticklabels([f"rank {q}{tag}: products" for q in ranks] +
                           [f"rank {q}{tag}: broadcasts" for q in ranks], fontsize=7)
        ax.set_xlabel("ms from the run's start on each GPU")
        ax.grid(alpha=0.3, axis="x")

    g = main[0]["grid"]
    lanes(axes[0], main, 0, end * 1.01)
    axes[0].set_title(f"{variant}, n = {n}, {g} GPUs, nb 4096: the whole run "
                      f"({len({r['panel'] for r in main})} panels)", fontsize=9)
    lanes(axes[1], main, 0, 3 * first)
    axes[1].set_title(f"the start: panel 0's broadcasts, {first:.1f} ms\nbefore any product", fontsize=9)
    tail0 = min((r["end_ms"] for r in main if r["what"] == "gemm" and
                 r["panel"] == max(x["panel"] for x in main)), default=end)
    lanes(axes[2], main, tail0 - 0.4 * (end - tail0) - 5, end + 2)
    axes[2].set_title(f"the end: the GPUs finish\n{end - tail0:.1f} ms apart", fontsize=9)
    for ax in axes[1:]:
        ax.tick_params(labelleft=False)  # (the lanes are the first panel's)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in ("tab:blue", "tab:cyan", "tab:red", "tab:purple")]
    axes[0].legend(handles, ["product, even panel", "product, odd panel", "A's piece (row)",
                             "B's piece (column)"], fontsize=7, loc="upper center", ncol=4,
                   bbox_to_anchor=(0.5, -0.16))
    f2 = max((r["start_ms"] for r in split if r["what"] == "gemm" and r["panel"] == 0), default=None)
    if f2 is not None:
        axes[1].text(0.98, 0.02, f"--first-split 4: {f2:.1f} ms", transform=axes[1].transAxes,
                     ha="right", fontsize=8)
    fig.suptitle("13_distributed --timeline: where the broadcasts sit against the products",
                 fontsize=10)
    finish(fig, dst)


def finish(fig, dst):
    """Lay the figure out, write it to dst and say so."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(dst)
    plt.close(fig)
    print(dst)


def draw(src, dst):
    plt = pyplot()
    import matplotlib.ticker

    rows, comm, folder = load_all(src)
    checks = host_checks(rows, comm)
    rates = kernel_rates(folder)
    measured, alone = host_rates(rows)
    gpu_runs = gpu_grid_runs(rows, comm)
    # the projection (two panels), this host's CPU runs against the targets, the model against
    # them, and the runs on several GPUs (against P x one GPU alone, and against the model)
    cpu_model = bool(checks) or not (measured or gpu_runs)
    panels = (2 if rates else 0) + (1 if measured else 0) + cpu_model + (2 if gpu_runs else 0)
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 4.6), dpi=110, squeeze=False)
    axes = list(axes[0])
    if gpu_runs:
        draw_gpus(axes[-2], axes[-1], gpu_runs)
        axes = axes[:-2]
    colours = {"SUMMA": "tab:blue", "Cannon": "tab:orange", "2.5D": "tab:green"}
    if rates:
        proj = projection(rates, cluster_for(comm))
        for ax, n in zip(axes, SIZES):
            for alg in ("SUMMA", "Cannon", "2.5D"):
                pts = proj[(alg, n)]
                if pts:
                    ax.plot([p for p, *_ in pts], [e * 100 for _, _, e, _ in pts], "o-", ms=3,
                            color=colours[alg], label=alg)
            ax.set_xscale("log", base=2)
            ax.set_ylim(0, 105)
            ax.set_xlim(1, 4096)
            ax.set_xlabel(log_label("GPUs"))
            ax.set_ylabel("efficiency, % of P x one GPU's best rate")
            ax.set_title(f"n = {n}: the model on {CLUSTER['gpus_per_node']} H100 a node", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
            if n == SIZES[1]:
                ax.text(0.02, 0.02, "no point: does not fit in the GPUs' memory", fontsize=7,
                        transform=ax.transAxes)
    if measured:
        ax = axes[2 if rates else 0]
        colours_host = {"summa": "tab:gray", "summa_overlap": "tab:blue", "local_only": "tab:green",
                        "psgemm": "tab:orange"}
        width = 0.8 / len(HOST_BARS)
        for i, (key, got) in enumerate(measured.items()):
            for j, v in enumerate(HOST_BARS):
                if v in got:
                    ax.bar(i - 0.4 + (j + 0.5) * width, got[v], width, color=colours_host[v],
                           label=v if i == 0 or v not in ax.get_legend_handles_labels()[1] else None)
            if key in alone:
                ax.hlines(alone[key], i - 0.45, i + 0.45, color="k", lw=1.2,
                          label="P x one rank alone" if i == 0 else None)
                ax.hlines(0.85 * alone[key], i - 0.45, i + 0.45, color="k", lw=0.8, ls="--",
                          label="85% of it (the target)" if i == 0 else None)
        ax.set_xticks(range(len(measured)))
        ax.set_xticklabels([f"n = {n}\n{g}, {16 // t} x {t}" for n, g, t in measured], fontsize=8)
        ax.set_ylabel("GFLOP/s (16 cores)")
        ax.set_title(f"this host's runs (nb 256)\n({rows[0]['device']})", fontsize=9)
        ax.grid(alpha=0.3, axis="y")
        top = max([max(got.values()) for got in measured.values()] + list(alone.values()))
        ax.set_ylim(0, top * 1.35)
        ax.legend(fontsize=7, loc="upper center", ncol=3)
    if not cpu_model:
        fig.suptitle("13_distributed: SUMMA's cost model (alpha-beta-gamma), and this host's runs",
                     fontsize=10)
        finish(fig, dst)
        return
    ax = axes[-1]
    if checks:
        for r, tl, ta in checks:
            colour = {"summa": "tab:gray", "summa_overlap": "tab:blue"}.get(r["variant"], "tab:green")
            for t, marker in ((tl, "o"), (ta, "x")):
                if t:
                    ax.scatter(r["ms_median"], t * 1e3, marker=marker, s=22, color=colour)
        every = [t * 1e3 for _, *ts in checks for t in ts if t] + [r["ms_median"] for r, *_ in checks]
        lo, hi = min(every) * 0.8, max(every) * 1.25
        ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
        ax.fill_between([lo, hi], [lo * 0.85, hi * 0.85], [lo * 1.15, hi * 1.15], color="k", alpha=0.08,
                        label="within 15%")
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):  # 1, 2, 5 of each decade, as numbers
            axis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
            axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
            axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        # a legend entry for each kind of point drawn, and for nothing else
        under = {r["variant"] for r, tl, _ in checks if tl}
        if "summa_overlap" in under:
            ax.scatter([], [], marker="o", color="tab:blue", label="summa_overlap, gamma under load")
        if "summa" in under:
            ax.scatter([], [], marker="o", color="tab:gray", label="summa, gamma under load")
        if any("+slices" in v for v in under):
            ax.scatter([], [], marker="o", color="tab:green", label="summa_overlap --slices 1, 2")
        if any(ta for _, _, ta in checks):
            ax.scatter([], [], marker="x", color="k", label="gamma of one rank alone")
        ax.legend(fontsize=7)
    ax.set_xlabel(log_label("measured ms"))
    ax.set_ylabel(log_label("model ms"))
    device = rows[0]["device"]
    ax.set_title(f"the model against this host's runs\n({device})", fontsize=9)
    ax.grid(alpha=0.3, which="both")
    fig.suptitle("13_distributed: SUMMA's cost model (alpha-beta-gamma)", fontsize=10)
    for r, tl, ta in checks:
        pieces = [f"under load {tl * 1e3:.1f} ms ({error(tl, r['ms_median']):+.1f}%)" if tl else "",
                  f"alone {ta * 1e3:.1f} ms ({error(ta, r['ms_median']):+.1f}%)" if ta else ""]
        print(f"{r['variant']} n={r['n']} {r['grid']} x{r['threads']} nb={r['nb']}: measured "
              f"{r['ms_median']:.1f} ms; model " + ", ".join(p for p in pieces if p))
    finish(fig, dst)


def main(src, dst):
    draw(src, dst)


if __name__ == "__main__":
    PROG = "plots/13_distributed.py"
    if len(sys.argv) == 4 and sys.argv[1] == "--timeline":
        guard(PROG, draw_timeline, sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "--table":
        guard(PROG, tables, sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "--projection":
        guard(PROG, print_projection, sys.argv[2], True)
    else:
        run(main, f"{PROG} RESULTS/13_distributed.csv OUT.png | --table RESULTS/13_distributed.csv | "
            "--projection RESULTS_DIR | --timeline RESULTS/13_distributed_timeline.csv OUT.png")

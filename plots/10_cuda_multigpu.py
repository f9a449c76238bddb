#!/usr/bin/env python3
"""plots/10_cuda_multigpu.py: chapter 10's charts.

    python3 plots/10_cuda_multigpu.py results/h200x4/10_cuda_multigpu.csv \\
        docs/figures/h200x4/10_cuda_multigpu.png

  10_cuda_multigpu.png           strong scaling: TFLOP/s end to end (host memory to host memory)
                                 against the number of GPUs, one panel per size, every variant
                                 and cuBLASXt, with the ideal line (n x the one-GPU speed of
                                 the best variant)
  10_cuda_multigpu_timeline.png  drawn when results/<machine>/10_cuda_multigpu/timeline_*.csv
                                 exist (bench.sh's timeline phase, --timeline): one lane per GPU
                                 and stream, copies in, kernels and copies out as bars

`make plots` calls it for every results/<machine>/ holding a 10_cuda_multigpu.csv. The CSV is the
harness's (docs/measuring.md); its threads column holds the GPU count. Rows that FAILed their
check are left out; repeated rows are combined by their median.
"""
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from reader import MULTIGPU_TIMELINE, RESULT, read_rows  # noqa: E402
from stage_cli import passed_square, pyplot, run, save  # noqa: E402

plt = pyplot()  # (before anything is read: a python without matplotlib says so)

COLOURS = {"rows_split": "tab:gray", "tiled_streams": "tab:blue",
           "tiled_streams_cublas": "tab:green", "cublasxt": "tab:red"}
KIND_COLOURS = {"h2d": "tab:orange", "kernel": "tab:blue", "d2h": "tab:purple"}


def scaling(data, src, dst):
    rows = defaultdict(list)  # (n, variant, gpus) -> gflops
    device = ""
    for r in passed_square(data, src):
        rows[(r["n"], r["variant"], r["threads"])].append(r["gflops"])
        device = r["device"]
    sizes = sorted({n for n, _, _ in rows if len({g for m, _, g in rows if m == n}) > 1})
    if not sizes:
        sizes = sorted({n for n, _, _ in rows})[-2:]
    fig, axes = plt.subplots(1, len(sizes), figsize=(5.2 * len(sizes), 4.2), squeeze=False)
    for ax, n in zip(axes[0], sizes):
        gpus_all = sorted({g for m, _, g in rows if m == n})
        best1 = 0
        for v in COLOURS:
            pts = sorted((g, statistics.median(x)) for (m, vv, g), x in rows.items()
                         if m == n and vv == v)
            if not pts:
                continue
            ax.plot([g for g, _ in pts], [y / 1e3 for _, y in pts], "o-", color=COLOURS[v],
                    label=v)
            for g, y in pts:
                if g == 1 and v != "cublasxt":
                    best1 = max(best1, y)
        if best1:
            ax.plot(gpus_all, [g * best1 / 1e3 for g in gpus_all], ":", color="black",
                    label="ideal (n x best 1-GPU)")
        ax.set_xticks(gpus_all)
        ax.set_xlabel("GPUs")
        ax.set_ylabel("TFLOP/s, end to end from host memory")
        ax.set_title(f"n = {n}")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
    fig.suptitle(f"10_cuda_multigpu: strong scaling, FP32, {device}", fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
    save(fig, src, dst, dpi=110)
    plt.close(fig)


def timeline(files, src, dst):
    fig, axes = plt.subplots(len(files), 1, figsize=(11, 2.2 + 0.5 * 8 * len(files)),
                             squeeze=False)
    for ax, (path, spans) in zip(axes[:, 0], files):
        lanes = sorted({(s["gpu"], s["stream"]) for s in spans})
        y = {lane: i for i, lane in enumerate(lanes)}
        for s in spans:
            a, b = s["start_ms"], s["end_ms"]
            ax.barh(y[(s["gpu"], s["stream"])], b - a, left=a, height=0.7,
                    color=KIND_COLOURS[s["kind"]], edgecolor="none")
        ax.set_yticks(range(len(lanes)))
        ax.set_yticklabels([f"GPU {g} " + ("copy in" if st < 0 else f"stream {st}")
                            for g, st in lanes], fontsize=8)
        ax.invert_yaxis()
        s0 = spans[0]
        ax.set_title(f"{s0['variant']}, n = {s0['n']}, {s0['gpus']} GPUs", fontsize=9)
        ax.set_xlabel("ms since the call began (each GPU's own clock)")
        ax.grid(axis="x", alpha=0.3)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in KIND_COLOURS.values()]
    # under the lanes (in a lane's corner it covered the first copies)
    fig.legend(handles, ["host -> device", "kernel", "device -> host"], fontsize=8, ncol=3,
               loc="lower center")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    save(fig, src, dst, dpi=110)
    plt.close(fig)


def main(src, dst):
    # every CSV read (and refused if bad) before any chart is written
    rows = read_rows(src, RESULT, stage="10_cuda_multigpu")
    tdir = os.path.join(os.path.dirname(src), "10_cuda_multigpu")
    order = ["timeline_rows_split.csv", "timeline_tiled_streams.csv"]
    files = [(path, read_rows(path, MULTIGPU_TIMELINE)) for path in
             (os.path.join(tdir, f) for f in order) if os.path.exists(path)]
    scaling(rows, src, dst)
    if files:
        timeline(files, src, dst.replace(".png", "_timeline.png"))


if __name__ == "__main__":
    run(main, "plots/10_cuda_multigpu.py RESULTS/10_cuda_multigpu.csv OUT.png")

#!/usr/bin/env python3
"""plots/13_distributed.py: the cost model of a distributed GEMM, checked against the runs and drawn.

    python3 plots/13_distributed.py results/h100/13_distributed.csv docs/figures/h100/13_distributed.png
    python3 plots/13_distributed.py --table results/h100/13_distributed.csv   (the chapter's tables)
    python3 plots/13_distributed.py --projection results/h100    (the projection's table alone)
    python3 plots/13_distributed.py --timeline results/h200x4/13_distributed_timeline.csv OUT.png

Reads the GEMM rows (13_distributed.csv, written by --csv) and, beside them, the message timings
(13_distributed_comm.csv, written by --bench-comm) and stage 09's kernel rates on the GPU
(09_cuda_registers.csv, where the folder has one).

The model (alpha-beta-gamma). A message or broadcast of n bytes among q ranks takes
alpha_q + beta_q * n; a local product takes 2*m*n*k*gamma. SUMMA on a PR x PC grid with panels
of width b does K/b steps; in each, the rank holding the most (rank (0, 0) of the block-cyclic
layout) receives an m x b piece of A along its row (q = PC) and a b x n piece of B along its
column (q = PR), and multiplies them:

    summa          T = sum over panels of  bcast_row(4 m b) + bcast_col(4 b n) + 2 m n b gamma
    summa_overlap  T = comm(panel 0) + sum over panels of max(compute(k), comm(k+1))

On this host, alpha_q and beta_q are fitted to --bench-comm's broadcasts on the same number of
ranks (alpha: the 8-byte time; beta: the slope between 8 and 32 MiB), for q between measured
sizes interpolated in log2 q; gamma is the local product's rate under the same load (local_only
on as many ranks and threads, the same n), and, for comparison, one rank's alone (local_only on
a 1x1 grid, the same local shape).

The projection: the same SUMMA, Cannon's algorithm and 2.5D (Solomonik and Demmel) on a stated
cluster of H100s (CLUSTER below), n = 65536 and 262144, P = 1 .. 4096 GPUs: time and efficiency
(2 n^3 / (P x the kernel's best rate) / T). gamma comes from stage 09's measured warptile rates
by size (a panel product m x n x b taken at the size of the cube of equal volume); the latency
alpha of a step within a node from the measured NCCL call; the bandwidths are the cluster's
(nominal until measured between GPUs). Points that do not fit in the GPUs' memory are left out.

Writes OUT.png (the projection, and this host's runs against the model) and prints the check.
--table prints the chapter's tables (markdown) instead: the measured runs and the model's error.
"""
import math
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from reader import (DISTRIBUTED, DISTRIBUTED_COMM, DISTRIBUTED_TIMELINE, RESULT,  # noqa: E402
                    InputError, optional, read_rows)
from chart_style import log_label  # noqa: E402
from stage_cli import guard, pyplot, run  # noqa: E402

STAGE = "13_distributed"

# The stated cluster of the projection. Bandwidths are nominal (the NVLink figure is what NCCL's
# broadcast reaches of NVLink 4's 450 GB/s a direction); replace them by measured ones.
CLUSTER = {
    "what": "nodes of 4 H100 (80 GB) on NVLink, 400 Gb/s between nodes (one NIC a node)",
    "gpus_per_node": 4,
    "mem_bytes": 0.9 * 80e9,  # usable per GPU
    "nvlink_Bps": 300e9,      # a broadcast within a node, per GPU
    "net_Bps": 50e9,          # 400 Gb/s a node, shared by the node's GPUs that send at once
    "alpha_net": 10e-6,       # a step between nodes: the network's latency and NCCL's own
    "alpha_nvlink": 10e-6,    # a step within a node (replaced by the measured NCCL call)
}
SIZES = (65536, 262144)
PANELS = (512, 1024, 2048, 4096)  # the model picks the best SUMMA panel width


def fail(msg):
    raise InputError(msg)


def comm_rows(folder):
    """--bench-comm's rows, from 13_distributed_comm.csv in folder where there is one."""
    return optional(os.path.join(folder, "13_distributed_comm.csv"), DISTRIBUTED_COMM, STAGE)


def local_count(n, nb, iproc, nprocs):
    """How many of n indices process iproc holds (distributed.h)."""
    nblocks, extra = divmod(n, nb)
    count = nblocks // nprocs * nb
    rest = nblocks % nprocs
    return count + (nb if iproc < rest else extra if iproc == rest else 0)


# ---------------------------------------------------------------- alpha and beta

def fit_line(points):
    """(alpha s, beta s/byte) from [(bytes, us)]: the smallest message's time, and the slope
    between the two largest."""
    pts = sorted(points)
    alpha = pts[0][1] * 1e-6
    if len(pts) < 2:
        return alpha, 0.0
    (b1, t1), (b2, t2) = pts[-2], pts[-1]
    return alpha, max(0.0, (t2 - t1) * 1e-6 / (b2 - b1))


class Bcast:
    """Broadcast cost on q ranks from --bench-comm's MPI rows: fitted where measured (on a run
    of the same rank count if there is one), interpolated in log2 q between measured q."""

    def __init__(self, comm_rows, transport="mpi"):
        groups = defaultdict(list)
        for r in comm_rows:
            if r["transport"] == transport and r["op"].startswith("bcast"):
                groups[(r["op"], r["ranks"])].append((r["bytes"], r["us_median"]))
        self.fits = {}  # q -> (alpha, beta), preferring the row/column broadcasts (SUMMA's)
        for (op, q), pts in sorted(groups.items(), key=lambda kv: kv[0][0] == "bcast_all"):
            merged = defaultdict(list)
            for b, t in pts:
                merged[b].append(t)
            fit = fit_line([(b, statistics.median(t)) for b, t in merged.items()])
            self.fits.setdefault(q, fit)
        pp = defaultdict(list)
        for r in comm_rows:
            if r["transport"] == transport and r["op"] == "pingpong":
                pp[r["bytes"]].append(r["us_median"])
        self.pingpong = fit_line([(b, statistics.median(t)) for b, t in pp.items()]) if pp else None

    def params(self, q):
        if q <= 1:
            return 0.0, 0.0
        if q in self.fits:
            return self.fits[q]
        known = sorted(k for k in self.fits if k > 1)
        if not known:
            return None
        lo = max([k for k in known if k < q], default=known[0])
        hi = min([k for k in known if k > q], default=known[-1])
        if lo == hi:
            return self.fits[lo]
        f = (math.log2(q) - math.log2(lo)) / (math.log2(hi) - math.log2(lo))
        (a1, b1), (a2, b2) = self.fits[lo], self.fits[hi]
        return a1 + f * (a2 - a1), b1 + f * (b2 - b1)

    def time(self, q, nbytes):
        p = self.params(q)
        return None if p is None else (0.0 if q <= 1 else p[0] + p[1] * nbytes)


# ---------------------------------------------------------------- SUMMA on this host

def summa_time(M, N, K, pr, pc, nb, gamma, bcast, overlap):
    """Seconds for SUMMA by the model, on rank (0, 0) (the largest block)."""
    m, n = local_count(M, nb, 0, pr), local_count(N, nb, 0, pc)
    comm, comp = [], []
    for k0 in range(0, K, nb):
        w = min(nb, K - k0)
        a, b = bcast.time(pc, 4 * m * w), bcast.time(pr, 4 * w * n)
        if a is None or b is None:
            return None
        comm.append(a + b)
        comp.append(2.0 * m * n * w * gamma)
    if not overlap:
        return sum(comm) + sum(comp)
    t = comm[0]
    for i, c in enumerate(comp):
        t += max(c, comm[i + 1] if i + 1 < len(comm) else 0.0)
    return t


def grid_of(row):
    pr, pc = row["grid"].split("x")
    return int(pr), int(pc)


def gammas(rows):
    """The local product's seconds per flop: under load {(n, ranks, threads): gamma} from
    local_only on a full grid, alone {(m, n, k, threads): gamma} from local_only on 1x1."""
    load, alone = defaultdict(list), defaultdict(list)
    for r in rows:
        if r["variant"] != "local_only":
            continue
        # each rank multiplies its own blocks: seconds per flop of rank (0, 0)'s share
        pr, pc = grid_of(r)
        m, n = local_count(r["m"], r["nb"], 0, pr), local_count(r["n"], r["nb"], 0, pc)
        g = r["ms_median"] * 1e-3 / (2.0 * m * n * r["k"])
        if r["grid"] == "1x1":
            alone[(r["m"], r["n"], r["k"], r["threads"])].append(g)
        else:
            load[(r["n"], r["ranks"], r["threads"])].append(g)
    med = lambda d: {k: statistics.median(v) for k, v in d.items()}  # noqa: E731
    return med(load), med(alone)


def host_checks(rows, comm_rows):
    """[(row, predicted s under load, predicted s alone)] for every summa/summa_overlap row."""
    bcast = Bcast(comm_rows)
    load, alone = gammas(rows)
    out = []
    for r in rows:
        variant = r["variant"].split("+")[0]  # summa_overlap+slicesS: the same model
        if variant not in ("summa", "summa_overlap") or r["check"] == "FAIL":
            continue
        pr, pc = grid_of(r)
        m, n = local_count(r["m"], r["nb"], 0, pr), local_count(r["n"], r["nb"], 0, pc)
        g_load = load.get((r["n"], r["ranks"], r["threads"]))
        g_alone = alone.get((m, n, r["k"], r["threads"]))
        over = variant == "summa_overlap"
        t_load = summa_time(r["m"], r["n"], r["k"], pr, pc, r["nb"], g_load, bcast, over) if g_load else None
        t_alone = summa_time(r["m"], r["n"], r["k"], pr, pc, r["nb"], g_alone, bcast, over) if g_alone else None
        if t_load or t_alone:
            out.append((r, t_load, t_alone))
    return out


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


def gpu_checks(rows):
    """[(row, predicted s)] for summa_nccl on one GPU: the panels' products at the rate of the
    kernel alone on the whole product (the same run), no communication on a 1x1 grid."""
    alone = {}
    for r in rows:
        if r["variant"] in ("warptile_alone", "cublas_alone"):
            alone.setdefault((r["variant"], r["m"], r["n"], r["k"]), []).append(r["ms_median"])
    out = []
    for r in rows:
        base = {"summa_nccl": "warptile_alone", "summa_nccl_cublas": "cublas_alone"}.get(r["variant"].replace("+pack", ""))
        if base and r["grid"] == "1x1" and (base, r["m"], r["n"], r["k"]) in alone:
            out.append((r, statistics.median(alone[(base, r["m"], r["n"], r["k"])]) * 1e-3))
    return out


# ---------------------------------------------------------------- SUMMA on several GPUs

GPU_SUMMA = {"summa_nccl": "warptile_alone", "summa_nccl_cublas": "cublas_alone"}


def panel_widths(K, nb, split):
    """The panels of summa_nccl (nccl.cu's panel_width): blocks of nb, the first in `split`."""
    out, k0 = [], 0
    while k0 < K:
        piece = -(-nb // split) if k0 < nb and split > 1 else nb
        w = min(piece, (k0 // nb + 1) * nb - k0, K - k0)
        out.append(w)
        k0 += w
    return out


def nccl_time(M, N, K, pr, pc, nb, split, gamma, bcast):
    """Seconds of summa_nccl by the model, on rank (0, 0): the two streams simulated. The
    broadcasts of panel i (A's piece along the row, then B's down the column, one stream) start
    once those of panel i-1 are done and the product of panel i-2 has freed their buffer; the
    product of panel i starts once its panel is here and the product of panel i-1 is done."""
    m, n = local_count(M, nb, 0, pr), local_count(N, nb, 0, pc)
    c_end, g_end = [], []
    for i, w in enumerate(panel_widths(K, nb, split)):
        a, b = bcast.time(pc, 4 * m * w), bcast.time(pr, 4 * w * n)
        if a is None or b is None:
            return None
        start = max(c_end[-1] if c_end else 0.0, g_end[i - 2] if i >= 2 else 0.0)
        c_end.append(start + a + b)
        g_end.append(max(g_end[-1] if g_end else 0.0, c_end[-1]) + 2.0 * m * n * w * gamma)
    return g_end[-1] if g_end else 0.0


def split_of(variant):
    tail = [x for x in variant.split("+") if x.startswith("split")]
    return int(tail[0][5:]) if tail else 1


def gpu_grid_runs(rows, comm_rows):
    """Every summa_nccl, summa_nccl_cublas and local_only_gpu row on more than one GPU, with the
    yardstick (P x the kernel alone on one GPU, the same n) and the model's times:
    [(row, P x alone GFLOP/s or None, model s with gamma alone, model s with gamma on the grid)].
    gamma alone: the kernel on the whole product on one GPU; on the grid: local_only_gpu, the
    same grid, n, nb and split (warptile only)."""
    bcast = Bcast(comm_rows, "nccl")
    alone = defaultdict(list)
    for r in rows:
        if r["variant"] in GPU_SUMMA.values() and r["grid"] == "1x1" and r["m"] == r["n"] == r["k"]:
            alone[(r["variant"], r["n"])].append(r["ms_median"])
    local = {}
    for r in rows:
        if r["variant"].split("+")[0] == "local_only_gpu" and r["ranks"] > 1:
            pr, pc = grid_of(r)
            m, n = local_count(r["m"], r["nb"], 0, pr), local_count(r["n"], r["nb"], 0, pc)
            local[(r["grid"], r["n"], r["nb"], split_of(r["variant"]))] = \
                r["ms_median"] * 1e-3 / (2.0 * m * n * r["k"])
    out = []
    for r in rows:
        base = r["variant"].split("+")[0]
        if r["ranks"] < 2 or base not in tuple(GPU_SUMMA) + ("local_only_gpu",):
            continue
        pr, pc = grid_of(r)
        kernel = GPU_SUMMA.get(base, "warptile_alone")
        ms = alone.get((kernel, r["n"])) if r["m"] == r["n"] == r["k"] else None
        ideal = r["ranks"] * 2.0 * r["n"] ** 3 / (statistics.median(ms) * 1e6) if ms else None
        t_alone = t_grid = None
        if base != "local_only_gpu":
            split = split_of(r["variant"])
            if ms:
                g = statistics.median(ms) * 1e-3 / (2.0 * r["n"] ** 3)
                t_alone = nccl_time(r["m"], r["n"], r["k"], pr, pc, r["nb"], split, g, bcast)
            g = local.get((r["grid"], r["n"], r["nb"], split)) if base == "summa_nccl" else None
            if g:
                t_grid = nccl_time(r["m"], r["n"], r["k"], pr, pc, r["nb"], split, g, bcast)
        out.append((r, ideal, t_alone, t_grid))
    return out


def gpu_tables(rows, comm):
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
    fits = [(q, f) for q, f in sorted(b.fits.items()) if q > 1]
    if fits:
        print("\nalpha and beta fitted to --bench-comm (NCCL broadcasts between GPUs; alpha: 8 B, "
              "beta: the slope between the two largest sizes):\n")
        print("| ranks | alpha (us) | beta (GB/s) |")
        print("|---|---|---|")
        for q, (a, be) in fits:
            print(f"| {q} | {a * 1e6:.1f} | {1e-9 / be if be else float('inf'):.0f} |")


# ---------------------------------------------------------------- the projection

def kernel_rates(folder, required=False):
    """[(size, FLOP/s)] of 09's warptile on square sizes, from 09_cuda_registers.csv beside the
    results (the median where repeated); None where there is none."""
    by = defaultdict(list)
    for r in optional(os.path.join(folder, "09_cuda_registers.csv"), RESULT, "09_cuda_registers",
                      required, "the kernel's rates by size, for the projection"):
        if r["variant"] == "warptile" and r["check"] == "PASS" and r["m"] == r["n"] == r["k"]:
            by[r["m"]].append(r["gflops"] * 1e9)
    return sorted((s, statistics.median(v)) for s, v in by.items()) or None


def rate_at(rates, m, n, k):
    """FLOP/s of a product m x n x k: the measured rate at the cube of equal volume, linear in
    log2 of the size between measured sizes; below the smallest, falling as the size squared."""
    s = (float(m) * n * k) ** (1.0 / 3.0)
    if s >= rates[-1][0]:
        return rates[-1][1]
    if s <= rates[0][0]:
        return rates[0][1] * (s / rates[0][0]) ** 2
    for (s1, r1), (s2, r2) in zip(rates, rates[1:]):
        if s1 <= s <= s2:
            f = (math.log2(s) - math.log2(s1)) / (math.log2(s2) - math.log2(s1))
            return r1 + f * (r2 - r1)
    return rates[-1][1]


def squarest(p):
    r = max(d for d in range(1, int(math.isqrt(p)) + 1) if p % d == 0)
    return r, p // r


def link(q, stride, concurrent):
    """(alpha, seconds per byte) of a broadcast or shift among q GPUs `stride` ranks apart
    (ranks numbered row by row, 4 to a node), `concurrent` such transfers leaving each node."""
    c = CLUSTER
    span = (q - 1) * stride + 1
    if span <= c["gpus_per_node"]:
        return c["alpha_nvlink"], 1.0 / c["nvlink_Bps"]
    return c["alpha_net"], min(concurrent, c["gpus_per_node"]) / c["net_Bps"]


def bcast_cluster(q, stride, concurrent, nbytes):
    """A pipelined broadcast (NCCL's ring or tree): log2 q steps of latency, the data once."""
    if q <= 1:
        return 0.0
    a, b = link(q, stride, concurrent)
    return a * math.ceil(math.log2(q)) + b * nbytes


def summa_cluster(n, p, rates):
    """(seconds, panel width) of overlapped SUMMA on p GPUs, the best panel width; None if the
    matrices do not fit."""
    pr, pc = squarest(p)
    m, nl = n / pr, n / pc
    best = None
    for b in PANELS:
        if b > n / max(pr, pc):  # (a panel is one block of the layout, as in this program)
            continue
        mem = 4.0 * (m * n / pc + n / pr * nl + m * nl) + 4.0 * 2 * b * (m + nl)
        if mem > CLUSTER["mem_bytes"]:
            continue
        comp = 2.0 * m * nl * b / rate_at(rates, m, nl, b)
        # A's piece along the row (consecutive ranks), B's down the column (PC apart; every
        # GPU of a node in a column of its own)
        comm = bcast_cluster(pc, 1, 1, 4 * m * b) + bcast_cluster(pr, pc, min(pc, 4), 4 * b * nl)
        t = comm + (n / b) * max(comp, comm)
        if best is None or t < best[0]:
            best = (t, b)
    return best


def cannon_layers(n, p, c, rates):
    """Seconds of 2.5D with c layers (c = 1: Cannon) on p = c q^2 GPUs; None if p/c is not a
    square or the c copies do not fit."""
    q = math.isqrt(p // c) if p % c == 0 else 0
    if q * q * c != p or q == 0:
        return None
    blk = n / q
    if 4.0 * 5 * blk * blk > CLUSTER["mem_bytes"]:  # A, B, C and the two blocks in flight
        return None
    steps = q // c if q % c == 0 else None
    if steps is None:
        return None
    nbytes = 4.0 * blk * blk
    comp = 2.0 * blk ** 3 / rate_at(rates, blk, blk, blk)
    # a shift: one block to the row neighbour (mostly in the node), one to the column neighbour
    # (q ranks away: another node once q >= 4, every GPU of the node sending at once)
    a_row, b_row = link(2, 1, 1)
    a_col, b_col = link(2, q, 4)
    shift = max(a_row + b_row * nbytes, a_col + b_col * nbytes)
    t = 2 * shift + steps * max(comp, shift)  # the initial skew, then the steps, overlapped
    if c > 1:  # A and B copied to the layers, C summed over them (layers q^2 ranks apart)
        t += 2 * bcast_cluster(c, q * q, 4, nbytes) + bcast_cluster(c, q * q, 4, nbytes)
    return t


def best_25d(n, p, rates):
    """(seconds, c) of 2.5D at its best replication c > 1 (c <= p^(1/3)); None if none fits."""
    best = None
    c = 2
    while c ** 3 <= p:
        t = cannon_layers(n, p, c, rates)
        if t is not None and (best is None or t < best[0]):
            best = (t, c)
        c *= 2
    return best


def projection(rates):
    """{(algorithm, n): [(p, seconds, efficiency, detail)]}."""
    top = max(r for _, r in rates)
    out = defaultdict(list)
    for n in SIZES:
        ideal = 2.0 * n ** 3 / top
        for e in range(13):
            p = 2 ** e
            s = summa_cluster(n, p, rates)
            if s:
                out[("SUMMA", n)].append((p, s[0], ideal / p / s[0], f"b={s[1]}"))
            t = cannon_layers(n, p, 1, rates)
            if t:
                out[("Cannon", n)].append((p, t, ideal / p / t, ""))
            d = best_25d(n, p, rates)
            if d:
                out[("2.5D", n)].append((p, d[0], ideal / p / d[0], f"c={d[1]}"))
    return out


# ---------------------------------------------------------------- output

def load_all(src):
    rows = read_rows(src, DISTRIBUTED, STAGE)
    folder = os.path.dirname(os.path.abspath(src))
    comm = comm_rows(folder)
    nccl = [r["us_median"] for r in comm if r["transport"] == "nccl" and r["bytes"] == 8]
    if nccl:
        CLUSTER["alpha_nvlink"] = statistics.median(nccl) * 1e-6
    return rows, comm, folder


def size_of(r):
    return f"{r['m']}" if r["m"] == r["n"] == r["k"] else f"{r['m']}x{r['n']}x{r['k']}"


def error(pred, ms):
    return 100.0 * (pred * 1e3 - ms) / ms


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
    checks = host_checks(rows, comm)
    if checks:
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
    g = gpu_checks(rows)
    if g:
        print("\nOne GPU: summa_nccl against its kernel alone on the whole product (the model's time "
              "for a 1x1 grid):\n")
        print("| variant | n | nb | measured ms | kernel alone ms | overhead |")
        print("|---|---|---|---|---|---|")
        for r, t in g:
            print(f"| {r['variant']} | {r['n']} | {r['nb']} | {r['ms_median']:.2f} | {t * 1e3:.2f} | "
                  f"{100.0 * (r['ms_median'] * 1e-3 / t - 1):+.1f}% |")
    gpu_tables(rows, comm)
    b = Bcast(comm)
    if not b.pingpong and not [q for q in b.fits if q > 1]:
        print("\nalpha and beta: no MPI timings on 2 ranks or more in the comm CSV (--bench-comm)")
    else:
        print("\nalpha and beta fitted to --bench-comm (MPI):\n")
        print("| what | ranks | alpha (us) | beta (GB/s) |")
        print("|---|---|---|---|")
        if b.pingpong:
            print(f"| ping-pong | 2 | {b.pingpong[0] * 1e6:.2f} | {1e-9 / b.pingpong[1] if b.pingpong[1] else float('inf'):.2f} |")
        for q, (a, be) in sorted(b.fits.items()):
            if q < 2:
                continue
            print(f"| broadcast | {q} | {a * 1e6:.2f} | {1e-9 / be if be else float('inf'):.2f} |")
    projection_table(folder)


def projection_table(folder, required=False):
    """The projection's table, from 09_cuda_registers.csv in folder (and the NCCL rows of
    13_distributed_comm.csv there, where there are some)."""
    comm = comm_rows(folder)
    nccl = [r["us_median"] for r in comm if r["transport"] == "nccl" and r["bytes"] == 8]
    if nccl:
        CLUSTER["alpha_nvlink"] = statistics.median(nccl) * 1e-6
    rates = kernel_rates(folder, required)  # (--projection needs it; --table goes without)
    if rates:
        proj = projection(rates)
        print(f"\nalpha within a node: {CLUSTER['alpha_nvlink'] * 1e6:.1f} us"
              f" ({'the measured NCCL call' if nccl else 'assumed'})")
        print(f"\nThe projection ({CLUSTER['what']}; efficiency against P x {max(r for _, r in rates) / 1e12:.1f} TFLOP/s):\n")
        print("| n | P | SUMMA ms (eff.) | Cannon ms (eff.) | 2.5D ms (eff., c) |")
        print("|---|---|---|---|---|")
        for n in SIZES:
            for p in (1, 4, 16, 64, 256, 1024, 4096):
                cell = []
                for alg in ("SUMMA", "Cannon", "2.5D"):
                    hit = [x for x in proj[(alg, n)] if x[0] == p]
                    cell.append(f"{hit[0][1] * 1e3:.1f} ({hit[0][2] * 100:.0f}%{', ' + hit[0][3] if hit[0][3] else ''})"
                                if hit else "-")
                print(f"| {n} | {p} | " + " | ".join(cell) + " |")


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
        proj = projection(rates)
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
        guard(PROG, projection_table, sys.argv[2], True)
    else:
        run(main, f"{PROG} RESULTS/13_distributed.csv OUT.png | --table RESULTS/13_distributed.csv | "
            "--projection RESULTS_DIR | --timeline RESULTS/13_distributed_timeline.csv OUT.png")

#!/usr/bin/env python3
"""13_distributed/cost_model.py: the cost model of a distributed GEMM (alpha-beta-gamma).

A message or broadcast of n bytes among q ranks takes alpha_q + beta_q * n; a local product takes
2*m*n*k*gamma. SUMMA on a PR x PC grid with panels of width b does K/b steps; in each, the rank
holding the most (rank (0, 0) of the block-cyclic layout) receives an m x b piece of A along its
row (q = PC) and a b x n piece of B along its column (q = PR), and multiplies them:

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
"""
import math
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plots"))
from reader import DISTRIBUTED_COMM, RESULT, optional  # noqa: E402

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


def size_of(r):
    return f"{r['m']}" if r["m"] == r["n"] == r["k"] else f"{r['m']}x{r['n']}x{r['k']}"


def error(pred, ms):
    return 100.0 * (pred * 1e3 - ms) / ms



def model_tables(rows, comm, folder):
    """The model's tables after --table's measured ones: the runs against the model, the
    GPUs', alpha and beta, the projection."""
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

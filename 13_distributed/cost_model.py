#!/usr/bin/env python3
"""13_distributed/cost_model.py: what SUMMA costs, from a message's latency and bandwidth and a
flop's time (the alpha-beta-gamma model of the chapter's "The model").
Why it is one file: the model, its fit to the runs and its three tables share one set of formulas
and constants; a reader follows one formula from the chapter to every table that uses it.

    python3 13_distributed/cost_model.py --words
        the words a rank receives against its flops, for the chapter's grids
    python3 13_distributed/cost_model.py results/h100/13_distributed.csv
        the model against the runs of a CSV: alpha and beta fitted to the 13_distributed_comm.csv
        beside it, one panel's cost, the errors by variant (more CSVs may follow; --comm FILE
        takes the message timings from elsewhere; each run's prediction beside its measurement:
        plots/13_distributed.py --table)
    python3 13_distributed/cost_model.py --projection results/h100 [--nvlink GB/s us]
        SUMMA, Cannon and 2.5D on a cluster of up to 4096 GPUs (09's kernel rates from the
        folder's 09_cuda_registers.csv); --nvlink puts a measured broadcast in place of the
        nominal one

A broadcast of w bytes among q ranks takes alpha_q + w * beta_q (beta here in seconds a byte; the
chapter writes it as a bandwidth); a local product m x n x k, 2 m n k gamma. SUMMA on a PR x PC
grid with panels of width b does K/b steps; in each, rank (0, 0), which holds the largest blocks
of the block-cyclic layout, receives an m x b piece of A along its process row (q = PC) and a
b x n piece of B down its column (q = PR), and multiplies them:

    summa          T = sum over panels of  bcast_PC(4 m b) + bcast_PR(4 b n) + 2 m n b gamma
    summa_overlap  T = comm(panel 0) + sum over panels of max(compute(k), comm(k+1))
    summa_nccl     two streams, two buffers a side (nccl_time)

alpha_q and beta_q are fitted to --bench-comm's broadcasts on q ranks (alpha: the 8-byte time;
beta: the slope between the two largest sizes), interpolated in log2 q between measured q.
gamma is the local product's time a flop: under the run's own load (local_only on the same grid)
or alone (one rank on its share; on the GPUs, the kernel alone on the whole product).

The sections follow the chapter: words against flops, alpha and beta, SUMMA on the CPUs and on
GPUs, the runs against the model, thousands of GPUs; then reading the CSVs (through
plots/reader.py, as every chart reads them; standard library only) and the tables. One file of
some 600 lines on purpose: the whole model, which tests/book-numbers.txt holds the chapter's
figures to.
"""
import math
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plots"))
from reader import DISTRIBUTED, DISTRIBUTED_COMM, RESULT, optional, read_rows  # noqa: E402

STAGE = "13_distributed"


def local_count(n, nb, iproc, nprocs):
    """How many of n indices, dealt in blocks of nb over nprocs, process iproc holds (distributed.h)."""
    nblocks, extra = divmod(n, nb)
    count = nblocks // nprocs * nb
    rest = nblocks % nprocs
    return count + (nb if iproc < rest else extra if iproc == rest else 0)


def grid_of(row):
    pr, pc = row["grid"].split("x")
    return int(pr), int(pc)


# ---------------------------------------------------------------- words against flops

def words(n, pr, pc, nb):
    """Rank (0, 0) of a PR x PC grid, in a product of size n: (bytes it receives over the run,
    its flops, flops per 4-byte word received, bytes of one panel's piece of A, of B). It receives
    its row band of A and its column band of B, less the blocks it holds itself."""
    m, l = local_count(n, nb, 0, pr), local_count(n, nb, 0, pc)
    received = 4.0 * (m * (n - l) + (n - m) * l)
    flops = 2.0 * m * l * n
    return received, flops, flops / (received / 4) if received else math.inf, 4.0 * m * nb, 4.0 * nb * l


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
    """Broadcast cost on q ranks from --bench-comm's rows of one transport (mpi, nccl): fitted
    where measured, interpolated in log2 q between measured q."""

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
            self.fits.setdefault(q, fit_line([(b, statistics.median(t)) for b, t in merged.items()]))
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


# ---------------------------------------------------------------- SUMMA on the CPUs

def one_panel(M, N, pr, pc, nb, gamma, bcast):
    """A full panel of width nb on rank (0, 0): (seconds of A's piece along the row, of B's down
    the column, of the product), or None where a broadcast has no fit."""
    m, n = local_count(M, nb, 0, pr), local_count(N, nb, 0, pc)
    a, b = bcast.time(pc, 4 * m * nb), bcast.time(pr, 4 * nb * n)
    return None if a is None or b is None else (a, b, 2.0 * m * n * nb * gamma)


def summa_time(M, N, K, pr, pc, nb, gamma, bcast, overlap):
    """Seconds of summa (overlap: summa_overlap) by the model, on rank (0, 0)."""
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


def gammas(rows):
    """The local product's seconds a flop: under load {(n, ranks, threads): gamma} from
    local_only on a full grid, alone {(m, n, k, threads): gamma} from local_only on 1x1."""
    load, alone = defaultdict(list), defaultdict(list)
    for r in rows:
        if r["variant"] != "local_only":
            continue
        # each rank multiplies its own blocks: seconds a flop of rank (0, 0)'s share
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


# ---------------------------------------------------------------- SUMMA on GPUs

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


def gpu_checks(rows):
    """[(row, predicted s)] for summa_nccl on one GPU: the panels' products at the rate of the
    kernel alone on the whole product (the same run), no communication on a 1x1 grid."""
    alone = {}
    for r in rows:
        if r["variant"] in GPU_SUMMA.values():
            alone.setdefault((r["variant"], r["m"], r["n"], r["k"]), []).append(r["ms_median"])
    out = []
    for r in rows:
        base = GPU_SUMMA.get(r["variant"].replace("+pack", ""))
        if base and r["grid"] == "1x1" and (base, r["m"], r["n"], r["k"]) in alone:
            out.append((r, statistics.median(alone[(base, r["m"], r["n"], r["k"])]) * 1e-3))
    return out


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


# ---------------------------------------------------------------- the runs against the model

def error(pred, ms):
    """The model's error in per cent: (model - measured) / measured."""
    return 100.0 * (pred * 1e3 - ms) / ms


def errors(rows, comm):
    """{(variant, gamma): [error %]} over every prediction: gamma is "under load" or "alone" for
    the CPUs' runs, "alone" (the kernel alone) or "grid" (local_only_gpu) for the GPUs'."""
    out = defaultdict(list)
    for r, t_load, t_alone in host_checks(rows, comm):
        for gamma, t in (("under load", t_load), ("alone", t_alone)):
            if t:
                out[(r["variant"], gamma)].append(error(t, r["ms_median"]))
    for r, _, t_alone, t_grid in gpu_grid_runs(rows, comm):
        for gamma, t in (("alone", t_alone), ("grid", t_grid)):
            if t:
                out[(r["variant"], gamma)].append(error(t, r["ms_median"]))
    return dict(out)


def panels(rows, comm):
    """{(variant, n, grid, threads, nb): one_panel's three seconds} for each kind of run the model
    checks: a square summa or summa_nccl on several ranks, gamma under load on the CPUs, of the
    kernel alone on the GPUs."""
    out = {}
    load, _ = gammas(rows)
    cpu, gpu = Bcast(comm), Bcast(comm, "nccl")
    ms = defaultdict(list)  # the kernel alone on the whole product, the median where repeated
    for r in rows:
        if r["variant"] == "warptile_alone" and r["m"] == r["n"] == r["k"]:
            ms[r["n"]].append(r["ms_median"])
    alone = {n: statistics.median(t) * 1e-3 / (2.0 * n ** 3) for n, t in ms.items()}
    for r in rows:
        on_gpu = r["variant"] == "summa_nccl"
        gamma = alone.get(r["n"]) if on_gpu else load.get((r["n"], r["ranks"], r["threads"]))
        if r["variant"] in ("summa", "summa_nccl") and r["m"] == r["n"] == r["k"] and r["ranks"] > 1 and gamma:
            pr, pc = grid_of(r)
            cost = one_panel(r["m"], r["n"], pr, pc, r["nb"], gamma, gpu if on_gpu else cpu)
            if cost:
                out.setdefault((r["variant"], r["n"], r["grid"], r["threads"], r["nb"]), cost)
    return out


# ---------------------------------------------------------------- thousands of GPUs

# The stated cluster of the projection. Bandwidths are nominal (the NVLink figure is what NCCL's
# broadcast reaches of NVLink 4's 450 GB/s a direction); --nvlink puts measured ones in.
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


def cluster_for(comm_rows):
    """CLUSTER with the latency of a step within a node measured where the comm CSV has NCCL's
    8-byte call (to itself, on one GPU)."""
    nccl = [r["us_median"] for r in comm_rows if r["transport"] == "nccl" and r["bytes"] == 8]
    return dict(CLUSTER, alpha_nvlink=statistics.median(nccl) * 1e-6) if nccl else dict(CLUSTER)


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


def link(c, q, stride, concurrent):
    """(alpha, seconds per byte) on cluster c of a broadcast or shift among q GPUs `stride` ranks
    apart (ranks numbered row by row, 4 to a node), `concurrent` such transfers leaving each node."""
    if (q - 1) * stride + 1 <= c["gpus_per_node"]:
        return c["alpha_nvlink"], 1.0 / c["nvlink_Bps"]
    return c["alpha_net"], min(concurrent, c["gpus_per_node"]) / c["net_Bps"]


def bcast_cluster(c, q, stride, concurrent, nbytes):
    """A pipelined broadcast (NCCL's ring or tree): log2 q steps of latency, the data once."""
    if q <= 1:
        return 0.0
    a, b = link(c, q, stride, concurrent)
    return a * math.ceil(math.log2(q)) + b * nbytes


def summa_cluster(c, n, p, rates):
    """(seconds, panel width) of overlapped SUMMA on p GPUs, the best panel width; None if the
    matrices do not fit."""
    pr, pc = squarest(p)
    m, nl = n / pr, n / pc
    best = None
    for b in PANELS:
        if b > n / max(pr, pc):  # (a panel is one block of the layout, as in this program)
            continue
        if 4.0 * (m * n / pc + n / pr * nl + m * nl) + 4.0 * 2 * b * (m + nl) > c["mem_bytes"]:
            continue
        comp = 2.0 * m * nl * b / rate_at(rates, m, nl, b)
        # A's piece along the row (consecutive ranks), B's down the column (PC apart; every
        # GPU of a node in a column of its own)
        comm = bcast_cluster(c, pc, 1, 1, 4 * m * b) + bcast_cluster(c, pr, pc, min(pc, 4), 4 * b * nl)
        t = comm + (n / b) * max(comp, comm)
        if best is None or t < best[0]:
            best = (t, b)
    return best


def cannon_layers(c, n, p, layers, rates):
    """Seconds of 2.5D with `layers` copies (1: Cannon) on p = layers q^2 GPUs; None if p/layers
    is not a square or the copies do not fit."""
    q = math.isqrt(p // layers) if p % layers == 0 else 0
    if q * q * layers != p or q == 0 or q % layers:
        return None
    blk = n / q
    if 4.0 * 5 * blk * blk > c["mem_bytes"]:  # A, B, C and the two blocks in flight
        return None
    nbytes = 4.0 * blk * blk
    comp = 2.0 * blk ** 3 / rate_at(rates, blk, blk, blk)
    # a shift: one block to the row neighbour (mostly in the node), one to the column neighbour
    # (q ranks away: another node once q >= 4, every GPU of the node sending at once)
    a_row, b_row = link(c, 2, 1, 1)
    a_col, b_col = link(c, 2, q, 4)
    shift = max(a_row + b_row * nbytes, a_col + b_col * nbytes)
    t = 2 * shift + q // layers * max(comp, shift)  # the initial skew, then the steps, overlapped
    if layers > 1:  # A and B copied to the layers, C summed over them (layers q^2 ranks apart)
        t += 2 * bcast_cluster(c, layers, q * q, 4, nbytes) + bcast_cluster(c, layers, q * q, 4, nbytes)
    return t


def best_25d(c, n, p, rates):
    """(seconds, copies) of 2.5D at its best replication > 1 (at most p^(1/3)); None if none fits."""
    best = None
    layers = 2
    while layers ** 3 <= p:
        t = cannon_layers(c, n, p, layers, rates)
        if t is not None and (best is None or t < best[0]):
            best = (t, layers)
        layers *= 2
    return best


def projection(rates, c=CLUSTER):
    """{(algorithm, n): [(p, seconds, efficiency, b or c or None)]} on cluster c, P = 1 .. 4096.
    Efficiency: 2 n^3 / (P x the kernel's best rate) / T."""
    top = max(r for _, r in rates)
    out = defaultdict(list)
    for n in SIZES:
        ideal = 2.0 * n ** 3 / top
        for p in (2 ** e for e in range(13)):
            s = summa_cluster(c, n, p, rates)
            if s:
                out[("SUMMA", n)].append((p, s[0], ideal / p / s[0], s[1]))
            t = cannon_layers(c, n, p, 1, rates)
            if t:
                out[("Cannon", n)].append((p, t, ideal / p / t, None))
            d = best_25d(c, n, p, rates)
            if d:
                out[("2.5D", n)].append((p, d[0], ideal / p / d[0], d[1]))
    return out


# ---------------------------------------------------------------- reading the results

def comm_rows(folder):
    """--bench-comm's rows, from 13_distributed_comm.csv in folder where there is one."""
    return optional(os.path.join(folder, "13_distributed_comm.csv"), DISTRIBUTED_COMM, STAGE)


def read(*paths, comm=None):
    """(the rows of every CSV named, the comm rows of `comm` or of the folder of the first)."""
    rows = [r for p in paths for r in read_rows(p, DISTRIBUTED, STAGE)]
    if comm:
        return rows, optional(comm, DISTRIBUTED_COMM, STAGE, True, "named by --comm")
    return rows, comm_rows(os.path.dirname(os.path.abspath(paths[0])))


def kernel_rates(folder, required=False):
    """[(size, FLOP/s)] of 09's warptile on square sizes, from 09_cuda_registers.csv beside the
    results (the median where repeated); None where there is none."""
    by = defaultdict(list)
    for r in optional(os.path.join(folder, "09_cuda_registers.csv"), RESULT, "09_cuda_registers",
                      required, "the kernel's rates by size, for the projection"):
        if r["variant"] == "warptile" and r["check"] == "PASS" and r["m"] == r["n"] == r["k"]:
            by[r["m"]].append(r["gflops"] * 1e9)
    return sorted((s, statistics.median(v)) for s, v in by.items()) or None


def fits(*paths, transport="mpi", comm=None):
    """{q: (alpha us, beta GB/s)} fitted to the comm rows read(*paths, comm) finds."""
    b = Bcast(read(*paths, comm=comm)[1], transport)
    return {q: (a * 1e6, 1e-9 / be if be else math.inf) for q, (a, be) in b.fits.items() if q > 1}


def projected(folder, **changes):
    """{(algorithm, n, P): (seconds, efficiency, b or c)}: the projection from folder's kernel
    rates, on CLUSTER with the measured latency within a node and `changes` to it."""
    c = dict(cluster_for(comm_rows(folder)), **changes)
    return {(alg, n, p): (t, eff, x) for (alg, n), pts in projection(kernel_rates(folder, True), c).items()
            for p, t, eff, x in pts}


# ---------------------------------------------------------------- tables

def mib(nbytes):
    return f"{nbytes / 2 ** 20:.1f}".rstrip("0").rstrip(".") + " MiB"


def print_words(sizes=(8192, 16384), grids=((4, 4), (2, 8), (1, 16)), nb=256):
    print(f"Words against flops (rank (0, 0), nb {nb}; a word is 4 bytes):\n")
    print("| n | grid | received per rank | flops per rank | flops per word | one panel's pieces (A, B) |")
    print("|---|---|---|---|---|---|")
    for n in sizes:
        for pr, pc in grids:
            got, flops, per_word, a, b = words(n, pr, pc, nb)
            print(f"| {n} | {pr} x {pc} | {mib(got)} | {flops / 1e9:.0f} G | {per_word:.0f} | "
                  f"{mib(a)}, {mib(b)} |")


def print_fits(comm):
    """alpha and beta of MPI's broadcasts and ping-pong, then NCCL's, as fitted."""
    for transport in ("mpi", "nccl"):
        b = Bcast(comm, transport)
        if not [q for q in b.fits if q > 1]:
            continue
        print(f"\nalpha and beta fitted to --bench-comm ({transport.upper()}; alpha: 8 B, beta: the "
              "slope between the two largest sizes):\n")
        print("| what | ranks | alpha (us) | beta (GB/s) |")
        print("|---|---|---|---|")
        if b.pingpong:
            print(f"| ping-pong | 2 | {b.pingpong[0] * 1e6:.2f} | "
                  f"{1e-9 / b.pingpong[1] if b.pingpong[1] else float('inf'):.2f} |")
        for q, (a, be) in sorted(b.fits.items()):
            if q > 1:
                print(f"| broadcast | {q} | {a * 1e6:.2f} | {1e-9 / be if be else float('inf'):.2f} |")


def print_panels(rows, comm):
    got = panels(rows, comm)
    if not got:
        return
    print("\nOne panel by the model, on rank (0, 0) (gamma under load on the CPUs, of the kernel "
          "alone on the GPUs; a broadcast hides behind the product it is shorter than):\n")
    print("| variant | n | grid | threads | nb | A's piece ms | B's piece ms | product ms | panels |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (v, n, grid, t, nb), (a, b, prod) in sorted(got.items()):
        print(f"| {v} | {n} | {grid} | {t} | {nb} | {a * 1e3:.2f} | {b * 1e3:.2f} | "
              f"{prod * 1e3:.1f} | {-(-n // nb)} |")


def print_errors(rows, comm):
    errs = errors(rows, comm)
    if not errs:
        return
    print("\nThe model's errors ((model - measured) / measured), by variant and by where gamma "
          "comes from:\n")
    print("| variant | gamma | predictions | within 10% | within 15% | from | to |")
    print("|---|---|---|---|---|---|---|")
    for (v, gamma), e in sorted(errs.items()):
        print(f"| {v} | {gamma} | {len(e)} | {sum(abs(x) <= 10 for x in e)} | "
              f"{sum(abs(x) <= 15 for x in e)} | {min(e):+.1f}% | {max(e):+.1f}% |")


def print_projection(folder, required=False, nvlink=None):
    """The projection's table, from 09_cuda_registers.csv in folder (and the NCCL rows of
    13_distributed_comm.csv there, where there are some); nvlink: (bytes/s, alpha s) measured."""
    comm = comm_rows(folder)
    c = cluster_for(comm)
    rates = kernel_rates(folder, required)  # (--projection needs it; --table goes without)
    if not rates:
        return
    measured = any(r["transport"] == "nccl" and r["bytes"] == 8 for r in comm)
    print(f"\nalpha within a node: {c['alpha_nvlink'] * 1e6:.1f} us"
          f" ({'the measured NCCL call' if measured else 'assumed'})")
    if nvlink:
        c.update(nvlink_Bps=nvlink[0], alpha_nvlink=nvlink[1])
        print(f"NVLink as measured (--nvlink): {nvlink[0] / 1e9:.0f} GB/s, {nvlink[1] * 1e6:.1f} us")
    proj = projection(rates, c)
    print(f"\nThe projection ({c['what']}; efficiency against P x {max(r for _, r in rates) / 1e12:.1f} TFLOP/s):\n")
    print("| n | P | SUMMA ms (eff.) | Cannon ms (eff.) | 2.5D ms (eff., c) |")
    print("|---|---|---|---|---|")
    name = {"SUMMA": "b", "2.5D": "c"}
    for n in SIZES:
        for p in (1, 4, 16, 64, 256, 1024, 4096):
            cell = []
            for alg in ("SUMMA", "Cannon", "2.5D"):
                hit = [x for x in proj[(alg, n)] if x[0] == p]
                cell.append(f"{hit[0][1] * 1e3:.1f} ({hit[0][2] * 100:.0f}%"
                            f"{f', {name[alg]}={hit[0][3]}' if hit[0][3] else ''})" if hit else "-")
            print(f"| {n} | {p} | " + " | ".join(cell) + " |")


USAGE = """usage: 13_distributed/cost_model.py --words
       13_distributed/cost_model.py RESULTS/13_distributed.csv [MORE.csv ...] [--comm COMM.csv]
       13_distributed/cost_model.py --projection RESULTS_DIR [--nvlink GB/s us]"""


def main(argv):
    comm = None
    if "--comm" in argv[:-1]:  # --comm FILE, anywhere after the CSVs or before them
        i = argv.index("--comm")
        comm, argv = argv[i + 1], argv[:i] + argv[i + 2:]
    if argv == ["--words"] and not comm:
        print_words()
    elif argv[:1] == ["--projection"] and len(argv) in (2, 5) and argv[2:3] in ([], ["--nvlink"]) and not comm:
        nvlink = (float(argv[3]) * 1e9, float(argv[4]) * 1e-6) if len(argv) == 5 else None
        print_projection(argv[1], True, nvlink)
    elif argv and not any(a.startswith("--") for a in argv):
        rows, comm = read(*argv, comm=comm)
        print_fits(comm)
        print_panels(rows, comm)
        print_errors(rows, comm)
    else:
        print(USAGE, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    from stage_cli import guard
    guard("13_distributed/cost_model.py", main, sys.argv[1:])

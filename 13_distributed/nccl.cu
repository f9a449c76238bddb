/* nccl.cu: summa_nccl, SUMMA with one rank per GPU. The matrices are made on the GPUs and stay
 * there; the panels go from GPU to GPU by NCCL, whose broadcasts run as kernels on a stream of
 * their own, so that panel k+1 travels while panel k is multiplied on the compute stream:
 *
 *   comm stream:     [pack+bcast 0] [pack+bcast 1]     [pack+bcast 2] ...
 *                          |  ready[0]    |  ready[1]  ^    |
 *   compute stream:        [gemm panel 0] [gemm panel 1]  [gemm panel 2] ...
 *                                      used[0] --------'
 *
 * Two buffers per operand: panel k+2 may be written into buffer k%2 only once the product of
 * panel k has read it (the event used[k%2]), and panel k is multiplied only once it has
 * arrived (ready[k%2]). The broadcasts' stream has the highest priority, so that their kernels
 * get an SM as soon as one frees up beside the GEMM's wide grid.
 *
 * The local product is stage 09's any-size kernel (gemm_warptile_any_size, linked as 10 links it), or
 * cuBLAS (FP32, no TF32) for summa_nccl_cublas. A panel that no other rank needs (a 1-wide
 * grid dimension) is read in place instead of being packed, unless --pack asks (on one GPU,
 * that runs the packing and NCCL path that several GPUs take, for tests and its cost).
 */
#include <cublas_v2.h>
#include <mpi.h>
#include <nccl.h>
#include <string.h>

#include "../09_cuda_registers/cuda_registers.h"
#include "harness/check.h"
#include "cuda_harness.cuh"
#include "harness/gpu.h"

#define NCCL_CHECK(call)                                                                     \
    do {                                                                                     \
        ncclResult_t r_ = (call);                                                            \
        if (r_ != ncclSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                   \
                    ncclGetErrorString(r_));                                                 \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                    \
        }                                                                                    \
    } while (0)

static struct {
    cudaDeviceProp prop;
    cudaStream_t compute, comm;
    cudaEvent_t ready[2], used[2];
    cublasHandle_t blas;
    ncclComm_t all, row, col;
    float *dA, *dB, *dC;
    float *apanel[2], *bpanel[2];
    char *bench_buf;
    size_t bench_cap;
    int always_pack; /* pack and broadcast every panel, even where no other rank needs it */
    /* --timeline: one run traced, five timing events a panel (the broadcasts' start, A's
     * piece sent, B's piece sent; the product's start and end) against t0 */
    int tracing, npanels, cap, traced_no_comm;
    cudaEvent_t t0, *ev;
} gs;

extern "C" const char *gpu_missing(void) { return NULL; }

extern "C" int gpu_devices(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        n = 0;
    }
    return n;
}

static void destroy_comms(void)
{
    ncclCommDestroy(gs.row);
    ncclCommDestroy(gs.col);
    ncclCommDestroy(gs.all);
}

extern "C" int gpu_init(const dist_grid *g, int device_offset, int always_pack, const char **why)
{
    static char msg[200];
    gs.always_pack = always_pack;
    MPI_Comm node;
    int local, on_node, rc = 0, worst;
    MPI_Comm_split_type(g->all, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
    const int ndev = gpu_devices();
    if (ndev == 0) {
        *why = "no CUDA device";
        rc = 77;
    } else if (device_offset + on_node > ndev) {
        snprintf(msg, sizeof msg, "summa_nccl takes one GPU per rank: %d ranks on this node from "
                 "--device %d, but it has %d GPU%s", on_node, device_offset, ndev,
                 ndev == 1 ? "" : "s");
        *why = msg;
        rc = 2;
    }
    /* all ranks go on to NCCL's collective set-up, or none does */
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, g->all);
    if (worst != 0)
        return rc;
    /* the harness's CUDA setup (device, its properties, the stream 09's kernel launches on) */
    bench_opts o;
    memset(&o, 0, sizeof o);
    o.device = device_offset + local;
    if (cuda_backend.init(&o) != 0) /* (it found the devices counted above) */
        MPI_Abort(MPI_COMM_WORLD, 1);
    CUDA_CHECK(cudaGetDeviceProperties(&gs.prop, o.device));
    gs.compute = gemm_stream();
    int lowest, highest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&gs.comm, cudaStreamNonBlocking, highest));
    for (int b = 0; b < 2; b++) {
        CUDA_CHECK(cudaEventCreateWithFlags(&gs.ready[b], cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreateWithFlags(&gs.used[b], cudaEventDisableTiming));
    }
    CUBLAS_CHECK(cublasCreate(&gs.blas));
    CUBLAS_CHECK(cublasSetStream(gs.blas, gs.compute));
    CUBLAS_CHECK(cublasSetMathMode(gs.blas, CUBLAS_PEDANTIC_MATH)); /* FP32, as ours: no TF32 */

    /* NVLink multicast stays off (on shared machines it can take the GPUs down); a caller
     * that sets the variable keeps its value. */
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    int me, nranks;
    MPI_Comm_rank(g->all, &me);
    MPI_Comm_size(g->all, &nranks);
    ncclUniqueId id;
    if (me == 0)
        NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, g->all);
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    if (gpu_bcast_ctas > 0) /* fewer SMs for a broadcast: slower, but fewer taken from products */
        config.minCTAs = 1, config.maxCTAs = gpu_bcast_ctas;
    NCCL_CHECK(ncclCommInitRankConfig(&gs.all, nranks, id, me, &config));
    /* the row and column communicators: same colour, same row (or column), same config */
    NCCL_CHECK(ncclCommSplit(gs.all, g->myrow, g->mycol, &gs.row, &config));
    NCCL_CHECK(ncclCommSplit(gs.all, g->mycol, g->myrow, &gs.col, &config));
    atexit(destroy_comms); /* (before MPI_Finalize, which main registered first) */
    return 0;
}

extern "C" const char *gpu_device_name(void) { return gs.prop.name; }
extern "C" const char *gpu_compiler(void) { return cuda_compiler(); }

extern "C" const char *gpu_library_names(void)
{
    static char s[128];
    int rt = 0, nccl = 0, blas = 0;
    cudaRuntimeGetVersion(&rt);
    ncclGetVersion(&nccl);
    cublasGetVersion(gs.blas, &blas);
    snprintf(s, sizeof s, "CUDA runtime %d.%d, NCCL %d.%d.%d, cuBLAS %d.%d.%d", rt / 1000,
             rt % 1000 / 10, nccl / 10000, nccl / 100 % 100, nccl % 100, blas / 10000,
             blas / 100 % 100, blas % 100);
    return s;
}

/* ------------------------------------------------------------ the blocks, made on the GPU */

/* This rank's block of a global rows x cols matrix (row stride ld): random_entry at each
 * element's global place, or NaN (nan_fill: alpha == 0, A and B must not be read); the padding
 * columns PAD_VALUE. */
__global__ void fill_block(float *X, int m, int n, int ld, long cols, int nb, int prow,
                           int nprow, int pcol, int npcol, uint64_t seed, int nan_fill)
{
    const size_t total = (size_t)m * ld;
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < total;
         e += (size_t)gridDim.x * blockDim.x) {
        const int i = (int)(e / ld), j = (int)(e % ld);
        float v = PAD_VALUE;
        if (j < n)
            v = nan_fill ? __int_as_float(0x7fc00000)
                         : random_entry(seed, global_of(i, nb, prow, nprow),
                                        global_of(j, nb, pcol, npcol), cols);
        X[e] = v;
    }
}

__global__ void scale_block(float *C, int m, int n, int ldc, float beta)
{
    const size_t total = (size_t)m * n;
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < total;
         e += (size_t)gridDim.x * blockDim.x) {
        float *c = &C[(e / n) * ldc + e % n];
        *c = beta == 0.0f ? 0.0f : beta * *c;
    }
}

/* (A, B and C alike: rows dealt over the process rows, columns over the process columns) */
static void launch_fill(float *X, int m, int n, int ld, long cols, const dist_grid *g,
                        uint64_t seed, int nan_fill)
{
    if (m == 0)
        return;
    fill_block<<<4 * gemm_sm_count(), 256, 0, gs.compute>>>(X, m, n, ld, cols, g->nb, g->myrow,
                                                            g->nprow, g->mycol, g->npcol, seed,
                                                            nan_fill);
    CUDA_CHECK_LAUNCH();
}

static void device_alloc(float **p, size_t floats)
{
    if (*p)
        CUDA_CHECK(cudaFree(*p));
    CUDA_CHECK(cudaMalloc((void **)p, (floats ? floats : 1) * sizeof(float)));
}

static size_t rows_of(int m) { return (size_t)(m > 0 ? m : 1); }

extern "C" void gpu_setup(const dist_grid *g, const dist_problem *p)
{
    const int nan_ab = p->alpha == 0.0f;
    device_alloc(&gs.dA, rows_of(p->m) * p->lda);
    device_alloc(&gs.dB, rows_of(p->kb) * p->ldb);
    device_alloc(&gs.dC, rows_of(p->m) * p->ldc);
    /* random panels, made once: local_only_gpu multiplies them as they are (on zeros a GPU
     * draws less power and keeps a higher clock, so zeros would flatter the compute alone) */
    dist_grid one = *g; /* (a panel is one block: dealt over a 1 x 1 grid) */
    one.nprow = one.npcol = 1, one.myrow = one.mycol = 0;
    for (int b = 0; b < 2; b++) {
        device_alloc(&gs.apanel[b], (size_t)p->m * g->nb);
        device_alloc(&gs.bpanel[b], (size_t)g->nb * p->n);
        launch_fill(gs.apanel[b], p->m, g->nb, g->nb, g->nb, &one, p->seed + 3 + b, 0);
        launch_fill(gs.bpanel[b], g->nb, p->n, p->n, p->n, &one, p->seed + 5 + b, 0);
    }
    launch_fill(gs.dA, p->m, p->ka, p->lda, p->K, g, p->seed, nan_ab);
    launch_fill(gs.dB, p->kb, p->n, p->ldb, p->N, g, p->seed + 1, nan_ab);
    /* the host's copies: what the check gathers is what the GPUs hold */
    CUDA_CHECK(cudaMemcpyAsync(p->A, gs.dA, rows_of(p->m) * p->lda * sizeof(float),
                               cudaMemcpyDeviceToHost, gs.compute));
    CUDA_CHECK(cudaMemcpyAsync(p->B, gs.dB, rows_of(p->kb) * p->ldb * sizeof(float),
                               cudaMemcpyDeviceToHost, gs.compute));
    if (p->C0) { /* C0 made in C's place, copied out: checked runs put it back */
        launch_fill(gs.dC, p->m, p->n, p->ldc, p->N, g, p->seed + 2, 0);
        CUDA_CHECK(cudaMemcpyAsync(p->C0, gs.dC, rows_of(p->m) * p->ldc * sizeof(float),
                                   cudaMemcpyDeviceToHost, gs.compute));
    }
    CUDA_CHECK(cudaStreamSynchronize(gs.compute));
}

/* (On the compute stream, then waited for: a plain cudaMemcpy orders itself only with the
 * legacy default stream, not with our non-blocking ones.) */
extern "C" void gpu_put_c(const dist_problem *p)
{
    CUDA_CHECK(cudaMemcpyAsync(gs.dC, p->C, rows_of(p->m) * p->ldc * sizeof(float),
                               cudaMemcpyHostToDevice, gs.compute));
    CUDA_CHECK(cudaStreamSynchronize(gs.compute));
}

extern "C" void gpu_get_c(const dist_problem *p)
{
    CUDA_CHECK(cudaMemcpyAsync(p->C, gs.dC, rows_of(p->m) * p->ldc * sizeof(float),
                               cudaMemcpyDeviceToHost, gs.compute));
    CUDA_CHECK(cudaStreamSynchronize(gs.compute));
}

extern "C" void gpu_teardown(void)
{
    float **bufs[] = {&gs.dA, &gs.dB, &gs.dC, &gs.apanel[0], &gs.apanel[1], &gs.bpanel[0],
                      &gs.bpanel[1]};
    for (float **b : bufs) {
        if (*b)
            CUDA_CHECK(cudaFree(*b));
        *b = NULL;
    }
}

/* ------------------------------------------------------------ the products */

/* C = alpha*A*B + beta*C on this GPU's stream: 09's kernel or cuBLAS (row-major C = A B is
 * column-major C^T = B^T A^T: cuBLAS gets B first). */
static void local_gemm(int use_cublas, int m, int n, int k, float alpha, const float *A, int lda,
                       const float *B, int ldb, float beta, float *C, int ldc)
{
    if (m == 0 || n == 0)
        return;
    if (use_cublas)
        CUBLAS_CHECK(cublasSgemm(gs.blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, B, ldb, A,
                                 lda, &beta, C, ldc));
    else
        gemm_warptile_any_size(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* The edge cases of the contract: K = 0 or alpha = 0 is C = beta*C, A and B not read. */
static int edge_case(const dist_problem *p)
{
    if (p->M <= 0 || p->N <= 0)
        return 1;
    if (p->K > 0 && p->alpha != 0.0f)
        return 0;
    if (p->m > 0 && p->n > 0) {
        scale_block<<<4 * gemm_sm_count(), 256, 0, gs.compute>>>(gs.dC, p->m, p->n, p->ldc, p->beta);
        CUDA_CHECK_LAUNCH();
    }
    return 1;
}

/* Panel i of the loop: where it starts in K and how wide it is. A panel lies inside one block
 * of the layout (one owner); the first block is cut into gpu_first_split pieces, so that the
 * first broadcast, which nothing hides, is a fraction of a block. */
static int panel_width(int k0, int K, int nb)
{
    const int piece = k0 < nb && gpu_first_split > 1 ? (nb + gpu_first_split - 1) / gpu_first_split
                                                     : nb;
    const int block_end = (k0 / nb + 1) * nb;
    int w = block_end - k0 < piece ? block_end - k0 : piece;
    return K - k0 < w ? K - k0 : w;
}

static cudaEvent_t trace_event(int panel, int which)
{
    const int need = 5 * (panel + 1);
    if (need > gs.cap) {
        const int cap = need > 2 * gs.cap ? need : 2 * gs.cap;
        gs.ev = (cudaEvent_t *)realloc(gs.ev, sizeof(cudaEvent_t) * cap);
        if (!gs.ev)
            MPI_Abort(MPI_COMM_WORLD, 1);
        for (int e = gs.cap; e < cap; e++)
            CUDA_CHECK(cudaEventCreate(&gs.ev[e]));
        gs.cap = cap;
    }
    if (panel + 1 > gs.npanels)
        gs.npanels = panel + 1;
    return gs.ev[5 * panel + which];
}

static void mark(int panel, int which, cudaStream_t s)
{
    if (gs.tracing)
        CUDA_CHECK(cudaEventRecord(trace_event(panel, which), s));
}

/* no_comm: local_only_gpu, the same products on random panels with no broadcast (the compute of
 * summa_nccl alone, under the same panel widths; its result is not the product) */
static void summa_nccl(const dist_grid *g, const dist_problem *p, int use_cublas, int no_comm)
{
    const int m = p->m, n = p->n, nb = g->nb;
    if (gs.tracing)
        CUDA_CHECK(cudaEventRecord(gs.t0, gs.comm));
    gs.traced_no_comm = no_comm;
    int i = 0;
    for (int k0 = 0, w; k0 < p->K; k0 += w, i++) {
        w = panel_width(k0, p->K, nb);
        const int b = i % 2;
        const int a_root = owner_of(k0, nb, g->npcol), b_root = owner_of(k0, nb, g->nprow);
        const int a_col = local_of(k0, nb, g->npcol), b_row = local_of(k0, nb, g->nprow);
        if (i >= 2) /* buffer b held panel i-2: its product must be done with it */
            CUDA_CHECK(cudaStreamWaitEvent(gs.comm, gs.used[b], 0));
        mark(i, 0, gs.comm);
        /* A's piece along the process row, packed by its owner (read in place if alone) */
        const float *a = gs.dA + a_col;
        int lda = p->lda;
        if (no_comm)
            a = gs.apanel[b], lda = w;
        else if (g->npcol > 1 || gs.always_pack) {
            if (g->mycol == a_root && m > 0)
                CUDA_CHECK(cudaMemcpy2DAsync(gs.apanel[b], w * sizeof(float), a,
                                             lda * sizeof(float), w * sizeof(float), m,
                                             cudaMemcpyDeviceToDevice, gs.comm));
            NCCL_CHECK(ncclBroadcast(gs.apanel[b], gs.apanel[b], (size_t)m * w, ncclFloat, a_root,
                                     gs.row, gs.comm));
            a = gs.apanel[b], lda = w;
        }
        mark(i, 1, gs.comm);
        /* B's piece down the process column */
        const float *bp = gs.dB + (size_t)b_row * p->ldb;
        int ldb = p->ldb;
        if (no_comm)
            bp = gs.bpanel[b], ldb = n;
        else if (g->nprow > 1 || gs.always_pack) {
            if (g->myrow == b_root && n > 0)
                CUDA_CHECK(cudaMemcpy2DAsync(gs.bpanel[b], n * sizeof(float), bp,
                                             ldb * sizeof(float), n * sizeof(float), w,
                                             cudaMemcpyDeviceToDevice, gs.comm));
            NCCL_CHECK(ncclBroadcast(gs.bpanel[b], gs.bpanel[b], (size_t)w * n, ncclFloat, b_root,
                                     gs.col, gs.comm));
            bp = gs.bpanel[b], ldb = n;
        }
        mark(i, 2, gs.comm);
        CUDA_CHECK(cudaEventRecord(gs.ready[b], gs.comm));
        /* the product of panel i, once it is here */
        CUDA_CHECK(cudaStreamWaitEvent(gs.compute, gs.ready[b], 0));
        mark(i, 3, gs.compute);
        local_gemm(use_cublas, m, n, w, p->alpha, a, lda, bp, ldb, i == 0 ? p->beta : 1.0f,
                   gs.dC, p->ldc);
        mark(i, 4, gs.compute);
        CUDA_CHECK(cudaEventRecord(gs.used[b], gs.compute));
    }
}

extern "C" void gpu_run(const dist_grid *g, const dist_problem *p, enum gpu_kernel which)
{
    if (!edge_case(p)) {
        if (which == GPU_SUMMA_WARPTILE || which == GPU_SUMMA_CUBLAS || which == GPU_LOCAL_ONLY)
            summa_nccl(g, p, which == GPU_SUMMA_CUBLAS, which == GPU_LOCAL_ONLY);
        else /* one call on the whole product: a 1 x 1 grid holds all of it */
            local_gemm(which == GPU_ALONE_CUBLAS, p->m, p->n, p->K, p->alpha, gs.dA, p->lda,
                       gs.dB, p->ldb, p->beta, gs.dC, p->ldc);
    }
    CUDA_CHECK(cudaStreamSynchronize(gs.compute));
    CUDA_CHECK(cudaStreamSynchronize(gs.comm));
}

/* ------------------------------------------------------------ --timeline */

extern "C" void gpu_trace_next(void)
{
    if (!gs.t0)
        CUDA_CHECK(cudaEventCreate(&gs.t0));
    gs.tracing = 1;
    gs.npanels = 0;
}

extern "C" int gpu_trace_spans(const dist_grid *g, const dist_problem *p, double **spans)
{
    static double *out;
    gs.tracing = 0;
    out = (double *)realloc(out, sizeof(double) * 5 * 3 * (gs.npanels > 0 ? gs.npanels : 1));
    if (!out)
        MPI_Abort(MPI_COMM_WORLD, 1);
    const int send_a = !gs.traced_no_comm && (g->npcol > 1 || gs.always_pack);
    const int send_b = !gs.traced_no_comm && (g->nprow > 1 || gs.always_pack);
    int n = 0;
    for (int i = 0, k0 = 0, w; i < gs.npanels; i++, k0 += w) {
        w = panel_width(k0, p->K, g->nb);
        static const int from[3] = {0, 1, 3}, to[3] = {1, 2, 4}; /* A's piece, B's, the product */
        const double bytes[3] = {send_a ? 4.0 * p->m * w : 0, send_b ? 4.0 * w * p->n : 0, 0};
        for (int kind = 0; kind < 3; kind++) {
            float a, b;
            CUDA_CHECK(cudaEventElapsedTime(&a, gs.t0, gs.ev[5 * i + from[kind]]));
            CUDA_CHECK(cudaEventElapsedTime(&b, gs.t0, gs.ev[5 * i + to[kind]]));
            double *r = out + 5 * n++;
            r[0] = i, r[1] = kind, r[2] = a, r[3] = b, r[4] = bytes[kind];
        }
    }
    *spans = out;
    return n;
}

/* ------------------------------------------------------------ --bench-comm */

extern "C" void gpu_bcast_us(const dist_grid *g, int comm, long bytes, int reps, double *median,
                             double *min)
{
    if ((size_t)bytes > gs.bench_cap) {
        if (gs.bench_buf)
            CUDA_CHECK(cudaFree(gs.bench_buf));
        CUDA_CHECK(cudaMalloc((void **)&gs.bench_buf, (size_t)bytes));
        gs.bench_cap = (size_t)bytes;
    }
    ncclComm_t c = comm == 0 ? gs.all : comm == 1 ? gs.row : gs.col;
    double *t = (double *)malloc(sizeof(double) * reps);
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(g->all);
        const double t0 = MPI_Wtime();
        NCCL_CHECK(ncclBroadcast(gs.bench_buf, gs.bench_buf, (size_t)bytes, ncclChar, 0, c, gs.comm));
        CUDA_CHECK(cudaStreamSynchronize(gs.comm));
        double us = 1e6 * (MPI_Wtime() - t0);
        MPI_Allreduce(&us, &t[r], 1, MPI_DOUBLE, MPI_MAX, g->all);
    }
    qsort(t, reps, sizeof(double), [](const void *x, const void *y) {
        double a = *(const double *)x, b = *(const double *)y;
        return (a > b) - (a < b);
    });
    *min = t[0];
    *median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    free(t);
}

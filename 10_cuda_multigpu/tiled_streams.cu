/* 10_cuda_multigpu, tiled_streams: C in tiles, panels streamed from pinned host memory.
 *
 *   C is cut into b x b tiles, k into slices of kb. Tile (i, j) needs, for each slice kc,
 *   the block A(i, kc) (b x kb) and the block B(kc, j) (kb x b):
 *
 *        C(i,j) = sum over kc of  A(i,kc) B(kc,j)       2 b^2 kb flops per 8 b kb bytes moved:
 *                                                        b/4 flops per byte
 *
 *   Each GPU has a host thread, one copy-in stream and S compute streams. The thread takes a
 *   tile from the shared queue, queues the copies of the blocks its GPU does not hold on the
 *   copy-in stream, and the tile's kernels (one per k slice, each waiting for its two blocks)
 *   and the copy of the tile back to the host on a compute stream; then the next tile on the
 *   next compute stream. So while tile t computes, the blocks of tile t+1 are on the bus and
 *   tile t-1 is going home: the copy engines (one each way) and the SMs all work at once.
 *
 *   Device memory is a cache of blocks: slots of b x kb floats, kept least-recently-used. A
 *   GPU that already holds A(i, .) from its last tile does not fetch it again. The queue is
 *   shared and dynamic: each GPU asks for the pending tile it holds most blocks of, starting
 *   from its own share of the tiles (GPU g of G from tile T*g/G), so GPUs work on their own
 *   rows while there are some, then help the others (one tile at a time, so as not to take
 *   work another GPU is about to start); edge tiles and slower GPUs balance out.
 *   Nothing needs all of A, B and C to fit anywhere: matrices larger than every GPU together
 *   go through a few GiB of slots.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "harness/multigpu.h"

#define GiB 1073741824.0
#define MiB 1048576.0
#define KBLOCK_DEFAULT 4096

static inline long round_up(long x, long m) { return (x + m - 1) / m * m; }
static inline int min_i(long a, long b) { return (int)(a < b ? a : b); }

int mg_tile(int M, int N)
{
    if (mg.tile)
        return mg.tile;
    long b = 8192;
    while (b > 1024 && ((M + b - 1) / b) * ((N + b - 1) / b) < 4L * mg.ngpus)
        b /= 2;
    long need = round_up(M > N ? M : N, 32); /* a single tile need not be larger than C */
    return (int)(b < need ? b : need);
}

/* The problem and the queue, shared by the GPUs' threads. */
typedef struct shared {
    int M, N, K, b, kb, ni, nj, nk, ntiles;
    float alpha, beta;
    const float *A, *B;
    float *C;
    int lda, ldb, ldc;
    long ldk, ldb_d; /* leading dimensions of the device blocks: A(i,kc) is b x ldk, B(kc,j) kb x ldb_d */
    mg_kernel kernel;
    unsigned char *taken;
    int left;
    omp_lock_t lock;
} shared;

/* One GPU's cache of blocks and its compute streams' tiles in flight. Block ids: A(i, kc) is
 * i*nk + kc, B(kc, j) is ni*nk + j*nk + kc. */
typedef struct gpu_state {
    int g, nslots, S;
    mg_gpu *d;
    float *slot_mem, *cbuf[MG_MAX_STREAMS];
    size_t slot_floats;
    int *slot_block;     /* block held, or -1 */
    int *slot_refs;      /* tiles in flight that use it */
    long *slot_used;     /* last use, for least-recently-used eviction */
    cudaEvent_t *slot_ready; /* recorded on copy_in after the block's copy */
    int *block_slot;     /* slot holding the block, or -1 */
    int *resident_a, *resident_b; /* blocks of A's row panel i / B's column panel j held */
    long clock, tiles;
    /* per compute stream: the tile in flight and the slots it holds */
    int busy[MG_MAX_STREAMS];
    cudaEvent_t done[MG_MAX_STREAMS];
    int *held[MG_MAX_STREAMS];
    int nheld[MG_MAX_STREAMS];
} gpu_state;

/* The pending tile GPU st->g holds most blocks of, searching from its own share onwards.
 * A tile outside its share (another GPU's) only when it has at most one tile in flight:
 * otherwise the GPU whose thread starts first would queue S tiles at once and take the
 * others' work before they begin (with 4 tiles for 2 GPUs, 3 and 1). Returns -1 when no tile
 * is left, -2 when none may be taken yet. */
static int take_tile(shared *sh, gpu_state *st, int G, int in_flight)
{
    omp_set_lock(&sh->lock);
    int best = -1, best_score = -1;
    int home = (int)((long)sh->ntiles * st->g / G), end = (int)((long)sh->ntiles * (st->g + 1) / G);
    for (int n = 0; n < sh->ntiles && sh->left > 0; n++) {
        int t = (home + n) % sh->ntiles;
        if (sh->taken[t] || (in_flight > 1 && (t < home || t >= end)))
            continue;
        int score = st->resident_a[t / sh->nj] + st->resident_b[t % sh->nj];
        if (score > best_score) {
            best = t;
            best_score = score;
            if (score == 2 * sh->nk)
                break; /* holds every block: cannot do better */
        }
    }
    if (best >= 0) {
        sh->taken[best] = 1;
        sh->left--;
    } else if (sh->left > 0) {
        best = -2;
    }
    omp_unset_lock(&sh->lock);
    return best;
}

/* The tile on stream s is done (its copy home has finished): release its blocks. */
static void retire(gpu_state *st, int s)
{
    if (!st->busy[s])
        return;
    CUDA_CHECK(cudaEventSynchronize(st->done[s])); /* a faulted kernel reports here */
    for (int i = 0; i < st->nheld[s]; i++)
        st->slot_refs[st->held[s][i]]--;
    st->nheld[s] = 0;
    st->busy[s] = 0;
}

/* Make block `blk` resident (queueing its copy if needed) and hold it for stream s's tile. */
static int fetch_block(shared *sh, gpu_state *st, int blk, int s)
{
    int slot = st->block_slot[blk];
    if (slot < 0) {
        for (;;) { /* the least recently used slot that no tile in flight holds */
            long oldest = -1;
            for (int i = 0; i < st->nslots; i++)
                if (st->slot_refs[i] == 0 && (slot < 0 || st->slot_used[i] < oldest)) {
                    slot = i;
                    oldest = st->slot_used[i];
                }
            if (slot >= 0)
                break;
            /* every slot is held: wait for the oldest other tile in flight */
            int other = -1;
            for (int k = 1; k < st->S && other < 0; k++)
                if (st->busy[(s + k) % st->S])
                    other = (s + k) % st->S;
            if (other < 0)
                cli_die("tiled_streams: internal error: no slot free"); /* see plan_gpu */
            retire(st, other);
        }
        int old = st->slot_block[slot];
        if (old >= 0) {
            st->block_slot[old] = -1;
            if (old < sh->ni * sh->nk)
                st->resident_a[old / sh->nk]--;
            else
                st->resident_b[(old - sh->ni * sh->nk) / sh->nk]--;
        }
        float *dst = st->slot_mem + (size_t)slot * st->slot_floats;
        cudaStream_t cs = st->d->copy_in;
        if (blk < sh->ni * sh->nk) { /* A(i, kc): rows i*b.., columns kc*kb.. */
            int i = blk / sh->nk, kc = blk % sh->nk;
            int rows = min_i(sh->b, sh->M - (long)i * sh->b);
            int cols = min_i(sh->kb, sh->K - (long)kc * sh->kb);
            int sp = mg_span_begin(st->g, cs, -1, EV_H2D, i, -1, kc,
                                   (double)rows * cols * sizeof(float));
            CUDA_CHECK(cudaMemcpy2DAsync(dst, sh->ldk * sizeof(float),
                                         sh->A + (size_t)i * sh->b * sh->lda + (size_t)kc * sh->kb,
                                         (size_t)sh->lda * sizeof(float), cols * sizeof(float),
                                         rows, cudaMemcpyHostToDevice, cs));
            mg_span_end(st->g, sp, cs);
            st->resident_a[i]++;
        } else { /* B(kc, j): rows kc*kb.., columns j*b.. */
            int j = (blk - sh->ni * sh->nk) / sh->nk, kc = (blk - sh->ni * sh->nk) % sh->nk;
            int rows = min_i(sh->kb, sh->K - (long)kc * sh->kb);
            int cols = min_i(sh->b, sh->N - (long)j * sh->b);
            int sp = mg_span_begin(st->g, cs, -1, EV_H2D, -1, j, kc,
                                   (double)rows * cols * sizeof(float));
            CUDA_CHECK(cudaMemcpy2DAsync(dst, sh->ldb_d * sizeof(float),
                                         sh->B + (size_t)kc * sh->kb * sh->ldb + (size_t)j * sh->b,
                                         (size_t)sh->ldb * sizeof(float), cols * sizeof(float),
                                         rows, cudaMemcpyHostToDevice, cs));
            mg_span_end(st->g, sp, cs);
            st->resident_b[j]++;
        }
        CUDA_CHECK(cudaEventRecord(st->slot_ready[slot], cs));
        st->slot_block[slot] = blk;
        st->block_slot[blk] = slot;
    }
    st->slot_refs[slot]++;
    st->slot_used[slot] = ++st->clock;
    st->held[s][st->nheld[s]++] = slot;
    /* the kernel waits for the copy, wherever and whenever it was queued */
    CUDA_CHECK(cudaStreamWaitEvent(st->d->compute[s], st->slot_ready[slot], 0));
    return slot;
}

/* Tile t on compute stream s: C in (beta != 0), a kernel per k slice, C out. */
static void issue_tile(shared *sh, gpu_state *st, int t, int s)
{
    int i = t / sh->nj, j = t % sh->nj;
    int rows = min_i(sh->b, sh->M - (long)i * sh->b), cols = min_i(sh->b, sh->N - (long)j * sh->b);
    cudaStream_t cs = st->d->compute[s];
    float *dC = st->cbuf[s];
    float *hC = sh->C + (size_t)i * sh->b * sh->ldc + (size_t)j * sh->b;
    if (sh->beta != 0.0f) {
        int sp = mg_span_begin(st->g, cs, s, EV_H2D, i, j, -1, (double)rows * cols * sizeof(float));
        CUDA_CHECK(cudaMemcpy2DAsync(dC, sh->ldb_d * sizeof(float), hC, (size_t)sh->ldc * sizeof(float),
                                     cols * sizeof(float), rows, cudaMemcpyHostToDevice, cs));
        mg_span_end(st->g, sp, cs);
    }
    for (int kc = 0; kc < sh->nk; kc++) {
        int depth = min_i(sh->kb, sh->K - (long)kc * sh->kb);
        int sa = fetch_block(sh, st, i * sh->nk + kc, s);
        int sb = fetch_block(sh, st, sh->ni * sh->nk + j * sh->nk + kc, s);
        int sp = mg_span_begin(st->g, cs, s, EV_KERNEL, i, j, kc, 0);
        /* the first slice applies beta (C is not read when beta == 0); the others add */
        mg_gemm(sh->kernel, st->d, cs, rows, cols, depth, sh->alpha,
                st->slot_mem + (size_t)sa * st->slot_floats, (int)sh->ldk,
                st->slot_mem + (size_t)sb * st->slot_floats, (int)sh->ldb_d,
                kc == 0 ? sh->beta : 1.0f, dC, (int)sh->ldb_d);
        mg_span_end(st->g, sp, cs);
    }
    int sp = mg_span_begin(st->g, cs, s, EV_D2H, i, j, -1, (double)rows * cols * sizeof(float));
    CUDA_CHECK(cudaMemcpy2DAsync(hC, (size_t)sh->ldc * sizeof(float), dC, sh->ldb_d * sizeof(float),
                                 cols * sizeof(float), rows, cudaMemcpyDeviceToHost, cs));
    mg_span_end(st->g, sp, cs);
    CUDA_CHECK(cudaEventRecord(st->done[s], cs));
    st->busy[s] = 1;
    st->tiles++;
}

/* Carve GPU g's workspace into S tile buffers and as many block slots as the budget holds
 * (no more than there are blocks). A tile in flight holds its 2*nk blocks until it is done,
 * so S tiles need S*2*nk slots: fewer streams if the memory is short. */
static void plan_gpu(shared *sh, gpu_state *st, int g)
{
    st->g = g;
    st->d = mg_gpu_get(g);
    size_t cbuf_floats = (size_t)sh->b * sh->ldb_d;
    st->slot_floats = (size_t)sh->b * sh->ldk > (size_t)sh->kb * sh->ldb_d
                          ? (size_t)sh->b * sh->ldk : (size_t)sh->kb * sh->ldb_d;
    st->slot_floats = round_up((long)st->slot_floats, 64); /* 256-byte aligned slots */
    cbuf_floats = round_up((long)cbuf_floats, 64);
    double budget = (double)mg_budget(g), slot_b = st->slot_floats * 4.0, c_b = cbuf_floats * 4.0;
    int nblocks = (sh->ni + sh->nj) * sh->nk;
    int S = mg.streams;
    long nslots = 0;
    for (; S >= 1; S--) {
        nslots = (long)((budget - S * c_b) / slot_b);
        if (nslots > nblocks)
            nslots = nblocks;
        /* S tiles in flight hold at most 2*S*nk distinct blocks (fewer if there are fewer) */
        if (nslots >= (nblocks < 2L * S * sh->nk ? nblocks : 2L * S * sh->nk))
            break;
    }
    if (S < 1)
        cli_die("tiled_streams: GPU %d may use %.3f GiB, but one tile of %d needs %.3f GiB "
                "(2 x %d blocks of %.2f MiB and its C): use a smaller --tile or --kblock",
                g, budget / GiB, sh->b, (2.0 * sh->nk * slot_b + c_b) / GiB, sh->nk, slot_b / MiB);
    st->S = S;
    st->nslots = (int)nslots;
    char *w = mg_workspace(g, (size_t)(S * c_b + nslots * slot_b));
    for (int s = 0; s < S; s++)
        st->cbuf[s] = (float *)(w + (size_t)s * (size_t)c_b);
    st->slot_mem = (float *)(w + (size_t)S * (size_t)c_b);
    st->slot_block = (int *)malloc(sizeof(int) * nslots);
    st->slot_refs = (int *)calloc((size_t)nslots, sizeof(int));
    st->slot_used = (long *)calloc((size_t)nslots, sizeof(long));
    st->slot_ready = (cudaEvent_t *)malloc(sizeof(cudaEvent_t) * nslots);
    st->block_slot = (int *)malloc(sizeof(int) * nblocks);
    st->resident_a = (int *)calloc((size_t)sh->ni, sizeof(int));
    st->resident_b = (int *)calloc((size_t)sh->nj, sizeof(int));
    if (!st->slot_block || !st->slot_refs || !st->slot_used || !st->slot_ready ||
        !st->block_slot || !st->resident_a || !st->resident_b)
        cli_die("out of memory");
    for (long i = 0; i < nslots; i++) {
        st->slot_block[i] = -1;
        CUDA_CHECK(cudaEventCreateWithFlags(&st->slot_ready[i], cudaEventDisableTiming));
    }
    for (int i = 0; i < nblocks; i++)
        st->block_slot[i] = -1;
    for (int s = 0; s < S; s++) {
        CUDA_CHECK(cudaEventCreateWithFlags(&st->done[s], cudaEventDisableTiming));
        st->held[s] = (int *)malloc(sizeof(int) * 2 * (size_t)sh->nk);
        if (!st->held[s])
            cli_die("out of memory");
        st->nheld[s] = 0;
        st->busy[s] = 0;
    }
}

static void free_gpu(gpu_state *st)
{
    for (int i = 0; i < st->nslots; i++)
        CUDA_CHECK(cudaEventDestroy(st->slot_ready[i]));
    for (int s = 0; s < st->S; s++) {
        CUDA_CHECK(cudaEventDestroy(st->done[s]));
        free(st->held[s]);
    }
    free(st->slot_block);
    free(st->slot_refs);
    free(st->slot_used);
    free(st->slot_ready);
    free(st->block_slot);
    free(st->resident_a);
    free(st->resident_b);
}

static void tiled(mg_kernel kernel, int M, int N, int K, float alpha, const float *A, int lda,
                  const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* C is in host memory */
        return;
    shared sh;
    memset(&sh, 0, sizeof sh);
    sh.M = M, sh.N = N, sh.K = K, sh.alpha = alpha, sh.beta = beta;
    sh.A = A, sh.B = B, sh.C = C, sh.lda = lda, sh.ldb = ldb, sh.ldc = ldc;
    sh.kernel = kernel;
    sh.b = mg_tile(M, N);
    sh.kb = mg.kblock ? mg.kblock : KBLOCK_DEFAULT;
    if (sh.kb > K)
        sh.kb = K;
    sh.ni = (M + sh.b - 1) / sh.b;
    sh.nj = (N + sh.b - 1) / sh.b;
    sh.nk = (K + sh.kb - 1) / sh.kb;
    sh.ntiles = sh.ni * sh.nj;
    sh.left = sh.ntiles;
    sh.ldk = round_up(sh.kb, 32);  /* 128-byte rows: the 09 kernel's float4 path */
    sh.ldb_d = round_up(sh.b, 32);
    sh.taken = (unsigned char *)calloc((size_t)sh.ntiles, 1);
    if (!sh.taken)
        cli_die("out of memory");
    omp_init_lock(&sh.lock);
    int G = mg.ngpus;
    gpu_state st[MG_MAX_GPUS];
    memset(st, 0, sizeof st);
    mg_record_start(G);
#pragma omp parallel num_threads(G)
    {
        int g = omp_get_thread_num();
        gpu_state *me = &st[g];
        plan_gpu(&sh, me, g);
        mg_record_origin(g);
        for (int s = 0;; s = (s + 1) % me->S) {
            retire(me, s); /* the stream's last tile must be home before it takes another */
            int in_flight = 0;
            for (int k = 0; k < me->S; k++)
                in_flight += me->busy[k];
            int t = take_tile(&sh, me, G, in_flight);
            if (t == -1)
                break;
            if (t >= 0) /* -2: only other GPUs' tiles are left; wait for one of ours first */
                issue_tile(&sh, me, t, s);
        }
        for (int s = 0; s < me->S; s++)
            retire(me, s);
        CUDA_CHECK_LAUNCH();
    }
    mg_last.tile = sh.b;
    mg_last.kblock = sh.kb;
    mg_last.streams = st[0].S;
    mg_last.slots_per_gpu = st[0].nslots;
    for (int g = 0; g < G; g++) {
        mg_last.tiles_per_gpu[g] = st[g].tiles;
        if (st[g].S < mg_last.streams)
            mg_last.streams = st[g].S;
        CUDA_CHECK(cudaSetDevice(g));
        free_gpu(&st[g]);
    }
    omp_destroy_lock(&sh.lock);
    free(sh.taken);
}

void gemm_tiled_streams(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                        int ldb, float beta, float *C, int ldc)
{
    tiled(MG_KERNEL_09, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_tiled_streams_cublas(int M, int N, int K, float alpha, const float *A, int lda,
                               const float *B, int ldb, float beta, float *C, int ldc)
{
    tiled(MG_KERNEL_CUBLAS, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

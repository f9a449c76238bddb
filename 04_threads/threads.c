/* 04_threads: the kernels of 02 and 03, with the work split over threads.
 *
 * Every element of C depends only on A and B, never on another element of C: give each
 * thread its own part of C and no thread ever waits for another, no lock is needed.
 * What the variants change is the shape of the parts and who hands them out.
 *
 *   omp_rows        02's ikj on one row of C per iteration; the rows split into one
 *                   equal range per thread (schedule(static))
 *   omp_tiled       03's unroll_2x4 on T x T tiles of C; the tiles split into one equal
 *                   range per thread (schedule(static))
 *   omp_tiled_dyn   the same tiles handed out one at a time to whichever thread is free
 *                   (schedule(dynamic))
 *   pthreads_tiled  omp_tiled written out by hand: create the threads, give each its
 *                   range of tiles, wait for them all
 *
 * and the three the chapter leaves to its exercise:
 *
 *   omp_cols        02's ikj on strips of T columns of C; the strips split into one equal
 *                   range per thread: each thread reads all of A and its strip of B
 *   omp_grid        the threads as a grid of pr x pc, each computing one block of C with
 *                   03's unroll_2x4: it reads 1/pr of A and 1/pc of B
 *   pthreads_dyn    omp_tiled_dyn by hand: the threads take the next tile from a shared
 *                   atomic counter until none is left
 *
 * The thread count is the one --threads gives OpenMP (omp_set_num_threads);
 * pthreads_tiled asks OpenMP for it (omp_get_max_threads) and starts that many itself.
 */
#include "threads.h"

#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "../02_loop_order/loop_order.h"
#include "../03_tiling/tiling.h"

static int min_int(int a, int b) { return a < b ? a : b; }

void gemm_omp_rows(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < M; i++) /* row i of C is a 1 x N product: 02's ikj does it */
        gemm_ikj(1, N, K, alpha, &A[IDX(i, 0, lda)], lda, B, ldb, beta, &C[IDX(i, 0, ldc)], ldc);
}

/* ---- tiles of C, each one a call of 03's unroll_2x4 ----------------------------------- */

/* The problem, and how it is cut: T x T tiles, numbered row by row. */
typedef struct tiled_problem {
    int M, N, K, lda, ldb, ldc;
    float alpha, beta;
    const float *A, *B;
    float *C;
    int T, tile_cols;
    long ntiles;
} tiled_problem;

static tiled_problem cut_into_tiles(int M, int N, int K, float alpha, const float *A, int lda,
                                    const float *B, int ldb, float beta, float *C, int ldc)
{
    const int T = tile_size, tile_rows = (M + T - 1) / T, tile_cols = (N + T - 1) / T;
    return (tiled_problem){M, N, K, lda, ldb, ldc, alpha, beta, A, B, C,
                           T, tile_cols, (long)tile_rows * tile_cols};
}

/* Tile t of C = alpha * (its T rows of A) * (its T columns of B) + beta * tile t of C. */
static void compute_tile(const tiled_problem *p, long t)
{
    const int i0 = (int)(t / p->tile_cols) * p->T, j0 = (int)(t % p->tile_cols) * p->T;
    gemm_unroll_2x4(min_int(p->T, p->M - i0), min_int(p->T, p->N - j0), p->K, p->alpha,
                    &p->A[IDX(i0, 0, p->lda)], p->lda, &p->B[IDX(0, j0, p->ldb)], p->ldb, p->beta,
                    &p->C[IDX(i0, j0, p->ldc)], p->ldc);
}

void gemm_omp_tiled(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const tiled_problem p = cut_into_tiles(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
#pragma omp parallel for schedule(static)
    for (long t = 0; t < p.ntiles; t++)
        compute_tile(&p, t);
}

void gemm_omp_tiled_dyn(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const tiled_problem p = cut_into_tiles(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
#pragma omp parallel for schedule(dynamic)
    for (long t = 0; t < p.ntiles; t++)
        compute_tile(&p, t);
}

/* ---- the same split by hand ----------------------------------------------------------- */

typedef struct tile_range {
    const tiled_problem *p;
    long first, end; /* tiles first .. end-1 */
} tile_range;

static void *compute_tile_range(void *arg)
{
    const tile_range *r = arg;
    for (long t = r->first; t < r->end; t++)
        compute_tile(r->p, t);
    return NULL;
}

void gemm_pthreads_tiled(int M, int N, int K, float alpha, const float *A, int lda,
                         const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const tiled_problem p = cut_into_tiles(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    int nthreads = omp_get_max_threads();
    if (nthreads > p.ntiles)
        nthreads = (int)p.ntiles; /* a thread with no tile would only cost its start-up */
    pthread_t *threads = malloc(sizeof(pthread_t) * (size_t)nthreads);
    tile_range *ranges = malloc(sizeof(tile_range) * (size_t)nthreads);
    int *started = calloc((size_t)nthreads, sizeof(int));
    if (!threads || !ranges || !started) { /* no room to organise threads: do it all here */
        free(threads);
        free(ranges);
        free(started);
        compute_tile_range(&(tile_range){&p, 0, p.ntiles});
        return;
    }
    /* schedule(static) by hand: thread w gets the w-th of nthreads equal ranges */
    for (int w = 0; w < nthreads; w++)
        ranges[w] = (tile_range){&p, p.ntiles * w / nthreads, p.ntiles * (w + 1) / nthreads};
    /* the calling thread takes range 0 itself, as OpenMP's master thread does */
    for (int w = 1; w < nthreads; w++)
        started[w] = pthread_create(&threads[w], NULL, compute_tile_range, &ranges[w]) == 0;
    compute_tile_range(&ranges[0]);
    for (int w = 1; w < nthreads; w++) {
        if (started[w])
            pthread_join(threads[w], NULL);
        else /* the system would not start this thread: its tiles are still ours to do */
            compute_tile_range(&ranges[w]);
    }
    free(threads);
    free(ranges);
    free(started);
}

/* ---- the exercise's: another loop, a grid, a queue ------------------------------------- */

/* Strips of T columns of C, each the M x T product of A with a strip of B: 02's ikj with N = T,
 * so that each row of the strip's C and of its B is a run of T floats (whole cache lines when a
 * row starts on one). Every thread streams all of A, and its strip of B (K x T floats) is what
 * 02's ikj reads again for every row of C. */
void gemm_omp_cols(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const int T = tile_size, strips = (N + T - 1) / T;
#pragma omp parallel for schedule(static)
    for (int s = 0; s < strips; s++) {
        const int j0 = s * T;
        gemm_ikj(M, min_int(T, N - j0), K, alpha, A, lda, &B[IDX(0, j0, ldb)], ldb, beta,
                 &C[IDX(0, j0, ldc)], ldc);
    }
}

/* One block of C a thread, the threads laid out as a grid of pr rows by pc columns (pr the
 * largest divisor of the count not above its square root: 1 x 2 on 2 threads, 2 x 2 on 4).
 * Thread (r, c) reads the r-th of pr bands of A and the c-th of pc strips of B; a split by rows
 * alone (pr = threads) would have every thread read all of B. */
void gemm_omp_grid(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
#pragma omp parallel
    {
        const int nt = omp_get_num_threads(), t = omp_get_thread_num();
        int pr = 1;
        for (int d = 1; d * d <= nt; d++)
            if (nt % d == 0)
                pr = d;
        const int pc = nt / pr, r = t / pc, c = t % pc;
        const int i0 = (int)((long)M * r / pr), i1 = (int)((long)M * (r + 1) / pr);
        const int j0 = (int)((long)N * c / pc), j1 = (int)((long)N * (c + 1) / pc);
        if (i1 > i0 && j1 > j0) /* more threads than rows or columns: some have no block */
            gemm_unroll_2x4(i1 - i0, j1 - j0, K, alpha, &A[IDX(i0, 0, lda)], lda,
                            &B[IDX(0, j0, ldb)], ldb, beta, &C[IDX(i0, j0, ldc)], ldc);
    }
}

/* schedule(dynamic) by hand: one counter that every thread increments to take its next tile.
 * atomic_fetch_add hands each number to exactly one thread, so no tile is done twice or left. */
typedef struct tile_queue {
    const tiled_problem *p;
    atomic_long next; /* the first tile nobody has taken */
} tile_queue;

static void *take_tiles(void *arg)
{
    tile_queue *q = arg;
    for (long t = atomic_fetch_add(&q->next, 1); t < q->p->ntiles; t = atomic_fetch_add(&q->next, 1))
        compute_tile(q->p, t);
    return NULL;
}

void gemm_pthreads_dyn(int M, int N, int K, float alpha, const float *A, int lda,
                       const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const tiled_problem p = cut_into_tiles(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    tile_queue q = {.p = &p};
    atomic_init(&q.next, 0);
    int nthreads = omp_get_max_threads();
    if (nthreads > p.ntiles)
        nthreads = (int)p.ntiles;
    pthread_t *threads = malloc(sizeof(pthread_t) * (size_t)nthreads);
    int *started = calloc((size_t)nthreads, sizeof(int));
    if (threads && started)
        for (int w = 1; w < nthreads; w++)
            started[w] = pthread_create(&threads[w], NULL, take_tiles, &q) == 0;
    take_tiles(&q); /* the calling thread takes tiles too; it leaves none for a thread that
                       could not be started, or when there was no room to start any */
    if (threads && started)
        for (int w = 1; w < nthreads; w++)
            if (started[w])
                pthread_join(threads[w], NULL);
    free(threads);
    free(started);
}

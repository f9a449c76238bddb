/* distributed.h: stage 13's process grid, its block-cyclic layout and the distributed contract.
 *
 *   distributed.c   summa, summa_overlap: the panel loop over MPI (the lesson; exercise.c)
 *   layout.c        filling and scaling local blocks; local_only
 *   nccl.cu         summa_nccl: the same loop on GPUs, panels broadcast by NCCL
 *   main.c          the variant table
 *   cost_model.py   what each variant should cost: alpha, beta, gamma (the chapter's model)
 * and the harness, in harness/:
 *   psgemm.c        ScaLAPACK's PSGEMM on the same blocks (the baseline, and the example of
 *                   how a program calls it)
 *   dist_main.c     MPI, the command line and the stage's options, the grid (bench_main's part)
 *   harness.c       the runs: blocks made and poisoned, checked, timed against PSGEMM
 *   report.c        the table and the CSV
 *   check.c         gathering sampled rows to rank 0 and the double-precision check
 *   comm_bench.c    ping-pong and broadcast timings: the model's alpha and beta
 *   gpu.h           what the harness asks of nccl.cu (nccl_none.c where it is not built)
 *
 * The grid. P = PR x PC ranks; rank r sits in process row r / PC and process column r % PC.
 * The layout. Every matrix is cut into nb x nb blocks, dealt out cyclically: block (I, J) lives
 * on process (I mod PR, J mod PC), and each rank keeps its blocks packed together, row-major, as
 * one local matrix. C (M x N) and A (M x K) are dealt over rows by PR, B (K x N) and C over
 * columns by PC; A's columns and B's rows (the K dimension) go over PC and PR respectively. So a
 * rank holds A's rows and C's rows of the same process row, B's columns and C's columns of the
 * same process column, which is what SUMMA needs. ScaLAPACK's 2-D block-cyclic layout is the same
 * dealing (it is column-major; harness/psgemm.c says how one is read as the other).
 */
#ifndef DISTRIBUTED_H
#define DISTRIBUTED_H

#include <mpi.h>
#include <stdint.h>

#include "gemm.h"

typedef struct dist_grid {
    int nprow, npcol; /* PR x PC processes */
    int myrow, mycol; /* this rank's place */
    int nb;           /* the block size of the layout, and the width of a SUMMA panel */
    MPI_Comm all;     /* every rank of the grid */
    MPI_Comm row;     /* the PC ranks of my process row (rank in it = my column) */
    MPI_Comm col;     /* the PR ranks of my process column (rank in it = my row) */
} dist_grid;

#ifdef __CUDACC__
#define DIST_HD __host__ __device__
#else
#define DIST_HD
#endif

/* How many of n indices, dealt in blocks of nb over nprocs processes, process iproc holds
 * (ScaLAPACK's NUMROC). */
static inline DIST_HD int local_count(int n, int nb, int iproc, int nprocs)
{
    if (n <= 0)
        return 0;
    const int nblocks = n / nb, extra = n % nb;
    int count = nblocks / nprocs * nb;
    const int rest = nblocks % nprocs;
    if (iproc < rest)
        count += nb;
    else if (iproc == rest)
        count += extra;
    return count;
}

/* Global index g: the process that holds it, and where in that process's local matrix. */
static inline DIST_HD int owner_of(long g, int nb, int nprocs) { return (int)(g / nb % nprocs); }
static inline DIST_HD int local_of(long g, int nb, int nprocs) { return (int)(g / ((long)nb * nprocs) * nb + g % nb); }
/* Local index l of process iproc: its global index. */
static inline DIST_HD long global_of(int l, int nb, int iproc, int nprocs)
{
    return ((long)(l / nb) * nprocs + iproc) * nb + l % nb;
}

/* The distributed contract. M, N, K are the global sizes; A, B and C are this rank's local
 * matrices (row-major, leading dimensions lda >= its local K columns, ldb and ldc >= its local
 * N columns), laid out as above on grid g. Every rank of g calls it with the same M, N, K,
 * alpha and beta. C = alpha*A*B + beta*C, with the BLAS rules: M = 0 or N = 0 leaves C alone,
 * K = 0 or alpha = 0 gives beta*C without reading A or B, beta = 0 never reads C. */
typedef void dist_gemm_fn(const dist_grid *g, int M, int N, int K, float alpha, const float *A,
                          int lda, const float *B, int ldb, float beta, float *C, int ldc);

dist_gemm_fn summa, summa_overlap;

/* layout.c: summa_overlap's most slices of a panel's product while the next panel travels
 * (--slices; default 8). */
extern int summa_slices;

/* layout.c: the local products summa does, panel by panel, with no broadcasts (the panels are
 * zeros): the time of the compute alone, under the same load. Its result is not a product. */
dist_gemm_fn local_only;

/* ScaLAPACK's psgemm_ on the same local matrices (psgemm.c). */
dist_gemm_fn gemm_psgemm;
const char *psgemm_blas_name(void);

/* layout.c: C = beta*C on a local block (beta = 0: zeros, C not read). */
void scale_local(int m, int n, float beta, float *C, int ldc);

/* Element (i, j) of the global rows x cols matrix that matrix_fill_random (common/matrix.c)
 * would write with this seed: the same splitmix64 counter, so a rank fills its blocks alone and
 * the distributed matrix equals the one a single process of stages 01-10 would make. */
static inline DIST_HD float random_entry(uint64_t seed, long i, long j, long cols)
{
    uint64_t z = seed + ((uint64_t)i * (uint64_t)cols + (uint64_t)j + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (float)(uint32_t)(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

/* Fill this rank's local block of a global rows x cols matrix dealt over (prow of nprow) x (pcol
 * of npcol) processes in nb blocks: element (i, j) gets random_entry(seed, gi, gj, cols). */
void fill_local_random(float *X, int ld, long rows, long cols, int nb, int prow, int nprow,
                       int pcol, int npcol, uint64_t seed);

#endif

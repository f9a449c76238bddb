/* 13_distributed exercise: SUMMA's panel loop. This file replaces distributed.c.
 *
 *   make grade STAGE=13      (runs it with mpirun on 1, 2, 4 and 6 ranks, every grid shape)
 *
 * Until summa and summa_overlap are written, C keeps its NaN poison and every one of their
 * 200 checks FAILs.
 *
 * What you have (distributed.h):
 *   g->nprow, g->npcol, g->myrow, g->mycol   the grid and my place in it
 *   g->nb                 the block size: panel kb is global columns kb*nb .. of A, rows of B
 *   g->row, g->col        communicators: my process row (PC ranks), my process column (PR ranks);
 *                         a rank's rank in g->row is its column, in g->col its row
 *   local_count(n, nb, iproc, nprocs)   how many of n indices process iproc holds
 *   owner_of(gidx, nb, nprocs)          which process holds global index gidx
 *   local_of(gidx, nb, nprocs)          where it is in that process's local matrix
 *   scale_local(m, n, beta, C, ldc)     C = beta*C on my block (for K = 0 or alpha = 0)
 *   gemm_simd(...)        stage 05's GEMM (the gemm_fn contract), for the local product
 *   matrix_scratch(&buf, &cap, floats, "what")   a buffer kept between calls
 *
 * TODO, in summa:
 *   1. m = my rows of A and C = local_count(M, nb, myrow, nprow); n = my columns of B and C
 *      (over npcol). Return at once if M or N is 0; for K == 0 or alpha == 0, scale_local.
 *   2. Two buffers: apanel, m x nb, and bpanel, nb x n.
 *   3. For each panel kb (k0 = kb*nb, width w = min(nb, K - k0)):
 *      a. The process column a_root = owner_of(k0, nb, npcol) holds A's columns k0.., at local
 *         column local_of(k0, nb, npcol): if I am in it (mycol == a_root), copy my m x w of
 *         them into apanel (row stride w). Likewise B's rows k0.. live on process row
 *         b_root = owner_of(k0, nb, nprow), local row local_of(k0, nb, nprow): copy w x n.
 *      b. MPI_Bcast(apanel, m*w, MPI_FLOAT, a_root, g->row), and bpanel over g->col from b_root.
 *      c. gemm_simd(m, n, w, alpha, apanel, w, bpanel, n, beta for the first panel and 1 after,
 *         C, ldc).
 * TODO, in summa_overlap: the same with two pairs of buffers: post panel kb+1's broadcasts with
 *   MPI_Ibcast into the spare pair before multiplying panel kb, and MPI_Waitall on them before
 *   its turn. Open MPI advances a non-blocking broadcast only inside MPI calls: while panel
 *   kb+1 is on its way, do the product in slices of C's columns (at most summa_slices of them,
 *   --slices) with an MPI_Testall after each; once it has arrived (the flag MPI_Testall sets),
 *   the rest of the columns in one call.
 * Hint: every rank of a process row must call the row's broadcast, also one with m == 0 (a
 *   process row with no rows of C, when M < nb*nprow): counts of 0 are fine.
 */
#include "distributed.h"

#include "../05_simd/simd.h"
#include "matrix.h"

void summa(const dist_grid *g, int M, int N, int K, float alpha, const float *A, int lda,
           const float *B, int ldb, float beta, float *C, int ldc)
{
    (void)g, (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)lda, (void)B, (void)ldb;
    (void)beta, (void)C, (void)ldc;
}

void summa_overlap(const dist_grid *g, int M, int N, int K, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc)
{
    (void)g, (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)lda, (void)B, (void)ldb;
    (void)beta, (void)C, (void)ldc;
}

/* 03_tiling exercise: block the ikj loops for the cache, then copy and unroll.
 *
 * Build and grade it with:   make grade STAGE=03
 * The grader runs your functions over awkward shapes (1x1x1, primes, sizes one past a
 * power of two, leading dimensions larger than the width, beta != 0, NaN in C with
 * beta == 0) with the default tile (TILE_DEFAULT in tiling.h), then the edge cases of
 * --edges (K = 0, alpha = 0 with NaN in A, NaN and Inf in one element, overflow), and times
 * them against the solution (02's ikj, linked, is not part of this exercise). Untouched, each
 * passes 32 of its 168 checks (the edge cases gemm_quick_return handles) and fails the rest.
 * Small tiles test the edges harder:
 *   build/grade/03_tiling/tiling --variant tiled --tile 7,16,64 --sizes 33,127,300
 * (a tile of 7 makes every block an edge case).
 */
#include "tiling.h"

int tile_size = TILE_DEFAULT; /* T: set by --tile; leave this line as it is */

void gemm_tiled(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO:
     * 1. C = beta*C for every element; when beta == 0 write 0 without reading C (the
     *    grader fills C with NaN, and 0*NaN is NaN).
     * 2. three loops over the blocks, each stepping by T = tile_size:
     *      for i0 in 0..M, for j0 in 0..N, for k0 in 0..K
     *    the last block in each direction is shorter: mb = min(T, M - i0), and so on.
     * 3. inside, 02's ikj restricted to the block:
     *      for i in i0..i0+mb, for k in k0..k0+kb:  a = alpha*A[i][k]
     *          for j in j0..j0+nb:  C[i][j] += a * B[k][j]
     * Check: --tile 1 must give the same answer as 02's ikj, just slower.
     */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}

void gemm_tiled_copy(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: the same three block loops, but before each block product copy the A block
     * and the B block into buffers from aligned_alloc(64, bytes) (bytes a multiple of
     * 64), with a row stride ldt = T rounded up to 16 floats, so every row starts on a
     * cache line. Multiply alpha into the copy of B (Bb[k][j] = alpha*B[k][j]), so that
     * every term carries it, as in 01: alpha*sum would overflow where the terms do not
     * (A = B = 1e20, alpha = 1e-20). Sum the C tile in a third buffer (zero it before the
     * k0 loop), then write C[i][j] = sum + beta*C[i][j] once, and C[i][j] = sum when
     * beta == 0 (no read of C).
     * Hints:
     * - check the allocations; free them before you return (the solution keeps them
     *   between calls instead: the chapter's Pitfalls say why; free is fine here).
     * - padding the copies with zeros (rows to a multiple of 2, k to a multiple of 4,
     *   columns to a multiple of 16) lets the inner loops run without edge cases, and
     *   gets you ready for unroll_2x4. Never write the padding back to C.
     */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}

void gemm_unroll_2x4(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: tiled_copy with a different block product: two rows of C (i, i+1) and four
     * steps of k (k..k+3) per pass over j. Load the 8 values A[i..i+1][k..k+3] into local
     * variables first; then for each j load B[k..k+3][j] once and use each for both rows:
     *     c0 += a00*b0 + a01*b1 + a02*b2 + a03*b3      (row i)
     *     c1 += a10*b0 + a11*b1 + a12*b2 + a13*b3      (row i+1)
     * The zero padding makes M and K odd sizes safe. Count loads and stores per
     * multiply-add before and after: that ratio is what this variant is about.
     */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc;
}

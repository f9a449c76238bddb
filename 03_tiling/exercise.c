/* 03_tiling exercise: another blocking, the copied blocks, another register block.
 *
 * Build and grade it with:   make grade STAGE=03
 * gemm_tiled and the 2x4 block product are given, solved: the chapter prints them. You write
 * what it does not print: tiled_kij (the blocks of tiled with 02's kij inside each one), the
 * copied-blocks driver that tiled_copy, unroll_2x4 and unroll_4x4 share, with tiled_copy's block
 * product, and unroll_4x4's 4 x 4 block product. The grader checks tiled_kij, tiled_copy and
 * unroll_4x4 (the "grade:" line of test-cases.txt) over awkward shapes (1x1x1, primes, sizes one
 * past a power of two, leading dimensions larger than the width, beta != 0, NaN in C with
 * beta == 0) with the default tile (TILE_DEFAULT in tiling.h), then the edge cases of --edges
 * (K = 0, alpha = 0 with NaN in A, NaN and Inf in one element, overflow), and times them against
 * the solution (02's ikj, linked, and the given tiled and unroll_2x4 are not part of this
 * exercise). Untouched, each of the three passes 32 of its 168 checks (the edge cases
 * gemm_quick_return handles) and fails the rest. Small tiles test the edges harder:
 *   build/grade/03_tiling/tiling --variant tiled_kij,tiled_copy,unroll_4x4 --tile 7,16,64 --sizes 33,127,300
 * (a tile of 7 makes every block an edge case).
 */
#include "tiling.h"

#include <stdlib.h>
#include <string.h>

int tile_size = TILE_DEFAULT; /* T: set by --tile; leave this line as it is */

static int min_int(int a, int b) { return a < b ? a : b; }
static int round_up(int n, int multiple) { return (n + multiple - 1) / multiple * multiple; }

/* C = beta*C (zeros, C unread, when beta == 0): the blocks then only add to it. */
static void scale_c(int M, int N, float beta, float *C, int ldc)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            C[IDX(i, j, ldc)] = beta == 0.0f ? 0.0f : beta * C[IDX(i, j, ldc)];
}

/* Given: the chapter's tiled, 02's ikj inside T x T blocks. */
void gemm_tiled(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const int T = tile_size;
    scale_c(M, N, beta, C, ldc);
    for (int i0 = 0; i0 < M; i0 += T)
        for (int j0 = 0; j0 < N; j0 += T)
            for (int k0 = 0; k0 < K; k0 += T) {
                const int mb = min_int(T, M - i0), nb = min_int(T, N - j0), kb = min_int(T, K - k0);
                for (int i = i0; i < i0 + mb; i++)
                    for (int k = k0; k < k0 + kb; k++) {
                        const float a = alpha * A[IDX(i, k, lda)];
                        const float *b = &B[IDX(k, 0, ldb)];
                        float *c = &C[IDX(i, 0, ldc)];
                        for (int j = j0; j < j0 + nb; j++)
                            c[j] += a * b[j];
                    }
            }
}

void gemm_tiled_kij(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: the same blocks as gemm_tiled (the same three block loops, the same shorter last
     * block in each direction), but inside each block 02's kij instead of ikj:
     *     for k in k0..k0+kb:  for i in i0..i0+mb:  a = alpha*A[i][k]
     *         for j in j0..j0+nb:  C[i][j] += a * B[k][j]
     * Scale C by beta first (scale_c). Before you measure it beside tiled: which block does
     * each k now sweep, and in which cache does it live at T = 64 and at T = 256?
     */
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc; (void)scale_c;
}

/* ---- the copied variants -------------------------------------------------------------- */

/* Cb += Ab * Bb on copied blocks whose rows are ldt floats apart. The sizes are already
 * rounded up by the driver; the padding holds zeros, so it adds nothing. */
typedef void block_product(int mb, int nb, int kb, int ldt, const float *restrict Ab,
                           const float *restrict Bb, float *restrict Cb);

/* tiled_copy's block product. */
static void block_ikj(int mb, int nb, int kb, int ldt, const float *restrict Ab,
                      const float *restrict Bb, float *restrict Cb)
{
    /* TODO: gemm_tiled's two inner loops and its j loop, on the copies: for i < mb, for k < kb,
     * Cb[i][0..nb) += Ab[i][k] * Bb[k][0..nb), every row ldt floats from the next. (alpha is
     * in the copy of B already: see the driver.) */
    (void)mb; (void)nb; (void)kb; (void)ldt; (void)Ab; (void)Bb; (void)Cb;
}

/* Given: the chapter's 2x4 block product (mb even, kb a multiple of 4). */
static void block_2x4(int mb, int nb, int kb, int ldt, const float *restrict Ab,
                      const float *restrict Bb, float *restrict Cb)
{
    for (int i = 0; i < mb; i += 2)
        for (int k = 0; k < kb; k += 4) {
            const float *a0 = &Ab[i * ldt + k], *a1 = a0 + ldt;
            const float a00 = a0[0], a01 = a0[1], a02 = a0[2], a03 = a0[3];
            const float a10 = a1[0], a11 = a1[1], a12 = a1[2], a13 = a1[3];
            const float *b0 = &Bb[k * ldt], *b1 = b0 + ldt, *b2 = b1 + ldt, *b3 = b2 + ldt;
            float *c0 = &Cb[i * ldt], *c1 = c0 + ldt;
            for (int j = 0; j < nb; j++) {
                float c0j = c0[j], c1j = c1[j];
                c0j += a00 * b0[j], c1j += a10 * b0[j];
                c0j += a01 * b1[j], c1j += a11 * b1[j];
                c0j += a02 * b2[j], c1j += a12 * b2[j];
                c0j += a03 * b3[j], c1j += a13 * b3[j];
                c0[j] = c0j, c1[j] = c1j;
            }
        }
}

/* unroll_4x4's block product (mb and kb multiples of 4). */
static void block_4x4(int mb, int nb, int kb, int ldt, const float *restrict Ab,
                      const float *restrict Bb, float *restrict Cb)
{
    /* TODO: block_2x4 four rows high: four rows of C (i..i+3) and four steps of k (k..k+3)
     * per pass over j. Load the 16 values A[i..i+3][k..k+3] into local variables first; then
     * for each j load B[k..k+3][j] once and use each for all four rows:
     *     c0 += a00*b0 + a01*b1 + a02*b2 + a03*b3      (row i)
     *     ...
     *     c3 += a30*b0 + a31*b1 + a32*b2 + a33*b3      (row i+3)
     * Count the loads and stores per multiply-add against block_2x4's, and the vector
     * registers the loop needs (chapter 03, exercise 5).
     */
    (void)mb; (void)nb; (void)kb; (void)ldt; (void)Ab; (void)Bb; (void)Cb;
}

/* The driver of the three copied variants: gemm_tiled's block loops, with every block of A and
 * B copied before the block product runs on it; the product takes rows in steps of mr. */
static void gemm_copied_blocks(block_product *product, int mr, int M, int N, int K, float alpha,
                               const float *A, int lda, const float *B, int ldb, float beta,
                               float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    /* TODO: the same three block loops as gemm_tiled, but before each block product copy
     * the A block and the B block into buffers from aligned_alloc(64, bytes) (bytes a
     * multiple of 64), with a row stride ldt = T rounded up to 16 floats, so every row starts
     * on a cache line. Multiply alpha into the copy of B (Bb[k][j] = alpha*B[k][j]), so that
     * every term carries it, as in 01: alpha*sum would overflow where the terms do not
     * (A = B = 1e20, alpha = 1e-20). Sum the C tile in a third buffer (zero it before the k0
     * loop), call product(mb_pad, nb_pad, kb_pad, ldt, Ab, Bb, Cb) for each k0, then write
     * C[i][j] = sum + beta*C[i][j] once, and C[i][j] = sum when beta == 0 (no read of C).
     * Hints:
     * - pad the copies with zeros: rows to a multiple of mr, k to a multiple of 4, columns to
     *   a multiple of 16. The block products then never meet an edge (a zero row or column
     *   adds nothing). Never write the padding back to C.
     * - no block needs more than T rows or columns, nor more than the matrices have: three
     *   buffers of ldt x ldt floats hold every block, padding included.
     * - check the allocations; free them before you return (the solution keeps them between
     *   calls instead: the chapter's Pitfalls say why; free is fine here).
     */
    (void)product; (void)mr; (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc; (void)round_up;
}

void gemm_tiled_copy(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    gemm_copied_blocks(block_ikj, 2, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* Given: runs once your driver does. */
void gemm_unroll_2x4(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    gemm_copied_blocks(block_2x4, 2, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_unroll_4x4(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    gemm_copied_blocks(block_4x4, 4, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

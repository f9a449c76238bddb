/* 06_strassen exercise: write one level of Strassen, then Winograd's form.
 *
 * Build and grade it with:   make grade STAGE=06
 * The grader runs the variants that call your code over awkward shapes (1x1x1, 7x13x5,
 * primes, lda > K, beta != 0, NaN in C with beta == 0) and the edge cases (--edges):
 * strassen_1lvl and strassen_2lvl call your strassen_level, winograd_1lvl, winograd and
 * hybrid_2lvl your winograd_level (06_strassen/test-cases.txt lists them); classic and
 * reloaded_* are the stage's own, solved for you. Untouched, each of those passes 94 of its
 * 168 checks (strassen_2lvl 66: a level below runs M1 alone), the edge cases and the shapes
 * small enough to go to classic without a level (--cutoff 2 sends 1x1x1 there), and fails the
 * rest.
 *
 * What you have (strassen.h): the quadrants are pointer offsets, no copies; the three
 * temporaries come from level_temps; mat_add and mat_acc are the additions; each product
 * is fast_gemm(plan, levels - 1, m, n, k, ...), which recurses or calls classic.
 */
#include "strassen.h"

/* The grader's shapes are small (1 to 300): with the measured cutoff (strassen.c) every one
 * of them would go straight to classic and never reach your code. Here a level applies to
 * anything of size 2 or more, so every shape runs your seven products, odd sizes included
 * (driver.c peels the odd row, column and rank-1 update off for you). Timing at 512, the
 * grader runs the solution with --cutoff 2 as well, so both sides run the same levels. */
const int strassen_default_cutoff = 2;

void strassen_level(const fast_plan *plan, int levels, int m, int n, int k, float alpha,
                    const float *A, int lda, const float *B, int ldb, float beta, float *C,
                    int ldc, float *work)
{
    /* C = alpha*A*B + beta*C with seven products. A is 2m x 2k, B is 2k x 2n, C 2m x 2n.
     *
     *   M1 = (A11 + A22)(B11 + B22)        C11 = M1 + M4 - M5 + M7
     *   M2 = (A21 + A22) B11               C12 = M3 + M5
     *   M3 = A11 (B12 - B22)               C21 = M2 + M4
     *   M4 = A22 (B21 - B11)               C22 = M1 - M2 + M3 + M6
     *   M5 = (A11 + A12) B22
     *   M6 = (A21 - A11)(B11 + B12)
     *   M7 = (A12 - A22)(B21 + B22)
     *
     * Given: the quadrants (pointers into A, B and C, not copies), the three temporaries
     * (X, m x k, ld k, for a sum of A quadrants; Y, k x n, ld n, for B; Z, m x n, ld n, for a
     * product; `next` for the level below) and M1, the chapter's worked example. */
    const float *A11 = A, *A12 = A + k, *A21 = A + (size_t)m * lda, *A22 = A21 + k;
    const float *B11 = B, *B12 = B + n, *B21 = B + (size_t)k * ldb, *B22 = B21 + n;
    float *C11 = C, *C12 = C + n, *C21 = C + (size_t)m * ldc, *C22 = C21 + n;
    float *X, *Y, *Z, *next; /* X: m x k, Y: k x n, Z: m x n */
    level_temps(m, n, k, work, &X, &Y, &Z, &next);
    const int down = levels - 1;

    /* M1 = (A11 + A22)(B11 + B22):  C11 = M1 + beta C11,  C22 = M1 + beta C22 */
    mat_add(m, k, A11, lda, +1, A22, lda, X, k);
    mat_add(k, n, B11, ldb, +1, B22, ldb, Y, n);
    fast_gemm(plan, down, m, n, k, alpha, X, k, Y, n, 0.0f, Z, n, next);
    mat_acc(m, n, Z, n, C11, +1, beta, C22, +1, beta, ldc);

    /* TODO: M2 to M7, in the same shape as M1. For each: mat_add the operands into X and Y (or
     * use a quadrant directly), fast_gemm(plan, down, m, n, k, alpha, X, k, Y, n, 0.0f, Z, n,
     * next), then mat_acc(m, n, Z, n, Cxx, sign, beta_or_1, Cyy, sign, beta_or_1, ldc).
     * beta: the first product to touch a quadrant of C passes beta (C11 and C22: M1, done;
     * C21: M2; C12: M3); every later one passes 1.0f. With beta == 0, C holds NaN: it must be
     * written before it is added to. A product used by one quadrant only (M6, M7) can go into
     * C directly: fast_gemm(..., alpha, X, k, Y, n, 1.0f, C22, ldc, next). */
    (void)plan; (void)A12; (void)A21; (void)B12; (void)B21; (void)C12; (void)C21; (void)next;
}

void winograd_level(const fast_plan *plan, int levels, int m, int n, int k, float alpha,
                    const float *A, int lda, const float *B, int ldb, float beta, float *C,
                    int ldc, float *work)
{
    /* TODO (after strassen_level passes): Winograd's 15 additions.
     *
     *   S1 = A21 + A22   T1 = B12 - B11   P1 = A11 B11   P5 = S1 T1     U2 = P1 + P6
     *   S2 = S1 - A11    T2 = B22 - T1    P2 = A12 B21   P6 = S2 T2     U3 = U2 + P7
     *   S3 = A11 - A21   T3 = B22 - B12   P3 = S4 B22    P7 = S3 T3
     *   S4 = A12 - S2    T4 = T2 - B21    P4 = A22 T4
     *
     *   C11 = P1 + P2    C12 = U2 + P5 + P3    C21 = U3 - P4    C22 = U3 + P5
     *
     * With the same three temporaries: build S2 from S1 in place in X (mat_add with D == X
     * is fine: each element is read before it is written), T2 from T1 in Y, and let Z
     * accumulate P1, then U2 (fast_gemm with beta 1.0f into Z), then U3. Order the products
     * so that every value is still there when it is needed: P5 before S1 and T1 are
     * overwritten, P1 into Z before P6 is added to it, and C12 += U2 before Z becomes U3.
     * Count your passes over memory: the solution needs 8 mat_add and 4 mat_acc.
     */
    (void)plan; (void)levels; (void)m; (void)n; (void)k; (void)alpha; (void)A; (void)lda;
    (void)B; (void)ldb; (void)beta; (void)C; (void)ldc; (void)work;
}

/* verify.h: the double-precision reference and the error bound.
 *
 * For every checked element, with u = 2^-24 (float's unit roundoff):
 *
 *   |C_ij - R_ij| <= c * (K+2) * u * (|alpha| (|A||B|)_ij + |beta| |C0_ij|) + tiny
 *
 * R is alpha*A*B + beta*C0 computed in double. (K+2): a K-term dot product in
 * float is off by at most about K*u relative to sum|a||b| (Higham, "Accuracy and
 * Stability of Numerical Algorithms", 3.1); the scaling by alpha and the add of
 * beta*C0 round twice more. c is the variant's constant (default 2). An absolute
 * tolerance would be wrong both ways: too loose for small K, too tight for large K.
 *
 * Normwise variants (Strassen) are held to the same expression with every
 * element's scale replaced by the largest one: max|C - R| <= c(K+2)u max(scale).
 *
 * NaN or Inf anywhere fails, and so does any change to C's padding columns
 * (j in [N, ldc)): a kernel must not write outside its matrix.
 */
#ifndef VERIFY_H
#define VERIFY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct verify_result {
    double max_err_ratio; /* largest |error| / bound; PASS needs <= 1 */
    double rel_err;       /* largest |error| / scale, the relative error */
    long rows_checked;
    long bad;             /* elements over the bound, NaN/Inf, or padding written */
    int pass;
} verify_result;

/* C_in: what C held before the run (poison or C0); C_out: the result.
 * Checks every row when M*N*K <= 2^30, else a random sample of rows plus
 * the first and the last (sample chosen from seed). */
verify_result verify_gemm(int M, int N, int K, float alpha, const float *A, int lda,
                          const float *B, int ldb, float beta, const float *C0,
                          const float *C_in, const float *C_out, int ldc,
                          double err_c, int normwise, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif

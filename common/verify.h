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
 *
 * A failed check says why through its first bad element (lowest row, then column),
 * whatever order the threads checked in: verify_describe turns it into one line.
 */
#ifndef VERIFY_H
#define VERIFY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The poison the harness fills C with when beta == 0: a signalling NaN with a payload no
 * arithmetic produces. An element never written keeps these bits; one that went through
 * arithmetic comes out quiet (0x7fc0dead on a CPU), so reading C can be told apart too. */
#define VERIFY_POISON_BITS 0x7f80deadu
float verify_poison(void);

typedef enum verify_kind {
    VERIFY_OK,
    VERIFY_NONFINITE,   /* NaN or Inf computed where a number was due */
    VERIFY_POISON_READ, /* the poison, made quiet by arithmetic: C read although beta == 0 */
    VERIFY_UNWRITTEN,   /* still what C held before the call (the poison, or C0) */
    VERIFY_OVER_BOUND,  /* a number, farther from the reference than the bound allows */
    VERIFY_PADDING,     /* a column j >= N (between N and ldc) changed */
    VERIFY_INPUT,       /* A or B changed by the call (its element (i, j), or its padding) */
    VERIFY_OUTSIDE      /* written before the first or after the last element of A, B or C */
} verify_kind;

typedef struct verify_bad {
    verify_kind kind;
    int i, j, N;
    float got;    /* what C(i,j) holds */
    double want;  /* the reference; for VERIFY_PADDING, what the padding held before */
    double ratio; /* |got - want| / bound (normwise: the largest error over the normwise bound) */
    int normwise;
    char matrix;  /* VERIFY_INPUT, VERIFY_OUTSIDE: 'A', 'B' or 'C'; for OUTSIDE, j < 0: before its
                     first element, j > 0: after its last (i, j: the first changed float past it) */
} verify_bad;

typedef struct verify_result {
    double max_err_ratio; /* largest |error| / bound; PASS needs <= 1 */
    double rel_err;       /* largest |error| / scale, the relative error */
    long rows_checked;
    long bad;             /* elements over the bound, NaN/Inf, or padding written */
    int pass;
    verify_bad first;     /* the first bad element; kind VERIFY_OK when the check passed */
} verify_result;

/* The bound of an element: err_c (K + 2) u (|alpha| sum|a||b| + |beta||c0|) + err_in |alpha|
 * sum|a||b|, u = 2^-24. err_in: the part that does not grow with K, from inputs rounded before
 * they are multiplied (TF32: 2^-9 of each product); 0 for FP32 products.
 * C_in: what C held before the run, padding included (only its padding is read);
 * C_out: the result. Before the run, C held verify_poison() when beta == 0, else C0:
 * an element still holding that is reported as unwritten.
 * Checks every row when M*N*K <= 2^30, else a random sample of rows plus
 * the first and the last (sample chosen from seed). */
verify_result verify_gemm(int M, int N, int K, float alpha, const float *A, int lda,
                          const float *B, int ldb, float beta, const float *C0,
                          const float *C_in, const float *C_out, int ldc,
                          double err_c, double err_in, int normwise, uint64_t seed);

/* One line for a failed check, e.g. "C(3,12) = NaN, want 0.8125: unwritten (still the
 * NaN poison); 7 bad elements". Writes "" when r passed. */
void verify_describe(const verify_result *r, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif

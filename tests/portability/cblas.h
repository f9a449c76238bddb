/* cblas.h for tests/portability.sh's cross build only: the part of the CBLAS interface the
 * harness compiles against (common/baseline_blas.c), for a target with no BLAS installed.
 * The enumerators' values are the CBLAS standard's. */
#ifndef PORTABILITY_CBLAS_H
#define PORTABILITY_CBLAS_H

enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };

void cblas_sgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int M,
                 int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                 float beta, float *C, int ldc);

#endif

/* baseline_blas.h: the CPU backend of the harness. Its baseline is OpenBLAS's sgemm, or with
 * --baseline mkl|blis that of MKL or BLIS, loaded at run time where installed (exit 77 if not). */
#ifndef BASELINE_BLAS_H
#define BASELINE_BLAS_H

#include "bench.h"

extern const bench_backend openblas_backend;

/* OpenBLAS as a kernel with the contract, for stages that compare against it directly. */
gemm_fn gemm_openblas;

/* OpenBLAS's own extensions, which no other BLAS's cblas.h declares (Debian may put netlib's
 * or BLIS's cblas.h first, through update-alternatives): we link -lopenblas itself. */
void openblas_set_num_threads(int num_threads);
int openblas_get_num_procs(void);
char *openblas_get_config(void);
char *openblas_get_corename(void);

#endif

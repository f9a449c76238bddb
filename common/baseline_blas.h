/* baseline_blas.h: the CPU backend of the harness, with OpenBLAS's sgemm as the baseline. */
#ifndef BASELINE_BLAS_H
#define BASELINE_BLAS_H

#include "bench.h"

extern const bench_backend openblas_backend;

/* The baseline as a kernel with the contract, for stages that compare against it directly. */
gemm_fn gemm_openblas;

/* OpenBLAS's own extensions, which no other BLAS's cblas.h declares (Debian may put netlib's
 * or BLIS's cblas.h first, through update-alternatives): we link -lopenblas itself, and
 * 05_simd/blis_baseline.c answers them for BLIS. */
void openblas_set_num_threads(int num_threads);
int openblas_get_num_procs(void);
char *openblas_get_config(void);
char *openblas_get_corename(void);

#endif

/* baseline_blas.h: the CPU backend of the harness, with OpenBLAS's sgemm as the baseline. */
#ifndef BASELINE_BLAS_H
#define BASELINE_BLAS_H

#include "bench.h"

extern const bench_backend openblas_backend;

/* The baseline as a kernel with the contract, for stages that compare against it directly. */
gemm_fn gemm_openblas;

/* The CPU's model name from /proc/cpuinfo ("unknown CPU" elsewhere). */
const char *cpu_model_name(void);

#endif

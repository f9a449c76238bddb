/* 04_threads: 02's and 03's kernels with the work split over threads. */
#ifndef THREADS_H
#define THREADS_H

#include "gemm.h"

gemm_fn gemm_omp_rows, gemm_omp_tiled, gemm_omp_tiled_dyn, gemm_pthreads_tiled;
gemm_fn gemm_omp_cols, gemm_omp_grid, gemm_pthreads_dyn; /* the exercise's (chapter 04, exercise 1) */

#endif

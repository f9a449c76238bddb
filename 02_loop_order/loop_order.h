#ifndef LOOP_ORDER_H
#define LOOP_ORDER_H
#include "gemm.h"

gemm_fn gemm_ikj, gemm_jik, gemm_jki, gemm_kij, gemm_kji, gemm_transposed_b,
    gemm_transposed_simd;

#endif

#ifndef NAIVE_H
#define NAIVE_H
#include "gemm.h"

gemm_fn gemm_ijk, gemm_ijk_4sums;

#endif

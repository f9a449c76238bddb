/* check.h: the distributed check (check.c). */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

#include "../distributed.h"
#include "verify.h"

/* What a rank's C padding (columns n .. ldc of its local block) holds, and must still hold. */
#define PAD_VALUE (-999.0f)

/* The global rows of C to check (all, or a sample: verify.c's rule); rows needs room for
 * max(M, 32) ints. Every rank gets the same list from the same seed. */
int check_rows(int M, int N, int K, uint64_t seed, int *rows);

/* Collective: the global rows rows[0..nrows) of a matrix with `cols` global columns, laid out
 * on g (its rows over process rows, columns over process columns; X this rank's local block,
 * row stride ld), gathered into out (nrows x cols, row-major) on rank 0. */
void gather_rows(const dist_grid *g, const float *X, int ld, int cols, const int *rows,
                 int nrows, float *out);

/* 1 if every padding element of an m x n local block (row stride ldc) is still PAD_VALUE. */
int padding_intact(int m, int n, const float *C, int ldc);

/* On rank 0: the gathered rows of C against alpha*A*B + beta*C0 in double (C0rows NULL when
 * beta == 0), with verify.c's bound and constant err_c. */
verify_result check_gathered(int nrows, int N, int K, float alpha, const float *Arows,
                             const float *B, float beta, const float *C0rows,
                             const float *Crows, double err_c);

#endif

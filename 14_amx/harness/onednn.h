/* onednn.h: oneDNN's BF16 matmul as a second baseline (--baseline onednn), loaded at run time
 * from the Python environment where `pip install onednn` put it, or ONEDNN_HOME. */
#ifndef ONEDNN_H
#define ONEDNN_H

#include <stdint.h>

/* 0, or 77 after one line on stderr when oneDNN (or a library it needs) is not there. */
int onednn_load(void);
/* For the header: the version and where it came from. */
const char *onednn_describe(void);
/* C = alpha A B + beta C, row-major, BF16 A and B, FP32 C, through a matmul primitive kept for
 * the last shape asked (creating one compiles its kernel: the harness's untimed first call). */
void onednn_bf16(int M, int N, int K, float alpha, const uint16_t *A, int lda, const uint16_t *B,
                 int ldb, float beta, float *C, int ldc);

#endif

/* gpu.h: summa_nccl's side of the program, as the harness calls it: ../nccl.cu where nvcc and
 * NCCL were found at build time, else nccl_none.c (weak stand-ins that say why there is none). */
#ifndef GPU_H
#define GPU_H

#include "../distributed.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One problem as every rank holds it: the global sizes, its local blocks on the host, and
 * the seeds the blocks are filled from (A: seed, B: seed + 1, C0: seed + 2). */
typedef struct dist_problem {
    int M, N, K;
    int m, n;           /* local rows of A and C, local columns of B and C */
    int ka, kb;         /* local columns of A, local rows of B */
    int lda, ldb, ldc;
    float alpha, beta;
    float *A, *B, *C, *C0; /* C0: C before the product (NULL when beta == 0) */
    uint64_t seed;
} dist_problem;

enum gpu_kernel {
    GPU_SUMMA_WARPTILE = 1, /* summa_nccl: panels by NCCL, 09's gemm_warptile */
    GPU_SUMMA_CUBLAS,       /* summa_nccl_cublas: the same with cuBLAS */
    GPU_ALONE_WARPTILE,     /* gemm_warptile on the local blocks in one call (1x1 grid) */
    GPU_ALONE_CUBLAS,       /* cublasSgemm on the local blocks in one call (1x1 grid) */
    GPU_LOCAL_ONLY,         /* summa_nccl's products on random panels, no broadcasts */
};

/* --first-split S: summa_nccl cuts the first block of K into S panels (default 1: none), so
 * that the first broadcast, which nothing hides, is 1/S of a block. Set before gpu_run. */
extern int gpu_first_split;
/* --bcast-ctas N: NCCL's broadcasts use at most N blocks (SMs) each, taken from the products
 * they run beside (default 0: NCCL's own choice). Set before gpu_init. */
extern int gpu_bcast_ctas;

/* NULL if the GPU part is built in; else why not, one line. */
const char *gpu_missing(void);
/* CUDA devices on this machine (0 without the GPU part). */
int gpu_devices(void);
/* Collective. Pick this rank's GPU (device_offset + its rank among the ranks on its node), set
 * up NCCL's communicators for grid g. 0; 77 with no CUDA device (why in *why); 2 if a node has
 * more ranks than GPUs (why in *why). always_pack: pack and broadcast every panel, even where
 * no other rank needs it (--pack). */
int gpu_init(const dist_grid *g, int device_offset, int always_pack, const char **why);
const char *gpu_device_name(void);
const char *gpu_library_names(void); /* "CUDA runtime 13.0, NCCL 2.28.3, cuBLAS 13.1.0" */
const char *gpu_compiler(void);      /* what built the GPU part: "nvcc 13.0.88 + gcc 13.3.0" */
/* Device copies of p's blocks, A, B (and C0) made on the GPU from the seeds; the host's
 * p->A, p->B, p->C0 are then overwritten with copies of them, so the check reads the inputs
 * the GPUs hold. */
void gpu_setup(const dist_grid *g, const dist_problem *p);
void gpu_put_c(const dist_problem *p); /* host C -> the GPU's C */
void gpu_get_c(const dist_problem *p); /* the GPU's C -> host C */
/* Collective for the summa kernels: run one product; returns when it is done. */
void gpu_run(const dist_grid *g, const dist_problem *p, enum gpu_kernel which);
void gpu_teardown(void);
/* --timeline: the next gpu_run of a SUMMA kernel records when each panel's broadcasts and
 * product begin and end (CUDA events on the two streams). gpu_trace_spans, after it: this
 * rank's spans, five doubles each (panel, what: 0 A's piece sent, 1 B's, 2 the product; start
 * and end in ms from the run's start on this GPU; the bytes this rank's piece holds, 0 where
 * nothing was sent); returns their number. */
void gpu_trace_next(void);
int gpu_trace_spans(const dist_grid *g, const dist_problem *p, double **spans);
/* Collective: microseconds of one ncclBroadcast of `bytes` over comm (0: all ranks, 1: my
 * process row, 2: my process column), the median and the minimum of reps, each the slowest
 * rank's time. */
void gpu_bcast_us(const dist_grid *g, int comm, long bytes, int reps, double *median, double *min);

#ifdef __cplusplus
}
#endif

#endif

/* 09_cuda_registers --tune: a grid of warptile and async_pipeline configurations.
 *
 * Each row is one instantiation of the templates in warptile.cuh; the name spells it out:
 *   warptile/BMxBNxBK_wWMxWN_tTMxTN_s2         register-staged double buffering
 *   async_pipeline/BMxBNxBK_wWMxWN_tTMxTN_sS   cp.async, S shared-memory stages
 * Every configuration is valid on any GPU of compute capability 8.0 or later: at most 1024
 * threads, the shared memory (at most 100 KB here) fits the opt-in limit, and a warp tile holds
 * exactly 32 thread tiles. What varies, and what it trades:
 *   block tile    reuse of each loaded element (BM*BN*BK*2 flops per (BM+BN)*BK loads) against
 *                 the number of blocks (waves over 132 SMs) and shared memory per block
 *   warp tile     32x64 or 64x32: which of A or B is broadcast more
 *   thread tile   8x8 (64 accumulators, 2 blocks of 256 threads per SM) or 8x16 (128
 *                 accumulators, about 200 registers, one block)
 *   stages, BK    how far ahead the loads run, against shared memory per block (occupancy)
 */
#include "../cuda_registers.h"
#include "../warptile.cuh"

/* alpha_last, as the stage's own variants (main.cu): err_c, normwise default */
#define ALPHA_LAST 0, 0, 1
#define WT(BM, BN, BK, WM, WN, TM, TN)                                                        \
    {"warptile/" #BM "x" #BN "x" #BK "_w" #WM "x" #WN "_t" #TM "x" #TN "_s2",                \
     "register-staged double buffer", gemm_warptile_t<BM, BN, BK, WM, WN, TM, TN>, ALPHA_LAST}
#define AP(BM, BN, BK, WM, WN, TM, TN, S)                                                     \
    {"async_pipeline/" #BM "x" #BN "x" #BK "_w" #WM "x" #WN "_t" #TM "x" #TN "_s" #S,        \
     "cp.async pipeline", gemm_async_t<BM, BN, BK, WM, WN, TM, TN, S>, ALPHA_LAST, 0,          \
     cuda_needs_sm80, CUDA_NEEDS_SM80}

#define WTP(BM, BN, BK, WM, WN, TM, TN)                                                       \
    {"warptile/" #BM "x" #BN "x" #BK "_w" #WM "x" #WN "_t" #TM "x" #TN "_s2_prefetch",       \
     "fragments of k + 1 read during the FMAs of k",                                          \
     gemm_warptile_t<BM, BN, BK, WM, WN, TM, TN, 1>, ALPHA_LAST}

const gemm_variant tune_variants[] = {
    WTP(128, 256, 16, 32, 64, 8, 8), /* warptile's 128x256 (any_size.cu) */
    WT(128, 128, 8, 32, 64, 8, 8),   /* 256 threads, 2 blocks per SM */
    WT(128, 128, 8, 64, 32, 8, 8),
    WT(128, 128, 16, 32, 64, 8, 8),
    WT(128, 64, 8, 32, 64, 8, 8),    /* 128 threads, 4 blocks per SM */
    WT(64, 128, 8, 32, 64, 8, 8),
    WT(128, 256, 16, 32, 64, 8, 8),  /* 512 threads, 1 block per SM */
    WT(256, 128, 16, 64, 32, 8, 8),
    WT(128, 128, 8, 64, 64, 8, 16),  /* 128 threads, 128 accumulators each */
    WT(256, 128, 8, 64, 64, 8, 16),  /* 256 threads, 128 accumulators each */
    AP(128, 128, 8, 32, 64, 8, 8, 3),
    AP(128, 128, 8, 32, 64, 8, 8, 4),
    AP(128, 128, 16, 32, 64, 8, 8, 3),
    AP(128, 128, 16, 32, 64, 8, 8, 4),
    AP(128, 128, 32, 32, 64, 8, 8, 3),
    AP(64, 128, 16, 32, 64, 8, 8, 4),
    AP(128, 256, 16, 32, 64, 8, 8, 3),
    AP(256, 128, 16, 64, 32, 8, 8, 3),
    AP(128, 128, 16, 64, 64, 8, 16, 3),
    AP(256, 128, 8, 64, 64, 8, 16, 4), /* the shape of cuBLAS's own kernel on the H100 */
    AP(256, 128, 16, 64, 64, 8, 16, 3),
    AP(128, 256, 16, 32, 64, 8, 8, 4),
    AP(128, 256, 32, 32, 64, 8, 8, 3),
};
const int tune_nvariants = sizeof tune_variants / sizeof tune_variants[0];

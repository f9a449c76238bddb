/* tune.cu: --tune, wgmma_persistent's configurations, each alone: the kernel of pipeline.cuh with
 * one thing changed a row (the chapter's "Going further" has what each was worth). */
#include "../pipeline.cuh"
#include "harness.h"

template <int BN, int STAGES, int CLUSTER, int GROUP, bool MC = true, bool SMEM_C = true>
static void tune_fn(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                    const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    if (bf16_edges(M, N, K, alpha, beta, C, ldc))
        return;
    ws_launcher<BN, STAGES, CLUSTER, MC, SMEM_C>::run(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,
                                                    GROUP, true);
}

#define TUNE(NAME, DESC, ...)                                                                 \
    {.name = "persistent/" NAME, .desc = DESC, .fn = gemm_bf16_variant, .err_c = TC_ERR_C,       \
     .runnable = cuda_needs_sm90, .needs = CUDA_NEEDS_SM90,                                     \
     .other_fn = GEMM_OTHER_FN(tune_fn<__VA_ARGS__>)}

/* 256x4_c2_g8 is what wgmma_persistent runs where 128x256 tiles fill the GPU (128x6_c2_g8
 * elsewhere, as at 1024); each other row changes one thing */
const gemm_variant wgmma_tune_variants[] = {
    TUNE("256x4_c2_g8", "128x256 tiles, 4 stages, 2-CTA clusters (B multicast), groups of 8 "
                        "tile rows, C through TMA", 256, 4, 2, 8),
    TUNE("256x4_c1_g8", "the same without clusters: each CTA loads its own B", 256, 4, 1, 8),
    TUNE("256x4_c2nomc_g8", "clusters without multicast: each CTA loads its own B", 256, 4, 2, 8,
         false),
    TUNE("256x4_c2_g8_direct", "C stored from the registers, not through TMA", 256, 4, 2, 8, true,
         false),
    TUNE("256x4_c2_g0", "tiles row by row, not in groups of rows", 256, 4, 2, 0),
    TUNE("256x4_c2_g4", "groups of 4 tile rows", 256, 4, 2, 4),
    TUNE("256x4_c2_g16", "groups of 16 tile rows", 256, 4, 2, 16),
    TUNE("256x3_c2_g8", "3 stages", 256, 3, 2, 8),
    TUNE("128x6_c2_g8", "128x128 tiles, 6 stages", 128, 6, 2, 8),
    TUNE("128x6_c1_g8", "128x128 tiles, 6 stages, no clusters", 128, 6, 1, 8),
};
const int wgmma_tune_nvariants = sizeof wgmma_tune_variants / sizeof wgmma_tune_variants[0];

/* harness.h: what main.cu takes from the stage's own machinery (harness/). */
#ifndef TC_HARNESS_H
#define TC_HARNESS_H

#include "bench_types.h"

/* bf16_backend.cu: the backend of the BF16 variants. A BF16 variant's table row is
 * { "name", "description", gemm_bf16_variant, ..., .other_fn = GEMM_OTHER_FN(f) }: bench.c runs a
 * variant as run(p, fn), fn == NULL meaning the baseline, so fn must be set; cuda_bf16_backend
 * then calls the row's kernel (gemm_bf16_of). Called directly, gemm_bf16_variant says so and
 * exits. cuda_bf16_reference_unrounded(1): check against the product of the unrounded float
 * inputs (what BF16 rounding costs; the checks then fail by design); 0 (default): against the
 * product of the BF16-rounded inputs. */
extern const bench_backend cuda_bf16_backend;
extern const bench_backend cuda_fp16_backend; /* the same on FP16 (--fp16; other_fn a gemm_fp16_fn) */
void gemm_bf16_variant(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                       int ldb, float beta, float *C, int ldc);
void cuda_bf16_reference_unrounded(int on);

/* probe.cu: --probe, how each selected variant's tensor-core instruction adds (a run mode's run,
 * after the backend's init) */
int probe_run(const stage_info *st, bench_opts *o);

/* mma_pipelined.cu: --tune's rows for mma_pipelined, each alone */
extern const gemm_variant mma_tune_variants[];
extern const int mma_tune_nvariants;

/* tune.cu: --tune, wgmma_persistent's configurations, each alone */
extern const gemm_variant wgmma_tune_variants[];
extern const int wgmma_tune_nvariants;

#endif

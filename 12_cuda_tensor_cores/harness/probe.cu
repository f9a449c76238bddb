/* probe.cu: --probe, how each variant's tensor-core instruction adds (the bound's c, README's
 * "The check"): sums of terms whose exact value is known, through the variant itself. */
#include <math.h>
#include <string.h>

#include "bf16.h"
#include "cuda_harness.cuh"
#include "harness.h"

/* ---- --probe ---------------------------------------------------------------------------------- */

#define PK 32 /* K of the probe: two 16-deep instructions */

/* sum_k a[k] b[k] as variant v computes it: A is 1 x PK, B is PK x 8 with b in column 0. A BF16
 * variant gets the terms as BF16 (each must be one); an FP32 one (--fp32) as they are. */
static float probe_sum(const gemm_variant *v, const float *a, const float *b)
{
    const int bf16 = v->other_fn != NULL;
    const size_t es = bf16 ? sizeof(gemm_bf16) : sizeof(float);
    float fa[PK], fb[PK * 8] = {0}, *dC, c[8];
    uint16_t ha[PK], hb[PK * 8] = {0};
    for (int k = 0; k < PK; k++) {
        fa[k] = a[k];
        fb[k * 8] = b[k];
        ha[k] = bf16_round_bits(a[k]);
        hb[k * 8] = bf16_round_bits(b[k]);
        if (bf16 && (bf16_bits_to_float(ha[k]) != a[k] || bf16_bits_to_float(hb[k * 8]) != b[k])) {
            fprintf(stderr, "probe: a term is not a BF16 number\n");
            exit(1);
        }
    }
    void *dA, *dB;
    CUDA_CHECK(cudaMalloc(&dA, PK * es));
    CUDA_CHECK(cudaMalloc(&dB, PK * 8 * es));
    CUDA_CHECK(cudaMalloc((void **)&dC, sizeof c));
    CUDA_CHECK(cudaMemcpy(dA, bf16 ? (const void *)ha : fa, PK * es, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, bf16 ? (const void *)hb : fb, PK * 8 * es, cudaMemcpyHostToDevice));
    if (bf16)
        gemm_bf16_of(v)(1, 8, PK, 1.0f, (gemm_bf16 *)dA, PK, (gemm_bf16 *)dB, 8, 0.0f, dC, 8);
    else
        v->fn(1, 8, PK, 1.0f, (float *)dA, PK, (float *)dB, 8, 0.0f, dC, 8);
    CUDA_CHECK(cudaStreamSynchronize(gemm_stream()));
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(c, dC, sizeof c, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    return c[0];
}

/* Each case puts 1.0 in the accumulator (a[0] b[0] = 1, in the first instruction) and small
 * terms in the second instruction (k = 16..31), whose sum is known exactly:
 *   exact     (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 in one product: are products exact?
 *   rounding  1 + 0.75 ulp(1) (and its negative): nearest gives 1 + ulp, truncation 1
 *   bits e    2^e terms of 2^-e ulp each, sum one ulp: kept if the adder keeps e bits below
 *             the accumulator's last one, lost if each term is cut off alone
 *   block j   two terms of half an ulp at k = 16 and 16 + j: together one ulp, kept only if
 *             they are added before anything is rounded (the same block of the adder) */
static void run_probe(const gemm_variant *v)
{
    const float ulp = ldexpf(1.0f, -23);
    float a[PK], b[PK];
#define RESET() (memset(a, 0, sizeof a), memset(b, 0, sizeof b), a[0] = b[0] = 1.0f)
    printf("%s:\n", v->name);
    RESET();
    a[0] = b[0] = 1.0f + ldexpf(1.0f, -7);
    float d = probe_sum(v, a, b);
    double exact = 1.0 + ldexp(1.0, -6) + ldexp(1.0, -14);
    printf("  exact     (1+2^-7)^2 = %.9g, want %.9g: products %s\n", d, exact,
           d == exact ? "exact" : "ROUNDED");
    RESET();
    a[16] = 0.75f * ulp;
    b[16] = 1.0f;
    float up = probe_sum(v, a, b);
    a[0] = -1.0f;
    a[16] = -0.75f * ulp;
    float down = probe_sum(v, a, b);
    printf("  rounding  1 + 0.75 ulp -> 1 %+g ulp, -1 - 0.75 ulp -> -1 %+g ulp: %s\n",
           (up - 1.0f) / ulp, (down + 1.0f) / ulp,
           up == 1.0f && down == -1.0f       ? "truncation (toward zero)"
           : up == 1.0f + ulp && down == -1.0f - ulp ? "to nearest"
                                                     : "neither");
    int bits = 0;
    for (int e = 1; e <= 4; e++) {
        RESET();
        for (int k = 0; k < (1 << e); k++) {
            a[16 + k] = ldexpf(ulp, -e);
            b[16 + k] = 1.0f;
        }
        d = probe_sum(v, a, b);
        printf("  bits %d    1 + %2d x 2^-%d ulp -> 1 %+g ulp\n", e, 1 << e, e, (d - 1.0f) / ulp);
        if (d == 1.0f + ulp && bits == e - 1)
            bits = e;
    }
    int block = 0;
    for (int j = 1; j < 16; j++) {
        RESET();
        a[16] = a[16 + j] = 0.5f * ulp;
        b[16] = b[16 + j] = 1.0f;
        d = probe_sum(v, a, b);
        if (d != 1.0f + ulp) {
            block = j;
            break;
        }
    }
    if (bits == 0)
        printf("  block     not seen (no bit kept below the last)\n");
    else
        printf("  block     two half-ulp terms k = 16 and 16+j kept together for j < %d\n",
               block ? block : 16);
    /* The bound (README, "The check"): a block of n terms, each cut at F bits below the
     * accumulator's last, then the sum cut to 24 bits: error < K ((1 + 1/n) 2^-F + 1/n) 2u S */
    int n = block ? block : 16;
    double c = 2.0 * ((1.0 + 1.0 / n) * ldexp(1.0, -bits) + 1.0 / n);
    printf("  => %d extra bit%s, blocks of %d: c = %.3g (the table uses %.3g)\n", bits,
           bits == 1 ? "" : "s", n, c, v->err_c);
#undef RESET
}

int probe_run(const stage_info *st, bench_opts *o)
{
    printf("== %s --probe: how the tensor cores add, on %s ==\n", st->stage,
           st->backend->device_name());
    for (int v = 0; v < st->nvariants; v++)
        if (o->selected[v])
            run_probe(&st->variants[v]);
    return 0;
}

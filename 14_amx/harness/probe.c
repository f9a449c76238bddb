/* probe.c: --probe, how VDPBF16PS and TDPBF16PS add. The error bound of a BF16 variant depends
 * on it, and the manuals say little (Intel's pseudo-code for TDPBF16PS adds the products one
 * at a time; the unit does not). Each case runs a variant on a 1 x 16 x 64 product whose sum is
 * known exactly: the first 32 values of K (the first tile, or sixteen VDPBF16PS) leave a known
 * value in the accumulator, the next 32 add a few chosen terms, and the result shows what was
 * kept (chapter 12's method, on the CPU).
 */
#include "probe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../amx.h"

#define PK 64 /* K of a probe: two tiles' worth */
#define PN 16

/* sum_k a[k] b[k] with b[k] = 1 where a term is given (a list of (k, value) pairs ending with
 * k < 0), as variant v sums it. Terms at k < 32 leave their sum in the accumulator; the terms at
 * k >= 32 are the case. */
typedef struct term {
    int k;
    double v;
} term;

static float probe_sum(const gemm_variant *v, const term *t)
{
    uint16_t A[PK] = {0}, B[PK * PN] = {0};
    float C[PN];
    for (; t->k >= 0; t++) {
        A[t->k] = bf16_round_bits((float)t->v);
        B[t->k * PN] = bf16_round_bits(1.0f);
        if (bf16_bits_to_float(A[t->k]) != t->v) {
            fprintf(stderr, "probe: %g is not a BF16 number\n", t->v);
            exit(1);
        }
    }
    gemm_bf16_of(v)(1, PN, PK, 1.0f, (const gemm_bf16 *)A, PK, (const gemm_bf16 *)B, PN, 0.0f, C, PN);
    return C[0];
}

/* one product of two BF16 numbers that are not ones: (1 + 2^-7)^2 needs 15 bits */
static float probe_product(const gemm_variant *v)
{
    uint16_t A[PK] = {0}, B[PK * PN] = {0};
    float C[PN];
    A[32] = B[32 * PN] = bf16_round_bits(1.0f + ldexpf(1.0f, -7));
    gemm_bf16_of(v)(1, PN, PK, 1.0f, (const gemm_bf16 *)A, PK, (const gemm_bf16 *)B, PN, 0.0f, C, PN);
    return C[0];
}

#define T(...) ((const term[]){__VA_ARGS__, {-1, 0}})

static void probe_variant(const gemm_variant *v)
{
    const double ulp = ldexp(1.0, -23), e = ldexp(1.0, 20);
    printf("%s:\n", v->name);
    const double exact = 1.0 + ldexp(1.0, -6) + ldexp(1.0, -14);
    const float p = probe_product(v);
    printf("  exact      (1+2^-7)^2 = %.10g, want %.10g: products %s\n", p, exact,
           p == exact ? "exact" : "ROUNDED");
    const float up = probe_sum(v, T({0, 1.0}, {34, 0.75 * ulp})), down = probe_sum(v, T({0, -1.0}, {34, -0.75 * ulp}));
    const float even = probe_sum(v, T({0, 1.0}, {34, 0.5 * ulp})), odd = probe_sum(v, T({0, 1.0}, {1, ulp}, {34, 0.5 * ulp}));
    const int nearest = up == 1.0f + (float)ulp && down == -1.0f - (float)ulp &&
                        even == 1.0f && odd == 1.0f + 2 * (float)ulp;
    printf("  rounding   1 + 0.75 ulp -> 1 %+g ulp, -1 - 0.75 ulp -> -1 %+g ulp, ties 1 %+g / "
           "(1 + ulp) %+g ulp: %s\n", (up - 1) / ulp, (down + 1) / ulp, (even - 1) / ulp,
           (odd - 1 - ulp) / ulp, nearest ? "to nearest, ties to even" : "NOT to nearest even");
    /* 1 + 2^-24 + 2^-24, all three at even k of one block: one rounding (1 + ulp) or one per add (1) */
    const float chain = probe_sum(v, T({32, 1.0}, {34, ldexp(1.0, -24)}, {36, ldexp(1.0, -24)}));
    printf("  each add   1 + 2^-24 + 2^-24 (k = 32, 34, 36) -> 1 %+g ulp: %s\n", (chain - 1) / ulp,
           chain == 1.0f ? "every add rounds to FP32 (no wider sum)" : "summed wider, rounded once");
    /* 2^20, -2^20, 1, 2^-20 at k = 32..35: one chain in order keeps 2^-20; even and odd products
     * in two chains (2^20 + 1 | -2^20 + 2^-20 -> -2^20) lose it */
    const float split = probe_sum(v, T({32, e}, {33, -e}, {34, 1.0}, {35, 1.0 / e}));
    const float same = probe_sum(v, T({32, e}, {34, -e}, {36, 1.0}, {38, 1.0 / e}));
    const int two_chains = split == 1.0f && same == (float)(1.0 + 1.0 / e);
    printf("  two chains 2^20 - 2^20 + 1 + 2^-20 at k = 32..35 -> %.10g, at even k -> %.10g: %s\n",
           split, same, two_chains ? "even and odd k summed apart" : "one chain");
    /* acc 2^-30, then +1 -1 at k = 32, 33: the block's sum (0) added to the accumulator after the
     * chains (2^-30 kept), or the accumulator first in the chain (lost) */
    const float after = probe_sum(v, T({0, ldexp(1.0, -30)}, {32, 1.0}, {33, -1.0}));
    const float odd_first = probe_sum(v, T({0, 1.0}, {32, ldexp(1.0, -30)}, {33, -1.0}));
    printf("  acc last   2^-30 + (1 - 1) -> %g; 1 + (2^-30 at k = 32, -1 at 33) -> %g: %s\n", after,
           odd_first,
           after != 0.0f ? "the block's products are summed first, then added to the accumulator"
           : odd_first != 0.0f ? "accumulator + odd product, then + even product (one pair at a time)"
                               : "neither");
    const float tiny = probe_sum(v, T({32, ldexp(1.0, -130)}));
    printf("  subnormal  2^-130 -> %g: %s\n", tiny, tiny == 0.0f ? "flushed to zero (DAZ)" : "kept");
    printf("  => c = %.2f in the bound (amx.h says why)\n", v->err_c);
}

int probe_main(const stage_info *st, bench_opts *o)
{
    printf("== %s --probe: how the BF16 instructions add ==\n", st->stage);
    int ran = 0;
    for (int v = 0; v < st->nvariants; v++)
        if (o->selected[v] && st->variants[v].other_fn) {
            probe_variant(&st->variants[v]);
            ran++;
        }
    if (!ran)
        printf("(no BF16 variant this CPU can run was selected)\n");
    return 0;
}

/* tf32_error.c: how far TF32 and 3xTF32 sums are from the harness's FP32 bound, emulated on the
 * CPU (no GPU needed). A program of its own, not part of the stage's:
 *
 *   make build/rel/12_cuda_tensor_cores/tf32_error
 *   build/rel/12_cuda_tensor_cores/tf32_error [--mn 64] [--seed 1] [--sizes K,K,...] [--csv FILE]
 *
 * For each K, fresh inputs from the harness's generator (common/matrix.c: 24 random bits in
 * [-1, 1)), an M x K by K x N product (M = N = --mn), every element compared with the
 * double-precision sum, as common/verify.c does with alpha = 1, beta = 0:
 *     ratio = |C_ij - R_ij| / (c (K + 2) u S_ij),   S_ij = sum_k |A_ik||B_kj|,  u = 2^-24, c = 2
 * (c = 2 is the default c that stages 01-09 pass). One row per method, model and K: the
 * largest ratio and the largest |error| / S_ij. --csv columns: tool, method, model, m, n, k,
 * seed, bound_c (the c above), max_err_ratio, max_rel_err (the largest |error| / S_ij), device
 * ("emulated on" the CPU that ran it), git (the commit built), date (UTC).
 *
 * Methods (what the products are made of):
 *   fp32          a plain FP32 FMA chain over k in order, as each thread of 09's warptile does
 *   tf32_rna      A and B rounded to TF32 (10 explicit mantissa bits) to nearest, ties away from
 *                 zero: cvt.rna.tf32.f32, what the tf32 kernel does when it fills shared memory
 *   tf32_rz       the low 13 bits of each FP32 value dropped (truncation toward zero): what a
 *                 tensor core given raw FP32 bits as .tf32 reads (PTX leaves it unspecified;
 *                 CUTLASS relies on it as its "round toward zero" TF32 conversion)
 *   3xtf32        x = big + small, big = rna(x), small = rna(x - big); per k-step of 8, three
 *                 8-deep instructions into one FP32 accumulator, the small terms first:
 *                 big*small, small*big, then big*big (what the 3xtf32 kernel does)
 *   3xtf32_big_first   the same with big*big first
 * Models of one tensor-core instruction (a block of 8 products of k added to the accumulator);
 * products of TF32 values (11 by 11 bits) are exact in FP32's 24 bits in both:
 *   exact_rn      the 8 products and the accumulator summed exactly, rounded once to nearest
 *                 (exact to 2^-30 of an ulp: only a tie that close could come out otherwise)
 *   trunc2        what --probe measured for BF16 on the H100 (chapter, "The check"), assumed
 *                 for TF32's 8-deep blocks: each of the 9 terms truncated 2 bits below the last
 *                 bit (FP32 ulp) of the largest, the sum truncated toward zero to FP32
 * Neither model is measured for TF32 yet: the GPU's --probe will say which holds.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "sysinfo.h"

#define KSTEP 8     /* k per tensor-core instruction for TF32 (mma m16n8k8, wgmma m64nNk8) */
#define ERR_C 2.0   /* the FP32 bound's c (common/verify.c's default) */

enum method { FP32, TF32_RNA, TF32_RZ, X3_SMALL_FIRST, X3_BIG_FIRST, NMETHODS };
enum model { EXACT_RN, TRUNC2, NMODELS };
static const char *method_name[] = {"fp32", "tf32_rna", "tf32_rz", "3xtf32", "3xtf32_big_first"};
static const char *model_name[] = {"exact_rn", "trunc2"};

static uint32_t bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static float from_bits(uint32_t b)
{
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* cvt.rna.tf32.f32 on a finite x: add half of the 13 dropped bits' weight to the magnitude
 * (sign and magnitude are separate, so a tie goes away from zero), then drop them. */
static float tf32_rna(float x) { return from_bits((bits(x) + 0x1000u) & ~0x1fffu); }
static float tf32_rz(float x) { return from_bits(bits(x) & ~0x1fffu); }

/* x to FP32 toward zero */
static float float_rz(double x)
{
    float f = (float)x;
    return fabs((double)f) > fabs(x) ? nextafterf(f, 0.0f) : f;
}

/* One instruction: acc + sum of n products (exact, in double: 22 significant bits at most),
 * as the model adds them. Each term is cut to a multiple of unit = ulp(largest) / 2^extra. */
static float block_sum(float acc, const double *t, int n, enum model m)
{
    double big = fabs((double)acc);
    for (int i = 0; i < n; i++)
        big = fabs(t[i]) > big ? fabs(t[i]) : big;
    if (big == 0.0)
        return acc + 0.0f;
    int extra = m == TRUNC2 ? 2 : 30;
    int e = ilogb(big) - 23 - extra; /* unit = 2^e */
    int64_t q = (int64_t)ldexp((double)acc, -e); /* the casts truncate toward zero */
    for (int i = 0; i < n; i++)
        q += (int64_t)ldexp(t[i], -e);
    if (m == TRUNC2)
        return float_rz(ldexp((double)q, e)); /* |q| < 2^31: exact in double */
    return (float)ldexpl((long double)q, e);   /* exact in long double, rounded once */
}

/* C(i, j) as method me computes it under model mo, from row i of A and column j of B in their
 * forms: as given, rounded to nearest (also the big parts), truncated, and the small parts. */
static float dot(enum method me, enum model mo, int K, const float *a, const float *b,
                 const float *a_rna, const float *b_rna, const float *a_rz, const float *b_rz,
                 const float *a_sm, const float *b_sm)
{
    float acc = 0.0f;
    if (me == FP32) {
        for (int k = 0; k < K; k++)
            acc = fmaf(a[k], b[k], acc);
        return acc;
    }
    double t[KSTEP];
    for (int k0 = 0; k0 < K; k0 += KSTEP) {
        int n = K - k0 < KSTEP ? K - k0 : KSTEP; /* the kernel's zero padding adds nothing */
        const float *x = me == TF32_RZ ? a_rz : a_rna, *y = me == TF32_RZ ? b_rz : b_rna;
        if (me == TF32_RNA || me == TF32_RZ) {
            for (int i = 0; i < n; i++)
                t[i] = (double)x[k0 + i] * y[k0 + i];
            acc = block_sum(acc, t, n, mo);
            continue;
        }
        /* 3xTF32: x, y are the big parts, a_sm, b_sm the small ones */
        double bb[KSTEP], bs[KSTEP], sb[KSTEP];
        for (int i = 0; i < n; i++) {
            bb[i] = (double)x[k0 + i] * y[k0 + i];
            bs[i] = (double)x[k0 + i] * b_sm[k0 + i];
            sb[i] = (double)a_sm[k0 + i] * y[k0 + i];
        }
        if (me == X3_BIG_FIRST)
            acc = block_sum(acc, bb, n, mo);
        acc = block_sum(acc, bs, n, mo);
        acc = block_sum(acc, sb, n, mo);
        if (me == X3_SMALL_FIRST)
            acc = block_sum(acc, bb, n, mo);
    }
    return acc;
}

static int parse_sizes(const char *s, int *ks, int max)
{
    int n = 0;
    char *end;
    while (*s && n < max) {
        long k = strtol(s, &end, 10);
        if (end == s || k < 1 || k > 1 << 20) {
            fprintf(stderr, "tf32_error: --sizes: '%s' is not a K from 1 to 2^20\n", s);
            exit(2);
        }
        ks[n++] = (int)k;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') {
            fprintf(stderr, "tf32_error: --sizes: '%s' is not a list of K\n", end);
            exit(2);
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    int ks[64], nk = parse_sizes("1,2,3,4,5,6,7,8,12,16,24,32,64,100,128,256,512,1000,1024,2048,"
                                 "3000,4096,8192,10000,16384", ks, 64);
    int mn = 64;
    uint64_t seed0 = 1;
    const char *csv = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--sizes") && v)
            nk = parse_sizes(v, ks, 64), i++;
        else if (!strcmp(argv[i], "--mn") && v && (mn = atoi(v)) >= 1 && mn <= 4096)
            i++;
        else if (!strcmp(argv[i], "--seed") && v)
            seed0 = strtoull(v, NULL, 10), i++;
        else if (!strcmp(argv[i], "--csv") && v)
            csv = v, i++;
        else {
            fprintf(stderr, "tf32_error: bad argument '%s' (see the file's header)\n", argv[i]);
            return 2;
        }
    }
    FILE *out = NULL;
    if (csv) {
        out = fopen(csv, "w");
        if (!out) {
            fprintf(stderr, "tf32_error: --csv: cannot write '%s'\n", csv);
            return 2;
        }
        fprintf(out, "tool,method,model,m,n,k,seed,bound_c,max_err_ratio,max_rel_err,device,git,"
                     "date\n");
    }
    char date[32];
    sysinfo_utc_now(date, sizeof date);
    printf("%-17s %-8s %6s %12s %12s\n", "method", "model", "K", "max ratio", "max err/S");
    for (int ik = 0; ik < nk; ik++) {
        int K = ks[ik], M = mn, N = mn;
        uint64_t seed = seed0 * 0x9E3779B97F4A7C15ull + (uint64_t)K;
        float *A = matrix_alloc(M, K), *B = matrix_alloc(K, N);
        size_t na = (size_t)M * K, nb = (size_t)N * K;
        float *buf = malloc(sizeof(float) * 4 * (na + nb)); /* rna, rz, small for A; B by columns x4 */
        if (!A || !B || !buf) {
            fprintf(stderr, "tf32_error: out of memory at K = %d\n", K);
            return 1;
        }
        matrix_fill_random(A, M, K, K, seed);
        matrix_fill_random(B, K, N, N, seed + 1);
        float *a_rna = buf, *a_rz = a_rna + na, *a_sm = a_rz + na;
        float *bt = a_sm + na, *b_rna = bt + nb, *b_rz = b_rna + nb, *b_sm = b_rz + nb;
        for (size_t e = 0; e < na; e++) {
            a_rna[e] = tf32_rna(A[e]);
            a_rz[e] = tf32_rz(A[e]);
            a_sm[e] = tf32_rna(A[e] - a_rna[e]); /* exact difference: both within 2^-11 */
        }
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++) {
                size_t e = (size_t)j * K + k;
                bt[e] = B[(size_t)k * N + j];
                b_rna[e] = tf32_rna(bt[e]);
                b_rz[e] = tf32_rz(bt[e]);
                b_sm[e] = tf32_rna(bt[e] - b_rna[e]);
            }
        double ratio[NMETHODS][NMODELS] = {{0}}, rel[NMETHODS][NMODELS] = {{0}};
        const double u = ldexp(1.0, -24);
#pragma omp parallel for schedule(dynamic) reduction(max : ratio[:NMETHODS][:NMODELS], \
                                                              rel[:NMETHODS][:NMODELS])
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                const float *a = A + (size_t)i * K, *b = bt + (size_t)j * K;
                double R = 0, S = 0; /* as common/verify.c: in double, k in order */
                for (int k = 0; k < K; k++) {
                    R += (double)a[k] * b[k];
                    S += fabs((double)a[k] * b[k]);
                }
                for (int me = 0; me < NMETHODS; me++)
                    for (int mo = 0; mo < (me == FP32 ? 1 : NMODELS); mo++) {
                        size_t ia = (size_t)i * K, jb = (size_t)j * K;
                        float c = dot(me, mo, K, a, b, a_rna + ia, b_rna + jb, a_rz + ia,
                                      b_rz + jb, a_sm + ia, b_sm + jb);
                        double err = fabs((double)c - R);
                        double r = err / (ERR_C * (K + 2) * u * S + FLT_MIN);
                        double q = err / (S > 0 ? S : FLT_MIN);
                        ratio[me][mo] = r > ratio[me][mo] ? r : ratio[me][mo];
                        rel[me][mo] = q > rel[me][mo] ? q : rel[me][mo];
                    }
            }
        for (int me = 0; me < NMETHODS; me++)
            for (int mo = 0; mo < (me == FP32 ? 1 : NMODELS); mo++) {
                const char *mod = me == FP32 ? "fma" : model_name[mo];
                printf("%-17s %-8s %6d %12.4g %12.3g\n", method_name[me], mod, K, ratio[me][mo],
                       rel[me][mo]);
                if (out)
                    fprintf(out, "tf32_error,%s,%s,%d,%d,%d,%llu,%g,%.6g,%.6g,emulated on %s,%s,%s\n",
                            method_name[me], mod, M, N, K, (unsigned long long)seed0, ERR_C,
                            ratio[me][mo], rel[me][mo], sysinfo_cpu_model(), sysinfo_git_rev(),
                            date);
            }
        fflush(stdout);
        matrix_free(A);
        matrix_free(B);
        free(buf);
    }
    if (out && fclose(out) != 0) {
        fprintf(stderr, "tf32_error: --csv: error writing '%s'\n", csv);
        return 1;
    }
    return 0;
}

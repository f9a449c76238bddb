#include "verify.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"

#define FULL_CHECK_LIMIT (1.0 * (1 << 30)) /* M*N*K up to this: check every row */
#define SAMPLE_WORK (1.0 * (1 << 28))       /* else about this many MACs of sampled rows */
#define MIN_SAMPLED_ROWS 32                  /* and at least this many rows */
#define RG 8 /* rows checked together: each pass over a slice of B serves RG rows */

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Rows to check: all of them, or first, last and a stratified sample: the rows are cut into
 * equal strata and one random row is taken from each, so that every band of rows (every row
 * of tiles a multi-GPU run hands out) is checked at least once. */
static int choose_rows(int M, int N, int K, uint64_t seed, int *rows)
{
    if ((double)M * N * K <= FULL_CHECK_LIMIT) {
        for (int i = 0; i < M; i++)
            rows[i] = i;
        return M;
    }
    int want = (int)(SAMPLE_WORK / ((double)N * K));
    if (want < MIN_SAMPLED_ROWS)
        want = MIN_SAMPLED_ROWS;
    if (want > M)
        want = M;
    int n = 0;
    rows[n++] = 0;
    if (M > 1 && want > 1)
        rows[n++] = M - 1;
    uint64_t s = seed | 1;
    int strata = want - n;
    for (int t = 0; t < strata; t++) {
        long lo = (long)M * t / strata, hi = (long)M * (t + 1) / strata;
        rows[n++] = (int)(lo + (long)(next_rand(&s) % (uint64_t)(hi - lo)));
    }
    return n;
}

float verify_poison(void)
{
    uint32_t bits = VERIFY_POISON_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* Is a before b (lower row, then lower column)? Anything is before "none yet". */
static int earlier(const verify_bad *a, const verify_bad *b)
{
    return b->kind == VERIFY_OK || a->i < b->i || (a->i == b->i && a->j < b->j);
}

/* What is wrong with one element, if anything. */
static verify_kind classify(float got, uint32_t before, double ratio, int normwise)
{
    uint32_t b = bits_of(got);
    if (b == before && (!isfinite(got) || (!normwise && !(ratio <= 1.0))))
        return VERIFY_UNWRITTEN;
    if (!isfinite(got))
        return (b & 0x7fffffffu) == (VERIFY_POISON_BITS | 0x00400000u) ? VERIFY_POISON_READ
                                                                       : VERIFY_NONFINITE;
    if (!normwise && !(ratio <= 1.0))
        return VERIFY_OVER_BOUND;
    return VERIFY_OK;
}

verify_result verify_gemm(int M, int N, int K, float alpha, const float *A, int lda,
                          const float *B, int ldb, float beta, const float *C0,
                          const float *C_in, const float *C_out, int ldc,
                          double err_c, double err_in, int normwise, uint64_t seed)
{
    verify_result res = {0};
    const double u = ldexp(1.0, -24);
    const double c = err_c > 0 ? err_c : 2.0;
    const double tiny = FLT_MIN;
    int *rows = malloc(sizeof(int) * (size_t)(M > MIN_SAMPLED_ROWS ? M : MIN_SAMPLED_ROWS));
    if (!rows) {
        res.bad = -1;
        return res;
    }
    int nrows = choose_rows(M, N, K, seed, rows);
    double max_scale = 0, max_err = 0, max_rel = 0, max_ratio = 0;
    long bad = 0;
    verify_bad first = {VERIFY_OK}, worst = {VERIFY_OK}; /* worst: the largest finite error */
    double worst_err = -1;
    enum { CHUNK = 256 };
    long nchunks = (N + CHUNK - 1) / CHUNK, ngroups = (nrows + RG - 1) / RG;

    /* One piece of work is CHUNK columns of a group of up to RG checked rows: alpha*A*B +
     * beta*C0 in double, and |alpha||A||B| + |beta||C0|. Each row of B's slice is read once
     * for the whole group (a sampled check of n = 131072 streams B a few times, not once per
     * row). Splitting groups x column chunks over the threads keeps them all busy for a few
     * wide rows and for millions of one-column rows alike. The check uses every core,
     * whatever thread count the kernel is being measured with. */
#pragma omp parallel for schedule(dynamic, 16) num_threads(omp_get_num_procs()) reduction(+ : bad) \
    reduction(max : max_scale, max_err, max_rel, max_ratio)
    for (long w = 0; w < ngroups * nchunks; w++) {
        int g0 = (int)(w / nchunks) * RG;
        int ng = nrows - g0 < RG ? nrows - g0 : RG;
        int j0 = (int)(w % nchunks) * CHUNK;
        int j1 = j0 + CHUNK < N ? j0 + CHUNK : N;
        double ref[RG][CHUNK], absref[RG][CHUNK];
        verify_bad lfirst = {VERIFY_OK}, lworst = {VERIFY_OK};
        double lworst_err = -1;
        for (int r = 0; r < ng; r++)
            for (int j = j0; j < j1; j++)
                ref[r][j - j0] = absref[r][j - j0] = 0.0;
        for (int k = 0; k < K; k++) {
            const float *b = &B[IDX(k, 0, ldb)];
            for (int r = 0; r < ng; r++) {
                double a = A[IDX(rows[g0 + r], k, lda)];
                for (int j = j0; j < j1; j++) {
                    ref[r][j - j0] += a * b[j];
                    absref[r][j - j0] += fabs(a * b[j]);
                }
            }
        }
        for (int r = 0; r < ng; r++) {
            int i = rows[g0 + r];
            for (int j = j0; j < j1; j++) {
                double c0 = beta != 0.0f ? C0[IDX(i, j, ldc)] : 0.0;
                double R = alpha * ref[r][j - j0] + beta * c0;
                double scale = fabs(alpha) * absref[r][j - j0] + fabs(beta) * fabs(c0);
                float gotf = C_out[IDX(i, j, ldc)];
                double got = gotf;
                double err = isfinite(got) ? fabs(got - R) : INFINITY;
                double ratio = err / (c * (K + 2) * u * scale +
                                      err_in * fabs(alpha) * absref[r][j - j0] + tiny);
                if (scale > max_scale)
                    max_scale = scale;
                if (err > max_err)
                    max_err = err;
                double rel = err / (scale > 0 ? scale : tiny);
                if (rel > max_rel)
                    max_rel = rel;
                if (!normwise && ratio > max_ratio)
                    max_ratio = ratio;
                uint32_t before = beta != 0.0f ? bits_of(C0[IDX(i, j, ldc)]) : VERIFY_POISON_BITS;
                verify_bad e = {classify(gotf, before, ratio, normwise), i, j, N, gotf, R, ratio, 0};
                if (e.kind != VERIFY_OK) {
                    bad++;
                    if (earlier(&e, &lfirst))
                        lfirst = e;
                } else if (normwise && (err > lworst_err || (err == lworst_err && earlier(&e, &lworst)))) {
                    lworst = e;
                    lworst_err = err;
                }
            }
            /* The padding between N and ldc must be exactly what it was. */
            if (j1 == N && ldc > N &&
                memcmp(&C_in[IDX(i, N, ldc)], &C_out[IDX(i, N, ldc)],
                       sizeof(float) * (size_t)(ldc - N)) != 0) {
                for (int j = N; j < ldc; j++)
                    if (bits_of(C_in[IDX(i, j, ldc)]) != bits_of(C_out[IDX(i, j, ldc)])) {
                        verify_bad e = {VERIFY_PADDING, i, j, N, C_out[IDX(i, j, ldc)],
                                        C_in[IDX(i, j, ldc)], 0, 0};
                        bad++;
                        if (earlier(&e, &lfirst))
                            lfirst = e;
                    }
            }
        }
        /* Deterministic whatever the schedule: the lowest (i, j) and the largest error win. */
        if (lfirst.kind != VERIFY_OK || lworst_err >= 0) {
#pragma omp critical(verify_first)
            {
                if (lfirst.kind != VERIFY_OK && earlier(&lfirst, &first))
                    first = lfirst;
                if (lworst_err > worst_err || (lworst_err == worst_err && lworst_err >= 0 &&
                                               earlier(&lworst, &worst))) {
                    worst = lworst;
                    worst_err = lworst_err;
                }
            }
        }
    }
    if (normwise) {
        max_ratio = max_err / (c * (K + 2) * u * max_scale + tiny);
        max_rel = max_err / (max_scale > 0 ? max_scale : tiny);
        if (!(max_ratio <= 1.0)) {
            if (bad == 0)
                bad = 1; /* no element is bad on its own: the matrix is */
            if (first.kind == VERIFY_OK && worst_err >= 0) {
                first = worst;
                first.kind = VERIFY_OVER_BOUND;
                first.ratio = worst_err / (c * (K + 2) * u * max_scale + tiny);
                first.normwise = 1;
            }
        }
    }
    res.max_err_ratio = max_ratio;
    res.rel_err = max_rel;
    res.rows_checked = nrows;
    res.bad = bad;
    res.pass = bad == 0;
    res.first = first;
    free(rows);
    return res;
}

static void format_value(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "NaN");
    else if (isinf(v))
        snprintf(buf, len, "%sInf", v < 0 ? "-" : "");
    else
        snprintf(buf, len, "%.9g", v);
}

void verify_describe(const verify_result *r, char *buf, size_t len)
{
    const verify_bad *e = &r->first;
    char got[32], want[32], why[128], count[80];
    if (r->pass) {
        snprintf(buf, len, "%s", "");
        return;
    }
    if (e->kind == VERIFY_OK) {
        snprintf(buf, len, "the check could not run (out of memory)");
        return;
    }
    format_value(got, sizeof got, e->got);
    format_value(want, sizeof want, e->want);
    snprintf(count, sizeof count, "%ld bad element%s in %ld row%s checked", r->bad,
             r->bad == 1 ? "" : "s", r->rows_checked, r->rows_checked == 1 ? "" : "s");
    if (e->kind == VERIFY_INPUT) {
        snprintf(buf, len, "%c(%d,%d) = %s, was %s: the call changed its input %c (a kernel reads A "
                 "and B, never writes them)", e->matrix, e->i, e->j, got, want, e->matrix);
        return;
    }
    if (e->kind == VERIFY_OUTSIDE) {
        snprintf(buf, len, "written %d float%s %s %c (outside the matrix: a bad index or loop bound)",
                 e->j < 0 ? -e->j : e->j, (e->j == 1 || e->j == -1) ? "" : "s",
                 e->j < 0 ? "before the first element of" : "past the last element of", e->matrix);
        return;
    }
    if (e->kind == VERIFY_PADDING) {
        snprintf(buf, len, "C(%d,%d) = %s, was %s: written into the padding (column %d >= N = %d); %s",
                 e->i, e->j, got, want, e->j, e->N, count);
        return;
    }
    switch (e->kind) {
    case VERIFY_UNWRITTEN:
        snprintf(why, sizeof why, "unwritten (%s)", isnan(e->got) ? "still the NaN poison"
                                                   : "still the value C held before the call");
        break;
    case VERIFY_POISON_READ:
        snprintf(why, sizeof why, "NaN carried from the poison: C was read although beta = 0");
        break;
    case VERIFY_NONFINITE:
        snprintf(why, sizeof why, "%s where a number was due", isnan(e->got) ? "NaN" : "Inf");
        break;
    default:
        if (e->normwise) {
            snprintf(buf, len, "C(%d,%d) = %s, want %s: the largest error, %.2g, is %.3gx the "
                     "normwise bound", e->i, e->j, got, want, fabs(e->got - e->want), e->ratio);
            return;
        }
        snprintf(why, sizeof why, "error %.2g is %.3gx the bound", fabs(e->got - e->want), e->ratio);
    }
    snprintf(buf, len, "C(%d,%d) = %s, want %s: %s; %s", e->i, e->j, got, want, why, count);
}

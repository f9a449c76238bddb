#include "verify.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"

#define FULL_CHECK_LIMIT (1.0 * (1 << 30)) /* M*N*K up to this: check every row */
#define SAMPLE_WORK (1.0 * (1 << 28))       /* else about this many MACs of sampled rows */

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Rows to check: all of them, or first, last and a random sample. */
static int choose_rows(int M, int N, int K, uint64_t seed, int *rows)
{
    if ((double)M * N * K <= FULL_CHECK_LIMIT) {
        for (int i = 0; i < M; i++)
            rows[i] = i;
        return M;
    }
    int want = (int)(SAMPLE_WORK / ((double)N * K));
    if (want < 8)
        want = 8;
    if (want > M)
        want = M;
    int n = 0;
    rows[n++] = 0;
    if (M > 1)
        rows[n++] = M - 1;
    uint64_t s = seed | 1;
    while (n < want)
        rows[n++] = (int)(next_rand(&s) % (uint64_t)M);
    return n;
}

verify_result verify_gemm(int M, int N, int K, float alpha, const float *A, int lda,
                          const float *B, int ldb, float beta, const float *C0,
                          const float *C_in, const float *C_out, int ldc,
                          double err_c, int normwise, uint64_t seed)
{
    verify_result res = {0};
    const double u = ldexp(1.0, -24);
    const double c = err_c > 0 ? err_c : 2.0;
    const double tiny = FLT_MIN;
    int *rows = malloc(sizeof(int) * (size_t)(M > 8 ? M : 8));
    if (!rows) {
        res.bad = -1;
        return res;
    }
    int nrows = choose_rows(M, N, K, seed, rows);
    double max_scale = 0, max_err = 0, max_rel = 0, max_ratio = 0;
    long bad = 0;
    enum { CHUNK = 256 };
    long nchunks = (N + CHUNK - 1) / CHUNK;

    /* One piece of work is CHUNK columns of one checked row: alpha*A*B + beta*C0 in double,
     * and |alpha||A||B| + |beta||C0|. Splitting rows x column chunks over the threads keeps
     * them all busy for a few wide sampled rows and for millions of one-column rows alike.
     * The check uses every core, whatever thread count the kernel is being measured with. */
#pragma omp parallel for schedule(dynamic, 16) num_threads(omp_get_num_procs()) reduction(+ : bad) \
    reduction(max : max_scale, max_err, max_rel, max_ratio)
    for (long w = 0; w < (long)nrows * nchunks; w++) {
        int i = rows[w / nchunks];
        int j0 = (int)(w % nchunks) * CHUNK;
        int j1 = j0 + CHUNK < N ? j0 + CHUNK : N;
        double ref[CHUNK], absref[CHUNK];
        for (int j = j0; j < j1; j++)
            ref[j - j0] = absref[j - j0] = 0.0;
        for (int k = 0; k < K; k++) {
            double a = A[IDX(i, k, lda)];
            const float *b = &B[IDX(k, 0, ldb)];
            for (int j = j0; j < j1; j++) {
                ref[j - j0] += a * b[j];
                absref[j - j0] += fabs(a * b[j]);
            }
        }
        for (int j = j0; j < j1; j++) {
            double c0 = beta != 0.0f ? C0[IDX(i, j, ldc)] : 0.0;
            double R = alpha * ref[j - j0] + beta * c0;
            double scale = fabs(alpha) * absref[j - j0] + fabs(beta) * fabs(c0);
            double got = C_out[IDX(i, j, ldc)];
            double err = fabs(got - R);
            if (!isfinite(got)) {
                bad++;
                err = INFINITY;
            }
            if (scale > max_scale)
                max_scale = scale;
            if (err > max_err)
                max_err = err;
            double rel = err / (scale > 0 ? scale : tiny);
            if (rel > max_rel)
                max_rel = rel;
            if (!normwise) {
                double ratio = err / (c * (K + 2) * u * scale + tiny);
                if (ratio > max_ratio)
                    max_ratio = ratio;
                if (!(ratio <= 1.0))
                    bad++;
            }
        }
        /* The padding between N and ldc must be exactly what it was. */
        if (j1 == N && ldc > N &&
            memcmp(&C_in[IDX(i, N, ldc)], &C_out[IDX(i, N, ldc)], sizeof(float) * (size_t)(ldc - N)) != 0)
            bad++;
    }
    if (normwise) {
        max_ratio = max_err / (c * (K + 2) * u * max_scale + tiny);
        max_rel = max_err / (max_scale > 0 ? max_scale : tiny);
        if (!(max_ratio <= 1.0))
            bad++;
    }
    res.max_err_ratio = max_ratio;
    res.rel_err = max_rel;
    res.rows_checked = nrows;
    res.bad = bad;
    res.pass = bad == 0;
    free(rows);
    return res;
}

/* check.c: the check, as stage 10 does it, on distributed matrices. Rank 0 gathers the inputs
 * as the ranks hold them (B whole, A's sampled rows, C0's sampled rows: once per size) and,
 * after each checked run, C's sampled rows, then holds them to the double-precision bound of
 * common/verify.c. Every rank checks its own C padding (columns n .. ldc) itself. */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "verify.h"

#define FULL_CHECK_LIMIT (1.0 * (1 << 30)) /* as verify.c: M*N*K up to this, every row */
#define SAMPLE_WORK (1.0 * (1 << 28))
#define MIN_SAMPLED_ROWS 32
#define GATHER_FLOATS (1L << 26) /* rows gathered at a time: MPI counts are ints */

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* verify.c's choice of rows: all of them, or the first, the last and one from each of equal
 * strata (so every band of rows, every process row, is checked). */
int check_rows(int M, int N, int K, uint64_t seed, int *rows)
{
    if ((double)M * N * K <= FULL_CHECK_LIMIT) {
        for (int i = 0; i < M; i++)
            rows[i] = i;
        return M;
    }
    int want = (int)(SAMPLE_WORK / ((double)N * (K > 0 ? K : 1)));
    want = want < MIN_SAMPLED_ROWS ? MIN_SAMPLED_ROWS : want > M ? M : want;
    int n = 0;
    rows[n++] = 0;
    if (M > 1 && want > 1)
        rows[n++] = M - 1;
    uint64_t s = seed | 1;
    const int strata = want - n;
    for (int t = 0; t < strata; t++) {
        long lo = (long)M * t / strata, hi = (long)M * (t + 1) / strata;
        rows[n++] = (int)(lo + (long)(next_rand(&s) % (uint64_t)(hi - lo)));
    }
    return n;
}

void gather_rows(const dist_grid *g, const float *X, int ld, int cols, const int *rows,
                 int nrows, float *out)
{
    int nranks, me;
    MPI_Comm_size(g->all, &nranks);
    MPI_Comm_rank(g->all, &me);
    const int my_n = local_count(cols, g->nb, g->mycol, g->npcol);
    const int batch = (int)(GATHER_FLOATS / (cols > 0 ? cols : 1)) + 1;
    int *counts = malloc(sizeof(int) * 2 * (size_t)nranks), *displs = counts + nranks;
    float *send = matrix_alloc(batch, my_n > 0 ? my_n : 1);
    float *recv = me == 0 ? matrix_alloc(batch, cols > 0 ? cols : 1) : NULL;
    if (!counts || !send || (me == 0 && !recv)) {
        fprintf(stderr, "check: cannot allocate the gather buffers\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int r0 = 0; r0 < nrows; r0 += batch) {
        const int r1 = r0 + batch < nrows ? r0 + batch : nrows;
        /* mine: the rows of this batch that my process row holds, my columns of each */
        int sent = 0;
        for (int r = r0; r < r1; r++)
            if (owner_of(rows[r], g->nb, g->nprow) == g->myrow) {
                const int li = local_of(rows[r], g->nb, g->nprow);
                memcpy(send + (size_t)sent * my_n, &X[IDX(li, 0, ld)], sizeof(float) * (size_t)my_n);
                sent++;
            }
        /* every rank's share, in rank order */
        int total = 0;
        for (int q = 0; q < nranks; q++) {
            const int qrow = q / g->npcol, qcol = q % g->npcol;
            int owned = 0;
            for (int r = r0; r < r1; r++)
                owned += owner_of(rows[r], g->nb, g->nprow) == qrow;
            counts[q] = owned * local_count(cols, g->nb, qcol, g->npcol);
            displs[q] = total;
            total += counts[q];
        }
        MPI_Gatherv(send, sent * my_n, MPI_FLOAT, recv, counts, displs, MPI_FLOAT, 0, g->all);
        if (me != 0)
            continue;
        /* put each piece back at its global columns */
        for (int q = 0; q < nranks; q++) {
            const int qrow = q / g->npcol, qcol = q % g->npcol;
            const int qn = local_count(cols, g->nb, qcol, g->npcol);
            const float *piece = recv + displs[q];
            for (int r = r0; r < r1; r++) {
                if (owner_of(rows[r], g->nb, g->nprow) != qrow)
                    continue;
                float *dst = out + (size_t)r * cols;
                for (int j = 0; j < qn; j++)
                    dst[global_of(j, g->nb, qcol, g->npcol)] = piece[j];
                piece += qn;
            }
        }
    }
    free(counts);
    matrix_free(send);
    matrix_free(recv);
}

int padding_intact(int m, int n, const float *C, int ldc)
{
    long bad = 0;
    for (int i = 0; i < m; i++)
        for (int j = n; j < ldc; j++)
            bad += memcmp(&C[IDX(i, j, ldc)], &(float){PAD_VALUE}, sizeof(float)) != 0;
    return bad == 0;
}

verify_result check_gathered(int nrows, int N, int K, float alpha, const float *Arows,
                             const float *B, float beta, const float *C0rows,
                             const float *Crows, double err_c)
{
    /* verify_gemm checks every row it is given when rows*N*K <= 2^30: give it that many at a
     * time (one row at a time for the widest problems) and keep the worst. */
    verify_result all = {0};
    all.pass = 1;
    long group = (long)(FULL_CHECK_LIMIT / ((double)N * (K > 0 ? K : 1)));
    group = group < 1 ? 1 : group;
    for (int r0 = 0; r0 < nrows; r0 += (int)group) {
        const int rn = nrows - r0 < group ? nrows - r0 : (int)group;
        const size_t a = (size_t)r0 * K, c = (size_t)r0 * N;
        verify_result v = verify_gemm(rn, N, K, alpha, Arows + a, K > 0 ? K : 1, B, N, beta,
                                      C0rows ? C0rows + c : NULL, Crows + c, Crows + c, N, err_c,
                                      0.0, 0, 0);
        all.max_err_ratio = fmax(all.max_err_ratio, v.max_err_ratio);
        all.rel_err = fmax(all.rel_err, v.rel_err);
        all.rows_checked += v.rows_checked;
        all.bad += v.bad;
        all.pass = all.pass && v.pass;
    }
    return all;
}

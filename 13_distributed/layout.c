/* layout.c: what the distributed variants share beside the panel loop: the random fill of a
 * rank's blocks, C = beta*C on a block, the compute-only run (local_only), and --slices. */
#include "distributed.h"

#include <stdlib.h>

#include "../05_simd/simd.h"
#include "matrix.h"

int summa_slices = 8;

void fill_local_random(float *X, int ld, long rows, long cols, int nb, int prow, int nprow,
                       int pcol, int npcol, uint64_t seed)
{
    const int m = local_count((int)rows, nb, prow, nprow), n = local_count((int)cols, nb, pcol, npcol);
#pragma omp parallel for schedule(static) if ((double)m * n > (1 << 20))
    for (int i = 0; i < m; i++) {
        const long gi = global_of(i, nb, prow, nprow);
        for (int j = 0; j < n; j++)
            X[IDX(i, j, ld)] = random_entry(seed, gi, global_of(j, nb, pcol, npcol), cols);
    }
}

void scale_local(int m, int n, float beta, float *C, int ldc)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            C[IDX(i, j, ldc)] = beta == 0.0f ? 0.0f : beta * C[IDX(i, j, ldc)];
}

void local_only(const dist_grid *g, int M, int N, int K, float alpha, const float *A, int lda,
                const float *B, int ldb, float beta, float *C, int ldc)
{
    (void)A, (void)lda, (void)B, (void)ldb;
    const int m = local_count(M, g->nb, g->myrow, g->nprow);
    const int n = local_count(N, g->nb, g->mycol, g->npcol);
    static float *zeros;
    static size_t cap;
    const size_t need = (size_t)g->nb * (size_t)(m > n ? m : n);
    if (need > cap) { /* zeros, not garbage: a denormal or NaN would change the FMAs' speed */
        free(zeros);
        zeros = calloc(need ? need : 1, sizeof(float));
        if (!zeros)
            MPI_Abort(MPI_COMM_WORLD, 1);
        cap = need;
    }
    for (int k0 = 0; k0 < K; k0 += g->nb) {
        const int w = K - k0 < g->nb ? K - k0 : g->nb;
        gemm_simd(m, n, w, alpha, zeros, w, zeros, n, k0 == 0 ? beta : 1.0f, C, ldc);
    }
}

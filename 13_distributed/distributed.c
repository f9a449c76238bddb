/* distributed.c: SUMMA, the Scalable Universal Matrix Multiplication Algorithm (van de Geijn
 * and Watts, 1997), on MPI. The product is a sum of rank-nb updates, one per panel of K:
 *
 *   C = sum over k-panels p of  A(:, p) * B(p, :)
 *
 * On the grid, rank (r, c) holds C's block (r, c), so for each panel it needs A(:, p)'s rows of
 * process row r and B(p, :)'s columns of process column c. Those live on one process column
 * (A's panel) and one process row (B's panel): the owner of each broadcasts its piece along its
 * process row (A) or process column (B), and every rank then adds the product of the two pieces
 * to its block of C:
 *
 *              B(p, :) broadcast down each process column
 *                    |        |        |
 *   A(:, p)  --->  C(0,0)   C(0,1)   C(0,2)      each rank: C(r, c) += A(r, p) * B(p, c)
 *   broadcast --->  C(1,0)   C(1,1)   C(1,2)
 *   along rows
 *
 * summa          blocking broadcasts, then the product: the network and the cores take turns
 * summa_overlap  panel p+1's broadcasts (MPI_Ibcast) in flight while panel p is multiplied,
 *                into the other of two buffers
 *
 * The local product is stage 05's packed GEMM (gemm_simd), linked, as 06 links it.
 */
#include "distributed.h"

#include "../05_simd/simd.h"
#include "matrix.h"

static int min_int(int a, int b) { return a < b ? a : b; }

/* Copy rows x cols of X (row stride ldx) into dst, packed (row stride cols). */
static void copy_block(int rows, int cols, const float *X, int ldx, float *dst)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            dst[IDX(i, j, cols)] = X[IDX(i, j, ldx)];
}

/* The panel buffers, kept from one call to the next (a fresh malloc would fault its pages in
 * on every call): buffer `which` of at least `floats` floats. */
static float *panel_buffer(int which, size_t floats)
{
    static float *buf[4];
    static size_t cap[4];
    return matrix_scratch(&buf[which], &cap[which], floats ? floats : 1, "summa: panel buffers");
}

/* Panel kb of K is global columns kb*nb .. of A and rows kb*nb .. of B: the process column
 * holding those columns of A, the process row holding those rows of B, and where they start
 * in those ranks' local matrices. */
typedef struct panel {
    int k0, width;     /* global start and width in K */
    int a_root, b_root; /* the owners: a process column, a process row */
    int a_col, b_row;  /* local column of A, local row of B, on the owners */
} panel;

static panel panel_of(const dist_grid *g, int K, int kb)
{
    panel p;
    p.k0 = kb * g->nb;
    p.width = min_int(g->nb, K - p.k0);
    p.a_root = owner_of(p.k0, g->nb, g->npcol);
    p.b_root = owner_of(p.k0, g->nb, g->nprow);
    p.a_col = local_of(p.k0, g->nb, g->npcol);
    p.b_row = local_of(p.k0, g->nb, g->nprow);
    return p;
}

void summa(const dist_grid *g, int M, int N, int K, float alpha, const float *A, int lda,
           const float *B, int ldb, float beta, float *C, int ldc)
{
    const int m = local_count(M, g->nb, g->myrow, g->nprow); /* my rows of C and A */
    const int n = local_count(N, g->nb, g->mycol, g->npcol); /* my columns of C and B */
    if (M <= 0 || N <= 0)
        return;
    if (K <= 0 || alpha == 0.0f) { /* nothing to add: C = beta*C, A and B not read */
        scale_local(m, n, beta, C, ldc);
        return;
    }
    float *apanel = panel_buffer(0, (size_t)m * g->nb), *bpanel = panel_buffer(1, (size_t)g->nb * n);
    for (int kb = 0; kb * g->nb < K; kb++) {
        const panel p = panel_of(g, K, kb);
        /* 1. the owners pack their piece of the panel: m x width of A, width x n of B */
        if (g->mycol == p.a_root)
            copy_block(m, p.width, &A[IDX(0, p.a_col, lda)], lda, apanel);
        if (g->myrow == p.b_root)
            copy_block(p.width, n, &B[IDX(p.b_row, 0, ldb)], ldb, bpanel);
        /* 2. A's piece along my process row, B's along my process column */
        MPI_Bcast(apanel, m * p.width, MPI_FLOAT, p.a_root, g->row);
        MPI_Bcast(bpanel, p.width * n, MPI_FLOAT, p.b_root, g->col);
        /* 3. my block of C += the product of the two pieces (the first panel applies beta) */
        gemm_simd(m, n, p.width, alpha, apanel, p.width, bpanel, n, kb == 0 ? beta : 1.0f, C, ldc);
    }
}

/* Open MPI moves a non-blocking broadcast along only while the program is inside an MPI call
 * (there is no progress thread by default): while the next panel is on its way, the product is
 * done in slices of C's columns (at most summa_slices, --slices), with an MPI_Testall after
 * each; once the panel is here, the rest in one call. Slices are not free: a slice is a narrow
 * product, which 05's gemm_simd runs with A read in place (AVX-512) or packed again (the other
 * kernels), and with fewer blocks of B to share among the threads. */

/* Post the broadcasts of panel p into apanel, bpanel: two requests in req. */
static void start_panel(const dist_grid *g, const panel *p, int m, int n, const float *A, int lda,
                        const float *B, int ldb, float *apanel, float *bpanel, MPI_Request req[2])
{
    if (g->mycol == p->a_root)
        copy_block(m, p->width, &A[IDX(0, p->a_col, lda)], lda, apanel);
    if (g->myrow == p->b_root)
        copy_block(p->width, n, &B[IDX(p->b_row, 0, ldb)], ldb, bpanel);
    MPI_Ibcast(apanel, m * p->width, MPI_FLOAT, p->a_root, g->row, &req[0]);
    MPI_Ibcast(bpanel, p->width * n, MPI_FLOAT, p->b_root, g->col, &req[1]);
}

void summa_overlap(const dist_grid *g, int M, int N, int K, float alpha, const float *A, int lda,
                   const float *B, int ldb, float beta, float *C, int ldc)
{
    const int m = local_count(M, g->nb, g->myrow, g->nprow);
    const int n = local_count(N, g->nb, g->mycol, g->npcol);
    if (M <= 0 || N <= 0)
        return;
    if (K <= 0 || alpha == 0.0f) {
        scale_local(m, n, beta, C, ldc);
        return;
    }
    /* two of each: panel p is multiplied from one while panel p+1 arrives in the other */
    float *apanel[2] = {panel_buffer(0, (size_t)m * g->nb), panel_buffer(2, (size_t)m * g->nb)};
    float *bpanel[2] = {panel_buffer(1, (size_t)g->nb * n), panel_buffer(3, (size_t)g->nb * n)};
    MPI_Request req[2][2];
    const int npanels = (K + g->nb - 1) / g->nb;
    const int slice = ((n + summa_slices - 1) / summa_slices + 63) / 64 * 64; /* whole 64s */

    panel next = panel_of(g, K, 0);
    start_panel(g, &next, m, n, A, lda, B, ldb, apanel[0], bpanel[0], req[0]);
    for (int kb = 0; kb < npanels; kb++) {
        const int cur = kb % 2, nxt = 1 - cur;
        const panel p = next;
        MPI_Waitall(2, req[cur], MPI_STATUSES_IGNORE); /* panel kb is here */
        const int more = kb + 1 < npanels;
        if (more) { /* panel kb+1 sets off into the other buffers, free since panel kb-1 */
            next = panel_of(g, K, kb + 1);
            start_panel(g, &next, m, n, A, lda, B, ldb, apanel[nxt], bpanel[nxt], req[nxt]);
        }
        int arrived = !more;
        for (int j0 = 0; j0 < n;) {
            const int cols = arrived ? n - j0 : min_int(slice, n - j0);
            gemm_simd(m, cols, p.width, alpha, apanel[cur], p.width, bpanel[cur] + j0, n,
                      kb == 0 ? beta : 1.0f, &C[IDX(0, j0, ldc)], ldc);
            j0 += cols;
            if (!arrived) /* let MPI move panel kb+1 along */
                MPI_Testall(2, req[nxt], &arrived, MPI_STATUSES_IGNORE);
        }
    }
}

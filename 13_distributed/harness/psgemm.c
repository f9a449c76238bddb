/* psgemm.c: the baseline, ScaLAPACK's PSGEMM on the very blocks summa multiplies, and the
 * example of how a program calls it. Three things to get right:
 *
 * 1. A BLACS grid: BLACS is ScaLAPACK's own layer over MPI; a "context" is a grid of processes.
 * 2. A descriptor per matrix: global size, block size, the process holding the first block,
 *    the context, and the leading dimension of the local array.
 * 3. ScaLAPACK is column-major, like the Fortran it comes from; our matrices are row-major. A
 *    row-major M x N matrix is the same bytes as a column-major N x M one, its transpose, and
 *    C = A B is C^T = B^T A^T. So we ask PSGEMM for C^T (N x M) = B^T (N x K) times A^T (K x M):
 *    no data moves. The transposed matrices' rows are our columns, so the BLACS grid is our grid
 *    transposed: PC process rows, PR process columns, our rank (r, c) at BLACS place (c, r).
 */
#include "../distributed.h"

#include <stdio.h>
#include <stdlib.h>

#include "baseline_blas.h"

/* ScaLAPACK's and BLACS's C-callable entry points (Debian's libscalapack-openmpi ships no
 * header for them). PSGEMM and DESCINIT take every argument by address, Fortran style. */
void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int icontxt, int what, int *val);
void Cblacs_gridinit(int *icontxt, const char *order, int nprow, int npcol);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ictxt, const int *lld, int *info);
void psgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
             const float *alpha, const float *a, const int *ia, const int *ja, const int *desca,
             const float *b, const int *ib, const int *jb, const int *descb, const float *beta,
             float *c, const int *ic, const int *jc, const int *descc);

/* The BLACS context of grid g: made once, on the first call (every rank makes it together). */
static int blacs_context(const dist_grid *g)
{
    static int ctxt = -1, for_nprow, for_npcol;
    if (ctxt >= 0 && for_nprow == g->nprow && for_npcol == g->npcol)
        return ctxt;
    int me, np;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(-1, 0, &ctxt); /* the default system context: MPI_COMM_WORLD */
    /* "Col-major": BLACS place (i, j) is rank i + j*PC, which is our rank j*PC + i, our (j, i) */
    Cblacs_gridinit(&ctxt, "Col-major", g->npcol, g->nprow);
    for_nprow = g->nprow;
    for_npcol = g->npcol;
    return ctxt;
}

/* desc for a global rows x cols column-major matrix in nb x nb blocks, first block on BLACS
 * place (0, 0), local leading dimension ld. */
static void describe(int *desc, int rows, int cols, int nb, int ctxt, int ld)
{
    const int zero = 0;
    int info;
    descinit_(desc, &rows, &cols, &nb, &nb, &zero, &zero, &ctxt, &ld, &info);
    if (info != 0) {
        fprintf(stderr, "psgemm: descinit argument %d is wrong\n", -info);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

void gemm_psgemm(const dist_grid *g, int M, int N, int K, float alpha, const float *A, int lda,
                 const float *B, int ldb, float beta, float *C, int ldc)
{
    const int ctxt = blacs_context(g), one = 1;
    int desc_at[9], desc_bt[9], desc_ct[9];
    /* our K x N B is ScaLAPACK's N x K B^T, with our row stride as its leading dimension */
    describe(desc_bt, N, K, g->nb, ctxt, ldb);
    describe(desc_at, K, M, g->nb, ctxt, lda);
    describe(desc_ct, N, M, g->nb, ctxt, ldc);
    psgemm_("N", "N", &N, &M, &K, &alpha, B, &one, &one, desc_bt, A, &one, &one, desc_at, &beta,
            C, &one, &one, desc_ct);
}

/* What PSGEMM multiplies its local blocks with: the BLAS it resolves sgemm_ to, OpenBLAS here
 * (this program links it before ScaLAPACK's own libblas.so.3, so its thread count holds). */
const char *psgemm_blas_name(void)
{
    static char name[128];
    snprintf(name, sizeof name, "ScaLAPACK PSGEMM on %s (core %s)", openblas_get_config(),
             openblas_get_corename());
    return name;
}

/* no_blas.c: the BLAS symbols the harness links, for tests/portability.sh's cross build to a
 * target with no BLAS (aarch64 under qemu). That build runs with --no-baseline, so cblas_sgemm
 * must never be called; if it is, the run stops with one line and exit status 2 rather than
 * timing or checking against anything. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "baseline_blas.h"
#include "cblas.h"

void cblas_sgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int M,
                 int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                 float beta, float *C, int ldc)
{
    (void)order, (void)ta, (void)tb, (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)lda;
    (void)B, (void)ldb, (void)beta, (void)C, (void)ldc;
    fprintf(stderr, "no BLAS in this build (tests/portability): run it with --no-baseline\n");
    exit(2);
}

char *openblas_get_config(void) { return "no BLAS"; }
char *openblas_get_corename(void) { return "none"; }
int openblas_get_num_procs(void) { return (int)sysconf(_SC_NPROCESSORS_ONLN); }
void openblas_set_num_threads(int n) { (void)n; }

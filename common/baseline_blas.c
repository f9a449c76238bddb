/* baseline_blas.c: how the CPU stages run and time a kernel, and OpenBLAS as the yardstick. */
#include "baseline_blas.h"

#include <cblas.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "sysinfo.h"
#include "timer.h"

void gemm_openblas(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                   int ldb, float beta, float *C, int ldc)
{
    /* OpenBLAS 0.3.21 computes 0*A*B when alpha == 0, and a NaN in A reaches C */
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, alpha, A, lda, B, ldb, beta,
                C, ldc);
}

static int cpu_init(const bench_opts *o)
{
    (void)o;
    return 0;
}

static void cpu_print_header(FILE *f, const bench_opts *o)
{
    fprintf(f, "%-10s %s, %d cores online\n", "cpu", sysinfo_cpu_model(), sysinfo_cores());
    if (o->baseline)
        fprintf(f, "%-10s %s (core %s, up to %d threads; run with the same thread count)\n",
                "baseline", openblas_get_config(), openblas_get_corename(),
                openblas_get_num_procs());
    else
        fprintf(f, "%-10s none (--no-baseline)\n", "baseline");
    /* The pthread build's idle threads spin after each call, on the cores our OpenMP threads
     * need next (and ours on its): the Makefile links the OpenMP build where it is installed. */
    int several = 0;
    for (int t = 0; t < o->nthreads; t++)
        several |= o->threads[t] > 1;
    if (o->baseline && several && !strstr(openblas_get_config(), "USE_OPENMP"))
        fprintf(f, "%-10s this OpenBLAS is not the OpenMP build: its threads and ours take turns "
                   "spinning, and the ratios on several threads swing from run to run "
                   "(install libopenblas-openmp-dev and rebuild)\n", "warning");
}

static void cpu_set_threads(int t)
{
    omp_set_num_threads(t);
    openblas_set_num_threads(t);
}

/* On the CPU the harness's host buffers are the kernel's buffers: nothing to move. */
static int cpu_setup(bench_problem *p)
{
    (void)p;
    return 0;
}
static void cpu_nothing(bench_problem *p) { (void)p; }

static double cpu_run(bench_problem *p, gemm_fn *fn)
{
    if (!fn)
        fn = gemm_openblas;
    double t0 = timer_now();
    fn(p->M, p->N, p->K, p->alpha, p->A, p->lda, p->B, p->ldb, p->beta, p->C, p->ldc);
    return 1e3 * (timer_now() - t0);
}

const bench_backend openblas_backend = {
    .baseline_name = "OpenBLAS",
    .init = cpu_init,
    .device_name = sysinfo_cpu_model,
    .print_header = cpu_print_header,
    .set_threads = cpu_set_threads,
    .setup = cpu_setup,
    .put_c = cpu_nothing,
    .get_c = cpu_nothing,
    .run = cpu_run,
    .teardown = cpu_nothing,
};

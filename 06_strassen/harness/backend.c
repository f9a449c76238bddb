/* backend.c: 06's backend, the CPU's (common/baseline_blas.c) with two changes: --vs classic
 * makes classic (05's kernel) the baseline, timed alternately with each variant as OpenBLAS would
 * be; --fold-c every|none renames the variants it changes, so that the CSV tells them apart. */
#include "harness.h"

#include <stdio.h>

#include "../../05_simd/simd.h" /* microkernel_best */
#include "../strassen.h"
#include "baseline_blas.h"
#include "sysinfo.h"
#include "timer.h"

static double run_vs_classic(bench_problem *p, gemm_fn *fn)
{
    if (!fn)
        fn = gemm_classic;
    const double t0 = timer_now();
    fn(p->M, p->N, p->K, p->alpha, p->A, p->lda, p->B, p->ldb, p->beta, p->C, p->ldc);
    return 1e3 * (timer_now() - t0);
}

static void header_vs_classic(FILE *f, const bench_opts *o)
{
    fprintf(f, "%-10s %s, %d cores online\n", "cpu", sysinfo_cpu_model(), sysinfo_cores());
    if (o->baseline)
        fprintf(f, "%-10s classic: 05_simd's gemm_simd with %s (--vs classic)\n", "baseline",
                microkernel_best()->name);
    else
        fprintf(f, "%-10s none (--no-baseline)\n", "baseline");
}

static int vs_classic;
static char label[96]; /* the baseline's name: OpenBLAS's (MKL's, BLIS's), or classic */

void strassen_vs_classic(void) { vs_classic = 1; }

static int folds(gemm_fn *fn)
{
    return fn == gemm_reloaded_1lvl || fn == gemm_reloaded_2lvl || fn == gemm_hybrid_2lvl;
}

/* After the command line is parsed (--variant names the variants as listed), before
 * anything runs: with --fold-c every or none, the variants it changes are renamed so that
 * the CSV tells the modes apart (reloaded_1lvl+every). */
static int stage_init(const bench_opts *o)
{
    static const char *suffix[] = {[FOLD_LAST] = "", [FOLD_EVERY] = "+every",
                                   [FOLD_NONE] = "+none"};
    static char renamed[3][48]; /* one for each variant folds() names */
    for (int v = 0, r = 0; v < strassen_nvariants && reloaded_fold != FOLD_LAST; v++)
        if (folds(strassen_variants[v].fn) && r < 3) {
            snprintf(renamed[r], sizeof renamed[r], "%s%s", strassen_variants[v].name,
                     suffix[reloaded_fold]);
            strassen_variants[v].name = renamed[r++];
        }
    const int rc = openblas_backend.init(o);
    snprintf(label, sizeof label, "%s", vs_classic ? "classic" : openblas_backend.baseline_name);
    return rc;
}

/* The CPU's backend (common/baseline_blas.c) but for the above */
static const bench_backend *const cpu = &openblas_backend;
static void print_header(FILE *f, const bench_opts *o)
{
    if (vs_classic)
        header_vs_classic(f, o);
    else
        cpu->print_header(f, o);
}
static double run(bench_problem *p, gemm_fn *fn)
{
    return vs_classic ? run_vs_classic(p, fn) : cpu->run(p, fn);
}
static const char *device_name(void) { return cpu->device_name(); }
static void set_threads(int t) { cpu->set_threads(t); }
static int setup(bench_problem *p) { return cpu->setup(p); }
static void put_c(bench_problem *p) { cpu->put_c(p); }
static void get_c(bench_problem *p) { cpu->get_c(p); }
static void teardown(bench_problem *p) { cpu->teardown(p); }

const bench_backend strassen_backend = {
    .baseline_name = label,
    .baselines = "openblas mkl blis",
    .init = stage_init,
    .device_name = device_name,
    .print_header = print_header,
    .set_threads = set_threads,
    .setup = setup,
    .put_c = put_c,
    .get_c = get_c,
    .run = run,
    .teardown = teardown,
};

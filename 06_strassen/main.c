/* 06_strassen: Strassen and Winograd on top of 05's packed GEMM; the harness does the rest.
 *   make stage06 && ./06_strassen/strassen --sizes 2048,4096 --threads 2 --vs classic
 *
 * Stage options:
 *   --cutoff N      a level of Strassen only where min(M, N, K) >= N (default: the measured
 *                   crossover in strassen.c); --cutoff 2 forces every level on small sizes
 *   --vs classic    time every variant alternately with classic (05's kernel) instead of
 *                   OpenBLAS: the "vs" column is then the speed-up over classic, side by side
 *   --errors        check every variant, classic too, against the normwise bound with c = 1:
 *                   max_err_ratio is then max|C - R| / ((K+2) u max(|A||B|)), comparable
 *                   between variants (the chapter's error table). The normal check is
 *                   unchanged without it.
 *   --breakdown     no check, no baseline: time each variant and the part of it spent in the
 *                   additions (mat_add, mat_acc), with the bytes those moved
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_blas.h"
#include "csv.h"
#include "matrix.h"
#include "../05_simd/simd.h" /* stage 05's API: gemm_simd, the micro-kernel type */
#include "strassen.h"
#include "sysinfo.h"
#include "timer.h"


/* The error constants: c in max|C - R| <= c (K+2) u max(|alpha||A||B| + |beta||C0|), the
 * normwise form of the harness's bound. README.md ("How wrong is it?") derives them from
 * Brent's bounds (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., 23.2):
 * L levels multiply the classical normwise bound by 3^L (Strassen: 12^L/4^L) or 4.5^L
 * (Winograd: 18^L/4^L); x4 turns max|a| max|b| into max(|A||B|)/K for inputs uniform in
 * [-1, 1]; x2 is the slack classic gets too (its c). */
#define C_STRASSEN_1LVL (2 * 4 * 3.0)
#define C_STRASSEN_2LVL (2 * 4 * 9.0)
#define C_WINOGRAD_1LVL (2 * 4 * 4.5)
#define C_WINOGRAD_2LVL (2 * 4 * 20.25)
#define C_HYBRID_2LVL (2 * 4 * 4.5 * 3)

/* (fast_algorithm: a NaN or Inf in A or B reaches elements of C whose dot products do not
 * use it; the edge suite (--edges) allows it, the chapter counts it) */
static gemm_variant variants[] = {
    {"classic", "05's packed GEMM (gemm_simd, best micro-kernel), linked from 05_simd",
     gemm_classic},
    {"strassen_1lvl", "Strassen, 1 level: 7 classic products, 18 additions via 3 temporaries",
     gemm_strassen_1lvl, C_STRASSEN_1LVL, 1, .fast_algorithm = 1},
    {"strassen_2lvl", "Strassen, 2 levels: 49 classic products of quarter size",
     gemm_strassen_2lvl, C_STRASSEN_2LVL, 1, .fast_algorithm = 1},
    {"winograd_1lvl", "Winograd's form, 1 level: 15 additions (8 + 7) via 3 temporaries",
     gemm_winograd_1lvl, C_WINOGRAD_1LVL, 1, .fast_algorithm = 1},
    {"winograd", "Winograd's form, 2 levels: 49 classic products of quarter size",
     gemm_winograd, C_WINOGRAD_2LVL, 1, .fast_algorithm = 1},
    {"reloaded_0lvl", "this stage's packing loops, no Strassen level: the control for reloaded",
     gemm_reloaded_0lvl},
    {"reloaded_1lvl", "Strassen, 1 level, sums formed while packing, product added from the tile",
     gemm_reloaded_1lvl, C_STRASSEN_1LVL, 1, .fast_algorithm = 1},
    {"reloaded_2lvl", "Strassen, 2 levels folded: 4-term sums packed, 4 targets per product",
     gemm_reloaded_2lvl, C_STRASSEN_2LVL, 1, .fast_algorithm = 1},
    {"hybrid_2lvl", "Winograd level with temporaries, then reloaded_1lvl for its 7 products",
     gemm_hybrid_2lvl, C_HYBRID_2LVL, 1, .fast_algorithm = 1},
};
enum { NVARIANTS = sizeof variants / sizeof variants[0] };

/* ------------------------------------------------------------ --vs classic */

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

/* After the command line is parsed (--variant names the variants as listed), before
 * anything runs: with --fold-c every or none, the variants it changes are renamed so that
 * the CSV tells the modes apart (reloaded_1lvl+every). */
static int stage_init(const bench_opts *o)
{
    static const char *suffix[] = {[FOLD_LAST] = "", [FOLD_EVERY] = "+every",
                                   [FOLD_NONE] = "+none"};
    static char renamed[NVARIANTS][48];
    for (int v = 0; v < NVARIANTS; v++)
        if (reloaded_fold != FOLD_LAST &&
            (variants[v].fn == gemm_reloaded_1lvl || variants[v].fn == gemm_reloaded_2lvl ||
             variants[v].fn == gemm_hybrid_2lvl)) {
            snprintf(renamed[v], sizeof renamed[v], "%s%s", variants[v].name,
                     suffix[reloaded_fold]);
            variants[v].name = renamed[v];
        }
    const int rc = openblas_backend.init(o);
    snprintf(label, sizeof label, "%s", vs_classic ? "classic" : openblas_backend.baseline_name);
    return rc;
}

/* The CPU's backend (common/baseline_blas.c) but for the above */
static const bench_backend *const cpu = &openblas_backend;
static void print_header(FILE *f, const bench_opts *o)
{
    vs_classic ? header_vs_classic(f, o) : cpu->print_header(f, o);
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

static const bench_backend backend = {
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

/* ------------------------------------------------------------ options */

static char title[256];

/* The header's title: the kernel under every variant, the cutoff (again after --cutoff) */
static void describe(void)
{
    snprintf(title, sizeof title,
             "Strassen and Winograd on 05's packed kernel (%s), cutoff %d; GFLOP/s = 2MNK/time "
             "for every variant",
             microkernel_best()->name,
             strassen_cutoff > 0 ? strassen_cutoff : strassen_default_cutoff);
}

/* Before main: --help prints the title. */
__attribute__((constructor)) static void describe_at_start(void) { describe(); }

static int stage_option(bench_opts *o, const char *opt, const char *val)
{
    (void)o;
    if (!strcmp(opt, "--cutoff")) {
        if (!val)
            cli_die("--cutoff: expects a size (a level of Strassen needs min(M,N,K) >= it)");
        strassen_cutoff = (int)cli_long("--cutoff", val, 1, 1L << 30);
        describe();
        return 2;
    }
    if (!strcmp(opt, "--vs")) {
        if (!val || strcmp(val, "classic") != 0)
            cli_die("--vs: expects 'classic' (without it the baseline is OpenBLAS)");
        vs_classic = 1;
        return 2;
    }
    if (!strcmp(opt, "--errors")) {
        for (int v = 0; v < NVARIANTS; v++) {
            variants[v].err_c = 1.0;
            variants[v].normwise = 1;
        }
        return 1;
    }
    if (!strcmp(opt, "--fold-c")) {
        static const char *names[] = {[FOLD_LAST] = "last", [FOLD_EVERY] = "every",
                                      [FOLD_NONE] = "none"};
        for (int f = 0; f < 3; f++)
            if (val && !strcmp(val, names[f])) {
                reloaded_fold = f;
                return 2;
            }
        cli_die("--fold-c: expects last, every or none");
    }
    return 0;
}

/* ------------------------------------------------------------ --breakdown */

/* For each size and variant: the median of the whole call and of the time spent in the
 * additions, and the bytes those moved. One CSV row per measurement (its own header). */
static int breakdown(const stage_info *st, bench_opts *o)
{
    struct csv_file *csv = NULL;
    if (o->csv)
        csv = cli_csv_open("--csv", o->csv,
                           "stage,variant,m,n,k,threads,cutoff,reps,ms_total,ms_additions,"
                           "add_gbytes,add_gbs,ms_packing_t0,device,git");
    char device[256];
    csv_field(device, sizeof device, sysinfo_cpu_model());
    const int cut = strassen_cutoff > 0 ? strassen_cutoff : strassen_default_cutoff;
    printf("== 06_strassen --breakdown: where the time goes (cutoff %d) ==\n", cut);
    printf("%-16s %6s %6s %6s %3s %10s %10s %6s %9s %8s %12s\n", "variant", "M", "N", "K",
           "thr", "ms total", "ms adds", "share", "GB adds", "GB/s", "ms packing*");
    strassen_profile = 1;
    for (int ti = 0; ti < o->nthreads; ti++) {
        st->backend->set_threads(o->threads[ti]);
        for (int si = 0; si < o->nshapes; si++) {
            const gemm_shape *s = &o->shapes[si];
            float *A = matrix_alloc(s->m, s->k), *B = matrix_alloc(s->k, s->n),
                  *C = matrix_alloc(s->m, s->n);
            if (!A || !B || !C)
                cli_die("size %dx%dx%d: cannot allocate the matrices", s->m, s->n, s->k);
            matrix_fill_random(A, s->m, s->k, s->k, o->seed + 3 * (uint64_t)si);
            matrix_fill_random(B, s->k, s->n, s->n, o->seed + 3 * (uint64_t)si + 1);
            for (int v = 0; v < st->nvariants; v++) {
                if (!o->selected[v])
                    continue;
                gemm_fn *fn = st->variants[v].fn;
                const int reps = o->reps ? o->reps : 3;
                double total[64], adds[64], pack[64], bytes = 0;
                fn(s->m, s->n, s->k, o->alpha, A, s->k, B, s->n, o->beta, C, s->n); /* warm-up */
                for (int r = 0; r < reps && r < 64; r++) {
                    strassen_add_seconds = strassen_add_bytes = reloaded_pack_seconds = 0;
                    const double t0 = timer_now();
                    fn(s->m, s->n, s->k, o->alpha, A, s->k, B, s->n, o->beta, C, s->n);
                    total[r] = 1e3 * (timer_now() - t0);
                    adds[r] = 1e3 * strassen_add_seconds;
                    pack[r] = 1e3 * reloaded_pack_seconds;
                    bytes = strassen_add_bytes;
                }
                const int n = reps < 64 ? reps : 64;
                const double mt = timer_median(total, n), ma = timer_median(adds, n),
                             mp = timer_median(pack, n);
                printf("%-16s %6d %6d %6d %3d %10.2f %10.2f %5.1f%% %9.3f %8.2f %12.2f\n",
                       st->variants[v].name, s->m, s->n, s->k, o->threads[ti], mt, ma,
                       100 * ma / mt, bytes / 1e9, ma > 0 ? bytes / 1e6 / ma : 0.0, mp);
                fflush(stdout);
                if (csv)
                    cli_csv_row(csv,
                                "06_strassen,%s,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.4f,%.3f,%.3f,%s,%s",
                                st->variants[v].name, s->m, s->n, s->k, o->threads[ti], cut, n, mt,
                                ma, bytes / 1e9, ma > 0 ? bytes / 1e6 / ma : 0.0, mp, device,
                                sysinfo_git_rev());
            }
            matrix_free(A);
            matrix_free(B);
            matrix_free(C);
        }
    }
    printf("* ms packing: reloaded_* only, thread 0's time in its packing of A and B\n");
    fflush(stdout);
    return cli_csv_close(csv);
}

static const stage_mode modes[] = {
    {.flag = "--breakdown",
     .help = "  --breakdown           time each variant and its additions (no check, no baseline)\n",
     .run = breakdown, .before_init = 1, .own_csv = 1},
};

static const stage_info stage = {
    .stage = "06_strassen",
    .title = title,
    .default_sizes = "1024,2048,4096",
    .default_threads = 0,
    .variants = variants,
    .nvariants = NVARIANTS,
    .extra_option = stage_option,
    .extra_help =
        "  --cutoff N            a Strassen level only where min(M,N,K) >= N (default: strassen.c)\n"
        "  --vs classic          baseline = classic (05's kernel), timed alternately, not OpenBLAS\n"
        "  --errors              every variant checked normwise with c = 1 (the error table)\n"
        "  --fold-c last|every|none  how reloaded_* adds a product to several quadrants of C\n",
    .backend = &backend,
    .modes = modes,
    .nmodes = sizeof modes / sizeof *modes,
};

int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }

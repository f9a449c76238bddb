/* bench.h: variants x sizes -> a table on stdout and rows in a CSV.
 *
 * A stage's main() is its variant table plus one call:
 *
 *   static const gemm_variant variants[] = {
 *       {"ijk", "three nested loops, i-j-k order", gemm_ijk},
 *   };
 *   static const stage_info stage = {"01_naive", "the naive triple loop", "64:1024:x2",
 *                                    1, variants, 1};
 *   int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
 *
 * For every thread count and size, each selected variant is run once on poisoned
 * C and checked (this run is also the warm-up), then timed, alternating with the
 * baseline library, so that "vs OpenBLAS" compares runs made side by side.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdio.h>

#include "cli.h"
#include "gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One problem as the backend sees it. A, B, C are host buffers (row-major with
 * the leading dimensions below); a GPU backend keeps device copies in ctx. */
typedef struct bench_problem {
    int M, N, K, lda, ldb, ldc;
    float alpha, beta;
    const float *A, *B;
    float *C;
    void *ctx;
    const gemm_variant *variant; /* the variant being run (NULL: the baseline), for
                                    backends that treat some variants differently */
} bench_problem;

/* Where kernels run. NULL in stage_info means the CPU with OpenBLAS. */
typedef struct bench_backend {
    const char *baseline_name;                 /* "OpenBLAS", "cuBLAS" (CSV column) */
    int (*init)(const bench_opts *o);          /* 0, or 77 to skip (no device) */
    const char *(*device_name)(void);          /* CPU model or GPU name, for the CSV */
    void (*print_header)(FILE *f, const bench_opts *o);
    void (*set_threads)(int t);
    int (*setup)(bench_problem *p);            /* 0, or nonzero: cannot run this size */
    void (*put_c)(bench_problem *p);           /* make the run's C equal to p->C */
    void (*get_c)(bench_problem *p);           /* bring the result back into p->C */
    double (*run)(bench_problem *p, gemm_fn *fn); /* ms for one call; fn NULL: baseline */
    void (*teardown)(bench_problem *p);
    const char *(*compiler)(void);             /* optional: what built the kernels (nvcc);
                                                  NULL: the C compiler of the harness */
} bench_backend;

typedef struct stage_info {
    const char *stage;          /* "01_naive": the CSV's stage column */
    const char *title;          /* one line for the header and --help */
    const char *default_sizes;  /* the stage's default sweep */
    int default_threads;        /* 0: all online cores */
    const gemm_variant *variants;
    int nvariants;
    /* Optional stage-specific options: return 0 if opt is not yours, 1 if you took
     * opt alone, 2 if you took opt and val (val may be NULL). Call cli_die on bad values. */
    int (*extra_option)(bench_opts *o, const char *opt, const char *val);
    const char *extra_help;     /* lines appended to --help */
    const bench_backend *backend;
    /* 1: the sweep is over GPUs, not threads (stage 10): `--gpus 1,2,4` takes the place of
     * --threads, set_threads(t) gets the GPU count and the CSV's threads column holds it. */
    int gpus_sweep;
} stage_info;

/* Parse the command line and run: exit status 0 all checks passed, 1 some failed,
 * 2 bad input, 77 skipped (no device). */
int bench_main(const stage_info *st, int argc, char **argv);

/* The parts of bench_main, for stages that loop over their own parameters
 * (a tile-size sweep): run every selected variant of st over o's shapes.
 * Returns the number of failed checks; *passed gets the number passed. */
int bench_run(const stage_info *st, const bench_opts *o, int *passed);
void bench_print_header(const stage_info *st, const bench_opts *o);
/* cli_die (exit 2) if a shape's leading dimensions overflow an int, or its buffers size_t or
 * the machine's memory. */
void bench_check_sizes(const bench_opts *o);
/* --csv: open o->csv (exit 2 if it cannot be written or has another header) before any work,
 * and close it after the last row (returns 2 after one line on stderr if that fails, else 0).
 * bench_main does both; a stage that calls bench_run itself calls them around it. */
void bench_open_csv(bench_opts *o);
int bench_close_csv(bench_opts *o);

#ifdef __cplusplus
}
#endif

#endif

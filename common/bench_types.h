/* bench_types.h: the types that the parts of the harness share: what a run was asked for
 * (bench_opts, from the command line, cli.c), where kernels run (bench_backend) and what a
 * stage is (stage_info, read by cli.c, bench.c and edges.c). Types only; the functions are in
 * cli.h and bench.h. */
#ifndef BENCH_TYPES_H
#define BENCH_TYPES_H

#include <stdint.h>
#include <stdio.h>

#include "gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CLI_MAX_THREADS 16

typedef struct gemm_shape {
    int m, n, k;
} gemm_shape;

typedef struct bench_opts {
    gemm_shape *shapes;  /* what to run, in order */
    int nshapes;
    int *selected;       /* selected[v] != 0: run variant v of the stage's table */
    int unrunnable;      /* a variant named with --variant that this machine cannot run
                            (its runnable() says no), or -1 (bench_check_runnable decides
                            what runs, and clears it) */
    int threads[CLI_MAX_THREADS];
    int nthreads;
    int reps;            /* 0: until min_time seconds or max_reps runs */
    double min_time;     /* seconds of timed runs per measurement (0.2) */
    int max_reps;        /* 50 */
    double time_limit;   /* stop growing a variant's sizes once one run takes longer */
    float alpha, beta;
    int check, baseline, list;
    const char *baseline_lib; /* --baseline: one of the backend's baselines (NULL: its first) */
    int pad;             /* lda = K + pad, ldb = ldc = N + pad */
    const char *csv;     /* --csv FILE; rows go to csv_out, opened by bench_open_csv */
    struct csv_file *csv_out;
    int device, gpus;
    int include_transfers; /* GPU: time the copies to and from the device with the kernel;
                              names get "+transfers" (set by a stage option) */
    uint64_t seed;
    int edges;           /* --edges: run the edge-case suite (edges.h) instead */
    const struct stage_mode *mode; /* the stage's run mode given on the command line, or NULL */
    const char *variant_list, *thread_list; /* --variant and --threads as given */
} bench_opts;

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
    const char *baselines;                     /* what --baseline may name, "openblas mkl blis";
                                                  NULL: the one above, no choice */
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

struct stage_info;

/* A run mode of a stage: a flag that changes what the program does. Either another table (FP32
 * variants beside BF16 ones, a grid of tuning configurations: `stage`), or a measurement that is
 * not a row of the table (how an instruction rounds, a peak, where the time goes: `run`), or both.
 * bench_main looks for the flags before it reads the rest of the command line, so a stage's own
 * options can ask which mode is on (bench_opts.mode), and refuses two modes at once, but for a
 * measurement (run, no stage) of another mode's table (stage, no run): then bench_opts.mode is
 * the measurement's, with that stage. */
typedef struct stage_mode {
    const char *flag;               /* "--fp32" */
    const char *help;               /* its lines for --help (each "  --flag ...\n") */
    const struct stage_info *stage; /* the table, title and backend under this mode; NULL: the
                                       stage's own */
    /* NULL: the table is measured as usual. Else run in place of it, once every argument has
     * been checked and, unless before_init, the backend started; returns the exit status. */
    int (*run)(const struct stage_info *st, bench_opts *o);
    int before_init; /* run needs no backend (a CPU probe, a peak): start none */
    int own_csv;     /* run writes --csv itself, in columns of its own; otherwise a mode with a
                        run refuses --csv (it has no table rows to write) */
} stage_mode;

typedef struct stage_info {
    const char *stage;          /* "NN_topic": the CSV's stage column */
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
    /* 1: the sweep is over GPUs, not threads (a multi-GPU stage): `--gpus 1,2,4` takes the place of
     * --threads, set_threads(t) gets the GPU count and the CSV's threads column holds it. */
    int gpus_sweep;
    const stage_mode *modes; /* the stage's run modes (--fp32, --tune, --probe ...), or NULL */
    int nmodes;
    /* Optional: after the tally, NULL when a failed check fails the run (exit status 1); or a line
     * saying why the checks of this run are a measurement and not a verdict (checked against
     * the unrounded inputs, say: they fail by design), printed after the tally, exit status 0. */
    const char *(*checks_measure)(const bench_opts *o);
    /* Optional: the stage's own files closed after the run (a statistics CSV): 0, or the exit
     * status (2) after one line on stderr. */
    int (*finish)(void);
} stage_info;

#ifdef __cplusplus
}
#endif

#endif

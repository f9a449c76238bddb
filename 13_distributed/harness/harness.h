/* harness.h: stage 13's harness (dist_main.c, harness.c, report.c), as main.c and its parts
 * see it. */
#ifndef HARNESS_H
#define HARNESS_H

#include "bench.h"
#include "cli.h"
#include "../distributed.h"
#include "gpu.h"

typedef struct variant {
    const char *name, *desc;
    dist_gemm_fn *fn;     /* a CPU variant; NULL for a GPU one */
    enum gpu_kernel gpu;  /* a GPU variant (0: none) */
    int unchecked;        /* its result is not the product (local_only) */
    int one_rank;         /* runs on a 1 x 1 grid only (a GPU kernel alone) */
} variant;

/* The stage, as main.c describes it; dist_main (dist_main.c), bench_main's counterpart, runs it:
 * MPI, the command line, the grid, then the runs. */
typedef struct dist_stage {
    const char *stage, *title; /* "13_distributed", and what the run's header says it is */
    const char *gpu_title;     /* the title where the ranks have GPUs */
    const char *default_sizes;
    const variant *variants;
    int nvariants;
} dist_stage;
int dist_main(const dist_stage *st, int argc, char **argv);

extern int me, nranks;    /* this rank, and how many */
extern dist_grid grid;    /* the process grid of the run */
extern char grid_name[32]; /* "4x4" */
extern const char *csv_header; /* the GEMM rows' CSV header */
extern const char *timeline_header; /* --timeline's */
extern struct csv_file *timeline_csv; /* rank 0: --timeline's file, opened before any work */
extern int timeline_wanted;    /* every rank: --timeline was given */
extern int print_samples;      /* --samples: print each row's timed runs */

/* Rank 0: open the CSV of rows (csv_header or comm_csv_header) before any work: NULL, or why
 * not in one line; csv_end closes it (0, or 2 after printing why). */
const char *csv_begin(const char *path, const char *header);
int csv_end(void);
extern struct csv_file *rows_csv; /* rank 0: the open --csv file (GEMM or comm rows), or NULL */
/* A result: its line in rank 0's table; its row in the CSV, device and compiler being where it ran
 * and what built it (collective: a row that cannot be written ends the run on every rank). */
typedef bench_row row;
void print_row(const bench_opts *o, const row *r);
void csv_row(const bench_opts *o, const row *r, const char *device, const char *compiler);
void set_threads(int t); /* OpenMP's and OpenBLAS's */
/* Collective: every selected variant at every size and thread count, checked and timed;
 * returns the number of failed checks. */
int run_sizes(const bench_opts *o, const variant *vars, int nvars);
/* Collective: --edge (K = 0, M = 0, N = 0 on every rank's block); returns the failures. */
int edge_checks(const variant *vars, const int *use, int nvars, const bench_opts *o);

#endif

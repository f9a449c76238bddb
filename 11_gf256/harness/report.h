/* report.h: how stage 11 times a variant once run.c has checked it, and what it prints: the
 * header, and one row per measurement on standard output and in the CSV (report.c). */
#ifndef GF_REPORT_H
#define GF_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "chunks.h"
#include "../gf256.h"
#include "gpu.h"
#include "options.h"
#include "timer.h"

/* What the run works with at one chunk length and thread count. */
typedef struct ctx {
    const options *o;
    size_t len;
    int threads;
    uint8_t *cauchy;        /* m x k */
    chunks data, parity;    /* the input and the reference parity */
    chunks out, rebuilt;    /* a variant's output; rebuilt chunks */
    uint64_t inputs_hash;   /* of data and parity, which every kernel must leave alone */
    unsigned char *isal_tables;
    gf_gpu_field field;
    timer_rule rule;        /* how often to time (--reps, or 0.2 s / 50 runs) */
    double *tv, *tb;        /* the times of a variant and of ISA-L beside it, ms */
    int passed, failed;     /* checks */
    double isal_ms;         /* ISA-L alone, median, for the GPU rows */
} ctx;

#define CSV_HEADER                                                                           \
    "stage,variant,k,m,len,threads,timing,reps,ms_median,ms_min,gbps_in,gbps_rw,baseline,"    \
    "baseline_gbps_in,encode_check,decode_check,device,compiler,git,date"

/* The header; gpu: the GPU's name, or why there is none, or NULL where none was asked for;
 * no_isal: why ISA-L, the baseline, is missing (NULL: it is there, or not asked). */
void print_header(const options *o, const char *gpu, const char *no_isal);
/* Where the GPU has one: the device-to-device copy's bandwidth, the ceiling of a memory-bound
 * kernel, printed and in the CSV (k = m = 1, len = the bytes copied). */
void report_copy(const options *o, const char *gpu);
/* The table's column heads. */
void print_table_head(void);

/* One run of a CPU kernel (fn) or, fn NULL, of ISA-L, on c's data into out: for
 * timer_alternate; returns ms. */
typedef struct cpu_run {
    const ctx *c;
    gf_encode_fn *fn;
    const gf_plan *plan;
    uint8_t *const *out;
} cpu_run;
double time_cpu(void *arg);

/* ISA-L alone: checked against the reference parity, timed; its row, and c->isal_ms. */
void measure_isal(ctx *c);
/* A CPU variant whose checks gave enc, dec (and why, when one failed) and whose checked run,
 * the warm-up, took first_ms: timed alternately with ISA-L, its row. */
void report_cpu(ctx *c, const char *name, cpu_run *run, double first_ms, const char *enc,
                const char *dec, const char *why);
/* A GPU variant, timed by gf_gpu_encode: its rows, the kernel alone and end to end. */
void report_gpu(ctx *c, const char *name, const char *gpu, const gf_gpu_timing *kt,
                const gf_gpu_timing *et, const char *shape, const char *enc, const char *dec,
                const char *why);

#endif

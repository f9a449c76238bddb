/* bench.h: variants x sizes -> a table on stdout and rows in a CSV.
 *
 * A stage's main() is its variant table plus one call:
 *
 *   static const gemm_variant variants[] = {
 *       {"ijk", "three nested loops, i-j-k order", gemm_ijk},
 *   };
 *   static const stage_info stage = {"NN_topic", "the naive triple loop", "64:1024:x2",
 *                                    1, variants, 1};
 *   int main(int argc, char **argv) { return bench_main(&stage, argc, argv); }
 *
 * For every thread count and size, each selected variant is run once on poisoned
 * C and checked (this run is also the warm-up), then timed, alternating with the
 * baseline library, so that "vs OpenBLAS" compares runs made side by side.
 */
#ifndef BENCH_H
#define BENCH_H

#include "cli.h"
#include "bench_types.h"
#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse the command line and run: exit status 0 all checks passed, 1 some failed,
 * 2 bad input, 77 skipped (no device). */
int bench_main(const stage_info *st, int argc, char **argv);

/* One result: a variant at one size and thread count, what a row of the table and of the CSV
 * say (bench.c's, and a stage's own harness's, an MPI one's). base_ms > 0: the baseline's median beside it. */
typedef struct bench_row {
    const char *variant;
    const gemm_shape *s;
    int threads, reps, checked;
    double ms_median, ms_min, base_ms;
    verify_result vr;
    double spread; /* how far the ratios of the alternated pairs spread: half the range of the
                      middle 80% (all of them below 10 pairs) over their median; -1: no pairs */
    double load;   /* cores other processes (and a hypervisor's other guests) took while the
                      row was measured; -1: unknown */
} bench_row;

/* GFLOP/s of the 2MNK flops of shape s in ms milliseconds, or -1 where there is no rate: with
 * alpha = 0 BLAS computes no product (C = beta*C, A and B unread), and flops not done over the
 * time of an early return would be a fiction. The table prints "-", the CSV an empty gflops. */
double bench_gflops(const bench_opts *o, const gemm_shape *s, double ms);

/* Other processes keeping this many cores busy while a row is measured make it "busy": its
 * time, and its ratio, are not what this machine does alone. */
#define BENCH_BUSY_CORES 0.5

/* The header's load line: what runs now (the load average lags a minute behind), with a
 * warning when the machine is busy, and the reading bench_print_tally's line starts from.
 * bench_print_header prints it; 11, which has a header of its own, calls it (marks_rows 0: its
 * rows carry no busy mark). */
void bench_print_load_start(int marks_rows);
/* After the last bench_run: the machine's load during the run, one line on stdout (a warning
 * when it was busy), then the tally "N passed, N failed" (bench_print_tally_line). Every table
 * ends with it: bench_main's, and a stage's own driver's (a sweep over a parameter). */
void bench_print_tally(int passed, int failed);
/* The tally alone, after an empty line: "N passed, N failed", and where variants asked for
 * could not run here (bench_print_not_here), ", N not on this CPU" after it (edges.c's table). */
void bench_print_tally_line(int passed, int failed);

/* ---- what --variant asked for that this machine cannot run ------------------------------------
 * --variant all asks for every variant of the table, --variant a,b for those named. One that this
 * machine cannot run (its runnable() says no: a CPU without AVX-512, a GPU before Hopper) is not
 * left out without a word: the table names it in one line under its head, the tally counts it,
 * the CSV gets no row for it. The run is skipped (exit 77) only when nothing asked for can run. */

/* 1 when variant v of t was asked for and cannot run here. */
int bench_not_here(const cli_table *t, const bench_opts *o, int v);
/* After cli_parse, before any work: 77, after one line on stderr ("--variant amx_naive needs
 * AMX-BF16, which this machine lacks: skipped"), when none of the variants asked for can run;
 * else 0 (o->unrunnable is then cleared: the rest runs). */
int bench_check_runnable(const cli_table *t, bench_opts *o);
/* One line of the table for a variant asked for that cannot run here, counted in the tally:
 * "avx512_6x64      not on this CPU: needs AVX-512F/DQ/VL". where: "CPU", "GPU" or "machine"
 * (a tally of several kinds says "machine"). bench_print_header prints one for each variant of
 * its table (bench_not_here); a stage with a table of its own (11) calls it. */
void bench_print_not_here(const char *name, const char *where, const char *needs);

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

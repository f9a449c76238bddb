/* cli.h: the one command line of every stage (see DESIGN.md, "The command line"). */
#ifndef CLI_H
#define CLI_H

#include "bench_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print "<prog>: <message>" on one line to stderr and exit with status 2. */
void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Strict number parsing: the whole string must be a number in range, else cli_die
 * naming `what` (the option). */
long cli_long(const char *what, const char *s, long lo, long hi);
double cli_double(const char *what, const char *s);

/* A comma-separated list given to option `what`: cli_die if an item is empty ("1024,",
 * ",64", "64,,128"), which strtok would drop without a word. */
void cli_check_list(const char *what, const char *s);

/* Exactly n comma-separated whole numbers in [lo, hi] into out ("64,256,0" for n = 3), else
 * cli_die naming `what` and `form` (what the n numbers are, e.g. "MC,KC,NC"). */
void cli_longs(const char *what, const char *form, const char *s, int n, long lo, long hi,
               long *out);

/* "128,256,511", "7x13x5", "256:4096:x2", "100:1000:+100", or a mix. cli_die on error. */
int cli_parse_sizes(const char *what, const char *s, gemm_shape **out);

/* Parse argv into o using the stage's defaults. Exits 0 after --help / --list,
 * exits 2 with one line on stderr for any bad input. */
void cli_parse(const stage_info *st, int argc, char **argv, bench_opts *o);

/* The run modes the command line takes (base's, stage_info.modes) and the one given (or NULL):
 * bench_main sets them before cli_parse, which then takes the flags and sets o->mode. */
void cli_set_mode(const stage_info *base, const stage_mode *mode);

/* The parts of cli_parse that are not about GEMM, for a program with options of its own
 * (a stage that is not a float GEMM): its parser calls cli_start, offers each argument to cli_common_option before its
 * own, then lists (--list) or selects the variants and reads the thread counts.
 *
 * cli_start: o set to the defaults of DESIGN.md, room for nvariants selections, cli_prog set. */
void cli_start(bench_opts *o, const char *argv0, int nvariants);
/* The options every program takes: --list, --variant NAMES, --threads LIST, --reps, --time-limit,
 * --check, --no-check, --no-baseline, --csv, --device, --seed (the lists are kept as given, in
 * o->variant_list and o->thread_list). Returns 0 when opt is not one of them, else how many
 * arguments it took, 1 or 2 (as stage_info.extra_option). */
int cli_common_option(bench_opts *o, const char *opt, const char *val);

/* A variant table as the command line reads it: n rows `stride` bytes apart, each beginning
 * with its gemm_variant (name, description, runnable() and needs). A GEMM stage's rows are
 * gemm_variants; another stage's may carry its own kernel after one. */
typedef struct cli_table {
    const gemm_variant *first;
    size_t stride;
    int n;
} cli_table;
const gemm_variant *cli_row(const cli_table *t, int v);
/* --list: one line a variant, marked where this machine cannot run it. */
void cli_list_variants(const cli_table *t);
/* --variant: o->selected from o->variant_list ("all" when NULL): for "all" every variant this
 * machine can run; else the names listed that it can run, the first it cannot kept in
 * o->unrunnable (bench_check_runnable says what becomes of it). */
void cli_select_variants(const cli_table *t, bench_opts *o);
/* --threads (or --gpus, where a stage sweeps GPUs): o->threads from o->thread_list, else one count, `dflt`. */
void cli_thread_counts(bench_opts *o, const char *what, int dflt);

/* The value of option `opt`: val, the argument after it, or cli_die("opt needs a value"). */
const char *cli_value(const char *opt, const char *val);

/* A CSV file of rows (common/csv.h) for the option `what` (--csv, --stats): opened and its
 * header checked now, before any work; a row appended; closed. Any failure prints one line
 * naming the option and the file: open and row exit with status 2, close returns 2 (else 0). */
struct csv_file *cli_csv_open(const char *what, const char *path, const char *header);
void cli_csv_row(struct csv_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_csv_close(struct csv_file *f);

/* A mode of a program that measures no table rows (--edges, a --probe): with --csv, exit 2
 * with one line, instead of dropping it without a word. */
void cli_no_csv(const bench_opts *o, const char *mode);

/* Can this machine run variant v? (its runnable(), where it has one) */
int cli_variant_runnable(const gemm_variant *v);

extern const char *cli_prog; /* argv[0]'s base name, for messages */
extern int cli_device;       /* --device as given (-1: none), for a variant's runnable() */

#ifdef __cplusplus
}
#endif

#endif

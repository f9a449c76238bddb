/* cli.h: the one command line of every stage (see DESIGN.md, "The command line"). */
#ifndef CLI_H
#define CLI_H

#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print "<prog>: <message>" on one line to stderr and exit with status 2. */
void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Strict number parsing: the whole string must be a number in range, else cli_die
 * naming `what` (the option). */
long cli_long(const char *what, const char *s, long lo, long hi);
double cli_double(const char *what, const char *s);

/* "128,256,511", "7x13x5", "256:4096:x2", "100:1000:+100", or a mix. cli_die on error. */
int cli_parse_sizes(const char *what, const char *s, gemm_shape **out);

/* Parse argv into o using the stage's defaults. Exits 0 after --help / --list,
 * exits 2 with one line on stderr for any bad input. */
void cli_parse(const stage_info *st, int argc, char **argv, bench_opts *o);

/* A CSV file of rows (common/csv.h) for the option `what` (--csv, --stats): opened and its
 * header checked now, before any work; a row appended; closed. Any failure prints one line
 * naming the option and the file: open and row exit with status 2, close returns 2 (else 0). */
struct csv_file *cli_csv_open(const char *what, const char *path, const char *header);
void cli_csv_row(struct csv_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_csv_close(struct csv_file *f);

/* Can this machine run variant v? (its runnable(), where it has one) */
int cli_variant_runnable(const gemm_variant *v);

extern const char *cli_prog; /* argv[0]'s base name, for messages */

#ifdef __cplusplus
}
#endif

#endif

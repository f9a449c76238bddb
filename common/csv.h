/* csv.h: append rows to a CSV file so that the file is always a valid CSV.
 *
 *   csv_file *f = csv_open("out.csv", "stage,variant,ms", err, sizeof err);  // before any work
 *   csv_appendf(f, err, sizeof err, "%s,%s,%.3f", stage, variant, ms);     // one row
 *   csv_close(f, err, sizeof err);
 *
 * Knows nothing about what the rows hold. What it promises:
 *   - the file is opened (and created) once, at csv_open, and its header checked there: a file
 *     whose first line is another header, or that ends in the middle of a line, is refused;
 *   - a row is written whole or not at all: written with write() into a file opened for
 *     appending and, if that fails part-way (disk full, `ulimit -f`), the file is truncated back
 *     to where the row began. (Not a temporary file and a rename: that would copy the whole file
 *     for every row.) SIGINT, SIGTERM and SIGHUP arriving during a row take effect just after
 *     it, and SIGXFSZ is ignored, so that a file-size limit is a write error, not a death;
 *   - "-" is standard output: the header and rows go there (the header with the first row, so
 *     that a run which ends before any, refused or skipped, writes nothing to stdout), and from
 *     csv_open on everything else the program prints to stdout goes to stderr instead, so
 *     stdout stays a valid CSV.
 * Every function returns NULL or -1 on failure with a one-line reason (naming the file) in err.
 */
#ifndef CSV_H
#define CSV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct csv_file csv_file;

/* header: the first line, without its newline. A missing or empty file gets it written. */
csv_file *csv_open(const char *path, const char *header, char *err, size_t errlen);

/* One row, without its newline. */
int csv_append(csv_file *f, const char *row, char *err, size_t errlen);
int csv_appendf(csv_file *f, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Close (checked). A file that csv_open created and that got no row is removed again: a run
 * that ended before measuring anything (skipped, no device) leaves nothing behind. */
int csv_close(csv_file *f, char *err, size_t errlen);

/* A field made safe for the format: commas and line breaks become spaces. */
void csv_field(char *dst, size_t len, const char *src);

#ifdef __cplusplus
}
#endif

#endif

/* options.h: 11's command line: the options every program of the repository takes
 * (common/cli.h: --variant, --threads, --reps, --csv, ...), and the code's own. */
#ifndef GF_OPTIONS_H
#define GF_OPTIONS_H

#include <stddef.h>

#include "cli.h"
#include "../gf256.h"

#define MAX_LENS 64

enum { ERASE_RANDOM, ERASE_ALL, ERASE_LIST, ERASE_NONE };

typedef struct options {
    bench_opts run;         /* the common options; its GEMM shapes, alpha and beta stay unused */
    int k, m;               /* --data, --parity: RS(k, m) */
    size_t lens[MAX_LENS];  /* --len: the chunk lengths, in bytes */
    int nlens;
    int offset;             /* --offset: chunks start this many bytes past a 64-byte boundary */
    int erase_mode;         /* --erasures */
    int erase_list[GF_MAX_CHUNKS], nerase;
    int todo;               /* --todo: the exercise's functions to check alone, bit t-1 for TODO t */
} options;

/* Parse argv for a table of nvariants variants. Exits 0 after --help, 2 with one line on stderr
 * for any bad input, as every stage does. --list and --variant are left to the caller
 * (cli_list_variants, cli_select_variants), which knows the table. */
void options_parse(options *o, int nvariants, int argc, char **argv);

#endif

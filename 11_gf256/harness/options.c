/* options.c: 11's command line (options.h). The options it shares with the GEMM stages go to
 * common/cli.c; here are the code (--data, --parity), the chunk lengths (--len), the decode
 * check (--erasures) and the alignment (--offset). */
#include "options.h"
#include "todo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LEN ((size_t)1 << 30) /* ISA-L takes an int length; 1 GiB per chunk is plenty */

static void usage(void)
{
    printf("11_gf256: Reed-Solomon erasure coding as a GF(2^8) matrix product\n\n"
           "usage: %s [options]\n"
           "  --data K               data chunks, k (default 10)\n"
           "  --parity M             parity chunks, m (default 4); k + m <= 256\n"
           "  --len LIST             chunk lengths in bytes, K/M/G suffixes (powers of 2),\n"
           "                         e.g. 1,7,4097,1M or 4K:64M:x4 (default 4K:1M:x4)\n"
           "  --variant NAMES|all    comma-separated variants (default all); --list shows them\n"
           "  --threads T|LIST       OpenMP threads for the CPU variants and ISA-L (default 1)\n"
           "  --reps R               timed repetitions (default: until 0.2 s or 50 runs)\n"
           "  --time-limit S         stop a variant's sweep once one run takes longer (default 10)\n"
           "  --erasures random|all|none|I,J,..\n"
           "                         decode check: one random set of m erased chunks (default),\n"
           "                         every set of m, none, or the chunks listed (0..k-1 data,\n"
           "                         k..k+m-1 parity)\n"
           "  --offset B             start every chunk B bytes past a 64-byte boundary (0..63)\n"
           "  --todo LIST|all        instead: check the exercise's functions alone, TODO 1 to 7\n"
           "                         of exercise.c (harness/todo.h); with --csv, their own rows\n"
           "  --check | --no-check   byte-for-byte checks of encode and decode (default on)\n"
           "  --no-baseline          skip ISA-L\n"
           "  --csv FILE             append result rows to FILE (schema in the chapter; a file\n"
           "                         with another header is refused); --csv - writes the rows\n"
           "                         to standard output and the table to standard error\n"
           "  --device D             CUDA device (GPU variants)\n"
           "  --seed S               input seed (default 1)\n"
           "  --list                 list the variants\n"
           "  -h, --help\n"
           "  GEMM_HIDE_ISA=gfni (or avx512, avx2) in the environment: act as a CPU without it\n"
           "                         (common/cpu_features.h); ISA-L's own dispatch is not hidden\n",
           cli_prog);
}

/* "4096", "64K", "1M", "1G" (binary multiples). */
static size_t parse_len(const char *s)
{
    char buf[64];
    size_t n = strlen(s), mult = 1;
    if (n == 0 || n >= sizeof buf)
        cli_die("--len: '%s' is not a length", s);
    memcpy(buf, s, n + 1);
    switch (buf[n - 1]) {
    case 'K': case 'k': mult = 1 << 10; buf[n - 1] = '\0'; break;
    case 'M': case 'm': mult = 1 << 20; buf[n - 1] = '\0'; break;
    case 'G': case 'g': mult = 1 << 30; buf[n - 1] = '\0'; break;
    }
    long v = cli_long("--len", buf, 1, LONG_MAX);
    if ((unsigned long)v > MAX_LEN / mult)
        cli_die("--len: %s is more than 1G, the most this program takes per chunk", s);
    return (size_t)v * mult;
}

static void add_len(options *o, size_t len)
{
    if (o->nlens == MAX_LENS)
        cli_die("--len: at most %d lengths", MAX_LENS);
    o->lens[o->nlens++] = len;
}

/* A list of lengths and ranges lo:hi:xF / lo:hi:+S, as --sizes in the GEMM stages. */
static void parse_lens(options *o, const char *s)
{
    cli_check_list("--len", s);
    char *copy = strdup(s), *save = NULL;
    if (!copy)
        cli_die("out of memory");
    o->nlens = 0;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *c1 = strchr(item, ':');
        if (!c1) {
            add_len(o, parse_len(item));
            continue;
        }
        char *c2 = strchr(c1 + 1, ':');
        if (!c2 || (c2[1] != 'x' && c2[1] != '+'))
            cli_die("--len: '%s' is not a range like 4K:64M:x4 or 100:1000:+100", item);
        *c1 = *c2 = '\0';
        size_t lo = parse_len(item), hi = parse_len(c1 + 1);
        /* a factor is a plain number; a step is a length (4K, 1M as the bounds) */
        long step = c2[1] == 'x' ? cli_long("--len", c2 + 2, 2, (long)MAX_LEN)
                                 : (long)parse_len(c2 + 2);
        if (hi < lo)
            cli_die("--len: range %zu:%zu runs backwards", lo, hi);
        for (size_t v = lo; v <= hi; v = c2[1] == 'x' ? v * (size_t)step : v + (size_t)step)
            add_len(o, v);
    }
    free(copy);
    if (o->nlens == 0)
        cli_die("--len: no lengths given");
}

static void parse_erasures(options *o, const char *s)
{
    if (!s || !strcmp(s, "random")) {
        o->erase_mode = ERASE_RANDOM;
        return;
    }
    if (!strcmp(s, "all") || !strcmp(s, "none")) {
        o->erase_mode = !strcmp(s, "all") ? ERASE_ALL : ERASE_NONE;
        if (o->erase_mode == ERASE_ALL) {
            double n = 1; /* C(k+m, m) patterns */
            for (int i = 0; i < o->m; i++)
                n = n * (o->k + o->m - i) / (i + 1);
            if (n > 20000)
                cli_die("--erasures all: %.0f patterns for k=%d, m=%d; at most 20000 (use a "
                        "smaller code)", n, o->k, o->m);
        }
        return;
    }
    o->erase_mode = ERASE_LIST;
    cli_check_list("--erasures", s);
    char *copy = strdup(s), *save = NULL;
    if (!copy)
        cli_die("out of memory");
    int seen[GF_MAX_CHUNKS] = {0};
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int c = (int)cli_long("--erasures", t, 0, o->k + o->m - 1);
        if (seen[c]++)
            cli_die("--erasures: chunk %d is listed twice", c);
        if (o->nerase == o->m)
            cli_die("--erasures: more than m = %d chunks; a code with m parities rebuilds at "
                    "most m", o->m);
        o->erase_list[o->nerase++] = c;
    }
    free(copy);
    if (o->nerase == 0)
        cli_die("--erasures: no chunk given");
}

/* "all", or TODO numbers 1 to TODO_COUNT: "1,2,5" */
static void parse_todo(options *o, const char *s)
{
    if (!strcmp(s, "all")) {
        o->todo = (1 << TODO_COUNT) - 1;
        return;
    }
    cli_check_list("--todo", s);
    char *copy = strdup(s), *save = NULL;
    if (!copy)
        cli_die("out of memory");
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        o->todo |= 1 << (cli_long("--todo", t, 1, TODO_COUNT) - 1);
    free(copy);
}

void options_parse(options *o, int nvariants, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    cli_start(&o->run, argv[0], nvariants);
    o->k = 10;
    o->m = 4;
    const char *lens = "4K:1M:x4", *erasures = NULL; /* several lengths: the chart draws lines */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int took = cli_common_option(&o->run, a, val);
        if (took == 0) {
            took = 2; /* this stage's own options take a value */
            if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
                usage();
                exit(0);
            } else if (!strcmp(a, "--data")) {
                o->k = (int)cli_long(a, cli_value(a, val), 1, GF_MAX_CHUNKS - 1);
            } else if (!strcmp(a, "--parity")) {
                o->m = (int)cli_long(a, cli_value(a, val), 1, GF_MAX_CHUNKS - 1);
            } else if (!strcmp(a, "--len")) {
                lens = cli_value(a, val);
            } else if (!strcmp(a, "--erasures")) {
                erasures = cli_value(a, val);
            } else if (!strcmp(a, "--offset")) {
                o->offset = (int)cli_long(a, cli_value(a, val), 0, 63);
            } else if (!strcmp(a, "--todo")) {
                parse_todo(o, cli_value(a, val));
            } else {
                cli_die("unknown option '%s' (--help lists them)", a);
            }
        }
        i += took - 1;
    }
    if (o->k + o->m > GF_MAX_CHUNKS)
        cli_die("k + m = %d: a Cauchy code over GF(2^8) has at most %d chunks", o->k + o->m,
                GF_MAX_CHUNKS);
    parse_lens(o, lens);
    cli_thread_counts(&o->run, "--threads", 1);
    parse_erasures(o, erasures);
    /* Memory: data, reference parity, the variant's output, ISA-L's, the rebuilt chunks. */
    double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGE_SIZE);
    for (int i = 0; i < o->nlens; i++) {
        double need = (double)(o->k + 4 * o->m) * (double)(o->lens[i] + 64);
        if (phys > 0 && need > 0.8 * phys)
            cli_die("--len %zu with k=%d, m=%d needs %.1f GiB of memory; this machine has %.1f GiB",
                    o->lens[i], o->k, o->m, need / 1073741824.0, phys / 1073741824.0);
    }
}

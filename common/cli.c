#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "edges.h"
#include "sysinfo.h"

const char *cli_prog = "gemm";
int cli_device = -1;

void cli_die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", cli_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

long cli_long(const char *what, const char *s, long lo, long hi)
{
    if (!s || !*s)
        cli_die("%s needs a value", what);
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || end == s)
        cli_die("%s: '%s' is not a whole number", what, s);
    if (errno == ERANGE || v < lo || v > hi)
        cli_die("%s: %s is out of range (%ld to %ld)", what, s, lo, hi);
    return v;
}

double cli_double(const char *what, const char *s)
{
    if (!s || !*s)
        cli_die("%s needs a value", what);
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || end == s || !isfinite(v))
        cli_die("%s: '%s' is not a finite number", what, s);
    return v;
}

/* --alpha, --beta: a double that must stay finite as the float the kernels get (1e39 is +Inf),
 * and not vanish in it either (1e-50 would be 0: a run that computes nothing). */
static float cli_float(const char *what, const char *s)
{
    const double d = cli_double(what, s);
    float v = (float)d;
    if (!isfinite(v))
        cli_die("%s: %s is not a finite float (its magnitude must be below 3.4e38)", what, s);
    if (v == 0.0f && d != 0.0)
        cli_die("%s: %s is 0 as a float (the smallest nonzero float is 1.4e-45); give 0 if you "
                "mean it", what, s);
    return v;
}

void cli_check_list(const char *what, const char *s)
{
    if (!s)
        return;
    const size_t n = strlen(s);
    if (n > 0 && (s[0] == ',' || s[n - 1] == ',' || strstr(s, ",,")))
        cli_die("%s: '%s' has an empty item (a comma at an end, or two in a row)", what, s);
}

void cli_longs(const char *what, const char *form, const char *s, int n, long lo, long hi,
               long *out)
{
    if (!s || !*s)
        cli_die("%s: expects %d numbers %s", what, n, form);
    cli_check_list(what, s);
    char *copy = strdup(s);
    if (!copy)
        cli_die("out of memory");
    int got = 0;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (got == n)
            cli_die("%s: expects %d numbers %s, got '%s'", what, n, form, s);
        out[got++] = cli_long(what, t, lo, hi);
    }
    free(copy);
    if (got != n)
        cli_die("%s: expects %d numbers %s, got '%s'", what, n, form, s);
}

struct csv_file *cli_csv_open(const char *what, const char *path, const char *header)
{
    char err[512];
    struct csv_file *f = csv_open(path, header, err, sizeof err);
    if (!f)
        cli_die("%s %s", what, err);
    return f;
}

void cli_csv_row(struct csv_file *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *row = n >= 0 ? malloc((size_t)n + 1) : NULL, err[512];
    if (!row)
        cli_die("out of memory");
    va_start(ap, fmt);
    vsnprintf(row, (size_t)n + 1, fmt, ap);
    va_end(ap);
    if (csv_append(f, row, err, sizeof err) != 0)
        cli_die("%s", err);
    free(row);
}

int cli_csv_close(struct csv_file *f)
{
    char err[512];
    if (csv_close(f, err, sizeof err) == 0)
        return 0;
    fflush(stdout);
    fprintf(stderr, "%s: %s\n", cli_prog, err);
    return 2;
}

void cli_no_csv(const bench_opts *o, const char *mode)
{
    if (o->csv)
        cli_die("--csv: %s prints no result rows, so none would be written; leave --csv out", mode);
}

int cli_variant_runnable(const gemm_variant *v) { return !v->runnable || v->runnable(); }

static void add_shape(gemm_shape **out, int *n, int *cap, int m, int nn, int k)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *out = realloc(*out, sizeof(gemm_shape) * (size_t)*cap);
        if (!*out)
            cli_die("out of memory parsing sizes");
    }
    (*out)[(*n)++] = (gemm_shape){m, nn, k};
}

/* One size: "N" or "MxNxK"; every dimension >= 1. */
static int parse_dim(const char *what, const char *s)
{
    return (int)cli_long(what, s, 1, INT_MAX);
}

/* A whole number that must be there: "" (as in "7xx5" or "x7") is not one. */
static long size_part(const char *what, const char *item, const char *part, long lo, const char *form)
{
    if (!*part)
        cli_die("%s: '%s' is not %s", what, item, form);
    return cli_long(what, part, lo, INT_MAX);
}

int cli_parse_sizes(const char *what, const char *s, gemm_shape **out)
{
    static const char *const range = "a range like 256:4096:x2 or 100:1000:+100";
    static const char *const mnk = "MxNxK (three whole numbers joined by x, e.g. 7x13x5)";
    int n = 0, cap = 0;
    cli_check_list(what, s);
    char *copy = strdup(s ? s : "");
    if (!copy)
        cli_die("out of memory");
    *out = NULL;
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char whole[64];
        snprintf(whole, sizeof whole, "%s", item);
        char *colon = strchr(item, ':');
        char *x = strchr(item, 'x');
        if (colon) { /* lo:hi:xF (geometric) or lo:hi:+S (arithmetic) */
            char *c2 = strchr(colon + 1, ':');
            if (!c2 || (c2[1] != 'x' && c2[1] != '+') || strchr(c2 + 1, ':'))
                cli_die("%s: '%s' is not %s", what, whole, range);
            *colon = *c2 = '\0';
            long lo = size_part(what, whole, item, 1, range);
            long hi = size_part(what, whole, colon + 1, 1, range);
            long step = size_part(what, whole, c2 + 2, c2[1] == 'x' ? 2 : 1, range);
            if (hi < lo)
                cli_die("%s: range %ld:%ld runs backwards", what, lo, hi);
            for (long v = lo; v <= hi; v = c2[1] == 'x' ? v * step : v + step)
                add_shape(out, &n, &cap, (int)v, (int)v, (int)v);
        } else if (x) { /* MxNxK */
            char *x2 = strchr(x + 1, 'x');
            if (!x2 || strchr(x2 + 1, 'x'))
                cli_die("%s: '%s' is not %s", what, whole, mnk);
            *x = *x2 = '\0';
            int m = (int)size_part(what, whole, item, 1, mnk);
            int nn = (int)size_part(what, whole, x + 1, 1, mnk);
            int k = (int)size_part(what, whole, x2 + 1, 0, mnk); /* K = 0: C = beta*C */
            add_shape(out, &n, &cap, m, nn, k);
        } else {
            int v = parse_dim(what, item);
            add_shape(out, &n, &cap, v, v, v);
        }
    }
    free(copy);
    if (n == 0)
        cli_die("%s: no sizes given", what);
    return n;
}

/* The stage whose run modes the command line takes (bench_main's), and the one given. */
static const stage_info *mode_base;
static const stage_mode *mode_given;

void cli_set_mode(const stage_info *base, const stage_mode *mode)
{
    mode_base = base;
    mode_given = mode;
}

static int is_mode_flag(const char *a)
{
    for (int i = 0; mode_base && i < mode_base->nmodes; i++)
        if (!strcmp(a, mode_base->modes[i].flag))
            return 1;
    return 0;
}

static void usage(const stage_info *st)
{
    printf("%s: %s\n\n", st->stage, st->title);
    printf("usage: %s [options]\n"
           "  -m M -n N -k K        one problem (N and K default to M)\n"
           "  --sizes LIST          sweep, e.g. 128,256,511,1024 or 256:4096:x2 or 7x13x5\n"
           "                        (default %s)\n"
           "  --variant NAMES|all   comma-separated variants (default all); --list shows them\n"
           "  --threads T|LIST      OpenMP threads, e.g. 1,2 (the baseline gets the same)\n"
           "  --reps R              timed repetitions (default: until 0.2 s or 50 runs)\n"
           "  --time-limit S        stop a variant's sweep once one run takes longer (default 10)\n"
           "  --alpha A --beta B    default 1 and 0\n"
           "  --pad P               leading dimensions P larger than the widths (lda = K+P)\n"
           "  --check | --no-check  verify against the double-precision reference (default on)\n"
           "  --no-baseline         skip the vendor library\n"
           "  --baseline LIB        the CPU stages' library: openblas (default), mkl or blis;\n"
           "                        exit 77 when it is not installed (make deps-mkl, deps-blis)\n"
           "  --csv FILE            append result rows to FILE (created with its header; a file\n"
           "                        with another header is refused; a pipe or FIFO gets the\n"
           "                        header, then the rows); --csv - writes the rows to\n"
           "                        standard output and the table to standard error\n"
           "  --device D --gpus N   CUDA device / number of GPUs (GPU stages)\n"
           "  --seed S              input seed (default 1)\n"
           "  --edges               the edge cases instead: K = 0, alpha = 0, empty and negative\n"
           "                        sizes, NaN and Inf in A or B, overflow (common/edges.h);\n"
           "                        with --csv, one row a case under a header of its own\n"
           "  --list                list the variants\n"
           "  -h, --help\n",
           cli_prog, st->default_sizes);
    if (st->extra_help)
        printf("%s", st->extra_help);
    for (int i = 0; mode_base && i < mode_base->nmodes; i++)
        if (mode_base->modes[i].help)
            printf("%s", mode_base->modes[i].help);
}

const gemm_variant *cli_row(const cli_table *t, int v)
{
    return (const gemm_variant *)((const char *)t->first + (size_t)v * t->stride);
}

void cli_list_variants(const cli_table *t)
{
    for (int v = 0; v < t->n; v++) {
        const gemm_variant *va = cli_row(t, v);
        printf("%-16s %s", va->name, va->desc);
        if (!cli_variant_runnable(va))
            printf(" [not here: this machine lacks %s]", va->needs ? va->needs : "what it needs");
        printf("\n");
    }
}

static int find_variant(const cli_table *t, const char *name)
{
    for (int v = 0; v < t->n; v++)
        if (strcmp(cli_row(t, v)->name, name) == 0)
            return v;
    return -1;
}

void cli_select_variants(const cli_table *t, bench_opts *o)
{
    const char *s = o->variant_list ? o->variant_list : "all";
    cli_check_list("--variant", s);
    if (strcmp(s, "all") == 0) {
        for (int v = 0; v < t->n; v++)
            o->selected[v] = cli_variant_runnable(cli_row(t, v));
        return;
    }
    char *copy = strdup(s);
    if (!copy)
        cli_die("out of memory");
    int named = 0;
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name;
         name = strtok_r(NULL, ",", &save), named++) {
        int v = find_variant(t, name);
        if (v < 0 && strcmp(name, "all") == 0)
            cli_die("--variant: 'all' stands alone ('%s'): give all, or a list of names", s);
        if (v < 0)
            cli_die("--variant: unknown variant '%s' (--list shows them)", name);
        if (cli_variant_runnable(cli_row(t, v)))
            o->selected[v] = 1;
        else if (o->unrunnable < 0)
            o->unrunnable = v;
    }
    free(copy);
    if (named == 0)
        cli_die("--variant: no variant named in '%s' (--list shows them; all runs every one)", s);
}

void cli_thread_counts(bench_opts *o, const char *what, int dflt)
{
    o->nthreads = 0;
    if (!o->thread_list) {
        o->threads[o->nthreads++] = dflt;
        return;
    }
    cli_check_list(what, o->thread_list);
    char *copy = strdup(o->thread_list);
    if (!copy)
        cli_die("out of memory");
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (o->nthreads == CLI_MAX_THREADS)
            cli_die("%s: at most %d counts", what, CLI_MAX_THREADS);
        o->threads[o->nthreads++] = (int)cli_long(what, t, 1, 1024);
    }
    free(copy);
    if (o->nthreads == 0)
        cli_die("%s: no count given", what);
}

void cli_start(bench_opts *o, const char *argv0, int nvariants)
{
    const char *slash = strrchr(argv0, '/');
    cli_prog = slash ? slash + 1 : argv0;
    memset(o, 0, sizeof *o);
    o->min_time = 0.2;
    o->max_reps = 50;
    o->time_limit = 10.0;
    o->alpha = 1.0f;
    o->beta = 0.0f;
    o->check = 1;
    o->baseline = 1;
    o->gpus = 1;
    o->seed = 1;
    o->unrunnable = -1;
    o->selected = calloc((size_t)nvariants + 1, sizeof(int));
    if (!o->selected)
        cli_die("out of memory");
}

const char *cli_value(const char *opt, const char *val)
{
    if (!val)
        cli_die("%s needs a value", opt);
    return val;
}

/* The common options that take a value: 1 if `a` is one (and val was read), else 0. */
static int common_value(bench_opts *o, const char *a, const char *val)
{
    if (!strcmp(a, "--variant")) {
        o->variant_list = cli_value(a, val);
    } else if (!strcmp(a, "--threads")) {
        o->thread_list = cli_value(a, val);
    } else if (!strcmp(a, "--reps")) {
        o->reps = (int)cli_long(a, cli_value(a, val), 1, 1000000);
    } else if (!strcmp(a, "--time-limit")) {
        o->time_limit = cli_double(a, cli_value(a, val));
        if (o->time_limit <= 0)
            cli_die("--time-limit: must be positive");
    } else if (!strcmp(a, "--csv")) {
        o->csv = cli_value(a, val);
    } else if (!strcmp(a, "--device")) {
        o->device = cli_device = (int)cli_long(a, cli_value(a, val), 0, 1024);
    } else if (!strcmp(a, "--seed")) {
        o->seed = (uint64_t)cli_long(a, cli_value(a, val), 0, LONG_MAX);
    } else {
        return 0;
    }
    return 1;
}

int cli_common_option(bench_opts *o, const char *a, const char *val)
{
    if (!strcmp(a, "--list"))
        o->list = 1;
    else if (!strcmp(a, "--check") || !strcmp(a, "--no-check"))
        o->check = !strcmp(a, "--check");
    else if (!strcmp(a, "--no-baseline"))
        o->baseline = 0;
    else
        return common_value(o, a, val) ? 2 : 0;
    return 1;
}

/* --baseline LIB: one of the words of the backend's baselines, else exit 2. */
static const char *baseline_choice(const stage_info *st, const char *lib)
{
    const char *list = st->backend ? st->backend->baselines : NULL;
    if (!list)
        cli_die("--baseline: %s has a baseline of its own (%s); openblas, mkl and blis are the "
                "CPU GEMM stages' choices", st->stage,
                st->backend ? st->backend->baseline_name : "see --help");
    size_t n = strlen(lib);
    for (const char *w = list; *w; w += strcspn(w, " "), w += strspn(w, " "))
        if (n > 0 && strncmp(w, lib, n) == 0 && (w[n] == ' ' || w[n] == '\0'))
            return lib;
    cli_die("--baseline: '%s' is not one of: %s", lib, list);
}

void cli_parse(const stage_info *st, int argc, char **argv, bench_opts *o)
{
    cli_start(o, argv[0], st->nvariants);
    o->mode = mode_given;
    long m = 0, n = 0, k = -1; /* k -1: not given */
    const char *sizes = NULL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int took = 2; /* the GEMM's own options below take a value, except where set to 1 */
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(st);
            exit(0);
        } else if (!strcmp(a, "-m")) {
            m = cli_long("-m", cli_value(a, val), 1, INT_MAX);
        } else if (!strcmp(a, "-n")) {
            n = cli_long("-n", cli_value(a, val), 1, INT_MAX);
        } else if (!strcmp(a, "-k")) {
            k = cli_long("-k", cli_value(a, val), 0, INT_MAX);
        } else if (!strcmp(a, "--sizes")) {
            sizes = cli_value(a, val);
        } else if (!strcmp(a, "--threads") && st->gpus_sweep) {
            cli_die("--threads: this stage sweeps GPUs; use --gpus LIST");
        } else if (!strcmp(a, "--alpha")) {
            o->alpha = cli_float("--alpha", cli_value(a, val));
        } else if (!strcmp(a, "--beta")) {
            o->beta = cli_float("--beta", cli_value(a, val));
        } else if (!strcmp(a, "--pad")) {
            o->pad = (int)cli_long("--pad", cli_value(a, val), 0, 1 << 20);
        } else if ((!strcmp(a, "--gpus") || !strcmp(a, "--device")) && st->backend &&
                   st->backend->baselines) { /* a CPU stage: its backend offers the BLASes */
            cli_die("%s: %s runs on the CPU; --device and --gpus are the GPU stages' options", a,
                    st->stage);
        } else if (!strcmp(a, "--gpus")) {
            if (st->gpus_sweep)
                o->thread_list = cli_value(a, val); /* a list of GPU counts, swept like threads */
            else
                o->gpus = (int)cli_long("--gpus", cli_value(a, val), 1, 1024);
        } else if (!strcmp(a, "--baseline")) {
            o->baseline_lib = baseline_choice(st, cli_value(a, val));
        } else if (!strcmp(a, "--edges")) {
            o->edges = 1;
            took = 1;
        } else if (is_mode_flag(a)) { /* bench_main has seen it */
            took = 1;
        } else {
            took = cli_common_option(o, a, val);
            if (took == 0 && st->extra_option)
                took = st->extra_option(o, a, val);
            if (took == 0)
                cli_die("unknown option '%s' (--help lists them)", a);
        }
        i += took - 1;
    }

    if (o->edges) { /* its rows have a schema of their own (edges.h): edges_main opens the file */
        edges_csv = o->csv;
        o->csv = NULL;
    }
    const cli_table table = {st->variants, sizeof *st->variants, st->nvariants};
    if (o->list) {
        cli_list_variants(&table);
        exit(0);
    }
    if ((n || k >= 0) && !m)
        cli_die("-n and -k need -m as well");
    if (m && sizes)
        cli_die("give either -m/-n/-k or --sizes, not both");
    if (m) {
        o->shapes = malloc(sizeof(gemm_shape));
        if (!o->shapes)
            cli_die("out of memory");
        o->shapes[0] = (gemm_shape){(int)m, (int)(n ? n : m), (int)(k >= 0 ? k : (n ? n : m))};
        o->nshapes = 1;
    } else if (!o->shapes) { /* an extra option (a preset) may have set shapes */
        o->nshapes = cli_parse_sizes("--sizes", sizes ? sizes : st->default_sizes, &o->shapes);
    }
    cli_select_variants(&table, o);
    cli_thread_counts(o, st->gpus_sweep ? "--gpus" : "--threads",
                      st->default_threads > 0 ? st->default_threads : sysinfo_cores());
}

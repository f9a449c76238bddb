/* bench.c: the bench loop (bench.h): every selected variant at every size and thread count, checked
 * once on poisoned C, then timed alternately with the baseline; a table row and a CSV row each.
 * Why it is one file: the loop, its table and CSV rows and the load and spread they report share
 * one row of results and one order of runs; apart, each part would need the others' insides.
 */
#include "bench.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpu_features.h"
#include "csv.h"
#include "edges.h"
#include "matrix.h"
#include "sysinfo.h"
#include "timer.h"
#include "verify.h"

static double flops_of(const gemm_shape *s) { return 2.0 * s->m * (double)s->n * s->k; }

double bench_gflops(const bench_opts *o, const gemm_shape *s, double ms)
{
    return o->alpha == 0.0f || ms <= 0 ? -1 : flops_of(s) / (ms * 1e6);
}

/* Rows of B and the width of A's rows: K, or one when K = 0 (lda >= max(1, K), as in BLAS). */
static int k_rows(const gemm_shape *s) { return s->k > 0 ? s->k : 1; }

/* Bytes of the host buffers bench_run allocates for one shape. */
static double host_bytes(const gemm_shape *s, const bench_opts *o)
{
    double lda = (double)k_rows(s) + o->pad, ldn = (double)s->n + o->pad;
    double c_copies = 1 + (o->beta != 0.0f) + (o->pad > 0);
    return 4.0 * (s->m * lda + k_rows(s) * ldn + c_copies * s->m * ldn);
}

/* Reject, before anything runs, a size whose leading dimensions leave the int of gemm_fn
 * (computed in 64 bits: K + pad itself may overflow), or whose buffers can't fit. */
void bench_check_sizes(const bench_opts *o)
{
    double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGE_SIZE);
    for (int i = 0; i < o->nshapes; i++) {
        const gemm_shape *s = &o->shapes[i];
        int64_t lda = (int64_t)k_rows(s) + o->pad, ldn = (int64_t)s->n + o->pad;
        if (lda > INT_MAX)
            cli_die("size %dx%dx%d: lda = K + pad = %lld exceeds the int range of the leading "
                    "dimension (%d)", s->m, s->n, s->k, (long long)lda, INT_MAX);
        if (ldn > INT_MAX)
            cli_die("size %dx%dx%d: ldb = ldc = N + pad = %lld exceeds the int range of the "
                    "leading dimension (%d)", s->m, s->n, s->k, (long long)ldn, INT_MAX);
        if (!matrix_bytes(s->m, (int)lda) || !matrix_bytes(k_rows(s), (int)ldn) ||
            !matrix_bytes(s->m, (int)ldn))
            cli_die("size %dx%dx%d: the buffers overflow size_t", s->m, s->n, s->k);
        double need = host_bytes(s, o);
        if (phys > 0 && need > 0.9 * phys)
            cli_die("size %dx%dx%d needs %.1f GiB of host memory; this machine has %.1f GiB",
                    s->m, s->n, s->k, need / 1073741824.0, phys / 1073741824.0);
        /* asked for now, untouched (it costs no pages), and given back: a limit (ulimit -v) that
         * refuses it refuses before the table's head is printed, not in the middle of it */
        void *room = need < (double)SIZE_MAX / 2 ? malloc((size_t)need + 4096 * 8) : NULL;
        if (!room)
            cli_die("size %dx%dx%d: cannot allocate %.1f GiB of host memory", s->m, s->n, s->k,
                    need / 1073741824.0);
        free(room);
    }
}

/* What built the kernels: the backend says (nvcc for CUDA stages), else the harness's C compiler. */
static const char *kernel_compiler(const bench_backend *be)
{
    return be->compiler ? be->compiler() : sysinfo_compiler();
}

/* --include-transfers times something else than the kernel alone: every name says so. */
static const char *name_suffix(const bench_opts *o) { return o->include_transfers ? "+transfers" : ""; }

typedef bench_row row;

#define CSV_HEADER                                                                           \
    "stage,variant,m,n,k,threads,reps,ms_median,ms_min,gflops,baseline,baseline_gflops,"      \
    "max_err_ratio,check,device,compiler,git,date,load,ratio_spread"

/* The header before the load and ratio_spread columns: such a file is refused with the way out. */
#define CSV_HEADER_18                                                                        \
    "stage,variant,m,n,k,threads,reps,ms_median,ms_min,gflops,baseline,baseline_gflops,"      \
    "max_err_ratio,check,device,compiler,git,date"

void bench_open_csv(bench_opts *o)
{
    /* (a regular file only: a FIFO opened to read waits for a writer, a pipe for its data) */
    struct stat st;
    if (o->csv && !o->csv_out && stat(o->csv, &st) == 0 && S_ISREG(st.st_mode)) {
        FILE *f = fopen(o->csv, "r");
        char line[sizeof CSV_HEADER_18 + 2] = "";
        if (f && fgets(line, sizeof line, f))
            line[strcspn(line, "\r\n")] = '\0'; /* CRLF too: upgrade-csv.sh makes it LF */
        if (strcmp(line, CSV_HEADER_18) == 0)
            cli_die("--csv %s: written before the harness recorded the load and the ratios' "
                    "spread: lab/scripts/upgrade-csv.sh %s adds the two columns (or write to a new "
                    "file)", o->csv, o->csv);
        if (f)
            fclose(f);
    }
    if (o->csv && !o->csv_out)
        o->csv_out = cli_csv_open("--csv", o->csv, CSV_HEADER);
}

int bench_close_csv(bench_opts *o)
{
    int rc = o->csv_out ? cli_csv_close(o->csv_out) : 0;
    o->csv_out = NULL;
    return rc;
}

/* One CSV row (common/csv.c writes it whole or not at all). */
static void write_csv_row(const stage_info *st, const bench_opts *o, const row *r)
{
    if (!o->csv_out)
        return;
    char dev[256], comp[128], date[32], base[64] = "", err[32] = "", bname[64], load[16] = "",
        spread[16] = "";
    const bench_backend *be = st->backend;
    csv_field(dev, sizeof dev, be->device_name());
    csv_field(comp, sizeof comp, kernel_compiler(be));
    snprintf(bname, sizeof bname, "%s%s", be->baseline_name, name_suffix(o));
    sysinfo_utc_now(date, sizeof date);
    const double g = bench_gflops(o, r->s, r->ms_median), bg = bench_gflops(o, r->s, r->base_ms);
    char gflops[32] = ""; /* empty where there is no rate (alpha = 0), as baseline_gflops */
    if (g >= 0)
        snprintf(gflops, sizeof gflops, "%.3f", g);
    if (r->base_ms > 0 && bg >= 0)
        snprintf(base, sizeof base, "%.3f", bg);
    if (r->checked)
        snprintf(err, sizeof err, "%.3g", r->vr.max_err_ratio);
    if (r->load >= 0)
        snprintf(load, sizeof load, "%.2f", r->load);
    if (r->spread >= 0)
        snprintf(spread, sizeof spread, "%.3f", r->spread);
    cli_csv_row(o->csv_out, "%s,%s,%d,%d,%d,%d,%d,%.6f,%.6f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s",
                st->stage, r->variant, r->s->m, r->s->n, r->s->k, r->threads, r->reps,
                r->ms_median, r->ms_min, gflops, o->baseline ? bname : "",
                base, err, r->checked ? (r->vr.pass ? "PASS" : "FAIL") : "-", dev, comp,
                sysinfo_git_rev(), date, load, spread);
}

static void print_table_head(const stage_info *st, const bench_opts *o)
{
    char vs[48] = "no baseline"; /* --no-baseline, or none loaded: the column holds "-" */
    if (o->baseline)
        snprintf(vs, sizeof vs, "vs %s%s", st->backend->baseline_name, name_suffix(o));
    printf("%-16s ", "variant");
    if (o->nthreads > 1) /* several thread (GPU) counts: each row says which */
        printf("%7s ", st->gpus_sweep ? "gpus" : "threads");
    printf("%6s %6s %6s %10s %9s %16s %9s  %s\n", "M", "N", "K", "ms", "GFLOP/s", vs, "rel.err",
           "check");
}

static void print_row(const bench_opts *o, const row *r)
{
    const double g = bench_gflops(o, r->s, r->ms_median);
    char ratio[48] = "-", err[32] = "-", busy[48] = "", gflops[32] = "-";
    if (g >= 0)
        snprintf(gflops, sizeof gflops, "%.2f", g);
    int wide = 0; /* bytes that print as no column: the 2-byte UTF-8 of the plus-minus sign */
    if (r->base_ms > 0 && r->spread >= 0) {
        snprintf(ratio, sizeof ratio, "%.2fx \u00b1%.0f%%", r->base_ms / r->ms_median, 100 * r->spread);
        wide = 1;
    } else if (r->base_ms > 0) {
        snprintf(ratio, sizeof ratio, "%.2fx", r->base_ms / r->ms_median);
    }
    if (r->checked)
        snprintf(err, sizeof err, "%.1e", r->vr.rel_err);
    if (r->load >= BENCH_BUSY_CORES)
        snprintf(busy, sizeof busy, "  busy: others used %.1f cores", r->load);
    printf("%-16s ", r->variant);
    if (o->nthreads > 1)
        printf("%7d ", r->threads);
    printf("%6d %6d %6d %10.3f %9s %*s %9s  %s%s\n", r->s->m, r->s->n, r->s->k,
           r->ms_median, gflops, 16 + wide, ratio, err,
           r->checked ? (r->vr.pass ? "PASS" : "FAIL") : "-", busy);
    if (r->checked && !r->vr.pass) { /* say why, so that a failing row can be acted on */
        char why[256];
        verify_describe(&r->vr, why, sizeof why);
        printf("    first bad element: %s\n", why);
    }
    fflush(stdout);
}

/* ---- how busy the machine was ------------------------------------------------------------ */

static sysinfo_load run_start;  /* a reading as the table begins */
static int busy_rows, load_rows;
static double most_load = -1;

void bench_print_load_start(int marks_rows)
{
    int running;
    const double avg = sysinfo_loadavg(&running);
    const int cores = sysinfo_cores();
    sysinfo_load_now(&run_start);
    busy_rows = load_rows = 0;
    most_load = -1;
    if (running < 0) {
        printf("%-10s unknown here (no /proc/loadavg)\n", "load");
        return;
    }
    /* less this program's own runnable threads (this one, and OpenMP's or OpenBLAS's that
     * still spin after a parallel region), read just after the count; the least of three
     * readings 5 ms apart, so that a process passing through (the shell's next command, a pipe's
     * reader) does not make a quiet machine read as busy */
    int others = running - sysinfo_self_running();
    for (int i = 0; i < 2 && others > 0; i++) {
        nanosleep(&(struct timespec){0, 5000000}, NULL);
        int now;
        sysinfo_loadavg(&now);
        now -= sysinfo_self_running();
        others = now < others ? now : others;
    }
    printf("%-10s %d other thread(s) running as the run starts, on %d cores; load average %.2f "
           "(1 min)\n", "load", others > 0 ? others : 0, cores, avg);
    if (others >= 1)
        printf("%-10s the machine is busy as the run starts: times and ratios may be off%s\n",
               "warning", marks_rows ? " (rows measured under load say so)" : "");
}

static void bench_print_load(void)
{
    sysinfo_load end;
    sysinfo_load_now(&end);
    double steal, others = sysinfo_others(&run_start, &end, &steal);
    const int cores = sysinfo_cores();
    if (others < 0 && most_load < 0)
        return; /* a run too short to tell (or no /proc/stat) */
    if (others < 0)
        others = most_load;
    if (busy_rows > 0 && others < BENCH_BUSY_CORES)
        /* busy in bursts: a row's load is its own, the run's an average of all of it */
        printf("%-10s the machine was busy at times: %d of %d rows were measured under load (other "
               "processes used %.1f of %d cores over the whole run); their times and ratios are "
               "not this machine's alone\n", "warning", busy_rows, load_rows, others, cores);
    else if (busy_rows > 0 || others >= BENCH_BUSY_CORES)
    {
        char rows[64] = "";
        if (load_rows > 0)
            snprintf(rows, sizeof rows, " (%d of %d rows marked busy)", busy_rows, load_rows);
        printf("%-10s the machine was busy: other processes used %.1f of %d cores during the run"
               "%s%s; their times and ratios are not this machine's alone\n", "warning", others,
               cores, rows, steal > 0.05 ? ", some of it taken by the hypervisor" : "");
    }
    else
        printf("%-10s quiet: other processes used %.1f of %d cores during the run%s\n", "load",
               others, cores, steal > 0.05 ? " (the hypervisor took some)" : "");
}

/* ---- what cannot run here --------------------------------------------------------------- */

static int not_here;                /* lines printed by bench_print_not_here */
static const char *not_here_where; /* their word, "CPU", "GPU", or "machine" when they differ */

void bench_print_tally(int passed, int failed)
{
    bench_print_load();
    bench_print_tally_line(passed, failed);
}

void bench_print_tally_line(int passed, int failed)
{
    printf("\n%d passed, %d failed", passed, failed);
    if (not_here > 0)
        printf(", %d not on this %s", not_here, not_here_where);
    printf("\n");
}

void bench_print_not_here(const char *name, const char *where, const char *needs)
{
    printf("%-16s not on this %s: needs %s\n", name, where, needs ? needs : "what it lacks");
    not_here_where = not_here++ == 0 || strcmp(not_here_where, where) == 0 ? where : "machine";
}

int bench_not_here(const cli_table *t, const bench_opts *o, int v)
{
    const char *list = o->variant_list ? o->variant_list : "all";
    const char *name = cli_row(t, v)->name;
    if (cli_variant_runnable(cli_row(t, v)))
        return 0;
    if (strcmp(list, "all") == 0)
        return 1;
    const size_t n = strlen(name); /* named in the list (cli_parse has checked every name) */
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

int bench_check_runnable(const cli_table *t, bench_opts *o)
{
    o->unrunnable = -1;
    for (int v = 0; v < t->n; v++)
        if (o->selected[v])
            return 0; /* something runs */
    char why[1024] = "";
    for (int v = 0; v < t->n; v++)
        if (bench_not_here(t, o, v)) {
            const gemm_variant *va = cli_row(t, v);
            snprintf(why + strlen(why), sizeof why - strlen(why), "%s%s needs %s", *why ? ", " : "",
                     va->name, va->needs ? va->needs : "what it does not have");
        }
    fflush(stdout);
    fprintf(stderr, "%s: --variant %s, which this machine lacks: skipped\n", cli_prog, why);
    return 77;
}

void bench_print_header(const stage_info *st, const bench_opts *o)
{
    printf("== %s: %s ==\n", st->stage, st->title);
    st->backend->print_header(stdout, o);
    printf("%-10s %s", st->gpus_sweep ? "gpus" : "threads", "");
    for (int t = 0; t < o->nthreads; t++)
        printf("%s%d", t ? "," : "", o->threads[t]);
    printf("\n%-10s %s (git %s)\n", "compiler", kernel_compiler(st->backend),
           sysinfo_git_rev());
    if (o->check)
        printf("%-10s double-precision reference; |err| <= c(K+2)u(|alpha||A||B| + |beta||C|), "
               "u = 2^-24; C poisoned before each checked run\n", "check");
    else
        printf("%-10s off (--no-check)\n", "check");
    cpu_print_hidden(stdout);
    bench_print_load_start(1);
    printf("\n");
    print_table_head(st, o);
    const cli_table table = {st->variants, sizeof *st->variants, st->nvariants};
    for (int v = 0; v < st->nvariants; v++) /* (a backend with a compiler of its own is CUDA's) */
        if (bench_not_here(&table, o, v))
            bench_print_not_here(st->variants[v].name, st->backend->compiler ? "GPU" : "CPU",
                                 st->variants[v].needs);
    fflush(stdout);
}

static void progress(const char *what, const gemm_shape *s)
{
    if (isatty(STDERR_FILENO)) {
        fprintf(stderr, "  running %s %dx%dx%d ...\r", what, s->m, s->n, s->k);
        fflush(stderr);
    }
}

static void progress_clear(void)
{
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "%60s\r", "");
}

/* Set the run's C to what it must hold before a checked run: the NaN poison when beta == 0
 * (so an unwritten element fails, and the check can tell it was unwritten), else C0. */
static void prepare_c(bench_problem *p, const float *C0, const bench_opts *o)
{
    if (o->beta == 0.0f)
        matrix_fill(p->C, p->M, p->ldc, verify_poison());
    else
        matrix_copy(p->C, C0, p->M, p->ldc);
}

/* One run on the backend, of fn (NULL: the baseline), for timer_alternate. */
typedef struct backend_run {
    const bench_backend *be;
    bench_problem *p;
    gemm_fn *fn;
} backend_run;

static double run_on_backend(void *arg)
{
    const backend_run *r = (const backend_run *)arg;
    return r->be->run(r->p, r->fn);
}

/* How far the ratios of n alternated pairs (baseline time over the variant's) spread: half the
 * range of the middle 80% (all of them below 10 pairs), over their median; -1 below 2 pairs. */
static double ratio_spread(const double *tv, const double *tb, int n)
{
    if (n < 2)
        return -1;
    double *q = malloc(sizeof(double) * (size_t)n);
    if (!q)
        return -1;
    for (int i = 0; i < n; i++)
        q[i] = tv[i] > 0 ? tb[i] / tv[i] : 0;
    const double med = timer_median(q, n); /* (sorts q) */
    const int cut = n >= 10 ? n / 10 : 0;
    const double s = med > 0 ? 0.5 * (q[n - 1 - cut] - q[cut]) / med : -1;
    free(q);
    return s;
}

static void note_load(double load)
{
    if (load < 0)
        return;
    load_rows++;
    busy_rows += load >= BENCH_BUSY_CORES;
    most_load = load > most_load ? load : most_load;
}

/* ---- the inputs a call must leave alone ------------------------------------------------------
 * A, B and C are allocated with GUARD floats before and after them, filled with a pattern no
 * arithmetic produces; A and B (padding included) are hashed once filled. After each variant's
 * runs the guards must be whole and A and B unchanged: a kernel that writes one element past a
 * matrix, or into B, fails its check with that said, instead of passing on a buffer it broke
 * (the sanitizer build finds writes farther away). Under AddressSanitizer the guards are poisoned
 * instead: any read or write of one stops the run with the sanitizer's report. */
enum { GUARD = 64 };
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define GUARDS_POISONED 1
#else
#define GUARDS_POISONED 0
#define ASAN_POISON_MEMORY_REGION(a, n) ((void)(a), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(a, n) ((void)(a), (void)(n))
#endif
#define GUARD_BITS 0x7f80beefu

static float guard_value(void)
{
    const uint32_t bits = GUARD_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* rows*ld floats between two guards, 64-byte aligned (GUARD floats are 256 bytes) */
static float *guarded_alloc(int rows, int ld)
{
    size_t bytes = matrix_bytes(rows, ld);
    if (bytes == 0 || bytes > SIZE_MAX - 2 * GUARD * sizeof(float) - 64)
        return NULL;
    bytes = (bytes + 2 * GUARD * sizeof(float) + 63) / 64 * 64;
    float *base = aligned_alloc(64, bytes);
    if (!base)
        return NULL;
    const size_t n = (size_t)rows * (size_t)ld;
    const float g = guard_value();
    for (int i = 0; i < GUARD; i++)
        base[i] = base[GUARD + n + (size_t)i] = g;
    ASAN_POISON_MEMORY_REGION(base, GUARD * sizeof(float));
    ASAN_POISON_MEMORY_REGION(base + GUARD + n, GUARD * sizeof(float));
    return base + GUARD;
}

static void guarded_free(float *p, int rows, int ld)
{
    if (!p)
        return;
    const size_t n = (size_t)rows * (size_t)ld;
    ASAN_UNPOISON_MEMORY_REGION(p - GUARD, GUARD * sizeof(float));
    ASAN_UNPOISON_MEMORY_REGION(p + n, GUARD * sizeof(float));
    free(p - GUARD);
}

/* 0, or the signed distance in floats of the changed guard element nearest the matrix */
static int guard_broken(const float *p, size_t n)
{
    if (GUARDS_POISONED) /* (the sanitizer has stopped any run that touched them) */
        return 0;
    uint32_t bits;
    for (int i = 1; i <= GUARD; i++) {
        memcpy(&bits, p - i, sizeof bits);
        if (bits != GUARD_BITS)
            return -i;
    }
    for (int i = 0; i < GUARD; i++) {
        memcpy(&bits, p + n + (size_t)i, sizeof bits);
        if (bits != GUARD_BITS)
            return i + 1;
    }
    return 0;
}

static uint64_t hash_floats(const float *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, p + i, sizeof bits);
        h = (h ^ bits) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
    }
    return h;
}

/* A or B as it was filled (padding -999, then the random values): for finding what changed. */
static void fill_input(float *X, int rows, int cols, int ld, uint64_t seed)
{
    matrix_fill(X, rows, ld, -999.0f);
    matrix_fill_random(X, rows, cols, ld, seed);
}

typedef struct input_guard {
    float *X;
    int rows, cols, ld; /* rows*ld floats hashed; cols of them random a row */
    uint64_t seed, hash;
    char name;
} input_guard;

/* After a variant's runs: the guards of A, B and C whole, A and B as filled; else r's check fails
 * with what was broken, and A and B are filled again for the next variant. */
static void check_inputs(input_guard *in, int nin, const float *C, size_t c_floats, row *r)
{
    verify_bad bad = {VERIFY_OK, 0, 0, 0, 0.0f, 0.0, 0.0, 0, 0};
    for (int m = 0; m < nin && bad.kind == VERIFY_OK; m++) {
        const size_t n = (size_t)in[m].rows * (size_t)in[m].ld;
        int d = guard_broken(in[m].X, n);
        if (d) {
            bad = (verify_bad){VERIFY_OUTSIDE, 0, d, 0, 0.0f, 0.0, 0.0, 0, in[m].name};
        } else if (hash_floats(in[m].X, n) != in[m].hash) {
            float *orig = matrix_alloc(in[m].rows, in[m].ld);
            bad = (verify_bad){VERIFY_INPUT, 0, 0, 0, 0.0f, 0.0, 0.0, 0, in[m].name};
            if (orig) {
                fill_input(orig, in[m].rows, in[m].cols, in[m].ld, in[m].seed);
                for (size_t e = 0; e < n; e++)
                    if (memcmp(&orig[e], &in[m].X[e], sizeof(float)) != 0) {
                        bad.i = (int)(e / (size_t)in[m].ld);
                        bad.j = (int)(e % (size_t)in[m].ld);
                        bad.got = in[m].X[e];
                        bad.want = orig[e];
                        break;
                    }
                matrix_free(orig);
            }
        }
    }
    if (bad.kind == VERIFY_OK && C) {
        int d = guard_broken(C, c_floats);
        if (d)
            bad = (verify_bad){VERIFY_OUTSIDE, 0, d, 0, 0.0f, 0.0, 0.0, 0, 'C'};
    }
    if (bad.kind == VERIFY_OK)
        return;
    for (int m = 0; m < nin; m++) { /* whole again for the next variant */
        const size_t n = (size_t)in[m].rows * (size_t)in[m].ld;
        fill_input(in[m].X, in[m].rows, in[m].cols, in[m].ld, in[m].seed);
        for (int i = 1; i <= GUARD && !GUARDS_POISONED; i++)
            in[m].X[-i] = in[m].X[n + (size_t)i - 1] = guard_value();
    }
    if (C && !GUARDS_POISONED) {
        for (int i = 1; i <= GUARD; i++)
            ((float *)C)[-i] = ((float *)C)[c_floats + (size_t)i - 1] = guard_value();
    }
    if (r->checked) {
        r->vr.pass = 0;
        r->vr.bad = r->vr.bad > 0 ? r->vr.bad : 1;
        r->vr.first = bad;
    }
}

/* The baseline's row name: its library's name in lower case ("cuBLAS" -> "cublas"). */
static void lower_name(char *dst, size_t len, const char *src)
{
    size_t j = 0;
    for (; *src && j + 1 < len; src++)
        dst[j++] = (char)(*src >= 'A' && *src <= 'Z' ? *src - 'A' + 'a' : *src);
    dst[j] = '\0';
}

/* Check one variant and time it, alternating with the baseline. */
static void measure(const stage_info *st, const bench_opts *o, bench_problem *p, const float *C0,
                    float *C_in, const gemm_variant *v, uint64_t seed, row *r, double *tv,
                    double *tb)
{
    const bench_backend *be = st->backend;
    sysinfo_load before, after;
    sysinfo_load_now(&before);
    p->variant = v;
    prepare_c(p, C0, o);
    if (C_in)
        matrix_copy(C_in, p->C, p->M, p->ldc);
    be->put_c(p);
    double warm = be->run(p, v->fn); /* the checked run is the warm-up */
    if (o->check) {
        be->get_c(p);
        r->vr = verify_gemm(p->M, p->N, p->K, p->alpha, p->A, p->lda, p->B, p->ldb, p->beta, C0,
                            C_in ? C_in : p->C, p->C, p->ldc, v->err_c, v->err_in, v->normwise,
                            seed);
        r->checked = 1;
    }
    const timer_rule rule = {o->reps, 1e3 * o->min_time, o->max_reps};
    backend_run variant = {be, p, v->fn}, baseline = {be, p, NULL};
    int n = timer_alternate(&rule, warm, run_on_backend, &variant,
                            o->baseline ? run_on_backend : NULL, &baseline, tv, tb);
    r->reps = n;
    r->spread = o->baseline ? ratio_spread(tv, tb, n) : -1;
    r->ms_min = timer_min(tv, n);
    r->ms_median = timer_median(tv, n);
    r->base_ms = o->baseline ? timer_median(tb, n) : 0;
    sysinfo_load_now(&after);
    double steal;
    r->load = sysinfo_others(&before, &after, &steal);
    if (r->load < 0) /* a row too short to tell alone (the clock ticks every 10 ms): the run's
                        load so far, where that is long enough */
        r->load = sysinfo_others(&run_start, &after, &steal);
    if (r->load >= 0 && steal > 0)
        r->load += steal;
    note_load(r->load);
}

int bench_run(const stage_info *st, const bench_opts *o, int *passed)
{
    const bench_backend *be = st->backend;
    int npass = 0, nfail = 0;
    int cap = o->reps > o->max_reps ? o->reps : o->max_reps;
    double *tv = malloc(sizeof(double) * (size_t)cap * 2);
    double *limit = malloc(sizeof(double) * (size_t)st->nvariants); /* flops past the limit */
    double *base_all = malloc(sizeof(double) * (size_t)cap * (size_t)(st->nvariants + 1));
    if (!tv || !limit || !base_all)
        cli_die("out of memory");
    double *tb = tv + cap;

    for (int ti = 0; ti < o->nthreads; ti++) {
        int threads = o->threads[ti];
        be->set_threads(threads);
        for (int v = 0; v < st->nvariants; v++)
            limit[v] = INFINITY;
        for (int si = 0; si < o->nshapes; si++) {
            const gemm_shape *s = &o->shapes[si];
            bench_problem p = {s->m, s->n, s->k, k_rows(s) + o->pad, s->n + o->pad, s->n + o->pad,
                               o->alpha, o->beta, NULL, NULL, NULL, NULL};
            float *A = guarded_alloc(p.M, p.lda), *B = guarded_alloc(k_rows(s), p.ldb);
            float *C = guarded_alloc(p.M, p.ldc);
            float *C0 = o->beta != 0.0f ? matrix_alloc(p.M, p.ldc) : NULL;
            float *C_in = o->pad > 0 ? matrix_alloc(p.M, p.ldc) : NULL;
            if (!A || !B || !C || (o->beta != 0.0f && !C0) || (o->pad > 0 && !C_in))
                cli_die("size %dx%dx%d: cannot allocate %.1f GiB of host memory", s->m, s->n, s->k,
                        host_bytes(s, o) / 1073741824.0);
            /* Fresh inputs for every size; padding gets a value no kernel should produce. The
             * seed comes from the shape, not its place in the list: a failing case run alone
             * (--sizes MxNxK) gets the same inputs and fails the same way. */
            uint64_t seed = o->seed * 0x9E3779B97F4A7C15ull +
                            ((uint64_t)s->m * 0xD6E8FEB86659FD93ull ^ (uint64_t)s->n * 0xA0761D6478BD642Full ^
                             (uint64_t)s->k * 0xE7037ED1A0B428DBull) * 3;
            input_guard in[2] = {{A, p.M, p.K, p.lda, seed, 0, 'A'},
                                 {B, k_rows(s), p.N, p.ldb, seed + 1, 0, 'B'}};
            for (int m = 0; m < 2; m++) {
                fill_input(in[m].X, in[m].rows, in[m].cols, in[m].ld, in[m].seed);
                in[m].hash = hash_floats(in[m].X, (size_t)in[m].rows * (size_t)in[m].ld);
            }
            if (C0) {
                matrix_fill(C0, p.M, p.ldc, -999.0f);
                matrix_fill_random(C0, p.M, p.N, p.ldc, seed + 2);
            }
            p.A = A;
            p.B = B;
            p.C = C;
            if (be->setup(&p) != 0)
                cli_die("size %dx%dx%d cannot run here (see the message above)", s->m, s->n, s->k);
            /* untimed: starts the library's thread pool; on the CPU, checked as a variant is
             * (a BLAS running kernels the harness chose for it must still be right) */
            verify_result base_vr = {0};
            const int base_checked = o->baseline && o->check && be->baselines;
            if (o->baseline) {
                prepare_c(&p, C0, o);
                if (C_in)
                    matrix_copy(C_in, p.C, p.M, p.ldc);
                be->put_c(&p);
                be->run(&p, NULL);
                if (base_checked) {
                    be->get_c(&p);
                    base_vr = verify_gemm(p.M, p.N, p.K, p.alpha, p.A, p.lda, p.B, p.ldb, p.beta,
                                          C0, C_in ? C_in : p.C, p.C, p.ldc, 0.0, 0.0, 0, seed);
                }
            }
            int nbase = 0;
            for (int v = 0; v < st->nvariants; v++) {
                if (!o->selected[v] || flops_of(s) >= limit[v])
                    continue;
                char vname[96];
                snprintf(vname, sizeof vname, "%s%s", st->variants[v].name, name_suffix(o));
                row r = {vname, s, threads, 0, 0, 0, 0, 0, {0}, -1, -1};
                progress(r.variant, s);
                measure(st, o, &p, C0, C_in, &st->variants[v], seed, &r, tv, tb);
                check_inputs(in, 2, C, (size_t)p.M * (size_t)p.ldc, &r);
                progress_clear();
                print_row(o, &r);
                write_csv_row(st, o, &r);
                if (r.checked)
                    r.vr.pass ? npass++ : nfail++;
                if (o->baseline) {
                    memcpy(base_all + nbase, tb, sizeof(double) * (size_t)r.reps);
                    nbase += r.reps;
                }
                if (r.ms_median > 1e3 * o->time_limit) {
                    limit[v] = flops_of(s);
                    printf("%-16s stops here: one run took %.1f s (--time-limit %g)\n", r.variant,
                           r.ms_median / 1e3, o->time_limit);
                }
            }
            if (nbase > 0) { /* the baseline's own row: every sample taken at this size */
                char name[64];
                lower_name(name, sizeof name, be->baseline_name);
                snprintf(name + strlen(name), sizeof name - strlen(name), "%s", name_suffix(o));
                row r = {name, s, threads, nbase, base_checked, 0, 0, 0, base_vr, -1, -1};
                r.ms_min = timer_min(base_all, nbase);
                r.ms_median = timer_median(base_all, nbase);
                print_row(o, &r);
                write_csv_row(st, o, &r);
                if (base_checked)
                    base_vr.pass ? npass++ : nfail++;
            }
            be->teardown(&p);
            guarded_free(A, p.M, p.lda);
            guarded_free(B, k_rows(s), p.ldb);
            guarded_free(C, p.M, p.ldc);
            matrix_free(C0);
            matrix_free(C_in);
        }
    }
    if (o->baseline && npass + nfail > 0) { /* (the baseline's two medians differ) */
        char name[64];
        lower_name(name, sizeof name, be->baseline_name);
        printf("(the %s row: the median of all its runs at a size; a variant's ratio is against the "
               "%s runs alternated with it)\n", name, name);
    }
    free(tv);
    free(limit);
    free(base_all);
    *passed = npass;
    return nfail;
}

/* The run mode given on the command line (a flag of base->modes), or NULL. Two at once: exit 2,
 * unless one only changes the table (a stage, no run) and the other measures the stage's own
 * (a run, no stage): then that measurement, of the other's table. */
static const stage_mode *find_mode(const stage_info *base, int argc, char **argv)
{
    static stage_mode both;
    const stage_mode *given[2] = {NULL, NULL};
    for (int i = 1; i < argc; i++)
        for (int m = 0; m < base->nmodes; m++) {
            const stage_mode *md = &base->modes[m];
            if (strcmp(argv[i], md->flag) || md == given[0] || md == given[1])
                continue;
            if (given[1])
                cli_die("%s, %s and %s: one mode at a time", given[0]->flag, given[1]->flag,
                        md->flag);
            given[given[0] ? 1 : 0] = md;
        }
    if (!given[1])
        return given[0];
    const stage_mode *table = given[0]->run ? given[1] : given[0];
    const stage_mode *measure = table == given[0] ? given[1] : given[0];
    if (table->run || !table->stage || !measure->run || measure->stage)
        cli_die("%s and %s: one mode at a time", given[0]->flag, given[1]->flag);
    both = *measure;
    both.stage = table->stage;
    return &both;
}

int bench_main(const stage_info *base, int argc, char **argv)
{
    const char *slash = strrchr(argv[0], '/');
    cli_prog = slash ? slash + 1 : argv[0]; /* find_mode's refusal names the program too */
    const stage_mode *mode = find_mode(base, argc, argv);
    const stage_info *st = mode && mode->stage ? mode->stage : base;
    cli_set_mode(base, mode);
    bench_opts o;
    cli_parse(st, argc, argv, &o);
    const int measures = mode && mode->run; /* a measurement of its own, not table rows */
    if (measures && !mode->own_csv)
        cli_no_csv(&o, mode->flag);
    bench_check_sizes(&o);
    if (!measures || !mode->own_csv)
        bench_open_csv(&o);
    /* every argument checked (exit 2 above); only now what this machine cannot run (77) */
    const cli_table table = {st->variants, sizeof *st->variants, st->nvariants};
    int rc = bench_check_runnable(&table, &o);
    if (rc == 0 && !(measures && mode->before_init))
        rc = st->backend->init(&o);
    if (rc == 0 && measures) {
        rc = mode->run(st, &o);
    } else if (rc == 0 && o.edges) {
        rc = edges_main(st, &o);
    } else if (rc == 0) {
        bench_print_header(st, &o);
        int passed = 0;
        int failed = bench_run(st, &o, &passed);
        bench_print_tally(passed, failed);
        const char *why = st->checks_measure ? st->checks_measure(&o) : NULL;
        if (why)
            printf("(%s: exit status 0)\n", why);
        rc = failed && !why ? 1 : 0;
    }
    fflush(stdout);
    int csv_rc = bench_close_csv(&o);
    int finish_rc = st->finish ? st->finish() : base->finish ? base->finish() : 0;
    free(o.shapes);
    free(o.selected);
    return csv_rc ? csv_rc : finish_rc ? finish_rc : rc;
}

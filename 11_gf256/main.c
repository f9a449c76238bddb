/* 11_gf256: Reed-Solomon erasure coding as a GF(2^8) matrix product, on the CPU and GPU.
 *
 * This stage is not a float GEMM, so it has its own driver with the repository's command
 * line conventions (common/cli.h: one-line errors and exit status 2; rows printed as they
 * are measured; "N passed, N failed" last; exit 77 when everything asked for is skipped).
 *
 *   make stage11
 *   ./11_gf256/gf256                                    # RS(10,4), 1 MiB chunks, every variant
 *   ./11_gf256/gf256 --k 6 --m 3 --len 1,7,4097 --erasures all
 *   ./11_gf256/gf256 --variant split_tables,gfni --len 1M --threads 1,2
 *
 * For each chunk length: k chunks of random bytes, the m x k Cauchy matrix, the parity
 * from a shift-and-XOR reference (reference.c) and from ISA-L. Each variant then runs
 * once on poisoned output and is compared byte for byte (encode); m chunks are erased,
 * the surviving k x k matrix inverted and the lost chunks rebuilt with the same kernel
 * (decode); then it is timed, alternating with ISA-L on the same data.
 */
#include <isa-l/erasure_code.h>
#include <isa-l.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "gf256.h"
#include "gpu.h"
#include "reference.h"
#include "timer.h"

#ifndef GIT_REV
#define GIT_REV "unknown"
#endif

#define MAX_LENS 64
#define MAX_LEN ((size_t)1 << 30) /* ISA-L takes an int length; 1 GiB per chunk is plenty */
#define WARMUP_IS_SAMPLE_S 1.0    /* a run this long is measured once: its warm-up is the sample */

/* ---- the variants ------------------------------------------------------------------------- */

static int cpu_avx2(void) { return __builtin_cpu_supports("avx2"); }
static int cpu_avx512bw(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}
static int cpu_gfni(void) { return cpu_avx512bw() && __builtin_cpu_supports("gfni"); }

typedef struct variant {
    const char *name, *desc;
    gf_encode_fn *fn;  /* CPU kernel; NULL for a GPU variant */
    int gpu;           /* enum gf_gpu_kernel, or -1 */
    int (*runnable)(void); /* NULL, or: can this CPU run it? (as gemm_variant's) */
    const char *needs;     /* what runnable() looks for, for messages */
} variant;

static variant variants[] = {
    {"table", "log/exp tables, one byte at a time (the scalar reference)", encode_table, -1,
     NULL, NULL},
    {"split_avx2", "4-bit split tables, PSHUFB on 32 bytes (AVX2)", encode_split_avx2, -1,
     cpu_avx2, "AVX2"},
    {"split_tables", "4-bit split tables, VPSHUFB on 64 bytes + VPTERNLOG (AVX-512BW; AVX2 "
     "where there is none)", encode_split_avx512, -1, cpu_avx2, "AVX2"},
    {"gfni", "GF2P8AFFINEQB with a precomputed 8x8 bit matrix per coefficient (GFNI + "
     "AVX-512BW)", encode_gfni, -1, cpu_gfni, "GFNI with AVX-512BW"},
    {"gpu_tables", "GPU: one byte per thread, log/exp tables in shared memory", NULL,
     GF_GPU_TABLES, NULL, NULL},
    {"gpu_rect", "GPU: run-time tile shape, 4 bytes per word, tables of 4 rows' products",
     NULL, GF_GPU_RECT, NULL, NULL},
    {"gpu_affine", "GPU: the bit-matrix product of gfni in integer instructions, no tables",
     NULL, GF_GPU_AFFINE, NULL, NULL},
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

/* ---- options ---------------------------------------------------------------------------- */

enum { ERASE_RANDOM, ERASE_ALL, ERASE_LIST, ERASE_NONE };

typedef struct options {
    int k, m;
    size_t lens[MAX_LENS];
    int nlens;
    int selected[NVARIANTS];
    int threads[CLI_MAX_THREADS], nthreads;
    int reps, max_reps;
    double min_time, time_limit;
    int check, baseline, offset, device;
    int erase_mode, erase_list[GF_MAX_CHUNKS], nerase;
    const char *csv;
    struct csv_file *csv_out; /* --csv, opened before any work */
    uint64_t seed;
} options;

static void usage(void)
{
    printf("11_gf256: Reed-Solomon erasure coding as a GF(2^8) matrix product\n\n"
           "usage: %s [options]\n"
           "  --k K, -k K            data chunks (default 10)\n"
           "  --m M, -m M            parity chunks (default 4); k + m <= 256\n"
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
           "  --check | --no-check   byte-for-byte checks of encode and decode (default on)\n"
           "  --no-baseline          skip ISA-L\n"
           "  --csv FILE             append result rows to FILE (schema in the chapter; a file\n"
           "                         with another header is refused); --csv - writes the rows\n"
           "                         to standard output and the table to standard error\n"
           "  --device D             CUDA device (GPU variants)\n"
           "  --seed S               input seed (default 1)\n"
           "  --list                 list the variants\n"
           "  -h, --help\n",
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
        long step = cli_long("--len", c2 + 2, c2[1] == 'x' ? 2 : 1, (long)MAX_LEN);
        if (hi < lo)
            cli_die("--len: range %zu:%zu runs backwards", lo, hi);
        for (size_t v = lo; v <= hi; v = c2[1] == 'x' ? v * (size_t)step : v + (size_t)step)
            add_len(o, v);
    }
    free(copy);
    if (o->nlens == 0)
        cli_die("--len: no lengths given");
}

static void parse_variants(options *o, const char *s)
{
    memset(o->selected, 0, sizeof o->selected);
    if (strcmp(s, "all") == 0) {
        for (int v = 0; v < NVARIANTS; v++)
            o->selected[v] = 1;
        return;
    }
    char *copy = strdup(s), *save = NULL;
    if (!copy)
        cli_die("out of memory");
    int named = 0;
    for (char *name = strtok_r(copy, ",", &save); name;
         name = strtok_r(NULL, ",", &save), named++) {
        int v = 0;
        while (v < NVARIANTS && strcmp(variants[v].name, name) != 0)
            v++;
        if (v == NVARIANTS)
            cli_die("--variant: unknown variant '%s' (--list shows them)", name);
        o->selected[v] = 1;
    }
    free(copy);
    if (named == 0)
        cli_die("--variant: no variant named in '%s' (--list shows them; all runs every one)", s);
}

static void parse_threads(options *o, const char *s)
{
    char *copy = strdup(s), *save = NULL;
    if (!copy)
        cli_die("out of memory");
    o->nthreads = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (o->nthreads == CLI_MAX_THREADS)
            cli_die("--threads: at most %d thread counts", CLI_MAX_THREADS);
        o->threads[o->nthreads++] = (int)cli_long("--threads", t, 1, 1024);
    }
    free(copy);
    if (o->nthreads == 0)
        cli_die("--threads: no thread count given");
}

static const char *erase_arg;

static void parse_erasures(options *o)
{
    const char *s = erase_arg;
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

static void parse(int argc, char **argv, options *o)
{
    const char *slash = strrchr(argv[0], '/');
    cli_prog = slash ? slash + 1 : argv[0];
    memset(o, 0, sizeof *o);
    o->k = 10;
    o->m = 4;
    o->min_time = 0.2;
    o->max_reps = 50;
    o->time_limit = 10;
    o->check = 1;
    o->baseline = 1;
    o->seed = 1;
    o->threads[0] = 1;
    o->nthreads = 1;
    const char *lens = "4K:1M:x4", *vars = "all"; /* several lengths: the chart draws lines */
    int list = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
#define VALUE() (val ? (i++, val) : (cli_die("%s needs a value", a), val))
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            exit(0);
        } else if (!strcmp(a, "--list")) {
            list = 1;
        } else if (!strcmp(a, "--k") || !strcmp(a, "-k")) {
            o->k = (int)cli_long(a, VALUE(), 1, GF_MAX_CHUNKS - 1);
        } else if (!strcmp(a, "--m") || !strcmp(a, "-m")) {
            o->m = (int)cli_long(a, VALUE(), 1, GF_MAX_CHUNKS - 1);
        } else if (!strcmp(a, "--len")) {
            lens = VALUE();
        } else if (!strcmp(a, "--variant")) {
            vars = VALUE();
        } else if (!strcmp(a, "--threads")) {
            parse_threads(o, VALUE());
        } else if (!strcmp(a, "--reps")) {
            o->reps = (int)cli_long(a, VALUE(), 1, 1000000);
        } else if (!strcmp(a, "--time-limit")) {
            o->time_limit = cli_double(a, VALUE());
            if (o->time_limit <= 0)
                cli_die("--time-limit: must be positive");
        } else if (!strcmp(a, "--erasures")) {
            erase_arg = VALUE();
        } else if (!strcmp(a, "--offset")) {
            o->offset = (int)cli_long(a, VALUE(), 0, 63);
        } else if (!strcmp(a, "--check")) {
            o->check = 1;
        } else if (!strcmp(a, "--no-check")) {
            o->check = 0;
        } else if (!strcmp(a, "--no-baseline")) {
            o->baseline = 0;
        } else if (!strcmp(a, "--csv")) {
            o->csv = VALUE();
        } else if (!strcmp(a, "--device")) {
            o->device = (int)cli_long(a, VALUE(), 0, 1024);
        } else if (!strcmp(a, "--seed")) {
            o->seed = (uint64_t)cli_long(a, VALUE(), 0, LONG_MAX);
        } else {
            cli_die("unknown option '%s' (--help lists them)", a);
        }
#undef VALUE
    }
    if (list) {
        for (int v = 0; v < NVARIANTS; v++) {
            const variant *va = &variants[v];
            printf("%-14s %s", va->name, va->desc);
            if (va->runnable && !va->runnable())
                printf(" [not here: this machine lacks %s]", va->needs);
            printf("\n");
        }
        exit(0);
    }
    if (o->k + o->m > GF_MAX_CHUNKS)
        cli_die("k + m = %d: a Cauchy code over GF(2^8) has at most %d chunks", o->k + o->m,
                GF_MAX_CHUNKS);
    parse_lens(o, lens);
    parse_variants(o, vars);
    parse_erasures(o);
    /* Memory: data, reference parity, the variant's output, ISA-L's, the rebuilt chunks. */
    double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGE_SIZE);
    for (int i = 0; i < o->nlens; i++) {
        double need = (double)(o->k + 4 * o->m) * (double)(o->lens[i] + 64);
        if (phys > 0 && need > 0.8 * phys)
            cli_die("--len %zu with k=%d, m=%d needs %.1f GiB of memory; this machine has %.1f GiB",
                    o->lens[i], o->k, o->m, need / 1073741824.0, phys / 1073741824.0);
    }
}

/* ---- data ---------------------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill_random(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t r = splitmix64(&s);
        memcpy(p + i, &r, 8);
    }
    if (i < n) {
        uint64_t r = splitmix64(&s);
        memcpy(p + i, &r, n - i);
    }
}

/* n chunks of len bytes, each starting `offset` bytes past a 64-byte boundary. */
typedef struct chunks {
    uint8_t *ptr[GF_MAX_CHUNKS];
    void *base[GF_MAX_CHUNKS];
    int n;
} chunks;

static void chunks_alloc(chunks *c, int n, size_t len, int offset)
{
    c->n = n;
    for (int i = 0; i < n; i++) {
        c->base[i] = aligned_alloc(64, (len + offset + 63) / 64 * 64);
        if (!c->base[i])
            cli_die("cannot allocate %d chunks of %zu bytes (%.1f GiB)", n, len,
                    (double)n * len / 1073741824.0);
        c->ptr[i] = (uint8_t *)c->base[i] + offset;
    }
}

static void chunks_free(chunks *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->base[i]);
    c->n = 0;
}

/* ---- running a kernel ------------------------------------------------------------------------ */

/* OpenMP over the chunk length: each thread encodes its own stretch of every chunk,
 * cut at multiples of 64 bytes so no two threads share a cache line of output. */
static void run_cpu(gf_encode_fn *fn, const gf_plan *p, const uint8_t *const *in,
                    uint8_t *const *out, size_t len, int threads)
{
    if (threads <= 1 || len < 4096) {
        fn(p, in, out, 0, len);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), n = omp_get_num_threads();
        size_t per = ((len + (size_t)n - 1) / (size_t)n + 63) / 64 * 64, b = per * (size_t)t;
        size_t e = b + per < len ? b + per : len;
        if (b < e)
            fn(p, in, out, b, e - b);
    }
}

static void run_isal(int k, int m, unsigned char *tables, const uint8_t *const *in,
                     uint8_t *const *out, size_t len, int threads)
{
    if (threads <= 1 || len < 4096) {
        ec_encode_data((int)len, k, m, tables, (unsigned char **)in, (unsigned char **)out);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), n = omp_get_num_threads();
        size_t per = ((len + (size_t)n - 1) / (size_t)n + 63) / 64 * 64, b = per * (size_t)t;
        size_t e = b + per < len ? b + per : len;
        unsigned char *src[GF_MAX_CHUNKS], *dst[GF_MAX_CHUNKS];
        for (int j = 0; j < k; j++)
            src[j] = (unsigned char *)in[j] + b;
        for (int i = 0; i < m; i++)
            dst[i] = out[i] + b;
        if (b < e)
            ec_encode_data((int)(e - b), k, m, tables, src, dst);
    }
}

/* ---- the run ---------------------------------------------------------------------------------- */

typedef struct ctx {
    const options *o;
    size_t len;
    int threads;
    uint8_t *cauchy;        /* m x k */
    chunks data, parity;    /* the input and the reference parity */
    chunks out, rebuilt;    /* a variant's output; rebuilt chunks */
    unsigned char *isal_tables;
    gf_gpu_field field;
    int gpu_ok;
    char cpu_name[128], gpu_name[128];
    int passed, failed;
    double isal_ms;         /* ISA-L alone, median, for the GPU rows */
} ctx;

static const char *compiler_name(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#else
    return "gcc " __VERSION__;
#endif
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                c += 2;
                c[strcspn(c, "\n")] = '\0';
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    fclose(f);
}

#define CSV_HEADER                                                                           \
    "stage,variant,k,m,len,threads,timing,reps,ms_median,ms_min,gbps_in,gbps_rw,baseline,"    \
    "baseline_gbps_in,encode_check,decode_check,device,compiler,git,date"

/* One CSV row (common/csv.c writes it whole or not at all). */
static void csv_line(const options *o, const char *variant, int k, int m, size_t len,
                     const char *timing, const char *device, int threads, int reps,
                     double ms_med, double ms_min, double base_gbps, const char *enc,
                     const char *dec)
{
    if (!o->csv_out)
        return;
    char date[32], base[32] = "", dev[160];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (base_gbps > 0)
        snprintf(base, sizeof base, "%.3f", base_gbps);
    csv_field(dev, sizeof dev, device);
    double in_b = (double)k * len, rw_b = (double)(k + m) * len;
    cli_csv_row(o->csv_out,
                "11_gf256,%s,%d,%d,%zu,%d,%s,%d,%.6f,%.6f,%.3f,%.3f,%s,%s,%s,%s,%s,%s,%s,%s",
                variant, k, m, len, threads, timing, reps, ms_med, ms_min, in_b / (ms_med * 1e6),
                rw_b / (ms_med * 1e6), o->baseline && base_gbps > 0 ? "ISA-L" : "", base, enc, dec,
                dev, compiler_name(), GIT_REV, date);
}

static void csv_row(const ctx *c, const char *variant, const char *timing, const char *device,
                    int threads, int reps, double ms_med, double ms_min, double base_gbps,
                    const char *enc, const char *dec)
{
    csv_line(c->o, variant, c->o->k, c->o->m, c->len, timing, device, threads, reps, ms_med,
             ms_min, base_gbps, enc, dec);
}

static void print_row(const ctx *c, const char *name, const char *timing, const char *thr,
                      double ms, double vs, const char *enc, const char *dec)
{
    const options *o = c->o;
    char ratio[16] = "-";
    if (vs > 0)
        snprintf(ratio, sizeof ratio, "%.2fx", vs);
    printf("%-14s %4d %4d %10zu %7s %-7s %10.4f %8.2f %9.2f %8s  %-6s %s\n", name, o->k, o->m,
           c->len, thr, timing, ms, (double)o->k * c->len / (ms * 1e6),
           (double)(o->k + o->m) * c->len / (ms * 1e6), ratio, enc, dec);
    fflush(stdout);
}

static int same(const chunks *a, const chunks *b, int n, size_t len, char *where, size_t wl)
{
    for (int i = 0; i < n; i++)
        if (memcmp(a->ptr[i], b->ptr[i], len) != 0) {
            size_t t = 0;
            while (a->ptr[i][t] == b->ptr[i][t])
                t++;
            snprintf(where, wl, "row %d byte %zu: %02x, want %02x", i, t, a->ptr[i][t],
                     b->ptr[i][t]);
            return 0;
        }
    return 1;
}

/* The erased sets to test for this length: each a sorted list of chunk indices. */
typedef struct patterns {
    int (*set)[GF_MAX_CHUNKS];
    int n, size;
} patterns;

static void make_patterns(const options *o, uint64_t seed, patterns *P)
{
    int n = o->k + o->m;
    P->n = 0;
    if (o->erase_mode == ERASE_NONE || !o->check) {
        P->set = NULL;
        return;
    }
    if (o->erase_mode == ERASE_LIST) {
        P->set = malloc(sizeof *P->set);
        if (!P->set)
            cli_die("out of memory");
        memcpy(P->set[0], o->erase_list, sizeof(int) * (size_t)o->nerase);
        P->size = o->nerase;
        P->n = 1;
        return;
    }
    P->size = o->m;
    if (o->erase_mode == ERASE_RANDOM) { /* m distinct chunks, data and parity alike */
        P->set = malloc(sizeof *P->set);
        if (!P->set)
            cli_die("out of memory");
        int perm[GF_MAX_CHUNKS];
        uint64_t s = seed;
        for (int i = 0; i < n; i++)
            perm[i] = i;
        for (int i = 0; i < o->m; i++) {
            int r = i + (int)(splitmix64(&s) % (uint64_t)(n - i));
            int t = perm[i]; perm[i] = perm[r]; perm[r] = t;
        }
        for (int i = 0; i < o->m; i++) /* sorted */
            for (int j = i + 1; j < o->m; j++)
                if (perm[j] < perm[i]) {
                    int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
                }
        memcpy(P->set[0], perm, sizeof(int) * (size_t)o->m);
        P->n = 1;
        return;
    }
    /* every m-subset of n, in lexicographic order */
    double count = 1;
    for (int i = 0; i < o->m; i++)
        count = count * (n - i) / (i + 1);
    P->set = malloc(sizeof *P->set * (size_t)(count + 0.5));
    if (!P->set)
        cli_die("out of memory");
    int idx[GF_MAX_CHUNKS];
    for (int i = 0; i < o->m; i++)
        idx[i] = i;
    for (;;) {
        memcpy(P->set[P->n++], idx, sizeof(int) * (size_t)o->m);
        int i = o->m - 1;
        while (i >= 0 && idx[i] == n - o->m + i)
            i--;
        if (i < 0)
            break;
        idx[i]++;
        for (int j = i + 1; j < o->m; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

/* Run variant v on plan p (CPU or GPU). Returns 0, or -1 with err set (GPU trouble). */
static int run_variant(ctx *c, const variant *v, const gf_plan *p, const uint8_t *const *in,
                       uint8_t *const *out, char *err, size_t errlen)
{
    if (v->fn) {
        run_cpu(v->fn, p, in, out, c->len, c->threads);
        return 0;
    }
    char shape[160];
    return gf_gpu_encode((enum gf_gpu_kernel)v->gpu, &c->field, p->k, p->rows, p->coef, in, out,
                         c->len, 0, 0, 0, NULL, NULL, shape, sizeof shape, err, errlen);
}

/* Decode: for each erased set, take the first k surviving chunks, invert their k x k
 * block of the generator [I; Cauchy], and rebuild every erased chunk with the variant's
 * own kernel. Returns "PASS", "FAIL" or "-". */
static const char *check_decode(ctx *c, const variant *v, const patterns *P, char *why,
                                size_t wl)
{
    const options *o = c->o;
    const int k = o->k, n = k + o->m;
    if (P->n == 0)
        return "-";
    uint8_t *B = malloc((size_t)k * k), *Binv = malloc((size_t)k * k),
            *R = malloc((size_t)P->size * k);
    if (!B || !Binv || !R)
        cli_die("out of memory");
    const char *result = "PASS";
    for (int t = 0; t < P->n && !strcmp(result, "PASS"); t++) {
        const int *er = P->set[t];
        int erased[GF_MAX_CHUNKS] = {0}, surv[GF_MAX_CHUNKS], ns = 0;
        for (int i = 0; i < P->size; i++)
            erased[er[i]] = 1;
        for (int i = 0; i < n && ns < k; i++)
            if (!erased[i])
                surv[ns++] = i;
        const uint8_t *src[GF_MAX_CHUNKS];
        for (int s = 0; s < k; s++) { /* row s of B: the generator row of survivor s */
            int g = surv[s];
            for (int j = 0; j < k; j++)
                B[s * k + j] = g < k ? (uint8_t)(g == j) : c->cauchy[(g - k) * k + j];
            src[s] = g < k ? c->data.ptr[g] : c->parity.ptr[g - k];
        }
        if (gf256_invert_matrix(B, Binv, k) != 0) {
            snprintf(why, wl, "erasing pattern %d: the survivors' matrix is singular", t);
            result = "FAIL";
            break;
        }
        /* data chunk e: row e of B^-1; parity chunk e: its Cauchy row times B^-1 */
        for (int i = 0; i < P->size; i++) {
            int e = er[i];
            for (int j = 0; j < k; j++) {
                if (e < k) {
                    R[i * k + j] = Binv[e * k + j];
                } else {
                    uint8_t s = 0;
                    for (int l = 0; l < k; l++)
                        s ^= gf256_mul(c->cauchy[(e - k) * k + l], Binv[l * k + j]);
                    R[i * k + j] = s;
                }
            }
        }
        gf_plan plan;
        if (gf_plan_init(&plan, k, P->size, R) != 0)
            cli_die("out of memory");
        for (int i = 0; i < P->size; i++) /* poison: the complement of the right answer */
            for (size_t b = 0; b < c->len; b++) {
                int e = er[i];
                c->rebuilt.ptr[i][b] = (uint8_t)~(e < k ? c->data.ptr[e][b] : c->parity.ptr[e - k][b]);
            }
        char err[200];
        if (run_variant(c, v, &plan, src, c->rebuilt.ptr, err, sizeof err) != 0) {
            snprintf(why, wl, "decode: %s", err);
            result = "FAIL";
        }
        for (int i = 0; i < P->size && !strcmp(result, "PASS"); i++) {
            int e = er[i];
            const uint8_t *want = e < k ? c->data.ptr[e] : c->parity.ptr[e - k];
            if (memcmp(c->rebuilt.ptr[i], want, c->len) != 0) {
                size_t b = 0;
                while (c->rebuilt.ptr[i][b] == want[b])
                    b++;
                snprintf(why, wl, "decode: chunk %d rebuilt wrong at byte %zu (erased:", e, b);
                for (int q = 0; q < P->size; q++)
                    snprintf(why + strlen(why), wl - strlen(why), " %d", er[q]);
                snprintf(why + strlen(why), wl - strlen(why), ")");
                result = "FAIL";
            }
        }
        gf_plan_free(&plan);
    }
    free(B);
    free(Binv);
    free(R);
    return result;
}

static void tally(ctx *c, const char *r)
{
    if (!strcmp(r, "PASS"))
        c->passed++;
    else if (!strcmp(r, "FAIL"))
        c->failed++;
}

static void poison_out(ctx *c)
{
    for (int i = 0; i < c->o->m; i++)
        for (size_t b = 0; b < c->len; b++)
            c->out.ptr[i][b] = (uint8_t)~c->parity.ptr[i][b];
}

/* A CPU variant: check, then time alternating with ISA-L. */
static void measure_cpu(ctx *c, const variant *v, const gf_plan *plan, const patterns *P,
                        int *stop)
{
    const options *o = c->o;
    const char *enc = "-", *dec = "-";
    char why[256] = "", thr[16];
    snprintf(thr, sizeof thr, "%d", c->threads);
    poison_out(c);
    double t0 = timer_now();
    run_cpu(v->fn, plan, (const uint8_t *const *)c->data.ptr, c->out.ptr, c->len, c->threads);
    double first = timer_now() - t0;
    if (o->check) {
        enc = same(&c->out, &c->parity, o->m, c->len, why, sizeof why) ? "PASS" : "FAIL";
        if (why[0])
            strcat(why, "; ");
        dec = check_decode(c, v, P, why + strlen(why), sizeof why - strlen(why));
    }
    double tv[1024], tb[1024], total = 0;
    int n = 0;
    if (first > WARMUP_IS_SAMPLE_S && !o->reps) {
        tv[n++] = first;
    } else {
        int cap = o->reps ? o->reps : o->max_reps;
        if (cap > 1024)
            cap = 1024;
        while (n < cap && (o->reps || total < o->min_time)) {
            t0 = timer_now();
            run_cpu(v->fn, plan, (const uint8_t *const *)c->data.ptr, c->out.ptr, c->len,
                    c->threads);
            tv[n] = timer_now() - t0;
            total += tv[n];
            if (o->baseline) {
                t0 = timer_now();
                run_isal(o->k, o->m, c->isal_tables, (const uint8_t *const *)c->data.ptr,
                         c->rebuilt.ptr, c->len, c->threads);
                tb[n] = timer_now() - t0;
            }
            n++;
        }
    }
    double med = timer_median(tv, n), mn = timer_min(tv, n), vs = 0, base_gbps = 0;
    if (o->baseline && n > 0 && !(first > WARMUP_IS_SAMPLE_S && !o->reps)) {
        double bmed = timer_median(tb, n);
        vs = bmed / med;
        base_gbps = (double)o->k * c->len / (bmed * 1e9);
    } else if (o->baseline && c->isal_ms > 0) {
        vs = c->isal_ms / (med * 1e3);
        base_gbps = (double)o->k * c->len / (c->isal_ms * 1e6);
    }
    print_row(c, v->name, "cpu", thr, med * 1e3, vs, enc, dec);
    if (why[0])
        printf("    %s\n", why);
    tally(c, enc);
    tally(c, dec);
    csv_row(c, v->name, "cpu", c->cpu_name, c->threads, n, med * 1e3, mn * 1e3, base_gbps, enc, dec);
    if (first > o->time_limit)
        *stop = 1;
}

/* A GPU variant: check, then kernel-only and end-to-end timings. */
static void measure_gpu(ctx *c, const variant *v, const gf_plan *plan, const patterns *P)
{
    const options *o = c->o;
    char why[256] = "", err[200] = "", shape[160] = "";
    const char *enc = "-", *dec = "-";
    gf_gpu_timing kt = {0}, et = {0};
    poison_out(c);
    int rc = gf_gpu_encode((enum gf_gpu_kernel)v->gpu, &c->field, o->k, o->m, plan->coef,
                           (const uint8_t *const *)c->data.ptr, c->out.ptr, c->len, o->min_time,
                           o->max_reps, o->reps, &kt, &et, shape, sizeof shape, err, sizeof err);
    if (rc != 0) {
        printf("%-14s %4d %4d %10zu  %s\n", v->name, o->k, o->m, c->len, err);
        c->failed++;
        return;
    }
    if (o->check) {
        enc = same(&c->out, &c->parity, o->m, c->len, why, sizeof why) ? "PASS" : "FAIL";
        if (et.reps < 0) {
            enc = "FAIL";
            snprintf(why, sizeof why, "%s", err);
        }
        if (why[0])
            strcat(why, "; ");
        dec = check_decode(c, v, P, why + strlen(why), sizeof why - strlen(why));
    }
    double base_gbps = c->isal_ms > 0 ? (double)o->k * c->len / (c->isal_ms * 1e6) : 0;
    print_row(c, v->name, "kernel", "-", kt.ms_median, c->isal_ms > 0 ? c->isal_ms / kt.ms_median : 0,
              enc, dec);
    csv_row(c, v->name, "kernel", c->gpu_name, 0, kt.reps, kt.ms_median, kt.ms_min, base_gbps,
            enc, dec);
    if (et.reps > 0) {
        char name[40];
        snprintf(name, sizeof name, "%s+pcie", v->name);
        print_row(c, name, "e2e", "-", et.ms_median,
                  c->isal_ms > 0 ? c->isal_ms / et.ms_median : 0, enc, dec);
        csv_row(c, name, "end_to_end", c->gpu_name, 0, et.reps, et.ms_median, et.ms_min,
                base_gbps, enc, dec);
    }
    printf("    %s%s%s\n", shape, why[0] ? "; " : "", why);
    tally(c, enc);
    tally(c, dec);
}

int main(int argc, char **argv)
{
    options o;
    parse(argc, argv, &o);
    if (o.csv) /* before any work: a file we cannot write, or of another schema, is exit 2 */
        o.csv_out = cli_csv_open("--csv", o.csv, CSV_HEADER);
    gf256_init();
    ref_init();

    ctx c;
    memset(&c, 0, sizeof c);
    c.o = &o;
    cpu_model(c.cpu_name, sizeof c.cpu_name);
    if (cpu_avx512bw()) /* split_tables: the widest split-table kernel this CPU runs */
        variants[2].fn = encode_split_avx512;
    else
        variants[2].fn = encode_split_avx2;

    /* What can run here: CPU variants by their instruction sets, GPU ones by a device. */
    int want_gpu = 0, runnable = 0;
    for (int v = 0; v < NVARIANTS; v++)
        if (o.selected[v] && variants[v].gpu >= 0)
            want_gpu = 1;
    if (want_gpu) {
        const int got = gf_gpu_open(o.device, c.gpu_name, sizeof c.gpu_name);
        if (got == -2) /* as the GEMM stages do (common/cuda_harness.cu): a bad --device is an error */
            cli_die("--device: %s", c.gpu_name);
        c.gpu_ok = got == 0;
    }
    char skipped[512] = "";
    int skipped_gpu = 0, skipped_cpu = 0;
    for (int v = 0; v < NVARIANTS; v++) {
        if (!o.selected[v])
            continue;
        const variant *va = &variants[v];
        int ok = va->gpu >= 0 ? c.gpu_ok : (!va->runnable || va->runnable());
        if (ok) {
            runnable++;
            continue;
        }
        o.selected[v] = 0;
        if (va->gpu >= 0)
            skipped_gpu++;
        else
            skipped_cpu++;
        size_t n = strlen(skipped);
        snprintf(skipped + n, sizeof skipped - n, "%s%s (%s%s)", n ? ", " : "", va->name,
                 va->gpu >= 0 ? c.gpu_name : "this CPU has no ",
                 va->gpu >= 0 ? "" : va->needs);
    }

    printf("== 11_gf256: Reed-Solomon erasure coding as a GF(2^8) matrix product ==\n");
    printf("%-10s %s (AVX2 %s, AVX-512BW %s, GFNI %s)\n", "cpu", c.cpu_name,
           cpu_avx2() ? "yes" : "no", cpu_avx512bw() ? "yes" : "no",
           __builtin_cpu_supports("gfni") ? "yes" : "no");
    if (want_gpu)
        printf("%-10s %s\n", "gpu", c.gpu_name);
    printf("%-10s RS(k=%d, m=%d): %d data chunks, %d parity; Cauchy matrix; polynomial 0x%X\n",
           "code", o.k, o.m, o.k, o.m, GF_POLY);
    printf("%-10s", "threads");
    for (int t = 0; t < o.nthreads; t++)
        printf("%s%d", t ? "," : " ", o.threads[t]);
    printf(" (CPU variants and ISA-L)\n%-10s %s (git %s)\n", "compiler", compiler_name(), GIT_REV);
    if (o.baseline)
        printf("%-10s ISA-L %d.%d ec_encode_data (its own dispatch: %s code on this CPU)\n",
               "baseline", ISAL_MAJOR_VERSION, ISAL_MINOR_VERSION,
               cpu_avx512bw() ? "AVX-512" : cpu_avx2() ? "AVX2" : "SSE");
    if (o.check)
        printf("%-10s parity byte for byte against a shift-and-XOR reference (and ISA-L);\n"
               "%-10s decode: erase %s, invert the survivors' k x k matrix, rebuild, compare\n",
               "check", "", o.erase_mode == ERASE_ALL ? "every set of m chunks"
                            : o.erase_mode == ERASE_LIST ? "the chunks listed"
                            : o.erase_mode == ERASE_NONE ? "nothing (--erasures none)"
                            : "m chunks chosen at random");
    else
        printf("%-10s off (--no-check)\n", "check");
    printf("%-10s GB/s in = k*len bytes / time; r+w = (k+m)*len / time\n", "rates");
    if (skipped[0])
        printf("%-10s %s\n", "skipped", skipped);
    if (runnable == 0) {
        printf("%s: skipped\n", skipped_cpu ? "nothing this machine can run" : c.gpu_name);
        fflush(stdout);
        return cli_csv_close(o.csv_out) ? 2 : 77;
    }
    if (c.gpu_ok && !o.reps) {
        /* the ceiling of a memory-bound kernel, in the same CSV: k = m = 1, len = the copy */
        size_t bytes = (size_t)1 << 30;
        double bw = gf_gpu_copy_gbps(bytes), ms = 2.0 * (double)bytes / (bw * 1e6);
        printf("%-10s cudaMemcpy device to device, 1 GiB, best of 10: %.0f GB/s (read + write)\n",
               "copy", bw);
        if (bw > 0)
            csv_line(&o, "copy_d2d", 1, 1, bytes, "copy", c.gpu_name, 0, 10, ms, ms, 0, "-", "-");
    }
    printf("\n%-14s %4s %4s %10s %7s %-7s %10s %8s %9s %8s  %-6s %s\n", "variant", "k", "m",
           "len", "threads", "timing", "ms", "GB/s in", "GB/s r+w", "vs ISA-L", "encode",
           "decode");

    c.cauchy = malloc((size_t)o.k * o.m);
    c.isal_tables = malloc((size_t)32 * o.k * o.m);
    uint8_t *mul = malloc(65536);
    if (!c.cauchy || !c.isal_tables || !mul)
        cli_die("out of memory");
    cauchy_matrix(o.k, o.m, c.cauchy);
    ec_init_tables(o.k, o.m, c.cauchy, c.isal_tables);
    for (int a = 0; a < 256; a++) /* the GPU's tables come from the lesson's field */
        for (int b = 0; b < 256; b++)
            mul[a * 256 + b] = gf256_mul((uint8_t)a, (uint8_t)b);
    c.field = (gf_gpu_field){gf256_log, gf256_exp, mul};
    gf_plan plan;
    if (gf_plan_init(&plan, o.k, o.m, c.cauchy) != 0)
        cli_die("out of memory");
    int stop[NVARIANTS] = {0};

    for (int li = 0; li < o.nlens; li++) {
        c.len = o.lens[li];
        chunks_alloc(&c.data, o.k, c.len, o.offset);
        chunks_alloc(&c.parity, o.m, c.len, o.offset);
        chunks_alloc(&c.out, o.m, c.len, o.offset);
        chunks_alloc(&c.rebuilt, o.m, c.len, o.offset);
        for (int j = 0; j < o.k; j++)
            fill_random(c.data.ptr[j], c.len, o.seed * 1000003u + (uint64_t)j * 7919u + c.len);
        ref_encode(o.k, o.m, c.cauchy, (const uint8_t *const *)c.data.ptr, c.parity.ptr, c.len);
        patterns P;
        make_patterns(&o, o.seed + c.len, &P);

        for (int ti = 0; ti < o.nthreads; ti++) {
            c.threads = o.threads[ti];
            char thr[16];
            snprintf(thr, sizeof thr, "%d", c.threads);
            c.isal_ms = 0;
            if (o.baseline) { /* ISA-L: checked against the reference, then timed alone */
                poison_out(&c);
                double t0 = timer_now();
                run_isal(o.k, o.m, c.isal_tables, (const uint8_t *const *)c.data.ptr, c.out.ptr,
                         c.len, c.threads);
                double first = timer_now() - t0;
                char why[128] = "";
                const char *enc = "-";
                if (o.check) {
                    enc = same(&c.out, &c.parity, o.m, c.len, why, sizeof why) ? "PASS" : "FAIL";
                    tally(&c, enc);
                }
                double tb[1024], total = 0;
                int n = 0, cap = o.reps ? o.reps : o.max_reps;
                if (first > WARMUP_IS_SAMPLE_S && !o.reps)
                    tb[n++] = first;
                else
                    while (n < cap && n < 1024 && (o.reps || total < o.min_time)) {
                        t0 = timer_now();
                        run_isal(o.k, o.m, c.isal_tables, (const uint8_t *const *)c.data.ptr,
                                 c.out.ptr, c.len, c.threads);
                        tb[n] = timer_now() - t0;
                        total += tb[n++];
                    }
                double med = timer_median(tb, n), mn = timer_min(tb, n);
                c.isal_ms = med * 1e3;
                print_row(&c, "isa-l", "cpu", thr, med * 1e3, 1.0, enc, "-");
                if (why[0])
                    printf("    ISA-L differs from the reference: %s\n", why);
                csv_row(&c, "isa-l", "cpu", c.cpu_name, c.threads, n, med * 1e3, mn * 1e3,
                        (double)o.k * c.len / (med * 1e9), enc, "-");
            }
            for (int v = 0; v < NVARIANTS; v++) {
                if (!o.selected[v] || stop[v] || (variants[v].gpu >= 0 && ti > 0))
                    continue;
                if (variants[v].fn)
                    measure_cpu(&c, &variants[v], &plan, &P, &stop[v]);
                else
                    measure_gpu(&c, &variants[v], &plan, &P);
            }
        }
        free(P.set);
        chunks_free(&c.data);
        chunks_free(&c.parity);
        chunks_free(&c.out);
        chunks_free(&c.rebuilt);
    }
    gf_plan_free(&plan);
    free(c.cauchy);
    free(c.isal_tables);
    free(mul);
    printf("\n%d passed, %d failed\n", c.passed, c.failed);
    fflush(stdout);
    if (cli_csv_close(o.csv_out) != 0)
        return 2;
    return c.failed ? 1 : 0;
}

/* 11_gf256: Reed-Solomon erasure coding as a GF(2^8) matrix product, on the CPU and GPU.
 *
 * Not a float GEMM, so not bench_main; but the same house: the common command line (cli.h,
 * with the code's own options in options.c), the CSV writer (csv.h), the timing rule
 * (timer.h) and the machine's facts (sysinfo.h). Here: the variant table, the code's set-up
 * and its checks.
 *
 *   make stage11
 *   ./11_gf256/gf256                                    # RS(10,4), 4K to 1M chunks, every variant
 *   ./11_gf256/gf256 --data 6 --parity 3 --len 1,7,4097 --erasures all
 *   ./11_gf256/gf256 --variant split_tables,gfni --len 1M --threads 1,2
 *
 * For each chunk length: k chunks of random bytes, the m x k Cauchy matrix, the parity
 * from a shift-and-XOR reference (reference.c) and from ISA-L. Each variant then runs
 * once on poisoned output and is compared byte for byte (encode); m chunks are erased,
 * the surviving k x k matrix inverted and the lost chunks rebuilt with the same kernel
 * (decode); then it is timed, alternating with ISA-L on the same data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/chunks.h"
#include "bench.h"
#include "cli.h"
#include "gf256.h"
#include "harness/gpu.h"
#include "matrix.h"
#include "harness/options.h"
#include "harness/reference.h"
#include "harness/isal.h"
#include "harness/report.h"
#include "timer.h"

/* ---- the variants ------------------------------------------------------------------------- */

static int cpu_avx2(void) { return __builtin_cpu_supports("avx2"); }
static int cpu_avx512bw(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}
static int cpu_gfni(void) { return cpu_avx512bw() && __builtin_cpu_supports("gfni"); }

/* The GPU, opened when a GPU variant's runnable() first asks (--device is known by then). */
static int gpu_device, gpu_ok = -1; /* -1: not asked */
static char gpu_name[128], gpu_needs[192] = "a CUDA GPU";

static int gpu_usable(void)
{
    if (gpu_ok < 0) {
        const int got = gf_gpu_open(gpu_device, gpu_name, sizeof gpu_name);
        if (got == -2) /* as the GEMM stages do (common/cuda_harness.cu): a bad --device */
            cli_die("--device: %s", gpu_name);
        gpu_ok = got == 0;
        if (!gpu_ok)
            snprintf(gpu_needs, sizeof gpu_needs, "a CUDA GPU (%s)", gpu_name);
    }
    return gpu_ok;
}

typedef struct variant {
    gemm_variant v;    /* name, description, runnable() and needs, as in every stage's table */
    gf_encode_fn *fn;  /* the CPU kernel; NULL for a GPU variant */
    int gpu;           /* enum gf_gpu_kernel, or -1 */
} variant;

static variant variants[] = {
    {{"table", "log/exp tables, one byte at a time (the scalar reference)"}, encode_table, -1},
    {{"split_avx2", "4-bit split tables, PSHUFB on 32 bytes (AVX2)", .runnable = cpu_avx2,
      .needs = "AVX2"}, encode_split_avx2, -1},
    {{"split_tables", "4-bit split tables, VPSHUFB on 64 bytes + VPTERNLOG (AVX-512BW; AVX2 "
      "where there is none)", .runnable = cpu_avx2, .needs = "AVX2"}, encode_split_avx512, -1},
    {{"gfni", "GF2P8AFFINEQB with a precomputed 8x8 bit matrix per coefficient (GFNI + "
      "AVX-512BW)", .runnable = cpu_gfni, .needs = "GFNI with AVX-512BW"}, encode_gfni, -1},
    {{"gpu_tables", "GPU: one byte per thread, log/exp tables in shared memory",
      .runnable = gpu_usable, .needs = gpu_needs}, NULL, GF_GPU_TABLES},
    {{"gpu_rect", "GPU: run-time tile shape, 4 bytes per word, tables of 4 rows' products",
      .runnable = gpu_usable, .needs = gpu_needs}, NULL, GF_GPU_RECT},
    {{"gpu_affine", "GPU: the bit-matrix product of gfni in integer instructions, no tables",
      .runnable = gpu_usable, .needs = gpu_needs}, NULL, GF_GPU_AFFINE},
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))
static const cli_table table = {&variants[0].v, sizeof variants[0], NVARIANTS};

/* ---- the checks ------------------------------------------------------------------------------- */

/* The erased sets to test for this length: each a sorted list of chunk indices. */
typedef struct patterns {
    int (*set)[GF_MAX_CHUNKS];
    int n, size;
} patterns;

static void make_patterns(const options *o, uint64_t seed, patterns *P)
{
    int n = o->k + o->m;
    P->n = 0;
    P->set = NULL;
    if (o->erase_mode == ERASE_NONE || !o->run.check)
        return;
    double count = 1; /* every m-subset of n, or one set */
    for (int i = 0; i < o->m && o->erase_mode == ERASE_ALL; i++)
        count = count * (n - i) / (i + 1);
    P->set = malloc(sizeof *P->set * (size_t)(count + 0.5));
    if (!P->set)
        cli_die("out of memory");
    P->size = o->erase_mode == ERASE_LIST ? o->nerase : o->m;
    int idx[GF_MAX_CHUNKS];
    for (int i = 0; i < n; i++)
        idx[i] = i;
    if (o->erase_mode == ERASE_LIST) {
        memcpy(idx, o->erase_list, sizeof(int) * (size_t)o->nerase);
    } else if (o->erase_mode == ERASE_RANDOM) { /* m distinct chunks, data and parity alike */
        uint64_t s = seed;
        for (int i = 0; i < o->m; i++) {
            int r = i + (int)(splitmix64(&s) % (uint64_t)(n - i));
            int t = idx[i]; idx[i] = idx[r]; idx[r] = t;
        }
        for (int i = 0; i < o->m; i++) /* sorted */
            for (int j = i + 1; j < o->m; j++)
                if (idx[j] < idx[i]) {
                    int t = idx[i]; idx[i] = idx[j]; idx[j] = t;
                }
    }
    for (;;) { /* every m-subset in lexicographic order (one set unless --erasures all) */
        memcpy(P->set[P->n++], idx, sizeof(int) * (size_t)P->size);
        int i = o->m - 1;
        while (i >= 0 && idx[i] == n - o->m + i)
            i--;
        if (i < 0 || o->erase_mode != ERASE_ALL)
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
                         c->len, NULL, NULL, NULL, shape, sizeof shape, err, errlen);
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

/* Both checks of a variant's output in c->out: encode against the reference parity (or failed
 * with enc_err), decode by rebuilding erased chunks. The first failure's details go to why. */
static void check(ctx *c, const variant *v, const patterns *P, const char *enc_err,
                  const char **enc, const char **dec, char *why, size_t wl)
{
    if (!c->o->run.check)
        return;
    *enc = chunks_same(&c->out, &c->parity, c->o->m, c->len, why, wl) ? "PASS" : "FAIL";
    if (enc_err) { /* the GPU's timed runs brought back something else */
        *enc = "FAIL";
        snprintf(why, wl, "%s", enc_err);
    }
    if (why[0])
        strncat(why, "; ", wl - strlen(why) - 1);
    *dec = check_decode(c, v, P, why + strlen(why), wl - strlen(why));
}

/* A CPU variant: one run on poisoned output, checked (the warm-up), then timed with ISA-L. */
static void measure_cpu(ctx *c, const variant *v, const gf_plan *plan, const patterns *P,
                        int *stop)
{
    const char *enc = "-", *dec = "-";
    char why[256] = "";
    chunks_poison(&c->out, &c->parity, c->o->m, c->len);
    cpu_run run = {c, v->fn, plan, c->out.ptr};
    double first = time_cpu(&run);
    check(c, v, P, NULL, &enc, &dec, why, sizeof why);
    report_cpu(c, v->v.name, &run, first, enc, dec, why);
    if (first > 1e3 * c->o->run.time_limit)
        *stop = 1;
}

/* A GPU variant: one run on poisoned output, timed on the GPU, then checked. */
static void measure_gpu(ctx *c, const variant *v, const gf_plan *plan, const patterns *P)
{
    const options *o = c->o;
    char why[256] = "", err[200] = "", shape[160] = "";
    const char *enc = "-", *dec = "-";
    gf_gpu_timing kt = {0}, et = {0};
    chunks_poison(&c->out, &c->parity, c->o->m, c->len);
    if (gf_gpu_encode((enum gf_gpu_kernel)v->gpu, &c->field, o->k, o->m, plan->coef,
                      (const uint8_t *const *)c->data.ptr, c->out.ptr, c->len, &c->rule, &kt,
                      &et, shape, sizeof shape, err, sizeof err) != 0) {
        printf("%-14s %4d %4d %10zu  %s\n", v->v.name, o->k, o->m, c->len, err);
        c->failed++;
        return;
    }
    check(c, v, P, et.reps < 0 ? err : NULL, &enc, &dec, why, sizeof why);
    report_gpu(c, v->v.name, gpu_name, &kt, &et, shape, enc, dec, why);
}

int main(int argc, char **argv)
{
    options o;
    options_parse(&o, NVARIANTS, argc, argv);
    gpu_device = o.run.device;
    if (o.run.list) {
        cli_list_variants(&table);
        return 0;
    }
    cli_select_variants(&table, &o.run);
    if (o.run.csv) /* before any work: a file we cannot write, or of another schema, is exit 2 */
        o.run.csv_out = cli_csv_open("--csv", o.run.csv, CSV_HEADER);
    int rc = bench_check_runnable(&table, &o.run); /* every argument checked: only now, 77 */
    if (rc != 0) {
        free(o.run.selected);
        return cli_csv_close(o.run.csv_out) ? 2 : rc;
    }
    const char *no_isal = NULL; /* ISA-L, the baseline: where it is not, the run goes on without */
    if (o.run.baseline && isal_load(&no_isal) != 0)
        o.run.baseline = 0;
    gf256_init();
    ref_init();
    /* split_tables: the widest split-table kernel this CPU runs */
    variants[2].fn = cpu_avx512bw() ? encode_split_avx512 : encode_split_avx2;

    const int cap = o.run.reps > o.run.max_reps ? o.run.reps : o.run.max_reps;
    ctx c = {&o, .rule = {o.run.reps, 1e3 * o.run.min_time, o.run.max_reps}};
    c.tv = malloc(sizeof(double) * (size_t)cap);
    c.tb = malloc(sizeof(double) * (size_t)cap);
    c.cauchy = malloc((size_t)o.k * o.m);
    c.isal_tables = malloc((size_t)32 * o.k * o.m);
    uint8_t *mul = malloc(65536);
    if (!c.tv || !c.tb || !c.cauchy || !c.isal_tables || !mul)
        cli_die("out of memory");
    print_header(&o, gpu_ok >= 0 ? gpu_name : NULL, no_isal);
    if (gpu_ok > 0 && !o.run.reps)
        report_copy(&o, gpu_name);
    print_table_head();
    for (int v = 0; v < NVARIANTS; v++) /* asked for, cannot run here: said, then left out */
        if (bench_not_here(&table, &o.run, v))
            bench_print_not_here(variants[v].v.name, variants[v].gpu >= 0 ? "machine" : "CPU",
                                 variants[v].v.needs);

    /* the code: the Cauchy matrix, ISA-L's tables for it, the GPU's tables from gf256.c */
    cauchy_matrix(o.k, o.m, c.cauchy);
    if (o.run.baseline)
        isal_init_tables(o.k, o.m, c.cauchy, c.isal_tables);
    for (int a = 0; a < 256; a++)
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
            fill_random(c.data.ptr[j], c.len,
                        o.run.seed * 1000003u + (uint64_t)j * 7919u + c.len);
        ref_encode(o.k, o.m, c.cauchy, (const uint8_t *const *)c.data.ptr, c.parity.ptr, c.len);
        patterns P;
        make_patterns(&o, o.run.seed + c.len, &P);

        for (int ti = 0; ti < o.run.nthreads; ti++) {
            c.threads = o.run.threads[ti];
            c.isal_ms = 0;
            if (o.run.baseline)
                measure_isal(&c);
            for (int v = 0; v < NVARIANTS; v++) {
                if (!o.run.selected[v] || stop[v] || (variants[v].gpu >= 0 && ti > 0))
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
    free(c.tv);
    free(c.tb);
    free(o.run.selected);
    bench_print_tally(c.passed, c.failed);
    fflush(stdout);
    if (cli_csv_close(o.run.csv_out) != 0)
        return 2;
    return c.failed ? 1 : 0;
}

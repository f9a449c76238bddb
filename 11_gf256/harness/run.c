/* run.c: stage 11's driver (run.h): the GPU's opening, the checks of a variant and its runs.
 *
 * For each chunk length: k chunks of random bytes, the m x k Cauchy matrix, the parity
 * from a shift-and-XOR reference (reference.c) and from ISA-L. Each variant then runs
 * once on poisoned output and is compared byte for byte (encode); m chunks are erased,
 * the surviving k x k matrix inverted and the lost chunks rebuilt with the same kernel
 * (decode); then it is timed, alternating with ISA-L on the same data.
 */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "chunks.h"
#include "cli.h"
#include "decode.h"
#include "gpu.h"
#include "isal.h"
#include "matrix.h"
#include "options.h"
#include "reference.h"
#include "report.h"
#include "timer.h"
#include "todo.h"

/* The GPU, opened when a GPU variant's runnable() first asks (--device is known by then). */
static int gpu_device, gpu_ok = -1; /* -1: not asked */
static char gpu_name[128];
char gpu_needs[192] = "a CUDA GPU";

int gpu_usable(void)
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

/* Data chunk j's bytes: the same for the same seed, length and j. */
static uint64_t data_seed(const options *o, int j, size_t len)
{
    return o->run.seed * 1000003u + (uint64_t)j * 7919u + len;
}

/* 1 when the data and parity chunks are as filled; else 0, what changed in why, and both filled
 * again for the next variant. */
static int inputs_whole(ctx *c, char *why, size_t wl)
{
    if (chunks_hash(&c->data, c->o->k) ^ chunks_hash(&c->parity, c->o->m) ^ c->inputs_hash) {
        uint8_t *want = malloc(c->len ? c->len : 1);
        if (!want)
            cli_die("out of memory");
        snprintf(why, wl, "a parity chunk, an input of decode, was written");
        for (int j = 0; j < c->o->k; j++) {
            fill_random(want, c->len, data_seed(c->o, j, c->len));
            for (size_t b = 0; b < c->len; b++)
                if (want[b] != c->data.ptr[j][b]) {
                    snprintf(why, wl, "input chunk %d written at byte %zu (%02x, was %02x)", j,
                             b, c->data.ptr[j][b], want[b]);
                    j = c->o->k;
                    break;
                }
        }
        free(want);
        for (int j = 0; j < c->o->k; j++)
            fill_random(c->data.ptr[j], c->len, data_seed(c->o, j, c->len));
        ref_encode(c->o->k, c->o->m, c->cauchy, (const uint8_t *const *)c->data.ptr,
                   c->parity.ptr, c->len);
        return 0;
    }
    return 1;
}

/* Both checks of a variant's output in c->out: encode against the reference parity (or failed
 * with enc_err), decode by rebuilding erased chunks; then the guards around its outputs, and its
 * inputs as they were. The first failure's details go to why. */
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
    if (!strcmp(*enc, "PASS") && !chunks_guards_whole(&c->out, why, wl))
        *enc = "FAIL";
    if (why[0])
        strncat(why, "; ", wl - strlen(why) - 1);
    char *dwhy = why + strlen(why);
    *dec = check_decode(c, v, P, dwhy, wl - strlen(why));
    if (strcmp(*dec, "FAIL") && !chunks_guards_whole(&c->rebuilt, dwhy, wl - strlen(why)))
        *dec = "FAIL"; /* (a rebuilt chunk's guard: decode's output) */
    char in_why[160];
    if (!inputs_whole(c, in_why, sizeof in_why)) { /* the cause of whatever else failed */
        *enc = "FAIL";
        snprintf(why, wl, "%s", in_why);
    }
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

/* The chunks of the longest --len, allocated once and given back before the header is printed:
 * a length this process cannot have (a memory limit, ulimit -v) is refused before any output,
 * not after the header and the table's head. Each length is then allocated as it comes, so that
 * a kernel that writes past its length still runs into the end of its buffer. */
static void check_memory(const options *o)
{
    size_t longest = 0;
    for (int i = 0; i < o->nlens; i++)
        longest = o->lens[i] > longest ? o->lens[i] : longest;
    chunks sets[4]; /* data, the reference parity, a variant's output, the rebuilt chunks */
    const int n[4] = {o->k, o->m, o->m, o->m}, total = o->k + 3 * o->m;
    for (int s = 0; s < 4; s++) {
        sets[s].n = 0;
        for (int i = 0; i < n[s]; i++, sets[s].n++)
            if (!(sets[s].base[i] = aligned_alloc(64, (longest + o->offset + 63) / 64 * 64)))
                cli_die("--len %zu: cannot allocate the %d chunks of that length a run holds "
                        "(k + 3m, %.1f GiB)", longest, total,
                        (double)total * longest / 1073741824.0);
    }
    for (int s = 0; s < 4; s++)
        chunks_free(&sets[s]);
}

int gf_main(variant *variants, int nvariants, int argc, char **argv)
{
    const cli_table table = {&variants[0].v, sizeof variants[0], nvariants};
    options o;
    options_parse(&o, nvariants, argc, argv);
    gpu_device = o.run.device;
    if (o.run.list) {
        cli_list_variants(&table);
        return 0;
    }
    if (o.todo) { /* the exercise's functions alone, not the variants */
        free(o.run.selected);
        return todo_main(&o);
    }
    cli_select_variants(&table, &o.run);
    if (o.run.csv) /* before any work: a file we cannot write, or of another schema, is exit 2 */
        o.run.csv_out = cli_csv_open("--csv", o.run.csv, CSV_HEADER);
    check_memory(&o); /* a length too large for memory: exit 2 before anything is printed */
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
    for (int v = 0; v < nvariants; v++) /* asked for, cannot run here: said, then left out */
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
    int *stop = calloc((size_t)nvariants, sizeof *stop);
    if (!stop)
        cli_die("out of memory");

    for (int li = 0; li < o.nlens; li++) {
        c.len = o.lens[li];
        chunks_alloc(&c.data, o.k, c.len, o.offset);
        chunks_alloc(&c.parity, o.m, c.len, o.offset);
        chunks_alloc(&c.out, o.m, c.len, o.offset);
        chunks_alloc(&c.rebuilt, o.m, c.len, o.offset);
        for (int j = 0; j < o.k; j++)
            fill_random(c.data.ptr[j], c.len, data_seed(&o, j, c.len));
        ref_encode(o.k, o.m, c.cauchy, (const uint8_t *const *)c.data.ptr, c.parity.ptr, c.len);
        c.inputs_hash = chunks_hash(&c.data, o.k) ^ chunks_hash(&c.parity, o.m);
        patterns P;
        make_patterns(&o, o.run.seed + c.len, &P);

        for (int ti = 0; ti < o.run.nthreads; ti++) {
            c.threads = o.run.threads[ti];
            c.isal_ms = 0;
            if (o.run.baseline)
                measure_isal(&c);
            for (int v = 0; v < nvariants; v++) {
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
    free(stop);
    free(o.run.selected);
    bench_print_tally(c.passed, c.failed);
    fflush(stdout);
    if (cli_csv_close(o.run.csv_out) != 0)
        return 2;
    return c.failed ? 1 : 0;
}

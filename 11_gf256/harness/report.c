/* report.c: stage 11's timing and its output (report.h): the header, a row per measurement on
 * standard output, the same row in the CSV. */
#include "report.h"

#include "isal.h"

#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "cpu_features.h"
#include "csv.h"
#include "sysinfo.h"

/* One CSV row (common/csv.c writes it whole or not at all). */
static void csv_line(const options *o, const char *variant, int k, int m, size_t len,
                     const char *timing, const char *device, int threads, int reps,
                     double ms_med, double ms_min, double base_gbps, const char *enc,
                     const char *dec)
{
    if (!o->run.csv_out)
        return;
    char date[32], base[32] = "", dev[160];
    sysinfo_utc_now(date, sizeof date);
    if (base_gbps > 0)
        snprintf(base, sizeof base, "%.3f", base_gbps);
    csv_field(dev, sizeof dev, device);
    double in_b = (double)k * len, rw_b = (double)(k + m) * len;
    cli_csv_row(o->run.csv_out,
                "11_gf256,%s,%d,%d,%zu,%d,%s,%d,%.6f,%.6f,%.3f,%.3f,%s,%s,%s,%s,%s,%s,%s,%s",
                variant, k, m, len, threads, timing, reps, ms_med, ms_min, in_b / (ms_med * 1e6),
                rw_b / (ms_med * 1e6), o->run.baseline && base_gbps > 0 ? "ISA-L" : "", base, enc,
                dec, dev, sysinfo_compiler(), sysinfo_git_rev(), date);
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

static void tally(ctx *c, const char *r)
{
    if (!strcmp(r, "PASS"))
        c->passed++;
    else if (!strcmp(r, "FAIL"))
        c->failed++;
}

#ifdef GF_X86
#define GF_ON_X86 1
#else
#define GF_ON_X86 0
#endif

void print_header(const options *o, const char *gpu, const char *no_isal)
{
    const bench_opts *r = &o->run;
    printf("== 11_gf256: Reed-Solomon erasure coding as a GF(2^8) matrix product ==\n");
#ifdef GF_X86
    const int avx2 = __builtin_cpu_supports("avx2"),
              avx512bw = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    printf("%-10s %s (AVX2 %s, AVX-512BW %s, GFNI %s)\n", "cpu", sysinfo_cpu_model(),
           avx2 ? "yes" : "no", avx512bw ? "yes" : "no",
           __builtin_cpu_supports("gfni") ? "yes" : "no");
#elif defined(GF_NEON) /* ARM: split_neon.c */
    const int avx2 = 0, avx512bw = 0;
    printf("%-10s %s (NEON yes: AArch64)\n", "cpu", sysinfo_cpu_model());
#else
    const int avx2 = 0, avx512bw = 0;
    printf("%-10s %s (none of the stage's SIMD kernels)\n", "cpu", sysinfo_cpu_model());
#endif
    cpu_print_hidden(stdout);
    if (gpu)
        printf("%-10s %s\n", "gpu", gpu);
    printf("%-10s RS(k=%d, m=%d): %d data chunks, %d parity; Cauchy matrix; polynomial 0x%X\n",
           "code", o->k, o->m, o->k, o->m, GF_POLY);
    printf("%-10s", "threads");
    for (int t = 0; t < r->nthreads; t++)
        printf("%s%d", t ? "," : " ", r->threads[t]);
    printf(" (CPU variants and ISA-L)\n%-10s %s (git %s)\n", "compiler", sysinfo_compiler(),
           sysinfo_git_rev());
    if (r->baseline)
        printf("%-10s ISA-L ec_encode_data, %s (its own dispatch: %s)\n", "baseline", isal_name(),
               cpu_hidden_words() ? "GEMM_HIDE_ISA does not reach it"
               : avx512bw         ? "AVX-512 code on this CPU"
               : avx2             ? "AVX2 code on this CPU"
               : !GF_ON_X86       ? "its own code for this CPU"
                                  : "SSE code on this CPU");
    else
        printf("%-10s none: %s\n", "baseline", no_isal ? no_isal : "--no-baseline");
    if (r->check)
        printf("%-10s parity byte for byte against a shift-and-XOR reference%s;\n"
               "%-10s decode: erase %s, invert the survivors' k x k matrix, rebuild, compare\n",
               "check", r->baseline ? " (and ISA-L)" : "", "", o->erase_mode == ERASE_ALL ? "every set of m chunks"
                            : o->erase_mode == ERASE_LIST ? "the chunks listed"
                            : o->erase_mode == ERASE_NONE ? "nothing (--erasures none)"
                            : "m chunks chosen at random");
    else
        printf("%-10s off (--no-check)\n", "check");
    printf("%-10s GB/s in = k*len bytes / time; r+w = (k+m)*len / time\n", "rates");
    bench_print_load_start(0);
}

void report_copy(const options *o, const char *gpu)
{
    size_t bytes = (size_t)1 << 30;
    double bw = gf_gpu_copy_gbps(bytes), ms = 2.0 * (double)bytes / (bw * 1e6);
    printf("%-10s cudaMemcpy device to device, 1 GiB, best of 10: %.0f GB/s (read + write)\n",
           "copy", bw);
    if (bw > 0)
        csv_line(o, "copy_d2d", 1, 1, bytes, "copy", gpu, 0, 10, ms, ms, 0, "-", "-");
}

void print_table_head(void)
{
    printf("\n%-14s %4s %4s %10s %7s %-7s %10s %8s %9s %8s  %-6s %s\n", "variant", "k", "m",
           "len", "threads", "timing", "ms", "GB/s in", "GB/s r+w", "vs ISA-L", "encode",
           "decode");
}

double time_cpu(void *arg)
{
    const cpu_run *r = (const cpu_run *)arg;
    const ctx *c = r->c;
    const uint8_t *const *in = (const uint8_t *const *)c->data.ptr;
    double t0 = timer_now();
    if (r->fn)
        run_cpu(r->fn, r->plan, in, r->out, c->len, c->threads);
    else
        run_isal(c->o->k, c->o->m, c->isal_tables, in, r->out, c->len, c->threads);
    return 1e3 * (timer_now() - t0);
}

void measure_isal(ctx *c)
{
    const options *o = c->o;
    char why[128] = "", thr[16];
    const char *enc = "-";
    snprintf(thr, sizeof thr, "%d", c->threads);
    chunks_poison(&c->out, &c->parity, o->m, c->len);
    cpu_run isal = {c, NULL, NULL, c->out.ptr};
    double first = time_cpu(&isal);
    if (o->run.check) {
        enc = chunks_same(&c->out, &c->parity, o->m, c->len, why, sizeof why) ? "PASS" : "FAIL";
        tally(c, enc);
    }
    int n = timer_alternate(&c->rule, first, time_cpu, &isal, NULL, NULL, c->tv, NULL);
    double med = timer_median(c->tv, n), mn = timer_min(c->tv, n);
    c->isal_ms = med;
    print_row(c, "isa-l", "cpu", thr, med, 1.0, enc, "-");
    if (why[0])
        printf("    ISA-L differs from the reference: %s\n", why);
    csv_row(c, "isa-l", "cpu", sysinfo_cpu_model(), c->threads, n, med, mn,
            (double)o->k * c->len / (med * 1e6), enc, "-");
}

void report_cpu(ctx *c, const char *name, cpu_run *run, double first_ms, const char *enc,
                const char *dec, const char *why)
{
    const options *o = c->o;
    char thr[16];
    snprintf(thr, sizeof thr, "%d", c->threads);
    cpu_run isal = {c, NULL, NULL, c->rebuilt.ptr};
    int n = timer_alternate(&c->rule, first_ms, time_cpu, run, o->run.baseline ? time_cpu : NULL,
                            &isal, c->tv, c->tb);
    double med = timer_median(c->tv, n), mn = timer_min(c->tv, n), vs = 0, base_gbps = 0;
    if (o->run.baseline) {
        double bmed = timer_median(c->tb, n);
        vs = bmed / med;
        base_gbps = (double)o->k * c->len / (bmed * 1e6);
    }
    print_row(c, name, "cpu", thr, med, vs, enc, dec);
    if (why[0])
        printf("    %s\n", why);
    tally(c, enc);
    tally(c, dec);
    csv_row(c, name, "cpu", sysinfo_cpu_model(), c->threads, n, med, mn, base_gbps, enc, dec);
}

void report_gpu(ctx *c, const char *name, const char *gpu, const gf_gpu_timing *kt,
                const gf_gpu_timing *et, const char *shape, const char *enc, const char *dec,
                const char *why)
{
    const options *o = c->o;
    double base_gbps = c->isal_ms > 0 ? (double)o->k * c->len / (c->isal_ms * 1e6) : 0;
    print_row(c, name, "kernel", "-", kt->ms_median,
              c->isal_ms > 0 ? c->isal_ms / kt->ms_median : 0, enc, dec);
    csv_row(c, name, "kernel", gpu, 0, kt->reps, kt->ms_median, kt->ms_min, base_gbps, enc, dec);
    if (et->reps > 0) {
        char e2e[40];
        snprintf(e2e, sizeof e2e, "%s+pcie", name);
        print_row(c, e2e, "e2e", "-", et->ms_median,
                  c->isal_ms > 0 ? c->isal_ms / et->ms_median : 0, enc, dec);
        csv_row(c, e2e, "end_to_end", gpu, 0, et->reps, et->ms_median, et->ms_min, base_gbps,
                enc, dec);
    }
    printf("    %s%s%s\n", shape, why[0] ? "; " : "", why);
    tally(c, enc);
    tally(c, dec);
}

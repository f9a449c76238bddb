/* peak.c: measure this machine's ceilings for the roofline charts (build/peak, `make peak`).
 *
 * A GEMM kernel is held back by one of two resources: how many floating-point
 * operations the cores can issue per second, or how many bytes memory can deliver
 * per second. The roofline model draws both as ceilings: a kernel that does I flops
 * per byte it moves can run no faster than min(peak GFLOP/s, I x GB/s). This program
 * measures the two ceilings instead of trusting a data sheet, with the loops of peak.h
 * (peak_lib.c), each on 1 thread and on one thread per online core.
 *
 * A ceiling is the best the machine can do, so each figure is its fastest run of
 * many, not a median. The triad counts 12 bytes per element (read b and c, write a),
 * STREAM's convention; with write-allocate the memory bus really carries 16.
 *
 * Usage: peak [--csv FILE] [--quick] [-h|--help]      (about 12 s; --quick about 3 s; more
 *        while the bests still move: a busy machine)
 * CSV:   device,measure,threads,value,unit,date   (one row per measure x threads;
 *        device is the "model name" with commas made spaces, as the stages write it;
 *        a measure the CPU lacks has no row)
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peak.h"
#include "sysinfo.h"
#include "timer.h"

/* ------------------------------------------------------------ the machine */

/* Nominal clock in GHz from the "@ 2.50GHz" of an Intel model name, else from
 * cpufreq's base_frequency; 0 if neither is known. Turbo runs above it. */
static double nominal_ghz(void)
{
    const char *at = strstr(sysinfo_cpu_model(), "@ ");
    double ghz = 0;
    if (at && sscanf(at + 2, "%lfGHz", &ghz) == 1 && ghz > 0)
        return ghz;
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency", "r");
    long khz = 0;
    if (f) {
        if (fscanf(f, "%ld", &khz) != 1)
            khz = 0;
        fclose(f);
    }
    return khz > 0 ? khz / 1e6 : 0;
}

static const char *fmt_bytes(char *buf, size_t len, double bytes)
{
    if (bytes <= 0)
        snprintf(buf, len, "unknown");
    else if (bytes < 1 << 20)
        snprintf(buf, len, "%.0f KiB", bytes / (1 << 10));
    else if (bytes < 1 << 30)
        snprintf(buf, len, "%.3g MiB", bytes / (1 << 20));
    else
        snprintf(buf, len, "%.3g GiB", bytes / (1 << 30));
    return buf;
}

/* ------------------------------------------------------------ measuring */

enum job_kind { JOB_FMA, JOB_READ, JOB_TRIAD };

/* One row of the table: a measure at a thread count, and its fastest run. */
typedef struct job {
    enum job_kind kind;
    const char *measure, *unit;
    int threads;
    const fma_measure *fm; /* JOB_FMA: the kernel; NULL-kernel rows are "not available" */
    long iters;            /* JOB_FMA: iterations per thread and run */
    double work;           /* flops or bytes counted in one run */
    double best;           /* seconds of the fastest run */
    char note[96];
} job;

/* The bandwidth arrays: one buffer, read whole by bw_read and split in three
 * (a, b, c of n floats each) for bw_triad. */
static float *bw_buf;
static long bw_blocks, bw_n;

static double run_job(const job *j)
{
    switch (j->kind) {
    case JOB_FMA:
        return time_fma(j->fm, j->iters, j->threads);
    case JOB_READ:
        return time_read(bw_buf, bw_blocks, j->threads);
    case JOB_TRIAD:
        return time_triad(bw_buf, bw_buf + bw_n, bw_buf + 2 * bw_n, bw_n, j->threads);
    }
    return 0;
}

/* The cores warmed up before anything is timed (2 s, --quick 1 s): a core that has been idle runs its first
 * fraction of a second at another clock (and on a VM its vCPU may not even be scheduled yet).
 * The first thing on a 16-core host just after it started, --quick read 1,300 GFLOP/s on all
 * cores where a minute later it read 2,165, and the SIMD GEMM ran above that "peak" in between.
 * So: the widest FMA loop on every core for `seconds`, before the calibration and the runs. */
static void warm_up(const fma_measure *fms, int nfm, int threads, double seconds)
{
    const fma_measure *widest = NULL;
    for (int k = 0; k < nfm; k++)
        if (fms[k].available && (!widest || fms[k].lanes > widest->lanes))
            widest = &fms[k];
    if (!widest)
        return;
    const long iters = calibrate_fma(widest, 0.01);
    for (double spent = 0; spent < seconds;)
        spent += time_fma(widest, iters, threads);
}

/* One warm-up run of each job, then rounds of every job in turn, keeping each job's fastest
 * run. Taking turns spreads every job's runs over the whole measurement, so a few seconds of
 * someone else's work on this shared machine spoil a few runs of each job instead of all the
 * runs of one. At least `reps` rounds, then more until the bests are stable: no best improved
 * by more than STABLE_GAIN in the last `reps` / 2 rounds (at least 3) and the last `calm_s`
 * seconds; at most `most` rounds and `most_s` seconds. A best that still moves means the
 * machine's speed still moves (a passing load, a clock not yet settled): returns 0 then, 1 when
 * stable; *rounds says how many ran. */
#define STABLE_GAIN 0.005
static int measure(job *jobs, int njobs, int reps, int most, double calm_s, double most_s,
                   int *rounds)
{
    const int calm = reps / 2 > 3 ? reps / 2 : 3;
    const double start = timer_now();
    double gain_at = start;
    int last_gain = 0, r = 0;
    for (int i = 0; i < njobs; i++) {
        jobs[i].best = 1e30;
        if (jobs[i].kind != JOB_FMA || jobs[i].fm->available)
            run_job(&jobs[i]);
    }
    for (; r < most && timer_now() - start < most_s &&
           (r < reps || r - 1 - last_gain < calm || timer_now() - gain_at < calm_s);
         r++)
        for (int i = 0; i < njobs; i++) {
            if (jobs[i].kind == JOB_FMA && !jobs[i].fm->available)
                continue;
            double t = run_job(&jobs[i]);
            if (t < jobs[i].best * (1 - STABLE_GAIN)) {
                last_gain = r;
                gain_at = timer_now();
            }
            if (t < jobs[i].best)
                jobs[i].best = t;
        }
    *rounds = r;
    return r - 1 - last_gain >= calm && timer_now() - gain_at >= calm_s;
}

/* ------------------------------------------------------------ results */

typedef struct result {
    const char *measure, *unit;
    int threads;
    double value;
} result;

#define MAX_RESULTS 32
static result results[MAX_RESULTS];
static int nresults;

/* Print the jobs' rows (and keep them for the CSV); ghz > 0 adds FMAs per cycle. */
static void print_rows(job *jobs, int njobs, double ghz)
{
    for (int i = 0; i < njobs; i++) {
        job *j = &jobs[i];
        if (j->kind == JOB_FMA && !j->fm->available) {
            printf("%-12s %7s %9s  %-8s needs %s, which this CPU lacks\n", j->measure, "-",
                   "not available", "", j->fm->isa);
            continue;
        }
        double value = j->work / j->best / 1e9;
        /* Instructions per cycle per core at the nominal clock: about the number of
         * FMA units, a little above it with turbo, below it if the clock drops. */
        if (j->kind == JOB_FMA && ghz > 0)
            snprintf(j->note, sizeof j->note, "%.2f FMA/cycle/core at %.2f GHz",
                     value / j->threads / (2.0 * j->fm->lanes * ghz), ghz);
        printf("%-12s %7d %9.1f  %-8s %s\n", j->measure, j->threads, value, j->unit, j->note);
        if (nresults < MAX_RESULTS)
            results[nresults++] = (result){j->measure, j->unit, j->threads, value};
    }
    fflush(stdout);
}

static void write_csv(FILE *f, const char *date)
{
    char device[256];
    /* Commas become spaces, exactly as the stages write their device column. */
    snprintf(device, sizeof device, "%s", sysinfo_cpu_model());
    for (char *p = device; *p; p++)
        if (*p == ',')
            *p = ' ';
    fputs("device,measure,threads,value,unit,date\n", f);
    for (int i = 0; i < nresults; i++)
        fprintf(f, "%s,%s,%d,%.2f,%s,%s\n", device, results[i].measure, results[i].threads,
                results[i].value, results[i].unit, date);
}

/* ------------------------------------------------------------ the program */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: peak [--csv FILE] [--quick] [-h|--help]\n"
            "Measure the roofline ceilings of this machine: FMA GFLOP/s (scalar, AVX2,\n"
            "AVX-512) and memory GB/s (read, triad), on 1 thread and on all online cores.\n"
            "  --csv FILE   write the results to FILE (replacing it), with the header\n"
            "               device,measure,threads,value,unit,date\n"
            "  --quick      short runs (about 3 s), for tests; the figures are rougher\n"
            "  -h, --help   this text\n");
}

static void print_header(int reps, int quick, int cores, double ghz, const char *date)
{
    char b1[32], b2[32], b3[32];
    printf("peak: this machine's ceilings for the roofline (all cores warmed up %.0f s, then the "
           "best of at least %d runs, more until it is stable%s)\n", quick ? 1.0 : 2.0, reps,
           quick ? ", --quick" : "");
    printf("%-10s %s", "cpu", sysinfo_cpu_model());
    if (ghz > 0)
        printf(" (nominal %.2f GHz)", ghz);
    printf("\n%-10s %d online, measured on 1 and %d threads\n", "cores", cores, cores);
    long l1d, l2, l3;
    sysinfo_caches(&l1d, &l2, &l3);
    printf("%-10s L1d %s, L2 %s, L3 %s (per instance)\n", "caches", fmt_bytes(b1, sizeof b1, l1d),
           fmt_bytes(b2, sizeof b2, l2), fmt_bytes(b3, sizeof b3, l3));
    printf("%-10s %s\n", "compiler", sysinfo_compiler());
    printf("%-10s %s\n\n", "date", date);
    printf("%-12s %7s %9s  %-8s %s\n", "measure", "threads", "value", "unit", "note");
}

/* How many rounds the bests took to settle, and a warning where they did not. */
static void report_rounds(const char *what, int rounds, int stable)
{
    if (stable)
        printf("%-12s best of %d rounds; the last rounds moved no best by more than %.1f%%\n\n",
               "", rounds, 100 * STABLE_GAIN);
    else
        printf("%-12s warning: the %s bests still moved after %d rounds: the machine's speed "
               "changes (busy, or the clock not settled); these ceilings may be low\n\n", "",
               what, rounds);
}

int main(int argc, char **argv)
{
    const char *csv_path = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--csv") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0') {
                fprintf(stderr, "peak: --csv needs a file name\n");
                return 2;
            }
            csv_path = argv[++i];
        } else {
            fprintf(stderr, "peak: unknown option '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }

    /* Open the CSV now, so a bad path fails before the measuring, not after it. */
    FILE *csv = NULL;
    if (csv_path && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "peak: cannot write --csv %s\n", csv_path);
        return 2;
    }

    /* A ceiling is the best the machine can do, so every measure keeps its fastest
     * run, not the median the GEMM stages report: on a shared machine noise only
     * ever slows a run down. */
    const int reps = quick ? 3 : 20;
    const double fma_seconds = quick ? 0.01 : 0.03; /* one run of an FMA kernel */
    const int cores = sysinfo_cores();
    const int thread_counts[2] = {1, cores};
    const int nthread_counts = cores > 1 ? 2 : 1;
    omp_set_dynamic(0); /* all the threads asked for, or the figure is not "all cores" */
    double ghz = nominal_ghz();
    char date[32];
    sysinfo_utc_now(date, sizeof date);
    print_header(reps, quick, cores, ghz, date);

    /* Compute: every FMA kernel the CPU has, on 1 thread and on all cores. */
    fma_measure fms[PEAK_MAX_FMA];
    job jobs[16];
    int nfm = fma_measures(fms), njobs = 0;
    warm_up(fms, nfm, cores, quick ? 1.0 : 2.0);
    for (int k = 0; k < nfm; k++) {
        long iters = fms[k].available ? calibrate_fma(&fms[k], fma_seconds) : 0;
        for (int c = 0; c < (fms[k].available ? nthread_counts : 1); c++) {
            int th = thread_counts[c];
            jobs[njobs++] = (job){.kind = JOB_FMA, .measure = fms[k].name, .unit = "GFLOP/s",
                                  .threads = th, .fm = &fms[k], .iters = iters,
                                  .work = 2.0 * fms[k].lanes * fms[k].chains * iters * th};
        }
    }
    /* (an FMA round is a fraction of a second: stable means a second or two without a gain) */
    int rounds, stable = measure(jobs, njobs, reps, 1000, quick ? 1.0 : 2.0, quick ? 5.0 : 15.0,
                                 &rounds);
    print_rows(jobs, njobs, ghz);
    report_rounds("compute", rounds, stable);

    /* Memory: arrays of 8x the last-level cache (and at least 256 MiB), so the
     * caches hold almost none of them and the figure is memory's, not L3's. */
    long l1d, l2, l3;
    sysinfo_caches(&l1d, &l2, &l3);
    long llc = l3 > 0 ? l3 : l2;
    double want = 8.0 * llc > 256.0 * (1 << 20) ? 8.0 * llc : 256.0 * (1 << 20);
    bw_blocks = (long)ceil(want / (3.0 * PEAK_BLOCK * sizeof(float))) * 3;
    bw_n = bw_blocks / 3 * PEAK_BLOCK;
    size_t bytes = (size_t)bw_blocks * PEAK_BLOCK * sizeof(float);
    if (!(bw_buf = aligned_alloc(64, bytes))) {
        fprintf(stderr, "peak: cannot allocate %.2f GiB for the bandwidth arrays\n",
                bytes / (double)(1 << 30));
        if (csv)
            fclose(csv);
        return 1;
    }
    /* Pages are placed where they are first written: write them with all threads. */
    bw_init(bw_buf, bw_blocks, cores);
    char read_note[96], triad_note[96], b1[32], b2[32];
    snprintf(read_note, sizeof read_note, "sum of %s (%.1fx L3)",
             fmt_bytes(b1, sizeof b1, (double)bytes), llc > 0 ? (double)bytes / llc : 0.0);
    /* The triad counts 3 arrays x 4 bytes per element (2 read, 1 written), as STREAM
     * does. A cache first reads each line of `a` it will write (write-allocate), so
     * memory really moves 4 x 4 bytes: the true traffic is 4/3 of the figure. */
    snprintf(triad_note, sizeof triad_note, "a=b+s*c, 3 x %s; counts 12 B/elem (16 w/ write-allocate)",
             fmt_bytes(b2, sizeof b2, bw_n * (double)sizeof(float)));
    njobs = 0;
    for (int c = 0; c < nthread_counts; c++) {
        jobs[njobs] = (job){.kind = JOB_READ, .measure = "bw_read", .unit = "GB/s",
                            .threads = thread_counts[c], .work = (double)bytes};
        snprintf(jobs[njobs++].note, sizeof jobs[0].note, "%s", read_note);
    }
    for (int c = 0; c < nthread_counts; c++) {
        jobs[njobs] = (job){.kind = JOB_TRIAD, .measure = "bw_triad", .unit = "GB/s",
                            .threads = thread_counts[c], .work = 3.0 * sizeof(float) * bw_n};
        snprintf(jobs[njobs++].note, sizeof jobs[0].note, "%s", triad_note);
    }
    /* (a memory round takes seconds: at most 2 x calm + 1 rounds, or reps when more) */
    stable = measure(jobs, njobs, reps, reps > 7 ? reps + 1 : 7, 0, 60, &rounds);
    print_rows(jobs, njobs, ghz);
    report_rounds("memory", rounds, stable);
    free(bw_buf);

    printf("\nGFLOP/s: 2 flops per FMA per float lane. GB/s: 10^9 bytes per second.\n");
    if (csv) {
        write_csv(csv, date);
        if (fclose(csv) != 0) {
            fprintf(stderr, "peak: error writing --csv %s\n", csv_path);
            return 1;
        }
        printf("wrote %s\n", csv_path);
    }
    return 0;
}

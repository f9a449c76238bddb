/* probe.c: five measurements behind chapter 05's "Trying for 85%" section, each comparing
 * things inside one process, run after run, because on a shared machine the speed drifts
 * by 2x over minutes and only side-by-side runs can be compared.
 * Why it is one file: the six measurements share the packed blocks, the threads' setup and the
 * reading of their arguments; each measurement is a function of about a screen.
 *
 *   make build/rel/05_simd/probe      (a program of its own, not part of the stage's)
 *   build/rel/05_simd/probe kernel ROUNDS [KERNEL] KC,NC,MC[xREPEAT] ...
 *       a micro-kernel alone (default the dispatch's; or avx2_6x16, generic ...), over an MC x KC
 *       block of A and a KC x NC block of B that are already packed (and in cache): the five
 *       loops' inner two, no packing, C in cache. xREPEAT: the blocks REPEAT times a round
 *       (blocks small enough for L1 take too little time to time once).
 *   build/rel/05_simd/probe kernels THREADS ROUNDS [KERNEL] KC,NC,MC[xREPEAT] ...
 *       the same on THREADS threads at once, each on its own blocks (nothing shared, no
 *       L3 or memory traffic): what one core's kernel keeps of its rate when every core runs
 *       it; a thread's rate from the slowest thread's time, and the mean of the threads' own.
 *       Both print the cores' clock after each set (a chain of dependent multiplies, timed), and
 *       the set "fma" is build/peak's widest FMA loop here (AVX-512, else AVX2, else NEON;
 *       whichever kernel is named): the clock under FMAs alone.
 *   build/rel/05_simd/probe packing THREADS REPS N ...
 *       the five loops with a micro-kernel that does nothing (packing and loop overhead
 *       only), then the whole gemm_simd, alternated: packing's share of an N^3 product.
 *   build/rel/05_simd/probe blocks THREADS REPS N [KERNEL:]MC,KC,NC[/own|/shared][/uUNITS][/nolook] ...
 *       gemm_packed with each set of block sizes (0 keeps the computed value; KERNEL: a kernel
 *       by its variant name, default the dispatch's; /own, /shared: how the threads share B,
 *       --split; /uUNITS: at least UNITS units of work a thread in each slice of K; /nolook: the
 *       next phase packed only when every unit is done) in turn, then
 *       OpenBLAS, at every
 *       repetition; each ratio is the median of run-by-run ratios, to the first set (above 1:
 *       faster than the first) and to OpenBLAS (above 1: faster than OpenBLAS).
 *   build/rel/05_simd/probe share THREADS REPS N ...
 *       the share of the peak, pair by pair: build/peak's widest FMA loop (its fastest of 3
 *       runs of 0.03 s, the run length build/peak uses), then one gemm_simd call of N^3, REPS
 *       times; each pair's ratio GEMM GFLOP/s / peak GFLOP/s, so that both figures come from
 *       the same fraction of a second, and the medians and the best of the three series.
 *
 *   build/rel/05_simd/probe phases THREADS REPS N[/own|/shared][/uUNITS] ...
 *       gemm_packed's hooks timed on each thread: the shares of the threads' time spent packing
 *       A, packing B, in the kernel, and the rest (waiting at the barriers, the loops); the
 *       kernel's own rate a thread; how far apart the threads' kernel times are.
 *
 * Run it under scripts/bench-lock, like every timing. Not part of `make test`.
 */
#include <cblas.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* probe share times the FMA loop of build/peak itself (common/peak_lib.c, linked): the loop,
 * its calibration and its flop count are the ones `make peak` measures, not a second copy. */
#include "peak.h"
#include "timer.h"
#include "../../05_simd/simd.h"

#define MAX_REPS 256
#define MAX_SETS 8

/* The harness's clock and statistics (common/timer.h); a median over a copy, the samples kept
 * in their order (an even count: the mean of the middle two, as the harness reports). */
static double now(void) { return timer_now(); }

static double median(const double *v, int n)
{
    double t[MAX_REPS];
    memcpy(t, v, (size_t)n * sizeof *t);
    return timer_median(t, n);
}

static double minimum(const double *v, int n) { return timer_min(v, n); }

/* A micro-kernel by its variant name ("avx2_6x16"), or NULL with a message (exit status 2: there
 * is no kernel of that name). Whether this CPU runs it is asked after every argument was read
 * (runs_here): bad input is exit 2 on every CPU. */
static const microkernel *kernel_named(const char *who, const char *name)
{
    const microkernel *all[] = {&uk_avx512_6x64, &uk_avx512_14x32, &uk_avx2_6x16,
                                &uk_generic_6x16, &uk_omp_simd_6x64};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    fprintf(stderr, "probe %s: no kernel '%s' (", who, name);
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        fprintf(stderr, "%s%s", i ? ", " : "", all[i]->name);
    fprintf(stderr, ")\n");
    return NULL;
}

/* 1 if this CPU runs the kernel; else 0, with a message (exit status 77). */
static int runs_here(const char *who, const microkernel *uk)
{
    if (uk->cpu_has())
        return 1;
    fprintf(stderr, "probe %s: this CPU cannot run the kernel '%s' (it needs %s)\n", who, uk->name,
            uk->needs);
    return 0;
}

/* A whole-string integer in [lo, hi] into *v; else a one-line message and 0. */
static int int_arg(const char *what, const char *arg, int lo, int hi, int *v)
{
    char *end;
    const long x = strtol(arg, &end, 10);
    if (end == arg || *end || x < lo || x > hi) {
        fprintf(stderr, "probe: %s: expects a whole number from %d to %d, got '%s'\n", what, lo,
                hi, arg);
        return 0;
    }
    *v = (int)x;
    return 1;
}

/* The options after a set's first '/' ("own/u32", "shared", "nolook"), each a whole word:
 * split 1 (own) or 2 (shared), units (uUNITS), nolook (only where nolook is not NULL);
 * -1 for anything else. */
static int set_options(const char *opts, int *split, int *units, int *nolook)
{
    while (opts && *opts) {
        const char *end = strchr(opts, '/');
        const int len = end ? (int)(end - opts) : (int)strlen(opts);
        int used = 0;
        if (len == 3 && !strncmp(opts, "own", 3))
            *split = 1;
        else if (len == 6 && !strncmp(opts, "shared", 6))
            *split = 2;
        else if (nolook && len == 6 && !strncmp(opts, "nolook", 6))
            *nolook = 1;
        else if (!(sscanf(opts, "u%d%n", units, &used) == 1 && used == len && *units >= 1))
            return -1;
        opts = end ? end + 1 : NULL;
    }
    return 0;
}

static float *filled(size_t n, unsigned seed)
{
    float *p = aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64);
    if (!p) {
        fprintf(stderr, "probe: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = (float)((i * 2654435761u + seed) % 1000) / 1000.0f - 0.5f;
    return p;
}

/* The core's clock, read where it runs: a chain of 2^16 dependent integer multiplies (imul, 3
 * cycles each on every x86 core since Sandy Bridge and Zen) timed in about a tenth of a
 * millisecond, right after the work whose clock it reads (the core keeps that work's frequency
 * level for milliseconds). Not a chain of adds of a constant: Golden Cove's renamer folds those,
 * and such a chain read 5-8 "GHz" on the 16-core host. 0 where there is no x86. */
static double clock_ghz(void)
{
#if defined(__x86_64__)
    const long n = 1L << 16;
    long x = 1, one = 1;
    const double t0 = now();
    for (long i = 0; i < n; i += 8)
        __asm__ volatile("imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\t"
                         "imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0"
                         : "+r"(x)
                         : "r"(one));
    return 3.0 * (double)n / (now() - t0) / 1e9;
#else
    return 0;
#endif
}

/* build/peak's widest vector FMA loop this CPU runs (registers only, no loads: AVX-512's, else
 * AVX2's, or NEON's), or NULL, whichever kernel is timed beside it. probe share's ceiling, and
 * probe kernel(s)' set "fma" (its rate and the clock under it beside the kernel's sets). */
static const fma_measure *fma_loop(void)
{
    static fma_measure fms[PEAK_MAX_FMA];
    const fma_measure *widest = NULL;
    for (int k = 0, nfm = fma_measures(fms); k < nfm; k++)
        if (fms[k].available && fms[k].lanes > 1 && (!widest || fms[k].lanes > widest->lanes))
            widest = &fms[k];
    return widest;
}

static int probe_kernel(int threads, int rounds, int nsets, char **sets)
{
    const char *name = nsets > 0 && !strchr(sets[0], ',') && strcmp(sets[0], "fma") != 0
                           ? (nsets--, *sets++)
                           : microkernel_best()->name;
    const microkernel *uk = kernel_named("kernel", name);
    if (!uk)
        return 2;
    if (nsets < 1 || nsets > MAX_SETS) {
        fprintf(stderr, "probe kernel: expects 1 to %d sets KC,NC,MC[xREPEAT] or fma, got %d\n",
                MAX_SETS, nsets);
        return 2;
    }
    int kc[MAX_SETS], nc[MAX_SETS], mc[MAX_SETS], rep[MAX_SETS];
    double flop[MAX_SETS]; /* a round's flops on one thread */
    size_t amax = 0, bmax = 0, cmax = 0;
    const fma_measure *fm = NULL;
    long fma_iters = 0;
    for (int s = 0; s < nsets; s++) {
        char x = 0;
        rep[s] = 1;
        if (strcmp(sets[s], "fma") == 0) { /* timed below, once every set was read */
            kc[s] = nc[s] = mc[s] = 0;
            flop[s] = 0;
            continue;
        }
        int used = 0, used_x = 0;
        const int got = sscanf(sets[s], "%d,%d,%d%n%c%d%n", &kc[s], &nc[s], &mc[s], &used, &x,
                               &rep[s], &used_x);
        const int whole = (got == 3 && !sets[s][used]) || (got == 5 && x == 'x' && !sets[s][used_x]);
        if (!whole || kc[s] < 1 || nc[s] < uk->nr || mc[s] < uk->mr || rep[s] < 1) {
            fprintf(stderr, "probe kernel: expects KC,NC,MC[xREPEAT], got '%s'\n", sets[s]);
            return 2;
        }
        nc[s] = nc[s] / uk->nr * uk->nr;
        mc[s] = mc[s] / uk->mr * uk->mr;
        flop[s] = 2.0 * rep[s] * mc[s] * nc[s] * kc[s];
        amax = (size_t)mc[s] * kc[s] > amax ? (size_t)mc[s] * kc[s] : amax;
        bmax = (size_t)nc[s] * kc[s] > bmax ? (size_t)nc[s] * kc[s] : bmax;
        cmax = (size_t)mc[s] * nc[s] > cmax ? (size_t)mc[s] * nc[s] : cmax;
    }
    /* every argument read: now what this CPU can run */
    if (!runs_here("kernel", uk))
        return 77;
    for (int s = 0; s < nsets; s++)
        if (kc[s] == 0) { /* the set "fma" */
            if (!fm && !(fm = fma_loop())) {
                fprintf(stderr, "probe kernel: the set 'fma' needs an FMA loop this CPU runs "
                                "(AVX2 and FMA, AVX-512 or NEON)\n");
                return 77;
            }
            if (!fma_iters)
                fma_iters = calibrate_fma(fm, 0.002);
            flop[s] = 2.0 * fm->lanes * fm->chains * (double)fma_iters;
        }
    /* t[s][r]: the round's time on the slowest thread (what a barrier waits for); own: each
     * thread's own time, for the mean of the threads' rates */
    static double t[MAX_SETS][MAX_REPS], own[MAX_SETS][MAX_REPS], ghz[MAX_SETS][MAX_REPS];
    memset(t, 0, sizeof t), memset(own, 0, sizeof own), memset(ghz, 0, sizeof ghz);
#pragma omp parallel num_threads(threads)
    {
        /* each thread its own blocks, first touched by itself: nothing is shared */
        float *a = filled(amax + 1, 1), *b = filled(bmax + 1, 2), *c = filled(cmax + 1, 3);
        for (int r = -1; r < rounds; r++) /* round -1 warms up */
            for (int s = 0; s < nsets; s++) {
#pragma omp barrier
                const double t0 = now();
                volatile float sink = 0;
                if (kc[s] == 0) /* the set "fma" */
                    sink = fm->kernel(fma_iters, 1.0f, 0.5f);
                for (int x = 0; x < rep[s]; x++)
                    for (int ir = 0; ir < mc[s]; ir += uk->mr)
                        for (int jr = 0; jr < nc[s]; jr += uk->nr)
                            uk->fn(kc[s], a + (size_t)ir * kc[s], b + (size_t)jr * kc[s], 1.0f,
                                   1.0f, c + (size_t)ir * nc[s] + jr, nc[s], uk->mr, uk->nr);
                const double dt = now() - t0, f = clock_ghz();
                (void)sink;
#pragma omp critical
                if (r >= 0) {
                    t[s][r] = dt > t[s][r] ? dt : t[s][r];
                    own[s][r] += flop[s] / dt / 1e9 / threads;
                    ghz[s][r] += f / threads;
                }
            }
        free(a), free(b), free(c);
    }
    for (int s = 0; s < nsets; s++) {
        if (kc[s])
            printf("kernel %s KC=%4d NC=%4d MC=%4d", uk->name, kc[s], nc[s], mc[s]);
        else
            printf("the FMA loop (%s, registers only)", fm->name);
        if (rep[s] > 1)
            printf(" x%d", rep[s]);
        if (threads > 1)
            printf(" threads=%d  a thread: median %6.1f  best %6.1f  (slowest thread's time)"
                   "  mean of the threads' own %6.1f GFLOP/s",
                   threads, flop[s] / median(t[s], rounds) / 1e9,
                   flop[s] / minimum(t[s], rounds) / 1e9, median(own[s], rounds));
        else
            printf("  median %6.1f  best %6.1f GFLOP/s", flop[s] / median(t[s], rounds) / 1e9,
                   flop[s] / minimum(t[s], rounds) / 1e9);
        if (median(ghz[s], rounds) > 0) /* an x86 core */
            printf("  clock %.2f GHz", median(ghz[s], rounds));
        printf("\n");
    }
    return 0;
}

static void do_nothing(int kc, const float *a, const float *b, float alpha, float beta, float *c,
                       int ldc, int m, int n)
{
    (void)kc, (void)a, (void)b, (void)alpha, (void)beta, (void)c, (void)ldc, (void)m, (void)n;
}

static int probe_gemm(int packing, int threads, int reps, int argc, char **argv)
{
    int n = 0, nsets = packing ? 1 : argc - 1;
    if (!int_arg("N", argv[0], 1, 1 << 20, &n))
        return 2;
    if (nsets < 1 || nsets > MAX_SETS - 1) {
        fprintf(stderr, "probe blocks: expects 1 to %d sets, got %d\n", MAX_SETS - 1, nsets);
        return 2;
    }
    omp_set_num_threads(threads);
    openblas_set_num_threads(threads);
    const microkernel *best = microkernel_best();
    /* the same packing as gemm_simd's when it packs A (A is always packed here) */
    const microkernel nothing = {"nothing", best->mr, best->nr, do_nothing, best->cpu_has,
                                 best->needs, NULL, best->pack_a};
    int blk[MAX_SETS][3] = {{0}}, split[MAX_SETS] = {0}, units[MAX_SETS] = {0},
        nolook[MAX_SETS] = {0};
    const microkernel *uks[MAX_SETS];
    for (int s = 0; !packing && s < nsets; s++) {
        const char *set = argv[1 + s], *colon = strchr(set, ':');
        uks[s] = best;
        if (colon) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(colon - set), set);
            if (!(uks[s] = kernel_named("blocks", name)))
                return 2;
            set = colon + 1;
        }
        const char *slash = strchr(set, '/');
        int used = 0;
        if (set_options(slash ? slash + 1 : NULL, &split[s], &units[s], &nolook[s]) < 0 ||
            sscanf(set, "%d,%d,%d%n", &blk[s][0], &blk[s][1], &blk[s][2], &used) != 3 ||
            (set[used] && set[used] != '/')) {
            fprintf(stderr, "probe blocks: expects [KERNEL:]MC,KC,NC[/own|/shared][/uUNITS][/nolook], got "
                    "'%s'\n", argv[1 + s]);
            return 2;
        }
    }
    for (int s = 0; !packing && s < nsets; s++) /* every argument read: what this CPU can run */
        if (!runs_here("blocks", uks[s]))
            return 77;
    const size_t nn = (size_t)n * n;
    float *A = filled(nn, 1), *B = filled(nn, 2), *C = filled(nn, 3);
    static double t[MAX_SETS][MAX_REPS];
    /* in turn: the block sizes (or: nothing, then gemm_simd), then OpenBLAS */
    const int runs = packing ? 3 : nsets + 1;
    for (int r = -1; r < reps; r++) /* repetition -1 warms up */
        for (int who = 0; who < runs; who++) {
            const double t0 = now();
            if (packing && who == 0)
                gemm_packed(&nothing, n, n, n, 1.0f, A, n, B, n, 0.0f, C, n);
            else if ((packing && who == 1) || (!packing && who < nsets)) {
                if (!packing) {
                    gemm_blocking_override(blk[who][0], blk[who][1], blk[who][2]);
                    gemm_split_override(split[who]);
                    gemm_units_override(units[who]);
                    gemm_lookahead_override(!nolook[who]);
                }
                gemm_packed(packing ? best : uks[who], n, n, n, 1.0f, A, n, B, n, 0.0f, C, n);
            } else
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n, B,
                            n, 0.0f, C, n);
            if (r >= 0)
                t[who][r] = now() - t0;
        }
    gemm_blocking_override(0, 0, 0);
    gemm_split_override(0);
    gemm_units_override(0);
    gemm_lookahead_override(1);
    const double flop = 2.0 * (double)n * n * n;
    if (packing) {
        const double tp = median(t[0], reps), tg = median(t[1], reps), tb = median(t[2], reps);
        printf("packing n=%d threads=%d: packing and loops %.3f ms, gemm_simd %.3f ms (%.1f "
               "GFLOP/s, best %.1f), OpenBLAS %.1f GFLOP/s: packing is %.1f%% of gemm_simd\n",
               n, threads, tp * 1e3, tg * 1e3, flop / tg / 1e9, flop / minimum(t[1], reps) / 1e9,
               flop / tb / 1e9, 100.0 * tp / tg);
    } else {
        printf("blocks n=%d threads=%d:\n", n, threads);
        for (int s = 0; s <= nsets; s++) {
            double ratio[MAX_REPS], vs_lib[MAX_REPS];
            for (int r = 0; r < reps; r++) {
                ratio[r] = t[0][r] / t[s][r];
                vs_lib[r] = t[nsets][r] / t[s][r];
            }
            printf("  %-28s median %6.1f  best %6.1f GFLOP/s  x%.3f of the first  x%.3f of "
                   "OpenBLAS\n", s < nsets ? argv[1 + s] : "OpenBLAS",
                   flop / median(t[s], reps) / 1e9, flop / minimum(t[s], reps) / 1e9,
                   median(ratio, reps), median(vs_lib, reps));
        }
    }
    free(A), free(B), free(C);
    return 0;
}

/* probe phases: gemm_packed's own hooks, each call timed on the thread that makes it. What a
 * thread does not spend packing or in tiles it spends waiting (at the barriers: for the
 * slowest thread of a slice) or in the loops themselves. */
#define MAX_THREADS 256
typedef struct phase_clock {
    double pack_a, pack_b, tile, flop;
    char pad[32]; /* one cache line a thread */
} phase_clock;
typedef struct timed_hooks {
    gemm_hooks inner;
    phase_clock *clk;
} timed_hooks;

static void timed_pack_a(const void *ctx, int i, int p, int rows, int kc, int rows_left,
                         float *dst, float *scratch)
{
    const timed_hooks *t = ctx;
    const double t0 = now();
    t->inner.pack_a(t->inner.ctx, i, p, rows, kc, rows_left, dst, scratch);
    t->clk[omp_get_thread_num()].pack_a += now() - t0;
}

static void timed_pack_b(const void *ctx, int p, int j, int kc, int cols, float *dst,
                         float *scratch)
{
    const timed_hooks *t = ctx;
    const double t0 = now();
    t->inner.pack_b(t->inner.ctx, p, j, kc, cols, dst, scratch);
    t->clk[omp_get_thread_num()].pack_b += now() - t0;
}

static void timed_tile(const void *ctx, int i, int j, int p, int kc, int m, int n,
                       const float *a, const float *b, float *scratch)
{
    const timed_hooks *t = ctx;
    const double t0 = now();
    t->inner.tile(t->inner.ctx, i, j, p, kc, m, n, a, b, scratch);
    phase_clock *c = &t->clk[omp_get_thread_num()];
    c->tile += now() - t0;
    c->flop += 2.0 * m * n * kc;
}

static int probe_phases(int threads, int reps, const char *arg)
{
    /* N, then options: "own", "shared", "uUNITS", or two of them ("8192/own/u32") */
    const char *slash = strchr(arg, '/'), *split = slash ? slash + 1 : NULL;
    int n = 0, used = 0, side = 0, units = 0;
    if (sscanf(arg, "%d%n", &n, &used) != 1 || n < 1 || (arg[used] && arg[used] != '/') ||
        set_options(split, &side, &units, NULL) < 0) {
        fprintf(stderr, "probe phases: expects N[/own|/shared][/uUNITS], got '%s'\n", arg);
        return 2;
    }
    omp_set_num_threads(threads);
    gemm_split_override(side);
    gemm_units_override(units);
    const microkernel *uk = microkernel_best();
    const size_t nn = (size_t)n * n;
    float *A = filled(nn, 1), *B = filled(nn, 2), *C = filled(nn, 3);
    const gemm_partition pt = gemm_partition_for(uk, n, n, n);
    const packed_call g = {uk, A, B, C, n, n, n, 1.0f, 0.0f};
    static phase_clock clk[MAX_THREADS];
    timed_hooks th = {gemm_packed_hooks(&pt, &g), clk};
    const gemm_hooks hooks = {th.inner.pack_a ? timed_pack_a : NULL, timed_pack_b, timed_tile, 0,
                              &th};
    double wall[MAX_REPS], share[4][MAX_REPS], spread[MAX_REPS], rate[MAX_REPS];
    printf("phases n=%d threads=%d (%s): MC=%d KC=%d NC=%d, %d blocks of B x %d parts, %s\n", n,
           pt.nthreads, split ? split : "auto", pt.mc, pt.kc, pt.nc, pt.nb, pt.rparts,
           pt.shared_b ? "the slice of B shared" : "each thread its own blocks of B");
    for (int r = -1; r < reps; r++) { /* repetition -1 warms up */
        memset(clk, 0, sizeof clk);
        const double t0 = now();
        gemm_loops(&pt, &hooks);
        const double w = now() - t0;
        if (r < 0)
            continue;
        double pa = 0, pb = 0, ti = 0, lo = 1e30, hi = 0, fl = 0;
        for (int t = 0; t < pt.nthreads; t++) {
            pa += clk[t].pack_a, pb += clk[t].pack_b, ti += clk[t].tile, fl += clk[t].flop;
            lo = clk[t].tile < lo ? clk[t].tile : lo;
            hi = clk[t].tile > hi ? clk[t].tile : hi;
        }
        const double all = w * pt.nthreads; /* thread-seconds */
        wall[r] = w;
        share[0][r] = pa / all, share[1][r] = pb / all, share[2][r] = ti / all;
        share[3][r] = 1 - (pa + pb + ti) / all;
        spread[r] = hi > 0 ? (hi - lo) / hi : 0;
        rate[r] = fl / ti / 1e9; /* one thread's GFLOP/s inside the kernel */
        printf("  rep %2d  %7.1f GFLOP/s  pack A %4.1f%%  pack B %4.1f%%  tiles %5.1f%%  "
               "waiting/loops %4.1f%%  kernel %6.1f GFLOP/s a thread  tile time spread %4.1f%%\n",
               r, 2.0 * n * n * (double)n / w / 1e9, 100 * share[0][r], 100 * share[1][r],
               100 * share[2][r], 100 * share[3][r], rate[r], 100 * spread[r]);
    }
    printf("phases n=%d threads=%d (%s): median %.1f GFLOP/s; of the threads' time: pack A "
           "%.1f%%, pack B %.1f%%, tiles %.1f%%, waiting and loops %.1f%%; inside the kernel "
           "%.1f GFLOP/s a thread; busiest/idlest thread's tile time %.1f%% apart\n",
           n, pt.nthreads, split ? split : "auto", 2.0 * n * n * (double)n / median(wall, reps) / 1e9,
           100 * median(share[0], reps), 100 * median(share[1], reps), 100 * median(share[2], reps),
           100 * median(share[3], reps), median(rate, reps), 100 * median(spread, reps));
    gemm_split_override(0);
    free(A), free(B), free(C);
    return 0;
}

static int probe_share(int threads, int reps, const char *arg)
{
    int n = 0;
    if (!int_arg("N", arg, 1, 1 << 20, &n))
        return 2;
    const fma_measure *fm = fma_loop();
    if (!fm) {
        fprintf(stderr, "probe share: this CPU has no FMA loop to compare with (AVX2 and FMA, AVX-512 or "
                        "NEON)\n");
        return 77;
    }
    omp_set_dynamic(0); /* as build/peak: all the threads asked for */
    omp_set_num_threads(threads);
    /* build/peak's settings: runs of 0.03 s, each thread the iterations that one thread
       does in that time, 2 flops per lane per FMA */
    const long iters = calibrate_fma(fm, 0.03);
    const double fma_flop = 2.0 * fm->lanes * fm->chains * (double)iters * threads;
    const double flop = 2.0 * (double)n * n * n;
    const size_t nn = (size_t)n * n;
    float *A = filled(nn, 1), *B = filled(nn, 2), *C = filled(nn, 3);
    double peak[MAX_REPS] = {0}, gemm[MAX_REPS] = {0}, ratio[MAX_REPS] = {0};
    printf("share n=%d threads=%d: %d pairs of (%s, fastest of 3 runs of %ld iterations"
           ") then one gemm_simd\n", n, threads, reps, fm->name, iters);
    for (int r = -1; r < reps; r++) { /* pair -1 warms up */
        double tp = 1e30;
        for (int i = 0; i < 3; i++) {
            const double t = time_fma(fm, iters, threads);
            tp = t < tp ? t : tp;
        }
        const double t0 = now();
        gemm_simd(n, n, n, 1.0f, A, n, B, n, 0.0f, C, n);
        const double tg = now() - t0;
        if (r < 0)
            continue;
        peak[r] = fma_flop / tp / 1e9;
        gemm[r] = flop / tg / 1e9;
        ratio[r] = gemm[r] / peak[r];
        printf("  pair %3d  peak %6.1f  gemm %6.1f GFLOP/s  ratio %.3f\n", r, peak[r], gemm[r],
               ratio[r]);
    }
    double best_peak = peak[0], best_gemm = gemm[0], best_ratio = ratio[0];
    for (int r = 1; r < reps; r++) {
        best_peak = peak[r] > best_peak ? peak[r] : best_peak;
        best_gemm = gemm[r] > best_gemm ? gemm[r] : best_gemm;
        best_ratio = ratio[r] > best_ratio ? ratio[r] : best_ratio;
    }
    const double med_peak = median(peak, reps), med_gemm = median(gemm, reps);
    printf("share n=%d threads=%d: paired ratio median %.1f%% best %.1f%%; peak median %.1f "
           "best %.1f, gemm median %.1f best %.1f GFLOP/s; gemm median / best peak %.1f%%, "
           "gemm best / best peak %.1f%%\n",
           n, threads, 100 * median(ratio, reps), 100 * best_ratio, med_peak, best_peak, med_gemm,
           best_gemm, 100 * med_gemm / best_peak, 100 * best_gemm / best_peak);
    free(A), free(B), free(C);
    return 0;
}

int main(int argc, char **argv)
{
    int threads = 1, reps = 0;
    if (argc >= 4 && strcmp(argv[1], "kernel") == 0)
        return int_arg("ROUNDS", argv[2], 1, MAX_REPS, &reps)
                   ? probe_kernel(1, reps, argc - 3, argv + 3)
                   : 2;
    const int counts = argc >= 5 && int_arg("THREADS", argv[2], 1, MAX_THREADS, &threads) &&
                       int_arg(strcmp(argv[1], "kernels") ? "REPS" : "ROUNDS", argv[3], 1,
                               MAX_REPS, &reps);
    if (argc >= 5 && !counts)
        return 2;
    if (argc >= 5 && strcmp(argv[1], "kernels") == 0)
        return probe_kernel(threads, reps, argc - 4, argv + 4);
    if (argc >= 5 && strcmp(argv[1], "packing") == 0) {
        int rc = 0;
        for (int i = 4; i < argc && rc == 0; i++)
            rc = probe_gemm(1, threads, reps, 1, argv + i);
        return rc;
    }
    if (argc >= 6 && strcmp(argv[1], "blocks") == 0)
        return probe_gemm(0, threads, reps, argc - 4, argv + 4);
    if (argc >= 5 && strcmp(argv[1], "phases") == 0) {
        int rc = 0;
        for (int i = 4; i < argc && rc == 0; i++)
            rc = probe_phases(threads, reps, argv[i]);
        return rc;
    }
    if (argc >= 5 && strcmp(argv[1], "share") == 0) {
        int rc = 0;
        for (int i = 4; i < argc && rc == 0; i++)
            rc = probe_share(threads, reps, argv[i]);
        return rc;
    }
    fprintf(stderr, "usage: probe kernel ROUNDS [KERNEL] KC,NC,MC[xREPEAT] ...\n"
                    "       probe kernels THREADS ROUNDS [KERNEL] KC,NC,MC[xREPEAT] ...\n"
                    "       probe packing THREADS REPS N ...\n"
                    "       probe blocks THREADS REPS N [KERNEL:]MC,KC,NC[/own|/shared][/uUNITS][/nolook] ...\n"
                    "       probe share THREADS REPS N ...\n"
                    "       probe phases THREADS REPS N[/own|/shared][/uUNITS] ...\n");
    return 2;
}

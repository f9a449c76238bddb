/* peak.c: --peak, the ceilings of one core's three multiply units, measured side by side:
 *   VFMADD231PS zmm   05's FMA units: 16 multiply-adds an instruction (32 FLOP)
 *   VDPBF16PS zmm     16 lanes x 2 BF16 products (64 FLOP)
 *   TDPBF16PS         16 x 16 x 32 BF16 products (16,384 FLOP), into four independent C tiles
 * Each is a loop of independent instructions on registers: nothing comes from memory. The three
 * alternate for five rounds on the calling thread (with --threads T, on T threads at once: a
 * unit's clock on every core busy); the median and the range of each are printed.
 * Each loop carries its instruction set on itself (the target attribute) and runs only where the
 * CPU has it (cpu.c); the rest of the file, which every CPU runs, is built for the CPU the program
 * is built for. (Built whole with the AVX-512 and AMX flags, AddressSanitizer's own code in
 * peak_main used AVX-512 instructions, and --peak died of SIGILL on an AVX2 CPU.)
 */
#include "probe.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "../amx.h"
#include "cpu_features.h"
#include "timer.h"

#ifdef AMX_X86
#include <immintrin.h>

#define TWELVE(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) op(10) op(11)
#define FMA(i) "vfmadd231ps %%zmm30, %%zmm31, %%zmm" #i "\n"
#define DP(i) "vdpbf16ps %%zmm30, %%zmm31, %%zmm" #i "\n"
#define ZMMS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", \
             "xmm10", "xmm11", "xmm30", "xmm31", "cc"

__attribute__((target("avx512f"))) static double gflops_fma(long n)
{
    const double t0 = timer_now(), flop = n * 12 * 32.0;
    __asm__ volatile("vpxord %%zmm30, %%zmm30, %%zmm30\n vpxord %%zmm31, %%zmm31, %%zmm31\n"
                     "1:\n" TWELVE(FMA) "dec %0\n jnz 1b\n"
                     : "+r"(n) : : ZMMS);
    return flop / (timer_now() - t0) / 1e9;
}

__attribute__((target("avx512f,avx512bf16"))) static double gflops_dp(long n)
{
    const double t0 = timer_now(), flop = n * 12 * 64.0;
    __asm__ volatile("vpxord %%zmm30, %%zmm30, %%zmm30\n vpxord %%zmm31, %%zmm31, %%zmm31\n"
                     "1:\n" TWELVE(DP) "dec %0\n jnz 1b\n"
                     : "+r"(n) : : ZMMS);
    return flop / (timer_now() - t0) / 1e9;
}

__attribute__((target("avx512f,amx-tile,amx-bf16"))) static double gflops_tiles(long n)
{
    static uint16_t ones[TILE_ELEMS] __attribute__((aligned(64)));
    for (int i = 0; i < TILE_ELEMS; i++)
        ones[i] = 0x3f80; /* 1.0 */
    amx_tile_config();
    _tile_loadd(4, ones, 64);
    _tile_loadd(5, ones, 64);
    _tile_loadd(6, ones, 64);
    _tile_loadd(7, ones, 64);
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    const double t0 = timer_now();
    for (long i = 0; i < n; i++) {
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
    }
    const double t = timer_now() - t0;
    amx_tile_release();
    return n * 4 * 16384.0 / t / 1e9;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cpu_has_avx512f(void) { return __builtin_cpu_supports("avx512f"); }

/* The units, as a stage's variant table: each loop is called through it, after its CPU test. */
static const struct unit {
    const char *name, *needs;
    int (*cpu_has)(void);
    double (*gflops)(long n);
    long n; /* iterations a round */
} units[3] = {
    {"VFMADD231PS zmm (FP32 FMA)", "AVX-512F", cpu_has_avx512f, gflops_fma, 20000000},
    {"VDPBF16PS zmm (BF16 pairs)", "AVX512-BF16", cpu_has_avx512_bf16, gflops_dp, 10000000},
    {"TDPBF16PS (AMX tiles)", "AMX-BF16", cpu_has_amx, gflops_tiles, 2000000},
};

/* unit u's loop on `threads` threads at once, from a common start: the sum of their rates (an
 * upper estimate where threads take turns on a core; build/peak hands out chunks instead) */
static double on_threads(int u, int threads)
{
    double sum = 0;
#pragma omp parallel num_threads(threads) reduction(+ : sum)
    {
#pragma omp barrier
        sum += units[u].gflops(units[u].n);
    }
    return sum;
}

int peak_main(const stage_info *st, bench_opts *o)
{
    enum { ROUNDS = 5 };
    const int threads = o->threads[o->nthreads - 1];
    (void)st;
    const int has[3] = {units[0].cpu_has(), units[1].cpu_has(), units[2].cpu_has()};
    double g[3][ROUNDS];
    if (threads > 1)
        printf("== 14_amx --peak: the multiply units of %d cores at once, %d alternating rounds "
               "==\n", threads, ROUNDS);
    else
        printf("== 14_amx --peak: one core's multiply units, %d alternating rounds ==\n", ROUNDS);
    cpu_print_hidden(stdout);
    for (int r = 0; r < ROUNDS; r++)
        for (int u = 0; u < 3; u++)
            g[u][r] = has[u] ? on_threads(u, threads) : 0;
    for (int u = 0; u < 3; u++) {
        if (!has[u]) {
            printf("%-28s not on this CPU: needs %s\n", units[u].name, units[u].needs);
            continue;
        }
        qsort(g[u], ROUNDS, sizeof(double), cmp);
        printf("%-28s %8.1f GFLOP/s  (rounds %.1f-%.1f)\n", units[u].name, g[u][ROUNDS / 2], g[u][0],
               g[u][ROUNDS - 1]);
    }
    return 0;
}
#else
int peak_main(const stage_info *st, bench_opts *o)
{
    (void)st, (void)o;
    printf("== 14_amx --peak: no AVX-512 or AMX on this architecture ==\n");
    return 0;
}
#endif

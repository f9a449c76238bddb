/* goto.c: the Goto/BLIS algorithm. Five loops cut A and B into blocks that fit the caches,
 * copy ("pack") each block into the order the micro-kernel reads it, and hand MR x NR tiles
 * of C to a register-blocked micro-kernel (kernel_generic.c, kernel_avx512.c,
 * kernel_avx2.c, kernel_neon.c).
 *
 *   for ic in M, step MC                      A block: MC x KC, packed, stays in L3 (shared)
 *     for pc in K, step KC
 *       pack A[ic:ic+MC, pc:pc+KC] into MR-row micro-panels          (all threads)
 *       for jc in N, step NC       (OpenMP)   B block: KC x NC, packed, stays in this core's L2
 *         pack B[pc:pc+KC, jc:jc+NC] into NR-column micro-panels     (each thread its own;
 *                                             or all threads the slice of B, shared: below)
 *         for ir in MC, step MR               A micro-panel MR x KC: stays in L1
 *           for jr in NC, step NR             B micro-panel KC x NR: streams from L2
 *             microkernel: C[ic+ir.., jc+jr..] (MR x NR) = Apanel.(alpha*Bpanel) + beta * C
 *
 * gemm_loops runs the loops and leaves three steps to hooks: pack A, pack B, and what becomes
 * of a tile. gemm_packed's hooks pack A and B as they are and put the tile into C; stage 06
 * supplies its own (packing that sums blocks, a tile added to several blocks of C).
 *
 * C is row-major and the kernels vectorise along a row of C (along N): B is the operand
 * loaded as vectors, A the one broadcast. The BLIS papers, written for column-major C,
 * describe the mirror image (their A is loaded as vectors and their B broadcast), so here
 * the roles of the M and N loops are swapped: the block of B sits in L2 and the block of
 * A in L3. The chapter (README.md) draws the picture.
 */
#include "simd.h"
#include "matrix.h"
#include "sysinfo.h"

#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int min_int(int a, int b) { return a < b ? a : b; }
static int max_int(int a, int b) { return a > b ? a : b; }
/* a >= 0, b > 0. Not (a + b - 1) / b: that overflows when a is within b of INT_MAX, and
 * K = 2^31 - 1 is a size the contract accepts. */
static int ceil_div(int a, int b) { return a / b + (a % b != 0); }
static int round_up(int a, int b) { return ceil_div(a, b) * b; } /* a <= INT_MAX - b */
static size_t round_up_size(size_t a, size_t b) { return (a + b - 1) / b * b; }

/* ------------------------------------------------------------ the micro-kernels */

static int cpu_any(void) { return 1; }
#ifdef SIMD_X86
/* __builtin_cpu_supports also checks that the OS saves the wide registers (XCR0). */
int cpu_has_avx512(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl");
}
int cpu_has_avx2(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
#define X86_ONLY(fn) fn
#else
int cpu_has_avx512(void) { return 0; }
int cpu_has_avx2(void) { return 0; }
#define X86_ONLY(fn) NULL
#endif
#ifdef SIMD_NEON
int cpu_has_neon(void) { return 1; } /* every AArch64 CPU has it (kernel_neon.c) */
#define NEON_ONLY(fn) fn
#else
int cpu_has_neon(void) { return 0; }
#define NEON_ONLY(fn) NULL
#endif

const microkernel uk_avx512_6x64 = {"avx512_6x64", 6, 64, X86_ONLY(microkernel_avx512_6x64),
                                     cpu_has_avx512, NEEDS_AVX512,
                                     X86_ONLY(microkernel_avx512_6x64_a_in_place),
                                     X86_ONLY(pack_a_avx512_6)};
const microkernel uk_avx512_14x32 = {"avx512_14x32", 14, 32, X86_ONLY(microkernel_avx512_14x32),
                                     cpu_has_avx512, NEEDS_AVX512};
const microkernel uk_avx2_6x16 = {"avx2_6x16", 6, 16, X86_ONLY(microkernel_avx2_6x16),
                                  cpu_has_avx2, NEEDS_AVX2, NULL, X86_ONLY(pack_a_avx2_6)};
const microkernel uk_neon_8x12 = {"neon_8x12", 8, 12, NEON_ONLY(microkernel_neon_8x12),
                                  cpu_has_neon, NEEDS_NEON};
const microkernel uk_generic_6x16 = {"generic", 6, 16, microkernel_generic_6x16, cpu_any,
                                     "nothing"};
const microkernel uk_omp_simd_6x64 = {"omp_simd", 6, 64, microkernel_omp_simd_6x64, cpu_any,
                                       "nothing"};

const microkernel *const simd_kernels[] = {&uk_avx512_6x64, &uk_avx2_6x16, &uk_neon_8x12,
                                           &uk_generic_6x16};
const int simd_nkernels = sizeof simd_kernels / sizeof simd_kernels[0];

const microkernel *microkernel_best(void)
{
    /* Asked on every call: __builtin_cpu_supports reads flags filled in at start-up. */
    for (int i = 0; i < simd_nkernels; i++)
        if (simd_kernels[i]->cpu_has())
            return simd_kernels[i];
    return &uk_generic_6x16;
}

/* ------------------------------------------------------------ the block sizes */

static long cache_l1d, cache_l2, cache_l3;

static void read_cache_sizes(void)
{
    long a, b, c; /* 0 where the system does not say: then a common x86 core's */
    sysinfo_caches(&a, &b, &c);
    cache_l1d = a > 0 ? a : 32L << 10;
    cache_l2 = b > 0 ? b : 256L << 10;
    cache_l3 = c > 0 ? c : 4L << 20;
}

void simd_cache_sizes(long *l1d, long *l2, long *l3)
{
    /* Once per process: sysfs is a dozen file reads, about 0.25 ms, and every call of
     * gemm_packed asks (a 128^3 product takes less). */
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, read_cache_sizes);
    *l1d = cache_l1d;
    *l2 = cache_l2;
    *l3 = cache_l3;
}

static int override_mc, override_kc, override_nc;

void gemm_blocking_override(int mc, int kc, int nc)
{
    override_mc = mc;
    override_kc = kc;
    override_nc = nc;
}

gemm_blocking gemm_blocking_for(const microkernel *uk)
{
    long l1d, l2, l3;
    simd_cache_sizes(&l1d, &l2, &l3);
    gemm_blocking bs;
    /* KC (L1): the kernel reads one MR x KC micro-panel of A once per NR columns of the
     * B block; it should stay in L1 between those calls. A bigger KC also loads and stores the
     * tile of C once per longer run of FMAs. Between two calls on the same A micro-panel, a call
     * also reads one KC x NR micro-panel of B. A narrow tile (NR floats in one cache line, as
     * AVX2's 16: a line of B a step) can keep both: the largest KC at which the two fit three
     * quarters of L1d, the rest for C's tile and the stack (KC 256 on a 32 KiB or a 48 KiB L1d:
     * on a 48 KiB one 3-6% faster than 1024 at 2048 and 4096; on a 32 KiB Zen 4 1% faster than
     * 128 on one thread, 2-4% on two). A wide tile (AVX-512's 64 columns, 4 lines a step) would
     * need KC <= 64 for that: its B streams from L2, and A gets half of L1. Powers of two,
     * 64..1024. */
    const int narrow = 4 * uk->nr <= 64;
    bs.kc = 64;
    while (bs.kc < 1024 && (narrow ? 4L * (uk->mr + uk->nr) * (2 * bs.kc) <= l1d / 4 * 3
                                   : 4L * uk->mr * (2 * bs.kc) <= l1d / 2))
        bs.kc *= 2;
    if (override_kc)
        bs.kc = override_kc;
    /* NC (L2): the KC x NC block of B is read once per MR rows of A: keep it in the
     * core's own L2, again at half the capacity (A panels and C pass through too). */
    bs.nc = (int)(l2 / 2 / (4L * bs.kc)) / uk->nr * uk->nr;
    bs.nc = max_int(bs.nc, uk->nr);
    if (override_nc)
        bs.nc = round_up(override_nc, uk->nr);
    /* MC (L3): the MC x KC block of A is read once per block of B, by every thread:
     * keep it in the shared L3, half of it, at most about 8192 rows (rounded up to MR: 8190
     * cut M = 8192 into two blocks, and the slice of B was packed twice; one block of 8196
     * ran 1.7% faster on 16 threads, 7.4% with 16 units a thread, NOTES.md). */
    bs.mc = round_up(min_int((int)(l3 / 2 / (4L * bs.kc)), 8192), uk->mr);
    bs.mc = max_int(bs.mc, uk->mr);
    if (override_mc)
        bs.mc = round_up(override_mc, uk->mr);
    return bs;
}

/* ------------------------------------------------------------ packing */

/* rows x kc of A (rows <= MR) -> an MR x kc micro-panel, column by column:
 * dst[p*MR + i] = A(i, p), and zeros in the rows past `rows`. Row by row: each row of A
 * is read contiguously, and the writes, MR floats apart, all land in the panel (in L1).
 * A row segment is short (kc floats), too short for the hardware prefetcher to get
 * going, so each row first asks for the row MR below it: the next panel's. */
static void pack_a_panel(int MR, int rows, int kc, const float *A, int lda, int prefetch_rows,
                         float *dst)
{
    for (int i = 0; i < rows; i++) {
        const float *a = &A[IDX(i, 0, lda)];
        if (i + MR < prefetch_rows)
            for (int p = 0; p < kc; p += 16)
                __builtin_prefetch(&a[IDX(MR, p, lda)]);
        for (int p = 0; p < kc; p++)
            dst[(size_t)p * MR + i] = a[p];
    }
    for (int i = rows; i < MR; i++)
        for (int p = 0; p < kc; p++)
            dst[(size_t)p * MR + i] = 0.0f;
}

/* kc x cols of alpha*B -> micro-panels of NR columns, each kc rows of NR floats:
 * micro-panel jr/NR starts at dst + jr*kc; zeros in the columns past `cols`.
 * Row by row of B: reads walk along a row (the prefetcher follows them); walking down
 * a micro-panel's columns instead would jump ldb floats, a new page, at every step.
 * Each row asks for the one 4 rows below it (the rows are short streams). alpha goes in
 * here, as BLIS does it: each term of a dot product gets its alpha (gemm.h) for one
 * multiply per packed element, and the micro-kernels are called with alpha = 1. */
static void pack_b_block(int NR, int kc, int cols, const float *B, int ldb, float alpha,
                         float *dst)
{
    for (int p = 0; p < kc; p++) {
        const float *b = &B[IDX(p, 0, ldb)];
        if (p + 4 < kc)
            for (int j = 0; j < cols; j += 16)
                __builtin_prefetch(&b[IDX(4, j, ldb)]);
        for (int jr = 0; jr < cols; jr += NR) {
            float *d = dst + (size_t)jr * kc + (size_t)p * NR;
            const int w = min_int(NR, cols - jr);
            for (int j = 0; j < w; j++) /* a loop, not memcpy: NR floats are too few for a call */
                d[j] = alpha * b[jr + j];
            for (int j = w; j < NR; j++)
                d[j] = 0.0f;
        }
    }
}

/* The packing buffers, kept by the calling thread from one call to the next: a large
 * malloc per call would pay page faults on fresh memory every time. */
static float *workspace(size_t floats)
{
    static _Thread_local float *buf;
    static _Thread_local size_t cap;
    return matrix_scratch(&buf, &cap, floats, "gemm_packed: packing buffers");
}

/* ------------------------------------------------------------ the five loops */

#define SMALL_FOR_THREADS (128.0 * 128 * 128) /* M*N*K below this: one thread */
#define A_PACK_MIN_BLOCKS 8 /* pack A when it meets at least this many blocks of B */
#define UNITS_PER_THREAD 16 /* units of work a thread takes in each slice of K, at least */
#define SHARED_UNITS_PER_THREAD 32 /* the same where the slice of B is shared: units are cheap */
#define MIN_PART_PANELS 16  /* a part of the A block: at least this many micro-panels */

static int split_override; /* gemm_split_override: 0 as the rule says, 1 own, 2 shared */

void gemm_split_override(int split) { split_override = split; }

static int units_override; /* gemm_units_override: 0 keeps UNITS_PER_THREAD (SHARED_...) */

void gemm_units_override(int units) { units_override = units; }

static int lookahead = 1; /* gemm_lookahead_override */

void gemm_lookahead_override(int on) { lookahead = on; }

gemm_partition gemm_partition_for(const microkernel *uk, int M, int N, int K)
{
    const int MR = uk->mr, NR = uk->nr;
    const gemm_blocking bs = gemm_blocking_for(uk);
    gemm_partition pt = {.M = M, .N = N, .K = K, .mr = MR, .nr = NR};
    /* Threads only where there is work for them: starting a parallel region costs
     * microseconds, what a 64^3 product takes on one core. */
    const int T = pt.nthreads = omp_in_parallel() || (double)M * N * K < SMALL_FOR_THREADS
                                    ? 1 : omp_get_max_threads();

    /* K in equal slices of at most KC (K = KC+1 must not leave a slice of 1), M in equal
     * blocks of at most MC (8192 rows: two of 4096, not 8190 and 2). */
    pt.kc = ceil_div(K, ceil_div(K, bs.kc));
    pt.mc = round_up(ceil_div(M, ceil_div(M, bs.mc)), MR); /* <= bs.mc, a multiple of MR */
    const int panels = ceil_div(pt.mc, MR);

    /* N in nb blocks of nc columns (a multiple of NR, at most about NC). The threads take
     * units of work one at a time until a slice of K is done, and then wait for the slowest:
     * with u units each, about half a unit each on average, 1/(2u) of the slice. So at least
     * UNITS_PER_THREAD units each (16 threads at 4096 on the host: one block each ran at 47-54%
     * of 16x one thread, four at 64%; at 8192, eight units left the threads waiting 8% of their
     * time, and sixteen ran 1-9% faster than eight, NOTES.md). Two ways to get them:
     *   own     each thread packs its own blocks of B (in its L2): a unit is a block, so the
     *           blocks are narrowed (never under NR) until there are enough of them;
     *   shared  the threads pack the slice of B (KC x N) together, before the barrier that the
     *           A block needs anyway, and share it: a unit is a block times a part of the A
     *           block's rows. B is packed once, and the units are as small as wanted; but a
     *           unit reads its block from L3, where another core packed it.
     * Shared where the blocks at the L2's width are too few and the slice fits a quarter of
     * L3 (or C is too narrow for a block a thread); own otherwise, and on one thread.
     * Shared cuts SHARED_UNITS_PER_THREAD units a thread: a smaller part of the A block costs
     * nothing but one more pass of the block of B from L3, and on 16 threads at 8192 the wait
     * fell from 3.7% to 1.9% of the threads' time, 5-10% faster in one process (NOTES.md);
     * own keeps 16, since its narrower blocks mean more passes over the A block.
     * --blocks NC is used as set either way; --units sets both counts. */
    long l1d, l2, l3;
    simd_cache_sizes(&l1d, &l2, &l3);
    const int strips = ceil_div(N, NR),
              want = (units_override > 0 ? units_override : UNITS_PER_THREAD) * T;
    int nb = ceil_div(N, bs.nc);
    const int fits = 4.0 * pt.kc * strips * NR <= l3 / 4.0;
    pt.shared_b = T > 1 && ((fits && (split_override == 2 || (split_override == 0 && nb < want))) ||
                            nb < T); /* a narrow C: rows are the only work to share */
    if (!pt.shared_b && T > 1 && !override_nc) /* own: narrower blocks, rounded to T */
        nb = min_int(round_up(max_int(nb, split_override == 1 ? 4 * T : want), T), strips);
    pt.nc = NR * ceil_div(strips, min_int(nb, strips));
    pt.nb = ceil_div(N, pt.nc);
    const int want_parts = (units_override > 0 ? units_override : SHARED_UNITS_PER_THREAD) * T;
    pt.rparts = pt.shared_b
                    ? max_int(1, min_int(ceil_div(want_parts, pt.nb), panels / MIN_PART_PANELS))
                    : 1;
    return pt;
}

/* One phase of the loops: a block of A's rows (ic, mc) times a slice of K (pc, kc); phase s
 * is block s / (slices of K), slice s % (slices of K). */
typedef struct phase {
    int ic, mc, pc, kc;
} phase;

static phase phase_at(const gemm_partition *pt, long long s)
{
    const long long nk = ceil_div(pt->K, pt->kc);
    phase f = {(int)(s / nk) * pt->mc, 0, (int)(s % nk) * pt->kc, 0};
    f.mc = min_int(pt->mc, pt->M - f.ic);
    f.kc = min_int(pt->kc, pt->K - f.pc);
    return f;
}

/* Phase f's shared packing: the panels of its A block into apack (unless A is not packed) and,
 * shared, the micro-panels of its slice of B into bslice, in chunks of one panel taken by
 * whichever thread is free. Called by every thread of the team (an orphaned omp for); returns
 * after the barrier that ends it. */
static void pack_phase(const gemm_partition *pt, const gemm_hooks *h, phase f, float *apack,
                       float *bslice, float *scratch)
{
    const int MR = pt->mr, NR = pt->nr;
    const int a_chunks = h->pack_a ? ceil_div(f.mc, MR) : 0;
    const int chunks = a_chunks + (pt->shared_b ? ceil_div(pt->N, NR) : 0);
#pragma omp for schedule(dynamic, 1)
    for (int q = 0; q < chunks; q++) {
        if (q < a_chunks) {
            const int rows_left = f.mc - q * MR; /* in this block, from this panel on */
            h->pack_a(h->ctx, f.ic + q * MR, f.pc, min_int(MR, rows_left), f.kc, rows_left,
                      apack + (size_t)q * MR * f.kc, scratch);
        } else {
            const int j = (q - a_chunks) * NR;
            h->pack_b(h->ctx, f.pc, j, f.kc, min_int(NR, pt->N - j),
                      bslice + (size_t)j * f.kc, scratch);
        }
    }
}

void gemm_loops(const gemm_partition *pt, const gemm_hooks *h)
{
    const int N = pt->N, MR = pt->mr, NR = pt->nr;
    const int parts = pt->rparts, units = pt->nb * parts, strips = ceil_div(N, NR);
    const long long phases = (long long)ceil_div(pt->M, pt->mc) * ceil_div(pt->K, pt->kc);

    /* Two A blocks (unless A is not packed) and, shared, two slices of B (the micro-panel for
     * column j at j*kc): phase s reads set s % 2 while phase s + 1 is packed into the other.
     * One set on one thread: it packs the next phase only after its last unit.
     * Or per thread its own B block. Then per thread the hooks' scratch. Each 64-byte
     * aligned. */
    const size_t a_floats = h->pack_a ? round_up_size((size_t)pt->mc * pt->kc, 16) : 0;
    const size_t s_floats = pt->shared_b ? round_up_size((size_t)strips * NR * pt->kc, 16) : 0;
    const size_t set = a_floats + s_floats; /* one A block and one slice of B */
    const size_t b_floats = pt->shared_b ? 0 : round_up_size((size_t)pt->kc * pt->nc, 16);
    const size_t per_thread = b_floats + round_up_size(h->scratch_floats, 16);
    const int sets = pt->nthreads > 1 ? 2 : 1;
    float *const work = workspace(sets * set + (size_t)pt->nthreads * per_thread);

#pragma omp parallel num_threads(pt->nthreads)
    {
        float *const bpack = work + sets * set + (size_t)omp_get_thread_num() * per_thread;
        float *const scratch = bpack + b_floats;

        /* Phase 0's blocks first. Then in each phase the units of work, taken one at a time,
         * and, as each thread runs out of them, the next phase's packing into the other set
         * (lookahead): a thread that would have waited at the barrier for the slowest unit
         * packs instead. One barrier a phase, at the end of the packing: every unit of this
         * phase is done, and the next phase's blocks are whole. */
        pack_phase(pt, h, phase_at(pt, 0), work, work + a_floats, scratch);
        for (long long s = 0; s < phases; s++) {
            const phase f = phase_at(pt, s);
            const int ic = f.ic, mc = f.mc, pc = f.pc, kc = f.kc, panels = ceil_div(mc, MR);
            const float *const apack = work + (size_t)(s % sets) * set, *const bslice = apack + a_floats;

#pragma omp for schedule(dynamic, 1) nowait
            for (int u = 0; u < units; u++) {
                const int jc = (u / parts) * pt->nc, part = u % parts;
                const int cols = min_int(pt->nc, N - jc);
                const int q0 = panels * part / parts, q1 = panels * (part + 1) / parts;
                const float *b = bslice + (size_t)jc * kc;
                if (q0 == q1)
                    continue;
                if (!pt->shared_b) {
                    h->pack_b(h->ctx, pc, jc, kc, cols, bpack, scratch);
                    b = bpack;
                }
                for (int ir = q0 * MR; ir < q1 * MR; ir += MR)
                    for (int jr = 0; jr < cols; jr += NR)
                        h->tile(h->ctx, ic + ir, jc + jr, pc, kc, min_int(MR, mc - ir),
                                min_int(NR, cols - jr),
                                h->pack_a ? apack + (size_t)ir * kc : NULL,
                                b + (size_t)jr * kc, scratch);
            }
            float *const next = work + (size_t)((s + 1) % sets) * set;
            if (!lookahead) {
#pragma omp barrier /* (--no lookahead, for comparing: pack only when every unit is done) */
            }
            if (s + 1 < phases)
                pack_phase(pt, h, phase_at(pt, s + 1), next, next + a_floats, scratch);
            else {
#pragma omp barrier /* (the last phase: its units done before anyone leaves) */
            }
        }
    }
}

/* ------------------------------------------------------------ gemm_packed: the loops' hooks */

static void pack_a_of(const void *ctx, int i, int p, int rows, int kc, int rows_left, float *dst,
                      float *scratch)
{
    const packed_call *g = ctx;
    const float *a = &g->A[IDX(i, p, g->lda)];
    (void)scratch;
    if (g->uk->pack_a && rows_left >= g->uk->mr) /* a full panel: in registers */
        g->uk->pack_a(kc, a, g->lda, rows_left >= 2 * g->uk->mr, dst);
    else
        pack_a_panel(g->uk->mr, rows, kc, a, g->lda, rows_left, dst);
}

static void pack_b_of(const void *ctx, int p, int j, int kc, int cols, float *dst, float *scratch)
{
    const packed_call *g = ctx;
    (void)scratch;
    pack_b_block(g->uk->nr, kc, cols, &g->B[IDX(p, j, g->ldb)], g->ldb, g->alpha, dst);
}

static void tile_into_c(const void *ctx, int i, int j, int p, int kc, int m, int n, const float *a,
                        const float *b, float *scratch)
{
    const packed_call *g = ctx;
    /* The first slice of K applies beta; the later ones add to it. */
    const float beta = p == 0 ? g->beta : 1.0f;
    float *c = &g->C[IDX(i, j, g->ldc)];
    (void)scratch;
    if (a)
        g->uk->fn(kc, a, b, 1.0f, beta, c, g->ldc, m, n);
    else /* A read in place */
        g->uk->fn_a_in_place(kc, &g->A[IDX(i, p, g->lda)], g->lda, b, 1.0f, beta, c, g->ldc, m, n);
}

gemm_hooks gemm_packed_hooks(const gemm_partition *pt, const packed_call *g)
{
    /* Pack A only where the packed block is reused by many blocks of B. A is row-major, so
     * row i of a tile, read along p, is already in the order the kernel broadcasts it; what
     * packing buys is one contiguous panel instead of MR rows lda apart, and that pays for
     * its extra pass over A only when the panel is read many times (measured on xeon-2c, one
     * thread: in place +9% at 512 and +2-4% at 1024 (nb = 2, 4), even at 2048 (nb = 8),
     * -2% at 4096 (nb = 16); the chapter has the table). */
    const int a_in_place = g->uk->fn_a_in_place && pt->nb < A_PACK_MIN_BLOCKS;
    return (gemm_hooks){a_in_place ? NULL : pack_a_of, pack_b_of, tile_into_c, 0, g};
}

void gemm_packed(const microkernel *uk, int M, int N, int K, float alpha, const float *A,
                 int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const gemm_partition pt = gemm_partition_for(uk, M, N, K);
    const packed_call g = {uk, A, B, C, lda, ldb, ldc, alpha, beta};
    const gemm_hooks hooks = gemm_packed_hooks(&pt, &g);
    gemm_loops(&pt, &hooks);
}

/* ------------------------------------------------------------ the variants */

void gemm_simd(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
               float beta, float *C, int ldc)
{
    gemm_packed(microkernel_best(), M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

#define FORCED(fn, uk)                                                                        \
    void fn(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb, \
            float beta, float *C, int ldc)                                                    \
    {                                                                                         \
        gemm_packed(&uk, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);                       \
    }
FORCED(gemm_avx512_6x64, uk_avx512_6x64)
FORCED(gemm_avx512_14x32, uk_avx512_14x32)
FORCED(gemm_avx2_6x16, uk_avx2_6x16)
FORCED(gemm_neon_8x12, uk_neon_8x12)
FORCED(gemm_generic, uk_generic_6x16)
FORCED(gemm_omp_simd, uk_omp_simd_6x64)

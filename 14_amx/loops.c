/* loops.c: 05's five loops around a BF16 micro-kernel.
 *
 *   for ic in M, step MC                      A block: MC x KC, packed once, shared by the threads
 *     for pc in K, step KC
 *       pack A[ic:ic+MC, pc:pc+KC] into MR-row panels                  (all threads)
 *       for jc in N, step NC       (OpenMP)   B block: KC x NC, this thread's, stays in its L2
 *         pack B[pc:pc+KC, jc:jc+NC] into NR-column panels             (pair layout)
 *         for ir in MC, step MR               A panel: MR x KC, stays in L1
 *           for jr in NC, step NR             B panel: KC x NR, streams from L2
 *             micro-kernel: C[ic+ir.., jc+jr..] (MR x NR) += Apanel . Bpanel
 *
 * What changes from 05 (goto.c): the panels hold BF16, in the layouts of pack.c; K is padded
 * with zeros to the kernel's step (2 for VDPBF16PS, 32 for a tile); alpha scales the FP32 sum
 * in the kernel's store (a BF16 value times alpha would be rounded again); and a thread that
 * runs a tile kernel loads the tile configuration before its first tile and releases the
 * tiles after its last. The partition over threads is 05's (goto.c): blocks of B at the L2's width
 * times parts of the A block's rows, the slice of B packed once by all threads and shared, when
 * there would be fewer than sixteen blocks a thread; else each thread its own blocks.
 */
#include "amx.h"

#include <omp.h>
#include <stdlib.h>

#include "../05_simd/simd.h"
#include "matrix.h"

static int min_int(int a, int b) { return a < b ? a : b; }
static int max_int(int a, int b) { return a > b ? a : b; }
static int ceil_div(int a, int b) { return (a + b - 1) / b; }
static int round_up(int a, int b) { return ceil_div(a, b) * b; }

/* ---- the kernels -------------------------------------------------------------------------------- */

#ifdef AMX_X86
#define X86_ONLY(f) f
#else
#define X86_ONLY(f) NULL
#endif

const bf16_kernel kernel_avx512_bf16 = {"avx512_bf16", 6, 64, 2, X86_ONLY(microkernel_avx512_bf16_6x64),
                                        {pack_a_rows, pack_b_pairs, 2, 1, 0, 2},
                                        cpu_has_avx512_bf16, "AVX512-BF16", 0};
const bf16_kernel kernel_amx_naive = {"amx_naive", 16, 16, TILE_K, X86_ONLY(microkernel_amx_16x16),
                                      {X86_ONLY(pack_a_tiles), X86_ONLY(pack_b_tiles), TILE_K, 1, 0, 2}, cpu_has_amx,
                                      "AMX-BF16", 1};
const bf16_kernel kernel_amx_blocked = {"amx_blocked", 32, 32, TILE_K, X86_ONLY(microkernel_amx_32x32),
                                        {X86_ONLY(pack_a_tiles), X86_ONLY(pack_b_tiles), TILE_K, 1, 0, 2}, cpu_has_amx,
                                        "AMX-BF16", 1};

const bf16_kernel kernel_amx_pipelined = {"amx_pipelined", 16, 48, TILE_K,
                                          X86_ONLY(microkernel_amx_16x48),
                                          {X86_ONLY(pack_a_tiles), X86_ONLY(pack_b_tiles), TILE_K, 1, 0, 2},
                                          cpu_has_amx, "AMX-BF16", 1};

/* amx_fp32's kernel: its panels are fp32.c's (three pieces a value), it has no BF16 packing */
const bf16_kernel kernel_amx_pieces = {"amx_fp32", 32, 32, 3 * TILE_K,
                                       X86_ONLY(microkernel_amx_fp32_32x32), {0}, cpu_has_amx,
                                       "AMX-BF16", 1};

/* ---- the block sizes ---------------------------------------------------------------------------- */

static int override_mc, override_kc, override_nc;

void bf16_blocking_override(int mc, int kc, int nc)
{
    override_mc = mc;
    override_kc = kc;
    override_nc = nc;
}

/* The block sizes differ from 05's, for the tile unit's speed. At ~1,000 FLOP a cycle, C passing
 * through memory once per slice of K costs more than anything a cache can hold: each slice reads
 * and writes the whole of C (8 bytes an element, for 2 KC FLOP). So KC is as long as L2 allows,
 * 2048 BF16 values of a packed row (a 32-row panel of A is then 128 KiB: it streams from L2, as
 * the B panels do), and NC what is left of half of L2 for the block of B (256 columns with a
 * 2 MiB L2). Measured (NOTES.md, round 3): KC 384 (05's rule, A's panel in L1) 1.03-1.05x MKL
 * at 2048; KC 2048, NC 256 1.12-1.18x. MC (L3) as 05's. The vector kernel keeps 05's rule. */
void bf16_blocking(const bf16_kernel *k, int *mc, int *kc, int *nc)
{
    long l1, l2, l3;
    simd_cache_sizes(&l1, &l2, &l3);
    int KC = k->tiles ? 2048 : (int)(l1 / 2 / (2L * k->mr)) / TILE_K * TILE_K;
    KC = min_int(max_int(KC, TILE_K), 2048);
    if (override_kc)
        KC = round_up(max_int(override_kc, TILE_K), TILE_K);
    int NC = max_int((int)(l2 / 2 / (2L * KC)) / k->nr * k->nr, k->nr);
    if (override_nc)
        NC = round_up(override_nc, k->nr);
    int MC = max_int(min_int((int)(l3 / 2 / (2L * KC)), 8192) / k->mr * k->mr, k->mr);
    if (override_mc)
        MC = round_up(override_mc, k->mr);
    *mc = MC, *kc = KC, *nc = NC;
}

/* ---- the loops -------------------------------------------------------------------------------- */

#define SMALL_FOR_THREADS (128.0 * 128 * 128) /* M*N*K below this: one thread (as 05) */
#define UNITS_PER_THREAD 16 /* units of work a thread takes in each slice of K, at least (05's
                             * count for its own split; on 16 threads 16 ran 1.14-1.40x faster
                             * than 8, and 32 no faster, NOTES.md; 05's shared slice cuts 32) */
#define MIN_PART_PANELS 4  /* a part of the A block: at least this many 32-row panels */

static int split_override; /* bf16_split_override: 0 as the rule says, 1 own, 2 shared */

void bf16_split_override(int split) { split_override = split; }

static int units_override; /* bf16_units_override: 0 keeps UNITS_PER_THREAD */

void bf16_units_override(int units) { units_override = units; }

/* The packing buffers, kept by each thread from one call to the next (as 05's). */
static uint16_t *workspace(size_t bf16s)
{
    static _Thread_local float *buf;
    static _Thread_local size_t cap;
    return (uint16_t *)matrix_scratch(&buf, &cap, (bf16s + 1) / 2, "gemm_bf16_packed: packing buffers");
}

void gemm_tiles_packed(const bf16_kernel *k, const panel_packer *pk, int M, int N, int K,
                       float alpha, const void *Av, int lda, const void *Bv, int ldb, float beta,
                       float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const char *A = Av, *B = Bv;
    const size_t es = (size_t)pk->elem;
    const int MR = k->mr, NR = k->nr;
    int MC, KC, NC;
    bf16_blocking(k, &MC, &KC, &NC);

    const int nthreads = omp_in_parallel() || (double)M * N * K < SMALL_FOR_THREADS
                             ? 1 : omp_get_max_threads();
    /* K in equal slices, each a whole number of the packer's groups, whose packed rows hold at
     * most KC BF16 values (KC / kmult values of K) */
    const int kc_cap = max_int(KC / pk->kmult / pk->kgroup, 1) * pk->kgroup;
    const int kc_max = round_up(ceil_div(K, ceil_div(K, kc_cap)), pk->kgroup);
    const int kp_max = round_up(kc_max, pk->kgroup) * pk->kmult; /* a packed row, in BF16 */
    const int mc_max = min_int(MC, round_up(M, MR));
    const int panels_max = ceil_div(mc_max, MR);
    /* N in nb blocks of nc columns, and the threads' units of work: 05's two ways (goto.c).
     *   own     each thread packs its own blocks of B, narrowed until there are four a thread:
     *           the rule before, kept for comparing (--split own). On 16 threads at 4096 it
     *           made the blocks 64 columns wide, and each 128 KiB panel of A, fetched from L3,
     *           served two calls of the kernel before the next one: the tile loads waited on
     *           L3, at 300 GFLOP/s a core where one thread alone ran 500-880.
     *   shared  the blocks keep their L2 width (NC); the threads pack the slice of B (KC x N,
     *           in L3) together, before the barrier that the A block needs anyway, and a unit
     *           is a block times a part of the A block's rows: each panel of A then serves
     *           NC / NR calls (8 at NC 256) as on one thread, and there are as many units as
     *           wanted.
     * Shared where the blocks at the L2's width are fewer than UNITS_PER_THREAD a thread and
     * the slice fits a quarter of L3; own otherwise, and on one thread. */
    long l1, l2, l3;
    simd_cache_sizes(&l1, &l2, &l3);
    const int strips = ceil_div(N, NR),
              want = (units_override > 0 ? units_override : UNITS_PER_THREAD) * nthreads;
    const int fits = 2.0 * kp_max * strips * NR <= l3 / 4.0;
    const int l2_blocks = ceil_div(N, NC);
    const int shared = nthreads > 1 && split_override != 1 &&
                       (split_override == 2 || (fits && l2_blocks < want));
    int nb = l2_blocks;
    if (!shared && nthreads > 1 && !override_nc) /* own: four blocks a thread, as before */
        nb = min_int(round_up(max_int(nb, 4 * nthreads), nthreads), strips);
    const int nc_max = NR * ceil_div(strips, min_int(nb, strips));
    nb = ceil_div(N, nc_max);
    const int mparts = shared ? max_int(1, min_int(ceil_div(want, nb), panels_max / MIN_PART_PANELS))
                              : nb >= nthreads ? 1 : nthreads / nb;
    const int units = nb * mparts;
    const float alpha_k = pk->alpha_in_b ? 1.0f : alpha; /* what the kernel applies */

    const size_t a_len = (size_t)round_up(panels_max * MR * kp_max, 32);
    const size_t s_len = shared ? (size_t)strips * NR * kp_max : 0; /* the shared slice of B */
    const size_t b_len = shared ? 0 : (size_t)round_up(nc_max * kp_max, 32);
    const size_t per_thread = b_len + 2 * (size_t)MR * NR; /* + the kernel's scratch */
    uint16_t *const apack = workspace(a_len + s_len + (size_t)nthreads * per_thread);
    uint16_t *const bslice = apack + a_len;

#pragma omp parallel num_threads(nthreads)
    {
        uint16_t *const bpack = bslice + s_len + (size_t)omp_get_thread_num() * per_thread;
        float *const scratch = (float *)(bpack + b_len);
        if (k->tiles)
            amx_tile_config();
        for (int ic = 0; ic < M; ic += mc_max) {
            const int mc = min_int(mc_max, M - ic);
            const int panels = ceil_div(mc, MR);
            for (int pc = 0; pc < K; pc += kc_max) {
                const int kc = min_int(kc_max, K - pc);
                const int kp = round_up(kc, pk->kgroup) * pk->kmult; /* packed, a multiple of kstep */
#pragma omp for schedule(static) nowait
                for (int q = 0; q < panels; q++)
                    pk->pack_a(MR, min_int(MR, mc - q * MR), kc,
                               A + es * ((size_t)(ic + q * MR) * lda + pc), lda,
                               apack + (size_t)q * MR * kp);
                if (shared) { /* the slice of B, one panel of NR columns at a time */
#pragma omp for schedule(dynamic, 1) nowait
                    for (int s = 0; s < strips; s++)
                        pk->pack_b(NR, kc, min_int(NR, N - s * NR),
                                   B + es * ((size_t)pc * ldb + (size_t)s * NR), ldb, alpha,
                                   bslice + (size_t)s * NR * kp);
                }
#pragma omp barrier /* the A block (and the slice of B) whole before anyone reads them */
#pragma omp for schedule(dynamic, 1)
                for (int u = 0; u < units; u++) {
                    const int jc = (u / mparts) * nc_max, part = u % mparts;
                    const int cols = min_int(nc_max, N - jc);
                    const int q0 = panels * part / mparts, q1 = panels * (part + 1) / mparts;
                    const uint16_t *b = bslice + (size_t)jc * kp;
                    if (q0 == q1)
                        continue;
                    if (!shared) {
                        for (int jr = 0; jr < cols; jr += NR)
                            pk->pack_b(NR, kc, min_int(NR, cols - jr),
                                       B + es * ((size_t)pc * ldb + jc + jr), ldb, alpha,
                                       bpack + (size_t)jr * kp);
                        b = bpack;
                    }
                    const float b_eff = pc == 0 ? beta : 1.0f; /* later slices add to C */
                    for (int q = q0; q < q1; q++)
                        for (int jr = 0; jr < cols; jr += NR)
                            k->fn(kp, apack + (size_t)q * MR * kp, b + (size_t)jr * kp,
                                  alpha_k, b_eff, C + (size_t)(ic + q * MR) * ldc + jc + jr, ldc,
                                  min_int(MR, mc - q * MR), min_int(NR, cols - jr), scratch);
                }
                /* (the barrier: nobody reads the A block or the slice while the next are packed) */
            }
        }
        if (k->tiles)
            amx_tile_release();
    }
}

void gemm_bf16_packed(const bf16_kernel *k, int M, int N, int K, float alpha, const gemm_bf16 *A,
                      int lda, const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    gemm_tiles_packed(k, &k->bf16, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_avx512_bf16(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                      const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    gemm_bf16_packed(&kernel_avx512_bf16, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_amx_naive(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                    const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    gemm_bf16_packed(&kernel_amx_naive, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_amx_blocked(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                      const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    gemm_bf16_packed(&kernel_amx_blocked, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_amx_pipelined(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                        const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    gemm_bf16_packed(&kernel_amx_pipelined, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

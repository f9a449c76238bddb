/* reloaded.c: Strassen with its additions folded into the packing ("Strassen reloaded",
 * Huang, Smith, Henry, van de Geijn, SC16; their "ABC" form).
 *
 * The Goto loops of stage 05 already copy every block of A and B into packed buffers
 * before the micro-kernel reads them. A product like M1 = (A11 + A22)(B11 + B22) can form
 * its sums during that copy: the packing reads A11 and A22 and writes their sum, so the sum
 * never exists as a matrix in memory. On the way out, the micro-kernel's tile of M1 is
 * added straight into C11 and C22. Per product, the only memory traffic is what the five
 * loops move anyway, plus one more operand read per extra term and one more tile of C per
 * extra target: no temporaries, no separate passes.
 *
 *   sum_operand  A block as  s0*A_0 + s1*A_1 + ...   (up to 4 terms: 2 levels)
 *   c_targets    C blocks    C_t = alpha*s_t*product + beta_t*C_t  (up to 4 targets)
 *   gemm_sums    05's five loops (gemm_loops, simd.h) with this file's hooks: pack_a_sum,
 *                pack_b_sum, and tile_to_targets, which sends the micro-kernel's tile to
 *                every target
 *   reloaded     the recursion: each level turns one product of sums into seven
 *
 * The loops, their partition over the caches and the threads, and the micro-kernel are 05's
 * (gemm_partition_for, gemm_loops, microkernel_best()): only the packing and the tile's
 * destination are this file's.
 */
#include <omp.h>

#include "matrix.h"
#include "../05_simd/simd.h" /* stage 05's API: its five loops, the micro-kernel type */
#include "strassen.h"
#include "timer.h"

double reloaded_pack_seconds;
int strassen_profile;

#define MAX_TERMS 4 /* 2 levels: 2 x 2 terms per operand, 2 x 2 targets per product */

typedef struct sum_operand {
    int n;
    const float *p[MAX_TERMS];
    float s[MAX_TERMS];
} sum_operand;

typedef struct c_targets {
    int n;
    float *p[MAX_TERMS];
    float s[MAX_TERMS];
    float beta[MAX_TERMS];
} c_targets;

/* What gemm_sums's hooks need: sum(C targets) += alpha * sum(A terms) * sum(B terms), and Z. */
typedef struct sums_call {
    const microkernel *uk;
    const sum_operand *A, *B;
    const c_targets *C;
    int lda, ldb, ldc, N, K;
    float alpha;
    float *Z;
} sums_call;

static int min_int(int a, int b) { return a < b ? a : b; }

/* --breakdown: thread 0 adds up the time it spends packing (reloaded_pack_seconds). */
static int timing_packing(void) { return strassen_profile && omp_get_thread_num() == 0; }

/* ------------------------------------------------------------ packing sums */

/* out[0:len] = sum_t s_t * X_t[off + 0:len]: vectorised, one pass over each term's row. */
static inline void sum_row(int len, const sum_operand *X, size_t off, float *out)
{
    const float *x0 = X->p[0] + off;
    const float s0 = X->s[0];
#pragma omp simd
    for (int j = 0; j < len; j++)
        out[j] = s0 * x0[j];
    for (int t = 1; t < X->n; t++) {
        const float *x = X->p[t] + off;
        const float s = X->s[t];
#pragma omp simd
        for (int j = 0; j < len; j++)
            out[j] += s * x[j];
    }
}

/* The pack_a hook: rows x kc of the sum at (ic, pc), rows <= MR, -> an MR x kc micro-panel,
 * zero-padded: the layout 05 packs (dst[p*MR + i] = A(i, p)). Each row is summed first
 * (vectorised, into `row`, the scratch, in L1), then scattered; a single unscaled term is
 * scattered straight from A, as in 05. */
static void pack_a_sum(const void *ctx, int ic, int pc, int rows, int kc, int prefetch_rows,
                       float *dst, float *row)
{
    const sums_call *g = ctx;
    const sum_operand *A = g->A;
    const int MR = g->uk->mr, lda = g->lda;
    const size_t off = IDX(ic, pc, lda);
    const int timing = timing_packing();
    const double t0 = timing ? timer_now() : 0;
    const int plain = A->n == 1 && A->s[0] == 1.0f;
    for (int i = 0; i < rows; i++) {
        const float *a = A->p[0] + off + (size_t)i * lda;
        if (i + MR < prefetch_rows) /* the next panel's row, as 05 does: rows are short streams */
            for (int t = 0; t < A->n; t++)
                for (int p = 0; p < kc; p += 16)
                    __builtin_prefetch(A->p[t] + off + IDX(i + MR, p, lda));
        if (!plain) {
            sum_row(kc, A, off + (size_t)i * lda, row);
            a = row;
        }
        for (int p = 0; p < kc; p++)
            dst[(size_t)p * MR + i] = a[p];
    }
    for (int i = rows; i < MR; i++)
        for (int p = 0; p < kc; p++)
            dst[(size_t)p * MR + i] = 0.0f;
    if (timing)
        reloaded_pack_seconds += timer_now() - t0;
}

/* The pack_b hook: kc x cols of the sum at (pc, jc) -> micro-panels of NR columns
 * (dst + jr*kc), zero-padded: 05's layout. Row by row of B, every term's row read along its
 * length. */
static void pack_b_sum(const void *ctx, int pc, int jc, int kc, int cols, float *dst,
                       float *scratch)
{
    const sums_call *g = ctx;
    const sum_operand *B = g->B;
    const int NR = g->uk->nr, ldb = g->ldb;
    const size_t off = IDX(pc, jc, ldb);
    const int timing = timing_packing();
    const double t0 = timing ? timer_now() : 0;
    (void)scratch;
    for (int p = 0; p < kc; p++) {
        const size_t o = off + (size_t)p * ldb;
        if (p + 4 < kc) /* 4 rows ahead, as 05 does */
            for (int t = 0; t < B->n; t++)
                for (int j = 0; j < cols; j += 16)
                    __builtin_prefetch(B->p[t] + o + IDX(4, j, ldb));
        for (int jr = 0; jr < cols; jr += NR) {
            float *d = dst + (size_t)jr * kc + (size_t)p * NR;
            const int w = min_int(NR, cols - jr);
            sum_row(w, B, o + jr, d);
            for (int j = w; j < NR; j++)
                d[j] = 0.0f;
        }
    }
    if (timing)
        reloaded_pack_seconds += timer_now() - t0;
}

/* ------------------------------------------------------------ the tile to every target */

int reloaded_fold = FOLD_LAST;

/* c[0:m, 0:n] = scale * t + beta * c, t with row stride ldt (beta == 0: c not read). */
static inline void tile_to(int m, int n, const float *t, int ldt, float scale, float beta,
                           float *c, int ldc)
{
    for (int i = 0; i < m; i++) {
        const float *ti = t + (size_t)i * ldt;
        float *ci = &c[IDX(i, 0, ldc)];
        if (beta == 0.0f) {
#pragma omp simd
            for (int j = 0; j < n; j++)
                ci[j] = scale * ti[j];
        } else if (beta == 1.0f) {
#pragma omp simd
            for (int j = 0; j < n; j++)
                ci[j] += scale * ti[j];
        } else {
#pragma omp simd
            for (int j = 0; j < n; j++)
                ci[j] = scale * ti[j] + beta * ci[j];
        }
    }
}

/* Ask for the targets' tiles now: the micro-kernel runs for thousands of cycles before
 * they are needed, enough to bring them in from memory. */
static inline void prefetch_targets(const c_targets *C, size_t at, int ldc, int m, int n)
{
    for (int t = 0; t < C->n; t++)
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j += 16)
                __builtin_prefetch(C->p[t] + at + IDX(i, j, ldc), 1, 3);
}

/* The tile hook: the micro-kernel's tile of the slice pc..pc+kc of K, to every target. With
 * several targets, Z (M x N, row stride N) holds the product while the slices add up
 * (FOLD_LAST); `tile` is the scratch. */
static void tile_to_targets(const void *ctx, int i, int j, int pc, int kc, int m, int n,
                            const float *a, const float *b, float *tile)
{
    const sums_call *g = ctx;
    const c_targets *C = g->C;
    const microkernel *uk = g->uk;
    const int first = pc == 0, last = pc + kc >= g->K, ldc = g->ldc;
    const size_t at = IDX(i, j, ldc);
    if (C->n == 1) { /* one target: the kernel updates C itself */
        uk->fn(kc, a, b, g->alpha * C->s[0], first ? C->beta[0] : 1.0f, C->p[0] + at, ldc, m, n);
    } else if (reloaded_fold == FOLD_EVERY || (first && last)) {
        /* the slice's tile, from `tile` (in L1) to every target */
        prefetch_targets(C, at, ldc, m, n);
        uk->fn(kc, a, b, 1.0f, 0.0f, tile, uk->nr, uk->mr, uk->nr);
        for (int t = 0; t < C->n; t++)
            tile_to(m, n, tile, uk->nr, g->alpha * C->s[t], first ? C->beta[t] : 1.0f,
                    C->p[t] + at, ldc);
    } else { /* FOLD_LAST: add up in Z; after the last slice, to the targets while Z's tile
                is still in L1 */
        float *z = g->Z + IDX(i, j, g->N);
        if (last)
            prefetch_targets(C, at, ldc, m, n);
        uk->fn(kc, a, b, g->alpha, first ? 0.0f : 1.0f, z, g->N, m, n);
        if (last)
            for (int t = 0; t < C->n; t++)
                tile_to(m, n, z, g->N, C->s[t], C->beta[t], C->p[t] + at, ldc);
    }
}

/* sum(C targets) += alpha * sum(A terms) * sum(B terms): 05's loops, partition and
 * micro-kernel, this file's hooks. */
static void gemm_sums(const microkernel *uk, int M, int N, int K, float alpha,
                      const sum_operand *A, int lda, const sum_operand *B, int ldb,
                      const c_targets *C, int ldc, float *Z)
{
    if (M <= 0 || N <= 0 || K <= 0)
        return;
    const gemm_partition pt = gemm_partition_for(uk, M, N, K);
    const sums_call g = {uk, A, B, C, lda, ldb, ldc, N, K, alpha, Z};
    /* scratch: a row of kc floats for pack_a_sum, or a tile for tile_to_targets (one thread
     * never runs both at once) */
    const int scratch = pt.kc > uk->mr * uk->nr ? pt.kc : uk->mr * uk->nr;
    const gemm_hooks hooks = {pack_a_sum, pack_b_sum, tile_to_targets, (size_t)scratch, &g};
    gemm_loops(&pt, &hooks);
}

/* FOLD_NONE ("AB" in Huang et al.): the product into Z, then one pass to the targets. */
static void z_to_targets(int M, int N, const float *Z, const c_targets *C, int ldc)
{
#pragma omp parallel for schedule(static) if ((double)M * N >= 65536)
    for (int i = 0; i < M; i++)
        for (int t = 0; t < C->n; t++)
            tile_to(1, N, Z + (size_t)i * N, N, C->s[t], C->beta[t], C->p[t] + IDX(i, 0, ldc),
                    ldc);
}

static void leaf(const microkernel *uk, int M, int N, int K, float alpha, const sum_operand *A,
                 int lda, const sum_operand *B, int ldb, const c_targets *C, int ldc, float *Z)
{
    if (C->n > 1 && reloaded_fold == FOLD_NONE) {
        const c_targets z = {1, {Z}, {1.0f}, {0.0f}};
        gemm_sums(uk, M, N, K, alpha, A, lda, B, ldb, &z, N, NULL);
        z_to_targets(M, N, Z, C, ldc);
        return;
    }
    gemm_sums(uk, M, N, K, alpha, A, lda, B, ldb, C, ldc, Z);
}

/* ------------------------------------------------------------ the recursion */

enum { Q11, Q12, Q21, Q22 };

/* Strassen's seven products as data (the same as strassen_level in strassen.c): which
 * quadrants of A and B are summed, with which signs, and which quadrants of C receive the
 * product, with which sign. */
static const struct product {
    int na, a[2];
    float as[2];
    int nb, b[2];
    float bs[2];
    int nc, c[2];
    float cs[2];
} strassen7[7] = {
    {2, {Q11, Q22}, {1, 1}, 2, {Q11, Q22}, {1, 1}, 2, {Q11, Q22}, {1, 1}},   /* M1 */
    {2, {Q21, Q22}, {1, 1}, 1, {Q11}, {1}, 2, {Q21, Q22}, {1, -1}},          /* M2 */
    {1, {Q11}, {1}, 2, {Q12, Q22}, {1, -1}, 2, {Q12, Q22}, {1, 1}},          /* M3 */
    {1, {Q22}, {1}, 2, {Q21, Q11}, {1, -1}, 2, {Q11, Q21}, {1, 1}},          /* M4 */
    {2, {Q11, Q12}, {1, 1}, 1, {Q22}, {1}, 2, {Q11, Q12}, {-1, 1}},          /* M5 */
    {2, {Q21, Q11}, {1, -1}, 2, {Q11, Q12}, {1, 1}, 1, {Q22}, {1}},          /* M6 */
    {2, {Q12, Q22}, {1, -1}, 2, {Q21, Q22}, {1, 1}, 1, {Q11}, {1}},          /* M7 */
};
/* The product that touches each quadrant of C first applies beta to it. */
static const int first_touch[4] = {[Q11] = 0, [Q12] = 2, [Q21] = 1, [Q22] = 0};

/* Every term of X times the quadrant terms of one product: offsets added, signs multiplied. */
static sum_operand expand(const sum_operand *X, int nq, const int *q, const float *qs,
                          const size_t *offset)
{
    sum_operand r = {0};
    for (int t = 0; t < X->n; t++)
        for (int j = 0; j < nq; j++) {
            r.p[r.n] = X->p[t] + offset[q[j]];
            r.s[r.n++] = X->s[t] * qs[j];
        }
    return r;
}

static sum_operand shifted(const sum_operand *X, size_t off)
{
    sum_operand r = *X;
    for (int t = 0; t < r.n; t++)
        r.p[t] += off;
    return r;
}

static c_targets shifted_c(const c_targets *X, size_t off, int keep_beta)
{
    c_targets r = *X;
    for (int t = 0; t < r.n; t++) {
        r.p[t] += off;
        if (!keep_beta)
            r.beta[t] = 1.0f;
    }
    return r;
}

static int level_applies(int levels, int M, int N, int K)
{
    const int c = strassen_cutoff > 0 ? strassen_cutoff : strassen_default_cutoff;
    int lo = M < N ? M : N;
    lo = lo < K ? lo : K;
    return levels > 0 && lo >= (c > 2 ? c : 2);
}

/* targets += alpha * sum(A) * sum(B) with up to `levels` levels, any M, N, K: the same
 * cutoff and peeling as fast_gemm (driver.c), on operands that are sums. */
static void reloaded(const microkernel *uk, int levels, int M, int N, int K, float alpha,
                     const sum_operand *A, int lda, const sum_operand *B, int ldb,
                     const c_targets *C, int ldc, float *Z)
{
    if (M <= 0 || N <= 0 || K <= 0)
        return;
    if (!level_applies(levels, M, N, K)) {
        leaf(uk, M, N, K, alpha, A, lda, B, ldb, C, ldc, Z);
        return;
    }
    const int m = M / 2, n = N / 2, k = K / 2;
    const size_t aoff[4] = {0, (size_t)k, (size_t)m * lda, (size_t)m * lda + k};
    const size_t boff[4] = {0, (size_t)n, (size_t)k * ldb, (size_t)k * ldb + n};
    const size_t coff[4] = {0, (size_t)n, (size_t)m * ldc, (size_t)m * ldc + n};
    for (int r = 0; r < 7; r++) {
        const struct product *pr = &strassen7[r];
        const sum_operand a = expand(A, pr->na, pr->a, pr->as, aoff);
        const sum_operand b = expand(B, pr->nb, pr->b, pr->bs, boff);
        c_targets c = {0};
        for (int t = 0; t < C->n; t++)
            for (int j = 0; j < pr->nc; j++) {
                c.p[c.n] = C->p[t] + coff[pr->c[j]];
                c.s[c.n] = C->s[t] * pr->cs[j];
                c.beta[c.n++] = first_touch[pr->c[j]] == r ? C->beta[t] : 1.0f;
            }
        reloaded(uk, levels - 1, m, n, k, alpha, &a, lda, &b, ldb, &c, ldc, Z);
    }
    /* The peeled edges, as in fast_gemm, on the same sums and targets. */
    if (K % 2) {
        const sum_operand a = shifted(A, 2 * (size_t)k), b = shifted(B, 2 * (size_t)k * ldb);
        const c_targets c = shifted_c(C, 0, 0);
        leaf(uk, 2 * m, 2 * n, 1, alpha, &a, lda, &b, ldb, &c, ldc, Z);
    }
    if (N % 2) {
        const sum_operand b = shifted(B, 2 * (size_t)n);
        const c_targets c = shifted_c(C, 2 * (size_t)n, 1);
        leaf(uk, 2 * m, 1, K, alpha, A, lda, &b, ldb, &c, ldc, Z);
    }
    if (M % 2) {
        const sum_operand a = shifted(A, 2 * (size_t)m * lda);
        const c_targets c = shifted_c(C, 2 * (size_t)m * ldc, 1);
        leaf(uk, 1, N, K, alpha, &a, lda, B, ldb, &c, ldc, Z);
    }
}

/* Z, the product of a leaf with several targets: at most (M/2) x (N/2), the size of the
 * first level's products. Kept by the calling thread between calls, like the packing. */
static float *z_buffer(size_t floats)
{
    static _Thread_local float *buf;
    static _Thread_local size_t cap;
    return matrix_scratch(&buf, &cap, floats, "reloaded: Z");
}

static void run(int levels, int M, int N, int K, float alpha, const float *A, int lda,
                const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const microkernel *uk = microkernel_best();
    /* alpha rides on B's terms: pack_b_sum multiplies them in as it packs, as 05 does */
    const sum_operand a = {1, {A}, {1.0f}}, b = {1, {B}, {alpha}};
    const c_targets c = {1, {C}, {1.0f}, {beta}};
    float *Z = levels > 0 ? z_buffer((size_t)(M / 2 + 1) * (N / 2 + 1)) : NULL;
    reloaded(uk, levels, M, N, K, 1.0f, &a, lda, &b, ldb, &c, ldc, Z);
}
void gemm_reloaded_0lvl(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    run(0, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_reloaded_1lvl(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    run(1, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_reloaded_2lvl(int M, int N, int K, float alpha, const float *A, int lda,
                        const float *B, int ldb, float beta, float *C, int ldc)
{
    run(2, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

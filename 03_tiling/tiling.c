/* 03_tiling: 02's i-k-j update, done one block at a time.
 *
 * 02's ikj streams a whole row of B (N floats) for every element of A it reads: for one
 * row of C it walks all of B, K x N floats (4 MiB at 1024), so B keeps coming back from
 * L3. Here C is cut into T x T tiles and k into steps of T:
 *
 *   for each T x T tile of C                 i0, j0
 *     for each step of T along k             k0
 *       C tile += A block * B block          02's ikj, inside T x T blocks
 *
 * Inside one block product the B block (T x T floats) is read once for every row of
 * the tile, T times: if it stays in L1 (T = 64: 16 KiB of a 32 KiB L1d), only the first
 * of those T reads goes further than L1.
 *
 *   tiled       the blocks are read where they are, at the matrices' row strides
 *   tiled_copy  each block is first copied into a 64-byte-aligned buffer with a short
 *               row stride: its rows are contiguous, start on cache lines, and do not
 *               compete for the same few cache sets
 *   unroll_2x4  the same copies; the block product takes 2 rows of C and 4 steps of k
 *               at once, holding 8 values of A in registers: every B element loaded
 *               feeds two rows of C, every C element is loaded and stored once per 4 k
 *
 * and the two the chapter leaves to its exercise:
 *
 *   tiled_kij   tiled with 02's kij inside each block: the whole C tile is updated
 *               from one row of the B block before the next row is read
 *   unroll_4x4  unroll_2x4 four rows high: 16 values of A in registers, 4 loads of B
 *               and 4 loads and 4 stores of C per 16 multiply-adds
 */
#include "tiling.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int tile_size = TILE_DEFAULT;

static int min_int(int a, int b) { return a < b ? a : b; }
static int max_int(int a, int b) { return a > b ? a : b; }
static int round_up(int n, int multiple) { return (n + multiple - 1) / multiple * multiple; }

/* C = beta*C (zeros, C unread, when beta == 0): the blocks then only add to it. */
static void scale_c(int M, int N, float beta, float *C, int ldc)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            C[IDX(i, j, ldc)] = beta == 0.0f ? 0.0f : beta * C[IDX(i, j, ldc)];
}

void gemm_tiled(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const int T = tile_size;
    scale_c(M, N, beta, C, ldc);
    for (int i0 = 0; i0 < M; i0 += T)
        for (int j0 = 0; j0 < N; j0 += T)
            for (int k0 = 0; k0 < K; k0 += T) {
                const int mb = min_int(T, M - i0), nb = min_int(T, N - j0), kb = min_int(T, K - k0);
                for (int i = i0; i < i0 + mb; i++)
                    for (int k = k0; k < k0 + kb; k++) {
                        const float a = alpha * A[IDX(i, k, lda)];
                        const float *b = &B[IDX(k, 0, ldb)];
                        float *c = &C[IDX(i, 0, ldc)];
                        for (int j = j0; j < j0 + nb; j++)
                            c[j] += a * b[j];
                    }
            }
}

/* The same blocks, with k outside i inside each block (02's kij): one row of the B block (T
 * floats) serves every row of the C tile in turn, and the whole C tile (T x T) is read and
 * written once per k, where tiled keeps one row of C in L1 for all of its k. */
void gemm_tiled_kij(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    const int T = tile_size;
    scale_c(M, N, beta, C, ldc);
    for (int i0 = 0; i0 < M; i0 += T)
        for (int j0 = 0; j0 < N; j0 += T)
            for (int k0 = 0; k0 < K; k0 += T) {
                const int mb = min_int(T, M - i0), nb = min_int(T, N - j0), kb = min_int(T, K - k0);
                for (int k = k0; k < k0 + kb; k++) {
                    const float *b = &B[IDX(k, 0, ldb)];
                    for (int i = i0; i < i0 + mb; i++) {
                        const float a = alpha * A[IDX(i, k, lda)];
                        float *c = &C[IDX(i, 0, ldc)];
                        for (int j = j0; j < j0 + nb; j++)
                            c[j] += a * b[j];
                    }
                }
            }
}

/* ---- the copied variants -------------------------------------------------------------- */

/* Cb += Ab * Bb on copied blocks whose rows are ldt floats apart. The sizes are already
 * rounded up by the caller; the padding holds zeros, so it adds nothing. */
typedef void block_product(int mb, int nb, int kb, int ldt, const float *restrict Ab,
                           const float *restrict Bb, float *restrict Cb);

/* gemm_tiled's inner loops, unchanged, on the copies. */
static void block_ikj(int mb, int nb, int kb, int ldt, const float *restrict Ab,
                      const float *restrict Bb, float *restrict Cb)
{
    for (int i = 0; i < mb; i++)
        for (int k = 0; k < kb; k++) {
            const float a = Ab[i * ldt + k];
            const float *b = &Bb[k * ldt];
            float *c = &Cb[i * ldt];
            for (int j = 0; j < nb; j++)
                c[j] += a * b[j];
        }
}

/* Two rows of C and four steps of k per pass over j (mb even, kb a multiple of 4).
 * Per 2 x 4 step: 8 values of A in registers; per j, 4 loads of B and 2 loads and
 * 2 stores of C for 8 multiply-adds (block_ikj: 1 load of B, 1 load and 1 store of C
 * for each one). */
static void block_2x4(int mb, int nb, int kb, int ldt, const float *restrict Ab,
                      const float *restrict Bb, float *restrict Cb)
{
    for (int i = 0; i < mb; i += 2)
        for (int k = 0; k < kb; k += 4) {
            const float *a0 = &Ab[i * ldt + k], *a1 = a0 + ldt;
            const float a00 = a0[0], a01 = a0[1], a02 = a0[2], a03 = a0[3];
            const float a10 = a1[0], a11 = a1[1], a12 = a1[2], a13 = a1[3];
            const float *b0 = &Bb[k * ldt], *b1 = b0 + ldt, *b2 = b1 + ldt, *b3 = b2 + ldt;
            float *c0 = &Cb[i * ldt], *c1 = c0 + ldt;
            for (int j = 0; j < nb; j++) {
                float c0j = c0[j], c1j = c1[j];
                c0j += a00 * b0[j], c1j += a10 * b0[j];
                c0j += a01 * b1[j], c1j += a11 * b1[j];
                c0j += a02 * b2[j], c1j += a12 * b2[j];
                c0j += a03 * b3[j], c1j += a13 * b3[j];
                c0[j] = c0j, c1[j] = c1j;
            }
        }
}

/* Four rows of C and four steps of k per pass over j (mb and kb multiples of 4). Per 4 x 4
 * step: 16 values of A in registers; per j, 4 loads of B and 4 loads and 4 stores of C for
 * 16 multiply-adds, 0.75 memory operations per multiply-add against block_2x4's 1. With
 * 8-wide vectors that is 16 broadcasts, 4 vectors of B and 4 of C: 24 vector registers, more
 * than AVX2's 16 (chapter 03, exercise 5). */
static void block_4x4(int mb, int nb, int kb, int ldt, const float *restrict Ab,
                      const float *restrict Bb, float *restrict Cb)
{
    for (int i = 0; i < mb; i += 4)
        for (int k = 0; k < kb; k += 4) {
            const float *a0 = &Ab[i * ldt + k], *a1 = a0 + ldt, *a2 = a1 + ldt, *a3 = a2 + ldt;
            const float a00 = a0[0], a01 = a0[1], a02 = a0[2], a03 = a0[3];
            const float a10 = a1[0], a11 = a1[1], a12 = a1[2], a13 = a1[3];
            const float a20 = a2[0], a21 = a2[1], a22 = a2[2], a23 = a2[3];
            const float a30 = a3[0], a31 = a3[1], a32 = a3[2], a33 = a3[3];
            const float *b0 = &Bb[k * ldt], *b1 = b0 + ldt, *b2 = b1 + ldt, *b3 = b2 + ldt;
            float *c0 = &Cb[i * ldt], *c1 = c0 + ldt, *c2 = c1 + ldt, *c3 = c2 + ldt;
            for (int j = 0; j < nb; j++) {
                float c0j = c0[j], c1j = c1[j], c2j = c2[j], c3j = c3[j];
                c0j += a00 * b0[j], c1j += a10 * b0[j], c2j += a20 * b0[j], c3j += a30 * b0[j];
                c0j += a01 * b1[j], c1j += a11 * b1[j], c2j += a21 * b1[j], c3j += a31 * b1[j];
                c0j += a02 * b2[j], c1j += a12 * b2[j], c2j += a22 * b2[j], c3j += a32 * b2[j];
                c0j += a03 * b3[j], c1j += a13 * b3[j], c2j += a23 * b3[j], c3j += a33 * b3[j];
                c0[j] = c0j, c1[j] = c1j, c2[j] = c2j, c3[j] = c3j;
            }
        }
}

/* Copy a rows x cols block (row stride ld), times s, into buf (row stride ldt), zero-filled
 * out to rows_pad x cols_pad, so that the block products need no edge cases. Plain loops,
 * not memcpy: for rows this short, a library call per row costs more than the copy. B's
 * blocks are copied times alpha: each term gets its alpha (gemm.h) for a multiply per copy. */
static void copy_block(float *restrict buf, int ldt, const float *restrict src, int ld, int rows,
                       int cols, int rows_pad, int cols_pad, float s)
{
    for (int r = 0; r < rows_pad; r++) {
        float *dst = &buf[(size_t)r * ldt];
        int c = 0;
        if (r < rows)
            for (; c < cols; c++)
                dst[c] = s * src[IDX(r, c, ld)];
        for (; c < cols_pad; c++)
            dst[c] = 0.0f;
    }
}

/* C block = Cb + beta * C block (alpha is in Cb already); C is not read when beta == 0. */
static void store_block(float *C, int ldc, const float *Cb, int ldt, int rows, int cols,
                        float beta)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            C[IDX(i, j, ldc)] = beta == 0.0f ? Cb[i * ldt + j]
                                             : Cb[i * ldt + j] + beta * C[IDX(i, j, ldc)];
}

/* The three block buffers, kept from call to call: one set a thread, freed when the thread
 * ends. Allocated and freed in every call (3 x 256 KiB at the default tile), they went back
 * to the kernel at each free, and the next call paid a page fault for every 4 KiB of them
 * again (NOTES.md). Three allocations, as before: only their lifetime changed. (04's
 * pthreads_tiled starts new threads in every call, so its threads allocate a set each time;
 * glibc's per-thread arenas keep that memory, and it measured no extra faults. Not the
 * thread-local statics of matrix_scratch, as 05 uses: a pthreads_tiled thread ends every call,
 * and its buffer would leak with it; a key's destructor frees it.) */
typedef struct kept_buffers {
    float *p[3];
    size_t floats; /* of each */
} kept_buffers;

static pthread_key_t kept_key;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;
static int kept_key_ok; /* pthread_key_create succeeded: kept_key is ours */

static void kept_free(void *arg)
{
    kept_buffers *b = arg;
    for (int i = 0; i < 3; i++)
        free(b->p[i]);
    free(b);
}

static void kept_key_create(void) { kept_key_ok = pthread_key_create(&kept_key, kept_free) == 0; }

/* This thread's three buffers of at least `floats` floats each, 64-byte aligned, in buf[0..2];
 * 0, or -1 if there is no room. */
static int block_buffers(size_t floats, float *buf[3])
{
    pthread_once(&kept_once, kept_key_create);
    if (!kept_key_ok)
        return -1;
    kept_buffers *b = pthread_getspecific(kept_key);
    if (!b) {
        if (!(b = calloc(1, sizeof *b)) || pthread_setspecific(kept_key, b) != 0) {
            free(b);
            return -1;
        }
    }
    if (floats > b->floats) {
        b->floats = floats;
        for (int i = 0; i < 3; i++) {
            free(b->p[i]);
            b->p[i] = aligned_alloc(64, (floats * sizeof(float) + 63) / 64 * 64);
            if (!b->p[i])
                b->floats = 0; /* asked again next call */
        }
    }
    for (int i = 0; i < 3; i++)
        buf[i] = b->p[i];
    return b->floats ? 0 : -1;
}

/* gemm_tiled's three block loops, with every block copied before it is used. A buffer
 * row is ldt floats, T rounded up to 16 (64 bytes), and the buffers are 64-byte aligned:
 * every row starts on a cache line. The C tile is summed in its own buffer and written
 * to C once, with beta. The product takes rows in steps of mr (2 or 4). */
static void gemm_copied_blocks(block_product *product, int mr, int M, int N, int K, float alpha,
                               const float *A, int lda, const float *B, int ldb, float beta,
                               float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    /* no block is larger than the matrices: a small product gets small buffers */
    const int T = tile_size, edge = min_int(T, max_int(M, max_int(N, K))), ldt = round_up(edge, 16);
    float *buf[3];
    if (block_buffers((size_t)ldt * (size_t)ldt, buf) != 0) { /* no room: the product in place */
        gemm_tiled(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    float *Ab = buf[0], *Bb = buf[1], *Cb = buf[2];
    for (int i0 = 0; i0 < M; i0 += T) {
        /* padding: rows a multiple of mr, k a multiple of 4, whole 64-byte rows of C */
        const int mb = min_int(T, M - i0), mb_pad = round_up(mb, mr);
        for (int j0 = 0; j0 < N; j0 += T) {
            const int nb = min_int(T, N - j0), nb_pad = round_up(nb, 16);
            memset(Cb, 0, sizeof(float) * (size_t)mb_pad * (size_t)ldt);
            for (int k0 = 0; k0 < K; k0 += T) {
                const int kb = min_int(T, K - k0), kb_pad = round_up(kb, 4);
                copy_block(Ab, ldt, &A[IDX(i0, k0, lda)], lda, mb, kb, mb_pad, kb_pad, 1.0f);
                copy_block(Bb, ldt, &B[IDX(k0, j0, ldb)], ldb, kb, nb, kb_pad, nb_pad, alpha);
                product(mb_pad, nb_pad, kb_pad, ldt, Ab, Bb, Cb);
            }
            store_block(&C[IDX(i0, j0, ldc)], ldc, Cb, ldt, mb, nb, beta);
        }
    }
}

void gemm_tiled_copy(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    gemm_copied_blocks(block_ikj, 2, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_unroll_2x4(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    gemm_copied_blocks(block_2x4, 2, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void gemm_unroll_4x4(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    gemm_copied_blocks(block_4x4, 4, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* 11_gf256 exercise: build the field GF(2^8) and the tables every kernel of the stage uses.
 *
 * Build and check it with:   make grade STAGE=11
 * (or by hand: make build/grade/11_gf256/gf256 && build/grade/11_gf256/gf256 --data 4 --parity 2 --len 7,33)
 *
 * The program checks every variant byte for byte against its own shift-and-XOR reference
 * and against ISA-L, and rebuilds erased chunks with your matrix inversion. The SIMD and
 * GPU kernels are given (split_avx2.c, split_avx512.c, gfni.c, gpu_tiles.cu): they run on the
 * tables YOUR functions build, so when your tables are right they pass too. The grader also
 * checks each TODO alone (build/grade/11_gf256/gf256 --todo 3 checks TODO 3 with the
 * harness's own tables), so that TODOs 1 to 3 show as done before the code as a whole can.
 * Untouched, the TODOs pass only their zero cases (8 of their 1313 checks: 0 * b, c = 0,
 * singular matrices, an empty range) and every encode and decode check FAILs.
 *
 * Work in this order; after each step run the checks (the scalar `table` variant first:
 * --variant table).
 */
#include <stdlib.h>
#include <string.h>

#include "gf256.h"

uint8_t gf256_log[256];
uint8_t gf256_exp[512];

void gf256_init(void)
{
    /* TODO 1: fill gf256_exp[i] = 2^i for i = 0..254, and gf256_log[2^i] = i.
     * Hints:
     * - start from x = 1; the next power is x * 2: shift left by one, and if bit 8 is set,
     *   XOR with GF_POLY (0x11D) to reduce it back to 8 bits.
     * - 2 generates every nonzero byte for this polynomial: you should see 255 different x.
     * - then copy gf256_exp[0..254] to gf256_exp[255..509] (and one more), so that
     *   gf256_exp[log a + log b] needs no "% 255".
     */
}

uint8_t gf256_mul(uint8_t a, uint8_t b)
{
    /* TODO 2: a*b = 2^(log a + log b), and 0 when either is 0 (log 0 does not exist). */
    (void)a; (void)b;
    return 0;
}

uint8_t gf256_inv(uint8_t a)
{
    /* TODO 3: 1/a = 2^(255 - log a), because 2^255 = 1. */
    (void)a;
    return 0;
}

int gf256_invert_matrix(uint8_t *a, uint8_t *inv, int n)
{
    /* TODO 4: Gauss-Jordan elimination, exactly as over the reals, with XOR for + and -,
     * gf256_mul for *, and gf256_inv for division. Start inv as the identity; for each column:
     * find a row with a nonzero entry (return -1 if none: singular), swap it up, scale it
     * so the pivot is 1, and clear the column in every other row. Apply every row operation
     * to inv as well. (Any nonzero pivot will do: there is no rounding in a finite field.)
     */
    (void)a; (void)inv; (void)n;
    return -1;
}

void gf256_split_tables(uint8_t c, uint8_t lo[16], uint8_t hi[16])
{
    /* TODO 5: lo[x] = c * x and hi[x] = c * (x << 4), for x = 0..15.
     * Why it works: c*x = c*(x & 0x0f) XOR c*(x & 0xf0). One VPSHUFB looks up 16 entries. */
    (void)c;
    memset(lo, 0, 16);
    memset(hi, 0, 16);
}

uint64_t gf256_affine_matrix(uint8_t c)
{
    /* TODO 6: the 8x8 bit matrix of x -> c*x, as GF2P8AFFINEQB reads it.
     * Column s of the matrix is c * 2^s (the image of bit s). Output bit r is the parity
     * of (byte 7-r of the matrix) AND x, so set bit (8*(7-r) + s) when bit r of c*2^s is 1.
     * (This machine may not have GFNI; the program still checks gfni's matrices wherever
     * the gfni variant can run, and gpu_affine uses the same columns c * 2^s.)
     */
    (void)c;
    return 0;
}

int gf_plan_init(gf_plan *p, int k, int rows, const uint8_t *coef)
{
    size_t n = (size_t)k * (size_t)rows;
    memset(p, 0, sizeof *p);
    p->k = k;
    p->rows = rows;
    p->coef = malloc(n ? n : 1);
    p->nib = aligned_alloc(64, 64 * (n / 2 + 1));
    p->affine = aligned_alloc(64, 64 * (n / 8 + 1));
    if (!p->coef || !p->nib || !p->affine) {
        gf_plan_free(p);
        return -1;
    }
    memcpy(p->coef, coef, n);
    for (size_t t = 0; t < n; t++) {
        gf256_split_tables(coef[t], p->nib + 32 * t, p->nib + 32 * t + 16);
        p->affine[t] = gf256_affine_matrix(coef[t]);
    }
    return 0;
}

void gf_plan_free(gf_plan *p)
{
    free(p->coef);
    free(p->nib);
    free(p->affine);
    memset(p, 0, sizeof *p);
}

void encode_table(const gf_plan *p, const uint8_t *const *in, uint8_t *const *out, size_t off,
                  size_t len)
{
    /* TODO 7: for every row i and byte b in [off, off + len):
     *   out[i][b] = XOR over j of  p->coef[i * p->k + j] * in[j][b]
     * Hints:
     * - write out[i][b] without reading it first: the program fills it with garbage.
     * - the log of the coefficient is the same for a whole (i, j) pair: look it up once.
     * - then make it faster: process the bytes in blocks of a few KiB, so that out[i] stays
     *   in L1 while the k inputs pass over it.
     */
    (void)p; (void)in; (void)out; (void)off; (void)len;
}

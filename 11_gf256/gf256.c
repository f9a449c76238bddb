/* 11_gf256: the field GF(2^8) with polynomial 0x11D, and the scalar kernel.
 *
 * Multiplication through logarithms: every nonzero byte is a power of the generator 2,
 * so a*b = 2^(log a + log b). Two table lookups and an add replace the shift-and-XOR
 * loop of polynomial multiplication. The SIMD kernels (split_avx2.c, split_avx512.c,
 * gfni.c) use tables derived here: gf256_split_tables and gf256_affine_matrix.
 *
 *   make stage11 && ./11_gf256/gf256 --variant table --data 10 --parity 4 --len 64K
 */
#include "gf256.h"

#include <stdlib.h>
#include <string.h>

uint8_t gf256_log[256];
uint8_t gf256_exp[512];

void gf256_init(void)
{
    unsigned x = 1;
    for (int i = 0; i < 255; i++) {
        gf256_exp[i] = (uint8_t)x;
        gf256_log[x] = (uint8_t)i;
        x <<= 1;              /* multiply by the generator 2 ... */
        if (x & 0x100)
            x ^= GF_POLY;     /* ... and reduce modulo the field polynomial */
    }
    for (int i = 255; i < 512; i++) /* 2^255 = 1: the powers repeat */
        gf256_exp[i] = gf256_exp[i - 255];
    gf256_log[0] = 0; /* log 0 does not exist; callers test for zero first */
}

uint8_t gf256_mul(uint8_t a, uint8_t b)
{
    if (a == 0 || b == 0)
        return 0;
    return gf256_exp[gf256_log[a] + gf256_log[b]];
}

uint8_t gf256_inv(uint8_t a) { return gf256_exp[255 - gf256_log[a]]; }

int gf256_invert_matrix(uint8_t *a, uint8_t *inv, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            inv[i * n + j] = i == j;
    for (int col = 0; col < n; col++) {
        int piv = col; /* any nonzero pivot will do: the field has no rounding */
        while (piv < n && a[piv * n + col] == 0)
            piv++;
        if (piv == n)
            return -1;
        if (piv != col)
            for (int j = 0; j < n; j++) {
                uint8_t t = a[col * n + j]; a[col * n + j] = a[piv * n + j]; a[piv * n + j] = t;
                t = inv[col * n + j]; inv[col * n + j] = inv[piv * n + j]; inv[piv * n + j] = t;
            }
        uint8_t s = gf256_inv(a[col * n + col]); /* scale the pivot row to a leading 1 */
        for (int j = 0; j < n; j++) {
            a[col * n + j] = gf256_mul(a[col * n + j], s);
            inv[col * n + j] = gf256_mul(inv[col * n + j], s);
        }
        for (int r = 0; r < n; r++) { /* clear the column in every other row: add = XOR */
            uint8_t f = a[r * n + col];
            if (r == col || f == 0)
                continue;
            for (int j = 0; j < n; j++) {
                a[r * n + j] ^= gf256_mul(f, a[col * n + j]);
                inv[r * n + j] ^= gf256_mul(f, inv[col * n + j]);
            }
        }
    }
    return 0;
}

/* c*x = c*(x & 0x0f) ^ c*(x & 0xf0): multiplication distributes over XOR, so two
 * 16-entry tables (one per nibble) replace one 256-entry table. 16 entries is what
 * one PSHUFB looks up. */
void gf256_split_tables(uint8_t c, uint8_t lo[16], uint8_t hi[16])
{
    for (int x = 0; x < 16; x++) {
        lo[x] = gf256_mul(c, (uint8_t)x);
        hi[x] = gf256_mul(c, (uint8_t)(x << 4));
    }
}

/* x -> c*x is linear over GF(2): column s of its matrix is c * 2^s (the image of bit s).
 * gf2p8affineqb computes output bit r as the parity of (byte 7-r of the matrix) AND x. */
uint64_t gf256_affine_matrix(uint8_t c)
{
    uint64_t m = 0;
    for (int s = 0; s < 8; s++) {
        uint8_t col = gf256_mul(c, (uint8_t)(1u << s));
        for (int r = 0; r < 8; r++)
            if (col >> r & 1)
                m |= (uint64_t)1 << (8 * (7 - r) + s);
    }
    return m;
}

int gf_plan_init(gf_plan *p, int k, int rows, const uint8_t *coef)
{
    size_t n = (size_t)k * (size_t)rows;
    memset(p, 0, sizeof *p);
    p->k = k;
    p->rows = rows;
    p->coef = malloc(n ? n : 1);
    p->nib = aligned_alloc(64, 64 * (n / 2 + 1));       /* 32 bytes per coefficient, */
    p->affine = aligned_alloc(64, 64 * (n / 8 + 1));    /* 8; sizes multiples of 64 */
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

/* The scalar reference kernel: one byte, one lookup pair at a time. Blocks of BLOCK
 * bytes keep the rows' pieces in L1 while every (i, j) pair passes over them. */
#define BLOCK 4096

void encode_table(const gf_plan *p, const uint8_t *const *in, uint8_t *const *out, size_t off,
                  size_t len)
{
    for (size_t b0 = off; b0 < off + len; b0 += BLOCK) {
        size_t n = off + len - b0 < BLOCK ? off + len - b0 : BLOCK;
        for (int i = 0; i < p->rows; i++) {
            uint8_t *o = out[i] + b0;
            for (int j = 0; j < p->k; j++) {
                const uint8_t *x = in[j] + b0;
                uint8_t c = p->coef[i * p->k + j];
                if (c == 0) {
                    if (j == 0)
                        memset(o, 0, n);
                    continue;
                }
                unsigned lc = gf256_log[c];
                for (size_t t = 0; t < n; t++) {
                    uint8_t v = x[t] ? gf256_exp[lc + gf256_log[x[t]]] : 0;
                    o[t] = j == 0 ? v : (uint8_t)(o[t] ^ v); /* the first term writes */
                }
            }
        }
    }
}

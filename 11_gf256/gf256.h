/* gf256.h: GF(2^8) arithmetic and the erasure-coding kernels of chapter 11.
 *
 * The field: bytes are polynomials over GF(2) of degree < 8, multiplied modulo
 * x^8 + x^4 + x^3 + x^2 + 1 (0x11D, the polynomial of ISA-L, Linux RAID-6 and most
 * storage systems). Addition is XOR.
 *
 * The product every kernel computes ("encode"):
 *
 *     out[i][b] = XOR over j < k of  coef[i*k + j] * in[j][b]     for i < rows, off <= b < off+len
 *
 * in: k chunks, out: rows chunks, coef: a rows x k matrix, row-major. Encoding uses the
 * m x k Cauchy matrix (out = parity); decoding uses the same kernels with the matrix that
 * rebuilds the lost chunks from k survivors. Kernels work on any len >= 0 and any
 * alignment; each data byte is read once (for rows up to the kernel's register budget).
 */
#ifndef GF256_H
#define GF256_H

#include <stddef.h>
#include <stdint.h>

#define GF_POLY 0x11D
#define GF_MAX_CHUNKS 256 /* k + m <= 256: a Cauchy matrix needs k + m distinct field elements */

/* ---- the field (gf256.c) --------------------------------------------------------------- */
extern uint8_t gf256_log[256];   /* gf256_log[x] = i with 2^i = x, for x != 0 */
extern uint8_t gf256_exp[512];   /* gf256_exp[i] = 2^i; doubled so gf256_exp[a + b] needs no "mod 255" */

void gf256_init(void);                       /* fills gf256_log and gf256_exp; call once */
uint8_t gf256_mul(uint8_t a, uint8_t b);
uint8_t gf256_inv(uint8_t a);                /* a != 0 */
/* Invert the n x n matrix a (row-major) into inv by Gauss-Jordan elimination.
 * Returns 0, or -1 when a is singular. a is overwritten. */
int gf256_invert_matrix(uint8_t *a, uint8_t *inv, int n);

/* ---- what a kernel needs, computed once per matrix (like ISA-L's ec_init_tables) -------- */
typedef struct gf_plan {
    int k, rows;
    uint8_t *coef;      /* rows x k */
    uint8_t *nib;       /* split tables: 32 bytes per coefficient, (i, j) order:
                           [c*0, c*1, ..., c*15] then [c*0x00, c*0x10, ..., c*0xf0] */
    uint64_t *affine;   /* one 8x8 bit matrix per coefficient, as gf2p8affineqb reads it */
} gf_plan;

/* The two tables of the split-table method for coefficient c. */
void gf256_split_tables(uint8_t c, uint8_t lo[16], uint8_t hi[16]);
/* The 8x8 matrix over GF(2) of "multiply by c", in gf2p8affineqb's layout:
 * byte 7-r holds row r (which input bits make output bit r). */
uint64_t gf256_affine_matrix(uint8_t c);

/* Build a plan for a rows x k matrix (copies coef). Returns 0, or -1 out of memory. */
int gf_plan_init(gf_plan *p, int k, int rows, const uint8_t *coef);
void gf_plan_free(gf_plan *p);

/* ---- the kernels ------------------------------------------------------------------------ */
typedef void gf_encode_fn(const gf_plan *p, const uint8_t *const *in, uint8_t *const *out,
                          size_t off, size_t len);

/* The SIMD kernels exist where the compiler's target has their instructions: x86's three, or
 * ARM's one (the other files compile to nothing; main.c's table says "not on this CPU"). */
#if defined(__x86_64__) || defined(__i386__)
#define GF_X86 1
#endif
#if defined(__aarch64__) && defined(__ARM_NEON)
#define GF_NEON 1
#endif

gf_encode_fn encode_table;         /* gf256.c: log/exp tables, one byte at a time */
gf_encode_fn encode_split_avx2;    /* split_avx2.c: 4-bit tables + PSHUFB, 32 bytes (x86) */
gf_encode_fn encode_split_avx512;  /* split_avx512.c: the same, 64 bytes, VPTERNLOG (x86) */
gf_encode_fn encode_gfni;          /* gfni.c: GF2P8AFFINEQB with per-coefficient matrices (x86) */
gf_encode_fn encode_split_neon;    /* split_neon.c: 4-bit tables + TBL, 16 bytes (AArch64) */

#endif

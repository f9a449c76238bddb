/* reference.h: the harness's own GF(2^8) arithmetic, independent of the kernels.
 *
 * Multiplication here is the schoolbook shift-and-XOR loop, with nothing shared with
 * gf256.c (whose tables are part of the lesson, and of the exercise): the checks and the
 * Cauchy matrix must stay right when a student's field is wrong.
 */
#ifndef GF_REFERENCE_H
#define GF_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

void ref_init(void);                     /* the 256 x 256 product table */
uint8_t ref_mul(uint8_t a, uint8_t b);
uint8_t ref_inv(uint8_t a);              /* a != 0 */

/* out[i] = XOR_j coef[i*k + j] * in[j], for i < rows, over len bytes. */
void ref_encode(int k, int rows, const uint8_t *coef, const uint8_t *const *in,
                uint8_t *const *out, size_t len);

/* The m x k Cauchy matrix c[i][j] = 1 / (x_i + y_j) with x_i = k + i and y_j = j
 * (the same matrix as ISA-L's gf_gen_cauchy1_matrix). Needs k + m <= 256. */
void cauchy_matrix(int k, int m, uint8_t *c);

#endif

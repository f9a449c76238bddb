/* common/bf16.h: BF16 numbers as the harness makes them, for the CPU's (14) and the GPU's (12)
 * BF16 backends alike: a float rounded to BF16 to nearest, ties to even, as
 * __float2bfloat16_rn and VCVTNE2PS2BF16 do (NaN stays NaN), and back. */
#ifndef GEMM_BF16_H
#define GEMM_BF16_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t bf16_round_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN stays NaN (rounding could carry it to Inf) */
        return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u); /* round half to even on the 16 bits dropped */
    return (uint16_t)(u >> 16);
}

static inline float bf16_bits_to_float(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* X's n floats (a matrix with its padding) rounded to BF16: the bits in x16, their values as
 * floats in xr (what the check multiplies, so that it sees exactly what the unit does). */
static inline void bf16_round_all(const float *X, size_t n, uint16_t *x16, float *xr)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        x16[i] = bf16_round_bits(X[i]);
        xr[i] = bf16_bits_to_float(x16[i]);
    }
}

#endif

#include "matrix.h"

#include <stdlib.h>
#include <string.h>

size_t matrix_bytes(int rows, int ld)
{
    if (rows <= 0 || ld <= 0)
        return 0;
    size_t n = (size_t)rows;
    if ((size_t)ld > SIZE_MAX / n / sizeof(float))
        return 0;
    return n * (size_t)ld * sizeof(float);
}

float *matrix_alloc(int rows, int ld)
{
    size_t bytes = matrix_bytes(rows, ld);
    if (bytes == 0)
        return NULL;
    bytes = (bytes + 63) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
    return aligned_alloc(64, bytes);
}

void matrix_free(float *p) { free(p); }

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void matrix_fill_random(float *p, int rows, int cols, int ld, uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            /* 24 random bits -> [-1, 1): exactly representable floats */
            uint32_t r = (uint32_t)(splitmix64(&s) >> 40);
            p[(size_t)i * ld + j] = (float)r * (2.0f / 16777216.0f) - 1.0f;
        }
}

void matrix_fill(float *p, int rows, int ld, float v)
{
    size_t n = (size_t)rows * (size_t)ld;
    for (size_t i = 0; i < n; i++)
        p[i] = v;
}

void matrix_copy(float *dst, const float *src, int rows, int ld)
{
    memcpy(dst, src, (size_t)rows * (size_t)ld * sizeof(float));
}

#include "matrix.h"

#include <stdio.h>
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

uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Big matrices (a multi-GPU run fills 64 GiB ones) are filled by all threads. splitmix64 is a
 * counter: the e-th value is mix(seed + (e+1)*gamma), so each row starts from its own offset
 * and the result is the same, value for value, as one thread filling in order. */
#define PARALLEL_ABOVE (1 << 22) /* elements; below this, threads cost more than they save */
#define GAMMA 0x9E3779B97F4A7C15ull

void matrix_fill_random(float *p, int rows, int cols, int ld, uint64_t seed)
{
#pragma omp parallel for schedule(static) if ((double)rows * cols > PARALLEL_ABOVE)
    for (int i = 0; i < rows; i++) {
        uint64_t s = seed + (uint64_t)i * (uint64_t)cols * GAMMA;
        for (int j = 0; j < cols; j++) {
            /* 24 random bits -> [-1, 1): exactly representable floats */
            uint32_t r = (uint32_t)(splitmix64(&s) >> 40);
            p[(size_t)i * ld + j] = (float)r * (2.0f / 16777216.0f) - 1.0f;
        }
    }
}

void matrix_fill(float *p, int rows, int ld, float v)
{
    long n = (long)rows * ld;
#pragma omp parallel for schedule(static) if (n > PARALLEL_ABOVE)
    for (long i = 0; i < n; i++)
        p[i] = v;
}

void matrix_copy(float *dst, const float *src, int rows, int ld)
{
    long n = (long)rows * ld, chunk = 1 << 20;
#pragma omp parallel for schedule(static) if (n > PARALLEL_ABOVE)
    for (long i = 0; i < n; i += chunk)
        memcpy(dst + i, src + i, sizeof(float) * (size_t)(n - i < chunk ? n - i : chunk));
}

float *matrix_scratch(float **buf, size_t *cap, size_t floats, const char *what)
{
    if (floats > *cap) {
        free(*buf);
        *buf = aligned_alloc(64, (floats * sizeof(float) + 63) / 64 * 64);
        if (!*buf) {
            fprintf(stderr, "%s: cannot allocate %.1f MiB\n", what,
                    (double)floats * sizeof(float) / 1048576.0);
            abort();
        }
        *cap = floats;
    }
    return *buf;
}

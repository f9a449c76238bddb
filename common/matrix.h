/* matrix.h: 64-byte-aligned, overflow-checked buffers and the fills the harness uses. */
#ifndef MATRIX_H
#define MATRIX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of a rows x ld float matrix, or 0 if that overflows size_t. */
size_t matrix_bytes(int rows, int ld);

/* 64-byte-aligned allocation of rows*ld floats; NULL if it overflows or fails.
 * Free with matrix_free. */
float *matrix_alloc(int rows, int ld);
void matrix_free(float *p);

/* The next value of the splitmix64 sequence at *state: the generator behind the fills. */
uint64_t splitmix64(uint64_t *state);
/* Deterministic uniform values in [-1, 1) from a 64-bit seed (splitmix64). */
void matrix_fill_random(float *p, int rows, int cols, int ld, uint64_t seed);
/* Every element (padding included) set to v: NaN poisons unwritten output. */
void matrix_fill(float *p, int rows, int ld, float v);
void matrix_copy(float *dst, const float *src, int rows, int ld);

/* A scratch buffer of at least `floats` floats, 64-byte aligned, that the caller keeps between
 * calls in *buf / *cap (thread-local statics: a large malloc per call would pay page faults on
 * fresh memory every time). It grows when asked for more; if that fails it prints
 * "<what>: cannot allocate N MiB" and aborts (a kernel has no way to return an error). */
float *matrix_scratch(float **buf, size_t *cap, size_t floats, const char *what);

#ifdef __cplusplus
}
#endif

#endif

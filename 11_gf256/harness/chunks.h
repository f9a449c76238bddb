/* chunks.h: the byte chunks a code works on, and running a kernel (or ISA-L) over them on
 * several threads (chunks.c). */
#ifndef GF_CHUNKS_H
#define GF_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "../gf256.h"

/* n chunks of len bytes, each starting `offset` bytes past a 64-byte boundary, with guards: 64
 * bytes or more of a pattern before and after each, so that a kernel that writes past a chunk
 * (or before it) is caught, not let off by the slack of an aligned allocation. Under
 * AddressSanitizer the guards are poisoned instead: a read or write of one stops the run. */
typedef struct chunks {
    uint8_t *ptr[GF_MAX_CHUNKS];
    void *base[GF_MAX_CHUNKS];
    int n, offset;
    size_t len;
} chunks;

/* Allocate (cli_die when that fails) and free. */
void chunks_alloc(chunks *c, int n, size_t len, int offset);
void chunks_free(chunks *c);

/* 1 when the guards of c's chunks are whole; else 0, and which byte was written, in `where`. */
int chunks_guards_whole(const chunks *c, char *where, size_t wl);
/* A hash of the first n chunks' bytes: an input a kernel must leave alone, before and after. */
uint64_t chunks_hash(const chunks *c, int n);

/* 1 when the first n chunks of a and b hold the same len bytes; else 0, and where the first
 * difference is, in `where`. */
int chunks_same(const chunks *a, const chunks *b, int n, size_t len, char *where, size_t wl);

/* Poison: the first n chunks of out get the complement of want's bytes, so that a byte a
 * kernel leaves unwritten fails the check. */
void chunks_poison(chunks *out, const chunks *want, int n, size_t len);

/* n random bytes, the same for the same seed. */
void fill_random(uint8_t *p, size_t n, uint64_t seed);

/* out = the plan's matrix times in, over len bytes of every chunk, by kernel fn; with several
 * threads each encodes its own stretch of every chunk, cut at multiples of 64 bytes so that no
 * two threads share a cache line of output. */
void run_cpu(gf_encode_fn *fn, const gf_plan *p, const uint8_t *const *in, uint8_t *const *out,
             size_t len, int threads);

/* The same product by ISA-L's ec_encode_data, with its tables for the k x m matrix, the same
 * split over threads. */
void run_isal(int k, int m, unsigned char *tables, const uint8_t *const *in, uint8_t *const *out,
              size_t len, int threads);

#endif

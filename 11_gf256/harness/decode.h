/* decode.h: the decode check (decode.c): erase chunks, invert the survivors' matrix, rebuild the
 * lost chunks with the variant's own kernel. */
#ifndef GF_DECODE_H
#define GF_DECODE_H

#include <stdint.h>

#include "options.h"
#include "report.h"
#include "run.h"

/* The erased sets to test for this length: each a sorted list of chunk indices. */
typedef struct patterns {
    int (*set)[GF_MAX_CHUNKS];
    int n, size;
} patterns;

/* The sets for this length (none with --no-check or --erasures none); free(P->set) after. */
void make_patterns(const options *o, uint64_t seed, patterns *P);

/* Decode: for each erased set, take the first k surviving chunks, invert their k x k
 * block of the generator [I; Cauchy], and rebuild every erased chunk with the variant's
 * own kernel. Returns "PASS", "FAIL" or "-". */
const char *check_decode(ctx *c, const variant *v, const patterns *P, char *why, size_t wl);

#endif

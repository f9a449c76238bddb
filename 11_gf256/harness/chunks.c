/* chunks.c: the byte chunks and the runs over threads (chunks.h). */
#include "chunks.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "isal.h"
#include "matrix.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define GUARDS_POISONED 1
#else
#define GUARDS_POISONED 0
#define ASAN_POISON_MEMORY_REGION(a, n) ((void)(a), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(a, n) ((void)(a), (void)(n))
#endif

enum { GUARD = 64 }; /* bytes: a multiple of 64, so that a chunk keeps its offset */

/* The guard byte at distance d from the chunk (d < 0 before it): a pattern, not one value, so
 * that a kernel that writes a byte of the pattern past the end is unlikely to write them all. */
static uint8_t guard_byte(long d) { return (uint8_t)(0xA5 ^ (uint8_t)(d * 37)); }

/* The bytes of chunk i's allocation: the guard and the offset before it, the guard after it,
 * rounded up to 64 */
static size_t chunk_bytes(const chunks *c) { return (GUARD + c->offset + c->len + GUARD + 63) / 64 * 64; }

void chunks_alloc(chunks *c, int n, size_t len, int offset)
{
    c->n = n;
    c->len = len;
    c->offset = offset;
    const size_t bytes = chunk_bytes(c);
    for (int i = 0; i < n; i++) {
        c->base[i] = aligned_alloc(64, bytes);
        if (!c->base[i])
            cli_die("cannot allocate %d chunks of %zu bytes (%.1f GiB)", n, len,
                    (double)n * len / 1073741824.0);
        uint8_t *b = c->base[i];
        c->ptr[i] = b + GUARD + offset;
        const size_t before = GUARD + (size_t)offset, after = bytes - before - len;
        for (size_t t = 0; t < before; t++)
            b[t] = guard_byte(-(long)(before - t));
        for (size_t t = 0; t < after; t++)
            c->ptr[i][len + t] = guard_byte((long)t + 1);
        ASAN_POISON_MEMORY_REGION(b, before);
        ASAN_POISON_MEMORY_REGION(c->ptr[i] + len, after);
    }
}

void chunks_free(chunks *c)
{
    for (int i = 0; i < c->n; i++) {
        ASAN_UNPOISON_MEMORY_REGION(c->base[i], chunk_bytes(c));
        free(c->base[i]);
    }
    c->n = 0;
}

int chunks_guards_whole(const chunks *c, char *where, size_t wl)
{
    if (GUARDS_POISONED) /* (the sanitizer has stopped any run that touched them) */
        return 1;
    const size_t before = GUARD + (size_t)c->offset, after = chunk_bytes(c) - before - c->len;
    for (int i = 0; i < c->n; i++) {
        const uint8_t *b = c->base[i];
        for (size_t t = 0; t < after; t++)
            if (c->ptr[i][c->len + t] != guard_byte((long)t + 1)) {
                snprintf(where, wl, "row %d: byte %zu, %zu past the chunk's end, written (%02x)",
                         i, c->len + t, t + 1, c->ptr[i][c->len + t]);
                return 0;
            }
        for (size_t t = before; t-- > 0;)
            if (b[t] != guard_byte(-(long)(before - t))) {
                snprintf(where, wl, "row %d: byte %zu before the chunk's start written (%02x)", i,
                         before - t, b[t]);
                return 0;
            }
    }
    return 1;
}

uint64_t chunks_hash(const chunks *c, int n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < n; i++) {
        size_t b = 0;
        for (uint64_t w; b + 8 <= c->len; b += 8) {
            memcpy(&w, c->ptr[i] + b, 8);
            h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        }
        for (; b < c->len; b++)
            h = (h ^ c->ptr[i][b]) * 0xBF58476D1CE4E5B9ull;
    }
    return h;
}

int chunks_same(const chunks *a, const chunks *b, int n, size_t len, char *where, size_t wl)
{
    for (int i = 0; i < n; i++)
        if (memcmp(a->ptr[i], b->ptr[i], len) != 0) {
            size_t t = 0;
            while (a->ptr[i][t] == b->ptr[i][t])
                t++;
            snprintf(where, wl, "row %d byte %zu: %02x, want %02x", i, t, a->ptr[i][t],
                     b->ptr[i][t]);
            return 0;
        }
    return 1;
}


void chunks_poison(chunks *out, const chunks *want, int n, size_t len)
{
    for (int i = 0; i < n; i++)
        for (size_t b = 0; b < len; b++)
            out->ptr[i][b] = (uint8_t)~want->ptr[i][b];
}

void fill_random(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t r = splitmix64(&s);
        memcpy(p + i, &r, 8);
    }
    if (i < n) {
        uint64_t r = splitmix64(&s);
        memcpy(p + i, &r, n - i);
    }
}

void run_cpu(gf_encode_fn *fn, const gf_plan *p, const uint8_t *const *in, uint8_t *const *out,
             size_t len, int threads)
{
    if (threads <= 1 || len < 4096) {
        fn(p, in, out, 0, len);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), n = omp_get_num_threads();
        size_t per = ((len + (size_t)n - 1) / (size_t)n + 63) / 64 * 64, b = per * (size_t)t;
        size_t e = b + per < len ? b + per : len;
        if (b < e)
            fn(p, in, out, b, e - b);
    }
}

void run_isal(int k, int m, unsigned char *tables, const uint8_t *const *in, uint8_t *const *out,
              size_t len, int threads)
{
    if (threads <= 1 || len < 4096) {
        isal_encode_data((int)len, k, m, tables, (unsigned char **)in, (unsigned char **)out);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), n = omp_get_num_threads();
        size_t per = ((len + (size_t)n - 1) / (size_t)n + 63) / 64 * 64, b = per * (size_t)t;
        size_t e = b + per < len ? b + per : len;
        unsigned char *src[GF_MAX_CHUNKS], *dst[GF_MAX_CHUNKS];
        for (int j = 0; j < k; j++)
            src[j] = (unsigned char *)in[j] + b;
        for (int i = 0; i < m; i++)
            dst[i] = out[i] + b;
        if (b < e)
            isal_encode_data((int)(e - b), k, m, tables, src, dst);
    }
}

/* chunks.c: the byte chunks and the runs over threads (chunks.h). */
#include "chunks.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "isal.h"
#include "matrix.h"

void chunks_alloc(chunks *c, int n, size_t len, int offset)
{
    c->n = n;
    for (int i = 0; i < n; i++) {
        c->base[i] = aligned_alloc(64, (len + offset + 63) / 64 * 64);
        if (!c->base[i])
            cli_die("cannot allocate %d chunks of %zu bytes (%.1f GiB)", n, len,
                    (double)n * len / 1073741824.0);
        c->ptr[i] = (uint8_t *)c->base[i] + offset;
    }
}

void chunks_free(chunks *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->base[i]);
    c->n = 0;
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

/* decode.c: the erasure patterns and the decode check (decode.h). */
#include "decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "cli.h"
#include "gpu.h"
#include "matrix.h"

void make_patterns(const options *o, uint64_t seed, patterns *P)
{
    int n = o->k + o->m;
    P->n = 0;
    P->set = NULL;
    if (o->erase_mode == ERASE_NONE || !o->run.check)
        return;
    double count = 1; /* every m-subset of n, or one set */
    for (int i = 0; i < o->m && o->erase_mode == ERASE_ALL; i++)
        count = count * (n - i) / (i + 1);
    P->set = malloc(sizeof *P->set * (size_t)(count + 0.5));
    if (!P->set)
        cli_die("out of memory");
    P->size = o->erase_mode == ERASE_LIST ? o->nerase : o->m;
    int idx[GF_MAX_CHUNKS];
    for (int i = 0; i < n; i++)
        idx[i] = i;
    if (o->erase_mode == ERASE_LIST) {
        memcpy(idx, o->erase_list, sizeof(int) * (size_t)o->nerase);
    } else if (o->erase_mode == ERASE_RANDOM) { /* m distinct chunks, data and parity alike */
        uint64_t s = seed;
        for (int i = 0; i < o->m; i++) {
            int r = i + (int)(splitmix64(&s) % (uint64_t)(n - i));
            int t = idx[i]; idx[i] = idx[r]; idx[r] = t;
        }
        for (int i = 0; i < o->m; i++) /* sorted */
            for (int j = i + 1; j < o->m; j++)
                if (idx[j] < idx[i]) {
                    int t = idx[i]; idx[i] = idx[j]; idx[j] = t;
                }
    }
    for (;;) { /* every m-subset in lexicographic order (one set unless --erasures all) */
        memcpy(P->set[P->n++], idx, sizeof(int) * (size_t)P->size);
        int i = o->m - 1;
        while (i >= 0 && idx[i] == n - o->m + i)
            i--;
        if (i < 0 || o->erase_mode != ERASE_ALL)
            break;
        idx[i]++;
        for (int j = i + 1; j < o->m; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

/* Run variant v on plan p (CPU or GPU). Returns 0, or -1 with err set (GPU trouble). */
static int run_variant(ctx *c, const variant *v, const gf_plan *p, const uint8_t *const *in,
                       uint8_t *const *out, char *err, size_t errlen)
{
    if (v->fn) {
        run_cpu(v->fn, p, in, out, c->len, c->threads);
        return 0;
    }
    char shape[160];
    return gf_gpu_encode((enum gf_gpu_kernel)v->gpu, &c->field, p->k, p->rows, p->coef, in, out,
                         c->len, NULL, NULL, NULL, shape, sizeof shape, err, errlen);
}

/* Decode: for each erased set, take the first k surviving chunks, invert their k x k
 * block of the generator [I; Cauchy], and rebuild every erased chunk with the variant's
 * own kernel. Returns "PASS", "FAIL" or "-". */
const char *check_decode(ctx *c, const variant *v, const patterns *P, char *why,
                                size_t wl)
{
    const options *o = c->o;
    const int k = o->k, n = k + o->m;
    if (P->n == 0)
        return "-";
    uint8_t *B = malloc((size_t)k * k), *Binv = malloc((size_t)k * k),
            *R = malloc((size_t)P->size * k);
    if (!B || !Binv || !R)
        cli_die("out of memory");
    const char *result = "PASS";
    for (int t = 0; t < P->n && !strcmp(result, "PASS"); t++) {
        const int *er = P->set[t];
        int erased[GF_MAX_CHUNKS] = {0}, surv[GF_MAX_CHUNKS], ns = 0;
        for (int i = 0; i < P->size; i++)
            erased[er[i]] = 1;
        for (int i = 0; i < n && ns < k; i++)
            if (!erased[i])
                surv[ns++] = i;
        const uint8_t *src[GF_MAX_CHUNKS];
        for (int s = 0; s < k; s++) { /* row s of B: the generator row of survivor s */
            int g = surv[s];
            for (int j = 0; j < k; j++)
                B[s * k + j] = g < k ? (uint8_t)(g == j) : c->cauchy[(g - k) * k + j];
            src[s] = g < k ? c->data.ptr[g] : c->parity.ptr[g - k];
        }
        if (gf256_invert_matrix(B, Binv, k) != 0) {
            snprintf(why, wl, "erasing pattern %d: the survivors' matrix is singular", t);
            result = "FAIL";
            break;
        }
        /* data chunk e: row e of B^-1; parity chunk e: its Cauchy row times B^-1 */
        for (int i = 0; i < P->size; i++) {
            int e = er[i];
            for (int j = 0; j < k; j++) {
                if (e < k) {
                    R[i * k + j] = Binv[e * k + j];
                } else {
                    uint8_t s = 0;
                    for (int l = 0; l < k; l++)
                        s ^= gf256_mul(c->cauchy[(e - k) * k + l], Binv[l * k + j]);
                    R[i * k + j] = s;
                }
            }
        }
        gf_plan plan;
        if (gf_plan_init(&plan, k, P->size, R) != 0)
            cli_die("out of memory");
        for (int i = 0; i < P->size; i++) /* poison: the complement of the right answer */
            for (size_t b = 0; b < c->len; b++) {
                int e = er[i];
                c->rebuilt.ptr[i][b] = (uint8_t)~(e < k ? c->data.ptr[e][b] : c->parity.ptr[e - k][b]);
            }
        char err[200];
        if (run_variant(c, v, &plan, src, c->rebuilt.ptr, err, sizeof err) != 0) {
            snprintf(why, wl, "decode: %s", err);
            result = "FAIL";
        }
        for (int i = 0; i < P->size && !strcmp(result, "PASS"); i++) {
            int e = er[i];
            const uint8_t *want = e < k ? c->data.ptr[e] : c->parity.ptr[e - k];
            if (memcmp(c->rebuilt.ptr[i], want, c->len) != 0) {
                size_t b = 0;
                while (c->rebuilt.ptr[i][b] == want[b])
                    b++;
                snprintf(why, wl, "decode: chunk %d rebuilt wrong at byte %zu (erased:", e, b);
                for (int q = 0; q < P->size; q++)
                    snprintf(why + strlen(why), wl - strlen(why), " %d", er[q]);
                snprintf(why + strlen(why), wl - strlen(why), ")");
                result = "FAIL";
            }
        }
        gf_plan_free(&plan);
    }
    free(B);
    free(Binv);
    free(R);
    return result;
}

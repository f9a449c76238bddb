/* todo.c: --todo, each function of the exercise checked alone (todo.h). */
#include "todo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "cli.h"
#include "csv.h"
#include "matrix.h"
#include "reference.h"
#include "sysinfo.h"

typedef struct result {
    int checks, passed;
    char why[240]; /* the first failure */
} result;

/* One check: counted, and the first that fails explained. */
static void verdict(result *r, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void verdict(result *r, int ok, const char *fmt, ...)
{
    r->checks++;
    r->passed += ok;
    if (ok || r->why[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
}

/* The field's tables as they must be, from the harness's own products: what every TODO but the
 * first is checked with, so that a wrong gf256_init fails TODO 1 alone. */
static uint8_t ref_exp[512], ref_log[256];

static void install_tables(void)
{
    memcpy(gf256_exp, ref_exp, sizeof ref_exp);
    memcpy(gf256_log, ref_log, sizeof ref_log);
}

static void todo_init(result *r)
{
    memset(gf256_exp, 0, sizeof gf256_exp);
    memset(gf256_log, 0, sizeof gf256_log);
    gf256_init();
    for (int i = 0; i < 255; i++) { /* one check a power: exp[i], exp[i + 255], log[2^i] */
        const uint8_t x = ref_exp[i];
        if (gf256_exp[i] != x)
            verdict(r, 0, "gf256_exp[%d] = %02x, want %02x (2^%d)", i, gf256_exp[i], x, i);
        else if (gf256_exp[i + 255] != x)
            verdict(r, 0, "gf256_exp[%d] = %02x, want %02x (2^%d = 2^%d: the second copy)",
                    i + 255, gf256_exp[i + 255], x, i + 255, i);
        else
            verdict(r, gf256_log[x] == i, "gf256_log[%02x] = %d, want %d", x, gf256_log[x], i);
    }
}

static void todo_mul(result *r)
{
    for (int a = 0; a < 256; a++) {
        int b = 0;
        while (b < 256 && gf256_mul((uint8_t)a, (uint8_t)b) == ref_mul((uint8_t)a, (uint8_t)b))
            b++;
        verdict(r, b == 256, "gf256_mul(%02x, %02x) = %02x, want %02x", a, b & 255,
                gf256_mul((uint8_t)a, (uint8_t)b), ref_mul((uint8_t)a, (uint8_t)b));
    }
}

static void todo_inv(result *r)
{
    for (int a = 1; a < 256; a++)
        verdict(r, gf256_inv((uint8_t)a) == ref_inv((uint8_t)a), "gf256_inv(%02x) = %02x, want %02x",
                a, gf256_inv((uint8_t)a), ref_inv((uint8_t)a));
}

/* n x n matrices in buffers of exactly n*n bytes (a write past one is the sanitizer's to see) */
static int ref_rank(const uint8_t *a, int n)
{
    uint8_t *t = malloc((size_t)n * n);
    if (!t)
        cli_die("out of memory");
    memcpy(t, a, (size_t)n * n);
    int rank = 0;
    for (int col = 0; col < n && rank < n; col++) {
        int p = rank;
        while (p < n && t[p * n + col] == 0)
            p++;
        if (p == n)
            continue;
        for (int j = 0; j < n; j++) {
            uint8_t x = t[rank * n + j]; t[rank * n + j] = t[p * n + j]; t[p * n + j] = x;
        }
        const uint8_t s = ref_inv(t[rank * n + col]);
        for (int j = 0; j < n; j++)
            t[rank * n + j] = ref_mul(t[rank * n + j], s);
        for (int q = 0; q < n; q++)
            if (q != rank && t[q * n + col])
                for (int j = 0, f = t[q * n + col]; j < n; j++)
                    t[q * n + j] ^= ref_mul((uint8_t)f, t[rank * n + j]);
        rank++;
    }
    free(t);
    return rank;
}

/* One matrix: gf256_invert_matrix on a copy; an invertible one must give 0 and a * inv = I, a
 * singular one -1. */
static void invert_case(result *r, const uint8_t *a, int n, const char *what)
{
    uint8_t *work = malloc((size_t)n * n), *inv = malloc((size_t)n * n);
    if (!work || !inv)
        cli_die("out of memory");
    memcpy(work, a, (size_t)n * n);
    memset(inv, 0, (size_t)n * n);
    const int invertible = ref_rank(a, n) == n, rc = gf256_invert_matrix(work, inv, n);
    if (!invertible) {
        verdict(r, rc == -1, "%dx%d %s: returned %d, want -1 (singular)", n, n, what, rc);
    } else if (rc != 0) {
        verdict(r, 0, "%dx%d %s: returned %d, want 0 (it is invertible)", n, n, what, rc);
    } else {
        int bi = -1, bj = -1;
        uint8_t got = 0;
        for (int i = 0; i < n && bi < 0; i++)
            for (int j = 0; j < n; j++) {
                uint8_t s = 0;
                for (int l = 0; l < n; l++)
                    s ^= ref_mul(a[i * n + l], inv[l * n + j]);
                if (s != (i == j)) {
                    bi = i, bj = j, got = s;
                    break;
                }
            }
        verdict(r, bi < 0, "%dx%d %s: a * inv has %02x at (%d,%d), want %d", n, n, what, got, bi,
                bj, bi == bj);
    }
    free(work);
    free(inv);
}

static void todo_invert(result *r)
{
    static const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 12, 16};
    uint64_t seed = 4;
    uint8_t a[256];
    char what[64];
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int t = 0; t < 2; t++) { /* random invertible matrices */
            const int n = sizes[s];
            do
                for (int i = 0; i < n * n; i++)
                    a[i] = (uint8_t)splitmix64(&seed);
            while (ref_rank(a, n) < n);
            snprintf(what, sizeof what, "random matrix %d", t + 1);
            invert_case(r, a, n, what);
        }
    do /* the first pivot is zero: a row swap is needed */
        for (int i = 0; i < 9; i++)
            a[i] = i == 0 ? 0 : (uint8_t)splitmix64(&seed);
    while (ref_rank(a, 3) < 3);
    invert_case(r, a, 3, "matrix with a zero first pivot");
    a[0] = 0;
    invert_case(r, a, 1, "zero matrix");
    for (int i = 0; i < 16; i++)
        a[i] = (uint8_t)(splitmix64(&seed) | 1);
    memcpy(a + 8, a, 4); /* row 2 = row 0 */
    invert_case(r, a, 4, "matrix with two equal rows");
    for (int i = 0; i < 25; i++)
        a[i] = i % 5 == 2 ? 0 : (uint8_t)(splitmix64(&seed) | 1);
    invert_case(r, a, 5, "matrix with a zero column");
    for (int j = 0; j < 3; j++) /* row 2 = row 0 + row 1 (XOR) */
        a[6 + j] = a[j] ^ a[3 + j];
    invert_case(r, a, 3, "matrix whose third row is the sum of the others");
}

static void todo_split(result *r)
{
    uint8_t *lo = malloc(16), *hi = malloc(16);
    if (!lo || !hi)
        cli_die("out of memory");
    for (int c = 0; c < 256; c++) {
        memset(lo, 0xEE, 16);
        memset(hi, 0xEE, 16);
        gf256_split_tables((uint8_t)c, lo, hi);
        int x = 0;
        while (x < 16 && lo[x] == ref_mul((uint8_t)c, (uint8_t)x) &&
               hi[x] == ref_mul((uint8_t)c, (uint8_t)(x << 4)))
            x++;
        if (x < 16 && lo[x] != ref_mul((uint8_t)c, (uint8_t)x))
            verdict(r, 0, "c = %02x: lo[%d] = %02x, want %02x (c * %02x)", c, x, lo[x],
                    ref_mul((uint8_t)c, (uint8_t)x), x);
        else
            verdict(r, x == 16, "c = %02x: hi[%d] = %02x, want %02x (c * %02x)", c, x & 15,
                    hi[x & 15], ref_mul((uint8_t)c, (uint8_t)(x << 4)), (x & 15) << 4);
    }
    free(lo);
    free(hi);
}

/* What gf2p8affineqb computes for one byte: output bit r is the parity of byte 7-r of m AND x. */
static uint8_t affine(uint64_t m, uint8_t x)
{
    uint8_t y = 0;
    for (int r = 0; r < 8; r++)
        y |= (uint8_t)(__builtin_parity((unsigned)((m >> (8 * (7 - r))) & 0xFF & x)) << r);
    return y;
}

static void todo_affine(result *r)
{
    for (int c = 0; c < 256; c++) {
        const uint64_t m = gf256_affine_matrix((uint8_t)c);
        int x = 0;
        while (x < 256 && affine(m, (uint8_t)x) == ref_mul((uint8_t)c, (uint8_t)x))
            x++;
        verdict(r, x == 256, "c = %02x: its matrix %016llx maps %02x to %02x, want %02x", c,
                (unsigned long long)m, x & 255, affine(m, (uint8_t)x), ref_mul((uint8_t)c, (uint8_t)x));
    }
}

/* encode_table on RS(k, rows), bytes [off, off + len) of chunks off + len + tail bytes long
 * that start `align` bytes past a 64-byte boundary: those bytes right, every other byte of the
 * output as it was, the guards whole, the inputs unchanged. */
static void encode_case(result *r, int k, int rows, size_t off, size_t len, size_t tail, int align,
                        uint64_t seed)
{
    const size_t total = off + len + tail;
    chunks in, out, want;
    chunks_alloc(&in, k, total, align);
    chunks_alloc(&out, rows, total, align);
    chunks_alloc(&want, rows, total, align);
    for (int j = 0; j < k; j++)
        fill_random(in.ptr[j], total, seed + (uint64_t)j);
    /* the plan: coefficients with zeros and ones among them, tables from the harness's products */
    gf_plan p = {k, rows, malloc((size_t)k * rows), aligned_alloc(64, 64 * ((size_t)k * rows / 2 + 1)),
                 aligned_alloc(64, 64 * ((size_t)k * rows / 8 + 1))};
    if (!p.coef || !p.nib || !p.affine)
        cli_die("out of memory");
    uint64_t s = seed ^ 0x5EED;
    for (int t = 0; t < k * rows; t++) {
        p.coef[t] = t % 5 == 3 ? 0 : t % 7 == 4 ? 1 : (uint8_t)splitmix64(&s);
        for (int x = 0; x < 16; x++) {
            p.nib[32 * t + x] = ref_mul(p.coef[t], (uint8_t)x);
            p.nib[32 * t + 16 + x] = ref_mul(p.coef[t], (uint8_t)(x << 4));
        }
        uint64_t m = 0;
        for (int b = 0; b < 8; b++)
            for (int q = 0; q < 8; q++)
                if (ref_mul(p.coef[t], (uint8_t)(1u << b)) >> q & 1)
                    m |= (uint64_t)1 << (8 * (7 - q) + b);
        p.affine[t] = m;
    }
    ref_encode(k, rows, p.coef, (const uint8_t *const *)in.ptr, want.ptr, total);
    chunks_poison(&out, &want, rows, total); /* every byte wrong until written */
    const uint64_t in_hash = chunks_hash(&in, k);
    encode_table(&p, (const uint8_t *const *)in.ptr, out.ptr, off, len);

    char where[160] = "", code[64];
    snprintf(code, sizeof code, "RS(%d,%d) bytes [%zu, %zu)", k, rows, off, off + len);
    int ok = 1;
    for (int i = 0; i < rows && ok; i++)
        for (size_t b = 0; b < total && ok; b++) {
            const int inside = b >= off && b < off + len;
            const uint8_t w = inside ? want.ptr[i][b] : (uint8_t)~want.ptr[i][b];
            if (out.ptr[i][b] != w) {
                snprintf(where, sizeof where, inside ? "row %d byte %zu: %02x, want %02x"
                         : "row %d byte %zu, outside the bytes asked for, written (%02x, was %02x)",
                         i, b, out.ptr[i][b], w);
                ok = 0;
            }
        }
    if (ok && !chunks_guards_whole(&out, where, sizeof where))
        ok = 0;
    if (ok && chunks_hash(&in, k) != in_hash) {
        snprintf(where, sizeof where, "an input chunk was written");
        ok = 0;
    }
    verdict(r, ok, "%s: %s", code, where);
    free(p.coef);
    free(p.nib);
    free(p.affine);
    chunks_free(&in);
    chunks_free(&out);
    chunks_free(&want);
}

static void todo_encode(result *r)
{
    static const struct { int k, rows; size_t off, len, tail; int align; } cases[] = {
        {1, 1, 0, 1, 0, 0},     {4, 3, 0, 1, 0, 0},    {4, 3, 0, 7, 0, 0},
        {4, 3, 0, 33, 0, 5},    {4, 3, 0, 4097, 0, 0}, {10, 4, 0, 63, 0, 0},
        {10, 4, 0, 65, 0, 3},   {20, 7, 0, 3000, 0, 5}, {3, 5, 0, 8193, 0, 0},
        {4, 3, 37, 100, 63, 0}, {6, 2, 4096, 4100, 7, 1}, {4, 3, 10, 0, 10, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        encode_case(r, cases[c].k, cases[c].rows, cases[c].off, cases[c].len, cases[c].tail,
                    cases[c].align, 1000 + c);
}

static const struct {
    const char *fn, *variants;
    void (*check)(result *r);
} todos[TODO_COUNT] = {
    {"gf256_init", "table gpu_tables (their log and exp tables)", todo_init},
    {"gf256_mul", "decode of every variant; gpu_rect", todo_mul},
    {"gf256_inv", "decode of every variant", todo_inv},
    {"gf256_invert_matrix", "decode of every variant", todo_invert},
    {"gf256_split_tables", "split_avx2 split_tables", todo_split},
    {"gf256_affine_matrix", "gfni gpu_affine", todo_affine},
    {"encode_table", "table", todo_encode},
};

/* After a failure of a TODO that may call gf256_mul or gf256_inv: whether those are right. */
static const char *callee_note(int t)
{
    if (t < 3)
        return "";
    result m = {0}, i = {0};
    todo_mul(&m);
    if (t == 3) {
        todo_inv(&i);
        if (m.passed < m.checks || i.passed < i.checks)
            return " (it calls gf256_mul and gf256_inv: TODO 2 or 3 fails too)";
    } else if (m.passed < m.checks) {
        return " (if it calls gf256_mul: TODO 2 fails too)";
    }
    return "";
}

int todo_main(const options *o)
{
    struct csv_file *csv = o->run.csv ? cli_csv_open("--csv", o->run.csv, TODO_CSV_HEADER) : NULL;
    ref_init();
    for (int i = 0, x = 1; i < 255; i++) {
        ref_exp[i] = ref_exp[i + 255] = (uint8_t)x;
        ref_log[x] = (uint8_t)i;
        x = ref_mul((uint8_t)x, 2);
    }
    ref_exp[510] = ref_exp[0];
    ref_exp[511] = ref_exp[1];
    printf("== 11_gf256: the exercise's functions, each checked alone (--todo) ==\n");
    printf("%-10s %s\n%-10s %s (git %s)\n", "cpu", sysinfo_cpu_model(), "compiler",
           sysinfo_compiler(), sysinfo_git_rev());
    printf("%-10s against shift-and-XOR products; the harness's log and exp tables in place of "
           "gf256_init's\n%-10s for every TODO but the first\n\n", "check", "");
    printf("%-5s %-20s %-44s %6s %6s  %s\n", "TODO", "function", "what uses it", "checks",
           "passed", "check");
    int passed = 0, failed = 0;
    for (int t = 0; t < TODO_COUNT; t++) {
        if (!(o->todo >> t & 1))
            continue;
        result r = {0, 0, ""};
        if (t > 0)
            install_tables();
        todos[t].check(&r);
        const int ok = r.passed == r.checks;
        if (!ok)
            strncat(r.why, callee_note(t), sizeof r.why - strlen(r.why) - 1);
        printf("%-5d %-20s %-44s %6d %6d  %s\n", t + 1, todos[t].fn, todos[t].variants, r.checks,
               r.passed, ok ? "PASS" : "FAIL");
        if (!ok)
            printf("    %s\n", r.why);
        fflush(stdout);
        if (csv) {
            char why[260]; /* commas as semicolons, as --edges writes them (edges.h) */
            for (char *c = r.why; *c; c++)
                if (*c == ',')
                    *c = ';';
            csv_field(why, sizeof why, r.why);
            cli_csv_row(csv, "11_gf256,%d,%s,%s,%d,%d,%s,%s", t + 1, todos[t].fn,
                        todos[t].variants, r.checks, r.passed, ok ? "PASS" : "FAIL", why);
        }
        ok ? passed++ : failed++;
    }
    printf("\n%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    if (csv && cli_csv_close(csv) != 0)
        return 2;
    return failed ? 1 : 0;
}

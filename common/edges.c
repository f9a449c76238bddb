/* edges.c: the edge-case suite behind --edges (edges.h has the list of cases). */
#include "edges.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "csv.h"
#include "matrix.h"
#include "sysinfo.h"

#define PAD 3 /* leading dimensions 3 past the widths: padding a kernel must leave alone */

/* The shapes of the propagation cases: tiny, edge tiles of every micro-kernel and block (6x16,
 * 6x64, 64 x 64 blocks, 32 x 32 and 128 x 128 GPU tiles), and the 128 x 256 GPU tile with the
 * thin strips beside it. */
static const char *const default_shapes = "4x4x4,37x41x43,131x259x35";

const char *edges_csv;

typedef struct suite {
    const stage_info *st;
    const bench_backend *be;
    int passed, failed;
    struct csv_file *csv; /* --csv: the rows again, for a grader */
} suite;

/* One problem's host buffers, with room for a call of any size up to bm x bn x bk. */
typedef struct buffers {
    int bm, bn, bk, lda, ldb, ldc;
    float *A, *B, *C, *C0;
} buffers;

static buffers alloc_buffers(int bm, int bn, int bk)
{
    buffers b = {bm, bn, bk, bk + PAD, bn + PAD, bn + PAD, NULL, NULL, NULL, NULL};
    b.A = matrix_alloc(bm, b.lda);
    b.B = matrix_alloc(bk, b.ldb);
    b.C = matrix_alloc(bm, b.ldc);
    b.C0 = matrix_alloc(bm, b.ldc);
    if (!b.A || !b.B || !b.C || !b.C0)
        cli_die("--edges: out of memory");
    return b;
}

static void free_buffers(buffers *b)
{
    matrix_free(b->A);
    matrix_free(b->B);
    matrix_free(b->C);
    matrix_free(b->C0);
}

/* Random A, B and C0 in [-1, 1), padding -999; C = C0. */
static void fill_random(buffers *b, uint64_t seed)
{
    matrix_fill(b->A, b->bm, b->lda, -999.0f);
    matrix_fill(b->B, b->bk, b->ldb, -999.0f);
    matrix_fill(b->C0, b->bm, b->ldc, -999.0f);
    matrix_fill_random(b->A, b->bm, b->bk, b->lda, seed);
    matrix_fill_random(b->B, b->bk, b->bn, b->ldb, seed + 1);
    matrix_fill_random(b->C0, b->bm, b->bn, b->ldc, seed + 2);
}

/* C = C0, except NaN in the call's M x N when beta == 0 (so that reading C shows). */
static void prepare_c(buffers *b, int M, int N, float beta)
{
    matrix_copy(b->C, b->C0, b->bm, b->ldc);
    if (beta == 0.0f)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                b->C[IDX(i, j, b->ldc)] = NAN;
}

/* Variant v (NULL: the baseline) called with sizes M, N, K on b's buffers, through the
 * backend: C in, the call, C back. Returns 0, or 1 when the backend cannot set it up. */
static int call(suite *s, const gemm_variant *v, buffers *b, int M, int N, int K, float alpha,
                float beta)
{
    bench_problem p = {b->bm, b->bn, b->bk, b->lda, b->ldb, b->ldc, alpha, beta,
                       b->A,  b->B,  b->C,  NULL,   v};
    if (s->be->setup(&p) != 0)
        return 1;
    /* A backend that multiplies rounded inputs (BF16 copies) points p.A and p.B at what it
     * multiplies: the checks hold the result to those values. */
    if (p.A != b->A)
        memcpy(b->A, p.A, sizeof(float) * (size_t)b->bm * (size_t)b->lda);
    if (p.B != b->B)
        memcpy(b->B, p.B, sizeof(float) * (size_t)b->bk * (size_t)b->ldb);
    s->be->put_c(&p);
    p.M = M, p.N = N, p.K = K; /* the buffers are set up; the call may be smaller, or empty */
    s->be->run(&p, v ? v->fn : NULL);
    p.M = b->bm, p.N = b->bn, p.K = b->bk;
    s->be->get_c(&p);
    s->be->teardown(&p);
    return 0;
}

/* Text for a field of the CSV: commas as semicolons (the labels and reasons have commas, and no
 * semicolons of their own), line breaks as spaces. */
static void csv_text(char *dst, size_t len, const char *src)
{
    char semi[320];
    snprintf(semi, sizeof semi, "%s", src);
    for (char *c = semi; *c; c++)
        if (*c == ',')
            *c = ';';
    csv_field(dst, len, semi);
}

static void row(suite *s, const char *variant, const char *what, const char *shape, long line,
                long elsewhere, const char *why)
{
    char a[24] = "-", e[24] = "-";
    if (line >= 0)
        snprintf(a, sizeof a, "%ld", line);
    if (elsewhere >= 0)
        snprintf(e, sizeof e, "%ld", elsewhere);
    printf("%-16s %-40s %-12s %10s %10s  %s\n", variant, what, shape, a, e, why ? "FAIL" : "PASS");
    if (why)
        printf("    %s\n", why);
    fflush(stdout);
    if (s->csv) {
        char v[64], w[96], y[320];
        csv_text(v, sizeof v, variant);
        csv_text(w, sizeof w, what);
        csv_text(y, sizeof y, why ? why : "");
        cli_csv_row(s->csv, "%s,%s,%s,%s,%s,%s,%s,%s", s->st->stage, v, w, shape,
                    line >= 0 ? a : "", elsewhere >= 0 ? e : "", why ? "FAIL" : "PASS", y);
    }
    why ? s->failed++ : s->passed++;
}

static int same_bits(float x, float y) { return memcmp(&x, &y, sizeof x) == 0; }

/* ---- the BLAS rules ------------------------------------------------------------------------- */

/* After a call with sizes M x N that must leave C = beta*C0 (want_scaled) or C0 (else), bit for
 * bit, padding and rows past M included. Writes the first difference into why. */
static int check_scaled(const buffers *b, int M, int N, float beta, int want_scaled, char *why,
                        size_t len)
{
    for (int i = 0; i < b->bm; i++)
        for (int j = 0; j < b->ldc; j++) {
            float c0 = b->C0[IDX(i, j, b->ldc)], got = b->C[IDX(i, j, b->ldc)];
            int inside = want_scaled && i < M && j < N;
            float want = !inside ? c0 : beta == 0.0f ? 0.0f : beta * c0;
            if (inside && beta != 1.0f ? got == want : same_bits(got, want))
                continue;
            snprintf(why, len, "C(%d,%d) = %g, want %g%s", i, j, got, want,
                     j >= b->bn      ? ": padding written"
                     : !want_scaled ? ": C must be left alone"
                     : !inside      ? ": outside the call's C" : "");
            return 0;
        }
    return 1;
}

/* One rule case: the call, then C against beta*C0 or C0. A and B as the caller filled them. */
static void rule_case(suite *s, const gemm_variant *v, const char *name, buffers *b, int M, int N,
                      int K, float alpha, float beta, int want_scaled, const char *what)
{
    char shape[40], why[160], label[64];
    snprintf(shape, sizeof shape, "%dx%dx%d", M, N, K);
    snprintf(label, sizeof label, "%s, beta %g%s", what, beta,
             beta == 0.0f && want_scaled ? " (C NaN)" : "");
    prepare_c(b, want_scaled ? M : 0, want_scaled ? N : 0, beta);
    if (call(s, v, b, M, N, K, alpha, beta) != 0)
        row(s, name, label, shape, -1, -1, "the backend could not set this size up");
    else
        row(s, name, label, shape, -1, -1, check_scaled(b, M, N, beta, want_scaled, why, sizeof why) ? NULL : why);
}

static void blas_rules(suite *s, const gemm_variant *v, const char *name, uint64_t seed)
{
    static const float betas[] = {0.0f, 1.0f, 1.3f};
    static const int shapes[][3] = {{7, 13, 5}, {131, 259, 35}};
    for (int t = 0; t < 2; t++) {
        const int m = shapes[t][0], n = shapes[t][1], k = shapes[t][2];
        /* K = 0: A and B hold NaN, which no element of C may see */
        buffers b = alloc_buffers(m, n, k);
        fill_random(&b, seed);
        matrix_fill(b.A, m, b.lda, NAN);
        matrix_fill(b.B, k, b.ldb, NAN);
        for (int i = 0; i < 3; i++)
            rule_case(s, v, name, &b, m, n, 0, 1.0f, betas[i], 1, "K = 0, A and B NaN");
        /* alpha = 0: A is NaN and B is Inf everywhere; neither may be read */
        matrix_fill(b.B, k, b.ldb, INFINITY);
        for (int i = 0; i < 3; i++)
            rule_case(s, v, name, &b, m, n, k, 0.0f, betas[i], 1, "alpha = 0, A NaN, B Inf");
        /* empty and negative sizes: C unchanged, nothing read or written */
        fill_random(&b, seed + 7);
        const int sizes[][3] = {{0, n, k}, {m, 0, k}, {-1, n, k}, {m, -3, k}, {m, n, -2}};
        const char *what[] = {"M = 0", "N = 0", "M < 0", "N < 0", "K < 0"};
        for (int c = 0; c < 5; c++)
            for (int i = 0; i < 3; i += 2) /* beta 0 and 1.3: either would change C */
                rule_case(s, v, name, &b, sizes[c][0], sizes[c][1], sizes[c][2], 1.0f, betas[i],
                          0, what[c]);
        free_buffers(&b);
    }
}

/* ---- NaN and Inf: which elements of C they reach -------------------------------------------- */

/* alpha*(AB)_ij + beta*C0_ij in double; *bound gets the harness's bound on its error (verify.h):
 * c (K + 2) u (|alpha|(|A||B|)_ij + |beta||C0_ij|) + err_in |alpha|(|A||B|)_ij; *scale the part
 * in brackets. */
static double reference(const buffers *b, const gemm_variant *v, int i, int j, float alpha,
                        float beta, double *scale, double *bound)
{
    double sum = 0, abs_sum = 0;
    for (int k = 0; k < b->bk; k++) {
        double t = (double)b->A[IDX(i, k, b->lda)] * b->B[IDX(k, j, b->ldb)];
        sum += t;
        abs_sum += fabs(t);
    }
    double c0 = beta != 0.0f ? b->C0[IDX(i, j, b->ldc)] : 0.0;
    *scale = fabs(alpha) * abs_sum + fabs(beta) * fabs(c0);
    const double u = ldexp(1.0, -24), c = v->err_c > 0 ? v->err_c : 2.0;
    *bound = c * (b->bk + 2) * u * *scale + v->err_in * fabs(alpha) * abs_sum;
    return alpha * sum + beta * c0;
}

/* After a call with the one special value in row `row` of A (col < 0) or column `col` of B
 * (row < 0): every element of that row (column) of C must be non-finite; the others finite
 * and within the bound, unless the variant is a fast algorithm (then they are only counted).
 * Returns 1 if that holds, else 0 with the first offence in why; *line and *elsewhere get the
 * numbers of non-finite elements in that row (column) and outside it. */
static int check_spread(const buffers *b, const gemm_variant *v, int row, int col, float alpha,
                        float beta, long *line, long *elsewhere, char *why, size_t len)
{
    const double u = ldexp(1.0, -24), c = v->err_c > 0 ? v->err_c : 2.0;
    int ok = 1;
    *line = *elsewhere = 0;
    double max_scale = 0, max_err = 0;
    for (int i = 0; i < b->bm; i++)
        for (int j = 0; j < b->ldc; j++) {
            float got = b->C[IDX(i, j, b->ldc)];
            if (j >= b->bn) { /* padding */
                if (!same_bits(got, b->C0[IDX(i, j, b->ldc)]) && ok) {
                    snprintf(why, len, "C(%d,%d) = %g: padding written", i, j, got);
                    ok = 0;
                }
                continue;
            }
            if (i == row || j == col) {
                *line += !isfinite(got);
                if (isfinite(got) && ok) {
                    snprintf(why, len, "C(%d,%d) = %g, finite: its dot product uses the %s",
                             i, j, got, row >= 0 ? "NaN/Inf in A" : "NaN/Inf in B");
                    ok = 0;
                }
                continue;
            }
            if (!isfinite(got)) {
                (*elsewhere)++;
                if (!v->fast_algorithm && ok) {
                    snprintf(why, len, "C(%d,%d) = %g%s", i, j, got,
                             row >= 0   ? ": its dot product does not use the row of A"
                             : col >= 0 ? ": its dot product does not use the column of B"
                                        : ", not finite");
                    ok = 0;
                }
                continue;
            }
            if (v->fast_algorithm)
                continue;
            double scale, bound, err = fabs(got - reference(b, v, i, j, alpha, beta, &scale, &bound));
            if (v->normwise) {
                max_scale = fmax(max_scale, scale);
                max_err = fmax(max_err, err);
            } else if (!(err <= bound + FLT_MIN) && ok) {
                snprintf(why, len, "C(%d,%d) = %.9g off by %.3g, over the bound %.3g", i, j, got,
                         err, bound);
                ok = 0;
            }
        }
    if (v->normwise && !(max_err <= c * (b->bk + 2) * u * max_scale + FLT_MIN) && ok) {
        snprintf(why, len, "max error %.3g over the normwise bound", max_err);
        ok = 0;
    }
    return ok;
}

static void propagation(suite *s, const gemm_variant *v, const gemm_shape *shape, uint64_t seed)
{
    const int m = shape->m, n = shape->n, k = shape->k;
    const float alpha = -1.5f, betas[] = {0.0f, 1.3f};
    buffers b = alloc_buffers(m, n, k);
    fill_random(&b, seed);
    char dims[40];
    snprintf(dims, sizeof dims, "%dx%dx%d", m, n, k);
    /* corner, interior, last: the last row (column) lies in an edge tile where M (N) is no
     * multiple of the tile */
    const int at_a[3][2] = {{0, 0}, {m / 2, k / 2}, {m - 1, k - 1}};
    const int at_b[3][2] = {{0, 0}, {k / 2, n / 2}, {k - 1, n - 1}};
    const float specials[] = {NAN, INFINITY};
    for (int in_b = 0; in_b < 2; in_b++)
        for (int sp = 0; sp < 2; sp++)
            for (int p = 0; p < 3; p++)
                for (int bi = 0; bi < 2; bi++) {
                    const int r = in_b ? at_b[p][0] : at_a[p][0], cc = in_b ? at_b[p][1] : at_a[p][1];
                    float *x = in_b ? &b.B[IDX(r, cc, b.ldb)] : &b.A[IDX(r, cc, b.lda)];
                    const float keep = *x;
                    *x = specials[sp];
                    char label[64], why[160];
                    snprintf(label, sizeof label, "%s at %c(%d,%d), beta %g", sp ? "Inf" : "NaN",
                             in_b ? 'B' : 'A', r, cc, betas[bi]);
                    prepare_c(&b, m, n, betas[bi]);
                    long line = -1, elsewhere = -1;
                    const char *verdict = "the backend could not set this size up";
                    if (call(s, v, &b, m, n, k, alpha, betas[bi]) == 0)
                        verdict = check_spread(&b, v, in_b ? -1 : r, in_b ? cc : -1, alpha,
                                               betas[bi], &line, &elsewhere, why, sizeof why)
                                      ? NULL : why;
                    row(s, v->name, label, dims, line, elsewhere, verdict);
                    *x = keep;
                }
    free_buffers(&b);
}

/* ---- overflow: alpha applied to each term ---------------------------------------------------- */

static void overflow(suite *s, const gemm_variant *v, uint64_t seed)
{
    static const int shapes[][2] = {{7, 13}, {131, 259}};
    const float betas[] = {0.0f, 1.3f};
    for (int t = 0; t < 2; t++) {
        buffers b = alloc_buffers(shapes[t][0], shapes[t][1], 4);
        fill_random(&b, seed);
        for (int i = 0; i < b.bm; i++)
            for (int k = 0; k < 4; k++)
                b.A[IDX(i, k, b.lda)] = 1e20f;
        for (int k = 0; k < 4; k++)
            for (int j = 0; j < b.bn; j++)
                b.B[IDX(k, j, b.ldb)] = 1e20f;
        char dims[40], label[64], why[160];
        snprintf(dims, sizeof dims, "%dx%dx4", b.bm, b.bn);
        for (int bi = 0; bi < 2; bi++) {
            snprintf(label, sizeof label, "A = B = 1e20, alpha 1e-20, beta %g", betas[bi]);
            prepare_c(&b, b.bm, b.bn, betas[bi]);
            long line, elsewhere;
            const char *verdict = "the backend could not set this size up";
            if (call(s, v, &b, b.bm, b.bn, 4, 1e-20f, betas[bi]) == 0) {
                /* no special value: every element is "elsewhere", and must be finite (4e20) */
                gemm_variant strict = *v;
                strict.fast_algorithm = 0;
                verdict = check_spread(&b, &strict, -1, -1, 1e-20f, betas[bi], &line, &elsewhere,
                                       why, sizeof why) ? NULL : why;
            }
            row(s, v->name, label, dims, -1, -1, verdict);
        }
        free_buffers(&b);
    }
}

/* ---- the suite -------------------------------------------------------------------------------- */

/* The propagation shapes: -m / --sizes if given (not the stage's default sweep), else ours. */
static int shapes_for(const stage_info *st, const bench_opts *o, gemm_shape **shapes)
{
    gemm_shape *def;
    int ndef = cli_parse_sizes("--sizes", st->default_sizes, &def);
    int given = ndef != o->nshapes || memcmp(def, o->shapes, sizeof *def * (size_t)ndef) != 0;
    free(def);
    if (given) {
        *shapes = malloc(sizeof **shapes * (size_t)o->nshapes);
        if (!*shapes)
            cli_die("--edges: out of memory");
        memcpy(*shapes, o->shapes, sizeof **shapes * (size_t)o->nshapes);
        return o->nshapes;
    }
    return cli_parse_sizes("--edges", default_shapes, shapes);
}

int edges_main(const stage_info *st, const bench_opts *o)
{
    suite s = {st, st->backend, 0, 0, NULL};
    if (edges_csv) /* before any case: a file that cannot take our rows is exit 2 */
        s.csv = cli_csv_open("--csv", edges_csv, EDGES_CSV_HEADER);
    gemm_shape *shapes;
    const int nshapes = shapes_for(st, o, &shapes);
    printf("== %s: edge cases (--edges; the rules are in common/gemm.h) ==\n", st->stage);
    s.be->print_header(stdout, o);
    cpu_print_hidden(stdout);
    printf("%-10s %d\n%-10s git %s\n\n", st->gpus_sweep ? "gpus" : "threads", o->threads[0],
           "build", sysinfo_git_rev());
    printf("%-16s %-40s %-12s %10s %10s  %s\n", "variant", "case", "M x N x K", "its line",
           "elsewhere", "check");
    printf("%-16s %-40s %-12s %10s %10s\n", "", "", "", "non-finite", "non-finite");
    const cli_table table = {st->variants, sizeof *st->variants, st->nvariants};
    for (int v = 0; v < st->nvariants; v++)
        if (bench_not_here(&table, o, v))
            bench_print_not_here(st->variants[v].name, s.be->compiler ? "GPU" : "CPU",
                                 st->variants[v].needs);
    s.be->set_threads(o->threads[0]);
    for (int v = 0; v < st->nvariants; v++) {
        if (!o->selected[v])
            continue;
        const gemm_variant *var = &st->variants[v];
        blas_rules(&s, var, var->name, o->seed);
        for (int i = 0; i < nshapes; i++)
            propagation(&s, var, &shapes[i], o->seed + 11 * (uint64_t)i);
        if (!var->alpha_last)
            overflow(&s, var, o->seed);
    }
    if (o->baseline) { /* the vendor library, held to the BLAS rules only */
        char name[64];
        snprintf(name, sizeof name, "(%s)", s.be->baseline_name);
        blas_rules(&s, NULL, name, o->seed);
    }
    free(shapes);
    bench_print_tally_line(s.passed, s.failed);
    fflush(stdout);
    if (s.csv && cli_csv_close(s.csv) != 0)
        return 2;
    return s.failed ? 1 : 0;
}

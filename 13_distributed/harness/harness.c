/* harness.c: the runs of stage 13, the MPI counterpart of common/bench.c: for each size, every
 * rank's blocks made and poisoned, each variant checked (the check gathered to rank 0) and timed
 * alternately with PSGEMM, a row on stdout (rank 0) and in the CSV (report.c); and --edge's
 * cases. */
#include "harness.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_blas.h"
#include "bench.h"
#include "check.h"
#include "csv.h"
#include "matrix.h"
#include "sysinfo.h"
#include "timer.h"

int me, nranks;
dist_grid grid;
char grid_name[32];
int gpu_first_split = 1;
int gpu_bcast_ctas;
const char *timeline_header =
    "stage,variant,m,n,k,grid,ranks,nb,rank,prow,pcol,panel,what,start_ms,end_ms,bytes,git";
csv_file *timeline_csv;
int timeline_wanted;
int print_samples;

/* ------------------------------------------------------------ one size */

typedef struct sized {
    dist_problem p;
    int nrows, *rows;           /* the global rows checked */
    float *Arows, *Bfull, *C0rows, *Crows; /* rank 0: the gathered inputs and result */
    int gathered;               /* the inputs have been gathered */
    int on_gpu;                 /* device copies exist */
} sized;


void set_threads(int t)
{
    omp_set_num_threads(t);
    openblas_set_num_threads(t);
}

/* This rank's blocks for one shape: A and B random (NaN when alpha == 0: they must not be
 * read), C0 random when beta != 0, and every padding column PAD_VALUE. */
static void make_blocks(sized *z, const gemm_shape *s, const bench_opts *o, int si, int fill)
{
    dist_problem *p = &z->p;
    const int nb = grid.nb;
    memset(z, 0, sizeof *z);
    p->M = s->m, p->N = s->n, p->K = s->k;
    p->m = local_count(s->m, nb, grid.myrow, grid.nprow);
    p->n = local_count(s->n, nb, grid.mycol, grid.npcol);
    p->ka = local_count(s->k, nb, grid.mycol, grid.npcol);
    p->kb = local_count(s->k, nb, grid.myrow, grid.nprow);
    p->lda = (p->ka > 0 ? p->ka : 1) + o->pad;
    p->ldb = (p->n > 0 ? p->n : 1) + o->pad;
    p->ldc = p->ldb;
    p->alpha = o->alpha, p->beta = o->beta;
    p->seed = o->seed * 0x9E3779B97F4A7C15ull + (uint64_t)si * 3; /* as bench.c */
    const int mr = p->m > 0 ? p->m : 1, kr = p->kb > 0 ? p->kb : 1;
    p->A = matrix_alloc(mr, p->lda);
    p->B = matrix_alloc(kr, p->ldb);
    p->C = matrix_alloc(mr, p->ldc);
    p->C0 = o->beta != 0.0f ? matrix_alloc(mr, p->ldc) : NULL;
    if (!p->A || !p->B || !p->C || (o->beta != 0.0f && !p->C0)) {
        fprintf(stderr, "%s: rank %d: size %dx%dx%d: cannot allocate its blocks\n", cli_prog, me,
                s->m, s->n, s->k);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    matrix_fill(p->A, mr, p->lda, PAD_VALUE);
    matrix_fill(p->B, kr, p->ldb, PAD_VALUE);
    if (p->C0)
        matrix_fill(p->C0, mr, p->ldc, PAD_VALUE);
    if (fill && o->alpha != 0.0f) {
        fill_local_random(p->A, p->lda, s->m, s->k, nb, grid.myrow, grid.nprow, grid.mycol,
                          grid.npcol, p->seed);
        fill_local_random(p->B, p->ldb, s->k, s->n, nb, grid.myrow, grid.nprow, grid.mycol,
                          grid.npcol, p->seed + 1);
    } else if (o->alpha == 0.0f) {
        for (int i = 0; i < p->m; i++)
            for (int j = 0; j < p->ka; j++)
                p->A[IDX(i, j, p->lda)] = NAN;
        for (int i = 0; i < p->kb; i++)
            for (int j = 0; j < p->n; j++)
                p->B[IDX(i, j, p->ldb)] = NAN;
    }
    if (fill && p->C0)
        fill_local_random(p->C0, p->ldc, s->m, s->n, nb, grid.myrow, grid.nprow, grid.mycol,
                          grid.npcol, p->seed + 2);
    z->rows = malloc(sizeof(int) * (size_t)(s->m > 32 ? s->m : 32));
    if (!z->rows)
        MPI_Abort(MPI_COMM_WORLD, 2);
    z->nrows = check_rows(s->m, s->n, s->k, p->seed, z->rows);
}

static void free_blocks(sized *z)
{
    matrix_free(z->p.A);
    matrix_free(z->p.B);
    matrix_free(z->p.C);
    matrix_free(z->p.C0);
    free(z->rows);
    matrix_free(z->Arows);
    matrix_free(z->Bfull);
    matrix_free(z->C0rows);
    matrix_free(z->Crows);
    if (z->on_gpu)
        gpu_teardown();
}

/* C as a checked run must find it: NaN when beta == 0 (an element not written fails), else
 * C0; the padding PAD_VALUE either way. */
static void poison_c(sized *z)
{
    dist_problem *p = &z->p;
    const int mr = p->m > 0 ? p->m : 1;
    if (p->C0)
        matrix_copy(p->C, p->C0, mr, p->ldc);
    else {
        matrix_fill(p->C, mr, p->ldc, PAD_VALUE);
        for (int i = 0; i < p->m; i++)
            for (int j = 0; j < p->n; j++)
                p->C[IDX(i, j, p->ldc)] = NAN;
    }
}

/* Collective: the check of the result in p->C. The inputs are gathered once per size. */
static verify_result check_result(sized *z)
{
    dist_problem *p = &z->p;
    /* alpha == 0: A and B are NaN and the answer is beta*C0: held to that, as a K = 0 product */
    const int K = p->alpha == 0.0f ? 0 : p->K;
    if (!z->gathered) {
        if (me == 0) {
            z->Arows = matrix_alloc(z->nrows, K > 0 ? K : 1);
            z->Bfull = matrix_alloc(K > 0 ? K : 1, p->N);
            z->C0rows = p->C0 ? matrix_alloc(z->nrows, p->N) : NULL;
            z->Crows = matrix_alloc(z->nrows, p->N);
            if (!z->Arows || !z->Bfull || !z->Crows || (p->C0 && !z->C0rows)) {
                fprintf(stderr, "%s: rank 0 cannot hold the rows to check\n", cli_prog);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        }
        if (K > 0) {
            int *all = malloc(sizeof(int) * (size_t)K);
            if (!all)
                MPI_Abort(MPI_COMM_WORLD, 2);
            for (int k = 0; k < K; k++)
                all[k] = k;
            gather_rows(&grid, p->A, p->lda, K, z->rows, z->nrows, z->Arows);
            gather_rows(&grid, p->B, p->ldb, p->N, all, K, z->Bfull);
            free(all);
        }
        if (p->C0)
            gather_rows(&grid, p->C0, p->ldc, p->N, z->rows, z->nrows, z->C0rows);
        z->gathered = 1;
    }
    gather_rows(&grid, p->C, p->ldc, p->N, z->rows, z->nrows, z->Crows);
    int pad_ok = padding_intact(p->m, p->n, p->C, p->ldc), all_ok;
    MPI_Allreduce(&pad_ok, &all_ok, 1, MPI_INT, MPI_MIN, grid.all);
    double res[4] = {0, 0, 0, 0}; /* max ratio, rel err, bad, rows */
    if (me == 0) {
        verify_result vr = check_gathered(z->nrows, p->N, K, p->alpha, z->Arows, z->Bfull,
                                          p->beta, z->C0rows, z->Crows, 0);
        res[0] = vr.max_err_ratio, res[1] = vr.rel_err, res[2] = (double)vr.bad;
        res[3] = (double)vr.rows_checked;
    }
    MPI_Bcast(res, 4, MPI_DOUBLE, 0, grid.all);
    verify_result out = {res[0], res[1], (long)res[3], (long)res[2] + !all_ok, 0};
    out.pass = out.bad == 0;
    return out;
}

/* Collective: one run of variant v (v NULL: PSGEMM), timed from a common start to the last
 * rank's end; ms. */
static double run_once(sized *z, const variant *v)
{
    dist_problem *p = &z->p;
    MPI_Barrier(grid.all);
    const double t0 = MPI_Wtime();
    if (!v)
        gemm_psgemm(&grid, p->M, p->N, p->K, p->alpha, p->A, p->lda, p->B, p->ldb, p->beta, p->C,
                    p->ldc);
    else if (v->fn)
        v->fn(&grid, p->M, p->N, p->K, p->alpha, p->A, p->lda, p->B, p->ldb, p->beta, p->C,
              p->ldc);
    else
        gpu_run(&grid, p, v->gpu);
    double ms = 1e3 * (MPI_Wtime() - t0), slowest;
    MPI_Allreduce(&ms, &slowest, 1, MPI_DOUBLE, MPI_MAX, grid.all);
    return slowest;
}

/* The checked run (v NULL: PSGEMM): poison C, run, check. */
static double checked_run(sized *z, const variant *v, int check, verify_result *vr)
{
    poison_c(z);
    if (v && v->gpu)
        gpu_put_c(&z->p);
    const double ms = run_once(z, v);
    if (check) {
        if (v && v->gpu)
            gpu_get_c(&z->p);
        *vr = check_result(z);
    }
    return ms;
}

/* Collective: one more run, traced (--timeline): every rank's spans gathered to rank 0 and
 * written, a row each. Not one of the timed samples. */
static void trace_run(sized *z, const variant *v)
{
    dist_problem *p = &z->p;
    gpu_trace_next();
    run_once(z, v);
    double *spans;
    int n = gpu_trace_spans(&grid, p, &spans), *counts = NULL, *displs = NULL, total = 0;
    double *all = NULL;
    if (me == 0) {
        counts = malloc(sizeof(int) * 2 * (size_t)nranks);
        if (!counts)
            MPI_Abort(MPI_COMM_WORLD, 1);
        displs = counts + nranks;
    }
    const int mine = 5 * n;
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, grid.all);
    if (me == 0) {
        for (int q = 0; q < nranks; q++)
            displs[q] = total, total += counts[q];
        all = malloc(sizeof(double) * (size_t)(total ? total : 1));
        if (!all)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gatherv(spans, mine, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, grid.all);
    if (me == 0 && timeline_csv) {
        static const char *what[3] = {"bcast_a", "bcast_b", "gemm"};
        char err[300];
        for (int q = 0; q < nranks; q++) {
            const int prow = q / grid.npcol, pcol = q % grid.npcol;
            for (const double *r = all + displs[q]; r < all + displs[q] + counts[q]; r += 5)
                if (csv_appendf(timeline_csv, err, sizeof err,
                                "13_distributed,%s,%d,%d,%d,%s,%d,%d,%d,%d,%d,%d,%s,%.4f,%.4f,%.0f,%s",
                                v->name, p->M, p->N, p->K, grid_name, nranks, grid.nb, q, prow,
                                pcol, (int)r[0], what[(int)r[1]], r[2], r[3], r[4],
                                sysinfo_git_rev()) != 0) {
                    fprintf(stderr, "%s: %s\n", cli_prog, err);
                    q = nranks;
                    break;
                }
        }
    }
    free(all);
    free(counts);
}

#define WARMUP_IS_SAMPLE_S 1.0 /* as bench.c: a run this long is measured once */

/* ------------------------------------------------------------ --edge */

/* K = 0 (C = beta*C, even from NaN when beta = 0), M = 0 and N = 0 (C untouched): each rank
 * checks its own block element by element, padding included. Returns the failures. */
int edge_checks(const variant *vars, const int *use, int nvars, const bench_opts *o)
{
    static const struct {
        const char *what;
        int zero_m, zero_n, zero_k;
        float beta;
    } cases[] = {{"K = 0, beta = 0.5", 0, 0, 1, 0.5f}, {"K = 0, beta = 0 (C was NaN)", 0, 0, 1, 0},
                 {"M = 0 (C untouched)", 1, 0, 0, 0.5f}, {"N = 0 (C untouched)", 0, 1, 0, 0.5f}};
    int failed = 0;
    if (me == 0)
        printf("%-18s %-38s %s\n", "variant", "case", "check");
    for (int vi = -1; vi < nvars; vi++) { /* -1: PSGEMM */
        const variant *v = vi < 0 ? NULL : &vars[vi];
        if (v ? !use[vi] || v->unchecked || (v->one_rank && nranks > 1) : !o->baseline)
            continue;
        for (int si = 0; si < o->nshapes; si++) {
            const gemm_shape *s = &o->shapes[si];
            sized z;
            make_blocks(&z, s, o, si, 1);
            if (v && v->gpu) {
                gpu_setup(&grid, &z.p);
                z.on_gpu = 1;
            }
            dist_problem q = z.p;
            const int mr = q.m > 0 ? q.m : 1;
            float *before = matrix_alloc(mr, q.ldc);
            if (!before)
                MPI_Abort(MPI_COMM_WORLD, 2);
            for (int c = 0; c < 4; c++) {
                fill_local_random(q.C, q.ldc, s->m, s->n, grid.nb, grid.myrow, grid.nprow,
                                  grid.mycol, grid.npcol, q.seed + 2);
                for (int i = 0; i < q.m; i++)
                    for (int j = q.n; j < q.ldc; j++)
                        q.C[IDX(i, j, q.ldc)] = PAD_VALUE;
                if (cases[c].zero_k && cases[c].beta == 0)
                    for (int i = 0; i < q.m; i++)
                        for (int j = 0; j < q.n; j++)
                            q.C[IDX(i, j, q.ldc)] = NAN;
                matrix_copy(before, q.C, mr, q.ldc);
                q.M = cases[c].zero_m ? 0 : s->m;
                q.N = cases[c].zero_n ? 0 : s->n;
                q.K = cases[c].zero_k ? 0 : s->k;
                q.beta = cases[c].beta;
                if (!v)
                    gemm_psgemm(&grid, q.M, q.N, q.K, q.alpha, q.A, q.lda, q.B, q.ldb, q.beta,
                                q.C, q.ldc);
                else if (v->fn)
                    v->fn(&grid, q.M, q.N, q.K, q.alpha, q.A, q.lda, q.B, q.ldb, q.beta, q.C,
                          q.ldc);
                else {
                    gpu_put_c(&q);
                    gpu_run(&grid, &q, v->gpu);
                    gpu_get_c(&q);
                }
                long bad = 0, total;
                for (int i = 0; i < q.m; i++)
                    for (int j = 0; j < q.ldc; j++) {
                        const float was = before[IDX(i, j, q.ldc)], got = q.C[IDX(i, j, q.ldc)];
                        const float want = cases[c].zero_k && j < q.n
                                               ? (q.beta == 0 ? 0.0f : q.beta * was)
                                               : was;
                        bad += memcmp(&got, &want, sizeof got) != 0;
                    }
                MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, grid.all);
                failed += total != 0;
                if (me == 0) {
                    char what[80];
                    snprintf(what, sizeof what, "%dx%dx%d %s", s->m, s->n, s->k, cases[c].what);
                    printf("%-18s %-38s %s\n", v ? v->name : "psgemm", what,
                           total ? "FAIL" : "PASS");
                }
            }
            matrix_free(before);
            free_blocks(&z);
        }
    }
    return failed;
}

/* ------------------------------------------------------------ every size */

int run_sizes(const bench_opts *o, const variant *vars, int nvars)
{
    int npass = 0, nfail = 0;
    const int cap = o->reps > o->max_reps ? o->reps : o->max_reps;
    double *tv = malloc(sizeof(double) * (size_t)cap * 2), *tb = tv + cap;
    double *base_all = malloc(sizeof(double) * (size_t)cap * (size_t)(nvars + 1));
    double *limit = malloc(sizeof(double) * (size_t)nvars);
    if (!tv || !base_all || !limit)
        MPI_Abort(MPI_COMM_WORLD, 2);
    const char *cpu_device = sysinfo_cpu_model(), *cpu_compiler = sysinfo_compiler();

    for (int ti = 0; ti < o->nthreads; ti++) {
        set_threads(o->threads[ti]);
        for (int v = 0; v < nvars; v++)
            limit[v] = INFINITY;
        for (int si = 0; si < o->nshapes; si++) {
            const gemm_shape *s = &o->shapes[si];
            int gpu_here = 0, cpu_here = 0;
            for (int v = 0; v < nvars; v++)
                if (o->selected[v] && !(vars[v].one_rank && nranks > 1))
                    vars[v].gpu ? (gpu_here = 1) : (cpu_here = 1);
            sized z;
            make_blocks(&z, s, o, si, !gpu_here || cpu_here);
            if (gpu_here) {
                gpu_setup(&grid, &z.p);
                z.on_gpu = 1;
            }
            const double flops = 2.0 * s->m * (double)s->n * s->k;
            /* Untimed: starts OpenBLAS's threads and BLACS before the first timed pair. With the
             * check on, PSGEMM's own checked run does that (below), and local_only is not timed
             * against PSGEMM (it is the compute alone): this run would be one run too many. */
            if (o->baseline && !gpu_here && !o->check) {
                poison_c(&z);
                run_once(&z, NULL);
            }
            int nbase = 0;
            verify_result base_vr = {0};
            int base_checked = 0;
            for (int v = 0; v < nvars; v++) {
                const variant *var = &vars[v];
                if (!o->selected[v] || flops >= limit[v])
                    continue;
                if (var->one_rank && nranks > 1) {
                    if (me == 0)
                        printf("%-18s skipped: a kernel alone runs on a 1x1 grid only\n",
                               var->name);
                    continue;
                }
                row r = {var->name, s, o->threads[ti], 0, 0, 0, 0, 0, {0}};
                const int check = o->check && !var->unchecked;
                const int with_base = o->baseline && !var->gpu && !var->unchecked;
                const double warm = checked_run(&z, var, check, &r.vr);
                r.checked = check;
                if (with_base && !base_checked && o->check) { /* PSGEMM's own check, once */
                    checked_run(&z, NULL, 1, &base_vr);
                    base_checked = 1;
                }
                int n = 0;
                double total = 0;
                const int warm_is_sample = !o->reps && warm >= 1e3 * WARMUP_IS_SAMPLE_S;
                if (warm_is_sample) {
                    tv[n] = warm;
                    if (with_base)
                        tb[n] = run_once(&z, NULL);
                    n = 1;
                } else {
                    const int want = o->reps ? o->reps : o->max_reps;
                    while (n < want && (o->reps || total < 1e3 * o->min_time)) {
                        tv[n] = run_once(&z, var);
                        total += tv[n];
                        if (with_base)
                            tb[n] = run_once(&z, NULL);
                        n++;
                    }
                }
                if (timeline_wanted && (var->gpu == GPU_SUMMA_WARPTILE ||
                                        var->gpu == GPU_SUMMA_CUBLAS || var->gpu == GPU_LOCAL_ONLY))
                    trace_run(&z, var);
                if (print_samples && me == 0 && n > 0) {
                    printf("%-18s samples (ms, in order):", var->name);
                    for (int t = 0; t < n; t++)
                        printf(" %.4g", tv[t]);
                    printf(warm_is_sample ? " (the warm-up itself)\n" : " (warm-up %.4g)\n", warm);
                }
                r.reps = n;
                r.ms_min = timer_min(tv, n);
                r.ms_median = timer_median(tv, n);
                r.base_ms = with_base ? timer_median(tb, n) : 0;
                print_row(o, &r);
                csv_row(o, &r, var->gpu ? gpu_device_name() : cpu_device,
                        var->gpu ? gpu_compiler() : cpu_compiler);
                if (r.checked)
                    r.vr.pass ? npass++ : nfail++;
                if (with_base) {
                    memcpy(base_all + nbase, tb, sizeof(double) * (size_t)n);
                    nbase += n;
                }
                if (r.ms_median > 1e3 * o->time_limit) {
                    limit[v] = flops;
                    if (me == 0)
                        printf("%-18s stops here: one run took %.1f s (--time-limit %g)\n",
                               var->name, r.ms_median / 1e3, o->time_limit);
                }
            }
            if (nbase > 0) { /* PSGEMM's row: every sample taken at this size */
                row r = {"psgemm", s, o->threads[ti], nbase, base_checked, 0, 0, 0, base_vr};
                r.ms_min = timer_min(base_all, nbase);
                r.ms_median = timer_median(base_all, nbase);
                print_row(o, &r);
                csv_row(o, &r, cpu_device, cpu_compiler);
                if (base_checked)
                    base_vr.pass ? npass++ : nfail++;
            }
            free_blocks(&z);
        }
    }
    free(tv);
    free(base_all);
    free(limit);
    if (me == 0)
        printf("\n%d passed, %d failed\n", npass, nfail);
    return nfail;
}

/* backend.c: the harness's CPU backend (common/baseline_blas.c) for BF16 A and B.
 *
 * The harness draws float inputs. Before a size runs, setup() rounds A and B to BF16 (to
 * nearest, ties to even) and hands the check the ROUNDED values: the reference is then the
 * double-precision product of exactly what the kernels multiply, and the bound covers only
 * their FP32 sums (chapter 12's arrangement). --reference unrounded keeps the float inputs in the
 * check instead: that measures what rounding the inputs to BF16 costs.
 *
 * The baseline: MKL's cblas_gemm_bf16bf16f32 (BF16 A and B, FP32 C) with --baseline mkl, found
 * in the libmkl_rt that the harness loaded for its sgemm (so MKL is looked for, and reported,
 * exactly as in every other stage); oneDNN's BF16 matmul with --baseline onednn (onednn.c).
 * OpenBLAS 0.3.21 and BLIS have no BF16 GEMM: with them the baseline is their sgemm on the
 * rounded values, the same products in FP32, which the header says.
 */
#include "../amx.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_blas.h"
#include "cli.h"
#include "matrix.h"
#include "onednn.h"
#include "timer.h"

static const bench_backend *const cpu = &openblas_backend;

static char label[96];
static int unrounded;
static mkl_bf16_fn *mkl_bf16;
static void (*mkl_gemm_bf16)(int layout, int ta, int tb, int M, int N, int K, float alpha,
                             const uint16_t *A, int lda, const uint16_t *B, int ldb, float beta,
                             float *C, int ldc);
enum { ROW_MAJOR = 101, NO_TRANS = 111 }; /* CBLAS's enums */
static enum { BASE_SGEMM, BASE_MKL, BASE_ONEDNN } base;

void bf16_reference_unrounded(int on) { unrounded = on; }

void gemm_bf16_only(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                    int ldb, float beta, float *C, int ldc)
{
    (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)lda, (void)B, (void)ldb, (void)beta;
    (void)C, (void)ldc;
    fprintf(stderr, "gemm_bf16_only: a BF16 variant runs through bf16_backend only\n");
    exit(1);
}

/* MKL's BF16 GEMM, held to the BLAS rules at the edges as the harness holds its sgemm */
static void mkl_bf16_rowmajor(int M, int N, int K, float alpha, const uint16_t *A, int lda,
                              const uint16_t *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc))
        return;
    mkl_gemm_bf16(ROW_MAJOR, NO_TRANS, NO_TRANS, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

mkl_bf16_fn *bf16_backend_mkl(void) { return mkl_bf16; }

/* The libmkl_rt the harness loaded, by its path among the process's libraries */
static int find_mkl_rt(struct dl_phdr_info *info, size_t size, void *data)
{
    const char *base_name = strrchr(info->dlpi_name, '/');
    (void)size;
    if (base_name && strncmp(base_name + 1, "libmkl_rt.so", 12) == 0) {
        snprintf(data, 512, "%s", info->dlpi_name);
        return 1;
    }
    return 0;
}

static int bf16_init(const bench_opts *o)
{
    const char *lib = o->baseline_lib ? o->baseline_lib : "openblas";
    base = BASE_SGEMM;
    if (o->baseline && strcmp(lib, "onednn") == 0) {
        int rc = onednn_load();
        if (rc != 0)
            return rc;
        base = BASE_ONEDNN;
        snprintf(label, sizeof label, "oneDNN-bf16");
        return 0;
    }
    int rc = cpu->init(o); /* OpenBLAS, or MKL or BLIS loaded for their sgemm */
    if (rc != 0 || !o->baseline)
        return rc;
    if (strcmp(lib, "mkl") == 0) {
        char path[512] = "";
        void *h = NULL;
        dl_iterate_phdr(find_mkl_rt, path);
        if (*path)
            h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        mkl_gemm_bf16 = h ? (__typeof__(mkl_gemm_bf16))dlsym(h, "cblas_gemm_bf16bf16f32") : NULL;
        if (!mkl_gemm_bf16) {
            fflush(stdout);
            fprintf(stderr, "%s: --baseline mkl: this libmkl_rt has no cblas_gemm_bf16bf16f32: "
                            "skipped\n", cli_prog);
            return 77;
        }
        mkl_bf16 = mkl_bf16_rowmajor;
        base = BASE_MKL;
        snprintf(label, sizeof label, "MKL-bf16");
    } else {
        snprintf(label, sizeof label, "%s-sgemm", cpu->baseline_name);
    }
    return 0;
}

static void bf16_print_header(FILE *f, const bench_opts *o)
{
    if (base == BASE_ONEDNN) {
        fprintf(f, "%-10s %s\n", "cpu", cpu->device_name());
        fprintf(f, "%-10s %s\n", "baseline", onednn_describe());
    } else {
        cpu->print_header(f, o);
    }
    if (!o->baseline)
        return;
    fprintf(f, "%-10s %s\n", "bf16",
            base == BASE_MKL      ? "MKL cblas_gemm_bf16bf16f32: BF16 A and B, FP32 C, alternated with each row"
            : base == BASE_ONEDNN ? "oneDNN matmul, BF16 A and B, FP32 C (its threads: TBB, over the "
                                    "process's CPU mask; --threads does not reach them)"
                                  : "this library has no BF16 GEMM: the baseline is its sgemm on the "
                                    "BF16-rounded inputs (--baseline mkl for MKL's BF16 GEMM)");
}

/* One size's BF16 copies of A and B, and their values as floats. */
typedef struct bf16_problem {
    uint16_t *A16, *B16;
    float *rA, *rB;
    const float *A, *B; /* the harness's own (unrounded) inputs */
} bf16_problem;

static int bf16_setup(bench_problem *p)
{
    const int krows = p->K > 0 ? p->K : 1;
    const size_t na = (size_t)p->M * p->lda, nb = (size_t)krows * p->ldb;
    bf16_problem *bp = calloc(1, sizeof *bp);
    if (!bp)
        cli_die("out of memory");
    bp->A16 = malloc(2 * na + 64);
    bp->B16 = malloc(2 * nb + 64);
    bp->rA = matrix_alloc(p->M, p->lda);
    bp->rB = matrix_alloc(krows, p->ldb);
    if (!bp->A16 || !bp->B16 || !bp->rA || !bp->rB)
        cli_die("size %dx%dx%d: cannot allocate %.1f GiB for the BF16 copies", p->M, p->N, p->K,
                6.0 * (double)(na + nb) / 1073741824.0);
    bf16_round_all(p->A, na, bp->A16, bp->rA);
    bf16_round_all(p->B, nb, bp->B16, bp->rB);
    bp->A = p->A;
    bp->B = p->B;
    if (!unrounded) {
        p->A = bp->rA;
        p->B = bp->rB;
    }
    p->ctx = bp;
    return 0;
}

static double bf16_run(bench_problem *p, gemm_fn *fn)
{
    const bf16_problem *bp = p->ctx;
    bench_problem q = *p; /* the rounded values, as floats, for an FP32 kernel or sgemm */
    q.A = bp->rA;
    q.B = bp->rB;
    if (!fn && base == BASE_SGEMM)
        return cpu->run(&q, NULL);
    if (fn && !p->variant->other_fn)
        return cpu->run(&q, fn); /* an FP32 kernel beside the BF16 ones (05's) */
    double t0 = timer_now();
    if (fn)
        gemm_bf16_of(p->variant)(p->M, p->N, p->K, p->alpha, (const gemm_bf16 *)bp->A16, p->lda,
                            (const gemm_bf16 *)bp->B16, p->ldb, p->beta, p->C, p->ldc);
    else if (base == BASE_MKL)
        mkl_bf16(p->M, p->N, p->K, p->alpha, bp->A16, p->lda, bp->B16, p->ldb, p->beta, p->C, p->ldc);
    else
        onednn_bf16(p->M, p->N, p->K, p->alpha, bp->A16, p->lda, bp->B16, p->ldb, p->beta, p->C,
                    p->ldc);
    return 1e3 * (timer_now() - t0);
}

static void bf16_teardown(bench_problem *p)
{
    bf16_problem *bp = p->ctx;
    if (!bp)
        return;
    p->A = bp->A;
    p->B = bp->B;
    free(bp->A16);
    free(bp->B16);
    matrix_free(bp->rA);
    matrix_free(bp->rB);
    free(bp);
    p->ctx = NULL;
}

static void nothing(bench_problem *p) { (void)p; }
static const char *device_name(void) { return cpu->device_name(); }
static void set_threads(int t) { cpu->set_threads(t); }

const bench_backend bf16_backend = {
    .baseline_name = label,
    .baselines = "openblas mkl blis onednn",
    .init = bf16_init,
    .device_name = device_name,
    .print_header = bf16_print_header,
    .set_threads = set_threads,
    .setup = bf16_setup,
    .put_c = nothing,
    .get_c = nothing,
    .run = bf16_run,
    .teardown = bf16_teardown,
};

/* bf16_backend.cu: the backends of the BF16 variants (gemm.h's gemm_bf16_fn: BF16 A and B, FP32
 * C and sums) and of the FP16 ones (--fp16, tensor_cores.h's gemm_fp16_fn), built on the CUDA
 * harness's (common/cuda_harness.cu):
 *   setup       A and B rounded to BF16 or FP16 (to nearest, ties to even) on the host, 16-bit
 *               device copies with the host's leading dimensions; the check gets the rounded
 *               values (the reference is the product of exactly what the tensor cores multiply),
 *               or with --reference unrounded the float inputs (the 16-bit type's own error)
 *   run         the row's kernel (its other_fn), timed as cuda_backend times; the baseline is
 *               cublasGemmEx: BF16 (FP16) A and B, FP32 C and sums, in cuBLAS's default math mode
 */
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <string.h>

#include "bf16.h"
#include "cli.h"
#include "cuda_harness.cuh"
#include "harness.h"
#include "matrix.h"
#include "../tensor_cores.h"

static int unrounded; /* check against the unrounded inputs (cuda_bf16_reference_unrounded) */
static int fp16;      /* the run's type: FP16 (cuda_fp16_backend), else BF16 */

/* One problem's buffers */
typedef struct bf16_problem {
    void *dA16, *dB16;      /* BF16 (FP16) device copies of A and B */
    float *dC;
    float *rA, *rB;         /* the host's A and B rounded to BF16, as floats */
    size_t c_bytes;
} bf16_problem;

void gemm_bf16_variant(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                       int ldb, float beta, float *C, int ldc)
{
    (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)lda, (void)B, (void)ldb, (void)beta;
    (void)C, (void)ldc;
    fprintf(stderr, "gemm_bf16_variant: a BF16 variant runs through cuda_bf16_backend only\n");
    exit(1);
}

void cuda_bf16_reference_unrounded(int on) { unrounded = on; }

static int cuda_bf16_init(const bench_opts *o)
{
    int rc = cuda_backend.init(o);
    /* BF16 products are exact in FP32: the default math mode takes the tensor cores with FP32
     * sums, as the variants do (pedantic mode may leave them for a slower path). */
    if (rc == 0 && cuda_blas_handle())
        CUBLAS_CHECK(cublasSetMathMode(cuda_blas_handle(), CUBLAS_DEFAULT_MATH));
    return rc;
}

static int cuda_fp16_init(const bench_opts *o)
{
    fp16 = 1;
    return cuda_bf16_init(o);
}

static void cuda_bf16_print_header(FILE *f, const bench_opts *o)
{
    cuda_print_header_for(f, o, fp16 ? "cublasGemmEx, FP16 A and B, FP32 C, CUBLAS_COMPUTE_32F"
                                     : "cublasGemmEx, BF16 A and B, FP32 C, CUBLAS_COMPUTE_32F");
}

/* FP16's rounding, as bf16_round_all's: to nearest, ties to even (beyond 65504: infinity) */
static void fp16_round_all(const float *x, size_t n, uint16_t *bits, float *rounded)
{
    for (size_t i = 0; i < n; i++) {
        __half h = __float2half_rn(x[i]);
        bits[i] = __half_as_ushort(h);
        rounded[i] = __half2float(h);
    }
}

/* Device C as for FP32, BF16 device copies of A and B with the host's leading dimensions, and
 * the rounded values handed to the check: p->A and p->B point at them from here on (unless
 * cuda_bf16_reference_unrounded), so that the reference is the double-precision product of
 * exactly what the tensor cores multiply. */
static int cuda_bf16_setup(bench_problem *p)
{
    bf16_problem *gp = (bf16_problem *)calloc(1, sizeof *gp);
    if (!gp)
        cli_die("out of memory");
    size_t na = (size_t)p->M * p->lda, nb = (size_t)p->K * p->ldb;
    gp->c_bytes = matrix_bytes(p->M, p->ldc);
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    double need = 2.0 * (na + nb) + gp->c_bytes;
    if (need > (double)free_bytes ||
        cudaMalloc((void **)&gp->dA16, 2 * na) != cudaSuccess ||
        cudaMalloc((void **)&gp->dB16, 2 * nb) != cudaSuccess ||
        cudaMalloc((void **)&gp->dC, gp->c_bytes) != cudaSuccess) {
        fprintf(stderr, "%s: size %dx%dx%d needs %.2f GiB of device memory; %s has %.2f GiB free\n",
                cli_prog, p->M, p->N, p->K, need / 1073741824.0, cuda_backend.device_name(),
                free_bytes / 1073741824.0);
        cudaGetLastError();
        cudaFree(gp->dA16);
        cudaFree(gp->dB16);
        free(gp);
        return 1;
    }
    uint16_t *a16 = (uint16_t *)malloc(2 * na), *b16 = (uint16_t *)malloc(2 * nb);
    gp->rA = (float *)malloc(4 * na);
    gp->rB = (float *)malloc(4 * nb);
    if (!a16 || !b16 || !gp->rA || !gp->rB)
        cli_die("size %dx%dx%d: cannot allocate %.1f GiB of host memory for the BF16 copies",
                p->M, p->N, p->K, 6.0 * (na + nb) / 1073741824.0);
    void (*round_all)(const float *, size_t, uint16_t *, float *) =
        fp16 ? fp16_round_all : bf16_round_all;
    round_all(p->A, na, a16, gp->rA);
    round_all(p->B, nb, b16, gp->rB);
    CUDA_CHECK(cudaMemcpy(gp->dA16, a16, 2 * na, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(gp->dB16, b16, 2 * nb, cudaMemcpyHostToDevice));
    free(a16);
    free(b16);
    if (!unrounded) {
        p->A = gp->rA;
        p->B = gp->rB;
    }
    p->ctx = gp;
    return 0;
}

static void cuda_bf16_put_c(bench_problem *p)
{
    bf16_problem *gp = (bf16_problem *)p->ctx;
    CUDA_CHECK(cudaMemcpyAsync(gp->dC, p->C, gp->c_bytes, cudaMemcpyHostToDevice, gemm_stream()));
    CUDA_CHECK(cudaStreamSynchronize(gemm_stream()));
}

static void cuda_bf16_get_c(bench_problem *p)
{
    bf16_problem *gp = (bf16_problem *)p->ctx;
    CUDA_CHECK(cudaMemcpyAsync(p->C, gp->dC, gp->c_bytes, cudaMemcpyDeviceToHost, gemm_stream()));
    CUDA_CHECK(cudaStreamSynchronize(gemm_stream()));
}

/* cublasGemmEx with the row-major swap of cuda_harness.cu's cublasSgemm: C^T = B^T A^T. */
static void cublas_bf16_rowmajor(int M, int N, int K, float alpha, const gemm_bf16 *A, int lda,
                                 const gemm_bf16 *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc)) /* gemm.h's rules, as ours */
        return;
    cudaDataType t = fp16 ? CUDA_R_16F : CUDA_R_16BF;
    CUBLAS_CHECK(cublasGemmEx(cuda_blas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, t,
                              ldb, A, t, lda, &beta, C, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
}

static double cuda_bf16_run(bench_problem *p, gemm_fn *fn)
{
    bf16_problem *gp = (bf16_problem *)p->ctx;
    if (fn && !p->variant->other_fn)
        cli_die("variant %s has no 16-bit function", p->variant->name);
    cuda_timer_start();
    if (fn && fp16)
        ((gemm_fp16_fn *)p->variant->other_fn)(p->M, p->N, p->K, p->alpha,
                                               (const gemm_fp16 *)gp->dA16, p->lda,
                                               (const gemm_fp16 *)gp->dB16, p->ldb, p->beta, gp->dC,
                                               p->ldc);
    else
        (fn ? gemm_bf16_of(p->variant) : cublas_bf16_rowmajor)(
            p->M, p->N, p->K, p->alpha, (const gemm_bf16 *)gp->dA16, p->lda,
            (const gemm_bf16 *)gp->dB16, p->ldb, p->beta, gp->dC, p->ldc);
    return cuda_timer_stop();
}

static void cuda_bf16_teardown(bench_problem *p)
{
    bf16_problem *gp = (bf16_problem *)p->ctx;
    if (!gp)
        return;
    CUDA_CHECK(cudaFree(gp->dA16));
    CUDA_CHECK(cudaFree(gp->dB16));
    CUDA_CHECK(cudaFree(gp->dC));
    free(gp->rA);
    free(gp->rB);
    free(gp);
    p->ctx = NULL;
}

static const char *cuda_bf16_device_name(void) { return cuda_backend.device_name(); }
static void cuda_bf16_set_threads(int t) { cuda_backend.set_threads(t); }

/* The two backends differ in their init alone, which sets the type the others work on. */
#define SIXTEEN_BIT_BACKEND(INIT)                                                             \
    {.baseline_name = "cuBLAS", .init = INIT, .device_name = cuda_bf16_device_name,            \
     .print_header = cuda_bf16_print_header, .set_threads = cuda_bf16_set_threads,             \
     .setup = cuda_bf16_setup, .put_c = cuda_bf16_put_c, .get_c = cuda_bf16_get_c,             \
     .run = cuda_bf16_run, .teardown = cuda_bf16_teardown, .compiler = cuda_compiler}

const bench_backend cuda_bf16_backend = SIXTEEN_BIT_BACKEND(cuda_bf16_init);
const bench_backend cuda_fp16_backend = SIXTEEN_BIT_BACKEND(cuda_fp16_init);

/* cuda_harness.cuh: what every CUDA stage shares.
 *
 *   CUDA_CHECK(call)       wrap every runtime call: on error, print file:line, the call and
 *                          the error, and exit with status 1
 *   CUBLAS_CHECK(call)     the same for cuBLAS
 *   CUDA_CHECK_LAUNCH()    after every kernel<<<...>>>: a launch returns nothing, so a bad
 *                          configuration (too many threads, too much shared memory) is only
 *                          seen by asking cudaGetLastError
 *   gemm_stream()          the stream every kernel launches on; the harness times it
 *   gemm_set_stream(s)     from now on, this host thread's launches go to stream s (a
 *                          backend that drives several streams or GPUs)
 *   gemm_sm_count()        the GPU's multiprocessors (SMs), for sizing grids
 *   gemm_store()           C = alpha*sum + beta*C, without reading C when beta == 0
 *   ceil_div(), GRID_Y_MAX
 *   cuda_backend           the bench_backend: device buffers, CUDA-event timing of the
 *                          kernel alone, cuBLAS SGEMM (FP32, TF32 off) as the baseline
 *   cuda_blas_handle(), cuda_timer_start/stop(), cuda_print_header_for()
 *                          for a backend of a stage's own built on cuda_backend (BF16 A and B,
 *                          say): the baseline's cuBLAS handle, the timing of one run, the header
 *
 * A stage's main.cu is the same few lines as a CPU stage's main.c, with
 * `.backend = &cuda_backend`. Its kernels implement the gemm_fn contract of gemm.h
 * with device pointers: the harness uploads A, B (and C) before timing, and copies C
 * back afterwards for the same double-precision check as the CPU stages.
 */
#ifndef CUDA_HARNESS_CUH
#define CUDA_HARNESS_CUH

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"
#include "gemm.h"

#define CUDA_CHECK(call)                                                                      \
    do {                                                                                      \
        cudaError_t err_ = (call);                                                            \
        if (err_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,               \
                    cudaGetErrorString(err_), cudaGetErrorName(err_));                       \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

/* The same for cuBLAS calls (include <cublas_v2.h> or <cublasXt.h> where it is used). */
#define CUBLAS_CHECK(call)                                                                    \
    do {                                                                                      \
        cublasStatus_t st_ = (call);                                                          \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                    cublasGetStatusString(st_));                                              \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

/* Why there is no GPU to run on, after cudaGetDeviceCount returned err (or found none), for
 * the "<reason>: skipped" line before exit 77. Without any NVIDIA driver the runtime says
 * "CUDA driver version is insufficient", which sends a reader to update a driver they do
 * not have: only a driver that is there (/proc/driver/nvidia) gets the runtime's words. */
static inline const char *cuda_no_gpu_reason(cudaError_t err)
{
    static char why[160];
    if (err == cudaSuccess || err == cudaErrorNoDevice ||
        (err == cudaErrorInsufficientDriver && access("/proc/driver/nvidia/version", F_OK) != 0))
        return "no NVIDIA GPU or driver found";
    snprintf(why, sizeof why, "no usable CUDA device (%s)", cudaGetErrorString(err));
    return why;
}

/* gridDim.y (and .z) may not exceed 65535, gridDim.x may go to 2^31-1. A launcher whose
 * grid puts rows on y covers a taller matrix in slabs of at most GRID_Y_MAX blocks. */
#define GRID_Y_MAX 65535

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

/* The one store of a result: when beta == 0, C is not read (it may hold NaN). */
__device__ __forceinline__ void gemm_store(float *c, float alpha, float sum, float beta)
{
    *c = beta == 0.0f ? alpha * sum : alpha * sum + beta * *c;
}

cudaStream_t gemm_stream(void);
void gemm_set_stream(cudaStream_t s);
int gemm_sm_count(void);

/* What a variant needs of the GPU. cuda_cc(): the compute capability of the device the run will
 * use (--device, else 0), as 10 * major + minor (90: a Hopper); 0 where there is no GPU.
 * GEMM_CUDA_CC=75 makes it report less than the GPU has (never more): a newer GPU then takes
 * an older one's path, for the tests. The runnable() of a variant's table row (gemm.h): with
 * no GPU they say yes, and the run stops at the device check with "no NVIDIA GPU" (exit 77). */
int cuda_cc(void);
int cuda_needs_sm80(void);  /* cp.async, BF16 and TF32 mma.sync: an A100, RTX 30, or later */
int cuda_needs_sm90(void);  /* wgmma, TMA, clusters: a Hopper (compute capability 9.0) */
#define CUDA_NEEDS_SM80 "compute capability 8.0 (cp.async, BF16/TF32 mma: A100, RTX 30 or later)"
#define CUDA_NEEDS_SM90 "compute capability 9.0 (wgmma, TMA: a Hopper GPU, H100 or H200)"
/* Device code built for a target below sm_80 (make test compiles for sm_75): what needs sm_80
 * compiles to a trap there, and cuda_needs_sm80 keeps it from being launched. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define GEMM_BELOW_SM80 1
#endif
const char *cuda_compiler(void); /* "nvcc 13.0.88 + gcc 13.3.0": the CSV's compiler column */

extern const bench_backend cuda_backend;

/* What cuda_backend reads of a variant (gemm_variant.backend_data; NULL: the default, device
 * buffers). */
typedef struct cuda_variant_data {
    int host_mapped; /* A, B and C stay in pinned host memory that the kernel reads and writes
                        over the bus (zero-copy) */
} cuda_variant_data;
extern const cuda_variant_data cuda_host_mapped; /* {.host_mapped = 1} */

/* For a backend built on cuda_backend (its init, device_name, compiler ... are cuda_backend's
 * fields): the cuBLAS handle of the baseline, on the harness's stream (NULL with --no-baseline;
 * a cublasHandle_t, for a file that includes <cublas_v2.h>); the timing of one run, events on the
 * harness's stream around it (stop waits for the run, checks its launch and gives its ms); and
 * cuda_backend's header, its baseline line saying what cuBLAS runs ("cublasSgemm, FP32, ..."). */
struct cublasContext *cuda_blas_handle(void);
void cuda_timer_start(void);
double cuda_timer_stop(void);
void cuda_print_header_for(FILE *f, const bench_opts *o, const char *baseline);

#endif

/* cuda_harness.cu: how the CUDA stages run and time a kernel, and cuBLAS as the yardstick.
 *
 * The bench loop (bench.c) is the same as on the CPU; this file is its GPU backend:
 *   init        pick --device; exit 77 "no NVIDIA GPU or driver found: skipped" where there is none
 *   setup       device copies of A, B, C with the host's leading dimensions; upload A, B
 *   put_c/get_c C to the device before a run, back to the host for the check
 *   run         CUDA events around the kernel alone (or, with --include-transfers, around
 *               the copies in, the kernel and the copy out); fn NULL runs cublasSgemm
 * A variant whose backend_data is cuda_host_mapped gets pinned host copies of A, B and C that
 * the kernel reads and writes through the bus instead of device buffers.
 * A backend of a stage's own (other element types) builds on this one: cuda_backend's fields,
 * the cuBLAS handle, the timing events and the header, at the end.
 */
#include "cuda_harness.cuh"

#include <cublas_v2.h>
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "matrix.h"

#define STR_(...) #__VA_ARGS__
#define STR(...) STR_(__VA_ARGS__)

/* The process's one GPU context: chosen device, stream, timing events, cuBLAS handle. */
static struct {
    int device, ndevices;
    cudaDeviceProp prop;
    int sm_clock_khz, mem_clock_khz, mem_bus_bits;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cublasHandle_t blas; /* NULL with --no-baseline */
    int include_transfers;
} g;

/* One problem's buffers. Device copies have the host's leading dimensions (lda, ldb, ldc),
 * so padding travels with them and a kernel that writes past a row's end is caught. */
typedef struct gpu_problem {
    float *dA, *dB, *dC;          /* device memory */
    float *hA, *hB, *hC;          /* pinned host copies (mapped variants, --include-transfers) */
    float *mA, *mB, *mC;          /* the same pinned copies as the device addresses them */
    size_t a_bytes, b_bytes, c_bytes;
    int result_on_host;           /* the last run left C in hC, not in dC */
} gpu_problem;

/* A backend that drives several GPUs and several streams per GPU, from one host thread per GPU:
 * each thread names the stream its next launches go to. Unset, it is the harness's stream. */
static thread_local cudaStream_t stream_override;
static thread_local int stream_overridden;
void gemm_set_stream(cudaStream_t s)
{
    stream_override = s;
    stream_overridden = 1;
}
cudaStream_t gemm_stream(void) { return stream_overridden ? stream_override : g.stream; }
int gemm_sm_count(void) { return g.prop.multiProcessorCount; }

/* GEMM_CUDA_CC=86: act as a GPU of compute capability 8.6 where the real one has more (a test of
 * an older GPU's path); 0 where unset or empty. Read as the program starts, before any argument
 * or device, so that a value that is no compute capability ("8.6", "sm_86", "abc") is refused
 * with one line (exit 2) instead of being ignored without a word. */
static int pretend_cc;
__attribute__((constructor)) static void read_pretend_cc(void)
{
    const char *s = getenv("GEMM_CUDA_CC");
    if (!s || !*s)
        return;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || s[0] < '0' || s[0] > '9' || v < 10 || v > 199) {
        fprintf(stderr, "%s: GEMM_CUDA_CC: '%s' is not a compute capability as the harness takes "
                        "it: its two digits, e.g. 86 for 8.6\n", program_invocation_short_name, s);
        exit(2);
    }
    pretend_cc = (int)v;
}

int cuda_cc(void)
{
    int n = 0, dev = cli_device >= 0 ? cli_device : 0;
    cudaDeviceProp prop;
    if (cudaGetDeviceCount(&n) != cudaSuccess || dev >= n ||
        cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    int cc = 10 * prop.major + prop.minor;
    return pretend_cc > 0 && pretend_cc < cc ? pretend_cc : cc;
}

int cuda_needs_sm80(void) { return cuda_cc() == 0 || cuda_cc() >= 80; }
/* sm_90a code (wgmma, TMA, setmaxnreg) runs on compute capability 9.0 alone: not on Blackwell
 * (10.0, 12.0), whose tensor cores take other instructions */
int cuda_needs_sm90(void) { return cuda_cc() == 0 || cuda_cc() == 90; }

static int cuda_init(const bench_opts *o)
{
    cudaError_t err = cudaGetDeviceCount(&g.ndevices);
    if (err != cudaSuccess || g.ndevices == 0) {
        printf("%s: skipped\n", cuda_no_gpu_reason(err));
        return 77;
    }
    if (o->device >= g.ndevices)
        cli_die("--device: %d is out of range (this machine has %d CUDA device%s)", o->device,
                g.ndevices, g.ndevices == 1 ? "" : "s");
    g.device = o->device;
    g.include_transfers = o->include_transfers;
    CUDA_CHECK(cudaSetDevice(g.device));
    CUDA_CHECK(cudaGetDeviceProperties(&g.prop, g.device));
    CUDA_CHECK(cudaDeviceGetAttribute(&g.sm_clock_khz, cudaDevAttrClockRate, g.device));
    CUDA_CHECK(cudaDeviceGetAttribute(&g.mem_clock_khz, cudaDevAttrMemoryClockRate, g.device));
    CUDA_CHECK(cudaDeviceGetAttribute(&g.mem_bus_bits, cudaDevAttrGlobalMemoryBusWidth, g.device));
    CUDA_CHECK(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&g.start));
    CUDA_CHECK(cudaEventCreate(&g.stop));
    if (o->baseline) {
        CUBLAS_CHECK(cublasCreate(&g.blas));
        CUBLAS_CHECK(cublasSetStream(g.blas, g.stream));
        /* FP32 throughout: no TF32 tensor cores (10 mantissa bits), which cuBLAS may use
         * for SGEMM when asked or when NVIDIA_TF32_OVERRIDE says so. Pedantic mode forbids
         * every reduced-precision shortcut, so the baseline computes what the stages compute. */
        CUBLAS_CHECK(cublasSetMathMode(g.blas, CUBLAS_PEDANTIC_MATH));
    }
    return 0;
}

static const char *cuda_device_name(void) { return g.prop.name; }

const char *cuda_compiler(void)
{
    static char name[128];
    snprintf(name, sizeof name, "nvcc %d.%d.%d + gcc %s", __CUDACC_VER_MAJOR__,
             __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__, __VERSION__);
    return name;
}

/* FP32 FMA lanes per SM, from the compute capability (the CUDA programming guide's
 * throughput table): 64 on 6.0, 7.x and 8.0, 128 on the others since 6.1. */
static int fma_lanes_per_sm(int major, int minor)
{
    if ((major == 6 && minor == 0) || major == 7 || (major == 8 && minor == 0))
        return 64;
    return 128;
}

/* "580.159.04" from the kernel module's banner ("NVRM version: NVIDIA UNIX ... Kernel
 * Module ... 580.159.04 Release Build ..."), where Linux exposes it; else "". */
static const char *nvidia_driver_version(void)
{
    static char ver[64];
    char line[256];
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return "";
    if (fgets(line, sizeof line, f)) /* the first token of the form 123.45 is the version */
        for (char *save = NULL, *t = strtok_r(line, " \t\n", &save); t;
             t = strtok_r(NULL, " \t\n", &save)) {
            unsigned a, b;
            if (sscanf(t, "%u.%u", &a, &b) == 2) {
                snprintf(ver, sizeof ver, "%s", t);
                break;
            }
        }
    fclose(f);
    return ver;
}

void cuda_print_header_for(FILE *f, const bench_opts *o, const char *baseline)
{
    const cudaDeviceProp *d = &g.prop;
    int runtime = 0, driver = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    double ghz = g.sm_clock_khz / 1e6;
    int lanes = fma_lanes_per_sm(d->major, d->minor);
    fprintf(f, "%-10s %s (device %d of %d), compute capability %d.%d, %d SMs, max SM clock %.0f MHz, "
               "%.1f GiB\n", "gpu", d->name, g.device, g.ndevices, d->major, d->minor,
            d->multiProcessorCount, g.sm_clock_khz / 1e3, d->totalGlobalMem / 1073741824.0);
    fprintf(f, "%-10s %.1f TFLOP/s FP32 (%d SMs x %d lanes x 2 flops x %.2f GHz), "
               "%.0f GB/s (%d-bit bus, %.0f MHz, 2 transfers a clock)\n", "on paper",
            d->multiProcessorCount * lanes * 2.0 * ghz / 1e3, d->multiProcessorCount, lanes, ghz,
            2.0 * g.mem_clock_khz * 1e3 * (g.mem_bus_bits / 8) / 1e9, g.mem_bus_bits,
            g.mem_clock_khz / 1e3);
    const char *nv = nvidia_driver_version();
    fprintf(f, "%-10s runtime %d.%d, driver %d.%d%s%s%s, kernels built for arch %s\n", "cuda",
            runtime / 1000, runtime % 1000 / 10, driver / 1000, driver % 1000 / 10,
            *nv ? " (NVIDIA " : "", nv, *nv ? ")" : "", STR(__CUDA_ARCH_LIST__));
    if (o->baseline) {
        int major = 0, minor = 0, patch = 0;
        CUBLAS_CHECK(cublasGetProperty(MAJOR_VERSION, &major));
        CUBLAS_CHECK(cublasGetProperty(MINOR_VERSION, &minor));
        CUBLAS_CHECK(cublasGetProperty(PATCH_LEVEL, &patch));
        fprintf(f, "%-10s cuBLAS %d.%d.%d %s\n", "baseline", major, minor, patch, baseline);
    } else {
        fprintf(f, "%-10s none (--no-baseline)\n", "baseline");
    }
    if (o->include_transfers)
        fprintf(f, "%-10s CUDA events around host->device copies of A, B (and C when beta != 0), "
                   "the kernel, and the device->host copy of C; pinned host memory\n", "timing");
    else
        fprintf(f, "%-10s CUDA events around the kernel alone (data already on the device)\n",
                "timing");
}

static void cuda_print_header(FILE *f, const bench_opts *o)
{
    cuda_print_header_for(f, o, "cublasSgemm, FP32, TF32 off (CUBLAS_PEDANTIC_MATH)");
}

static void cuda_set_threads(int t) { (void)t; }

static int cuda_setup(bench_problem *p)
{
    gpu_problem *gp = (gpu_problem *)calloc(1, sizeof *gp);
    if (!gp)
        cli_die("out of memory");
    gp->a_bytes = matrix_bytes(p->M, p->lda);
    gp->b_bytes = matrix_bytes(p->K > 0 ? p->K : 1, p->ldb); /* K = 0: one row, unread */
    gp->c_bytes = matrix_bytes(p->M, p->ldc);
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    double need = (double)gp->a_bytes + gp->b_bytes + gp->c_bytes;
    if (need > (double)free_bytes ||
        cudaMalloc((void **)&gp->dA, gp->a_bytes) != cudaSuccess ||
        cudaMalloc((void **)&gp->dB, gp->b_bytes) != cudaSuccess ||
        cudaMalloc((void **)&gp->dC, gp->c_bytes) != cudaSuccess) {
        fprintf(stderr, "%s: size %dx%dx%d needs %.2f GiB of device memory; %s has %.2f GiB free\n",
                cli_prog, p->M, p->N, p->K, need / 1073741824.0, g.prop.name,
                free_bytes / 1073741824.0);
        cudaGetLastError(); /* clear the failed allocation's error */
        cudaFree(gp->dA);
        cudaFree(gp->dB);
        free(gp);
        return 1;
    }
    CUDA_CHECK(cudaMemcpyAsync(gp->dA, p->A, gp->a_bytes, cudaMemcpyHostToDevice, g.stream));
    CUDA_CHECK(cudaMemcpyAsync(gp->dB, p->B, gp->b_bytes, cudaMemcpyHostToDevice, g.stream));
    CUDA_CHECK(cudaStreamSynchronize(g.stream));
    p->ctx = gp;
    return 0;
}

/* Pinned ("page-locked") host copies of A, B, C, mapped into the device's address space.
 * The copy engines move pinned memory at full bus speed, and a kernel can read and write it
 * directly (zero-copy). Made once per problem, when first needed. */
static void pin_host_copies(bench_problem *p, gpu_problem *gp)
{
    if (gp->hA)
        return;
    if (!g.prop.canMapHostMemory)
        cli_die("%s cannot map host memory (needed by mapped variants)", g.prop.name);
    if (cudaHostAlloc((void **)&gp->hA, gp->a_bytes, cudaHostAllocMapped) != cudaSuccess ||
        cudaHostAlloc((void **)&gp->hB, gp->b_bytes, cudaHostAllocMapped) != cudaSuccess ||
        cudaHostAlloc((void **)&gp->hC, gp->c_bytes, cudaHostAllocMapped) != cudaSuccess)
        cli_die("size %dx%dx%d: cannot pin %.2f GiB of host memory", p->M, p->N, p->K,
                ((double)gp->a_bytes + gp->b_bytes + gp->c_bytes) / 1073741824.0);
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&gp->mA, gp->hA, 0));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&gp->mB, gp->hB, 0));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&gp->mC, gp->hC, 0));
    memcpy(gp->hA, p->A, gp->a_bytes);
    memcpy(gp->hB, p->B, gp->b_bytes);
}

const cuda_variant_data cuda_host_mapped = {.host_mapped = 1};

static int is_mapped(const bench_problem *p, gemm_fn *fn)
{
    const cuda_variant_data *d =
        p->variant ? (const cuda_variant_data *)p->variant->backend_data : NULL;
    return fn && d && d->host_mapped;
}

static void cuda_put_c(bench_problem *p)
{
    gpu_problem *gp = (gpu_problem *)p->ctx;
    CUDA_CHECK(cudaMemcpyAsync(gp->dC, p->C, gp->c_bytes, cudaMemcpyHostToDevice, g.stream));
    CUDA_CHECK(cudaStreamSynchronize(g.stream));
    if (g.include_transfers || is_mapped(p, p->variant ? p->variant->fn : NULL)) {
        pin_host_copies(p, gp);
        memcpy(gp->hC, p->C, gp->c_bytes);
    }
}

static void cuda_get_c(bench_problem *p)
{
    gpu_problem *gp = (gpu_problem *)p->ctx;
    if (gp->result_on_host) {
        memcpy(p->C, gp->hC, gp->c_bytes);
    } else {
        CUDA_CHECK(cudaMemcpyAsync(p->C, gp->dC, gp->c_bytes, cudaMemcpyDeviceToHost, g.stream));
        CUDA_CHECK(cudaStreamSynchronize(g.stream));
    }
}

/* cuBLAS follows Fortran BLAS: matrices are column-major. Read column-major, the bytes of a
 * row-major M x N matrix with row stride ldc are its transpose, an N x M matrix with leading
 * dimension ldc. So instead of C = A B (row-major) we ask for C^T = B^T A^T (column-major):
 * B first, then A, with the sizes (N, M, K), nothing transposed, and the same leading
 * dimensions. No data moves; cuBLAS writes exactly the row-major C we want. */
static void cublas_sgemm_rowmajor(int M, int N, int K, float alpha, const float *A, int lda,
                                  const float *B, int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return_gpu(M, N, K, alpha, beta, C, ldc)) /* gemm.h's rules, as ours */
        return;
    CUBLAS_CHECK(cublasSgemm(g.blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, ldb, A, lda,
                             &beta, C, ldc));
}

static double cuda_run(bench_problem *p, gemm_fn *fn)
{
    gpu_problem *gp = (gpu_problem *)p->ctx;
    int mapped = is_mapped(p, fn);
    int transfers = g.include_transfers && !mapped; /* a mapped kernel does its own */
    const float *A = gp->dA, *B = gp->dB;
    float *C = gp->dC;
    if (mapped) {
        pin_host_copies(p, gp);
        A = gp->mA;
        B = gp->mB;
        C = gp->mC;
    }
    cuda_timer_start();
    if (transfers) {
        CUDA_CHECK(cudaMemcpyAsync(gp->dA, gp->hA, gp->a_bytes, cudaMemcpyHostToDevice, g.stream));
        CUDA_CHECK(cudaMemcpyAsync(gp->dB, gp->hB, gp->b_bytes, cudaMemcpyHostToDevice, g.stream));
        if (p->beta != 0.0f) /* with beta == 0 the kernel never reads C */
            CUDA_CHECK(cudaMemcpyAsync(gp->dC, gp->hC, gp->c_bytes, cudaMemcpyHostToDevice,
                                       g.stream));
    }
    (fn ? fn : cublas_sgemm_rowmajor)(p->M, p->N, p->K, p->alpha, A, p->lda, B, p->ldb, p->beta,
                                      C, p->ldc);
    if (transfers)
        CUDA_CHECK(cudaMemcpyAsync(gp->hC, gp->dC, gp->c_bytes, cudaMemcpyDeviceToHost, g.stream));
    double ms = cuda_timer_stop();
    gp->result_on_host = mapped || transfers;
    return ms;
}

static void cuda_teardown(bench_problem *p)
{
    gpu_problem *gp = (gpu_problem *)p->ctx;
    if (!gp)
        return;
    CUDA_CHECK(cudaFree(gp->dA));
    CUDA_CHECK(cudaFree(gp->dB));
    CUDA_CHECK(cudaFree(gp->dC));
    CUDA_CHECK(cudaFreeHost(gp->hA));
    CUDA_CHECK(cudaFreeHost(gp->hB));
    CUDA_CHECK(cudaFreeHost(gp->hC));
    free(gp);
    p->ctx = NULL;
}

const bench_backend cuda_backend = {
    .baseline_name = "cuBLAS",
    .init = cuda_init,
    .device_name = cuda_device_name,
    .print_header = cuda_print_header,
    .set_threads = cuda_set_threads,
    .setup = cuda_setup,
    .put_c = cuda_put_c,
    .get_c = cuda_get_c,
    .run = cuda_run,
    .teardown = cuda_teardown,
    .compiler = cuda_compiler,
};

/* ---- for a backend built on this one ------------------------------------------------------ */

cublasHandle_t cuda_blas_handle(void) { return g.blas; }

void cuda_timer_start(void) { CUDA_CHECK(cudaEventRecord(g.start, g.stream)); }

double cuda_timer_stop(void)
{
    CUDA_CHECK(cudaEventRecord(g.stop, g.stream));
    CUDA_CHECK(cudaEventSynchronize(g.stop)); /* a kernel that faulted reports it here */
    CUDA_CHECK_LAUNCH();
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, g.start, g.stop));
    return ms;
}

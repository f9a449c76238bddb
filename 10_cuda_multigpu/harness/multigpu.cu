/* multigpu.cu: the harness of 10_cuda_multigpu, the bench loop's backend for several GPUs.
 *
 * What differs from the one-GPU harness (common/cuda_harness.cu):
 *   - The matrices stay in host memory. setup() pins them (cudaHostRegister, portable: every
 *     GPU's copy engine may read and write them directly at full bus speed) and each variant
 *     moves what it needs. A call ends when all of C is back in host memory.
 *   - Timing is the host's wall clock around the call, end to end: copies in, kernels, copies
 *     out, on every GPU. The kernel-only share comes from CUDA events the variants record
 *     around each copy and kernel (mg_span_*), written to --stats and --timeline.
 *   - The baseline is cuBLASXt (cublasXtSgemm), NVIDIA's host-memory multi-GPU GEMM, on the
 *     same pinned buffers and the same GPUs, with its block size from --xt-block.
 *   - The sweep is over GPU counts (--gpus 1,2,4): the CSV's threads column holds them.
 */
#include <cublasXt.h>
#include <cublas_v2.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../../09_cuda_registers/cuda_registers.h" /* gemm_warptile_any_size, the 09 kernel */
#include "cli.h"
#include "csv.h"
#include "matrix.h"
#include "multigpu.h"
#include "sysinfo.h"
#include "timer.h"

#define GiB 1073741824.0

mg_settings mg = {1, 0, 0, 3, 0.0, 8192, NULL, NULL};
struct mg_last_call mg_last;

static struct {
    int ndevices;
    cudaDeviceProp prop[MG_MAX_GPUS];
    mg_gpu gpu[MG_MAX_GPUS];
    int ready[MG_MAX_GPUS];
    int baseline;
    cublasXtHandle_t xt;
    /* the spans of the current call, per GPU */
    mg_span *spans[MG_MAX_GPUS];
    int nspans[MG_MAX_GPUS], capspans[MG_MAX_GPUS];
    cudaEvent_t origin[MG_MAX_GPUS];
    int ncall_gpus;
} h;

/* ---- the GPUs ------------------------------------------------------------------------------- */

mg_gpu *mg_gpu_get(int g)
{
    CUDA_CHECK(cudaSetDevice(g));
    mg_gpu *d = &h.gpu[g];
    if (!h.ready[g]) { /* first use, from GPU g's own thread */
        d->device = g;
        CUDA_CHECK(cudaStreamCreateWithFlags(&d->copy_in, cudaStreamNonBlocking));
        for (int s = 0; s < MG_MAX_STREAMS; s++)
            CUDA_CHECK(cudaStreamCreateWithFlags(&d->compute[s], cudaStreamNonBlocking));
        cublasHandle_t blas;
        CUBLAS_CHECK(cublasCreate(&blas));
        /* FP32 throughout, no TF32 tensor cores: the same arithmetic as the 09 kernel */
        CUBLAS_CHECK(cublasSetMathMode(blas, CUBLAS_PEDANTIC_MATH));
        d->blas = blas;
        CUDA_CHECK(cudaEventCreate(&h.origin[g]));
        h.ready[g] = 1;
    }
    return d;
}

/* What a variant may hold on GPU g: --device-mem, else what is free (its own workspace
 * counted as free) less a reserve, so that cuBLASXt, run in turn with the variant, still
 * finds room for its blocks: six buffers of xt_block^2 floats and 2 GiB besides. */
size_t mg_budget(int g)
{
    mg_gpu *d = mg_gpu_get(g);
    size_t free_b = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total));
    double have = (double)free_b + (double)d->work_bytes;
    double reserve = 2.0 * GiB + 6.0 * mg.xt_block * (double)mg.xt_block * sizeof(float);
    double budget = have - reserve;
    if (mg.device_mem > 0 && mg.device_mem < budget)
        budget = mg.device_mem;
    return budget > 0 ? (size_t)budget : 0;
}

char *mg_workspace(int g, size_t bytes)
{
    mg_gpu *d = mg_gpu_get(g);
    if (d->work_bytes >= bytes)
        return d->work;
    CUDA_CHECK(cudaFree(d->work));
    d->work = NULL;
    d->work_bytes = 0;
    if (cudaMalloc((void **)&d->work, bytes) != cudaSuccess)
        cli_die("GPU %d: cannot allocate %.2f GiB of device memory", g, bytes / GiB);
    d->work_bytes = bytes;
    return d->work;
}

static void free_workspaces(void)
{
    for (int g = 0; g < h.ndevices; g++)
        if (h.ready[g] && h.gpu[g].work) {
            CUDA_CHECK(cudaSetDevice(g));
            CUDA_CHECK(cudaFree(h.gpu[g].work));
            h.gpu[g].work = NULL;
            h.gpu[g].work_bytes = 0;
        }
}

void mg_gemm(mg_kernel k, mg_gpu *d, cudaStream_t s, int M, int N, int K, float alpha,
             const float *A, int lda, const float *B, int ldb, float beta, float *C, int ldc)
{
    if (k == MG_KERNEL_09) {
        gemm_set_stream(s);
        gemm_warptile_any_size(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    /* row-major C = A B is column-major C^T = B^T A^T: see common/cuda_harness.cu */
    cublasHandle_t blas = (cublasHandle_t)d->blas;
    CUBLAS_CHECK(cublasSetStream(blas, s));
    CUBLAS_CHECK(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, ldb, A, lda,
                             &beta, C, ldc));
}

/* ---- spans: the events of one call ---------------------------------------------------------- */

void mg_record_start(int ngpus)
{
    h.ncall_gpus = ngpus;
    for (int g = 0; g < ngpus; g++)
        h.nspans[g] = 0;
}

void mg_record_origin(int g)
{
    CUDA_CHECK(cudaEventRecord(h.origin[g], h.gpu[g].copy_in));
}

int mg_span_begin(int g, cudaStream_t s, int stream_id, mg_event_kind kind, int ti, int tj,
                  int kc, double bytes)
{
    if (h.nspans[g] == h.capspans[g]) { /* events are made once and reused call after call */
        int cap = h.capspans[g] ? 2 * h.capspans[g] : 1024;
        mg_span *p = (mg_span *)realloc(h.spans[g], sizeof(mg_span) * (size_t)cap);
        if (!p)
            cli_die("out of memory");
        for (int i = h.capspans[g]; i < cap; i++) {
            CUDA_CHECK(cudaEventCreate(&p[i].start));
            CUDA_CHECK(cudaEventCreate(&p[i].stop));
        }
        h.spans[g] = p;
        h.capspans[g] = cap;
    }
    int i = h.nspans[g]++;
    mg_span *sp = &h.spans[g][i];
    sp->gpu = g;
    sp->stream = stream_id;
    sp->kind = kind;
    sp->ti = ti;
    sp->tj = tj;
    sp->kc = kc;
    sp->bytes = bytes;
    CUDA_CHECK(cudaEventRecord(sp->start, s));
    return i;
}

void mg_span_end(int g, int span, cudaStream_t s)
{
    CUDA_CHECK(cudaEventRecord(h.spans[g][span].stop, s));
}

/* ---- the record of a call: --stats and --timeline --------------------------------------------- */

typedef struct interval {
    double a, b;
} interval;

static int cmp_interval(const void *x, const void *y)
{
    double a = ((const interval *)x)->a, b = ((const interval *)y)->a;
    return (a > b) - (a < b);
}

static const char *kind_name[] = {"h2d", "kernel", "d2h"};

/* After a call: per GPU, the time some kernel was running (the union of the kernel spans:
 * kernels of two streams may overlap) and the bytes copied each way; then the CSV rows. */
static void write_record(const bench_problem *p, const char *variant, double wall_ms)
{
    int G = h.ncall_gpus;
    double busy[MG_MAX_GPUS] = {0}, h2d = 0, d2h = 0, busy_max = 0, busy_sum = 0;
    FILE *tl = NULL;
    if (mg.timeline && strcmp(variant, "cublasxt") != 0 && (tl = fopen(mg.timeline, "w")) != NULL)
        fprintf(tl, "variant,m,n,k,gpus,gpu,stream,kind,ti,tj,kc,start_ms,end_ms,bytes\n");
    for (int g = 0; g < G; g++) {
        if (!h.ready[g])
            continue;
        CUDA_CHECK(cudaSetDevice(g));
        int n = h.nspans[g], nk = 0;
        interval *iv = (interval *)malloc(sizeof(interval) * (size_t)(n ? n : 1));
        if (!iv)
            cli_die("out of memory");
        for (int i = 0; i < n; i++) {
            mg_span *sp = &h.spans[g][i];
            float a = 0, b = 0;
            CUDA_CHECK(cudaEventElapsedTime(&a, h.origin[g], sp->start));
            CUDA_CHECK(cudaEventElapsedTime(&b, h.origin[g], sp->stop));
            if (sp->kind == EV_KERNEL)
                iv[nk++] = (interval){a, b};
            else if (sp->kind == EV_H2D)
                h2d += sp->bytes;
            else
                d2h += sp->bytes;
            if (tl)
                fprintf(tl, "%s,%d,%d,%d,%d,%d,%d,%s,%d,%d,%d,%.4f,%.4f,%.0f\n", variant, p->M,
                        p->N, p->K, G, g, sp->stream, kind_name[sp->kind], sp->ti, sp->tj, sp->kc,
                        a, b, sp->bytes);
        }
        qsort(iv, (size_t)nk, sizeof *iv, cmp_interval);
        double end = -1e300;
        for (int i = 0; i < nk; i++) { /* union of the intervals */
            double a = iv[i].a > end ? iv[i].a : end;
            if (iv[i].b > a)
                busy[g] += iv[i].b - a;
            if (iv[i].b > end)
                end = iv[i].b;
        }
        free(iv);
        busy_sum += busy[g];
        if (busy[g] > busy_max)
            busy_max = busy[g];
    }
    if (tl)
        fclose(tl);
    if (!mg.stats)
        return;
    double flops = 2.0 * p->M * (double)p->N * p->K;
    char tiles[16 * MG_MAX_GPUS] = "", date[32];
    int tiled = strncmp(variant, "tiled_streams", 13) == 0;
    for (int g = 0; tiled && g < G; g++)
        snprintf(tiles + strlen(tiles), sizeof tiles - strlen(tiles), "%s%ld", g ? "/" : "",
                 mg_last.tiles_per_gpu[g]);
    sysinfo_utc_now(date, sizeof date);
    char spans[256], device[256];
    if (busy_max > 0)
        snprintf(spans, sizeof spans, "%.3f,%.3f,%.4f,%.3f,%.3f,%.1f,%.1f", busy_max,
                 busy_sum / G, busy_sum / G / wall_ms, h2d / GiB, d2h / GiB,
                 flops / wall_ms / 1e6, flops / busy_max / 1e6);
    else /* cuBLASXt: only the wall clock is known */
        snprintf(spans, sizeof spans, ",,,,,%.1f,", flops / wall_ms / 1e6);
    csv_field(device, sizeof device, h.prop[0].name);
    cli_csv_row(mg.stats, "10_cuda_multigpu,%s,%d,%d,%d,%d,%d,%d,%d,%d,%s,%.3f,%s,%s,%s,%s",
                variant, p->M, p->N, p->K, G, tiled ? mg_last.tile : 0,
                tiled ? mg_last.kblock : 0, tiled ? mg_last.streams : 1,
                tiled ? mg_last.slots_per_gpu : 0, tiles, wall_ms, spans, device,
                sysinfo_git_rev(), date);
}

/* ---- the backend ------------------------------------------------------------------------------ */

static int mg_init(const bench_opts *o)
{
    /* cuBLASXt has no math-mode setting: this keeps its SGEMM in FP32 (no TF32), as ours. Set
     * before the program's first CUDA or cuBLAS call. */
    setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
    cudaError_t err = cudaGetDeviceCount(&h.ndevices);
    if (err != cudaSuccess || h.ndevices == 0) {
        printf("%s: skipped\n", cuda_no_gpu_reason(err));
        return 77;
    }
    if (h.ndevices > MG_MAX_GPUS)
        h.ndevices = MG_MAX_GPUS;
    if (o->device != 0)
        cli_die("--device: this stage uses devices 0 .. N-1 (--gpus N); this machine has %d",
                h.ndevices);
    /* Without --gpus, every GPU. A sweep written for a bigger host (--gpus 1,2,4) runs what this
     * one has: the counts above its GPUs are left out, said once. The list is bench_main's own
     * (not const there). */
    bench_opts *w = (bench_opts *)o;
    if (!o->thread_list)
        w->threads[0] = h.ndevices;
    int kept = 0;
    for (int t = 0; t < o->nthreads; t++)
        if (o->threads[t] <= h.ndevices)
            w->threads[kept++] = o->threads[t];
        else
            printf("--gpus %d: this machine has %d GPU%s: skipped\n", o->threads[t], h.ndevices,
                   h.ndevices == 1 ? "" : "s");
    if (kept == 0)
        return 77;
    w->nthreads = kept;
    for (int g = 0; g < h.ndevices; g++)
        CUDA_CHECK(cudaGetDeviceProperties(&h.prop[g], g));
    h.baseline = o->baseline;
    omp_set_dynamic(0); /* one host thread per GPU, always */
    return 0;
}

static const char *mg_device_name(void) { return h.prop[0].name; }

static void mg_print_header(FILE *f, const bench_opts *o)
{
    for (int g = 0; g < h.ndevices; g++)
        fprintf(f, "%-10s %d: %s, %d SMs, %.1f GiB, PCI %04x:%02x:%02x\n", g ? "" : "gpus", g,
                h.prop[g].name, h.prop[g].multiProcessorCount, h.prop[g].totalGlobalMem / GiB,
                h.prop[g].pciDomainID, h.prop[g].pciBusID, h.prop[g].pciDeviceID);
    int runtime = 0, driver = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    fprintf(f, "%-10s runtime %d.%d, driver %d.%d\n", "cuda", runtime / 1000, runtime % 1000 / 10,
            driver / 1000, driver % 1000 / 10);
    char tile[96];
    snprintf(tile, sizeof tile, mg.tile ? "%d" : "auto (8192, halved until every GPU gets 4)",
             mg.tile);
    fprintf(f, "%-10s tile %s, k slice %d, %d streams per GPU, device memory %s\n", "settings",
            tile, mg.kblock ? mg.kblock : 4096, mg.streams,
            mg.device_mem > 0 ? "capped by --device-mem" : "all that is free");
    if (o->baseline) {
        int major = 0, minor = 0, patch = 0;
        CUBLAS_CHECK(cublasGetProperty(MAJOR_VERSION, &major));
        CUBLAS_CHECK(cublasGetProperty(MINOR_VERSION, &minor));
        CUBLAS_CHECK(cublasGetProperty(PATCH_LEVEL, &patch));
        fprintf(f, "%-10s cuBLASXt %d.%d.%d cublasXtSgemm, block %d, FP32 (NVIDIA_TF32_OVERRIDE=0), "
                   "same pinned host buffers and GPUs\n", "baseline", major, minor, patch,
                mg.xt_block);
    } else {
        fprintf(f, "%-10s none (--no-baseline)\n", "baseline");
    }
    fprintf(f, "%-10s wall clock from the call to C back in pinned host memory (copies in, "
               "kernels, copies out)\n", "timing");
}

static void mg_set_gpus(int t)
{
    mg.ngpus = t;
    /* CUDA contexts, streams and cuBLAS handles now, not in the first timed call (a run longer
     * than a second is measured once, by its checked call: see common/bench.c) */
    for (int g = 0; g < t; g++)
        mg_gpu_get(g);
    CUDA_CHECK(cudaSetDevice(0));
    if (!h.baseline)
        return;
    if (h.xt)
        CUBLAS_CHECK(cublasXtDestroy(h.xt));
    int ids[MG_MAX_GPUS];
    for (int g = 0; g < t; g++)
        ids[g] = g;
    CUBLAS_CHECK(cublasXtCreate(&h.xt));
    CUBLAS_CHECK(cublasXtDeviceSelect(h.xt, t, ids));
    CUBLAS_CHECK(cublasXtSetBlockDim(h.xt, mg.xt_block));
}

static int pin(const void *p, size_t bytes)
{
    return cudaHostRegister((void *)p, bytes, cudaHostRegisterPortable) == cudaSuccess;
}

static int mg_setup(bench_problem *p)
{
    size_t a = matrix_bytes(p->M, p->lda), b = matrix_bytes(p->K > 0 ? p->K : 1, p->ldb),
           c = matrix_bytes(p->M, p->ldc);
    double t0 = timer_now();
    int big = a + b + c > 16 * GiB;
    if (big)
        fprintf(stderr, "  pinning %.1f GiB of host memory ...\n", (a + b + c) / GiB);
    if (!pin(p->A, a) || !pin(p->B, b) || !pin(p->C, c)) {
        cudaGetLastError();
        fprintf(stderr, "%s: cannot pin %.1f GiB of host memory (cudaHostRegister)\n", cli_prog,
                (a + b + c) / GiB);
        return 1;
    }
    if (big)
        fprintf(stderr, "  pinned in %.1f s\n", timer_now() - t0);
    return 0;
}

static void mg_put_c(bench_problem *p) { (void)p; } /* C is the host's: nothing to move */
static void mg_get_c(bench_problem *p) { (void)p; }

static double mg_run(bench_problem *p, gemm_fn *fn)
{
    double t0 = timer_now();
    if (fn) {
        fn(p->M, p->N, p->K, p->alpha, p->A, p->lda, p->B, p->ldb, p->beta, p->C, p->ldc);
    } else {
        /* column-major C^T = B^T A^T, as for cuBLAS; cublasXtSgemm returns with C on the host.
         * gemm.h's edge rules first, as for our variants. */
        if (!gemm_quick_return(p->M, p->N, p->K, p->alpha, p->beta, p->C, p->ldc))
            CUBLAS_CHECK(cublasXtSgemm(h.xt, CUBLAS_OP_N, CUBLAS_OP_N, (size_t)p->N, (size_t)p->M,
                                       (size_t)p->K, &p->alpha, p->B, (size_t)p->ldb, p->A,
                                       (size_t)p->lda, &p->beta, p->C, (size_t)p->ldc));
        h.ncall_gpus = mg.ngpus;
        for (int g = 0; g < mg.ngpus; g++)
            h.nspans[g] = 0;
    }
    double ms = (timer_now() - t0) * 1e3;
    write_record(p, fn ? p->variant->name : "cublasxt", ms);
    return ms;
}

static void mg_teardown(bench_problem *p)
{
    CUDA_CHECK(cudaHostUnregister((void *)p->A));
    CUDA_CHECK(cudaHostUnregister((void *)p->B));
    CUDA_CHECK(cudaHostUnregister((void *)p->C));
    free_workspaces();
}

const bench_backend multigpu_backend = {
    .baseline_name = "cuBLASXt",
    .init = mg_init,
    .device_name = mg_device_name,
    .print_header = mg_print_header,
    .set_threads = mg_set_gpus,
    .setup = mg_setup,
    .put_c = mg_put_c,
    .get_c = mg_get_c,
    .run = mg_run,
    .teardown = mg_teardown,
    .compiler = cuda_compiler,
};

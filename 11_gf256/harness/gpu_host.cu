/* gpu_host.cu: the host side of chapter 11's GPU kernels (../gpu_tiles.cu): the device, its
 * buffers, the kernels' tables and launch shapes, the launches, the transfers and the timing.
 * The C driver calls it through gpu.h.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "cuda_harness.cuh"
#include "gpu.h"
#include "gpu_kernels.cuh"
#include "timer.h"

static cudaDeviceProp prop;
static int opened = -1;

extern "C" int gf_gpu_open(int device, char *name, size_t namelen)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        snprintf(name, namelen, "%s", cuda_no_gpu_reason(err));
        return -1;
    }
    if (device >= n) {
        snprintf(name, namelen, "%d is out of range (this machine has %d CUDA device%s)", device,
                 n, n == 1 ? "" : "s");
        return -2;
    }
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    opened = device;
    snprintf(name, namelen, "%s", prop.name);
    return 0;
}

static double event_ms(cudaEvent_t a, cudaEvent_t b)
{
    float ms;
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

extern "C" double gf_gpu_copy_gbps(size_t bytes)
{
    void *src, *dst;
    if (cudaMalloc(&src, bytes) != cudaSuccess)
        return 0;
    if (cudaMalloc(&dst, bytes) != cudaSuccess) {
        CUDA_CHECK(cudaFree(src));
        return 0;
    }
    CUDA_CHECK(cudaMemset(src, 1, bytes));
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    double best = 1e30;
    for (int r = 0; r < 11; r++) { /* the first is a warm-up */
        CUDA_CHECK(cudaEventRecord(e0));
        CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaEventRecord(e1));
        double ms = event_ms(e0, e1);
        if (r > 0)
            best = std::min(best, ms);
    }
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    return 2.0 * (double)bytes / (best * 1e6);
}

/* One launch of a kernel over the whole problem, as set up by prepare(). */
struct launch {
    enum gf_gpu_kernel kind;
    int k, rows;
    size_t pitch, len, ncols;
    uint8_t *din, *dout;
    void *dtab;            /* the kernel's tables on the device */
    dim3 grid;
    size_t smem;
    int G, P, cshift, jslice; /* gpu_rect: groups per block, copies = 1<<cshift, k per launch */
};

static void run_kernel(const launch &L)
{
    switch (L.kind) {
    case GF_GPU_TABLES:
        k_tables<<<L.grid, THREADS, L.smem>>>(L.din, L.dout, L.pitch, L.len, L.k, L.rows,
                                              (const uint8_t *)L.dtab,
                                              (const uint8_t *)L.dtab + L.rows * L.k,
                                              (const uint8_t *)L.dtab + L.rows * L.k + 256);
        CUDA_CHECK_LAUNCH();
        break;
    case GF_GPU_RECT: {
        int ngroups = (L.rows + 3) / 4;
        for (int j0 = 0; j0 < L.k; j0 += L.jslice) {
            int nj = std::min(L.jslice, L.k - j0);
            size_t smem = (size_t)nj * L.G * 256 * 4 << L.cshift;
            k_rect_g[L.G]<<<L.grid, THREADS, smem>>>(L.din, L.dout, L.pitch, L.ncols, j0, nj,
                                                     L.rows, ngroups, (const uint32_t *)L.dtab,
                                                     L.cshift, j0 > 0);
            CUDA_CHECK_LAUNCH();
        }
        break;
    }
    case GF_GPU_AFFINE:
        k_affine_p[L.P]<<<L.grid, THREADS, L.smem>>>(L.din, L.dout, L.pitch, L.ncols, L.k,
                                                     L.rows, (const uint32_t *)L.dtab);
        CUDA_CHECK_LAUNCH();
        break;
    }
}

/* Blocks of `fn` that fit on one SM with `smem` bytes of dynamic shared memory. */
template <typename F> static int blocks_per_sm(F fn, size_t smem)
{
    int n = 0;
    CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, THREADS, smem));
    return std::max(n, 1);
}

/* Copies of gpu_rect's tables: GF_RECT_COPIES=1|2|4|8 forces a value (for the chapter's
 * experiment); otherwise the most that still lets 4 blocks share an SM. */
static int rect_cshift(size_t table_bytes)
{
    const char *env = getenv("GF_RECT_COPIES");
    if (env && *env) {
        int c = atoi(env), s = 0;
        while ((2 << s) <= c && s < 3)
            s++;
        return s;
    }
    int s = 3;
    size_t per_sm = prop.sharedMemPerMultiprocessor - 4096;
    while (s > 0 && 4 * (table_bytes << s) > per_sm)
        s--;
    return s;
}

/* Tables and launch shape for kind; host tables from the field f. */
static int prepare(launch &L, const gf_gpu_field *f, const uint8_t *coef, char *shape,
                   size_t shapelen, char *err, size_t errlen)
{
    const int k = L.k, rows = L.rows, sms = prop.multiProcessorCount;
    const size_t optin = prop.sharedMemPerBlockOptin;
    std::vector<uint8_t> bytes;
    std::vector<uint32_t> words;
    size_t grid_x = 0;
    switch (L.kind) {
    case GF_GPU_TABLES: {
        bytes.resize((size_t)rows * k + 768);
        for (int t = 0; t < rows * k; t++)
            bytes[t] = coef[t] ? f->log[coef[t]] : 255;
        memcpy(&bytes[(size_t)rows * k], f->log, 256);
        memcpy(&bytes[(size_t)rows * k + 256], f->exp, 512);
        L.smem = 768 + (size_t)rows * k;
        int per_sm = blocks_per_sm(k_tables, L.smem);
        grid_x = std::min<size_t>((L.len + THREADS - 1) / THREADS, (size_t)sms * per_sm);
        snprintf(shape, shapelen, "%d threads x 1 byte, %d blocks", THREADS, (int)grid_x);
        break;
    }
    case GF_GPU_RECT: {
        int ngroups = (rows + 3) / 4;
        words.assign((size_t)k * ngroups * 256, 0);
        for (int j = 0; j < k; j++)
            for (int g = 0; g < ngroups; g++)
                for (int x = 0; x < 256; x++) {
                    uint32_t w = 0;
                    for (int r = 0; r < 4 && 4 * g + r < rows; r++)
                        w |= (uint32_t)f->mul[coef[(4 * g + r) * k + j] * 256 + x] << (8 * r);
                    words[((size_t)j * ngroups + g) * 256 + x] = w;
                }
        L.G = ngroups >= 2 ? 2 : 1;                          /* rows per block: 4 or 8 */
        L.jslice = (int)std::min<size_t>(k, optin / (L.G * 1024)); /* inputs per launch */
        if (L.jslice < 1) {
            snprintf(err, errlen, "gpu_rect: tables do not fit in shared memory");
            return -1;
        }
        L.cshift = rect_cshift((size_t)L.jslice * L.G * 1024);
        while (((size_t)L.jslice * L.G * 1024 << L.cshift) > optin)
            L.cshift--;
        L.smem = (size_t)L.jslice * L.G * 1024 << L.cshift;
        int per_sm = blocks_per_sm(k_rect_g[L.G], L.smem);
        grid_x = std::min<size_t>((L.ncols + THREADS - 1) / THREADS, (size_t)sms * per_sm);
        L.grid.y = (ngroups + L.G - 1) / L.G;
        snprintf(shape, shapelen,
                 "tile %d rows x %d B, %d table copies, %zu KiB smem, %d blocks/SM, grid %dx%d%s",
                 4 * L.G, THREADS * 16, 1 << L.cshift, L.smem / 1024, per_sm, (int)grid_x,
                 (int)L.grid.y, L.jslice < k ? ", k in slices" : "");
        break;
    }
    case GF_GPU_AFFINE: {
        L.P = std::min(rows, 8);
        while (L.P > 1 && (size_t)L.P * k * 32 > optin)
            L.P--;
        words.resize((size_t)rows * k * 8);
        for (int t = 0; t < rows * k; t++)
            for (int b = 0; b < 8; b++)
                words[(size_t)t * 8 + b] = f->mul[coef[t] * 256 + (1 << b)];
        L.smem = (size_t)L.P * k * 32;
        int per_sm = blocks_per_sm(k_affine_p[L.P], L.smem);
        grid_x = std::min<size_t>((L.ncols + THREADS - 1) / THREADS, (size_t)sms * per_sm);
        L.grid.y = (rows + L.P - 1) / L.P;
        snprintf(shape, shapelen, "tile %d rows x %d B, %d blocks/SM, grid %dx%d", L.P,
                 THREADS * 16, per_sm, (int)grid_x, (int)L.grid.y);
        break;
    }
    }
    L.grid.x = (unsigned)std::max<size_t>(grid_x, 1);
    size_t tbytes = bytes.empty() ? words.size() * 4 : bytes.size();
    if (cudaMalloc(&L.dtab, tbytes) != cudaSuccess) {
        snprintf(err, errlen, "cannot allocate %zu bytes of tables on the GPU", tbytes);
        return -1;
    }
    CUDA_CHECK(cudaMemcpy(L.dtab, bytes.empty() ? (const void *)words.data() : bytes.data(),
                          tbytes, cudaMemcpyHostToDevice));
    return 0;
}

static void summarize(double *t, int n, gf_gpu_timing *out)
{
    out->reps = n;
    out->ms_min = timer_min(t, n);
    out->ms_median = timer_median(t, n);
}

/* One timed run for timer_alternate: the kernel on resident data, or (hin set) the copy of the
 * input from pinned host memory, the kernel and the copy of the output back. */
struct timed_launch {
    const launch *L;
    cudaEvent_t e0, e1;
    uint8_t *hin, *hout;
    size_t in_bytes, out_bytes;
};

static double timed_run(void *arg)
{
    const timed_launch *T = (const timed_launch *)arg;
    CUDA_CHECK(cudaEventRecord(T->e0));
    if (T->hin)
        CUDA_CHECK(cudaMemcpyAsync(T->L->din, T->hin, T->in_bytes, cudaMemcpyHostToDevice));
    run_kernel(*T->L);
    if (T->hin)
        CUDA_CHECK(cudaMemcpyAsync(T->hout, T->L->dout, T->out_bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaEventRecord(T->e1));
    return event_ms(T->e0, T->e1);
}

extern "C" int gf_gpu_encode(enum gf_gpu_kernel kind, const gf_gpu_field *f, int k, int rows,
                             const uint8_t *coef, const uint8_t *const *in, uint8_t *const *out,
                             size_t len, const timer_rule *rule, gf_gpu_timing *kernel_t,
                             gf_gpu_timing *e2e_t, char *shape,
                             size_t shapelen, char *err, size_t errlen)
{
    if (opened < 0) {
        snprintf(err, errlen, "no CUDA device opened");
        return -1;
    }
    launch L = {};
    L.kind = kind;
    L.k = k;
    L.rows = rows;
    L.len = len;
    L.pitch = (len + 15) / 16 * 16;
    L.ncols = L.pitch / 16;
    L.grid = dim3(1, 1, 1);
    size_t in_bytes = (size_t)k * L.pitch, out_bytes = (size_t)rows * L.pitch;
    if (cudaMalloc((void **)&L.din, in_bytes) != cudaSuccess ||
        cudaMalloc((void **)&L.dout, out_bytes) != cudaSuccess) {
        cudaGetLastError();
        if (L.din)
            CUDA_CHECK(cudaFree(L.din));
        snprintf(err, errlen, "cannot allocate %.2f GiB on the GPU",
                 (double)(in_bytes + out_bytes) / (1 << 30));
        return -1;
    }
    CUDA_CHECK(cudaMemset(L.din, 0, in_bytes)); /* the padding encodes to padding */
    CUDA_CHECK(cudaMemset(L.dout, 0xA5, out_bytes)); /* poison: unwritten bytes fail */
    for (int j = 0; j < k; j++)
        CUDA_CHECK(cudaMemcpy(L.din + (size_t)j * L.pitch, in[j], len, cudaMemcpyHostToDevice));
    if (prepare(L, f, coef, shape, shapelen, err, errlen) != 0) {
        CUDA_CHECK(cudaFree(L.din));
        CUDA_CHECK(cudaFree(L.dout));
        return -1;
    }
    run_kernel(L);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < rows; i++)
        CUDA_CHECK(cudaMemcpy(out[i], L.dout + (size_t)i * L.pitch, len, cudaMemcpyDeviceToHost));

    if (rule) {
        timed_launch T = {&L, NULL, NULL, NULL, NULL, in_bytes, out_bytes};
        CUDA_CHECK(cudaEventCreate(&T.e0));
        CUDA_CHECK(cudaEventCreate(&T.e1));
        std::vector<double> t((size_t)std::max(rule->reps, rule->max_reps));
        /* the kernel alone, data resident on the GPU (the check run above was the warm-up) */
        summarize(t.data(), timer_alternate(rule, 0, timed_run, &T, NULL, NULL, t.data(), NULL),
                  kernel_t);
        /* end to end: pinned host buffers -> GPU, kernel, parity -> host */
        if (cudaMallocHost((void **)&T.hin, in_bytes) != cudaSuccess)
            T.hin = NULL;
        if (cudaMallocHost((void **)&T.hout, out_bytes) != cudaSuccess)
            T.hout = NULL;
        if (!T.hin || !T.hout) {
            cudaGetLastError();
            e2e_t->reps = 0;
        } else {
            memset(T.hin, 0, in_bytes);
            for (int j = 0; j < k; j++)
                memcpy(T.hin + (size_t)j * L.pitch, in[j], len);
            timed_run(&T); /* a warm-up */
            summarize(t.data(),
                      timer_alternate(rule, 0, timed_run, &T, NULL, NULL, t.data(), NULL), e2e_t);
            for (int i = 0; i < rows; i++) /* what the timed runs brought back must match too */
                if (memcmp(T.hout + (size_t)i * L.pitch, out[i], len) != 0) {
                    snprintf(err, errlen, "end-to-end run differs from the first run in row %d", i);
                    e2e_t->reps = -1;
                }
        }
        if (T.hin)
            CUDA_CHECK(cudaFreeHost(T.hin));
        if (T.hout)
            CUDA_CHECK(cudaFreeHost(T.hout));
        CUDA_CHECK(cudaEventDestroy(T.e0));
        CUDA_CHECK(cudaEventDestroy(T.e1));
    }
    CUDA_CHECK(cudaFree(L.dtab));
    CUDA_CHECK(cudaFree(L.din));
    CUDA_CHECK(cudaFree(L.dout));
    return 0;
}

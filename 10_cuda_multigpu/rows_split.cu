/* 10_cuda_multigpu, rows_split: the simplest way to use several GPUs.
 *
 *   GPU g of G computes rows [M*g/G, M*(g+1)/G) of C with the 09 kernel:
 *
 *        A            B          C
 *     +------+    +------+    +------+
 *     | g=0  |    |      |    | g=0  |     each GPU gets its band of A's rows and all of B,
 *     +------+  x |  all |  = +------+     computes its band of C, and copies it back
 *     | g=1  |    |      |    | g=1  |
 *     +------+    +------+    +------+
 *
 * One host thread per GPU; on each, one stream, and everything in order: B in, the band of A
 * in, the kernel, the band of C out. Nothing overlaps on a GPU (the timeline shows the bus and
 * the SMs taking turns); the GPUs run side by side. If the band does not fit beside B, it goes
 * in pieces of as many rows as fit. B itself must fit: when it does not, tiled_streams is the
 * variant for the job.
 *
 * Device copies are dense with leading dimensions rounded up to 32 floats (128 bytes), so
 * the 09 kernel takes its float4 path for any N and K.
 */
#include <omp.h>

#include "harness/multigpu.h"

#define GiB 1073741824.0

static inline long round_up(long x, long m) { return (x + m - 1) / m * m; }

void gemm_rows_split(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* C is in host memory */
        return;
    int G = mg.ngpus < M ? mg.ngpus : M;
    mg_record_start(G);
#pragma omp parallel num_threads(G)
    {
        int g = omp_get_thread_num();
        mg_gpu *d = mg_gpu_get(g);
        mg_record_origin(g);
        cudaStream_t s = d->compute[0];
        int r0 = (int)((long)M * g / G), r1 = (int)((long)M * (g + 1) / G);
        long ldk = round_up(K, 32), ldn = round_up(N, 32); /* device leading dimensions */
        double b_bytes = (double)K * ldn * sizeof(float);
        double row_bytes = (double)(ldk + ldn) * sizeof(float); /* a row of A and one of C */
        double budget = (double)mg_budget(g);
        if (b_bytes + row_bytes > budget)
            cli_die("rows_split: B (%.2f GiB) does not fit in GPU %d's %.2f GiB: use tiled_streams",
                    b_bytes / GiB, g, budget / GiB);
        long band = (long)((budget - b_bytes) / row_bytes);
        if (band > r1 - r0)
            band = r1 - r0;
        float *dB = (float *)mg_workspace(g, (size_t)(b_bytes + band * row_bytes));
        float *dA = dB + (size_t)K * ldn, *dC = dA + (size_t)band * ldk;

        int sp = mg_span_begin(g, s, 0, EV_H2D, -1, -1, -1, b_bytes);
        CUDA_CHECK(cudaMemcpy2DAsync(dB, ldn * sizeof(float), B, (size_t)ldb * sizeof(float),
                                     (size_t)N * sizeof(float), K, cudaMemcpyHostToDevice, s));
        mg_span_end(g, sp, s);
        for (int r = r0; r < r1; r += (int)band) {
            int rows = (int)(r1 - r < band ? r1 - r : band);
            sp = mg_span_begin(g, s, 0, EV_H2D, r, -1, -1,
                              (double)rows * (K + (beta != 0.0f ? N : 0)) * sizeof(float));
            CUDA_CHECK(cudaMemcpy2DAsync(dA, ldk * sizeof(float), A + (size_t)r * lda,
                                         (size_t)lda * sizeof(float), (size_t)K * sizeof(float),
                                         rows, cudaMemcpyHostToDevice, s));
            if (beta != 0.0f) /* C is read only when beta != 0 */
                CUDA_CHECK(cudaMemcpy2DAsync(dC, ldn * sizeof(float), C + (size_t)r * ldc,
                                             (size_t)ldc * sizeof(float),
                                             (size_t)N * sizeof(float), rows,
                                             cudaMemcpyHostToDevice, s));
            mg_span_end(g, sp, s);
            sp = mg_span_begin(g, s, 0, EV_KERNEL, r, -1, -1, 0);
            mg_gemm(MG_KERNEL_09, d, s, rows, N, K, alpha, dA, (int)ldk, dB, (int)ldn, beta, dC,
                    (int)ldn);
            mg_span_end(g, sp, s);
            sp = mg_span_begin(g, s, 0, EV_D2H, r, -1, -1, (double)rows * N * sizeof(float));
            CUDA_CHECK(cudaMemcpy2DAsync(C + (size_t)r * ldc, (size_t)ldc * sizeof(float), dC,
                                         ldn * sizeof(float), (size_t)N * sizeof(float), rows,
                                         cudaMemcpyDeviceToHost, s));
            mg_span_end(g, sp, s);
        }
        CUDA_CHECK(cudaStreamSynchronize(s)); /* a kernel that faulted reports it here */
        CUDA_CHECK_LAUNCH();
    }
}

/* 10_cuda_multigpu exercise: rows_split, a band of rows of C per GPU.
 *
 * Build and grade it on a machine with one or more NVIDIA GPUs:   make grade STAGE=10
 * (one GPU is enough: then the "band" is all of C, and the copies still have to be right).
 * tiled_streams is solved for you in tiled_streams.cu; this file replaces rows_split.cu.
 * Until gemm_rows_split is written, C keeps its NaN poison and every check that needs a
 * product FAILs (the edge cases that need none pass: gemm_quick_return handles them).
 *
 * What you have (multigpu.h):
 *   mg.ngpus                 how many GPUs this call uses (devices 0 .. ngpus-1)
 *   mg_gpu_get(g)            makes GPU g the calling thread's device; ->compute[0] is a stream
 *   mg_budget(g)             bytes of device memory you may use on GPU g
 *   mg_workspace(g, bytes)   a device buffer of at least `bytes` on GPU g, kept between calls
 *   mg_gemm(MG_KERNEL_09, d, stream, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)
 *                            the 09 kernel on device pointers, on that stream
 *   mg_record_start(G), mg_record_origin(g), mg_span_begin/end: optional, for --timeline
 *   cli_die(fmt, ...)        one line on stderr and exit 2 (e.g. B does not fit)
 *
 * TODO, in gemm_rows_split:
 *   1. G = min(mg.ngpus, M) host threads: #pragma omp parallel num_threads(G); in each,
 *      g = omp_get_thread_num() and d = mg_gpu_get(g).
 *   2. GPU g's rows: r0 = M*g/G .. r1 = M*(g+1)/G (in long arithmetic: M*g overflows int).
 *   3. Device copies: B (K x N), the band of A (rows x K), the band of C (rows x N), with
 *      leading dimensions of your choice (a multiple of 32 floats keeps the kernel's float4
 *      path). Check B + the band fits mg_budget(g); if only B fits, do the band in pieces.
 *   4. cudaMemcpy2DAsync A's band and B in (pitch: the host's lda/ldb in bytes; width: K or N
 *      floats), and C's band too when beta != 0; mg_gemm; copy C's band back with
 *      cudaMemcpy2DAsync (width N floats: the host's padding between N and ldc must stay).
 *   5. cudaStreamSynchronize the stream before the thread ends: the call must return with
 *      C in host memory.
 * Hint: the host buffers are pinned (cudaHostRegister) by the harness, so the Async copies
 *       really are asynchronous; nothing is done until you synchronize.
 */
#include <omp.h>

#include "harness/multigpu.h"

void gemm_rows_split(int M, int N, int K, float alpha, const float *A, int lda, const float *B,
                     int ldb, float beta, float *C, int ldc)
{
    if (gemm_quick_return(M, N, K, alpha, beta, C, ldc)) /* the BLAS edge rules (gemm.h): done */
        return;
    (void)M; (void)N; (void)K; (void)alpha; (void)A; (void)lda; (void)B; (void)ldb;
    (void)beta; (void)C; (void)ldc;
}

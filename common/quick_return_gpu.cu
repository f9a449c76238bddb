/* quick_return_gpu.cu: gemm_quick_return for the CUDA variants (gemm.h): the same rules, with
 * C = beta*C done by a small kernel on the harness's stream, where C lives. */
#include "cuda_harness.cuh"

__global__ void scale_c_kernel(int M, int N, float beta, float *C, int ldc)
{
    size_t total = (size_t)M * N, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
        float *c = &C[IDX(e / N, e % N, ldc)];
        *c = beta == 0.0f ? 0.0f : beta * *c; /* beta == 0: C is not read */
    }
}

int gemm_quick_return_gpu(int M, int N, int K, float alpha, float beta, float *C, int ldc)
{
    if (M <= 0 || N <= 0 || K < 0)
        return 1;
    if (K > 0 && alpha != 0.0f)
        return 0;
    if (beta != 1.0f) {
        size_t blocks = ((size_t)M * N + 255) / 256;
        scale_c_kernel<<<(int)(blocks < 4096 ? blocks : 4096), 256, 0, gemm_stream()>>>(M, N, beta,
                                                                                        C, ldc);
        CUDA_CHECK_LAUNCH();
    }
    return 1;
}

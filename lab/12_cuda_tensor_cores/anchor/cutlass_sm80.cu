// lab/12_cuda_tensor_cores/anchor/cutlass_sm80.cu: an anchor, CUTLASS 2's mma.sync GEMM for sm80 (BF16 in,
// FP32 sums and C) in five shapes, timed on the same GPU as mma_pipelined. Built by build.sh
// beside it from a CUTLASS checkout; usage: cutlass_sm80 [N [REPS]] (square N, median of REPS).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cuda_runtime.h>
#include "cutlass/cutlass.h"
#include "cutlass/gemm/device/gemm.h"
#include "cutlass/epilogue/thread/linear_combination.h"

using bf16 = cutlass::bfloat16_t;
using Row = cutlass::layout::RowMajor;

template <int BM, int BN, int BK, int WM, int WN, int WK, int S>
using G = cutlass::gemm::device::Gemm<
    bf16, Row, bf16, Row, float, Row, float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<BM, BN, BK>, cutlass::gemm::GemmShape<WM, WN, WK>,
    cutlass::gemm::GemmShape<16, 8, 16>, cutlass::epilogue::thread::LinearCombination<float, 4, float, float>,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<8>, S>;

template <class Gemm>
double run(const char *name, int n, bf16 *A, bf16 *B, float *C, int reps, bool check,
           const std::vector<bf16> &hA, const std::vector<bf16> &hB)
{
    typename Gemm::Arguments args({n, n, n}, {A, n}, {B, n}, {C, n}, {C, n}, {1.0f, 0.0f});
    Gemm g;
    size_t ws = Gemm::get_workspace_size(args);
    void *w = nullptr;
    if (ws) cudaMalloc(&w, ws);
    if (g.initialize(args, w) != cutlass::Status::kSuccess) { printf("%s: cannot initialize\n", name); return 0; }
    for (int i = 0; i < 3; i++) g();
    cudaDeviceSynchronize();
    if (check) {
        std::vector<float> hC((size_t)n * n);
        cudaMemcpy(hC.data(), C, hC.size() * 4, cudaMemcpyDeviceToHost);
        double worst = 0;
        for (int t = 0; t < 64; t++) {
            int i = (t * 7919) % n, j = (t * 104729 + 13) % n;
            double r = 0;
            for (int k = 0; k < n; k++) r += (double)float(hA[(size_t)i * n + k]) * (double)float(hB[(size_t)k * n + j]);
            double e = fabs(r - hC[(size_t)i * n + j]) / (1e-3 + fabs(r));
            if (e > worst) worst = e;
        }
        printf("%s n=%d check: worst relative error %.2e over 64 entries\n", name, n, worst);
    }
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<float> t(reps);
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(e0);
        g();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&t[r], e0, e1);
    }
    std::sort(t.begin(), t.end());
    double ms = t[reps / 2];
    double tf = 2.0 * n * n * (double)n / (ms * 1e-3) / 1e12;
    printf("%-28s n=%5d median %.3f ms  %.1f TFLOP/s (best %.1f)\n", name, n, ms, tf,
           2.0 * n * n * (double)n / (t[0] * 1e-3) / 1e12);
    if (w) cudaFree(w);
    return tf;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096, reps = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 1 || reps < 1 || argc > 3) {
        fprintf(stderr, "usage: cutlass_sm80 [N [REPS]] (N, REPS positive integers)\n");
        return 2;
    }
    std::vector<bf16> hA((size_t)n * n), hB((size_t)n * n);
    srand(1);
    for (auto &x : hA) x = bf16(float(rand()) / RAND_MAX * 2 - 1);
    for (auto &x : hB) x = bf16(float(rand()) / RAND_MAX * 2 - 1);
    bf16 *A, *B; float *C;
    if (cudaMalloc(&A, hA.size() * 2) || cudaMalloc(&B, hB.size() * 2) ||
        cudaMalloc(&C, (size_t)n * n * 4)) {
        fprintf(stderr, "cutlass_sm80: no GPU, or not enough memory on it for N = %d\n", n);
        return 77;
    }
    cudaMemcpy(A, hA.data(), hA.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(B, hB.data(), hB.size() * 2, cudaMemcpyHostToDevice);
    bool check = n <= 4096;
    run<G<128, 256, 64, 64, 64, 64, 3>>("cutlass 128x256x64 w64x64 s3", n, A, B, C, reps, check, hA, hB);
    run<G<128, 256, 64, 64, 64, 64, 4>>("cutlass 128x256x64 w64x64 s4", n, A, B, C, reps, false, hA, hB);
    run<G<256, 128, 64, 64, 64, 64, 3>>("cutlass 256x128x64 w64x64 s3", n, A, B, C, reps, false, hA, hB);
    run<G<128, 256, 32, 64, 64, 32, 4>>("cutlass 128x256x32 w64x64 s4", n, A, B, C, reps, false, hA, hB);
    run<G<128, 128, 64, 64, 64, 64, 4>>("cutlass 128x128x64 w64x64 s4", n, A, B, C, reps, false, hA, hB);
    return 0;
}

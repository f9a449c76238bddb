#!/usr/bin/env bash
# lab/12_cuda_tensor_cores/anchor/build.sh CUTLASS_DIR: builds build/anchor/cutlass_sm80, CUTLASS's
# own mma.sync GEMM for sm80 (BF16 in, FP32 sums and C) in five shapes, for the H200 (sm_90), to be
# timed beside mma_pipelined (bench-mma.sh anchor). CUTLASS_DIR: a checkout of
# github.com/NVIDIA/cutlass (its include/ is all it reads; none of it is in this repository).
set -eu
cutlass=${1:?usage: build.sh CUTLASS_DIR}
[ -d "$cutlass/include/cutlass" ] || { echo "build.sh: no include/cutlass in $cutlass" >&2; exit 2; }
cd "$(dirname "$0")/../../.."
mkdir -p build/anchor
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$nvcc" -O3 -std=c++17 -gencode arch=compute_80,code=sm_90 -I"$cutlass/include" \
    -o build/anchor/cutlass_sm80 lab/12_cuda_tensor_cores/anchor/cutlass_sm80.cu
echo "built build/anchor/cutlass_sm80 ($(cd "$cutlass" && git rev-parse --short HEAD 2>/dev/null || echo "CUTLASS"))"

#!/usr/bin/env bash
# The measurements chapter 07 quotes:  lab/07_cuda_naive/bench.sh [OUT_DIR]   (default results/local)
#   OUT_DIR/07_cuda_naive.csv            every variant, the kernel alone, 16..4096
#   OUT_DIR/07_cuda_naive_transfers.csv  coalesced and cuBLAS with the copies timed in
# The reference results in results/h100/ were made with: lab/07_cuda_naive/bench.sh results/h100
set -eu
cd "$(dirname "$0")/../.."
out=${1:-results/local}
mkdir -p "$out"
make -s stage07
lock=$(command -v flock >/dev/null && echo scripts/bench-lock)
rm -f "$out/07_cuda_naive.csv" "$out/07_cuda_naive_transfers.csv"
# mapped reads A and B in host memory across the bus: it stops growing once a run takes 2 s
$lock 07_cuda_naive/cuda_naive --sizes 16:4096:x2 --time-limit 2 --csv "$out/07_cuda_naive.csv"
$lock 07_cuda_naive/cuda_naive --include-transfers --variant coalesced --sizes 16:4096:x2 \
    --csv "$out/07_cuda_naive_transfers.csv"

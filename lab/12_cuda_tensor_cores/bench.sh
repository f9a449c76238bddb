#!/usr/bin/env bash
# The measurements chapter 12 quotes:  lab/12_cuda_tensor_cores/bench.sh [OUT_DIR]   (default results/local)
#   OUT_DIR/12_cuda_tensor_cores.csv   every variant with cuBLAS at 1024, 2048, 4096 (the climb),
#                                      then wgmma_persistent with cuBLAS at 4095, 4097, 6000, 6016
#                                      (sizes that are multiples of no tile, and the multiple of
#                                      128 next to 6000), 8192 and 16384
#   OUT_DIR/12_runs/tune.csv           wgmma_persistent's configurations alone, with cuBLAS, at
#                                      1024, 2048, 4096, 8192: what each of its ideas is worth
#   OUT_DIR/12_runs/odd.csv            4095 and 4097 read in place from rows padded to 128 bytes
#                                      (--pad 1, --pad 63) beside 4096, 4095 and 4097: what the
#                                      aligned copies and the odd rows of C cost
#   OUT_DIR/12_runs/unrounded.csv      checked against the product of the unrounded float inputs:
#                                      what rounding A and B to BF16 costs (these checks FAIL)
#   OUT_DIR/12_runs/probe.txt          --probe: how the tensor cores add
# Every row is checked (sampled rows above 1024^3); cuBLAS runs alternately with each variant.
# The reference results in results/h100/ were made with: lab/12_cuda_tensor_cores/bench.sh results/h100
set -eu
cd "$(dirname "$0")/../.."
out=${1:-results/local}
mkdir -p "$out/12_runs"
make -s stage12
lock=$(command -v flock >/dev/null && echo scripts/bench-lock)
bin=12_cuda_tensor_cores/cuda_tensor_cores
csv=$out/12_cuda_tensor_cores.csv
rm -f "$csv" "$out"/12_runs/{tune,odd,unrounded}.csv
$lock $bin --variant all --sizes 1024,2048,4096 --csv "$csv"
$lock $bin --variant wgmma_persistent --sizes 4095,4097,6000,6016,8192 --csv "$csv"
$lock $bin --variant wgmma_persistent --sizes 16384 --reps 10 --csv "$csv"
$lock $bin --tune --variant all --sizes 1024,2048,4096,8192 --csv "$out/12_runs/tune.csv"
$lock $bin --variant wgmma_persistent --sizes 4096,4095,4097 --csv "$out/12_runs/odd.csv"
$lock $bin --variant wgmma_persistent --sizes 4095 --pad 1 --csv "$out/12_runs/odd.csv"
$lock $bin --variant wgmma_persistent --sizes 4097 --pad 63 --csv "$out/12_runs/odd.csv"
$lock $bin --variant mma_ldmatrix,wgmma_persistent --no-baseline --reference unrounded \
    --sizes 1024x1024x64,1024x1024x256,1024x1024x1024,1024x1024x4096,1024x1024x16384 \
    --csv "$out/12_runs/unrounded.csv" # checks that fail by design: exit status 0
$lock $bin --probe --variant all >"$out/12_runs/probe.txt"

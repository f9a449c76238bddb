#!/usr/bin/env bash
# The measurements chapter 09 quotes:  lab/09_cuda_registers/bench.sh [OUT_DIR]   (default results/local)
#   OUT_DIR/09_cuda_registers.csv   every variant with cuBLAS at 1024, 2048, 4096 (the climb), then
#                                   the two tuned variants (warptile, async_pipeline) with cuBLAS
#                                   at 8192, 16384 and at the sizes
#                                   that are multiples of no tile (4095, 4097, 6000) with 6016,
#                                   the multiple of 128 next to 6000
#   OUT_DIR/09_cuda_registers_choice.csv   warptile, which picks its tile by problem size, and
#                                   its two configurations alone, at sizes where they fill the GPU
#                                   differently (1024; 4096 x 4097 x 4096) and at 4097
# Every row is checked (sampled rows above 1024^3); cuBLAS runs alternately with each variant.
# The reference results in results/h100/ were made with: lab/09_cuda_registers/bench.sh results/h100
set -eu
cd "$(dirname "$0")/../.."
out=${1:-results/local}
best=${BEST:-warptile,async_pipeline}
mkdir -p "$out"
make -s stage09
lock=$(command -v flock >/dev/null && echo scripts/bench-lock)
csv=$out/09_cuda_registers.csv
rm -f "$csv"
bin=09_cuda_registers/cuda_registers
$lock $bin --variant all --sizes 1024,2048,4096 --csv "$csv"
$lock $bin --variant "$best" --sizes 4095,4097,6000,6016,8192 --csv "$csv"
$lock $bin --variant "$best" --sizes 16384 --reps 10 --csv "$csv"
choice=$out/09_cuda_registers_choice.csv
rm -f "$choice"
$lock $bin --variant warptile --sizes 1024,4096x4097x4096,4097 --csv "$choice"
$lock $bin --tune --variant warptile/128x256x16_w32x64_t8x8_s2_prefetch,warptile/128x128x16_w32x64_t8x8_s2 \
    --sizes 1024,4096x4097x4096,4097 --csv "$choice"

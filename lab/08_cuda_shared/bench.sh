#!/usr/bin/env bash
# The measurements chapter 08 quotes:  lab/08_cuda_shared/bench.sh [OUT_DIR]   (default results/local)
#   OUT_DIR/08_cuda_shared.csv                  every variant, square sizes 64..4096
#   OUT_DIR/08_cuda_shared_skinny.csv           every variant, --shape skinny (16xK times Kx2^20)
#   OUT_DIR/08_cuda_shared_skinny_tile32.csv    smem_rect forced to square 32x32x32 tiles on the
#                                               skinny preset: the same kernel, the tile's shape alone
# The reference results in results/h100/ were made with: lab/08_cuda_shared/bench.sh results/h100
set -eu
cd "$(dirname "$0")/../.."
out=${1:-results/local}
mkdir -p "$out"
make -s stage08
lock=$(command -v flock >/dev/null && echo scripts/bench-lock)
rm -f "$out/08_cuda_shared.csv" "$out/08_cuda_shared_skinny.csv" "$out/08_cuda_shared_skinny_tile32.csv"
$lock 08_cuda_shared/cuda_shared --sizes 64:4096:x2 --csv "$out/08_cuda_shared.csv"
$lock 08_cuda_shared/cuda_shared --shape skinny --csv "$out/08_cuda_shared_skinny.csv"
$lock 08_cuda_shared/cuda_shared --shape skinny --variant smem_rect --tile 32x32x32 \
    --csv "$out/08_cuda_shared_skinny_tile32.csv"

#!/usr/bin/env bash
# The measurements chapter 04 quotes:  04_threads/bench.sh [OUT_DIR]   (default results/local)
#   OUT_DIR/04_threads.csv, from three runs, each one command so that its ratios are side by side:
#     1. scaling: every variant on 1 and 2 threads, 64..2048, tiles of 64 and 256
#     2. small matrices: 8..128 on 1 and 2 threads, tiles of 16 (so that there are tiles to share)
#     3. more threads than cores: the tiled variants on 3 threads, static against dynamic
# The reference results in results/xeon-2c/ were made with: 04_threads/bench.sh results/xeon-2c
set -eu
cd "$(dirname "$0")/.."
out=${1:-results/local}
mkdir -p "$out"
make -s stage04
csv=$out/04_threads.csv
rm -f "$csv"
scripts/bench-lock 04_threads/threads --threads 1,2 --sizes 64:2048:x2 --tile 64,256 --csv "$csv"
scripts/bench-lock 04_threads/threads --threads 1,2 --sizes 8:128:x2 --tile 16 --csv "$csv"
scripts/bench-lock 04_threads/threads --threads 3 --sizes 256:2048:x2 \
    --variant omp_tiled,omp_tiled_dyn,pthreads_tiled --tile 64,256 --csv "$csv"

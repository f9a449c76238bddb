#!/usr/bin/env bash
# The measurements chapter 04 quotes:  lab/04_threads/bench.sh [OUT_DIR]   (default results/local)
#   OUT_DIR/04_threads.csv, from four runs (about 10 minutes on xeon-2c):
#     1. scaling: every variant, 64..2048, tiles of 64 and 256, on 1 and 2 threads alternated
#        three times (1,2,1,2,1,2): the second core of a shared virtual machine comes and goes,
#        and alternating puts both thread counts under the same conditions
#     2. small matrices: 8..128, tiles of 16 (so that there are tiles to share), 1,2,1,2
#     3. more threads than cores: the tiled variants on 2 and 3 threads, alternated
#     4. against OpenBLAS at 1024 and 2048, 1 and 2 threads
# Runs 1-3 leave OpenBLAS out (--no-baseline): its pthreads keep spinning for a while after each
# call, and so do OpenMP's, so timing the two alternately on 2 cores makes each steal the other's
# cores (the chapter shows what that did). Run 4 makes OpenBLAS's threads go to sleep at once
# (OPENBLAS_THREAD_TIMEOUT=4) and keeps to sizes where one call takes much longer than a spin.
# The reference results in results/xeon-2c/ were made with: lab/04_threads/bench.sh results/xeon-2c
set -eu
cd "$(dirname "$0")/../.."
out=${1:-results/local}
lock=scripts/bench-lock # every timed run takes the benchmark lock (re-entrant)
mkdir -p "$out"
make -s stage04
csv=$out/04_threads.csv
rm -f "$csv"
chapter=omp_rows,omp_tiled,omp_tiled_dyn,pthreads_tiled # the chapter's (the exercise's are not measured)
$lock 04_threads/threads --no-baseline --threads 1,2,1,2,1,2 --reps 3 \
    --sizes 64:2048:x2 --variant $chapter --tile 64,256 --csv "$csv"
$lock 04_threads/threads --no-baseline --threads 1,2,1,2 --sizes 8:128:x2 --variant $chapter \
    --tile 16 --csv "$csv"
$lock 04_threads/threads --no-baseline --threads 2,3,2,3 --reps 3 --sizes 512,1024,2048 \
    --variant omp_tiled,omp_tiled_dyn,pthreads_tiled --tile 64,256 --csv "$csv"
OPENBLAS_THREAD_TIMEOUT=4 $lock 04_threads/threads --threads 1,2 --reps 3 \
    --sizes 1024,2048 --variant omp_rows,omp_tiled_dyn --tile 256 --csv "$csv"

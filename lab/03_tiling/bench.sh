#!/usr/bin/env bash
# The measurements chapter 03 quotes:  lab/03_tiling/bench.sh [OUT_DIR]   (default results/local)
#   OUT_DIR/03_tiling.csv   02's ikj and the chapter's three blocked variants (not the exercise's
#                           tiled_kij and unroll_4x4) at every tile from 16 to 512,
#                           one thread, two runs (each run measures every ratio side by side)
#   OUT_DIR/experiments/03_tiling_pad{0,1,16}.csv   the same code with wider rows (below)
# The reference results in results/xeon-2c/ were made with: lab/03_tiling/bench.sh results/xeon-2c
set -eu
cd "$(dirname "$0")/../.."
out=${1:-results/local}
lock=scripts/bench-lock # every timed run takes the benchmark lock (re-entrant)
mkdir -p "$out"
make -s stage03
rm -f "$out/03_tiling.csv"
# 1000 beside 1024: the same work, but rows 4000 bytes apart instead of 4096 (see the chapter).
# --reps 5, and the whole sweep twice (two runs appended, about 6 minutes each): on a shared
# machine one sample, or one run, can land on a busy moment.
for round in 1 2; do
    $lock 03_tiling/tiling --variant ikj,tiled,tiled_copy,unroll_2x4 --threads 1 --reps 5 \
        --sizes 256,512,1000,1024,2048 --tile 16,32,64,128,256,512 --csv "$out/03_tiling.csv"
done
# tiled, tiled_copy and unroll_2x4 at 1024 with the rows 1024, 1025 and 1040 floats apart
# (--pad 0, 1, 16): pad 1 removes the 4 KiB stride but misaligns the rows, pad 16 removes the
# stride and keeps every row on a 64-byte boundary. The CSV has no pad column, so each pad
# gets its own file, in experiments/ (out of the charts); two rounds, appended, so that one
# busy moment cannot decide the comparison.
mkdir -p "$out/experiments"
rm -f "$out"/experiments/03_tiling_pad{0,1,16}.csv
for round in 1 2; do
    for pad in 0 1 16; do
        $lock 03_tiling/tiling --threads 1 --reps 5 --sizes 1024 \
            --variant tiled,tiled_copy,unroll_2x4 --tile 64,256 --pad $pad \
            --csv "$out/experiments/03_tiling_pad$pad.csv"
    done
done

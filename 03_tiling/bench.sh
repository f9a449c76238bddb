#!/usr/bin/env bash
# The measurements chapter 03 quotes:  03_tiling/bench.sh [OUT_DIR]   (default results/local)
#   OUT_DIR/03_tiling.csv   02's ikj and the three blocked variants at every tile from 16 to 512,
#                           one thread, in one run (so every ratio is measured side by side)
# The reference results in results/xeon-2c/ were made with: 03_tiling/bench.sh results/xeon-2c
set -eu
cd "$(dirname "$0")/.."
out=${1:-results/local}
mkdir -p "$out"
make -s stage03
rm -f "$out/03_tiling.csv"
# 1000 beside 1024: the same work, but rows 4000 bytes apart instead of 4096 (see the chapter)
scripts/bench-lock 03_tiling/tiling --threads 1 --sizes 256,512,1000,1024,2048 \
    --tile 16,32,64,128,256,512 --csv "$out/03_tiling.csv"

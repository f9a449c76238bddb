#!/usr/bin/env bash
# lab/11_gf256/bench.sh: the CPU measurements chapter 11 quotes, into results/$MACHINE/11_gf256.csv.
#   MACHINE=xeon-2c lab/11_gf256/bench.sh
# Each run takes the benchmark lock (scripts/bench-lock). The CSV is rewritten from scratch.
# The GPU rows (results/h100/11_gf256.csv) come from `./11_gf256/gf256 --variant
# gpu_tables,gpu_rect,gpu_affine --len 1M,16M,64M,256M --csv ...` on the GPU machine.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
MACHINE=${MACHINE:-local}
CSV=results/$MACHINE/11_gf256.csv
mkdir -p "results/$MACHINE"
rm -f "$CSV"
make -s stage11 || exit 1
run() { scripts/bench-lock ./11_gf256/gf256 --csv "$CSV" "$@"; rc=$?; [ $rc -eq 0 ] || [ $rc -eq 77 ] || echo "bench: exit $rc: $*"; }
# 1. the target: RS(10,4), 1 MiB chunks, one thread, every CPU variant this machine runs next
#    to ISA-L (naming one it cannot run would skip the whole call: gfni needs GFNI and
#    AVX-512BW); five runs, because a shared machine's noise moves one run by 20% or more
cpu=$(./11_gf256/gf256 --list | awk '$1 !~ /^gpu_/ && !/\[not here/ { printf "%s%s", s, $1; s = "," }')
for i in 1 2 3 4 5; do
    run --variant "$cpu" --len 1M
done
# 2. from cache-resident to memory-bound chunks
run --variant split_avx2,split_tables --len 4K:64M:x4
# 3. other codes at 1 MiB: fewer parities, more parities
run --variant split_tables --data 6 --parity 3 --len 1M
run --variant split_tables --data 12 --parity 4 --len 1M
run --variant split_tables --data 20 --parity 8 --len 1M
# 4. both cores
run --variant split_tables --len 1M,64M --threads 1,2

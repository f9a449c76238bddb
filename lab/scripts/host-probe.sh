#!/usr/bin/env bash
# lab/scripts/host-probe.sh OUTDIR: the first run on a freshly started 16-core GPU host (root, no
# network): what the machine's state reads as the machine starts, and where 16 threads lose, for
# stages 05 and 14, before anything is tuned. About five minutes. The steps, in this order:
#
#   cold     build/peak --quick as the very first measurement, then 05's best variant on every
#            core at 8192 against MKL (one process, alternated), then build/peak again: does the
#            peak now sit above every kernel (lab/scripts/peak-check.py), does the header of a quiet
#            16-thread run say "busy"?
#   phases05 05 on every core at 4096 and 8192: where the threads' time goes (build/rel/05_simd/
#            probe phases: packing, kernel, waiting) for the default partition and for --split own;
#            the paired share of the all-core FMA peak (probe share); block sizes side by side
#            (probe blocks: 16 units a thread, KC 256/1024, NC 256, MC 2048, --split own, against
#            the computed ones)
#   peak14   14's --peak on one core and on all cores at once: the tile unit's all-core clock
#   bf16     14's amx_blocked on every core at 4096 and 8192 against MKL, the slice of B shared
#            (the default now) and each thread its own narrowed blocks (--split own, the rule of
#            the earlier host runs), and on one thread at 4096
#   fp32     amx_fp32 on every core at 4096 and 8192 against MKL's sgemm
#
# The steps after `cold` are STEPS (default "phases05 peak14 bf16 fp32"); two more, for a
# second run: tune05 (probe blocks, 8 repetitions: 16 and 12 units a thread, one A block, KC
# 512) and tune14 (--units 8 and 16 for amx_blocked and amx_fp32, two rounds); and for a
# third: look05 (05's lookahead against /nolook in one process, its phases, then 05 and 14 on
# every core against MKL); and kern05 (05's kernel alone on one core and on every core at once,
# then 6x64 against 14x32 and KC 512-1024 in the whole GEMM, against OpenBLAS and MKL).
# Files: OUTDIR/host-probe.log (everything), peak-cold.csv, peak-warm.csv, 05_cold.csv,
# 14_bf16.csv, 14_fp32.csv, 14_tune*.csv. MKL as the bench-host scripts find it
# (scripts/find-mkl.sh).
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
out=${1:?usage: lab/scripts/host-probe.sh OUTDIR}
. lab/scripts/check-steps.sh
# shellcheck disable=SC2086  # STEPS is a list of words
check_steps lab/scripts/host-probe.sh STEPS "phases05 tune05 look05 kern05 peak14 bf16 tune14 fp32" ${STEPS:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
exec > >(tee -a "$out/host-probe.log") 2>&1
rev=${GIT_REV:-$(git describe --always --dirty 2>/dev/null || echo unknown)}
export GIT_REV=$rev OMP_WAIT_POLICY=passive OPENBLAS_THREAD_TIMEOUT=4
unset OMP_PROC_BIND OMP_PLACES GOMP_CPU_AFFINITY OPENBLAS_CORETYPE MKL_ENABLE_INSTRUCTIONS
echo "== lab/scripts/host-probe.sh, $(date -u +%FT%TZ), git $rev, up $(cut -d' ' -f1 /proc/uptime) s"
T=$(nproc)
N2=${N2:-4096} N3=${N3:-8192}
PY=$(scripts/find-python.sh 2>/dev/null || command -v python3)

# the cold peak first: before the build, so that the cores are as the machine started
make -s build/peak GIT_REV="$rev" || { echo "build failed"; exit 1; }
echo "== cold ($(date -u +%T)): build/peak --quick first"
build/peak --quick --csv "$out/peak-cold.csv" | grep -E '^(fma_avx512|fma_avx2) |rounds|warning'

. scripts/find-mkl.sh
make -s -j"$T" GIT_REV="$rev" 05_simd/simd 14_amx/amx build/rel/05_simd/probe \
    || { echo "build failed"; exit 1; }
BEST=$(./05_simd/simd --list | grep -v '\[not here' | head -n 1 | awk '{print $1}')
./05_simd/simd --baseline mkl --variant "$BEST" --threads "$T" -m "$N3" --reps 3 \
    --csv "$out/05_cold.csv" | grep -E "^($BEST|mkl)|^(load|warning|baseline) "
build/peak --csv "$out/peak-warm.csv" | grep -E '^(fma_avx512|fma_avx2) |rounds|warning'
echo "-- the cold peak against the rows:"
"$PY" lab/scripts/peak-check.py "$out/peak-cold.csv" "$out/05_cold.csv"
echo "-- the full peak, after:"
"$PY" lab/scripts/peak-check.py "$out/peak-warm.csv" "$out/05_cold.csv"

phases05() {
    build/rel/05_simd/probe phases "$T" 3 "$N2" "$N3" "$N3/own" | grep -E '^phases'
    build/rel/05_simd/probe share "$T" 5 "$N3" | grep -E '^share'
    build/rel/05_simd/probe blocks "$T" 4 "$N3" 0,0,0 0,0,0/u16 0,256,0 0,1024,0 0,0,256 \
        2048,0,0 0,0,0/own
    build/rel/05_simd/probe blocks "$T" 5 "$N2" 0,0,0 0,0,0/u16 0,1024,0 0,0,0/own
}
tune05() { # the first run's leads, with more repetitions: units a thread, one A block, KC
    build/rel/05_simd/probe blocks "$T" 8 "$N3" 0,0,0 0,0,0/u16 0,0,0/u12 8196,0,0 8196,0,0/u16 \
        0,512,0/u16
    build/rel/05_simd/probe blocks "$T" 8 "$N2" 0,0,0 0,0,0/u16 0,0,0/u12 0,512,0
}
look05() { # the lookahead against packing after every unit, in one process; then against MKL
    build/rel/05_simd/probe phases "$T" 3 "$N2" "$N3" | grep -E '^phases'
    build/rel/05_simd/probe blocks "$T" 6 "$N3" 0,0,0 0,0,0/nolook
    build/rel/05_simd/probe blocks "$T" 8 "$N2" 0,0,0 0,0,0/nolook
    for r in 1 2; do
        ./05_simd/simd --baseline mkl --variant avx512_6x64 --threads "$T" --sizes "$N2,$N3" \
            --reps 5 --csv "$out/05_look.csv" | grep -E '^(avx512|mkl)|^(load|warning) '
    done
    ./14_amx/amx --baseline mkl --variant amx_blocked --threads "$T" --sizes "$N2,$N3" --reps 5 \
        --csv "$out/14_bf16.csv" | grep -E '^(amx|mkl)|^(load|warning) '
}
kern05() { # the kernel alone on one core, then on every core at once (probe kernels: each thread
    # its own blocks, no L3 or memory traffic but A's at MC 960); then the two AVX-512 tiles and
    # KC side by side in the whole GEMM (probe blocks, against OpenBLAS), then against MKL
    for t in 1 "$T"; do
        build/rel/05_simd/probe kernels "$t" 60 avx512_6x64 1024,256,96 640,256,96 512,256,96 \
            256,256,96 1024,256,960
        build/rel/05_simd/probe kernels "$t" 60 avx512_14x32 256,512,98 384,256,98 128,1024,98 \
            256,512,980
    done
    local sets="0,0,0 0,640,0 0,512,0 avx512_14x32:0,0,0 avx512_14x32:0,384,0 avx512_14x32:0,512,0"
    # shellcheck disable=SC2086  # sets is a list of words
    build/rel/05_simd/probe blocks "$T" 6 "$N3" $sets
    # shellcheck disable=SC2086
    build/rel/05_simd/probe blocks "$T" 8 "$N2" $sets
    for r in 1 2; do
        ./05_simd/simd --baseline mkl --variant avx512_6x64,avx512_14x32 --threads "$T" \
            --sizes "$N2,$N3" --reps 5 --csv "$out/05_variants.csv" | grep -E '^(avx512|mkl)|^(load|warning) '
    done
}
peak14() {
    ./14_amx/amx --peak
    ./14_amx/amx --peak --threads "$T"
}
bf16() {
    for split in auto own; do
        ./14_amx/amx --baseline mkl --variant amx_blocked --threads "$T" --split "$split" \
            --sizes "$N2,$N3" --reps 5 --csv "$out/14_bf16.csv" | grep -E '^(amx|mkl)|^(load|warning) '
    done
    ./14_amx/amx --baseline mkl --variant amx_blocked --threads 1 -m "$N2" --reps 5 \
        --csv "$out/14_bf16.csv" | grep -E '^(amx|mkl)|^(load|warning) '
}
tune14() { # units a thread for the tile variants, each process against MKL, in turn
    for r in 1 2; do
        for u in 8 16; do
            echo "-- round $r, --units $u"
            ./14_amx/amx --baseline mkl --variant amx_blocked --threads "$T" --units "$u" \
                --sizes "$N2,$N3" --reps 5 --csv "$out/14_tune.csv" | grep -E '^(amx|mkl)'
            ./14_amx/amx --fp32 --baseline mkl --variant amx_fp32 --threads "$T" --units "$u" \
                --sizes "$N2,$N3" --reps 3 --csv "$out/14_tune_fp32.csv" | grep -E '^(amx|mkl)'
        done
    done
}
fp32() {
    ./14_amx/amx --fp32 --baseline mkl --variant amx_fp32 --threads "$T" --sizes "$N2,$N3" \
        --reps 3 --csv "$out/14_fp32.csv" | grep -E '^(amx|mkl)|^(load|warning) '
}
export -f phases05 tune05 look05 kern05 peak14 bf16 tune14 fp32
export T N2 N3 out
for s in ${STEPS:-phases05 peak14 bf16 fp32}; do
    echo "== $s ($(date -u +%T))"
    timeout 300 bash -c "$s"
    echo "== $s: exit $?"
done
echo "== done ($(date -u +%T))"

#!/usr/bin/env bash
# lab/05_simd/bench-host.sh OUTDIR: stages 04 and 05 on every core of a 16-core host (the Xeon
# host of one H100: root, no network), in one run of about 7 minutes (each step under a time
# limit, 9 minutes in all with the build). The steps:
#
#   peak     build/peak: the FMA peaks on 1 core and on all cores: the share of the peak uses
#            the all-core figure measured in the same run
#   grid     05's best variant on 1, 2, 4, 8 and 16 threads, each thread count in two processes,
#            one alternating run by run with MKL and one with OpenBLAS (as it loads there); 1024
#            (1 and 2 threads), 2048 and 4096; two rounds, so that each ratio has a spread
#   big      the same at 8192, one round (one repetition on 1 thread: 7 s a run)
#   split    16 threads at 4096 and 8192: the shared slice of B (the partition now), each thread
#            its own blocks (the partition before, `--split own`) and OpenBLAS in turn in one
#            process (build/rel/05_simd/probe blocks)
#   avx2     avx2_6x16 on 1 thread against OpenBLAS's Haswell core and MKL's AVX2 path
#            (MKL_ENABLE_INSTRUCTIONS=AVX2), 1024 to 4096
#   scale04  04's best (omp_tiled_dyn) on 1 to 16 threads at 2048 and 4096 and on 8 and 16 at
#            8192, alternated with OpenBLAS
#
# Files: OUTDIR/05_simd_scaling.csv (grid, big), 05_simd_peak.csv, 05_simd_avx2.csv,
# 04_threads_scaling.csv, 05_split.txt, machine.txt, bench-host.log. Then
#   python3 lab/05_simd/tables.py OUTDIR/05_simd_scaling.csv OUTDIR/05_simd_avx2.csv OUTDIR/05_simd_peak.csv
#   python3 lab/05_simd/plot-scaling.py OUTDIR
# print the targets and draw the scaling figure (bench-host.sh runs the first).
#
# Idle threads sleep (OMP_WAIT_POLICY=passive, as in bench.sh). No OMP_PROC_BIND: it binds the
# first thread before a pthread OpenBLAS loads, which then counts one processor and never runs on
# more (the harness's header warns; the first host run lost its OpenBLAS scaling to it).
# MKL: MKL_HOME if set, else the bundled MKL in the folder MKL_BUNDLE_DIR (default .mkl-bundle,
# in the repository root): libmkl_{rt,core,gnu_thread,intel_lp64,avx512,avx2}.so.3.xz (xz -c
# each from `pip install mkl`'s lib/), unpacked to build/mkl-lib. The commit in the CSVs:
# GIT_REV, else git describe. For a dry run on a small machine: SIZES_SCALE=small (every step
# at 256/512/1024) and THREADS (default "1 2 4 8 16"; split uses the largest). STEPS: the steps
# to run, in order (default all six).
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
out=${1:?usage: lab/05_simd/bench-host.sh OUTDIR}
. lab/scripts/check-steps.sh
# shellcheck disable=SC2086  # STEPS is a list of words
ALL_STEPS="peak grid big split avx2 scale04"
check_steps lab/05_simd/bench-host.sh STEPS "$ALL_STEPS" ${STEPS:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
exec > >(tee -a "$out/bench-host.log") 2>&1
rev=${GIT_REV:-$(git describe --always --dirty 2>/dev/null || echo unknown)}
export GIT_REV=$rev OMP_WAIT_POLICY=passive OPENBLAS_THREAD_TIMEOUT=4 GEMM_BENCH_LOCK=$out/.lock
unset OMP_PROC_BIND OMP_PLACES GOMP_CPU_AFFINITY OPENBLAS_CORETYPE MKL_ENABLE_INSTRUCTIONS
echo "== lab/05_simd/bench-host.sh, $(date -u +%FT%TZ), git $rev"

. scripts/find-mkl.sh # MKL_HOME, from .mkl-bundle where the host has no MKL

make -s -j"$(nproc)" GIT_REV="$rev" 04_threads/threads 05_simd/simd build/peak \
    build/rel/05_simd/probe || { echo "build failed"; exit 1; }
{
    lscpu; echo; free -g; echo; gcc --version | head -n1; echo
    ldd 05_simd/simd; ./05_simd/simd --list; ./05_simd/simd -m 64 --no-baseline | head -n 3
} >"$out/machine.txt" 2>&1
echo "cores: $(nproc);$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"

T0=$SECONDS
step() { # step NAME SECONDS [VAR=VALUE...]: the function NAME, under a time limit
    local name=$1 limit=$2 t0=$SECONDS
    shift 2
    echo "== $name ($(date -u +%T), at most $limit s; $((SECONDS - T0)) s so far)"
    timeout "$limit" env "$@" bash -c "$name"
    echo "== $name: exit $?, $((SECONDS - t0)) s"
}
BEST=$(./05_simd/simd --list | grep -v '\[not here' | head -n 1 | awk '{print $1}')
S05=$out/05_simd_scaling.csv S04=$out/04_threads_scaling.csv PEAK=$out/05_simd_peak.csv
AVX2=$out/05_simd_avx2.csv
if [ "${SIZES_SCALE:-}" = small ]; then N0=256 N1=256 N2=512 N3=1024; else N0=1024 N1=2048 N2=4096 N3=8192; fi
THREADS=${THREADS:-1 2 4 8 16}
TMAX=$(echo "$THREADS" | tr ' ' '\n' | sort -n | tail -n 1)
export BEST S05 S04 PEAK AVX2 N0 N1 N2 N3 THREADS TMAX

peak() {
    local tmp
    tmp=$(mktemp)
    build/peak --csv "$tmp" >/dev/null
    if [ -s "$PEAK" ]; then tail -n +2 "$tmp" >>"$PEAK"; else cat "$tmp" >"$PEAK"; fi
    rm -f "$tmp"
    grep fma_avx512 "$PEAK" | tail -n 2
}
# ours against one library, in one process: run05 LIB THREADS SIZES REPS CSV [options]
run05() {
    local lib=$1 t=$2 sizes=$3 reps=$4 csv=$5
    shift 5
    local args=()
    [ "$lib" = mkl ] && args=(--baseline mkl)
    ./05_simd/simd "${args[@]}" --variant "$BEST" --threads "$t" --sizes "$sizes" --reps "$reps" \
        --csv "$csv" "$@" | grep -E "^($BEST|mkl|openblas)|^(baseline|warning) "
}
grid() {
    for round in 1 2; do
        for t in $THREADS; do
            local sizes=$N1,$N2
            [ "$t" -le 2 ] && sizes=$N0,$N1,$N2
            for lib in mkl openblas; do
                echo "-- round $round, $t threads, $lib"
                run05 "$lib" "$t" "$sizes" 3 "$S05"
            done
        done
    done
}
big() {
    for t in $THREADS; do
        local reps=5
        case $t in 1) reps=1 ;; 2) reps=2 ;; 4|8) reps=3 ;; esac
        for lib in mkl openblas; do
            echo "-- $t threads, $lib"
            run05 "$lib" "$t" "$N3" "$reps" "$S05" --time-limit 60
        done
    done
}
split() {
    for n in $N2 $N3; do
        build/rel/05_simd/probe blocks "$TMAX" 5 "$n" 0,0,0 0,0,0/own 0,0,0/shared
    done
}
avx2() {
    ./05_simd/simd --variant avx2_6x16 --threads 1 --sizes "$N0,$N1,$N2" --reps 3 --csv "$AVX2" \
        | grep -E "^(avx2|openblas)|^baseline"
    MKL_ENABLE_INSTRUCTIONS=AVX2 ./05_simd/simd --baseline mkl --variant avx2_6x16 --threads 1 \
        --sizes "$N0,$N1,$N2" --reps 3 --csv "$AVX2" | grep -E "^(avx2|mkl)|^baseline"
}
scale04() {
    ./04_threads/threads --variant omp_tiled_dyn --threads "$(echo $THREADS | tr ' ' ,)" \
        --sizes "$N1,$N2" --reps 1 --csv "$S04" | grep -E "^(omp|openblas)"
    local top
    top=$(echo "$THREADS" | tr ' ' '\n' | sort -n | tail -n 2 | paste -sd, -)
    ./04_threads/threads --variant omp_tiled_dyn --threads "$top" -m "$N3" --reps 1 --csv "$S04" \
        | grep -E "^(omp|openblas)"
}

export -f peak run05 grid big split avx2 scale04
for s in ${STEPS:-$ALL_STEPS}; do
    case $s in
        peak) step peak 40 ;;
        grid) step grid 150 ;;
        big) step big 210 ;;
        split) step split 40 | tee "$out/05_split.txt" ;;
        avx2) step avx2 40 OPENBLAS_CORETYPE=Haswell ;;
        scale04) step scale04 50 ;;
    esac
done
rm -f "$out/.lock"
echo "== done, $(date -u +%T), $((SECONDS - T0)) s"
PY=$(scripts/find-python.sh 2>/dev/null || command -v python3)
"$PY" lab/05_simd/tables.py "$S05" "$AVX2" "$PEAK"
"$PY" lab/scripts/peak-check.py "$PEAK" "$S05" "$AVX2" "$S04"

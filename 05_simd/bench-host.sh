#!/usr/bin/env bash
# 05_simd/bench-host.sh OUTDIR: stages 04 and 05 past two cores, on a host of 16 (the
# nvidia-h100-x1 machines' Xeon: root, no network), in about six minutes. The steps:
#
#   pairs    05's best against OpenBLAS (the core it picks there) and MKL on 1 and 2 threads,
#            512 to 4096: 05_simd/bench.sh with ROUNDS=1 (each process alternates at least
#            three pairs of runs; targets.py prints the chapter's table and targets)
#   scale05  05's best on 1, 2, 4, 8 and 16 threads against OpenBLAS on the same threads,
#            n = 4096; then n = 8192 on 16 threads, and alone (no library) on 1
#   scale04  04's best (omp_tiled_dyn) on 1, 2, 4, 8 and 16 threads against OpenBLAS, 2048
#            and 4096
#   mkl16    05's best against MKL on 16 threads, 4096 and 8192
#   nc256    05's best on 1 and 16 threads at 4096 with NC = 256 set by hand (one B block a
#            thread at 16, the partition before e52c60c), against OpenBLAS: 05_simd_nc256.csv
#
# Every step runs under a timeout and says how long it took. Idle threads sleep
# (OMP_WAIT_POLICY=passive, as in bench.sh). No OMP_PROC_BIND: it binds the first thread before
# a pthread OpenBLAS loads, which then counts one processor and never runs on more (the
# harness's header warns; the first host run lost its OpenBLAS scaling to it). MKL: MKL_HOME if set, else the folder MKL_CARRY (default .mkl-carry, in the
# repository root) holding libmkl_*.so.3.xz, unpacked to build/mkl-lib. The commit in the
# CSVs: GIT_REV, else git describe. Writes OUTDIR/05_simd_baselines.csv (+ _peak.csv),
# 05_simd_scaling.csv, 04_threads_scaling.csv, machine.txt and bench-host.log; then
# `python3 05_simd/plot_scaling.py OUTDIR` draws the scaling figure.
set -u
cd "$(dirname "$0")/.."
out=${1:?usage: 05_simd/bench-host.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
exec > >(tee -a "$out/bench-host.log") 2>&1
rev=${GIT_REV:-$(git describe --always --dirty 2>/dev/null || echo unknown)}
export GIT_REV=$rev OMP_WAIT_POLICY=passive OPENBLAS_THREAD_TIMEOUT=4 GEMM_BENCH_LOCK=$out/.lock
unset OMP_PROC_BIND OMP_PLACES GOMP_CPU_AFFINITY
echo "== 05_simd/bench-host.sh, $(date -u +%FT%TZ), git $rev"

if [ -z "${MKL_HOME:-}" ]; then
    carry=${MKL_CARRY:-.mkl-carry}
    if ls "$carry"/libmkl_rt.so.3.xz >/dev/null 2>&1; then
        mkdir -p build/mkl-lib
        for f in "$carry"/libmkl_*.so.3.xz; do
            xz -dc "$f" >"build/mkl-lib/$(basename "$f" .xz)"
        done
        export MKL_HOME=$PWD/build/mkl-lib
    else
        echo "note: no MKL here (MKL_HOME unset, nothing in $carry): its steps say exit 77"
    fi
fi

make -s -j"$(nproc)" GIT_REV="$rev" 04_threads/threads 05_simd/simd build/peak || { echo "build failed"; exit 1; }
{
    lscpu; echo; free -g; echo; gcc --version | head -n1; echo
    ldd 05_simd/simd; ./05_simd/simd --list
} >"$out/machine.txt" 2>&1
echo "cores: $(nproc);$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"

step() { # step NAME SECONDS COMMAND...
    local name=$1 limit=$2 t0=$SECONDS
    shift 2
    echo "== $name ($(date -u +%T), at most $limit s)"
    timeout "$limit" "$@"
    echo "== $name: exit $?, $((SECONDS - t0)) s"
}
BEST=$(./05_simd/simd --list | grep -v '\[not here' | head -n 1 | awk '{print $1}')
S05=$out/05_simd_scaling.csv S04=$out/04_threads_scaling.csv
# N1 N2 N3 (default 2048 4096 8192), PAIRS (default "512 1024 2048 4096"): smaller for a dry run
N1=${N1:-2048} N2=${N2:-4096} N3=${N3:-8192} PAIRS=${PAIRS:-512 1024 2048 4096}

step pairs 80 env MACHINE=host CSV="$out/05_simd_baselines.csv" PEAK="$out/05_simd_baselines_peak.csv" \
    SIZES="$PAIRS" THREADS="1 2" ROUNDS=1 LIBS="openblas mkl" QUIET_WAIT=0 \
    05_simd/bench.sh
step scale05 90 ./05_simd/simd --variant "$BEST" --threads 1,2,4,8,16 -m "$N2" --reps 3 --csv "$S05"
step scale05-big 70 sh -c "./05_simd/simd --variant $BEST --threads 16 -m $N3 --reps 3 --csv $S05 &&
    ./05_simd/simd --variant $BEST --threads 1 -m $N3 --reps 1 --time-limit 60 --no-baseline --csv $S05"
step scale04 50 sh -c "./04_threads/threads --variant omp_tiled_dyn --threads 1,2,4,8,16 -m $N1 --reps 3 --csv $S04 &&
    ./04_threads/threads --variant omp_tiled_dyn --threads 1,2,4,8,16 -m $N2 --reps 1 --csv $S04"
step mkl16 25 ./05_simd/simd --baseline mkl --variant "$BEST" --threads 16 --sizes $N2,$N3 --reps 3 --csv "$S05"
# the partition before four B blocks a thread (05's NOTES, "Why 16 threads lose"): NC = 256 set
# by hand (--blocks turns the four-blocks rule off), against the default in scale05
step nc256 40 ./05_simd/simd --variant "$BEST" --threads 1,16 -m "$N2" --blocks 0,0,256 --reps 3 \
    --csv "$out/05_simd_nc256.csv"
rm -f "$out/.lock"
echo "== done, $(date -u +%T)"

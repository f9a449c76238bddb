#!/usr/bin/env bash
# lab/14_amx/bench-host.sh OUTDIR: stage 14 past two cores, on the 16-core Xeon host of a GPU machine
# (family 6 model 143 or 207: AMX; root, no network), in about six minutes. The steps:
#
#   probe    --peak (one core's FMA, VDPBF16PS and TDPBF16PS, and the same on every core at once:
#            the tile unit's all-core clock) and --probe: is it the unit measured on the
#            development machine?
#   peak     build/peak --quick: the FMA peaks and memory bandwidth (peak.csv)
#   bf16     amx_blocked against MKL's BF16 GEMM on THREADS (default "1 16") at 4096, then on
#            every core at 8192 (the chapter's 16-thread targets), two rounds
#   fp32     amx_fp32 against MKL's sgemm on 1 and every core at 4096, every core at 8192
#   wall     what moves the all-core rate at 4096: units of work a thread (--units 8 and 32
#            against the default 16), the B block halved and doubled (--blocks 0,0,128 /
#            0,0,512), KC 1024
#
# STEPS: the steps to run, in order (default "probe peak bf16 fp32 wall"), so that a host that
# allows a command only ten minutes can run them in two parts. Every step runs under a timeout
# and says how long it took. Idle threads sleep (OMP_WAIT_POLICY=passive). MKL: MKL_HOME if set,
# else the bundled MKL in the folder MKL_BUNDLE_DIR (default .mkl-bundle, in the repository root):
# libmkl_*.so.3.xz (as lab/05_simd/bench-host.sh; bundle them with
# `for f in $(python3 -c 'import sys;print(sys.prefix)')/lib/libmkl_{rt,core,gnu_thread,
# intel_lp64,avx512,avx10,def}.so.3; do xz -c $f > .mkl-bundle/$(basename $f).xz; done`),
# unpacked to build/mkl-lib. The commit in the CSVs: GIT_REV, else git describe. Writes
# OUTDIR/14_amx_host.csv, 14_amx_host_fp32.csv, 14_amx_host_wall.csv, peak.csv, probe.txt,
# machine.txt and bench-host.log; then lab/14_amx/tables.py OUTDIR prints what it can.
set -u
cd "$(dirname "$0")/../.."
out=${1:?usage: lab/14_amx/bench-host.sh OUTDIR}
. lab/scripts/check-steps.sh
# shellcheck disable=SC2086  # STEPS is a list of words
ALL_STEPS="probe peak bf16 fp32 wall"
check_steps lab/14_amx/bench-host.sh STEPS "$ALL_STEPS" ${STEPS:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
exec > >(tee -a "$out/bench-host.log") 2>&1
rev=${GIT_REV:-$(git describe --always --dirty 2>/dev/null || echo unknown)}
export GIT_REV=$rev OMP_WAIT_POLICY=passive GEMM_BENCH_LOCK=$out/.lock
unset OMP_PROC_BIND OMP_PLACES GOMP_CPU_AFFINITY
echo "== lab/14_amx/bench-host.sh, $(date -u +%FT%TZ), git $rev"

. scripts/find-mkl.sh # MKL_HOME, from .mkl-bundle where the host has no MKL

make -s -j"$(nproc)" GIT_REV="$rev" 14_amx/amx build/peak || { echo "build failed"; exit 1; }
{
    lscpu; echo; free -g; echo; gcc --version | head -n1; echo
    ldd 14_amx/amx; ./14_amx/amx --list; ./14_amx/amx --fp32 --list
} >"$out/machine.txt" 2>&1
echo "cores: $(nproc);$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"

step() { # step NAME SECONDS COMMAND...
    local name=$1 limit=$2 t0=$SECONDS
    shift 2
    echo "== $name ($(date -u +%T), at most $limit s)"
    timeout "$limit" "$@"
    echo "== $name: exit $?, $((SECONDS - t0)) s"
}
B=$out/14_amx_host.csv F=$out/14_amx_host_fp32.csv W=$out/14_amx_host_wall.csv
# N2 N3 (default 4096 8192): smaller for a dry run
N2=${N2:-4096} N3=${N3:-8192}

T=$(nproc)
THREADS=${THREADS:-1 $T}
TLIST=$(echo "$THREADS" | tr ' ' ,)
for s in ${STEPS:-$ALL_STEPS}; do
    case $s in
        probe) step probe 60 sh -c "./14_amx/amx --peak | tee -a $out/peak.txt; ./14_amx/amx --peak --threads $T | tee -a $out/peak.txt; ./14_amx/amx --probe >> $out/probe.txt" ;;
        peak) step peak 60 build/peak --quick --csv "$out/peak.csv" ;;
        bf16)
            for r in 1 2; do
                step "bf16-$r" 100 ./14_amx/amx --baseline mkl --variant amx_blocked --threads "$TLIST" -m "$N2" --reps 5 --csv "$B"
                step "bf16-big-$r" 60 ./14_amx/amx --baseline mkl --variant amx_blocked --threads "$T" -m "$N3" --reps 3 --csv "$B"
            done ;;
        fp32)
            step fp32 100 ./14_amx/amx --fp32 --baseline mkl --variant amx_fp32 --threads "$TLIST" -m "$N2" --reps 3 --csv "$F"
            step fp32-big 60 ./14_amx/amx --fp32 --baseline mkl --variant amx_fp32 --threads "$T" -m "$N3" --reps 3 --csv "$F" ;;
        wall)
            for opt in "--units 8" "--units 32" "--blocks 0,0,128" "--blocks 0,0,512" "--blocks 0,1024,0"; do
                # shellcheck disable=SC2086  # opt is an option and its value
                step "wall $opt" 40 ./14_amx/amx --baseline mkl --variant amx_blocked --threads "$T" -m "$N2" --reps 5 $opt --csv "$W"
            done ;;
    esac
done
rm -f "$out/.lock"
python3 lab/14_amx/tables.py "$out" || true
python3 lab/scripts/peak-check.py "$out/peak.csv" "$B" "$F" "$W"
echo "== done, $(date -u +%T)"

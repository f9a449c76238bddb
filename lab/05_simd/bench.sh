#!/usr/bin/env bash
# lab/05_simd/bench.sh: stage 05's best variant against four libraries, in one run.
#
#   lab/05_simd/bench.sh                       # results/local/05_simd_baselines.csv and ..._peak.csv
#   MACHINE=epyc-2c lab/05_simd/bench.sh       # results/epyc-2c/...
#   SIZES="512 1024" THREADS=1 ROUNDS=3 LIBS="openblas mkl" lab/05_simd/bench.sh
#   VARIANTS=all lab/05_simd/bench.sh          # every variant of the stage, not only the best
#   KEEP=1 ...                             # add to the CSVs instead of starting them afresh
#
# In each of ROUNDS rounds, for every thread count and size, one process per library, each
# timing our kernel alternately with that library (the harness alternates the two at every
# repetition, so that each row's ratio compares runs made seconds apart):
#
#   openblas       OpenBLAS as it loads (the core it picks for this CPU)
#   openblas-best  OPENBLAS_CORETYPE=SkylakeX, its AVX-512 core; on a CPU without AVX-512 that
#                  core dies of an illegal instruction, so the script says so and takes
#                  Haswell, the AVX2 kernels (OpenBLAS's Zen core runs the same ones)
#   openblas-avx2  OPENBLAS_CORETYPE=Haswell: its AVX2 kernels, for VARIANTS=avx2_6x16
#   blis           --baseline blis (make deps-blis)
#   mkl            --baseline mkl (make deps-mkl)
#   mkl-avx2       the same with MKL_ENABLE_INSTRUCTIONS=AVX2: its AVX2 path
#
# A library that is not installed is left out, with a line saying so. The rounds repeat the
# whole sweep, so that a slow phase of a shared machine falls on one round of every library, not
# on one library: targets.py takes, for each library, thread count and size, the median of the
# rounds' ratios, and their spread (largest / smallest).
#
# Idle threads sleep (OMP_WAIT_POLICY=passive: our OpenMP's, and OpenBLAS's, BLIS's and MKL's,
# which run on the same libgomp; OPENBLAS_THREAD_TIMEOUT for a pthread OpenBLAS): by default they
# spin for a while after each call, and with two libraries alternating, the spinning threads of
# one steal the cores the other runs on next.
#
# The FMA peak (build/peak, what `make peak` runs) is measured at the start and at the end, into
# the _peak.csv: the share of the peak uses a peak measured in the same hour as the GEMMs. Every
# timed program runs under scripts/bench-lock. Then lab/05_simd/tables.py prints the tables and
# the targets.
set -euo pipefail
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."

MACHINE=${MACHINE:-local}
SIZES=${SIZES:-512 1024 2048 4096}
THREADS=${THREADS:-1 2}
ROUNDS=${ROUNDS:-3}
LIBS=${LIBS:-openblas openblas-best blis mkl}
VARIANTS=${VARIANTS:-best}
QUIET_WAIT=${QUIET_WAIT:-30}
OUT=results/$MACHINE
CSV=${CSV:-$OUT/05_simd_baselines.csv}
PEAK=${PEAK:-$OUT/05_simd_baselines_peak.csv}

export OMP_WAIT_POLICY=passive OPENBLAS_THREAD_TIMEOUT=4

make -s stage05 build/peak build/cpu-class
# Run copies: a `make` elsewhere in the tree during the run must not swap the programs under it.
BINS=$(mktemp -d)
trap 'rm -rf "$BINS"' EXIT
cp 05_simd/simd build/peak "$BINS/"
BIN=$BINS/simd
mkdir -p "$OUT" "$(dirname "$CSV")" "$(dirname "$PEAK")"
[ "${KEEP:-0}" = 1 ] || rm -f "$CSV" "$PEAK"
# the table is in dispatch order; --list marks what this CPU lacks "[not here: ...]"
BEST=$($BIN --list | grep -v '\[not here' | head -n 1 | awk '{print $1}')
[ "$VARIANTS" = best ] && VARIANTS=$BEST

# the class as the programs see it (GEMM_HIDE_ISA hides from build/cpu-class what it hides from them)
case $(build/cpu-class) in
    AVX-512*) BEST_CORE=SkylakeX ;;
    *) BEST_CORE=Haswell
       echo "bench.sh: this CPU has no AVX-512: OpenBLAS's best core here is Haswell (AVX2), not SkylakeX" ;;
esac
# Which libraries this machine has: a one-size run of each, exit 77 when it is missing.
have=""
for lib in $LIBS; do
    case $lib in
        openblas|openblas-best|openblas-avx2) have="$have $lib" ;;
        mkl|blis|mkl-avx2)
            if $BIN --baseline "${lib%-avx2}" --variant "$BEST" -m 16 --reps 1 >/dev/null 2>"$BINS/err"; then
                have="$have $lib"
            else
                echo "bench.sh: leaving $lib out: $(cat "$BINS/err")"
            fi ;;
        *) echo "bench.sh: LIBS: unknown library '$lib' (openblas openblas-best openblas-avx2 blis mkl mkl-avx2)" >&2; exit 2 ;;
    esac
done

# The same machine serves other people's builds and tests: wait until no other process is
# running (up to QUIET_WAIT seconds), so that a timing does not start in the middle of a compile.
wait_quiet() {
    local tries=0
    while [ "$tries" -lt "$QUIET_WAIT" ]; do
        # procs_running counts this shell's own awk too
        [ "$(awk '/^procs_running/ {print $2}' /proc/stat)" -le 2 ] && return 0
        sleep 1
        tries=$((tries + 1))
    done
}

peak() {
    local tmp
    tmp=$(mktemp)
    wait_quiet
    scripts/bench-lock "$BINS/peak" --csv "$tmp" >/dev/null
    if [ -s "$PEAK" ]; then tail -n +2 "$tmp" >>"$PEAK"; else cat "$tmp" >"$PEAK"; fi
    rm -f "$tmp"
}

# reps: the harness's default (0.2 s of runs) below 1024, then fewer, longer runs; the rounds
# give each library at least ROUNDS processes at every size.
reps_for() {
    if [ "$1" -ge 4096 ]; then echo "--reps 3"
    elif [ "$1" -ge 2048 ]; then echo "--reps 5"
    elif [ "$1" -ge 1024 ]; then echo "--reps 11"; fi
}

run() { # run LABEL LIBRARY THREADS SIZE
    local label=$1 lib=$2 t=$3 s=$4 envs=(-u OPENBLAS_CORETYPE) args=()
    case $lib in
        openblas-best) envs=(OPENBLAS_CORETYPE="$BEST_CORE") ;;
        openblas-avx2) envs=(OPENBLAS_CORETYPE=Haswell) ;;
        mkl|blis) args=(--baseline "$lib") ;;
        mkl-avx2) envs=(MKL_ENABLE_INSTRUCTIONS=AVX2) args=(--baseline mkl) ;;
    esac
    wait_quiet
    # shellcheck disable=SC2046
    scripts/bench-lock env "${envs[@]}" "$BIN" "${args[@]}" --variant "$VARIANTS" --threads "$t" \
        -m "$s" $(reps_for "$s") --csv "$CSV" | awk -v l="$label" '
        $NF == "PASS" || $NF == "FAIL" || $NF == "-" { printf "  %-24s %s\n", l, $0 }'
}

echo "lab/05_simd/bench.sh: $VARIANTS; sizes $SIZES; threads $THREADS; $ROUNDS rounds;" \
    "libraries$have -> $CSV"
peak
for r in $(seq "$ROUNDS"); do
    for t in $THREADS; do
        for s in $SIZES; do
            for lib in $have; do
                run "round $r, $lib" "$lib" "$t" "$s"
            done
        done
    done
done
peak

PY=$(scripts/find-python.sh 2>/dev/null || command -v python3)
"$PY" lab/05_simd/tables.py "$CSV" "$PEAK"

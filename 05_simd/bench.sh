#!/usr/bin/env bash
# 05_simd/bench.sh: the measurements chapter 05 quotes, in one run.
#
#   05_simd/bench.sh                 # results/xeon-2c/05_simd.csv and 05_simd_peak.csv
#   MACHINE=mybox 05_simd/bench.sh   # results/mybox/...
#   SIZES="512 1024" THREADS=1 05_simd/bench.sh
#   THREADS=2 KEEP=1 05_simd/bench.sh  # add to the CSVs instead of starting them afresh
#   LIBS="default cooperlake" VARIANTS=best CSV=... PEAK=... 05_simd/bench.sh
#                                    # only the targets' comparisons, into other files (minutes)
#   FAST_GATE=80 05_simd/bench.sh    # start each one-thread process only in a fast phase (below)
#
# For every thread count and size, four programs run one after the other, each timing our
# kernels alternately with its own library (the harness alternates the two in every
# repetition), so that each row's "vs" ratio compares runs made side by side:
#
#   OpenBLAS as it loads (its SkylakeX core on an AVX-512 Xeon): every variant of the stage
#   OPENBLAS_CORETYPE=Cooperlake   the best variant only (the core type is read once, when
#   OPENBLAS_CORETYPE=Haswell      the library loads: hence one process per core type)
#   BLIS (build/blis/05_simd/simd, the same program linked with -lblis): the best variant
#
# Idle threads sleep (OMP_WAIT_POLICY=passive for our OpenMP and BLIS's, a minimal
# OPENBLAS_THREAD_TIMEOUT for OpenBLAS's own pool): by default both keep spinning for a while
# after each call, and with the two libraries alternating on two cores, the spinning threads
# of one steal cycles from the other's next call.
#
# The FMA peak (build/peak, what `make peak` runs) is measured at the start and at the end of
# the run, into 05_simd_peak.csv: the chapter's "share of the peak" uses a peak measured in
# the same hour as the GEMMs, on a machine whose speed drifts. Every timed program runs under
# scripts/bench-lock, so no other benchmark of this repository shares the cores with it.
# Then 05_simd/targets.py prints the issue's targets against these numbers.
set -euo pipefail
cd "$(dirname "$0")/.."

MACHINE=${MACHINE:-xeon-2c}
SIZES=${SIZES:-256 512 1024 2048 4096}
THREADS=${THREADS:-1 2}
QUIET_WAIT=${QUIET_WAIT:-120}
OUT=results/$MACHINE
CSV=${CSV:-$OUT/05_simd.csv}
PEAK=${PEAK:-$OUT/05_simd_peak.csv}
LIBS=${LIBS:-default cooperlake haswell blis}
VARIANTS=${VARIANTS:-all} # against the default core: every variant, or only the best ("best")
has_lib() { case " $LIBS " in *" $1 "*) return 0 ;; esac; return 1; }

export OMP_WAIT_POLICY=passive OPENBLAS_THREAD_TIMEOUT=4

make -s stage05 build/peak
[ "${FAST_GATE:-0}" -gt 0 ] && make -s build/rel/05_simd/probe
if ! make -s build/blis/05_simd/simd; then
    echo "bench.sh: BLIS not found (Debian: apt install libblis-dev); measuring without it" >&2
fi
# Run copies: a `make` elsewhere in the tree during the run must not swap the programs
# under it.
BINS=$(mktemp -d)
trap 'rm -rf "$BINS"' EXIT
cp 05_simd/simd build/peak "$BINS/"
[ -x build/blis/05_simd/simd ] && cp build/blis/05_simd/simd "$BINS/simd-blis"
[ "${FAST_GATE:-0}" -gt 0 ] && cp build/rel/05_simd/probe "$BINS/"
mkdir -p "$OUT" "$(dirname "$CSV")" "$(dirname "$PEAK")"
[ "${KEEP:-0}" = 1 ] || rm -f "$CSV" "$PEAK"
BIN=$BINS/simd
# the table is in dispatch order; --list marks what this CPU lacks "[not here: ...]"
BEST=$($BIN --list | grep -v '\[not here' | head -n 1 | awk '{print $1}')
[ "$VARIANTS" = best ] && VARIANTS=$BEST

# The same machine serves other people's builds and tests: wait until no other process is
# running (up to QUIET_WAIT seconds), so that a timing does not start in the middle of a
# compile. Two threads on two cores suffer most: one busy core halves them.
wait_quiet() {
    local tries=0
    while [ "$tries" -lt "$QUIET_WAIT" ]; do
        # procs_running counts this shell's own awk too
        [ "$(awk '/^procs_running/ {print $2}' /proc/stat)" -le 2 ] && return 0
        sleep 1
        tries=$((tries + 1))
    done
    echo "bench.sh: the machine stayed busy; measuring anyway" >&2
}

# FAST_GATE=P (percent; 0, the default: off). For minutes at a time this machine runs at half
# speed while nothing runs in the VM (the chapter: "Two cores, not two hyperthreads"); the peak is
# a best of three and catches the fast phases, a GEMM's median mixes both. With the gate, each
# one-thread process starts only once the micro-kernel alone (probe kernel, about 0.1 s) runs at
# P% of the highest one-thread peak measured so far (this run's, and results/MACHINE/peak.csv's:
# the start of a run may itself fall in a slow phase), waiting up to FAST_WAIT seconds
# (then it measures anyway and says so). It chooses when to start, not which runs count: every
# run of the process is in the CSV, and the phase may still change during it.
FAST_GATE=${FAST_GATE:-0}
FAST_WAIT=${FAST_WAIT:-300}
wait_fast() {
    [ "$FAST_GATE" -gt 0 ] || return 0
    local peak1 want got waited=0
    peak1=$(cat "$PEAK" "$OUT/peak.csv" 2>/dev/null |
        awk -F, '$2 == "fma_avx512" && $3 == 1 && $4 > v {v = $4} END {print v}')
    if [ -z "$peak1" ]; then # the probe times the AVX-512 kernel: nothing to gate on without it
        echo "bench.sh: FAST_GATE needs an AVX-512 peak and probe; off on this CPU" >&2
        FAST_GATE=0
        return 0
    fi
    want=$(awk -v p="$peak1" -v g="$FAST_GATE" 'BEGIN {printf "%.1f", p * g / 100}')
    while [ "$waited" -lt "$FAST_WAIT" ]; do
        got=$(scripts/bench-lock "$BINS/probe" kernel 20 512,256,1020 | awk '/^kernel/ {print $8}')
        awk -v a="$got" -v b="$want" 'BEGIN {exit !(a >= b)}' && return 0
        sleep 10
        waited=$((waited + 10))
    done
    echo "bench.sh: no fast phase in ${FAST_WAIT} s (kernel alone $got < $want GFLOP/s); measuring anyway" >&2
}

peak() {
    local tmp
    tmp=$(mktemp)
    wait_quiet
    scripts/bench-lock "$BINS/peak" --csv "$tmp" >/dev/null
    if [ -s "$PEAK" ]; then tail -n +2 "$tmp" >>"$PEAK"; else cat "$tmp" >"$PEAK"; fi
    rm -f "$tmp"
}

# reps: the harness's default (0.2 s of runs) below 1024; fixed counts from there. Medians of
# more runs from 1024 up (21, 11, 7; until the third round 0.2 s of runs, 5 and 3): the speed
# of this machine changes for minutes at a time, and a median of 3 is one phase's luck.
reps_for() {
    if [ "$1" -ge 4096 ]; then echo "--reps 7"
    elif [ "$1" -ge 2048 ]; then echo "--reps 11"
    elif [ "$1" -ge 1024 ]; then echo "--reps 21"; fi
}

run() { # run LABEL ENV-ARGUMENTS... -- PROGRAM ARGS...  (ENV-ARGUMENTS as for env(1))
    local label=$1; shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    wait_quiet
    case " $* " in *" --threads 1 "*) wait_fast ;; esac
    scripts/bench-lock env "${envs[@]}" "$@" --csv "$CSV" | awk -v l="$label" '
        $NF == "PASS" || $NF == "FAIL" || $NF == "-" { printf "  %-28s %s\n", l, $0 }'
}

echo "05_simd/bench.sh: best variant $BEST; sizes $SIZES; threads $THREADS; libraries $LIBS -> $CSV"
peak
for t in $THREADS; do
    for s in $SIZES; do
        # shellcheck disable=SC2046
        set -- --threads "$t" -m "$s" $(reps_for "$s")
        has_lib default &&
            run "OpenBLAS (default core)" -u OPENBLAS_CORETYPE -- $BIN --variant "$VARIANTS" "$@"
        has_lib cooperlake &&
            run "OpenBLAS Cooperlake" OPENBLAS_CORETYPE=Cooperlake -- $BIN --variant "$BEST" "$@"
        has_lib haswell &&
            run "OpenBLAS Haswell" OPENBLAS_CORETYPE=Haswell -- $BIN --variant "$BEST" "$@"
        if has_lib blis && [ -x "$BINS/simd-blis" ]; then
            run "BLIS" -u OPENBLAS_CORETYPE -- "$BINS/simd-blis" --variant "$BEST" "$@"
        fi
    done
done
peak

PY=$(scripts/find-python.sh 2>/dev/null || command -v python3)
"$PY" 05_simd/targets.py "$CSV" "$PEAK"

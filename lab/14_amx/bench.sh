#!/usr/bin/env bash
# lab/14_amx/bench.sh: the measurements chapter 14 quotes, in one run on this machine.
#
#   MACHINE=xeon-emr-2c lab/14_amx/bench.sh      # results/xeon-emr-2c/14_amx*.csv and 14_runs/ (~40 min)
#   SIZES="1024 2048" THREADS=1 ROUNDS=1 lab/14_amx/bench.sh      # a shorter run
#
# In each of ROUNDS rounds, for every thread count and size, one process per comparison, each
# timing our variants alternately with the library (the harness alternates the two at every
# repetition):
#   14_amx.csv         BF16 A and B: simd (05's FP32 kernel), avx512_bf16, amx_naive,
#                      amx_blocked, amx_pipelined against MKL's cblas_gemm_bf16bf16f32 (on
#                      several threads only the last two)
#   14_amx_onednn.csv  amx_blocked against oneDNN's BF16 matmul (one thread: under taskset -c 0,
#                      since its TBB threads take the process's CPU mask), where oneDNN loads
#   14_amx_fp32.csv    FP32 A, B, C (--fp32): simd, amx_bf16x1, amx_bf16x3, amx_fp32_folded,
#                      amx_fp32 against MKL's sgemm (several threads: simd and amx_fp32), then, on
#                      one thread, simd and amx_fp32 against OpenBLAS's
#                      sgemm on its AVX-512 core (OPENBLAS_CORETYPE=SkylakeX: 0.3.21 does not know
#                      this CPU and would take its SSE3 one)
# and once: 14_amx_accuracy.csv (--fp32 --bound fp32: every FP32 variant against the FP32
# bound, K = 1 to 16384), 14_amx_unrounded.csv (--reference unrounded: what BF16 inputs cost),
# 14_runs/probe.txt, 14_runs/peak.txt (start and end) and 14_runs/machine.txt. Then
# lab/14_amx/tables.py prints the chapter's tables and which targets held.
#
# Idle threads sleep (OMP_WAIT_POLICY=passive), every timed program runs under
# scripts/bench-lock, and a round waits up to QUIET_WAIT seconds for the machine to be idle.
set -euo pipefail
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."

MACHINE=${MACHINE:-local}
SIZES=${SIZES:-1024 2048 4096}
THREADS=${THREADS:-1 2}
ROUNDS=${ROUNDS:-2}
QUIET_WAIT=${QUIET_WAIT:-5}
OUT=results/$MACHINE
RUNS=$OUT/14_runs
CSV=$OUT/14_amx.csv FP32=$OUT/14_amx_fp32.csv ONEDNN=$OUT/14_amx_onednn.csv
ACC=$OUT/14_amx_accuracy.csv UNR=$OUT/14_amx_unrounded.csv

export OMP_WAIT_POLICY=passive OPENBLAS_THREAD_TIMEOUT=4
make -s stage14 build/cpu-class
BINS=$(mktemp -d) # run a copy: a make elsewhere in the tree must not swap the program under us
trap 'rm -rf "$BINS"' EXIT
cp 14_amx/amx "$BINS/"
BIN=$BINS/amx
mkdir -p "$OUT" "$RUNS"
rm -f "$CSV" "$FP32" "$ONEDNN" "$ACC" "$UNR"

wait_quiet() {
    local tries=0
    while [ "$tries" -lt "$QUIET_WAIT" ]; do
        [ "$(awk '/^procs_running/ {print $2}' /proc/stat)" -le 2 ] && return 0
        sleep 1
        tries=$((tries + 1))
    done
}
reps_for() { if [ "$1" -ge 4096 ]; then echo 3; elif [ "$1" -ge 2048 ]; then echo 5; else echo 11; fi; }
show() { awk -v l="$1" '$NF == "PASS" || $NF == "FAIL" || $NF == "-" { printf "  %-22s %s\n", l, $0 }'; }
locked() { wait_quiet; scripts/bench-lock "$@"; }

have_mkl=1 have_onednn=1
"$BIN" --baseline mkl -m 16 --reps 1 >/dev/null 2>"$BINS/err" || { have_mkl=0; echo "bench.sh: no MKL: $(cat "$BINS/err")"; }
"$BIN" --baseline onednn --variant amx_blocked -m 16 --reps 1 >/dev/null 2>"$BINS/err" ||
    { have_onednn=0; echo "bench.sh: no oneDNN: $(cat "$BINS/err")"; }
BEST_CORE=SkylakeX # unless the programs see no AVX-512 (the CPU, or GEMM_HIDE_ISA)
case $(build/cpu-class) in AVX-512*) ;; *) BEST_CORE=Haswell ;; esac
# On several threads, the best variants this CPU runs: the tiles where there is AMX, else
# VDPBF16PS where there is AVX512-BF16 (Zen 4 and 5, Cooper Lake), else 05's FP32 kernel alone.
runs() { "$BIN" --list | grep "^$1 " | grep -vq '\[not here'; }
if runs amx_blocked; then MT_BF16=amx_blocked,amx_pipelined MT_FP32=simd,amx_fp32
elif runs avx512_bf16; then MT_BF16=avx512_bf16 MT_FP32=simd
else MT_BF16=simd MT_FP32=simd; fi

{
    lscpu; echo; free -g; echo; gcc --version | head -n1; echo
    "$BIN" --list; echo; "$BIN" --fp32 --list; echo; "$BIN" --baseline mkl -m 16 --reps 1 2>&1 | sed -n 1,8p
} >"$RUNS/machine.txt" 2>&1
locked "$BIN" --peak | tee "$RUNS/peak.txt"
locked "$BIN" --probe >"$RUNS/probe.txt"

echo "lab/14_amx/bench.sh: sizes $SIZES; threads $THREADS; $ROUNDS rounds -> $OUT"
for r in $(seq "$ROUNDS"); do
    for t in $THREADS; do
        # one thread: the whole climb; more: the best variants only (the rest are one core's story)
        bf16_v=all fp32_v=all
        [ "$t" = 1 ] || { bf16_v=$MT_BF16; fp32_v=$MT_FP32; }
        for s in $SIZES; do
            reps=$(reps_for "$s")
            [ "$have_mkl" = 1 ] && locked "$BIN" --baseline mkl --variant "$bf16_v" --threads "$t" -m "$s" \
                --reps "$reps" --csv "$CSV" | show "round $r, bf16 vs MKL"
            if [ "$have_onednn" = 1 ]; then
                pin=(); [ "$t" = 1 ] && pin=(taskset -c 0)
                locked "${pin[@]}" "$BIN" --baseline onednn --variant amx_blocked --threads "$t" \
                    -m "$s" --reps "$reps" --csv "$ONEDNN" | show "round $r, vs oneDNN"
            fi
            [ "$have_mkl" = 1 ] && locked "$BIN" --fp32 --baseline mkl --variant "$fp32_v" --threads "$t" \
                -m "$s" --reps "$reps" --csv "$FP32" | show "round $r, fp32 vs MKL"
            [ "$t" = 1 ] && locked env OPENBLAS_CORETYPE=$BEST_CORE "$BIN" --fp32 --variant simd,amx_fp32 \
                --threads "$t" -m "$s" --reps "$reps" --csv "$FP32" | show "round $r, fp32 vs OpenBLAS"
        done
    done
done

# accuracy: every element of 256 x 256 x K checked; the bounds' own ratio in max_err_ratio
K_LIST="1 2 8 64 512 4096 16384"
SIZES_K=$(for k in $K_LIST; do printf '256x256x%s,' "$k"; done)
locked "$BIN" --fp32 --bound fp32 --variant all --no-baseline --reps 1 --sizes "${SIZES_K%,}" \
    --csv "$ACC" | show "accuracy (FP32 bound)"
SIZES_U=$(for k in 64 256 1024 4096 16384; do printf '1024x1024x%s,' "$k"; done)
locked "$BIN" --reference unrounded --variant amx_blocked,avx512_bf16 --no-baseline --reps 1 \
    --sizes "${SIZES_U%,}" --csv "$UNR" | show "BF16 vs unrounded"
locked "$BIN" --peak | tee -a "$RUNS/peak.txt"

PY=$(scripts/find-python.sh 2>/dev/null || command -v python3)
"$PY" lab/14_amx/tables.py "$OUT"

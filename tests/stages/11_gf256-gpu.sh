#!/usr/bin/env bash
# 11_gf256's GPU tests, for make test-gpu (tests/run-tests-gpu.sh runs a stage's
# tests/stages/NN_topic-gpu.sh where the stage is not a CUDA program of its own; this one is a CPU
# program with a GPU part). Prints PASS:/FAIL:/SKIP: lines; exits 0 when nothing failed.
#
#   tests/stages/11_gf256-gpu.sh        (on a machine with an NVIDIA GPU and nvcc)
#
# Byte-for-byte checks of the three GPU variants (encode against the shift-and-XOR reference,
# decode by erasing chunks): every erasure set of a small code over lengths around every
# vector and block width, chunks off their alignment, a code with more parity than data, the
# largest codes (k + m = 256, k cut into slices by gpu_rect); compute-sanitizer memcheck and
# racecheck; a device that does not exist.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
BIN=11_gf256/gf256
LOG=build/test-gpu-logs/11_gf256
mkdir -p "$LOG"
GPU=gpu_tables,gpu_rect,gpu_affine
ok()  { echo "PASS: $*"; }
bad() { echo "FAIL: $*"; failed=1; }
failed=0

make -s "$BIN" >"$LOG/build.log" 2>&1 || { bad "build (see $LOG/build.log)"; exit 1; }
"$BIN" --variant gpu_tables --reps 1 --no-baseline --len 1 >"$LOG/probe.out" 2>&1
case $? in
    0) ;;
    77) echo "SKIP: 11_gf256's GPU variants: $(tail -n 1 "$LOG/probe.out")"; exit 0 ;;
    *) bad "gpu_tables on one byte (see $LOG/probe.out)"; exit 1 ;;
esac

n=0
# check DESC ARGS...: exit 0 and a last line "N passed, 0 failed"
check() {
    local desc=$1; shift
    n=$((n + 1))
    "$BIN" "$@" >"$LOG/case$n.out" 2>"$LOG/case$n.err"
    local rc=$?
    if [ $rc -eq 0 ] && tail -n 1 "$LOG/case$n.out" | grep -qE '^[0-9]+ passed, 0 failed(, [0-9]+ not on this [A-Za-z]+)?$'; then
        ok "$desc: $(tail -n 1 "$LOG/case$n.out")"
    else
        bad "$desc (exit $rc; log $LOG/case$n.*)"
        tail -n 4 "$LOG/case$n.out" "$LOG/case$n.err" | sed 's/^/    /'
    fi
}
Q="--reps 1 --no-baseline"
check "RS(5,3), every erasure set, awkward lengths" --variant $GPU $Q --data 5 --parity 3 \
    --len 1,2,15,16,17,33,64,65,4097,65537 --erasures all
check "RS(10,4) with ISA-L alongside, chunks 5 bytes past alignment" --variant $GPU --reps 1 \
    --data 10 --parity 4 --len 1,3,1000,100001 --offset 5
check "RS(8,20): more parity than data" --variant $GPU $Q --data 8 --parity 20 --len 7,5000
check "RS(200,56): k + m = 256" --variant $GPU $Q --data 200 --parity 56 --len 1,77,4096
check "RS(240,16): k in slices (gpu_rect)" --variant gpu_rect,gpu_affine $Q --data 240 --parity 16 --len 33,4096

SAN=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
if [ -z "$SAN" ]; then
    echo "SKIP: compute-sanitizer not found"
else
    for tool in memcheck racecheck; do
        timeout 300 "$SAN" --tool $tool --error-exitcode 99 "$BIN" --variant $GPU $Q --data 5 --parity 3 \
            --len 1,33,4097 >"$LOG/$tool.out" 2>&1
        rc=$?
        summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$LOG/$tool.out" | tail -n 1)
        if [ $rc -eq 0 ] && grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$LOG/$tool.out"; then
            ok "compute-sanitizer $tool, the GPU variants: $summary"
        else
            bad "compute-sanitizer $tool: exit $rc, ${summary:-no summary} (see $LOG/$tool.out)"
        fi
    done
fi

"$BIN" --variant gpu_tables $Q --len 1 --device 99 >"$LOG/device.out" 2>"$LOG/device.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$LOG/device.err")" -eq 1 ]; then
    ok "--device 99 -> exit 2: $(cat "$LOG/device.err")"
else
    bad "--device 99 -> exit $rc, $(wc -l <"$LOG/device.err") stderr lines (want 2 and 1; see $LOG/device.*)"
fi
exit $failed

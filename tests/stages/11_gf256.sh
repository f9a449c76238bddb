#!/usr/bin/env bash
# checks: own (in place of the GEMM checks every stage gets; tests/lib.sh, own_checks)
# 11_gf256's tests. This stage is not a GEMM, so tests/run-tests.sh runs this script in place
# of its generic GEMM cases for the stage; it prints PASS:/FAIL:/SKIP: lines and a last line
# "N passed, N failed, N skipped", and exits 0 when nothing failed.
#
#   tests/stages/11_gf256.sh            (after make stage11 asan grade-bins; it builds what is missing)
#
# Every check of the program is byte for byte: encode against a shift-and-XOR reference and
# ISA-L, decode by erasing chunks, inverting and rebuilding. The cases: awkward lengths
# (1, odd, around every vector width), random codes, the largest code (k + m = 256), every
# erasure pattern of small codes, chunks off their alignment, threads, the sanitizers, bad
# input, the untouched exercise, and the variants this machine cannot run (exit 77).
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
BIN=11_gf256/gf256 ASAN=build/asan/11_gf256/gf256 GRADE=build/grade/11_gf256/gf256
LOG=build/test-logs/11_gf256
mkdir -p "$LOG"
# shellcheck source=tests/lib.sh
. tests/lib.sh # ok, bad, skp, finish, exercise_check (its log in $LOG)

if [ ! -x "$BIN" ] || [ ! -x "$ASAN" ] || [ ! -x "$GRADE" ]; then
    make -s "$BIN" "$ASAN" "$GRADE" >"$LOG/build.log" 2>&1 || { bad "build (see $LOG/build.log)"; }
fi

n=0
# expect WANT DESC PROGRAM ARGS...: exit status WANT, and with 0 a last line "N passed, 0 failed"
expect() {
    local want=$1 desc=$2; shift 2
    n=$((n + 1))
    "$@" >"$LOG/case$n.out" 2>"$LOG/case$n.err"
    local rc=$?
    if [ "$rc" -eq "$want" ] && { [ "$want" -ne 0 ] || tail -n 1 "$LOG/case$n.out" | grep -qE '^[0-9]+ passed, 0 failed(, [0-9]+ not on this [A-Za-z]+)?$'; }; then
        ok "$desc"
    else
        bad "$desc (exit $rc, want $want; log $LOG/case$n.*)"
        tail -n 4 "$LOG/case$n.out" "$LOG/case$n.err" | sed 's/^/    /'
    fi
}

AWKWARD=1,2,3,15,16,17,31,32,33,63,64,65,127,128,129,255,1000,4097,65537
Q="--reps 1 --no-baseline"   # checks only: one timed run each
expect 0 "RS(10,4), awkward lengths, every variant, with ISA-L" $BIN --reps 1 --len $AWKWARD
expect 0 "k=1, m=1" $BIN $Q --data 1 --parity 1 --len 1,5,100
expect 0 "k=1, m=8 (every parity a copy of the data times a constant)" $BIN $Q --data 1 --parity 8 --len 3,300
expect 0 "k=20, m=1" $BIN $Q --data 20 --parity 1 --len 1,129,5000
expect 0 "k=8, m=20 (more rows than a kernel keeps in registers)" $BIN $Q --data 8 --parity 20 --len 1,65,3000
expect 0 "k=200, m=56 (k + m = 256, the largest Cauchy code)" $BIN $Q --data 200 --parity 56 --len 1,77
# random codes and lengths, reproducible
RANDOM=11
for i in 1 2 3 4 5 6; do
    k=$((RANDOM % 24 + 1)) m=$((RANDOM % 10 + 1))
    lens="$((RANDOM % 200 + 1)),$((RANDOM % 5000 + 1)),$((RANDOM % 70000 + 1))"
    expect 0 "random code $i: k=$k m=$m len=$lens" $BIN $Q --data $k --parity $m --len $lens --seed $i
done
expect 0 "every erasure pattern, k=4 m=3 (35 sets)" $BIN $Q --data 4 --parity 3 --erasures all --len 1,33,200
expect 0 "every erasure pattern, k=6 m=2 (28 sets)" $BIN $Q --data 6 --parity 2 --erasures all --len 17,1000
expect 0 "every erasure pattern, k=3 m=5 (56 sets)" $BIN $Q --data 3 --parity 5 --erasures all --len 65
expect 0 "erase only data chunks" $BIN $Q --erasures 0,3,5,9 --len 1,4097
expect 0 "erase only parity chunks" $BIN $Q --erasures 10,11,12,13 --len 1,4097
expect 0 "erase fewer than m chunks" $BIN $Q --erasures 7 --len 1,4097
expect 0 "chunks 1 byte past alignment" $BIN $Q --offset 1 --len $AWKWARD
expect 0 "chunks 63 bytes past alignment" $BIN $Q --offset 63 --len 1,64,65,1000
expect 0 "threads 2 and 3, lengths that do not split evenly" $BIN --reps 1 --threads 2,3 --len 4096,100000,1048577
# the sanitizers (CPU variants; the sanitizer build has no CUDA)
expect 0 "ASan+UBSan: awkward lengths, all erasure sets" $ASAN $Q --data 5 --parity 3 --erasures all --len 1,7,64,65,1000,4097 --offset 3
expect 0 "ASan+UBSan: k + m = 256, threads 2" $ASAN $Q --data 250 --parity 6 --len 1,130 --threads 2
expect 0 "ASan+UBSan: with ISA-L" $ASAN --reps 1 --len 1,63,200,4097

# variants this machine may lack: run where possible, else skipped with exit 77
for v in gfni gpu_tables gpu_rect gpu_affine; do
    $BIN --variant $v $Q --data 5 --parity 3 --len 1,33,4097 --erasures all >"$LOG/$v.out" 2>&1
    case $? in
        0) ok "$v: checks pass on this machine" ;;
        77) skp "$v: $(tail -n 1 "$LOG/$v.out")" ;;
        *) bad "$v (see $LOG/$v.out)" ;;
    esac
done

# bad input: one line on stderr, exit status 2, nothing on stdout
for args in "--data 0" "--data abc" "--parity 0" "--parity -3" "--data 200 --parity 100" "--len 0" "--len 2G" "--len 1x" \
            "--len 10:1:x2" "--len 4K:1M:x1" "--variant nope" "--bogus" "--threads 0" "--reps 0" \
            "--erasures 14" "--erasures 0,0" "--erasures 0,1,2,3,4" "--erasures all --data 40 --parity 20" \
            "--offset 64" "--data" "--len 1G --data 200 --parity 50" "--time-limit -1" \
            "-m 4" "-k 10" "--k 10"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    $BIN $args >"$LOG/bad$n.out" 2>"$LOG/bad$n.err"
    rc=$? lines=$(wc -l <"$LOG/bad$n.err")
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$LOG/bad$n.out" ]; then
        ok "bad input '$args' -> exit 2: $(cat "$LOG/bad$n.err")"
    else
        bad "bad input '$args' -> exit $rc, $lines stderr lines (want 2 and 1)"
    fi
done

exercise_check "grade build" exercise $GRADE $Q --data 4 --parity 2 --len 7,33
finish

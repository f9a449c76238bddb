#!/usr/bin/env bash
# 14_amx's checks beyond the GEMM cases every stage gets (tests/run-tests.sh runs this after them,
# and tests/cpu-classes.sh again as each class of CPU below this one; it counts its PASS:/FAIL:/
# SKIP: lines):
#
#   the CPU without AMX or AVX512-BF16, by hiding them (GEMM_HIDE_ISA, common/cpu_features.h, on
#   top of what the caller hid): the program runs, --list marks the hidden variants "[not here:
#   ...]", the table names them "not on this CPU" and counts them, naming only them exits 77 with
#   one line on stderr, --variant all runs the rest, --probe says there is nothing to probe;
#   the same for whatever this CPU really lacks (a SKIP line names the variants not run);
#   MKL's BF16 GEMM as the baseline where MKL is installed (its rows checked, MKL_VERBOSE shows
#   its BF16 call, beside whatever variants this CPU runs), exit 77 where it is not; oneDNN
#   likewise. (The stage on a real CPU without AVX-512 or AMX, emulated by qemu, is in
#   tests/portability.sh.)
# Exits 0; the lines say what failed.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
BIN=14_amx/amx
LOG=build/test-logs/14_amx-extra
mkdir -p "$LOG"
# shellcheck source=tests/checker-lib.sh
. tests/checker-lib.sh

[ -x "$BIN" ] || make -s "$BIN" >"$LOG/build.log" 2>&1 || { fail "build (see $LOG/build.log)"; exit 0; }

# what this CPU has, as the program sees it (GEMM_HIDE_ISA from the caller included)
lacks() { "$BIN" --list | grep -q "^$1 .*\[not here"; }
class=${GEMM_HIDE_ISA:+as the class GEMM_HIDE_ISA=\"$GEMM_HIDE_ISA\" makes of it}
if ! lacks amx_naive; then
    pass "this CPU has AMX: every AMX check of make test ran on it ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
else
    skip "this CPU${class:+ }$class has no AMX: amx_naive, amx_blocked, amx_fp32* and their checks not run (hidden-AMX path below checked instead)"
fi
! lacks avx512_bf16 || skip "this CPU${class:+ }$class has no AVX512-BF16: avx512_bf16 and its checks not run"

# hidden: the listing, the 77, the rest of the table (each word added to what the caller hid)
hidden() { env GEMM_HIDE_ISA="${GEMM_HIDE_ISA:-} $1" "${@:2}"; }
for hide in "amx" "avx512_bf16" "amx avx512_bf16"; do
    tag=$(echo "$hide" | tr ' ' _)
    run "list-$tag" hidden "$hide" "$BIN" --list
    marked=$(grep -c '\[not here' "$LOG/list-$tag.out")
    want=0
    for w in $hide; do
        case $w in amx) want=$((want + 2)) ;; avx512_bf16) want=$((want + 1)) ;; esac
    done
    if [ "$rc" -eq 0 ] && [ "$marked" -ge "$want" ]; then
        pass "GEMM_HIDE_ISA=\"$hide\": --list marks $marked variant(s) not here"
    else
        fail "GEMM_HIDE_ISA=\"$hide\": --list exit $rc, $marked marked, want $want ($LOG/list-$tag.out)"
    fi
done
for v in amx_blocked amx_naive; do
    run "77-$v" hidden amx "$BIN" --variant "$v" -m 33
    if [ "$rc" -eq 77 ] && [ "$(wc -l <"$LOG/77-$v.err")" -eq 1 ] && grep -q 'needs AMX' "$LOG/77-$v.err"; then
        pass "hidden AMX, --variant $v: exit 77: $(cat "$LOG/77-$v.err")"
    else
        fail "hidden AMX, --variant $v: exit $rc (want 77 and one line; $LOG/77-$v.*)"
    fi
done
run 77-fp32 hidden amx "$BIN" --fp32 --variant amx_fp32 -m 33
[ "$rc" -eq 77 ] && pass "hidden AMX, --fp32 --variant amx_fp32: exit 77" ||
    fail "hidden AMX, --fp32 --variant amx_fp32: exit $rc, want 77 ($LOG/77-fp32.*)"
run 77-avx hidden avx512_bf16 "$BIN" --variant avx512_bf16 -m 33
[ "$rc" -eq 77 ] && pass "hidden AVX512-BF16, --variant avx512_bf16: exit 77" ||
    fail "hidden AVX512-BF16, --variant avx512_bf16: exit $rc, want 77 ($LOG/77-avx.*)"
run rest hidden "amx avx512_bf16" "$BIN" --variant all --no-baseline --reps 1 --sizes 1,7x13x5,33,67x73x71
ran=$(awk '$NF == "PASS"' "$LOG/rest.out" | awk '{print $1}' | sort -u | paste -sd, -)
named=$(awk '/ not on this CPU: needs / {print $1}' "$LOG/rest.out" | paste -sd, -)
if [ "$rc" -eq 0 ] && [ "$ran" = simd ] && [ "$named" = avx512_bf16,amx_naive,amx_blocked,amx_pipelined ] &&
   grep -qx '4 passed, 0 failed, 4 not on this CPU' "$LOG/rest.out"; then
    pass "both hidden, --variant all runs what is left ($ran), names the 4 others 'not on this CPU' and counts them"
else
    fail "both hidden, --variant all: exit $rc, ran '$ran' (want simd alone), named '$named' ($LOG/rest.out)"
fi
run rest-fp32 hidden amx "$BIN" --fp32 --variant all --no-baseline --reps 1 --sizes 1,33
ran=$(awk '$NF == "PASS"' "$LOG/rest-fp32.out" | awk '{print $1}' | sort -u | paste -sd, -)
[ "$rc" -eq 0 ] && [ "$ran" = simd ] && grep -qx '2 passed, 0 failed, 4 not on this CPU' "$LOG/rest-fp32.out" &&
    pass "hidden AMX, --fp32 --variant all runs simd alone, the 4 AMX ones named" ||
    fail "hidden AMX, --fp32 --variant all: exit $rc, ran '$ran' ($LOG/rest-fp32.out)"
run probe-none hidden "amx avx512_bf16" "$BIN" --probe
[ "$rc" -eq 0 ] && grep -q 'no BF16 variant' "$LOG/probe-none.out" &&
    pass "both hidden, --probe says there is nothing to probe" ||
    fail "both hidden, --probe: exit $rc ($LOG/probe-none.out)"

# MKL's BF16 GEMM: its own rows checked like ours, and MKL itself ran them (its verbose log)
run mkl "$BIN" --baseline mkl --variant all --sizes 7x13x5,65 --reps 1 --beta 0.5 --csv -
case $rc in
    0) rows=$(awk -F, 'NR > 1 && $2 == "mkl-bf16"' "$LOG/mkl.out" | wc -l)
       [ "$rows" -eq 2 ] && ! grep -q ',FAIL,' "$LOG/mkl.out" &&
           pass "--baseline mkl: MKL-bf16 rows beside checked variants" ||
           fail "--baseline mkl: $rows mkl-bf16 rows ($LOG/mkl.out)"
       # (every variant: on a CPU without AMX, amx_blocked alone would exit 77 before MKL is called)
       run mkl-verbose env MKL_VERBOSE=1 "$BIN" --baseline mkl --variant all -m 33 -n 17 -k 5 --reps 1
       grep -qi 'GEMM_BF16BF16F32' "$LOG/mkl-verbose.out" &&
           pass "MKL_VERBOSE shows cblas_gemm_bf16bf16f32 running the baseline" ||
           fail "no GEMM_BF16BF16F32 line in MKL_VERBOSE's log ($LOG/mkl-verbose.out)" ;;
    77) skip "MKL not installed here: its BF16 baseline not run ($(cat "$LOG/mkl.err"))" ;;
    *) fail "--baseline mkl: exit $rc ($LOG/mkl.*)" ;;
esac
# oneDNN: present or not, never a crash; ONEDNN_HOME at an empty folder takes the absent path
empty=$(mktemp -d)
run onednn-absent env ONEDNN_HOME="$empty" "$BIN" --baseline onednn -m 7
rmdir "$empty"
[ "$rc" -eq 77 ] && [ "$(wc -l <"$LOG/onednn-absent.err")" -eq 1 ] &&
    pass "ONEDNN_HOME without oneDNN: exit 77: $(cat "$LOG/onednn-absent.err")" ||
    fail "ONEDNN_HOME without oneDNN: exit $rc, want 77 and one line ($LOG/onednn-absent.*)"
run onednn "$BIN" --baseline onednn --variant all --sizes 7x13x5,65 --reps 1 --beta 0.5 --alpha 2
case $rc in
    0) pass "--baseline onednn: runs beside checked variants (alpha 2, beta 0.5)" ;;
    77) skip "oneDNN not installed here: $(cat "$LOG/onednn.err")" ;;
    *) fail "--baseline onednn: exit $rc ($LOG/onednn.*)" ;;
esac
run onednn-fp32 "$BIN" --fp32 --baseline onednn -m 7
[ "$rc" -eq 2 ] && pass "--fp32 --baseline onednn refused (exit 2): $(cat "$LOG/onednn-fp32.err")" ||
    fail "--fp32 --baseline onednn: exit $rc, want 2 ($LOG/onednn-fp32.*)"

exit 0

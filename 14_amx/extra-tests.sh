#!/usr/bin/env bash
# 14_amx's checks beyond the GEMM cases every stage gets (tests/run-tests.sh runs this after them,
# and counts its PASS:/FAIL:/SKIP: lines):
#
#   the CPU without AMX or AVX512-BF16, by hiding them (GEMM_HIDE_ISA, read by 14_amx/cpu.c): the
#   program runs, --list marks the hidden variants "[not here: ...]", naming one exits 77 with one
#   line on stderr, --variant all runs the rest, --probe says there is nothing to probe;
#   the same for whatever this CPU really lacks (a SKIP line names the variants not run);
#   MKL's BF16 GEMM as the baseline where MKL is installed (its rows checked, MKL_VERBOSE shows
#   its BF16 call), exit 77 where it is not; oneDNN likewise;
#   a real CPU without AVX-512: the stage built with -march=x86-64-v2 (only the kernel files get
#   their ISA flags, stage.mk) and run under qemu's Haswell (AVX2, no AVX-512, no AMX), where no
#   stray AVX-512 or tile instruction may run (SKIP without qemu-x86_64).
# Exits 0; the lines say what failed.
set -u
cd "$(dirname "$0")/.."
BIN=14_amx/amx
LOG=build/test-logs/14_amx-extra
mkdir -p "$LOG"
# shellcheck source=tests/checker-lib.sh
. tests/checker-lib.sh

[ -x "$BIN" ] || make -s "$BIN" >"$LOG/build.log" 2>&1 || { fail "build (see $LOG/build.log)"; exit 0; }

cpu_flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
has() { case " $cpu_flags " in *" $1 "*) return 0 ;; esac; return 1; }
if has amx_bf16 && has amx_tile; then
    pass "this CPU has AMX: every AMX check of make test ran on it ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
else
    skip "this CPU has no AMX: amx_naive, amx_blocked, amx_fp32* and their checks not run (hidden-AMX path below checked instead)"
fi
has avx512_bf16 || skip "this CPU has no AVX512-BF16: avx512_bf16 and its checks not run"

# hidden: the listing, the 77, the rest of the table
for hide in "amx" "avx512_bf16" "amx avx512_bf16"; do
    tag=$(echo "$hide" | tr ' ' _)
    run "list-$tag" env GEMM_HIDE_ISA="$hide" "$BIN" --list
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
    run "77-$v" env GEMM_HIDE_ISA=amx "$BIN" --variant "$v" -m 33
    if [ "$rc" -eq 77 ] && [ "$(wc -l <"$LOG/77-$v.err")" -eq 1 ] && grep -q 'needs AMX' "$LOG/77-$v.err"; then
        pass "hidden AMX, --variant $v: exit 77: $(cat "$LOG/77-$v.err")"
    else
        fail "hidden AMX, --variant $v: exit $rc (want 77 and one line; $LOG/77-$v.*)"
    fi
done
run 77-fp32 env GEMM_HIDE_ISA=amx "$BIN" --fp32 --variant amx_fp32 -m 33
[ "$rc" -eq 77 ] && pass "hidden AMX, --fp32 --variant amx_fp32: exit 77" ||
    fail "hidden AMX, --fp32 --variant amx_fp32: exit $rc, want 77 ($LOG/77-fp32.*)"
run 77-avx env GEMM_HIDE_ISA=avx512_bf16 "$BIN" --variant avx512_bf16 -m 33
[ "$rc" -eq 77 ] && pass "hidden AVX512-BF16, --variant avx512_bf16: exit 77" ||
    fail "hidden AVX512-BF16, --variant avx512_bf16: exit $rc, want 77 ($LOG/77-avx.*)"
run rest env GEMM_HIDE_ISA="amx avx512_bf16" "$BIN" --variant all --no-baseline --reps 1 --sizes 1,7x13x5,33,67x73x71
ran=$(awk '$NF == "PASS"' "$LOG/rest.out" | awk '{print $1}' | sort -u | paste -sd, -)
if [ "$rc" -eq 0 ] && [ "$ran" = simd ]; then
    pass "both hidden, --variant all runs what is left ($ran), every check PASS"
else
    fail "both hidden, --variant all: exit $rc, ran '$ran' (want simd alone; $LOG/rest.out)"
fi
run rest-fp32 env GEMM_HIDE_ISA=amx "$BIN" --fp32 --variant all --no-baseline --reps 1 --sizes 1,33
ran=$(awk '$NF == "PASS"' "$LOG/rest-fp32.out" | awk '{print $1}' | sort -u | paste -sd, -)
[ "$rc" -eq 0 ] && [ "$ran" = simd ] && pass "hidden AMX, --fp32 --variant all runs simd alone" ||
    fail "hidden AMX, --fp32 --variant all: exit $rc, ran '$ran' ($LOG/rest-fp32.out)"
run probe-none env GEMM_HIDE_ISA="amx avx512_bf16" "$BIN" --probe
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
       run mkl-verbose env MKL_VERBOSE=1 "$BIN" --baseline mkl --variant amx_blocked -m 33 -n 17 -k 5 --reps 1
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

# a CPU without AVX-512 or AMX, emulated: the stage built for x86-64-v2 (a copy of what it is built
# from, as tests/portability.sh builds 05), then --list, the rest of the table, 77, --peak, --probe
if command -v qemu-x86_64 >/dev/null 2>&1; then
    port=build/port14
    rm -rf "$port" && mkdir -p "$port"
    cp -r Makefile common 01_naive 02_loop_order 03_tiling 04_threads 05_simd 14_amx "$port"/
    rm -f "$port"/14_amx/amx
    if make -s -C "$port" GIT_REV=port14 stage14 \
        CFLAGS="-std=c11 -O2 -march=x86-64-v2 -ffp-contract=fast -fopenmp -Wall -Wextra -Wno-missing-field-initializers" \
        >"$LOG/port-build.log" 2>&1; then
        emu() { qemu-x86_64 -cpu Haswell "$port/14_amx/amx" "$@"; }
        run port-list emu --list
        [ "$rc" -eq 0 ] && [ "$(grep -c '\[not here' "$LOG/port-list.out")" -eq 4 ] &&
            pass "x86-64-v2 build on an emulated Haswell: --list marks the 4 BF16 variants not here" ||
            fail "x86-64-v2 build on an emulated Haswell: --list exit $rc ($LOG/port-list.out)"
        run port-rest emu --variant all --no-baseline --reps 1 --sizes 1,7x13x5,33
        [ "$rc" -eq 0 ] && grep -q '^3 passed, 0 failed' "$LOG/port-rest.out" &&
            pass "emulated Haswell: --variant all runs simd alone (05's AVX2 kernel), checks PASS" ||
            fail "emulated Haswell: --variant all: exit $rc ($LOG/port-rest.*)"
        run port-fp32 emu --fp32 --variant all --no-baseline --reps 1 --sizes 1,33
        [ "$rc" -eq 0 ] && pass "emulated Haswell: --fp32 --variant all runs" ||
            fail "emulated Haswell: --fp32 --variant all: exit $rc ($LOG/port-fp32.*)"
        run port-77 emu --variant amx_blocked -m 33
        [ "$rc" -eq 77 ] && pass "emulated Haswell: --variant amx_blocked exits 77" ||
            fail "emulated Haswell: --variant amx_blocked: exit $rc, want 77 ($LOG/port-77.*)"
        run port-peak emu --peak
        [ "$rc" -eq 0 ] && [ "$(grep -c 'not on this CPU' "$LOG/port-peak.out")" -eq 3 ] &&
            pass "emulated Haswell: --peak says none of the three units is there" ||
            fail "emulated Haswell: --peak: exit $rc ($LOG/port-peak.out)"
    else
        fail "x86-64-v2 build of stage 14 (see $LOG/port-build.log)"
    fi
else
    skip "no qemu-x86_64: the x86-64-v2 build not run on an emulated CPU without AVX-512"
fi
exit 0

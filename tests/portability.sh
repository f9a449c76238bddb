#!/usr/bin/env bash
# tests/portability.sh: stage 05 on CPUs other than the one under your desk, in qemu's user-mode
# emulation. Stage 05 promises a program that "builds and runs on a CPU without AVX-512" and a
# generic kernel that "builds on any CPU, ARM included"; this checks both, not just says so.
#
#   x86-64-v2  stage 05 built with -march=x86-64-v2: only kernel_avx512.c and kernel_avx2.c get
#              their ISA flags (05_simd/stage.mk). Run on two emulated CPUs:
#                Haswell  AVX2 and FMA, no AVX-512: the dispatch must pick avx2_6x16
#                Nehalem  SSE4.2, no AVX at all: the dispatch must pick generic; one AVX
#                         instruction outside the two kernel files ends the run with SIGILL
#   aarch64    stage 05 cross-built with aarch64-linux-gnu-gcc, run under qemu-aarch64: the x86
#              kernels compile to nothing and the dispatch must pick generic. No BLAS for that
#              target: tests/portability/ holds the few BLAS symbols the harness links, and the
#              runs use --no-baseline (the check is against the harness's own double reference).
#
# Each CPU: --list marks what it cannot run ("[not here: ...]") and the rest is what it can,
# every variant passes its check over awkward shapes (K past one KC slice, N past one NC block,
# 1 and 2 threads, alpha/beta and padding), and naming a kernel the CPU lacks exits 77 with one
# line.
# Prints PASS:/FAIL:/SKIP: lines (make test counts them). SKIP where qemu-user or the cross
# compiler is missing; scripts/install-deps.sh installs them on Debian/Ubuntu.
set -u
cd "$(dirname "$0")/.."
OUT=build/port
LOG=$OUT/logs
mkdir -p "$LOG"
FLAGS="-std=c11 -O2 -ffp-contract=fast -fopenmp -Wall -Wextra -Wno-missing-field-initializers"
SHAPES="1,7x13x5,31,33,1x97x13,97x1x13,13x97x1,67x73x71,70x300x600"
OPTION_SETS=("--threads 1,2" "--alpha -1.5 --beta 0.5 --pad 3 --threads 2")

# shellcheck source=tests/checker-lib.sh
. tests/checker-lib.sh

# A copy of what stage 05 is built from (the stages it uses, 05_simd_USES and theirs), built
# there with other flags (build/rel stays as it is).
build_copy() { # name make-arguments...
    local dir=$OUT/$1
    shift
    rm -rf "$dir"
    mkdir -p "$dir"
    cp -r Makefile common 01_naive 02_loop_order 03_tiling 04_threads 05_simd tests/portability "$dir"/
    rm -f "$dir"/05_simd/simd
    make -s -C "$dir" GIT_REV=portability "$@" stage05
}

# run NAME EMULATOR... -- ARGS: the program's stdout in $LOG/NAME.out, its stderr without the
# emulator's own warnings in $LOG/NAME.err; returns the program's exit status.
run() {
    local name=$1
    shift
    local emu=()
    while [ "$1" != -- ]; do emu+=("$1"); shift; done
    shift
    "${emu[@]}" "$BIN" "$@" >"$LOG/$name.out" 2>"$LOG/$name.raw"
    local rc=$?
    grep -v '^qemu-[a-z0-9_]*: warning:' "$LOG/$name.raw" >"$LOG/$name.err"
    return $rc
}

# check CPU-NAME EXPECTED-PICK "RUNNABLE..." "UNRUNNABLE..." EMULATOR...
check_cpu() {
    local cpu=$1 pick=$2 want=$3 lack=$4
    shift 4
    local tag="05_simd on $cpu"
    if ! run "$cpu-list" "$@" -- --no-baseline --list; then
        fail "$tag: --list exit $? (see $LOG/$cpu-list.*)"
        return
    fi
    local listed
    listed=$(grep -v '\[not here' "$LOG/$cpu-list.out" | awk '{print $1}' | sort | paste -sd' ' -)
    local expect
    expect=$(echo "$want" | tr ' ' '\n' | sort | paste -sd' ' -)
    [ "$listed" = "$expect" ] && pass "$tag: --list shows what it can run: $listed" \
        || fail "$tag: --list shows '$listed', want '$expect'"
    local i=0 opts
    for opts in "${OPTION_SETS[@]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        run "$cpu-check$i" "$@" -- --variant all --no-baseline --reps 1 --sizes "$SHAPES" $opts
        local rc=$?
        local got
        got=$(sed -n 's/.*dispatch picks \([a-z0-9_]*\).*/\1/p' "$LOG/$cpu-check$i.out" | head -n1)
        local rows
        rows=$(grep -cE ' PASS( +busy: .*)?$' "$LOG/$cpu-check$i.out")
        if [ $rc -eq 0 ] && [ "$got" = "$pick" ] && [ "$rows" -gt 0 ]; then
            pass "$tag: dispatch picks $got; all variants checked, $rows rows PASS ($opts)"
        else
            fail "$tag: exit $rc, dispatch '$got' (want $pick), $rows PASS rows ($opts; see $LOG/$cpu-check$i.*)"
        fi
    done
    local v
    for v in $lack; do
        run "$cpu-lacks-$v" "$@" -- --no-baseline -m 33 --variant "$v"
        local rc=$?
        if [ $rc -eq 77 ] && [ "$(wc -l <"$LOG/$cpu-lacks-$v.err")" -eq 1 ]; then
            pass "$tag: --variant $v -> exit 77: $(cat "$LOG/$cpu-lacks-$v.err")"
        else
            fail "$tag: --variant $v -> exit $rc (want 77 and one line; see $LOG/$cpu-lacks-$v.*)"
        fi
    done
}

# qemu's user mode, named so that the tests can hide it (QEMU_X86_64=none QEMU_AARCH64=none: the
# path of a machine without it)
QX=${QEMU_X86_64:-qemu-x86_64} QA=${QEMU_AARCH64:-qemu-aarch64}

# ---- x86 without AVX-512, and without AVX
if [ "$(uname -m)" != x86_64 ]; then
    skip "x86-64-v2 under qemu: this machine is not x86_64"
elif ! command -v "$QX" >/dev/null 2>&1; then
    skip "x86-64-v2 under qemu: no qemu-x86_64 (apt-get install qemu-user)"
elif ! build_copy x86-64-v2 CFLAGS="$FLAGS -march=x86-64-v2" >"$LOG/x86-64-v2-build.log" 2>&1; then
    fail "x86-64-v2: make stage05 CFLAGS='... -march=x86-64-v2' failed (see $LOG/x86-64-v2-build.log)"
else
    pass "x86-64-v2: stage 05 builds with -march=x86-64-v2"
    BIN=$OUT/x86-64-v2/05_simd/simd
    check_cpu Haswell avx2_6x16 "avx2_6x16 generic omp_simd omp_tiled" "avx512_6x64 avx512_14x32" \
        "$QX" -cpu Haswell
    check_cpu Nehalem generic "generic omp_simd omp_tiled" "avx512_6x64 avx2_6x16" \
        "$QX" -cpu Nehalem
fi

# ---- ARM
CROSS=aarch64-linux-gnu-gcc
SYSROOT=/usr/aarch64-linux-gnu
if ! command -v "$QA" >/dev/null 2>&1 || ! command -v $CROSS >/dev/null 2>&1 ||
        [ ! -f $SYSROOT/include/stdio.h ]; then
    skip "aarch64 under qemu: needs qemu-aarch64, $CROSS and $SYSROOT (apt-get install qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
elif ! build_copy aarch64 CC=$CROSS AR=${CROSS%gcc}ar CFLAGS="$FLAGS" CPPFLAGS="-D_GNU_SOURCE -Icommon -Iportability" \
        LDLIBS="build/rel/portability/no_blas.o -lm" build/rel/portability/no_blas.o \
        >"$LOG/aarch64-build.log" 2>&1; then
    fail "aarch64: make stage05 CC=$CROSS failed (see $LOG/aarch64-build.log)"
elif grep -q 'warning:' "$LOG/aarch64-build.log"; then
    fail "aarch64: the cross build warns (see $LOG/aarch64-build.log)"
else
    pass "aarch64: stage 05 cross-builds with $CROSS, no warnings"
    BIN=$OUT/aarch64/05_simd/simd
    check_cpu aarch64 generic "generic omp_simd omp_tiled" "avx512_6x64 avx2_6x16" \
        "$QA" -L $SYSROOT
fi
exit 0

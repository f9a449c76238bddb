#!/usr/bin/env bash
# tests/portability.sh: the CPU stages on CPUs other than the one under your desk, in qemu's
# user-mode emulation. The stages promise programs that build and run on a CPU without AVX-512, or
# without AVX at all (only the kernel files get their instruction sets, stage.mk, and a kernel runs
# only where the CPU has what it needs), and stage 05 a generic kernel that "builds on any CPU,
# ARM included"; this checks it, not just says so.
#
#   x86-64-v2  every CPU stage built with -march=x86-64-v2 (SSE4.2: what the plain code may
#              use), its release and its sanitizer (ASan + UBSan) builds, in build/port/x86-64-v2.
#              Run on two emulated CPUs:
#                Haswell  AVX2 and FMA, no AVX-512, no AMX: 05's dispatch must pick avx2_6x16
#                Nehalem  SSE4.2, no AVX at all: the dispatch must pick generic
#              one instruction the CPU lacks on a path a run takes ends it with SIGILL. Each
#              stage's variants over small awkward shapes (the table names what the CPU lacks,
#              as many as --list marks); 11 and 13 their own small runs; 14 also --peak, --probe,
#              --fp32, a test case naming only AMX variants (exit 77) and MKL's BF16 baseline
#              where MKL is installed. The sanitizer builds run where qemu can run them (8.1 on:
#              qemu 7.2 tracks AddressSanitizer's 15 TiB shadow reservation page by page and runs
#              out of memory); and in any case tests/isa-reach.sh reads every program, release and
#              sanitizer, for an instruction either CPU lacks in the code main reaches before it
#              asks the CPU (the sanitizer's own code is compiled with a kernel file's flags too:
#              14's --peak once died of it on AVX2 CPUs).
#   aarch64    stage 05 cross-built with aarch64-linux-gnu-gcc, run under qemu-aarch64: the x86
#              kernels compile to nothing and the dispatch must pick generic. No BLAS for that
#              target: tests/portability/ holds the few BLAS symbols the harness links, and the
#              runs use --no-baseline (the check is against the harness's own double reference).
#
# 05 on each CPU: --list marks what it cannot run ("[not here: ...]") and the rest is what it can,
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
# a student edition (make student-edition) has the solutions compiled for one CPU, not as sources
if [ -f STUDENT-EDITION.md ]; then
    skip "portability: the solutions here are objects compiled for one CPU (STUDENT-EDITION.md); the full repository checks the sources on others"
    exit 0
fi

# A copy of what the stages are built from, built there with other flags (build/rel stays as it
# is): build_copy NAME "STAGE-DIRS" MAKE-ARGUMENTS-AND-GOALS...
build_copy() {
    local dir=$OUT/$1 stages=$2 d
    shift 2
    rm -rf "$dir"
    mkdir -p "$dir/tests"
    # shellcheck disable=SC2086
    cp -r Makefile common $stages "$dir"/
    cp -r tests/portability tests/cpu_class.c "$dir"/tests/
    cp -r tests/portability "$dir"/ # (the aarch64 build's -Iportability)
    for d in $stages; do rm -f "$dir/$d/$(make -s list-stages | awk -v d="$d" '$1 == d {print $2}')"; done
    make -s -j"$(nproc 2>/dev/null || echo 2)" -C "$dir" GIT_REV=portability NVCC= "$@"
}

# run NAME EMULATOR... -- ARGS: the program's stdout in $LOG/NAME.out, its stderr without the
# emulator's own warnings in $LOG/NAME.err; returns the program's exit status (and sets rc).
run() {
    local name=$1
    shift
    local emu=()
    while [ "$1" != -- ]; do emu+=("$1"); shift; done
    shift
    "${emu[@]}" "$BIN" "$@" >"$LOG/$name.out" 2>"$LOG/$name.raw"
    rc=$?
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
X86=$OUT/x86-64-v2
CPU_STAGES=$(make -s list-stages | awk '$3 == "cpu" {print $1 " " $2}')

# smoke CPU TAG WANT NAME PROGRAM ARGS...: PROGRAM ARGS under qemu's CPU exits WANT (0: its last
# line "N passed, 0 failed", with ", N not on this CPU" for what the CPU lacks)
smoke() {
    local cpu=$1 tag=$2 want=$3 name=$4
    shift 4
    BIN=$1
    shift
    run "$cpu-$name" "$QX" -cpu "$cpu" -- "$@"
    local rc=$? last
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOG/$cpu-$name.out" | tail -n 1)
    if [ $rc -eq "$want" ] && { [ "$want" -ne 0 ] || [[ $last =~ ^[0-9]+\ passed,\ 0\ failed ]]; }; then
        pass "$tag on $cpu: exit $rc${last:+: $last}"
    else
        fail "$tag on $cpu: exit $rc$([ $rc -eq 132 ] && echo ' (SIGILL: an instruction this CPU lacks)'), want $want${last:+, '$last'} (see $LOG/$cpu-$name.*)"
    fi
}

# stage_smokes CPU BUILD-PREFIX: every CPU stage but 05 (check_cpu does 05), at small sizes
stage_smokes() {
    local cpu=$1 pre=$2 dir prog bin tag
    while read -r dir prog; do
        bin=$X86/$pre$dir/$prog tag="$pre$dir"
        case $dir in
        05_simd) ;;
        11_gf256) smoke "$cpu" "$tag" 0 "${pre//\//_}$prog" "$bin" --len 1,33,4097 --data 5 --parity 3 \
                      --erasures all --reps 1 --no-baseline --threads 2 ;;
        13_distributed) smoke "$cpu" "$tag (one rank, no mpirun)" 0 "${pre//\//_}$prog" "$bin" \
                      --variant summa,summa_overlap --sizes "$SMALL" --reps 1 --threads 1 --no-baseline ;;
        *) smoke "$cpu" "$tag: all variants" 0 "${pre//\//_}$prog" "$bin" --variant all --no-baseline \
                      --reps 1 --sizes "$SMALL" --threads 2 --beta 0.5 --pad 3 ;;
        esac
    done <<<"$CPU_STAGES"
}

# lines_match CPU NAME: the table names each variant --list marks not here, and the tally counts them
lines_match() {
    local cpu=$1 name=$2 marked lines
    run "$cpu-$name-list" "$QX" -cpu "$cpu" -- --list
    marked=$(grep -c '\[not here' "$LOG/$cpu-$name-list.out")
    lines=$(grep -cE '^[a-z0-9_]+ +not on this CPU: needs ' "$LOG/$cpu-$name.out")
    if [ "$lines" -eq "$marked" ] && { [ "$marked" -eq 0 ] || grep -qE "^[0-9]+ passed, 0 failed, $marked not on this CPU$" "$LOG/$cpu-$name.out"; }; then
        pass "${BIN#"$X86"/} on $cpu: the $marked variant(s) it cannot run are named in the table and counted"
    else
        fail "${BIN#"$X86"/} on $cpu: $lines 'not on this CPU' line(s), --list marks $marked (see $LOG/$cpu-$name.*)"
    fi
}

SMALL="1,7x13x5,33,67x73x71"
qemu_version=$("$QX" --version 2>/dev/null | sed -n '1s/.*version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
if [ "$(uname -m)" != x86_64 ]; then
    skip "x86-64-v2 under qemu: this machine is not x86_64"
elif ! command -v "$QX" >/dev/null 2>&1; then
    skip "x86-64-v2 under qemu: no qemu-x86_64 (apt-get install qemu-user)"
elif ! build_copy x86-64-v2 "$(echo "$CPU_STAGES" | awk '{print $1}' | paste -sd' ' -)" \
        CFLAGS="$FLAGS -march=x86-64-v2" cpu asan >"$LOG/x86-64-v2-build.log" 2>&1; then
    fail "x86-64-v2: make cpu asan CFLAGS='... -march=x86-64-v2' failed (see $LOG/x86-64-v2-build.log)"
else
    pass "x86-64-v2: every CPU stage builds with -march=x86-64-v2, release and sanitizer builds"
    BIN=$X86/05_simd/simd
    check_cpu Haswell avx2_6x16 "avx2_6x16 generic omp_simd omp_tiled" "avx512_6x64 avx512_14x32" \
        "$QX" -cpu Haswell
    check_cpu Nehalem generic "generic omp_simd omp_tiled" "avx512_6x64 avx2_6x16" \
        "$QX" -cpu Nehalem
    # a core for OpenBLAS that this CPU cannot run, asked for by hand: refused, never a SIGILL
    BIN=$X86/05_simd/simd
    run Haswell-coretype env OPENBLAS_CORETYPE=SkylakeX "$QX" -cpu Haswell -- -m 16 --reps 1
    if [ $rc -eq 2 ] && [ ! -s "$LOG/Haswell-coretype.out" ] &&
       [ "$(wc -l <"$LOG/Haswell-coretype.err")" -eq 1 ]; then
        pass "OPENBLAS_CORETYPE=SkylakeX on Haswell: refused in one line: $(cat "$LOG/Haswell-coretype.err")"
    else
        fail "OPENBLAS_CORETYPE=SkylakeX on Haswell: exit $rc$([ $rc -eq 132 ] && echo ' (SIGILL)') (want 2 and one line; $LOG/Haswell-coretype.*)"
    fi
    for cpu in Haswell Nehalem; do
        stage_smokes "$cpu" ""
        for d in 06_strassen 14_amx; do
            prog=$(echo "$CPU_STAGES" | awk -v d=$d '$1 == d {print $2}')
            BIN=$X86/$d/$prog
            lines_match "$cpu" "$prog"
        done
        # 14: the units' peaks, the probe, FP32, a case naming only AMX variants, MKL's BF16 GEMM
        BIN=$X86/14_amx/amx
        run "$cpu-peak" "$QX" -cpu "$cpu" -- --peak
        n=$(grep -c 'not on this CPU: needs' "$LOG/$cpu-peak.out")
        [ $rc -eq 0 ] && [ "$n" -eq 3 ] && pass "14_amx --peak on $cpu: none of the three units is there, each says so" ||
            fail "14_amx --peak on $cpu: exit $rc$([ $rc -eq 132 ] && echo ' (SIGILL)'), $n of 3 units 'not on this CPU' (see $LOG/$cpu-peak.*)"
        run "$cpu-probe" "$QX" -cpu "$cpu" -- --probe
        [ $rc -eq 0 ] && grep -q 'no BF16 variant' "$LOG/$cpu-probe.out" &&
            pass "14_amx --probe on $cpu: says there is nothing to probe" ||
            fail "14_amx --probe on $cpu: exit $rc$([ $rc -eq 132 ] && echo ' (SIGILL)') (see $LOG/$cpu-probe.*)"
        smoke "$cpu" "14_amx --fp32 --variant all" 0 fp32 "$BIN" --fp32 --variant all --no-baseline --reps 1 --sizes 1,33
        run "$cpu-case-amx" "$QX" -cpu "$cpu" -- --fp32 --variant amx_fp32,amx_fp32_folded --no-baseline --reps 1 \
            --sizes 40x33x4097 --alpha -1.5 --beta 0.5
        [ $rc -eq 77 ] && [ "$(wc -l <"$LOG/$cpu-case-amx.err")" -eq 1 ] &&
            pass "14_amx on $cpu: its test case --fp32 --variant amx_fp32,amx_fp32_folded exits 77: $(sed 's/^[^:]*: //' "$LOG/$cpu-case-amx.err")" ||
            fail "14_amx on $cpu: --fp32 --variant amx_fp32,amx_fp32_folded: exit $rc, want 77 and one line (see $LOG/$cpu-case-amx.*)"
        run "$cpu-mkl" env MKL_VERBOSE=1 "$QX" -cpu "$cpu" -- --baseline mkl --variant all -m 33 -n 17 -k 5 --reps 1
        case $rc in
        0) grep -q 'GEMM_BF16BF16F32' "$LOG/$cpu-mkl.out" &&
               pass "14_amx --baseline mkl on $cpu: MKL_VERBOSE shows its BF16 GEMM beside what this CPU runs" ||
               fail "14_amx --baseline mkl on $cpu: no GEMM_BF16BF16F32 line in MKL_VERBOSE's log ($LOG/$cpu-mkl.out)" ;;
        77) skip "14_amx --baseline mkl on $cpu: $(sed 's/^[^:]*: //' "$LOG/$cpu-mkl.err")" ;;
        *) fail "14_amx --baseline mkl on $cpu: exit $rc (see $LOG/$cpu-mkl.*)" ;;
        esac
        # the sanitizer builds
        read -r major minor <<<"${qemu_version:-0 0}"
        if [ "$major" -gt 8 ] || { [ "$major" -eq 8 ] && [ "$minor" -ge 1 ]; }; then
            stage_smokes "$cpu" build/asan/
        else
            skip "the sanitizer builds on $cpu: qemu ${qemu_version/ /.} cannot run an AddressSanitizer program (it tracks the 15 TiB shadow reservation page by page and runs out of memory; qemu 8.1 or later can): tests/isa-reach.sh reads them below"
        fi
    done
    # every program, release and sanitizer builds: no instruction either CPU lacks before dispatch
    for b in $(echo "$CPU_STAGES" | awk '{print $1 "/" $2 " build/asan/" $1 "/" $2}') build/peak; do
        for class in haswell nehalem; do
            if out=$(bash tests/isa-reach.sh "$X86/$b" $class 2>&1); then
                pass "$b (-march=x86-64-v2): no instruction a $class CPU lacks in what main reaches before asking the CPU"
            else
                fail "$b (-march=x86-64-v2): instructions a $class CPU lacks, reached before asking the CPU:"
                echo "$out" | head -n 5 | sed 's/^/    /'
            fi
        done
    done
fi

# ---- ARM
CROSS=aarch64-linux-gnu-gcc
SYSROOT=/usr/aarch64-linux-gnu
if ! command -v "$QA" >/dev/null 2>&1 || ! command -v $CROSS >/dev/null 2>&1 ||
        [ ! -f $SYSROOT/include/stdio.h ]; then
    skip "aarch64 under qemu: needs qemu-aarch64, $CROSS and $SYSROOT (apt-get install qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
elif ! build_copy aarch64 "01_naive 02_loop_order 03_tiling 04_threads 05_simd" CC=$CROSS AR=${CROSS%gcc}ar \
        CFLAGS="$FLAGS" CPPFLAGS="-D_GNU_SOURCE -Icommon -Iportability" \
        LDLIBS="build/rel/portability/no_blas.o -lm" build/rel/portability/no_blas.o stage05 \
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

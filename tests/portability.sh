#!/usr/bin/env bash
# tests/portability.sh: the CPU stages on CPUs other than the one under your desk, in qemu's
# user-mode emulation. The stages promise programs that build and run on a CPU without AVX-512, or
# without AVX at all (only the kernel files get their instruction sets, stage.mk, and a kernel runs
# only where the CPU has what it needs), and on 64-bit ARM, with NEON kernels where the lesson has a
# SIMD kernel; this checks it, not just says so.
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
#   aarch64    every CPU stage but 13 cross-built with aarch64-linux-gnu-gcc (13 needs Open MPI and
#              ScaLAPACK for aarch64, which a cross setup lacks; the sanitizer builds are not built:
#              qemu before 8.1 runs no AddressSanitizer program), with its exercises, run under
#              qemu-aarch64: the x86 kernels compile to nothing and 05's dispatch must pick
#              neon_8x12. No BLAS for that target: tests/portability/ holds the few BLAS symbols
#              the harness links, and the runs use --no-baseline (the check is against the
#              harness's own double reference). neon_8x12 as make test checks a kernel (the shapes
#              of tests/shapes.txt with tests/run-tests.sh's option sets, K = 0, --edges); 11's
#              split_neon on the lengths and codes of tests/stages/11_gf256.sh; every other stage
#              at small sizes; 14 says it has nothing here; each untouched exercise fails cleanly.
#              On an ARM machine this part is skipped: make test runs every stage there natively.
#
# 05 on each CPU: --list marks what it cannot run ("[not here: ...]") and the rest is what it can,
# every variant passes its check over awkward shapes (K past one KC slice, N past one NC block,
# 1 and 2 threads, alpha/beta and padding), and naming a kernel the CPU lacks exits 77 with one
# line.
# Prints PASS:/FAIL:/SKIP: lines (make test counts them). SKIP where qemu-user or the cross
# compiler is missing (QEMU_X86_64=none QEMU_AARCH64=none hides qemu: tests/deps-hidden.sh);
# scripts/install-deps.sh installs them on Debian/Ubuntu.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
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

# What the runs below run in: EMU, the emulator and its arguments for this CPU; ROOT, the build
# folder of its programs. Each CPU's part sets them.
EMU=() ROOT=

# smoke CPU TAG WANT NAME PROGRAM ARGS...: PROGRAM ARGS under qemu's CPU (EMU) exits WANT (0: its
# last line "N passed, 0 failed", with ", N not on this CPU" for what the CPU lacks)
smoke() {
    local cpu=$1 tag=$2 want=$3 name=$4
    shift 4
    BIN=$1
    shift
    run "$cpu-$name" "${EMU[@]}" -- "$@"
    local rc=$? last
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOG/$cpu-$name.out" | tail -n 1)
    if [ $rc -eq "$want" ] && { [ "$want" -ne 0 ] || [[ $last =~ ^[0-9]+\ passed,\ 0\ failed ]]; }; then
        pass "$tag on $cpu: exit $rc${last:+: $last}"
    else
        fail "$tag on $cpu: exit $rc$([ $rc -eq 132 ] && echo ' (SIGILL: an instruction this CPU lacks)'), want $want${last:+, '$last'} (see $LOG/$cpu-$name.*)"
    fi
}

# stage_smokes CPU BUILD-PREFIX [STAGES]: every CPU stage but 05 (check_cpu does 05), at small
# sizes (STAGES: "dir program" lines, default every CPU stage)
stage_smokes() {
    local cpu=$1 pre=$2 stages=${3:-$CPU_STAGES} dir prog bin tag
    while read -r dir prog; do
        bin=$ROOT/$pre$dir/$prog tag="$pre$dir"
        case $dir in
        05_simd) ;;
        11_gf256) smoke "$cpu" "$tag" 0 "${pre//\//_}$prog" "$bin" --len 1,33,4097 --data 5 --parity 3 \
                      --erasures all --reps 1 --no-baseline --threads 2 ;;
        13_distributed) smoke "$cpu" "$tag (one rank, no mpirun)" 0 "${pre//\//_}$prog" "$bin" \
                      --variant summa,summa_overlap --sizes "$SMALL" --reps 1 --threads 1 --no-baseline ;;
        *) smoke "$cpu" "$tag: all variants" 0 "${pre//\//_}$prog" "$bin" --variant all --no-baseline \
                      --reps 1 --sizes "$SMALL" --threads 2 --beta 0.5 --pad 3 ;;
        esac
    done <<<"$stages"
}

# lines_match CPU NAME: the table names each variant --list marks not here, and the tally counts them
lines_match() {
    local cpu=$1 name=$2 marked lines
    run "$cpu-$name-list" "${EMU[@]}" -- --list
    marked=$(grep -c '\[not here' "$LOG/$cpu-$name-list.out")
    lines=$(grep -cE '^[a-z0-9_]+ +not on this CPU: needs ' "$LOG/$cpu-$name.out")
    if [ "$lines" -eq "$marked" ] && { [ "$marked" -eq 0 ] || grep -qE "^[0-9]+ passed, 0 failed, $marked not on this CPU$" "$LOG/$cpu-$name.out"; }; then
        pass "${BIN#"$ROOT"/} on $cpu: the $marked variant(s) it cannot run are named in the table and counted"
    else
        fail "${BIN#"$ROOT"/} on $cpu: $lines 'not on this CPU' line(s), --list marks $marked (see $LOG/$cpu-$name.*)"
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
    check_cpu Haswell avx2_6x16 "avx2_6x16 generic omp_simd omp_tiled" "avx512_6x64 avx512_14x32 neon_8x12" \
        "$QX" -cpu Haswell
    check_cpu Nehalem generic "generic omp_simd omp_tiled" "avx512_6x64 avx2_6x16 neon_8x12" \
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
    ROOT=$X86
    for cpu in Haswell Nehalem; do
        EMU=("$QX" -cpu "$cpu")
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

# ---- ARM (AArch64): every CPU stage but 13 cross-built, run under qemu-aarch64
CROSS=aarch64-linux-gnu-gcc
SYSROOT=/usr/aarch64-linux-gnu
ARM=$OUT/aarch64
# what the cross build has: every CPU stage but 13 (MPI and ScaLAPACK for aarch64 are not in a
# cross setup; an ARM machine builds and tests 13 natively, make deps and make test)
ARM_STAGES=$(echo "$CPU_STAGES" | grep -v '^13_distributed ')
# 05's neon_8x12 as make test checks a kernel: the shapes of tests/shapes.txt with the option
# sets of tests/run-tests.sh, K = 0, the edge cases
GEMM_SHAPES=$(grep -v '^#' tests/shapes.txt | paste -sd, -)
RUN_TESTS_SETS=("" "--alpha -1.5 --beta 0.5" "--pad 5" "--beta 1 --pad 3 --threads 3")
# 11's split_neon on the lengths and codes of tests/stages/11_gf256.sh (its 1 MiB run left out:
# emulation)
AWKWARD=$(sed -n 's/^AWKWARD=//p' tests/stages/11_gf256.sh)
GF_CASES=("--len $AWKWARD" "--data 1 --parity 1 --len 1,5,100" "--data 1 --parity 8 --len 3,300"
    "--data 20 --parity 1 --len 1,129,5000" "--data 8 --parity 20 --len 1,65,3000"
    "--data 200 --parity 56 --len 1,77" "--data 4 --parity 3 --erasures all --len 1,33,200"
    "--data 6 --parity 2 --erasures all --len 17,1000" "--data 3 --parity 5 --erasures all --len 65"
    "--erasures 0,3,5,9 --len 1,4097" "--erasures 10,11,12,13 --len 1,4097" "--offset 1 --len $AWKWARD"
    "--offset 63 --len 1,64,65,1000" "--threads 2,3 --len 4096,100000")

if [ "$(uname -m)" = aarch64 ]; then
    skip "aarch64 under qemu: this machine is aarch64, make test's own checks ran every stage on it"
elif ! command -v "$QA" >/dev/null 2>&1 || ! command -v $CROSS >/dev/null 2>&1 ||
        [ ! -f $SYSROOT/include/stdio.h ]; then
    skip "aarch64 under qemu: needs qemu-aarch64, $CROSS and $SYSROOT (apt-get install qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
elif ! build_copy aarch64 "$(echo "$ARM_STAGES" | awk '{print $1}' | paste -sd' ' -)" CC=$CROSS \
        AR=${CROSS%gcc}ar MPICC= CFLAGS="$FLAGS" CPPFLAGS="-D_GNU_SOURCE -Icommon -Iportability" \
        LDLIBS="build/rel/portability/no_blas.o -lm" build/rel/portability/no_blas.o cpu grade-bins \
        >"$LOG/aarch64-build.log" 2>&1; then
    fail "aarch64: make cpu grade-bins CC=$CROSS failed (see $LOG/aarch64-build.log)"
elif grep -q 'warning:' "$LOG/aarch64-build.log"; then
    fail "aarch64: the cross build warns (see $LOG/aarch64-build.log)"
else
    pass "aarch64: $(echo "$ARM_STAGES" | awk '{print $1}' | paste -sd' ' -), build/peak and the exercises cross-build with $CROSS, no warnings (no BLAS: tests/portability/'s stand-ins, runs with --no-baseline)"
    skip "13_distributed on aarch64: not built: no Open MPI or ScaLAPACK for aarch64 here (an ARM machine builds and tests it natively)"
    skip "the sanitizer builds on aarch64: not built (qemu $("$QA" --version | sed -n '1s/.*version \([0-9.]*\).*/\1/p') runs no AddressSanitizer program before 8.1; natively on ARM, make test runs them)"
    EMU=("$QA" -L $SYSROOT) ROOT=$ARM
    BIN=$ARM/05_simd/simd
    check_cpu aarch64 neon_8x12 "neon_8x12 generic omp_simd omp_tiled" "avx512_6x64 avx512_14x32 avx2_6x16" \
        "${EMU[@]}"
    i=0
    for opts in "${RUN_TESTS_SETS[@]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        smoke aarch64 "05_simd neon_8x12: tests/shapes.txt ${opts:-(defaults)}" 0 neon-shapes$i "$BIN" \
            --variant neon_8x12 --no-baseline --reps 1 --sizes "$GEMM_SHAPES" $opts
    done
    smoke aarch64 "05_simd neon_8x12: K = 0 (beta 0 with C NaN)" 0 neon-k0 "$BIN" --variant neon_8x12 \
        --no-baseline --reps 1 --sizes 7x13x0,1x97x0 --pad 2
    smoke aarch64 "05_simd neon_8x12: K = 0, beta 1.3" 0 neon-k0b "$BIN" --variant neon_8x12 \
        --no-baseline --reps 1 -m 33 -n 17 -k 0 --beta 1.3
    smoke aarch64 "05_simd neon_8x12: the edge cases (--edges)" 0 neon-edges "$BIN" --variant neon_8x12 \
        --no-baseline --edges
    stage_smokes aarch64 "" "$ARM_STAGES"
    for d in 06_strassen 14_amx; do
        prog=$(echo "$CPU_STAGES" | awk -v d=$d '$1 == d {print $2}')
        BIN=$ARM/$d/$prog
        lines_match aarch64 "$prog"
    done
    grep -q "05's packed kernel (neon_8x12)" "$LOG/aarch64-strassen.out" &&
        pass "06_strassen on aarch64: its leaves run 05's dispatch, neon_8x12" ||
        fail "06_strassen on aarch64: the header does not name neon_8x12 ($LOG/aarch64-strassen.out)"
    # 11: split_neon (and split_tables, which is it here) on 11's own lengths and codes
    BIN=$ARM/11_gf256/gf256
    i=0
    for args in "${GF_CASES[@]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        run "aarch64-gf$i" "${EMU[@]}" -- --variant all --reps 1 --no-baseline $args
        rows=$(grep -cE '^split_neon .* PASS +PASS$' "$LOG/aarch64-gf$i.out")
        if [ $rc -eq 0 ] && [ "$rows" -gt 0 ] && ! grep -q FAIL "$LOG/aarch64-gf$i.out" &&
           grep -qE '^[0-9]+ passed, 0 failed' "$LOG/aarch64-gf$i.out"; then
            pass "11_gf256 split_neon on aarch64: $args: $rows rows, encode and decode PASS"
        else
            fail "11_gf256 split_neon on aarch64: $args: exit $rc, $rows split_neon rows PASS (see $LOG/aarch64-gf$i.*)"
        fi
    done
    # 14: nothing of AVX-512 or AMX here, and each says so
    BIN=$ARM/14_amx/amx
    run aarch64-peak "${EMU[@]}" -- --peak
    [ $rc -eq 0 ] && grep -q 'no AVX-512 or AMX on this architecture' "$LOG/aarch64-peak.out" &&
        pass "14_amx --peak on aarch64: says there is no AVX-512 or AMX on this architecture" ||
        fail "14_amx --peak on aarch64: exit $rc (see $LOG/aarch64-peak.*)"
    run aarch64-probe "${EMU[@]}" -- --probe
    [ $rc -eq 0 ] && grep -q 'no BF16 variant' "$LOG/aarch64-probe.out" &&
        pass "14_amx --probe on aarch64: says there is nothing to probe" ||
        fail "14_amx --probe on aarch64: exit $rc (see $LOG/aarch64-probe.*)"
    smoke aarch64 "14_amx --fp32 --variant all" 0 fp32 "$BIN" --fp32 --variant all --no-baseline --reps 1 --sizes 1,33
    run aarch64-case-amx "${EMU[@]}" -- --fp32 --variant amx_fp32,amx_fp32_folded --no-baseline --reps 1 -m 33
    [ $rc -eq 77 ] && [ "$(wc -l <"$LOG/aarch64-case-amx.err")" -eq 1 ] &&
        pass "14_amx on aarch64: --fp32 --variant amx_fp32,amx_fp32_folded exits 77: $(sed 's/^[^:]*: //' "$LOG/aarch64-case-amx.err")" ||
        fail "14_amx on aarch64: --fp32 --variant amx_fp32,amx_fp32_folded: exit $rc, want 77 and one line (see $LOG/aarch64-case-amx.*)"
    # make grade on ARM: each untouched exercise builds, runs, and fails its checks cleanly
    while read -r dir prog; do
        BIN=$ARM/build/grade/$dir/$prog
        case $dir in
        11_gf256) run "aarch64-exercise-$prog" "${EMU[@]}" -- --data 4 --parity 2 --len 7,33 --no-baseline --reps 1 ;;
        *) run "aarch64-exercise-$prog" "${EMU[@]}" -- --variant all --no-baseline --reps 1 --sizes 7x13x5,33 ;;
        esac
        if [ $rc -eq 1 ] && grep -q FAIL "$LOG/aarch64-exercise-$prog.out"; then
            pass "$dir's exercise on aarch64: untouched, it fails its checks cleanly"
        elif [ $rc -eq 0 ] && grep -q ' not on this CPU: ' "$LOG/aarch64-exercise-$prog.out"; then
            skip "$dir's exercise on aarch64: what ran passed; its variants are not on this CPU ($(awk '/ not on this CPU: / {print $1}' "$LOG/aarch64-exercise-$prog.out" | paste -sd, -))"
        else
            fail "$dir's exercise on aarch64: exit $rc, want 1 with FAIL rows (see $LOG/aarch64-exercise-$prog.*)"
        fi
    done <<<"$ARM_STAGES"
fi
exit 0

#!/usr/bin/env bash
# tests/check-quoted-output.sh: the output a chapter quotes for a CPU class the reader may have is
# what the program prints on that class. Each case: a chapter, the heading of the section whose
# first ```text block holds the quote, and the command that prints it, run here with
# GEMM_HIDE_ISA (the class below this CPU) at a small size: every line of the block must be a
# line of the output (spaces compared as one). On a CPU that lacks more than the case hides, the
# same lines still come out; on one without x86 the case is skipped.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh tallies them); exits 0.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
LOG=build/test-logs/quoted-output
mkdir -p "$LOG"
# shellcheck source=tests/checker-lib.sh
. tests/checker-lib.sh

# quoted CHAPTER "HEADING" TAG COMMAND...
quoted() {
    local chapter=$1 heading=$2 tag=$3
    shift 3
    awk -v h="$heading" '
        index($0, h) == 1 { in_section = 1; next }
        in_section && /^## / { exit }
        in_section && /^```text/ { in_block = 1; next }
        in_block && /^```/ { exit }
        in_block { print }' "$chapter" | tr -s ' ' >"$LOG/$tag.quote"
    if [ ! -s "$LOG/$tag.quote" ]; then
        fail "$chapter: no \`\`\`text block under '$heading' (the quote moved? update this test)"
        return
    fi
    run "$tag" "$@"
    tr -s ' ' <"$LOG/$tag.out" >"$LOG/$tag.got"
    local missing
    missing=$(grep -vxFf "$LOG/$tag.got" "$LOG/$tag.quote" | head -n 1)
    if [ -z "$missing" ]; then
        pass "$chapter, '$heading': the $(wc -l <"$LOG/$tag.quote") quoted lines are what $* prints"
    else
        fail "$chapter, '$heading': quotes '$missing', which $* does not print (exit $rc; $LOG/$tag.*)"
    fi
}

if [ "$(uname -m)" != x86_64 ]; then
    skip "the quoted outputs of CPUs without AVX-512 or AMX: this machine is not x86"
    exit 0
fi
make -s 05_simd/simd 14_amx/amx >"$LOG/build.log" 2>&1 || { fail "build (see $LOG/build.log)"; exit 0; }
quoted 05_simd/README.md "## Without AVX-512" no-avx512 \
    env GEMM_HIDE_ISA=avx512 05_simd/simd -m 64 --threads 1 --reps 1
quoted 14_amx/README.md "**What you need.**" no-amx \
    env GEMM_HIDE_ISA="amx avx512_bf16" 14_amx/amx -m 64 --reps 1
exit 0

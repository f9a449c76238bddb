#!/usr/bin/env bash
# tests/deps-hidden.sh: every optional dependency's "absent" path, with the dependency hidden,
# whatever this machine has installed, so that a development machine's extra libraries can
# never decide whether `make test` passes (their "present" paths run in the other checkers,
# where they are installed). Hidden by:
#   MKL, BLIS    MKL_HOME, BLIS_HOME naming an empty folder
#   ISA-L        ISAL_HOME naming an empty folder
#   Open MPI     make MPICC= (what the Makefile asks for; not on the PATH: the same)
#   ScaLAPACK    make DIST_SCALAPACK_LIB=none
#   matplotlib   PLOT_PYTHON=none (scripts/find-python.sh), make PYTHON=
#   qemu         QEMU_X86_64=none QEMU_AARCH64=none (tests/portability.sh)
#   nvcc         make NVCC=
# .ci/run runs make test, which runs this. Prints PASS:/FAIL:/SKIP: lines; exits 0.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
LOG=build/test-logs/deps-hidden
rm -rf "$LOG"
mkdir -p "$LOG"
EMPTY=$(mktemp -d)
trap 'rm -rf "$EMPTY"' EXIT
# shellcheck source=tests/checker-lib.sh
. tests/checker-lib.sh

# skipped77 DESC NAME: the last run exited 77, one line on stderr, nothing on stdout
skipped77() {
    local lines bytes
    lines=$(wc -l <"$LOG/$2.err") bytes=$(wc -c <"$LOG/$2.out")
    if [ "$rc" -eq 77 ] && [ "$lines" -eq 1 ] && [ "$bytes" -eq 0 ]; then
        pass "$1: exit 77: $(cat "$LOG/$2.err")"
    else
        fail "$1: exit $rc, $lines stderr line(s), $bytes bytes on stdout (want exit 77, one line, nothing on stdout; $LOG/$2.*)"
    fi
}

# ---- MKL and BLIS: --baseline refused with 77, --csv - stays empty
for lib in mkl blis; do
    home=$(echo "$lib" | tr a-z A-Z)_HOME
    run "$lib" env "$home=$EMPTY" 05_simd/simd --baseline "$lib" -m 8 --reps 1 --csv -
    skipped77 "$lib hidden ($home empty): 05_simd --baseline $lib --csv -" "$lib"
done

# ---- ISA-L: stage 11 runs without its baseline, and says so
run isal env ISAL_HOME="$EMPTY" 11_gf256/gf256 --variant table,split_tables --len 1K,4097 --reps 1
if [ $rc -eq 0 ] && grep -q '^baseline *none: ISA-L: no libisal.so.2 in \$ISAL_HOME' "$LOG/isal.out" &&
   ! grep -q '^isa-l ' "$LOG/isal.out" && grep -qE '^[1-9][0-9]* passed, 0 failed$' "$LOG/isal.out"; then
    pass "ISA-L hidden (ISAL_HOME empty): 11_gf256 runs its checks without the baseline and says why"
else
    fail "ISA-L hidden: exit $rc, or no 'baseline none' line, or isa-l rows ($LOG/isal.*)"
fi

# ---- Open MPI and ScaLAPACK: stage 13 left out of the build, with the reason
for hide in "MPICC=" "DIST_SCALAPACK_LIB=none"; do
    what=$([ "$hide" = "MPICC=" ] && echo "Open MPI" || echo "ScaLAPACK")
    listed=$(make -s list-stages "$hide" | awk '$1 == "13_distributed"')
    missing=$(make -s missing-stages "$hide" | awk '$1 == "13_distributed"')
    out=$(make -s stage13 "$hide" 2>&1)
    code=$?
    planned=$(make -s -n all "$hide" 2>/dev/null | grep -c '13_distributed/distributed')
    if [ -z "$listed" ] && echo "$missing" | grep -q "needs $what" && [ $code -ne 0 ] &&
       echo "$out" | grep -q "stage 13 needs $what" && [ "$planned" -eq 0 ]; then
        pass "$what hidden (make $hide): 13 is not built nor tested, and make stage13 says: ${out%%$'\n'*}"
    else
        fail "$what hidden (make $hide): listed '$listed', missing '$missing', make stage13 exit $code: '$out', $planned build steps of it"
    fi
done

# ---- ScaLAPACK hidden on a GPU host (none bundled): 13's GPU tests, and the chapter's
#      `make test-gpu STAGES=13`, skip with make's reason instead of failing to build
if make -s missing-stages | grep -q '^13_distributed '; then
    skip "ScaLAPACK hidden on a GPU host: stage 13 is not built here even with it ($(make -s missing-stages | grep '^13_distributed '))"
elif ! command -v python3 >/dev/null; then
    skip "ScaLAPACK hidden on a GPU host: no python3 for tests/check-commands.sh"
else
    DIST_SCALAPACK_LIB=none SCALAPACK_BUNDLE_DIR="$EMPTY" bash tests/stages/13_distributed-gpu.sh >"$LOG/scal-gpu.out" 2>&1
    code=$?
    DIST_SCALAPACK_LIB=none bash tests/check-commands.sh --gpu 13_distributed/README.md >"$LOG/scal-cmds.out" 2>&1
    if [ $code -eq 0 ] && grep -q '^SKIP: stage 13 is not built here: needs ScaLAPACK' "$LOG/scal-gpu.out" &&
       grep -q '^0 passed, 0 failed, 1 skipped$' "$LOG/scal-gpu.out" &&
       grep -q '^SKIP: .*make test-gpu STAGES=13 (stage 13 is not built here: needs ScaLAPACK' "$LOG/scal-cmds.out"; then
        pass "ScaLAPACK hidden: tests/stages/13_distributed-gpu.sh and the chapter's make test-gpu STAGES=13 skip, saying why"
    else
        fail "ScaLAPACK hidden: tests/stages/13_distributed-gpu.sh exit $code ($LOG/scal-gpu.out), or no skip for make test-gpu STAGES=13 ($LOG/scal-cmds.out)"
    fi
fi

# ---- matplotlib: the plot test skips (77), make plots says what is missing
PLOT_PYTHON=none sh tests/test_plot.sh >"$LOG/plot.out" 2>&1
code=$?
if [ $code -eq 77 ] && grep -q '^SKIP: no python3 with matplotlib' "$LOG/plot.out"; then
    pass "matplotlib hidden (PLOT_PYTHON=none): tests/test_plot.sh skips: $(head -n1 "$LOG/plot.out")"
else
    fail "matplotlib hidden: tests/test_plot.sh exit $code ($LOG/plot.out)"
fi
PLOT_PYTHON=none make -s --no-print-directory plots PYTHON= FIGURES="$EMPTY/fig" >"$LOG/plots.out" 2>&1
code=$?
out=$(grep -v '^make' "$LOG/plots.out")
[ $code -ne 0 ] && echo "$out" | grep -q 'no python3 with matplotlib' && [ ! -e "$EMPTY/fig" ] &&
    pass "matplotlib hidden: make plots stops with: $out" ||
    fail "matplotlib hidden: make plots exit $code: '$out'"

# ---- matplotlib missing from the python a reader types: every chart script says so in one line
# (exit 2, no traceback, no file), and the scripts' --table modes need none. The python is any
# python3, with matplotlib made unimportable (sys.modules entry None).
nompl() { # nompl NAME SCRIPT ARGS...: the script run as __main__ with no matplotlib to import
    local name=$1
    shift
    python3 -c 'import os, runpy, sys; sys.modules["matplotlib"] = None; sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))  # (as python3 SCRIPT does)
runpy.run_path(sys.argv[0], run_name="__main__")' "$@" >"$LOG/$name.out" 2>"$LOG/$name.err"
}
for p in plots/[0-9][0-9]_*.py; do s=$(basename "$p" .py)
    src=$(ls results/*/$s.csv 2>/dev/null | head -n 1)
    [ -n "$src" ] || continue
    nompl "nompl-$s" "plots/$s.py" "$src" "$EMPTY/$s.png"
    code=$?
    if [ $code -eq 2 ] && [ "$(wc -l <"$LOG/nompl-$s.err")" -eq 1 ] &&
       grep -q 'no matplotlib in' "$LOG/nompl-$s.err" && [ ! -e "$EMPTY/$s.png" ]; then
        pass "no matplotlib: plots/$s.py says so in one line: $(cat "$LOG/nompl-$s.err")"
    else
        fail "no matplotlib: plots/$s.py exit $code, $(wc -l <"$LOG/nompl-$s.err") lines ($LOG/nompl-$s.err)"
    fi
done
nompl nompl-plot plots/plot.py --out "$EMPTY/figs" results/xeon-2c
code=$?
[ $code -eq 2 ] && [ "$(wc -l <"$LOG/nompl-plot.err")" -eq 1 ] && [ ! -e "$EMPTY/figs" ] &&
    pass "no matplotlib: plots/plot.py says so in one line" ||
    fail "no matplotlib: plots/plot.py exit $code ($LOG/nompl-plot.err)"
nompl nompl-table13 plots/13_distributed.py --table results/h200x4/13_distributed.csv
code13=$?
if not_in_edition lab/05_simd/plot-scaling.py; then
    [ $code13 -eq 0 ] && pass "no matplotlib: 13's --table prints its tables (05's script is not in the student edition)" ||
        fail "no matplotlib: --table exit $code13 (13) ($LOG/nompl-table13.err)"
else
    nompl nompl-table05 lab/05_simd/plot-scaling.py results/xeon-emr-16c/05_host --table
    code05=$?
    [ $code05 -eq 0 ] && [ $code13 -eq 0 ] && grep -q '^| n |' "$LOG/nompl-table05.out" &&
        pass "no matplotlib: 05's and 13's --table print their tables" ||
        fail "no matplotlib: --table exit $code05 (05), $code13 (13) ($LOG/nompl-table*.err)"
fi

# ---- qemu: the portability checks skip with a line, nothing fails (a student edition skips them all)
QEMU_X86_64=none QEMU_AARCH64=none bash tests/portability.sh >"$LOG/port.out" 2>&1
code=$?
if [ -f STUDENT-EDITION.md ]; then
    skip "qemu hidden: tests/portability.sh skips in a student edition ($(grep -m1 '^SKIP:' "$LOG/port.out" | cut -c7-70)...)"
elif [ $code -eq 0 ] && [ "$(grep -c '^SKIP:' "$LOG/port.out")" -ge 2 ] && ! grep -q '^FAIL:' "$LOG/port.out"; then
    pass "qemu hidden (QEMU_X86_64=none QEMU_AARCH64=none): portability skips ($(grep -c '^SKIP:' "$LOG/port.out") lines)"
else
    fail "qemu hidden: portability exit $code, $(grep -c '^FAIL:' "$LOG/port.out") FAIL lines ($LOG/port.out)"
fi

# ---- nvcc: no GPU stage built, no nvcc run, the CPU stages all there
plan=$(make -s -n all NVCC= 2>/dev/null)
nv=$(echo "$plan" | grep -cE '^[^ ]*nvcc ')
gpu_bins=$(echo "$plan" | grep -cE -- '-o (07|08|09|10|12)_[a-z_]+/')
if [ "$nv" -eq 0 ] && [ "$gpu_bins" -eq 0 ]; then
    pass "nvcc hidden (make NVCC=): nothing for nvcc to build, no GPU stage in the plan"
else
    fail "nvcc hidden (make NVCC=): $nv nvcc commands, $gpu_bins GPU programs in make -n all"
fi
exit 0

#!/usr/bin/env bash
# tests/baselines.sh: --baseline openblas|mkl|blis in every CPU GEMM stage, without installing
# anything. Where MKL or BLIS is installed the run must check its rows and name the library in the
# CSV's baseline column; where it is not, exit 77 with one line on stderr and nothing on stdout.
# MKL_HOME and BLIS_HOME pointing at an empty folder take the "not installed" path even where
# the library is there; one that is there but will not load (a text file under its name, a
# library it needs missing) is skipped with the loader's error, not called absent. --baseline bogus, or any --baseline in a stage with one baseline of its
# own (the GPU stages, 13), exits 2 with one line. And one thing that skewed every ratio at small
# sizes: 05 read the cache sizes from sysfs at every call (counted with strace where there is one).
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh tallies them); exits 0.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
LOG=build/test-logs/baselines
rm -rf "$LOG"
mkdir -p "$LOG"
EMPTY=$(mktemp -d)
trap 'rmdir "$EMPTY"' EXIT

# shellcheck source=tests/checker-lib.sh
. tests/checker-lib.sh

# skipped DESC NAME: the last run exited 77 with one line on stderr, nothing on stdout
skipped() {
    # nothing on stdout, --csv - included (csv.c writes the header with the first row)
    if [ "$rc" -eq 77 ] && [ "$(wc -l <"$LOG/$2.err")" -eq 1 ] && [ ! -s "$LOG/$2.out" ]; then
        pass "$1: exit 77: $(cat "$LOG/$2.err")"
    else
        fail "$1: exit $rc, $(wc -l <"$LOG/$2.err") stderr line(s), $(wc -c <"$LOG/$2.out") bytes on stdout (want exit 77, one line, nothing on stdout; $LOG/$2.*)"
    fi
}

# refused DESC NAME WANT COMMAND...: exit 2, one line on stderr matching WANT (a grep -E
# pattern), nothing on stdout
refused() {
    local desc=$1 name=$2 want=$3
    shift 3
    run "$name" "$@"
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$LOG/$name.err")" -eq 1 ] &&
        grep -qE -- "$want" "$LOG/$name.err" && [ ! -s "$LOG/$name.out" ]; then
        pass "$desc: exit 2: $(cat "$LOG/$name.err")"
    else
        fail "$desc: exit $rc (want 2, one line matching '$want'; $LOG/$name.*)"
    fi
}

NAIVE=01_naive/naive
declare -A prefix=([openblas]=OpenBLAS [mkl]=MKL- [blis]=BLIS-)
cpu_stages=$(make -s list-stages | awk '$3 == "cpu" {print $1 "/" $2}')
for bin in $cpu_stages; do
    dir=${bin%/*} prog=${bin#*/}
    [ "$dir" = 11_gf256 ] && continue # not a float GEMM: no BLAS baseline
    [ "$dir" = 13_distributed ] && continue # ScaLAPACK's, its own: refused below, with the GPU stages
    if [ ! -x "$bin" ]; then
        fail "$dir: $bin not built"
        continue
    fi
    for lib in openblas mkl blis; do
        name=$prog-$lib
        run "$name" "$bin" --baseline "$lib" --variant all --sizes 1,7x13x5,33 --reps 1 \
            --threads 2 --beta 0.5 --csv -
        if [ "$rc" -eq 77 ] && [ "$lib" != openblas ]; then
            skipped "$dir: --baseline $lib, not installed here" "$name"
        elif [ "$rc" -ne 0 ]; then
            fail "$dir: --baseline $lib: exit $rc (see $LOG/$name.*)"
        else
            # every row names the library; its own row is there, every variant's row checked
            cols=$(awk -F, 'NR > 1 {print $11}' "$LOG/$name.out" | sort -u)
            own=$(awk -F, -v b="$cols" 'NR > 1 && $2 == tolower(b)' "$LOG/$name.out" | wc -l)
            unchecked=$(awk -F, -v b="$cols" 'NR > 1 && $2 != tolower(b) && $14 != "PASS"' \
                "$LOG/$name.out" | wc -l)
            case $cols in
                "${prefix[$lib]}"*)
                    if [ "$(echo "$cols" | wc -l)" -eq 1 ] && [ "$own" -ge 3 ] && [ "$unchecked" -eq 0 ]; then
                        pass "$dir: --baseline $lib: checked rows against $cols"
                    else
                        fail "$dir: --baseline $lib: baseline column '$cols', $own rows of its own (want 3 or more: 03 and 04 run twice), $unchecked rows not PASS ($LOG/$name.out)"
                    fi ;;
                *) fail "$dir: --baseline $lib: the baseline column says '$cols', not ${prefix[$lib]}... ($LOG/$name.out)" ;;
            esac
        fi
    done
    # the library held to BLAS's rules at the edges, as OpenBLAS is (common/edges.c)
    for lib in mkl blis; do
        run "$prog-$lib-edges" "$bin" --baseline "$lib" --edges --variant all
        case $rc in
            0) pass "$dir: --baseline $lib --edges: the library meets the BLAS rules" ;;
            77) skipped "$dir: --baseline $lib --edges, not installed here" "$prog-$lib-edges" ;;
            *) fail "$dir: --baseline $lib --edges: exit $rc ($LOG/$prog-$lib-edges.*)" ;;
        esac
    done
    run "$prog-mkl-home" env MKL_HOME="$EMPTY" "$bin" --baseline mkl -m 7
    skipped "$dir: MKL_HOME without MKL" "$prog-mkl-home"
    run "$prog-blis-home" env BLIS_HOME="$EMPTY" "$bin" --baseline blis -m 7
    skipped "$dir: BLIS_HOME without BLIS" "$prog-blis-home"
    refused "$dir: --baseline bogus" "$prog-bogus" "--baseline: 'bogus' is not one of" \
        "$bin" --baseline bogus -m 7
    refused "$dir: --baseline with no value" "$prog-novalue" "--baseline needs a value" \
        "$bin" -m 7 --baseline
done

# A library that is there but will not load is not "not installed": the message gives the
# loader's error (it said "no libmkl_rt.so.3 or .so.2" of a libmkl_rt.so.2 it could not load).
# A text file under the library's name, in MKL_HOME and in BLIS_HOME; and a library found by the
# loader's search whose own dependency is missing.
BAD=$(mktemp -d)
trap 'rmdir "$EMPTY"; rm -rf "$BAD"' EXIT
echo 'not a shared object' >"$BAD/libmkl_rt.so.2"
echo 'not a shared object' >"$BAD/libblis.so.4"
run mkl-unloadable env MKL_HOME="$BAD" $NAIVE --baseline mkl -m 7
skipped "01_naive: MKL_HOME holding an unloadable libmkl_rt.so.2" mkl-unloadable
grep -qF "found, but the loader refuses it: $BAD/libmkl_rt.so.2: " "$LOG/mkl-unloadable.err" &&
    pass "01_naive: an unloadable libmkl_rt.so.2 is named with the loader's error" ||
    fail "01_naive: an unloadable libmkl_rt.so.2: '$(cat "$LOG/mkl-unloadable.err")' (want the loader's error on $BAD/libmkl_rt.so.2)"
run blis-unloadable env BLIS_HOME="$BAD" $NAIVE --baseline blis -m 7
skipped "01_naive: BLIS_HOME holding an unloadable libblis.so.4" blis-unloadable
grep -qF "found, but the loader refuses it: $BAD/libblis.so.4: " "$LOG/blis-unloadable.err" &&
    pass "01_naive: an unloadable libblis.so.4 is named with the loader's error" ||
    fail "01_naive: an unloadable libblis.so.4: '$(cat "$LOG/blis-unloadable.err")' (want the loader's error on $BAD/libblis.so.4)"
mkdir "$BAD/dep"
echo 'int gemm_test_gone(void) { return 1; }' >"$BAD/gone.c"
echo 'int gemm_test_gone(void); int cblas_sgemm(void) { return gemm_test_gone(); }' >"$BAD/rt.c"
if gcc -shared -fPIC -o "$BAD/libgemm_test_gone.so" "$BAD/gone.c" &&
    gcc -shared -fPIC -o "$BAD/dep/libmkl_rt.so.3" "$BAD/rt.c" -L"$BAD" -lgemm_test_gone; then
    rm "$BAD/libgemm_test_gone.so"
    run mkl-nodep env -u MKL_HOME LD_LIBRARY_PATH="$BAD/dep" $NAIVE --baseline mkl -m 7
    skipped "01_naive: a libmkl_rt.so.3 on LD_LIBRARY_PATH whose own library is missing" mkl-nodep
    grep -qF "found, but the loader refuses it: libmkl_rt.so.3: libgemm_test_gone.so: " "$LOG/mkl-nodep.err" &&
        pass "01_naive: a libmkl_rt.so.3 missing a library it needs: the loader names that library" ||
        fail "01_naive: a libmkl_rt.so.3 missing a library: '$(cat "$LOG/mkl-nodep.err")' (want libgemm_test_gone.so named)"
else
    fail "tests/baselines.sh: gcc -shared failed (the test's own libraries)"
fi

# OpenBLAS under a memory limit (README, troubleshooting): as it loads, before main, it reserves
# 128 MiB for each OpenMP thread and asks again for ever when refused (100% CPU, even for --help).
# The README's way out, one thread, must start under 300000 KiB; timeout bounds a hang (124).
(ulimit -v 300000 && OMP_NUM_THREADS=1 exec timeout 20 $NAIVE --help) >"$LOG/ulimit-help.out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^usage' "$LOG/ulimit-help.out" &&
    pass "01_naive --help under ulimit -v 300000 with OMP_NUM_THREADS=1 (the README's advice): exit 0" ||
    fail "01_naive --help under ulimit -v 300000 with OMP_NUM_THREADS=1: exit $rc (124: OpenBLAS spun as it loaded; README's troubleshooting is wrong)"
grep -q 'OMP_NUM_THREADS=1 ./01_naive/naive --help' README.md &&
    pass "README's troubleshooting gives that command" ||
    fail "README.md no longer shows the command tested here (ulimit -v 300000; OMP_NUM_THREADS=1 ./01_naive/naive --help)"

# MKL itself ran the baseline's calls: its verbose mode logs each one (as column-major, N x M)
run simd-mkl-verbose env MKL_VERBOSE=1 05_simd/simd --baseline mkl -m 33 -n 17 -k 5 --reps 1
case $rc in
    0) if grep -q 'MKL_VERBOSE SGEMM(N,N,17,33,5,' "$LOG/simd-mkl-verbose.out"; then
           pass "05_simd: --baseline mkl: MKL_VERBOSE shows MKL's sgemm running the 33x17x5 call"
       else
           fail "05_simd: --baseline mkl: no MKL_VERBOSE SGEMM(N,N,17,33,5,...) line ($LOG/simd-mkl-verbose.out)"
       fi ;;
    77) skip "05_simd: MKL not installed here: its calls not traced" ;;
    *) fail "05_simd: MKL_VERBOSE=1 --baseline mkl: exit $rc ($LOG/simd-mkl-verbose.*)" ;;
esac

# OpenBLAS counts its processors as it loads: under a CPU binding (OMP_PROC_BIND binds the
# first thread before OpenBLAS loads) a pthread build sees one core and never runs on two. The
# header must say so when the rows ask for more threads than it counted.
pthread_dir=$(ls -d /usr/lib/*/openblas-pthread 2>/dev/null | head -n 1)
if [ -n "$pthread_dir" ] && [ -f "$pthread_dir/libopenblas.so.0" ]; then
    run simd-bound env LD_LIBRARY_PATH="$pthread_dir" OMP_PROC_BIND=close OMP_PLACES=cores \
        05_simd/simd --variant all -m 33 --reps 1 --threads 1,2
    if grep -q '^warning *OpenBLAS counted 1 processor' "$LOG/simd-bound.out"; then
        pass "05_simd: a bound pthread OpenBLAS: the header says it runs on 1 thread"
    else
        fail "05_simd: OMP_PROC_BIND with the pthread OpenBLAS: no warning that it runs on 1 thread ($LOG/simd-bound.out)"
    fi
    run simd-unbound env LD_LIBRARY_PATH="$pthread_dir" 05_simd/simd --variant all -m 33 --reps 1 --threads 1,2
    if [ "$(nproc)" -ge 2 ] && grep -q 'OpenBLAS counted' "$LOG/simd-unbound.out"; then
        fail "05_simd: the thread-count warning without a binding ($LOG/simd-unbound.out)"
    else
        pass "05_simd: no thread-count warning without a binding"
    fi
else
    skip "05_simd: no pthread OpenBLAS here: the thread-count warning not tried"
fi

# 05's loops ask for the cache sizes at every call; sysfs is read once per process (each read
# cost about 0.25 ms a call: 0.05x OpenBLAS at 64^3, 8% at 512^3). Counted, not timed.
if command -v strace >/dev/null 2>&1; then
    strace -f -e trace=openat -o "$LOG/simd-strace.txt" 05_simd/simd --variant all --sizes 33 \
        --reps 20 --no-baseline >/dev/null 2>&1
    opens=$(grep -c 'cpu0/cache' "$LOG/simd-strace.txt")
    if [ "$opens" -le 40 ]; then
        pass "05_simd: the cache sizes read from sysfs once ($opens opens for 100+ calls)"
    else
        fail "05_simd: $opens opens of sysfs cache files for 100+ calls: read at every call ($LOG/simd-strace.txt)"
    fi
else
    skip "05_simd: no strace here: sysfs reads not counted"
fi

# stages with a baseline of their own refuse the option, before looking for a device
for bin in $(make -s list-stages | awk '$3 == "gpu" {print $1 "/" $2}') 13_distributed/distributed; do
    if [ -x "$bin" ]; then
        refused "${bin%/*}: --baseline mkl (one baseline of its own)" "${bin##*/}-mkl" \
            "--baseline: .* has a baseline of its own" "$bin" --baseline mkl -m 7
    else
        skip "${bin%/*}: not built"
    fi
done
exit 0

#!/usr/bin/env bash
# tests/baseline-core.sh: what the harness says about the library it measures against and about
# the machine it measures on.
#   The core: OpenBLAS 0.3.21 falls back to its Prescott (SSE3) core on CPUs newer than it; the
#   harness runs it on the core the CPU merits (OPENBLAS_CORETYPE, set as it starts the program
#   again) and says so, or warns and marks the CSV where it cannot. Forced onto a lesser core
#   (OPENBLAS_CORETYPE=Prescott), it warns and marks; OpenBLAS's own choice kept
#   (GEMM_OPENBLAS_AS_IS=1), likewise; MKL made to run AVX2 kernels on an AVX-512 CPU
#   (MKL_ENABLE_INSTRUCTIONS=AVX2), likewise. The baseline's own row is checked as a variant's.
#   The noise: every ratio prints the spread of its alternated pairs, the CSV has it and the
#   load; with every core kept busy by other processes the header and the rows say so; on a
#   quiet machine they do not (tried only when the machine is quiet).
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh tallies them); exits 0.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
LOG=build/test-logs/baseline-core
rm -rf "$LOG"
mkdir -p "$LOG"
# shellcheck source=tests/checker-lib.sh
. tests/checker-lib.sh
SIMD=05_simd/simd
NAIVE=01_naive/naive

# the kernel class this CPU merits, as the harness sees it (AVX-512 needs F, BW, VL and DQ;
# GEMM_HIDE_ISA, when set, hides from build/cpu-class what it hides from the programs)
make -s build/cpu-class >"$LOG/cpu-class.build" 2>&1 || fail "make build/cpu-class ($LOG/cpu-class.build)"
merit=
if [ "$(uname -m)" = x86_64 ]; then
    case $(build/cpu-class 2>/dev/null) in
        AVX-512*) merit=SkylakeX ;;
        AVX2+FMA) merit=$(grep -qm1 AuthenticAMD /proc/cpuinfo && echo Zen || echo Haswell) ;;
    esac
fi

if [ -z "$merit" ]; then
    skip "baseline core: no AVX2 or AVX-512 on this CPU: OpenBLAS's choice is not second-guessed"
else
    # forced onto Prescott: respected, flagged in the header and in the CSV
    run forced env OPENBLAS_CORETYPE=Prescott $SIMD --variant generic -m 33 --reps 1 --csv -
    label=$(awk -F, 'NR == 2 {print $11}' "$LOG/forced.out")
    if [ $rc -eq 0 ] && grep -q "^warning *OpenBLAS runs its Prescott core .* whose core is $merit" "$LOG/forced.err" &&
       [ "$label" = "OpenBLAS-Prescott(lesser)" ]; then
        pass "OPENBLAS_CORETYPE=Prescott: the header warns (this CPU merits $merit), the CSV says $label"
    else
        fail "OPENBLAS_CORETYPE=Prescott: exit $rc, CSV baseline '$label' (want a warning naming $merit and OpenBLAS-Prescott(lesser); $LOG/forced.*)"
    fi
    # OpenBLAS's own choice, kept
    run as-is env GEMM_OPENBLAS_AS_IS=1 $SIMD --variant generic -m 33 --reps 1
    own=$(sed -n 's/^baseline .*(core \([A-Za-z0-9]*\).*/\1/p' "$LOG/as-is.out")
    if [ "$own" = "$merit" ] || { [ "$merit" = SkylakeX ] && [ "$own" = Cooperlake ]; } ||
       { [ "$merit" = Haswell ] && [ "$own" = Zen ]; }; then
        skip "OpenBLAS picks its $own core on this CPU by itself: the harness's correction is not needed here"
        grep -q '^warning *OpenBLAS runs' "$LOG/as-is.out" &&
            fail "GEMM_OPENBLAS_AS_IS=1 with OpenBLAS on its best core: a warning all the same ($LOG/as-is.out)"
    else
        if grep -q "^warning *OpenBLAS runs its $own core" "$LOG/as-is.out"; then
            pass "GEMM_OPENBLAS_AS_IS=1: OpenBLAS's own $own core kept, and the header warns"
        else
            fail "GEMM_OPENBLAS_AS_IS=1: OpenBLAS runs '$own' here, and no warning ($LOG/as-is.out)"
        fi
        # the correction: the plain run names the core it set, and checks the library's product
        run fixed $SIMD --variant generic -m 33 --reps 1 --csv -
        label=$(awk -F, 'NR == 2 {print $11}' "$LOG/fixed.out")
        if [ $rc -eq 0 ] && grep -q "^baseline .*core $merit; set by the harness: OpenBLAS picked $own" "$LOG/fixed.err" &&
           [ "$label" = "OpenBLAS-$merit" ] && grep -qE "^openblas-$(echo "$merit" | tr 'A-Z' 'a-z') .* PASS$" "$LOG/fixed.err"; then
            pass "OpenBLAS picked $own here: the harness ran it on $merit, said so, and its product passed the check"
        else
            fail "the correction from $own to $merit: exit $rc, CSV baseline '$label' ($LOG/fixed.*)"
        fi
    fi
fi

# the library's own row is checked as a variant's (a row of its own, PASS)
run base-row $NAIVE -m 33 --reps 1
if [ $rc -eq 0 ] && grep -qE '^openblas[-a-z]* +33 +33 +33 .* PASS$' "$LOG/base-row.out"; then
    pass "the baseline's row is checked: $(grep -E '^openblas' "$LOG/base-row.out" | tr -s ' ')"
else
    fail "the baseline's row is not checked (want a PASS on OpenBLAS's row; $LOG/base-row.out)"
fi

# MKL's kernels held to the same (where MKL is installed and the CPU has AVX-512)
if [ "$merit" = SkylakeX ]; then
    run mkl-avx2 env MKL_ENABLE_INSTRUCTIONS=AVX2 $SIMD --baseline mkl --variant generic -m 33 --reps 1
    case $rc in
        77) skip "MKL not installed here: its kernels' check not tried" ;;
        # (on an AMD CPU MKL takes its def kernels whatever it is told: that is lesser too)
        0) if grep -qE '^warning *MKL runs its (avx2|def) kernels' "$LOG/mkl-avx2.out" &&
              grep -qE 'vs MKL-(avx2|def)\(lesser\)' "$LOG/mkl-avx2.out"; then
               pass "MKL_ENABLE_INSTRUCTIONS=AVX2 on an AVX-512 CPU: the header warns, the column says (lesser): $(grep -oE 'MKL-[a-z0-9]+\(lesser\)' "$LOG/mkl-avx2.out" | head -n 1)"
           else
               fail "MKL on AVX2 kernels: no warning, or no (lesser) ($LOG/mkl-avx2.out)"
           fi ;;
        *) fail "MKL_ENABLE_INSTRUCTIONS=AVX2 --baseline mkl: exit $rc ($LOG/mkl-avx2.*)" ;;
    esac
else
    skip "no AVX-512 here: MKL's kernel check not tried"
fi

# ---- noise: the spread of the alternated pairs, in the table and in the CSV
run spread $NAIVE --sizes 64 --reps 5 --csv -
spread=$(awk -F, 'NR == 2 {print $20}' "$LOG/spread.out")
if [ $rc -eq 0 ] && grep -qE '^ijk .* [0-9.]+x ±[0-9]+% ' "$LOG/spread.err" &&
   echo "$spread" | grep -qE '^[0-9]+\.[0-9]{3}$' && [ "$(head -n1 "$LOG/spread.out" | cut -d, -f19-20)" = "load,ratio_spread" ]; then
    pass "the ratio prints its spread ($(grep -oE '[0-9.]+x ±[0-9]+%' "$LOG/spread.err" | head -n1)), the CSV has ratio_spread $spread and a load column"
else
    fail "no spread on the ratio, or no load,ratio_spread columns ($LOG/spread.*)"
fi

# ---- the program's own threads are not "others": 16 threads of this process that spin as the
# run starts (a library's pool after its first call: OpenBLAS's pthread build on a 16-core host
# read as "15 other threads running, the machine is busy" on a quiet machine)
cat >"$LOG/spin.c" <<'SPIN'
#include <pthread.h>
#include <time.h>
static void *spin(void *arg)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while (t.tv_sec - t0.tv_sec < 2);
    return arg;
}
__attribute__((constructor)) static void start(void)
{
    for (int i = 0; i < 16; i++) {
        pthread_t th;
        if (pthread_create(&th, 0, spin, 0) == 0)
            pthread_detach(th);
    }
}
SPIN
if ${CC:-gcc} -shared -fPIC -O1 -o "$LOG/spin.so" "$LOG/spin.c" -lpthread 2>"$LOG/spin-build.err"; then
    run own-threads env LD_PRELOAD="$PWD/$LOG/spin.so" $NAIVE -m 16 --reps 1 --no-baseline
    others=$(sed -n 's/^load *\([0-9]*\) other thread(s) running.*/\1/p' "$LOG/own-threads.out")
    if [ $rc -eq 0 ] && [ -n "$others" ] && [ "$others" -lt 16 ]; then
        pass "16 spinning threads of the program's own: not counted as others ($others other(s) running)"
    else
        fail "16 spinning threads of the program's own counted as others: '$others' ($LOG/own-threads.out)"
    fi
else
    skip "the program's own threads: cannot build a preloaded spinner ($LOG/spin-build.err)"
fi

# ---- GEMM_OPENBLAS_AS_IS: 1 keeps OpenBLAS's choice, 0 is as unset, anything else is refused
run as-is-0 env GEMM_OPENBLAS_AS_IS=0 $SIMD --variant generic -m 16 --reps 1
run as-is-unset $SIMD --variant generic -m 16 --reps 1
if [ $rc -eq 0 ] && [ "$(grep '^baseline' "$LOG/as-is-0.out")" = "$(grep '^baseline' "$LOG/as-is-unset.out")" ]; then
    pass "GEMM_OPENBLAS_AS_IS=0: the baseline as with it unset ($(grep -o 'core [A-Za-z]*' "$LOG/as-is-0.out" | head -n1))"
else
    fail "GEMM_OPENBLAS_AS_IS=0 differs from unset ($LOG/as-is-0.out, $LOG/as-is-unset.out)"
fi
run as-is-bad env GEMM_OPENBLAS_AS_IS=yes $SIMD --variant generic -m 16 --reps 1
if [ $rc -eq 2 ] && [ ! -s "$LOG/as-is-bad.out" ] && [ "$(wc -l <"$LOG/as-is-bad.err")" -eq 1 ]; then
    pass "GEMM_OPENBLAS_AS_IS=yes: refused in one line, exit 2: $(cat "$LOG/as-is-bad.err")"
else
    fail "GEMM_OPENBLAS_AS_IS=yes: exit $rc (want 2, one line, nothing on stdout; $LOG/as-is-bad.*)"
fi

# ---- OPENBLAS_CORETYPE asking for a core this CPU cannot run: one line, exit 2, never SIGILL
# (here as a CPU without AVX-512 sees it; tests/portability.sh does it under qemu's Haswell)
if [ "$merit" = SkylakeX ]; then
    run coretype env OPENBLAS_CORETYPE=SkylakeX GEMM_HIDE_ISA=avx512 $SIMD -m 16 --reps 1
    if [ $rc -eq 2 ] && [ ! -s "$LOG/coretype.out" ] && [ "$(wc -l <"$LOG/coretype.err")" -eq 1 ] &&
       grep -q 'needs AVX-512, and this CPU has AVX2' "$LOG/coretype.err"; then
        pass "OPENBLAS_CORETYPE=SkylakeX as an AVX2 CPU: refused in one line: $(cat "$LOG/coretype.err")"
    else
        fail "OPENBLAS_CORETYPE=SkylakeX as an AVX2 CPU: exit $rc (want 2, one line naming the class; $LOG/coretype.*)"
    fi
else
    skip "OPENBLAS_CORETYPE beyond the CPU: tried under qemu (tests/portability.sh); no AVX-512 to hide here"
fi

# ---- acting as an AVX2 CPU (GEMM_HIDE_ISA=avx512) where OpenBLAS took an AVX-512 core by itself:
# the baseline runs the AVX2 class's core, as on such a CPU, and says so; GEMM_OPENBLAS_AS_IS=1
# keeps OpenBLAS's own and warns (it ran its AVX-512 core under an AVX2 class, silently)
run hidden-own env GEMM_OPENBLAS_AS_IS=1 $SIMD --variant generic -m 16 --reps 1
own=$(sed -n 's/^baseline .*(core \([A-Za-z0-9]*\).*/\1/p' "$LOG/hidden-own.out")
if [ "$merit" = SkylakeX ] && echo "$own" | grep -qiE '^(skylakex|cooperlake|sapphirerapids)$'; then
    acted=$(grep -qm1 AuthenticAMD /proc/cpuinfo && echo Zen || echo Haswell)
    run hidden-fixed env GEMM_HIDE_ISA=avx512 $SIMD --variant generic -m 33 --reps 1 --csv -
    label=$(awk -F, 'NR == 2 {print $11}' "$LOG/hidden-fixed.out")
    if [ $rc -eq 0 ] && grep -q "^baseline .*core $acted; set by the harness: OpenBLAS picked $own for this CPU, which acts as AVX2" "$LOG/hidden-fixed.err" &&
       [ "$label" = "OpenBLAS-$acted" ]; then
        pass "as an AVX2 CPU: OpenBLAS's $own brought to $acted, said in the header, CSV $label"
    else
        fail "as an AVX2 CPU: OpenBLAS's $own not brought to $acted: exit $rc, CSV baseline '$label' ($LOG/hidden-fixed.*)"
    fi
    run hidden-as-is env GEMM_HIDE_ISA=avx512 GEMM_OPENBLAS_AS_IS=1 $SIMD --variant generic -m 16 --reps 1
    if [ $rc -eq 0 ] && grep -q "^warning *OpenBLAS runs its $own core (AVX-512) on a CPU acting as AVX2" "$LOG/hidden-as-is.out"; then
        pass "as an AVX2 CPU with GEMM_OPENBLAS_AS_IS=1: OpenBLAS's $own kept, and the header warns"
    else
        fail "as an AVX2 CPU with GEMM_OPENBLAS_AS_IS=1: no warning about OpenBLAS's $own ($LOG/hidden-as-is.out)"
    fi
else
    skip "acting as an AVX2 CPU: the programs see no AVX-512 here, or OpenBLAS's own core ('$own') is not an AVX-512 one"
fi

# ---- more threads than cores, no binding: no claim of a binding
over=$(($(nproc) + 1))
run over env -u OMP_PROC_BIND -u OMP_PLACES $NAIVE -m 16 --reps 1 --threads "$over"
if [ $rc -eq 0 ] && ! grep -q 'binding was in force' "$LOG/over.out" && grep -q "^note .*$over threads on" "$LOG/over.out"; then
    pass "--threads $over on $(nproc) cores, unbound: a note, no claim of a CPU binding"
else
    fail "--threads $over on $(nproc) cores, unbound: exit $rc, a binding claimed or no note ($LOG/over.out)"
fi

# ---- a kernel above the peak measured beside it: lab/scripts/peak-check.py calls the peak suspect
printf 'device,measure,threads,value,unit,date\nx,fma_avx512,1,100.0,GFLOP/s,d\nx,fma_avx512,2,150.0,GFLOP/s,d\n' >"$LOG/peak.csv"
run peak-row $SIMD --variant generic -m 16 --reps 1 --threads 2 --csv -
awk -F, 'NR == 1 {print; next} {$10 = 160; $12 = 120; print}' OFS=, "$LOG/peak-row.out" >"$LOG/above.csv"
awk -F, 'NR == 1 {print; next} {$10 = 140; $12 = 120; print}' OFS=, "$LOG/peak-row.out" >"$LOG/below.csv"
PY=$(scripts/find-python.sh 2>/dev/null || command -v python3)
run peak-above "$PY" lab/scripts/peak-check.py "$LOG/peak.csv" "$LOG/above.csv"
above=$(grep -c 'above the FMA peak measured beside it' "$LOG/peak-above.out")
run peak-below "$PY" lab/scripts/peak-check.py "$LOG/peak.csv" "$LOG/below.csv"
if [ "$above" -ge 1 ] && grep -q 'the peak is suspect' "$LOG/peak-above.out" &&
   ! grep -q 'suspect' "$LOG/peak-below.out" && grep -q 'below the peak' "$LOG/peak-below.out"; then
    pass "a rate above the peak measured beside it: the peak is called suspect; below it: not"
else
    fail "peak-check: above/below not told apart ($LOG/peak-above.out, $LOG/peak-below.out)"
fi

# ---- a busy machine: every core kept busy by other processes for the run
hogs=""
for _ in $(seq "$(nproc)"); do
    sh -c 'while :; do :; done' &
    hogs="$hogs $!"
done
sleep 0.3
run busy 03_tiling/tiling --variant tiled --sizes 256,384 --threads 1 --no-baseline --reps 20
# shellcheck disable=SC2086
kill $hogs 2>/dev/null
wait 2>/dev/null
if [ $rc -eq 0 ] && grep -q '^warning *the machine is busy as the run starts' "$LOG/busy.out" &&
   grep -q '^warning *the machine was busy: other processes used' "$LOG/busy.out" &&
   grep -qE ' PASS  busy: others used [0-9.]+ cores$' "$LOG/busy.out"; then
    pass "with every core kept busy: the header, the rows and the last lines say so"
else
    fail "with every core kept busy: no warning at the start, at the end, or on the rows ($LOG/busy.out)"
fi

# ---- a quiet machine: no warning (tried only if it is quiet now; a shared machine may not be)
sleep 1
run quiet 03_tiling/tiling --variant tiled --sizes 256,384 --threads 1 --no-baseline --reps 20
if grep -q '^load *quiet: other processes used' "$LOG/quiet.out"; then
    if grep -qE '^warning|busy: others' "$LOG/quiet.out"; then
        fail "a quiet run (the last line says quiet) with a busy warning ($LOG/quiet.out)"
    else
        pass "on a quiet machine: no warning, the last line says quiet ($(grep '^load *quiet' "$LOG/quiet.out" | tr -s ' '))"
    fi
else
    skip "the machine is not quiet now: $(grep -E '^(warning|load)' "$LOG/quiet.out" | tail -n1 | tr -s ' ')"
fi
exit 0

#!/usr/bin/env bash
# tests/grade-check.sh: make grade checks what the exercise changes, the edge cases included,
# diagnoses the first failure, and times only the exercise's variants. In a scratch copy of the
# tree (no committed file changes, and no solution to an exercise is ever written to disk in
# the repository):
#   1. 03's own solution (tiling.c) in place of 03_tiling/exercise.c: every check passes, the
#      --edges cases among them; exit 0; tiled, tiled_copy and unroll_2x4 timed against the
#      solution; 02's ikj, linked for comparison, neither checked nor timed.
#   2. the same with gemm_quick_return taken out of gemm_tiled: alpha = 0 then multiplies the
#      NaN in A (0 * NaN is NaN), which only --edges tries. The shape checks still pass; the grader
#      exits 1, its first failure is an --edges case with its reason, and the reproduce command
#      it prints shows the same reason.
#   3. a planted exercise: tiled loops for ever at M = 7, tiled_copy dies of SIGSEGV at M = 13,
#      unroll_2x4 is right but sleeps 8 ms on every other call (so that a timed run lasts the 0.1 s
#      the harness needs to tell the load), with two busy loops beside the grader.
#      Exit 1 in seconds (GRADE_TIMEOUT=5), tiled named as timed out at 7x13x5 and tiled_copy as
#      crashed (SIGSEGV) at 13x7x5 and 5 more, every other shape still checked (162 of 168),
#      neither timed; unroll_2x4 passes every check and its speed is "too noisy to judge", with
#      the busy mark.
#   4. 14's untouched exercise on a CPU without AMX (GEMM_HIDE_ISA="amx avx512_bf16"): exit 77,
#      the CPU it needs named, no pass.
#   5. 11_gf256, graded by its own script (scripts/graders/11_gf256.sh), with a planted exercise whose
#      matrix inversion loops for ever on the 4x4 matrices of the first run and dies of SIGSEGV
#      on the 1x1 of the third. Under GRADE_TIMEOUT=3: exit 1 in seconds, the first run named
#      as timed out after 3 s and the third as crashed (SIGSEGV), each counted as one failed
#      check; the second and fourth checked in full; nothing timed.
# The timed runs take a lock of their own (GEMM_BENCH_LOCK), so that this check never waits for
# a benchmark running on the machine; its speed ratios mean nothing and are not checked, only
# the form of the verdict: a ratio with its spread, or "too noisy to judge".
# Prints PASS:/FAIL: lines (tests/lib.sh's tally counts them in make test); exit 1 if any FAIL.
set -u
cd "$(dirname "$0")/.."
root=$PWD
# a student edition (make student-edition) has the solutions planted below only compiled
if [ -f STUDENT-EDITION.md ] && [ ! -f 03_tiling/tiling.c ]; then
    echo "SKIP: grade: these checks grade 03's and 11's solutions, compiled only in the student edition"
    exit 0
fi
scratch=$(mktemp -d /tmp/grade-check.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
failed=0
pass() { echo "PASS: grade: $*"; }
fail() { echo "FAIL: grade: $*"; failed=1; }

tar --exclude=./.git --exclude=./build/test-logs --exclude=./build/check-commands \
    --exclude=./build/asan --exclude=./build/port -cf - . | (cd "$scratch" && tar -xf -)
cd "$scratch" || exit 1
export GEMM_BENCH_LOCK=$scratch/bench.lock
cp 03_tiling/tiling.c 03_tiling/exercise.c
make -s grade STAGE=3 >grade-solution.out 2>&1
rc=$?
[ $rc -eq 0 ] && pass "03's solution as the exercise: exit 0" ||
    fail "03's solution as the exercise: exit $rc (want 0); its report:" 
[ $rc -eq 0 ] || sed 's/^/    /' grade-solution.out
edges=$(build/grade/03_tiling/tiling --variant unroll_2x4 --edges --no-baseline | grep -cE ' (PASS|FAIL)$')
shapes=$(($(grep -v '^#' tests/shapes.txt | tr ',' '\n' | grep -c .) * 3))
if grep -qE "^  unroll_2x4 +$((edges + shapes)) of +$((edges + shapes)) pass$" grade-solution.out; then
    pass "every shape with 3 option sets ($shapes checks) and every --edges case ($edges) per variant"
else fail "unroll_2x4 not checked $shapes + $edges times (shapes, --edges): $(grep '^  unroll_2x4' grade-solution.out)"; fi
# a ratio with its spread, or too noisy to judge; the busy mark where the harness set it
verdict='( +[0-9.]+ GFLOP/s, solution +[0-9.]+: [0-9.]+x ±[0-9]+% \(medians of 3 rounds, each against [^)]*\)| +too noisy to judge: [0-9.]+x to [0-9.]+x the solution, ±[0-9]+% \([^)]*\))(; busy: others used [0-9.]+ cores)?$'
timed=$(grep -cE "^  (tiled|tiled_copy|unroll_2x4)$verdict" grade-solution.out)
[ "$timed" -eq 3 ] && pass "tiled, tiled_copy and unroll_2x4 timed in three rounds, each verdict with its spread" ||
    fail "$timed of tiled, tiled_copy, unroll_2x4 timed (want 3): $(grep -A3 '^speed' grade-solution.out)"
grep -qE '^  ikj ' grade-solution.out && fail "02's linked ikj is graded (not part of 03's exercise)" ||
    pass "02's linked ikj is neither checked nor timed (03_tiling/test-cases.txt)"

# 2. a bug only the edge cases find: no quick return in tiled
awk 'done != 1 && /^void gemm_tiled\(/ { intiled = 1 }
     intiled && /gemm_quick_return/ { getline; intiled = 0; done = 1; next }
     { print }' "$root/03_tiling/tiling.c" >03_tiling/exercise.c
if cmp -s 03_tiling/exercise.c 03_tiling/tiling.c; then fail "could not plant the bug (tiling.c changed?)"; exit 1; fi
scripts/grade.sh 3 >grade-planted.out 2>&1   # make would turn its exit 1 into 2
rc=$?
first=$(grep -m1 '^      first failure: ' grade-planted.out | sed 's/^ *first failure: //')
cmd=$(grep -m1 '^      reproduce: ' grade-planted.out | sed 's/^ *reproduce: *//')
if [ $rc -eq 1 ] && grep -qE '^  tiled +[0-9]+ of +[0-9]+ pass; failing e.g.' grade-planted.out &&
    [[ "$first" == *"(--edges: alpha = 0"* ]]; then
    pass "no quick return in tiled: exit 1, first failure $first"
else fail "no quick return in tiled: exit $rc, first failure '$first' (want exit 1, an --edges alpha = 0 case)"; fi
why=${first#*): }
# shellcheck disable=SC2086
if [ -n "$cmd" ] && [ -n "$why" ] && $cmd 2>&1 | grep -qxF "    $why"; then
    pass "the reproduce command ($cmd) prints the same reason"
else fail "'$cmd' does not print '$why'"; fi
grep -qE '^  tiled +not timed: fix its checks first$' grade-planted.out && pass "a failing variant is not timed" ||
    fail "the failing tiled was timed or not listed"

# 3. an endless loop, a crash and a noisy kernel, graded beside two busy loops (the grader of
# old hung here for ever: the guard's time-out stops it)
awk 'NR == 1 { print "#include <signal.h>\n#include <unistd.h>" }
     /^void gemm_tiled\(/ { t = "loop" } /^void gemm_tiled_copy\(/ { t = "segv" } /^void gemm_unroll_2x4\(/ { t = "slow" }
     { print }
     t != "" && /^\{/ {
         if (t == "loop") print "    { volatile int spin = M == 7; while (spin) {} }"
         if (t == "segv") print "    if (M == 13) raise(SIGSEGV);"
         if (t == "slow") print "    { static int calls; if (calls++ % 2) usleep(8000); }"
         t = "" }' "$root/03_tiling/tiling.c" >03_tiling/exercise.c
[ "$(grep -cE 'spin|raise|usleep' 03_tiling/exercise.c)" -eq 3 ] || { fail "could not plant the loop, the crash and the noise (tiling.c changed?)"; exit 1; }
for _ in 1 2; do (while :; do :; done) & done
spinners=$(jobs -p)
start=$(date +%s)
GRADE_TIMEOUT=5 GRADE_SIZE=64 timeout 150 scripts/grade.sh 3 >grade-broken.out 2>&1
rc=$?
secs=$(($(date +%s) - start))
# shellcheck disable=SC2086
kill $spinners
wait 2>/dev/null
shapes1=$(grep -v '^#' tests/shapes.txt | tr ',' '\n' | grep -c .)
per=$((shapes1 * 3 + edges))
crashes=$(($(grep -v '^#' tests/shapes.txt | tr ',' '\n' | grep -c '^13x') * 3))
if [ $rc -eq 1 ]; then pass "loop, crash, noise: exit 1 after ${secs} s"
else fail "loop, crash, noise: exit $rc after ${secs} s (want 1; 124: the grader hung)"; sed 's/^/    /' grade-broken.out | head -n 30; fi
grep -qE "^  tiled +[0-9]+ of +$per pass; timed out at 7x13x5 \(defaults\): still running after 5 s" grade-broken.out &&
    pass "the endless loop is named: $(grep -m1 -E '^  tiled ' grade-broken.out | sed 's/^ *//; s/  */ /g')" ||
    fail "tiled not named as timed out at 7x13x5 (see below)"
grep -qE "^  tiled_copy +$((per - crashes)) of +$per pass; crashed \(SIGSEGV\) at 13x7x5 \(defaults\) and $((crashes - 1)) more;" grade-broken.out &&
    pass "the crash is named with its signal, and every other shape still checked: $(grep -m1 -E '^  tiled_copy ' grade-broken.out | sed 's/^ *//; s/  */ /g; s/; failing.*//')" ||
    fail "tiled_copy not '$((per - crashes)) of $per pass; crashed (SIGSEGV) at 13x7x5 (defaults) and $((crashes - 1)) more'"
grep -qE "^  unroll_2x4 +$per of +$per pass$" grade-broken.out && pass "the variant beside them: $per of $per checks" ||
    fail "unroll_2x4 not checked $per times beside the broken ones"
[ "$(grep -cE '^  tiled(_copy)? +not timed: fix its checks first$' grade-broken.out)" -eq 2 ] &&
    pass "the looping and the crashing variants are not timed" || fail "a broken variant was timed"
if grep -qE '^  unroll_2x4 +too noisy to judge: [0-9.]+x to [0-9.]+x the solution, ±[0-9]+% \(3 rounds, each against [^)]*\); busy: others used [0-9.]+ cores$' grade-broken.out; then
    pass "a kernel slow on every other call: $(grep -E '^  unroll_2x4 +too' grade-broken.out | sed 's/^ *//; s/  */ /g')"
else fail "the noisy unroll_2x4 got a verdict, or no busy mark: $(grep -A3 '^speed' grade-broken.out)"; fi
[ $rc -eq 1 ] || sed 's/^/    /' grade-broken.out | head -n 40

# 4. 14's exercise where there is no AMX: nothing of it can run, so no pass
GEMM_HIDE_ISA="amx avx512_bf16" GRADE_SIZE=64 timeout 150 scripts/grade.sh 14 >grade-noamx.out 2>&1
rc=$?
if [ $rc -eq 77 ] && grep -q '^grade: nothing graded, so no pass: this CPU cannot run the exercise (.*needs AMX-BF16' grade-noamx.out &&
    ! grep -qE ' of +[0-9]+ pass' grade-noamx.out; then
    pass "14 on a CPU without AMX: exit 77, $(tail -n 1 grade-noamx.out)"
else fail "14 on a CPU without AMX: exit $rc (want 77, the CPU it needs, no pass)"; sed 's/^/    /' grade-noamx.out | tail -n 5; fi

# 5. 11's own grader: a run that loops for ever, and one that crashes (the grader of old had no
# time limit and hung on the first)
awk 'NR == 1 { print "#include <signal.h>" }
     { print }
     /^int gf256_invert_matrix\(/ { inv = 1 }
     inv && /^\{/ { print "    { volatile int spin = n == 4; while (spin) {} }\n    if (n == 1) raise(SIGSEGV);"; inv = 0 }' \
    "$root/11_gf256/gf256.c" >11_gf256/exercise.c
[ "$(grep -cE 'spin|raise' 11_gf256/exercise.c)" -eq 2 ] || { fail "could not plant the loop and the crash in 11 (gf256.c changed?)"; exit 1; }
start=$(date +%s)
GRADE_TIMEOUT=3 timeout 120 scripts/grade.sh 11 >grade-11.out 2>&1
rc=$?
secs=$(($(date +%s) - start))
if [ $rc -eq 1 ]; then pass "11, a loop and a crash: exit 1 after ${secs} s"
else fail "11, a loop and a crash: exit $rc after ${secs} s (want 1; 124: the grader hung)"; fi
grep -qE '^  --data 4 --parity 3 --len 1,7,33,4097 --erasures all +timed out: still running after 3 s \(GRADE_TIMEOUT\)$' grade-11.out &&
    pass "11: the endless loop is named: $(grep -m1 -E '^  --data 4 ' grade-11.out | sed 's/^ *//; s/  */ /g')" ||
    fail "11: the first run not named as timed out after 3 s"
grep -qE '^  --data 1 --parity 1 --len 5 +crashed \(SIGSEGV\)$' grade-11.out &&
    pass "11: the crash is named with its signal: $(grep -m1 -E '^  --data 1 ' grade-11.out | sed 's/^ *//; s/  */ /g')" ||
    fail "11: the third run not named as crashed (SIGSEGV)"
[ "$(grep -cE '^  --data (10|20) .* [1-9][0-9]* passed, 0 failed$' grade-11.out)" -eq 2 ] &&
    pass "11: the two runs beside them are checked in full" || fail "11: the second and fourth runs not checked in full"
read -r good all < <(sed -nE 's/^  total: ([0-9]+) of ([0-9]+) checks pass.*/\1 \2/p' grade-11.out)
if grep -q '^  total: .*; 2 of 4 runs did not finish (each counted as one failed check)$' grade-11.out &&
    [ $((${all:-0} - ${good:-0})) -eq 2 ]; then
    pass "11: each run that did not end counted as one failed check: $(grep '^  total' grade-11.out | sed 's/^ *//')"
else fail "11: the total does not count the two runs as failed: $(grep '^  total' grade-11.out)"; fi
grep -q '^  not timed: fix the checks first$' grade-11.out && pass "11: nothing timed" || fail "11: a failing exercise was timed"
[ $rc -eq 1 ] || sed 's/^/    /' grade-11.out | head -n 30
exit $failed

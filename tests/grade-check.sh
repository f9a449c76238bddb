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
# The timed runs take a lock of their own (GEMM_BENCH_LOCK), so that this check never waits for
# a benchmark running on the machine; its speed ratios mean nothing and are not checked.
# Prints PASS:/FAIL: lines (tests/lib.sh's tally counts them in make test); exit 1 if any FAIL.
set -u
cd "$(dirname "$0")/.."
root=$PWD
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
timed=$(grep -cE '^  (tiled|tiled_copy|unroll_2x4) +[0-9.]+ GFLOP/s, solution +[0-9.]+: [0-9.]+x \(medians of 3 alternating runs\)$' grade-solution.out)
[ "$timed" -eq 3 ] && pass "tiled, tiled_copy and unroll_2x4 timed in three alternating pairs" ||
    fail "$timed of tiled, tiled_copy, unroll_2x4 timed (want 3)"
grep -qE '^  ikj ' grade-solution.out && fail "02's linked ikj is graded (not part of 03's exercise)" ||
    pass "02's linked ikj is neither checked nor timed (03_tiling/grade-modes.txt)"

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
exit $failed

#!/usr/bin/env bash
# tests/grade-check.sh: the grader (scripts/grade.sh, scripts/grade-class.sh) gives a grade that
# the exercise cannot talk its way into, and that the machine cannot take away.
# Why it is one file: every case grades a planted exercise in the same scratch copy of the tree and
# reads the same report; a case is a grade and a few lines that look at it.
#
# In a scratch copy of the tree (no committed file changes; no solution is written into an
# exercise of the repository), on few shapes (GRADE_SHAPES) and one variant where one is enough:
#   1. 03's solution as the exercise: exit 0, every shape with 3 option sets and every --edges
#      case counted, tiled_kij, tiled_copy, unroll_4x4 timed with a spread; 02's linked ikj and
#      the given tiled and unroll_2x4 neither checked nor timed; --json and --gradescope files of
#      the documented shape.
#   2. the same without gemm_quick_return in tiled_kij: only --edges finds it; exit 1, the first
#      failure an --edges alpha = 0 case, and its reproduce command prints the same reason.
#   3. a class of planted 02 submissions graded by scripts/grade-class.sh into one CSV: kij right;
#      writes one past the end of A; changes B[0]; reads and writes C[-1] through a volatile pointer
#      (bit for bit, so that only the sanitizer build sees it); prints a fake PASS row and
#      computes nothing; prints "." and is right; dies of SIGSEGV; loops; does not compile; a
#      folder with no exercise. Each gets its row with the right exit status and reason, and the
#      class goes on. The grader of old scored the first five full marks (or counted the fake
#      row, or split kij into "..kij" and ".kij").
#      The crash is named with its signal and every other shape still checked; the loop is
#      stopped (GRADE_TIMEOUT=3) and named.
#   4. a kernel slow on every other call, timed beside two busy loops: "too noisy to judge", with
#      the busy mark.
#   5. 11: encode_table writes a byte past its output: TODO 7 and table fail, named, with the
#      commands; an exercise whose TODO 1 is done and TODO 2 is not gets TODO 1's checks, and TODO
#      4 (which calls gf256_mul) says so; a crash and a loop in gf256_invert_matrix: TODO 4 named
#      as crashed, table as timed out, the other TODOs checked, exit 1 in seconds.
#   6. exit 77 and never a pass: 14's exercise without AMX; a CUDA exercise where make finds no
#      nvcc (one line, not "the build failed").
#   7. the machine's faults are one line, exit 2: TMPDIR=/nonexistent; an unknown stage.
#   8. two stages (make grade STAGE="01 14"): both graded, the worst status; make grade's last
#      line says what the status means before make's own "Error".
#   9. a decimal-comma locale (de_DE.UTF-8, made with localedef into build/; SKIP where it
#      cannot be made): the speed line reads "1.00x", never "1,00x".
#  10. the untouched exercises' counts, as their header comments and docs/teaching.md state them
#      (GRADE_SANITIZER=off: the counts are the release build's either way).
# The timed runs take a lock of their own (GEMM_BENCH_LOCK), so that this check never waits for
# a benchmark running on the machine; its speed ratios mean nothing and are not checked, only
# the form of the verdict.
# Prints PASS:/FAIL:/SKIP: lines (tests/lib.sh's tally counts them in make test); exit 1 if any FAIL.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
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
skip() { echo "SKIP: grade: $*"; }
show() { sed 's/^/    /' "$1" | head -n "${2:-25}"; }

tar --exclude=./.git --exclude=./build/test-logs --exclude=./build/check-commands --exclude=./build/class \
    --exclude=./build/grade-runs --exclude=./build/port -cf - . | (cd "$scratch" && tar -xf -)
cd "$scratch" || exit 1
export GEMM_BENCH_LOCK=$scratch/bench.lock
plants=$scratch/plants
mkdir -p "$plants"
SMALL=1,7x13x5,33,17x1x9 # GRADE_SHAPES for the planted cases: 4 shapes, 3 option sets

# ---- 1. 03's solution: every check passes; timed with a spread; the JSON files ----------------------
GRADE_SHAPES=$SMALL GRADE_SIZE=96 scripts/grade.sh --json sol.json --gradescope sol-gs.json \
    --exercise 03_tiling/tiling.c 3 >grade-solution.out 2>&1
rc=$?
[ $rc -eq 0 ] && pass "03's solution as the exercise: exit 0" ||
    { fail "03's solution as the exercise: exit $rc (want 0); its report:"; show grade-solution.out; }
edges=$(build/grade/03_tiling/tiling --variant unroll_4x4 --edges --no-baseline | grep -cE ' (PASS|FAIL)$')
per=$((4 * 3 + edges))
grep -qE "^  unroll_4x4 +$per of +$per pass$" grade-solution.out &&
    pass "every shape with 3 option sets (12 checks) and every --edges case ($edges), in both builds" ||
    fail "unroll_4x4 not checked 12 + $edges times: $(grep '^  unroll_4x4' grade-solution.out)"
verdict='( +[0-9.]+ GFLOP/s, solution +[0-9.]+: [0-9.]+x ±[0-9]+% \(medians of 3 rounds, each against [^)]*\)| +too noisy to judge: [0-9.]+x to [0-9.]+x the solution, ±[0-9]+% \([^)]*\))(; busy: others used [0-9.]+ cores)?$'
timed=$(grep -cE "^  (tiled_kij|tiled_copy|unroll_4x4)$verdict" grade-solution.out)
[ "$timed" -eq 3 ] && pass "tiled_kij, tiled_copy and unroll_4x4 timed in three rounds, each verdict with its spread" ||
    fail "$timed of tiled_kij, tiled_copy, unroll_4x4 timed (want 3): $(grep -A3 '^speed' grade-solution.out)"
grep -qE '^  (ikj|tiled|unroll_2x4) ' grade-solution.out && fail "02's linked ikj, or the given tiled or unroll_2x4, is graded (not part of 03's exercise)" ||
    pass "02's linked ikj and the given tiled and unroll_2x4 are neither checked nor timed (03_tiling/test-cases.txt)"
tail -n 1 grade-solution.out | grep -qE '^grade 03_tiling: PASS \(exit 0\): every check passes \([0-9]+ of [0-9]+\)' &&
    pass "the last line is the verdict: $(tail -n 1 grade-solution.out)" || fail "no verdict line: $(tail -n 1 grade-solution.out)"
if command -v python3 >/dev/null; then
    if python3 - sol.json sol-gs.json <<'EOF'
import json, sys
r = json.load(open(sys.argv[1])); g = json.load(open(sys.argv[2]))
s = r["stages"][0]
assert r["status"] == 0 and r["checks"]["failed"] == 0 and r["checks"]["passed"] > 0, r["checks"]
assert r["first_failure"] is None and s["stage"] == "03_tiling" and s["exercise"].endswith("03_tiling/tiling.c")
assert r["machine"]["cpu"] and "gpu" in r["machine"]
assert s["speed"] is None or (s["speed"]["ratio"] > 0 and s["speed"]["spread"] >= 0), s["speed"]
assert [v["name"] for v in s["variants"]] == ["tiled_kij", "tiled_copy", "unroll_4x4"]
assert g["score"] == g["max_score"] == r["checks"]["passed"] and len(g["tests"]) == 3
for t in g["tests"]:
    assert set(t) == {"name", "score", "max_score", "output"} and t["score"] == t["max_score"] > 0, t
EOF
    then pass "--json: status, checks, first failure, speed, machine; --gradescope: score, max_score, tests[]"
    else fail "--json or --gradescope not of the documented shape:"; show sol.json 40; fi
else skip "no python3 to read the JSON files"; fi

# ---- 2. a bug only the edge cases find: no quick return in tiled_kij ---------------------------------
awk 'done != 1 && /^void gemm_tiled_kij\(/ { intiled = 1 }
     intiled && /gemm_quick_return/ { getline; intiled = 0; done = 1; next }
     { print }' "$root/03_tiling/tiling.c" >"$plants/noquick.c"
cmp -s "$plants/noquick.c" "$root/03_tiling/tiling.c" && { fail "could not plant the bug (tiling.c changed?)"; exit 1; }
GRADE_SPEED=off GRADE_SHAPES=$SMALL GRADE_VARIANTS=tiled_kij scripts/grade.sh --exercise "$plants/noquick.c" 3 >grade-planted.out 2>&1
rc=$?
first=$(grep -m1 '^      first failure: ' grade-planted.out | sed 's/^ *first failure: //')
cmd=$(grep -m1 '^      reproduce: ' grade-planted.out | sed 's/^ *reproduce: *//')
[ $rc -eq 1 ] && [[ "$first" == *"(--edges: alpha = 0"* ]] &&
    pass "no quick return in tiled_kij: exit 1, first failure $first" ||
    fail "no quick return in tiled_kij: exit $rc, first failure '$first' (want exit 1, an --edges alpha = 0 case)"
why=${first#*): }
why=${why#in the sanitizer build: }
# shellcheck disable=SC2086
[ -n "$cmd" ] && [ -n "$why" ] && $cmd 2>&1 | grep -qxF "    $why" &&
    pass "the reproduce command ($cmd) prints the same reason" || fail "'$cmd' does not print '$why'"

# ---- 3. a class of planted 02 submissions, graded into one CSV ------------------------------------------
class=$scratch/class
mkdir -p "$class/right" "$class/nothing"
cp "$root/02_loop_order/loop_order.c" "$class/right/exercise.c"
plant() { # NAME CODE: 02's solution with CODE at the top of gemm_kij's loops
    awk -v code="$2" '{ print } /^void gemm_kij\(/ { f = 1 } f && /scale_c\(M, N, beta, C, ldc\);/ { print "    " code; f = 0 }' \
        "$root/02_loop_order/loop_order.c" >"$class/$1.c"
    grep -qF "${2:0:12}" "$class/$1.c" || { fail "could not plant $1 (loop_order.c changed?)"; exit 1; }
}
plant past_a '((float *)A)[(size_t)M * lda] = 1.0f;'
plant b0 'if (M == 7) ((float *)B)[0] = 0.5f;'
plant c_minus_1 '{ volatile float *cv = C; cv[-1] = cv[-1]; }'
plant fake_pass 'printf("kij               7     13      5      0.001      1.00                -   0.0e+00  PASS\\n"); return;'
plant dots 'printf(".");'
plant crash 'if (M == 17) { volatile int *p = 0; *p = 1; }'
plant loops '{ volatile int spin = M == 33; while (spin) {} }'
echo 'this is not C' >"$class/typo.c"
start=$SECONDS
GRADE_SPEED=off GRADE_TIMEOUT=3 GRADE_SHAPES=$SMALL GRADE_VARIANTS=kij \
    timeout 400 scripts/grade-class.sh 2 "$class" --csv class.csv --out class-out >grade-class.out 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c . class.csv)" -eq 11 ] &&
    pass "grade-class: exit 0, a row for each of 10 submissions in $((SECONDS - start)) s" ||
    { fail "grade-class: exit $rc, $(($(grep -c . class.csv) - 1)) rows (want 0, 10)"; show grade-class.out; }
[ "$(head -n 1 class.csv)" = "submission,checks_passed,checks_failed,first_failure,speed_ratio,spread,exit_status,reproduce,report" ] &&
    pass "grade-class: the CSV's header" || fail "grade-class: header '$(head -n 1 class.csv)'"
# row NAME: "passed failed status first-failure" of a submission, from the CSV (quoted fields read)
row() { awk -v n="$1" '
    { line = $0; nf = 0 # the fields of a CSV row: quoted where they hold a comma, "" a quote
      while (1) {
          if (substr(line, 1, 1) == "\"") {
              s = ""; line = substr(line, 2)
              while (1) { i = index(line, "\""); s = s substr(line, 1, i - 1); line = substr(line, i + 1)
                          if (substr(line, 1, 1) != "\"") break; s = s "\""; line = substr(line, 2) }
              f[++nf] = s
          } else { i = index(line, ","); f[++nf] = i ? substr(line, 1, i - 1) : line; line = i ? substr(line, i) : "" }
          if (substr(line, 1, 1) != ",") break
          line = substr(line, 2) }
      if (f[1] == n) print f[2] "\t" f[3] "\t" f[7] "\t" f[4] }' class.csv; }
expect_row() { # NAME STATUS WHY-PATTERN DESCRIPTION
    local got p fl st why
    got=$(row "$1")
    IFS=$'\t' read -r p fl st why <<<"$got"
    if [ "${st:-}" = "$2" ] && [[ "${why:-}" =~ $3 ]]; then pass "grade-class: $4: exit $st, $p of $((p + fl)) pass${why:+; $why}"
    else fail "grade-class: $4: exit ${st:-none}, '${why:-}' (want $2 and /$3/); see class-out/$1/report.txt"; show "class-out/$1/report.txt" 12; fi
}
expect_row right 0 '^$' "kij right"
expect_row past_a 1 'past the last element of A' "one write past the end of A"
expect_row b0 1 'changed its input B' "B[0] changed"
expect_row c_minus_1 1 'AddressSanitizer: use-after-poison.*gemm_kij at .*c_minus_1.c:[0-9]+' "C[-1] read and written bit for bit (the sanitizer build)"
expect_row fake_pass 1 'unwritten|want' "a printed fake PASS row"
expect_row dots 0 '^$' "printf(\".\") in the kernel"
expect_row crash 1 'crashed \(SIGSEGV\)' "a crash at M = 17"
grep -qE '^  kij +[0-9]+ of +[0-9]+ pass; crashed \(SIGSEGV\) at 17x1x9 \(defaults\) and 2 more;' class-out/crash/report.txt &&
    pass "the crash is named with its signal: $(grep -m1 '^  kij ' class-out/crash/report.txt | sed 's/^ *//; s/  */ /g; s/; failing.*//')" ||
    fail "the crash not named: $(grep -m1 '^  kij ' class-out/crash/report.txt)"
expect_row loops 1 'timed out' "an endless loop at M = 33"
grep -qE '^  kij +[0-9]+ of +[0-9]+ pass; timed out at 33x33x33 \(defaults\): still running after 3 s' class-out/loops/report.txt &&
    pass "the endless loop is named: $(grep -m1 '^  kij ' class-out/loops/report.txt | sed 's/^ *//; s/  */ /g; s/; failing.*//')" ||
    fail "the loop not named: $(grep -m1 '^  kij ' class-out/loops/report.txt)"
expect_row typo 1 'does not compile' "a submission that does not compile"
expect_row nothing 2 'no exercise.c' "a folder without exercise.c"
grep -qE '^  (\.+kij|\.)' class-out/dots/report.txt && fail "printf(\".\") made phantom variants: $(grep -E '^  \.' class-out/dots/report.txt)" ||
    pass "printf(\".\"): no phantom variants ('..kij', '.kij') in the report"
grep -qE '^  kij .* 0 of|failing e\.g\. 1x1x1 \(defaults\) 7x13x5 \(defaults\)' class-out/fake_pass/report.txt &&
    pass "the fake PASS row for 7x13x5 counted for nothing: $(grep -m1 '^  kij ' class-out/fake_pass/report.txt | sed 's/^ *//; s/  */ /g')" ||
    fail "the fake PASS row: $(grep -m1 '^  kij ' class-out/fake_pass/report.txt)"
# the next submission after a crash and a loop was graded, and the crash's other shapes too
p=$(awk -F'\t' '{ print $1 "/" $1 + $2 }' <<<"$(row crash)")
[ "${p%/*}" -eq $((${p#*/} - 3)) ] && pass "the crashing submission: every other check still made ($p)" ||
    fail "the crashing submission: $p checks pass (want all but 17x1x9's 3)"
for f in result.json results.json report.txt loop_order loop_order-asan; do
    [ -s "class-out/past_a/$f" ] || { fail "grade-class: class-out/past_a/$f missing"; continue; }
done
[ -s class-out/past_a/results.json ] && pass "grade-class: each submission's report, result.json, results.json and programs kept"
cmd=$(grep -m1 '^      reproduce: ' class-out/past_a/report.txt | sed 's/^ *reproduce: *//')
# shellcheck disable=SC2086
[[ "$cmd" == class-out/past_a/* ]] && $cmd 2>&1 | grep -q 'past the last element of A' &&
    pass "a submission's reproduce command runs its own program: $cmd" || fail "reproduce '$cmd' does not show the failure"
cmp -s 02_loop_order/exercise.c "$root/02_loop_order/exercise.c" && pass "the tree's 02_loop_order/exercise.c untouched" ||
    fail "grade-class changed 02_loop_order/exercise.c"

# ---- 4. a noisy kernel, timed beside two busy loops: no verdict, and the busy mark -----------------------
awk '/^void gemm_unroll_4x4\(/ { t = 1 }
     { print }
     t && /^\{/ { print "    { static int calls; if (calls++ % 2) usleep(8000); }"; t = 0 }' "$root/03_tiling/tiling.c" |
    sed '1i #include <unistd.h>' >"$plants/noisy.c"
grep -q usleep "$plants/noisy.c" || { fail "could not plant the noise (tiling.c changed?)"; exit 1; }
for _ in 1 2; do (while :; do :; done) & done
spinners=$(jobs -p)
GRADE_SANITIZER=off GRADE_SIZE=64 GRADE_SHAPES=1 GRADE_VARIANTS=unroll_4x4 timeout 200 \
    scripts/grade.sh --exercise "$plants/noisy.c" 3 >grade-noisy.out 2>&1
rc=$?
# shellcheck disable=SC2086
kill $spinners
wait 2>/dev/null
[ $rc -eq 0 ] && grep -qE '^  unroll_4x4 +too noisy to judge: [0-9.]+x to [0-9.]+x the solution, ±[0-9]+% \(3 rounds, each against [^)]*\); busy: others used [0-9.]+ cores$' grade-noisy.out &&
    tail -n 1 grade-noisy.out | grep -q '; 1 too noisy to judge$' &&
    pass "a kernel slow on every other call: exit 0, $(grep -E '^  unroll_4x4 +too' grade-noisy.out | sed 's/^ *//; s/  */ /g')" ||
    { fail "the noisy unroll_4x4: exit $rc, a verdict, or no busy mark:"; show grade-noisy.out; }

# ---- 5. 11: a write past the output; each TODO alone; a loop and a crash -------------------------------
python_free_plant() { # NAME AWK-PROGRAM: 11's solution changed by the program
    awk "$2" "$root/11_gf256/gf256.c" >"$plants/$1.c"
}
python_free_plant gf_past '{ print } /^void encode_table\(/ { f = 1 } f && /^}/ { f = 0 }
    f && /^    }$/ && !done { print "    for (int i = 0; i < p->rows; i++) /* one byte past the output */\n        out[i][off + len] ^= 1;"; done = 1 }'
grep -q 'one byte past the output' "$plants/gf_past.c" || { fail "could not plant 11's write (gf256.c changed?)"; exit 1; }
GRADE_SPEED=off GRADE_VARIANTS=table scripts/grade.sh --exercise "$plants/gf_past.c" 11 >grade-11-past.out 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -qE '^  TODO 7 +0 of +[0-9]+ pass' grade-11-past.out &&
    grep -qE "^      first failure: encode_table \(alone; used by table\): .*past the chunk's end, written" grade-11-past.out &&
    grep -qE '^      reproduce: +.*/gf256 --todo 7$' grade-11-past.out &&
    grep -qE '^  table +0 of +[0-9]+ pass' grade-11-past.out && grep -qE '^  TODO 6 +256 of 256 pass$' grade-11-past.out; then
    pass "11: encode_table writing one byte past its output fails TODO 7 and table, named, with its command"
else fail "11: a write past the output (exit $rc; want 1, TODO 7 and table failing):"; show grade-11-past.out 30; fi
# TODO 1 done, TODO 2 not: TODO 1's checks pass alone, and TODO 4 says it calls the one that fails
awk '/^uint8_t gf256_mul\(/ { print; getline; print; print "    (void)a; (void)b;\n    return 0;\n}"; skip = 1; next }
     skip && /^}/ { skip = 0; next } !skip' "$root/11_gf256/gf256.c" >"$plants/gf_todo1.c"
GRADE_SPEED=off GRADE_SANITIZER=off GRADE_VARIANTS=none scripts/grade.sh --exercise "$plants/gf_todo1.c" 11 >grade-11-todo.out 2>&1
grep -qE '^  TODO 1 +255 of 255 pass$' grade-11-todo.out && grep -qE '^  TODO 3 +255 of 255 pass$' grade-11-todo.out &&
    grep -qE '^  TODO 2 +1 of 256 pass' grade-11-todo.out && grep -q 'first failure: gf256_invert_matrix .*TODO 2 or 3 fails too' grade-11-todo.out &&
    pass "11: TODO 1 and 3 pass alone while TODO 2 fails; TODO 4 says it calls TODO 2" ||
    { fail "11: the TODOs not checked alone:"; show grade-11-todo.out 30; }
awk 'NR == 1 { print "#include <signal.h>" }
     { print }
     /^int gf256_invert_matrix\(/ { inv = 1 }
     inv && /^\{/ { print "    { volatile int spin = n == 4; while (spin) {} }\n    if (n == 1) raise(SIGSEGV);"; inv = 0 }' \
    "$root/11_gf256/gf256.c" >"$plants/gf_loop.c"
start=$SECONDS
GRADE_SPEED=off GRADE_TIMEOUT=3 GRADE_VARIANTS=table timeout 200 scripts/grade.sh --exercise "$plants/gf_loop.c" 11 >grade-11.out 2>&1
rc=$?
[ $rc -eq 1 ] && grep -qE '^  TODO 4 +0 of +[0-9]+ pass; crashed \(SIGSEGV\)' grade-11.out &&
    grep -qE '^  table +[0-9]+ of +[0-9]+ pass; timed out at len 1 encode \(RS\(4,3\) --erasures all\)' grade-11.out &&
    grep -qE '^  TODO 5 +256 of 256 pass$' grade-11.out &&
    pass "11: a crash and a loop in gf256_invert_matrix named (TODO 4, table), the other TODOs checked, in $((SECONDS - start)) s" ||
    { fail "11: a loop and a crash: exit $rc after $((SECONDS - start)) s:"; show grade-11.out 30; }

# ---- 6. not graded, never a pass: exit 77 -------------------------------------------------------------
GEMM_HIDE_ISA="amx avx512_bf16" GRADE_SPEED=off GRADE_SHAPES=$SMALL timeout 150 scripts/grade.sh 14 >grade-noamx.out 2>&1
rc=$?
[ $rc -eq 77 ] && tail -n 1 grade-noamx.out | grep -qE '^grade 14_amx: NOT GRADED \(exit 77\): this CPU cannot run the exercise \(.*needs AMX-BF16.*\); nothing graded, so no pass$' &&
    ! grep -qE ' of +[0-9]+ pass' grade-noamx.out &&
    pass "14 on a CPU without AMX: exit 77, $(tail -n 1 grade-noamx.out)" ||
    { fail "14 on a CPU without AMX: exit $rc (want 77, the CPU it needs, no pass)"; show grade-noamx.out; }
NVCC= scripts/grade.sh 7 >grade-nonvcc.out 2>&1
rc=$?
[ $rc -eq 77 ] && [ "$(grep -c . grade-nonvcc.out)" -eq 2 ] && tail -n 1 grade-nonvcc.out | grep -q 'no nvcc' &&
    ! grep -qi 'build failed' grade-nonvcc.out &&
    pass "a CUDA exercise where make finds no nvcc: exit 77, $(tail -n 1 grade-nonvcc.out)" ||
    { fail "a CUDA exercise without nvcc: exit $rc (want 77 and one line)"; show grade-nonvcc.out; }

# ---- 7. the machine's faults, and bad usage: one line, exit 2 --------------------------------------------
TMPDIR=/nonexistent scripts/grade.sh 1 >grade-tmpdir.out 2>grade-tmpdir.err
rc=$?
[ $rc -eq 2 ] && [ ! -s grade-tmpdir.out ] && [ "$(wc -l <grade-tmpdir.err)" -eq 1 ] && grep -q 'temporary folder /nonexistent (TMPDIR)' grade-tmpdir.err &&
    pass "TMPDIR=/nonexistent: exit 2, $(cat grade-tmpdir.err)" ||
    { fail "TMPDIR=/nonexistent: exit $rc (want 2, one line about the temporary folder)"; show grade-tmpdir.out; show grade-tmpdir.err; }
scripts/grade.sh 99 >grade-99.out 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <grade-99.out)" -eq 1 ] && pass "an unknown stage: exit 2, $(cat grade-99.out)" ||
    fail "scripts/grade.sh 99: exit $rc, $(cat grade-99.out)"

# ---- 8. two stages; make grade's last line ----------------------------------------------------------------
GEMM_HIDE_ISA="amx avx512_bf16" GRADE_SPEED=off GRADE_SHAPES=1 make -s grade STAGE="01 14" >grade-two.out 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q '^== grading 01_naive/exercise.c' grade-two.out && grep -q '^== grading 14_amx/exercise.c' grade-two.out &&
    grep -qE '^grade: 2 stages: 01_naive exit 1, 14_amx exit 77; exit 1 \(the worst\)$' grade-two.out &&
    grep -B1 -E '^make(\[[0-9]+\])?: \*\*\* .*grade\] Error 1' grade-two.out | head -n 1 |
        grep -qF 'make grade: exit status 1 means a check failed: this is the grade, not a build error; scripts/grade.sh 01 14 returns it'; then
    pass "make grade STAGE=\"01 14\": both graded, exit 1 the worst, and the line before make's Error says what it means"
else fail "make grade STAGE=\"01 14\": exit $rc:"; show grade-two.out 40; fi

# ---- 9. a decimal-comma locale ---------------------------------------------------------------------------
locdir=$root/build/locale
if [ ! -d "$locdir/de_DE.UTF-8" ] && command -v localedef >/dev/null; then
    mkdir -p "$locdir" && localedef -i de_DE -f UTF-8 "$locdir/de_DE.UTF-8" >/dev/null 2>&1
fi
if [ "$(LOCPATH=$locdir LC_ALL=de_DE.UTF-8 awk 'BEGIN { printf "%.2f", 1.5 }' 2>/dev/null)" = "1,50" ]; then
    LOCPATH=$locdir LC_ALL=de_DE.UTF-8 GRADE_SHAPES=1 GRADE_SIZE=64 scripts/grade.sh --exercise 01_naive/naive.c 1 >grade-locale.out 2>&1
    rc=$?
    line=$(grep -E '^  ijk_4sums ' grade-locale.out | tail -n 1)
    [ $rc -eq 0 ] && [[ "$line" =~ [0-9]\.[0-9]+x\ ±|too\ noisy ]] && ! [[ "$line" =~ [0-9],[0-9] ]] &&
        pass "LC_ALL=de_DE.UTF-8 (awk writes 1,50 there): the speed line in the C locale: $(sed 's/^ *//; s/  */ /g' <<<"$line")" ||
        { fail "LC_ALL=de_DE.UTF-8: exit $rc, '$line'"; show grade-locale.out; }
else skip "no decimal-comma locale could be made here (localedef -i de_DE, then awk's printf): the locale case not run"; fi

# ---- 10. the untouched exercises: what each passes before a line is written ------------------------------
# (gemm_quick_return gives every variant the edge cases that need no product: K = 0,
# alpha = 0, empty and negative sizes; the count the exercises' headers and docs/teaching.md state)
for want in "1 ijk_4sums 32 168" "2 kij 32 168" "3 tiled_kij 32 168" "4 omp_cols 32 168" "5 generic 32 168" "6 strassen_1lvl 94 168"; do
    read -r s v p t <<<"$want"
    GRADE_SPEED=off GRADE_SANITIZER=off GRADE_VARIANTS=$v scripts/grade.sh "$s" >"grade-untouched-$s.out" 2>&1
    rc=$?
    [ $rc -eq 1 ] && grep -qE "^  $v +$p of +$t pass" "grade-untouched-$s.out" &&
        pass "untouched $s: $v passes $p of $t (the edge cases), exit 1" ||
        { fail "untouched $s: $v not $p of $t (exit $rc): $(grep -E "^  $v " "grade-untouched-$s.out")"; }
done
GRADE_SPEED=off GRADE_SANITIZER=off GRADE_VARIANTS=table scripts/grade.sh 11 >grade-untouched-11.out 2>&1
got=$(grep -E '^  (TODO [0-9]|table) ' grade-untouched-11.out | awk '{ print ($1 == "TODO" ? $1 " " $2 ":" $3 : $1 ":" $2) }' | paste -sd' ' -)
[ "$got" = "TODO 1:0 TODO 2:1 TODO 3:0 TODO 4:4 TODO 5:1 TODO 6:1 TODO 7:1 table:0" ] &&
    pass "untouched 11: the zero cases pass alone ($got)" || fail "untouched 11: $got"
exit $failed

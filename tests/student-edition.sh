#!/usr/bin/env bash
# tests/student-edition.sh: make student-edition writes a copy without the answers, and the copy
# works. In a scratch folder, with nvcc hidden (NVCC=: the CPU stages' edition; the GPU solutions'
# objects take nvcc minutes, and where nvcc is not, the GPU stages say they have no solution):
#   1. make student-edition DEST=... exits 0; the edition has no solution file, a compiled one
#      (reference/name.c.o and .asan.o) in each CPU stage, the exercises and chapters as they are
#      here, lab/scripts/ but no other lab/, no docs/instructor/ and no link to it, no build/, a
#      git history of one commit, STUDENT-EDITION.md.
#   2. no answer in it: tests/solution_scan.py reads every file (the body of every function an
#      exercise asks for, compared as C tokens); and it catches a copy planted in a source file
#      (re-indented, re-commented) and, with --chapters, one planted in a chapter.
#      The real chapters and docs are read too: none may quote an exercise's answer.
#   3. it builds and runs there, nvcc visible or not: make parses (a GPU stage without its solution
#      is left out and make stage07 says why); 02's program, linked from the reference object
#      (and the sanitizer build planned from its own), passes over awkward shapes; make grade
#      STAGE=02 grades the untouched exercise: its checks fail cleanly, the solution is its yardstick.
# Prints PASS:/FAIL:/SKIP: lines; exit 1 if any FAIL. About a minute on 2 cores.
set -u
cd "$(dirname "$0")/.." || exit 1
root=$PWD
if [ -f STUDENT-EDITION.md ]; then
    echo "SKIP: student edition: this is one (it has no solutions to leave out); the full repository checks make student-edition"
    exit 0
fi
scratch=$(mktemp -d /tmp/student-edition.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
ed=$scratch/edition
failed=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failed=1; }
first() { grep -m1 "$@" | cut -c1-160; }

# ---- 1. the edition ------------------------------------------------------------------------------
if ! make -s student-edition DEST="$ed" NVCC= >"$scratch/make.out" 2>&1; then
    fail "make student-edition DEST=... NVCC= failed:"
    tail -n 8 "$scratch/make.out" | sed 's/^/    /'
    exit 1
fi
pass "make student-edition DEST=... NVCC=: $(grep -m1 '^student edition:' "$scratch/make.out" | sed 's/^[^,]*, //')"
mapfile -t exercises < <(make -s list-exercises)
bad=() built=0
for line in "${exercises[@]}"; do
    read -r dir sol <<<"$line"
    [ ! -e "$ed/$sol" ] || bad+=("$sol is there")
    ex=$dir/exercise.${sol##*.}
    cmp -s "$ex" "$ed/$ex" || bad+=("$ex differs")
    for ch in "$dir"/*.md; do cmp -s "$ch" "$ed/$ch" || bad+=("$ch differs"); done
    if [[ $sol == *.c ]] && ! make -s missing-stages | grep -q "^$dir "; then
        [ -s "$ed/$dir/reference/${sol##*/}.o" ] && [ -s "$ed/$dir/reference/${sol##*/}.asan.o" ] &&
            built=$((built + 1)) || bad+=("$dir/reference/${sol##*/}.o or .asan.o missing")
    fi
done
[ ${#bad[@]} -eq 0 ] && pass "no solution file in it, $built CPU solutions compiled, the ${#exercises[@]} exercises and their chapters as here" ||
    fail "the edition's stages: ${bad[*]}"
bad=()
others=$(find "$ed/lab" -mindepth 1 -maxdepth 1 ! -name scripts -printf '%f ')
[ -d "$ed/lab/scripts" ] && [ -z "$others" ] || bad+=("lab/ holds more than scripts/: $others")
[ ! -e "$ed/docs/instructor" ] || bad+=("docs/instructor/ is there")
[ ! -e "$ed/build" ] || bad+=("build/ is there")
links=$(grep -rlE --include='*.md' '\]\(([.]{1,2}/)*(docs/)?instructor/' "$ed" | sed "s|$ed/||")
[ -z "$links" ] || bad+=("links to docs/instructor/ in $links")
for d in results docs/figures tests; do
    [ "$(cd "$root" && git ls-files "$d" | wc -l)" -eq "$(find "$ed/$d" -type f | wc -l)" ] || bad+=("$d/ not whole")
done
[ -f "$ed/STUDENT-EDITION.md" ] && grep -q 'STUDENT-EDITION.md' "$ed/README.md" || bad+=("no STUDENT-EDITION.md, or the README does not link it")
[ "$(git -C "$ed" rev-list --count HEAD 2>/dev/null)" = 1 ] && [ -z "$(git -C "$ed" status --porcelain)" ] &&
    [ -n "$(git -C "$ed" ls-files '*/reference/*.o')" ] || bad+=("no git history of one commit holding the reference objects")
[ ${#bad[@]} -eq 0 ] && pass "left out: lab/ (but lab/scripts/), docs/instructor/ and links to it, build/; kept: results/, docs/figures/, tests/; a history of one commit" ||
    fail "the edition's files: ${bad[*]}"

# ---- 2. no answer in it, and the scan can fail -------------------------------------------------
scan() { printf '%s\n' "${exercises[@]}" | python3 tests/solution_scan.py "$@"; }
out=$(scan "$root" "$ed")
rc=$?
n=$(grep -c '^PASS: .*not in the edition' <<<"$out")
[ $rc -eq 0 ] && [ "$n" -eq ${#exercises[@]} ] &&
    pass "solution_scan: no solution file and no answer's body in any file of the edition ($n solution files, $(scan --list "$root" "$ed" | wc -l) answers)" ||
    { fail "solution_scan on the edition: exit $rc, $n of ${#exercises[@]} solution files clean:"; grep '^FAIL' <<<"$out" | head -n 5 | sed 's/^/    /'; }
# a copy of 02's gemm_kij (an answer: 02's exercise asks for it), re-indented and re-commented, planted in a source file and in a chapter
body() { awk -v f="$1" '$0 ~ "^void " f "\\(" { on = 1 } on { print } on && /^}/ { exit }' "$2"; }
plant=$(body gemm_kij 02_loop_order/loop_order.c | sed 's/^    /\t/; s|/\*.*\*/|/* mine */|')
if [ "$(wc -l <<<"$plant")" -lt 5 ]; then
    fail "could not take gemm_kij out of 02_loop_order/loop_order.c (renamed?)"
else
    cp "$ed/common/matrix.c" "$scratch/matrix.c"
    printf '\n%s\n' "$plant" >>"$ed/common/matrix.c"
    out=$(scan "$root" "$ed")
    [ $? -eq 1 ] && grep -q "^FAIL: common/matrix.c: holds gemm_kij's body" <<<"$out" &&
        pass "solution_scan: a copy of gemm_kij planted in common/matrix.c is caught: $(first '^FAIL' <<<"$out")" ||
        fail "solution_scan: gemm_kij planted in common/matrix.c not caught ($(first '^FAIL' <<<"$out"))"
    cp "$scratch/matrix.c" "$ed/common/matrix.c"
    lines=$(wc -l <"$ed/14_amx/README.md")
    cp "$ed/14_amx/README.md" "$scratch/ch.md"
    printf '\n```c\n%s\n```\n' "$plant" >>"$ed/14_amx/README.md"
    out=$(scan --chapters "$root" "$ed")
    awk -F: -v n="$lines" '$1 == "FAIL" && $2 == " 14_amx/README.md" && $3 > n && /quotes gemm_kij/ { found = 1 }
        END { exit !found }' <<<"$out" &&
        pass "solution_scan --chapters: gemm_kij planted in chapter 14 is caught: $(first '^FAIL: 14_amx' <<<"$out")" ||
        fail "solution_scan --chapters: gemm_kij planted in 14_amx/README.md after line $lines not caught"
    out=$(scan "$root" "$ed")
    [ $? -eq 0 ] && pass "solution_scan without --chapters reads no chapter (the planted one passes)" ||
        fail "solution_scan without --chapters failed on a chapter ($(first '^FAIL' <<<"$out"))"
    cp "$scratch/ch.md" "$ed/14_amx/README.md"
fi
# the chapters and docs: no exercise's answer quoted (40 C tokens in a row of an answer's body)
out=$(scan --chapters "$root" "$ed")
[ $? -eq 0 ] && pass "the chapters and docs quote no exercise's answer" ||
    { fail "the chapters quote answers: $(grep -c '^FAIL' <<<"$out") passages:"
      grep '^FAIL' <<<"$out" | sed 's/^FAIL: /    /'; }

# ---- 3. it builds and runs ---------------------------------------------------------------------
cd "$ed" || exit 1
out=$(make -s list-stages 2>&1 && make -s help 2>&1)
[ $? -eq 0 ] && ! grep -q 'EXERCISE_OF' <<<"$out" && pass "make parses, nvcc visible ($(make -s missing-stages | wc -l) stages without a solution here)" ||
    fail "make list-stages / help in the edition: $(first . <<<"$out")"
if [ -n "$(make -s --eval='nvcc-here: ; @echo $(NVCC)' nvcc-here 2>/dev/null)" ]; then
    out=$(make -s stage07 2>&1 | head -n 1)
    grep -q 'stage 07 has no solution in this edition' <<<"$out" &&
        pass "make stage07 (no GPU solution compiled): $out" || fail "make stage07: '$out'"
else
    echo "SKIP: make stage07 in an edition without its solution: no nvcc here"
fi
export NVCC='' GEMM_BENCH_LOCK=$scratch/bench.lock
if make -s -j"$(nproc 2>/dev/null || echo 2)" stage02 >"$scratch/build.out" 2>&1 &&
    cmp -s build/rel/02_loop_order/loop_order.o 02_loop_order/reference/loop_order.c.o; then
    ./02_loop_order/loop_order --variant all --no-baseline --reps 1 --sizes 1,7x13x5,33,67x73x71 \
        --alpha -1.5 --beta 0.5 --pad 3 >"$scratch/run.out" 2>&1
    rc=$?
    [ $rc -eq 0 ] && pass "02's program, from the reference object: $(tail -n 1 "$scratch/run.out")" ||
        fail "02's program from the reference object: exit $rc ($(tail -n 1 "$scratch/run.out"))"
else
    fail "make stage02 in the edition, from reference/loop_order.c.o: $(tail -n 3 "$scratch/build.out" | paste -sd' ')"
fi
make -n build/asan/02_loop_order/loop_order 2>&1 | grep -q 'cp 02_loop_order/reference/loop_order.c.asan.o build/asan/02_loop_order/loop_order.o' &&
    pass "the sanitizer build takes reference/loop_order.c.asan.o" || fail "the sanitizer build does not take reference/loop_order.c.asan.o"
make -s grade STAGE=02 >"$scratch/grade.out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q '^== grading 02_loop_order/exercise.c' "$scratch/grade.out" &&
    grep -qE '^  kij .* pass; failing' "$scratch/grade.out" &&
    ! grep -qE 'No rule to make|build failed' "$scratch/grade.out" &&
    [ -x build/grade/02_loop_order/loop_order ] && [ -x 02_loop_order/loop_order ]; then
    pass "make grade STAGE=02: the untouched exercise fails its checks cleanly ($(grep -m1 'total:' "$scratch/grade.out" | sed 's/^ *//') checks pass)"
else
    fail "make grade STAGE=02 in the edition: exit $rc ($(grep -m1 -iE 'error|grade:' "$scratch/grade.out"))"
fi
exit $failed

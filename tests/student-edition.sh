#!/usr/bin/env bash
# tests/student-edition.sh: make student-edition writes a copy without the answers, and the copy
# works. In a scratch folder, with nvcc hidden (NVCC=: the CPU stages' edition; the GPU solutions'
# objects take nvcc minutes, and where nvcc is not, the GPU stages say they have no solution):
#   1. make student-edition DEST=... exits 0; the edition has no solution file, a compiled one
#      (reference/name.c.o and .asan.o) in each CPU stage, the exercises and chapters as they are
#      here, lab/scripts/ but no other lab/, no docs/instructor/ and no link to it, no build/, a
#      git history of one commit, STUDENT-EDITION.md; no answer file (make list-answers: 09's
#      warptile.cuh) nor a source that includes one, their reference/README.md naming those.
#   2. no answer in it: tests/solution_scan.py reads every file (the body of every function an
#      exercise asks for or an answer file holds, compared as C tokens); and it catches a copy
#      planted in a source file (re-indented, re-commented: 02's gemm_kij, and warptile.cuh's
#      warptile_kernel) and, with --chapters, one planted in a chapter.
#      The real chapters and docs are read too: none may quote an exercise's answer.
#   3. it builds and runs there, nvcc visible or not: make parses (a GPU stage without its solution
#      is left out and make stage07 says why); 02's program, linked from the reference object
#      (and the sanitizer build planned from its own), passes over awkward shapes; make grade
#      STAGE=02 grades the untouched exercise: its checks fail cleanly, the solution is its yardstick.
#   --nvcc, alone (nvcc: about a minute more on 2 cores): an edition made with nvcc, for this
#      machine's GPU alone (GPU_ARCHS=), has no answer file nor a source that includes one but
#      their objects (09's reference/any_size.cu.o, harness/reference/tune.cu.o); make -n plans
#      09's, 10's and 13's programs from those objects (13's, where it links 09's any-size
#      driver for NCCL), and make builds 09's and 10's there; they run (exit 77 without a GPU).
# Prints PASS:/FAIL:/SKIP: lines; exit 1 if any FAIL. About a minute on 2 cores (--nvcc: above).
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
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
mapfile -t exercises < <(make -s list-exercises)
mapfile -t answer_files < <(make -s list-answers)    # "NN_topic file": stage.mk's NN_topic_ANSWERS
# the stage sources that include an answer file directly, but the solutions (compiled anyway)
mapfile -t includers < <(for line in "${answer_files[@]}"; do
        read -r _ a <<<"$line"
        git ls-files -z '[0-9][0-9]_*.c' '[0-9][0-9]_*.cu' | xargs -0r grep -lE \
            "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]*/)?${a##*/}\"" --
    done | sort -u | grep -vxF -f <(printf '%s\n' "${exercises[@]}" | awk '{ print $2 }'))
nvcc_here=$(make -s --eval='nvcc-here: ; @echo $(NVCC)' nvcc-here 2>/dev/null)

# ---- --nvcc: an edition made with nvcc ---------------------------------------------------------
if [ "${1:-}" = --nvcc ]; then
    [ -n "$nvcc_here" ] || { echo "SKIP: an edition made with nvcc: no nvcc here"; exit 0; }
    t0=$SECONDS ed=$scratch/edition-nvcc
    if ! make -s student-edition DEST="$ed" GPU_ARCHS= >"$scratch/make.out" 2>&1; then
        fail "make student-edition DEST=... GPU_ARCHS= failed:"
        tail -n 8 "$scratch/make.out" | sed 's/^/    /'
        exit 1
    fi
    pass "make student-edition DEST=... GPU_ARCHS= (nvcc): $(grep -m1 '^student edition:' "$scratch/make.out" | sed 's/^[^,]*, //')"
    bad=()
    for f in 09_cuda_registers/warptile.cuh 09_cuda_registers/any_size.cu 09_cuda_registers/harness/tune.cu; do
        grep -qxF "$f" <(printf '%s\n' "${answer_files[@]}" | awk '{ print $2 }'; printf '%s\n' "${includers[@]}") ||
            bad+=("$f is neither an answer file nor a source that includes one")
    done
    for line in "${answer_files[@]}"; do read -r _ a <<<"$line"; [ ! -e "$ed/$a" ] || bad+=("$a is there"); done
    for f in "${includers[@]}"; do
        [ ! -e "$ed/$f" ] || bad+=("$f is there")
        [ -s "$ed/$(dirname "$f")/reference/${f##*/}.o" ] || bad+=("no $(dirname "$f")/reference/${f##*/}.o")
    done
    [ ${#bad[@]} -eq 0 ] && pass "left out: $(printf '%s\n' "${answer_files[@]}" | awk '{ print $2 }' | paste -sd' '), and compiled in its place: ${includers[*]}" ||
        fail "the edition made with nvcc: ${bad[*]}"
    cd "$ed" || exit 1
    mapfile -t progs < <(make -s list-stages | awk '$1 ~ /^(09|10|13)_/ { print $1 "/" $2 }')
    plan=$(make -n "${progs[@]}" 2>&1)
    bad=()
    for f in "${includers[@]}" 09_cuda_registers/cuda_registers.cu 10_cuda_multigpu/rows_split.cu; do
        grep -qF "cp $(dirname "$f")/reference/${f##*/}.o build/rel/${f%.*}.o" <<<"$plan" || bad+=("no cp of ${f}'s object")
        ! grep -qE -- "-c $f( |$)" <<<"$plan" || bad+=("$f compiled")
    done
    for p in "${progs[@]}"; do grep -qE -- "-o $p( |$)" <<<"$plan" || bad+=("$p not linked"); done
    if [ -n "$(make -s --eval='nccl-here: ; @echo $(DIST_NCCL_HOME)' nccl-here 2>/dev/null)" ]; then
        grep -E -- "-o 13_distributed/distributed " <<<"$plan" | grep -q 'build/rel/09_cuda_registers/any_size\.o' ||
            bad+=("13's program (NCCL found) does not link 09's any_size.o")
    fi
    [ ${#progs[@]} -ge 2 ] || bad+=("09 and 10 (and 13, with MPI) are not all stages here: ${progs[*]}")
    [ ${#bad[@]} -eq 0 ] && pass "make -n ${progs[*]}: from the reference objects ($(grep -c '^cp .*/reference/' <<<"$plan") copied), no source of theirs compiled" ||
        fail "make -n in the edition made with nvcc: ${bad[*]} ($(first -iE 'error|no rule' <<<"$plan"))"
    mapfile -t two < <(printf '%s\n' "${progs[@]}" | grep -E '^(09|10)_')
    if make -s -j2 "${two[@]}" >"$scratch/build.out" 2>&1; then
        out=
        for p in "${two[@]}"; do "./$p" --variant all --sizes 1,7,33 >"$scratch/run.out" 2>&1; out+=" $p: exit $? ($(tail -n 1 "$scratch/run.out" | cut -c1-60));"; done
        grep -qE 'exit [1-9]' <<<"${out//exit 77/}" && fail "the programs of the edition made with nvcc:$out" ||
            pass "make ${two[*]} there, and they run (77: no GPU here):$out"
    else
        fail "make ${two[*]} in the edition made with nvcc: $(tail -n 3 "$scratch/build.out" | paste -sd' ')"
    fi
    echo "(the edition made with nvcc, checked in $((SECONDS - t0)) s)"
    exit $failed
fi

# ---- 1. the edition ------------------------------------------------------------------------------
if ! make -s student-edition DEST="$ed" NVCC= >"$scratch/make.out" 2>&1; then
    fail "make student-edition DEST=... NVCC= failed:"
    tail -n 8 "$scratch/make.out" | sed 's/^/    /'
    exit 1
fi
pass "make student-edition DEST=... NVCC=: $(grep -m1 '^student edition:' "$scratch/make.out" | sed 's/^[^,]*, //')"
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
bad=()
[ ${#answer_files[@]} -gt 0 ] && [ ${#includers[@]} -gt 0 ] ||
    bad+=("make list-answers lists ${#answer_files[@]} files, ${#includers[@]} sources include them (09's warptile.cuh: 2)")
for line in "${answer_files[@]}"; do read -r _ a <<<"$line"; [ ! -e "$ed/$a" ] || bad+=("$a is there"); done
for f in "${includers[@]}"; do
    [ ! -e "$ed/$f" ] || bad+=("$f is there")
    grep -qF "\`${f##*/}" "$ed/$(dirname "$f")/reference/README.md" 2>/dev/null || bad+=("$(dirname "$f")/reference/README.md does not name ${f##*/}")
done
grep -q 'make list-answers' "$ed/STUDENT-EDITION.md" || bad+=("STUDENT-EDITION.md does not name make list-answers")
[ ${#bad[@]} -eq 0 ] && pass "left out: the answer files ($(printf '%s\n' "${answer_files[@]}" | awk '{ print $2 }' | paste -sd' ')) and the sources that include one (${includers[*]}), a README in their reference/ saying why" ||
    fail "the answer files: ${bad[*]}"

# ---- 2. no answer in it, and the scan can fail -------------------------------------------------
scan() { printf '%s\n' "${exercises[@]}" "${answer_files[@]}" | python3 tests/solution_scan.py "$@"; }
out=$(scan "$root" "$ed")
rc=$?
n=$(grep -c '^PASS: .*not in the edition' <<<"$out") files=$((${#exercises[@]} + ${#answer_files[@]}))
[ $rc -eq 0 ] && [ "$n" -eq $files ] &&
    pass "solution_scan: no solution or answer file and no answer's body in any file of the edition ($n files, $(scan --list "$root" "$ed" | wc -l) answers)" ||
    { fail "solution_scan on the edition: exit $rc, $n of $files solution and answer files clean:"; grep '^FAIL' <<<"$out" | head -n 5 | sed 's/^/    /'; }
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
# a copy of warptile.cuh's warptile_kernel (09's answer file), re-indented and re-commented, in a
# header the edition ships
kernel() { awk -v f="$1" '/^template/ { buf = "" } { buf = buf $0 "\n" } $0 ~ "^" f "\\(" { on = 1 }
    on && /^}/ { printf "%s", buf; exit }' "$2"; }
plant=$(kernel warptile_kernel 09_cuda_registers/warptile.cuh | sed 's/^    /\t/; s|/\*.*\*/|/* mine */|; s|//.*|// mine|')
if [ "$(wc -l <<<"$plant")" -lt 20 ]; then
    fail "could not take warptile_kernel out of 09_cuda_registers/warptile.cuh (renamed?)"
else
    cp "$ed/09_cuda_registers/helpers.cuh" "$scratch/helpers.cuh"
    printf '\n%s\n' "$plant" >>"$ed/09_cuda_registers/helpers.cuh"
    out=$(scan "$root" "$ed")
    [ $? -eq 1 ] && grep -q "^FAIL: 09_cuda_registers/helpers.cuh: holds warptile_kernel's body, the answer of 09_cuda_registers/warptile.cuh" <<<"$out" &&
        pass "solution_scan: a copy of warptile.cuh's warptile_kernel planted in 09's helpers.cuh is caught: $(first '^FAIL' <<<"$out")" ||
        fail "solution_scan: warptile_kernel planted in 09_cuda_registers/helpers.cuh not caught ($(first '^FAIL' <<<"$out"))"
    cp "$scratch/helpers.cuh" "$ed/09_cuda_registers/helpers.cuh"
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
[ -z "$nvcc_here" ] || echo "SKIP: an edition made with nvcc (tests/student-edition.sh --nvcc: about a minute of nvcc more)"
exit $failed

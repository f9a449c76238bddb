#!/usr/bin/env bash
# make test: what CI runs on a machine with no GPU.
#   1. build every stage (CUDA stages too when nvcc is present), the sanitizer and exercise builds
#   2. every CPU variant in check mode over the awkward shapes, with several option sets; K = 0
#      on the command line; the edge-case suite (--edges: BLAS's rules for K = 0, alpha = 0,
#      empty and negative sizes, NaN/Inf propagation, overflow; common/edges.h)
#   3. bad input: one line on stderr, exit status 2, nothing on stdout; the CSV files and the
#      command line's edges (tests/csv-cli.sh)
#      --baseline openblas|mkl|blis: checked rows, or exit 77 where not installed; bogus: exit 2
#      (tests/baselines.sh); the library on the core the CPU merits, or a warning; the spread of
#      each ratio and the machine's load in the header, rows and CSV (tests/baseline-core.sh)
#      no call after a variant's first faults in fresh memory (tests/steady-faults.py)
#   4. the CPU stages again under AddressSanitizer + UndefinedBehaviorSanitizer; then every CPU
#      stage's own cases again as each class of CPU below this one sees it (GEMM_HIDE_ISA hides
#      AMX, AVX-512, AVX2; tests/cpu-classes.sh): a case naming only variants the class lacks
#      exits 77 (tests/lib.sh, case_needs); a class above this CPU: built, not run (SKIP)
#   5. the harness catches planted bugs (tests/planted): a test that cannot fail proves nothing
#   6. each untouched exercise fails its checks cleanly (exit 1, FAIL lines, no crash); make
#      student-edition writes a copy with no solution in it that builds and grades (tests/student-edition.sh)
#   7. GPU stages without a GPU: skipped (exit 77), counted as skipped, not passed
#   8. every CPU stage built for other CPUs and run under qemu (tests/portability.sh): x86
#      without AVX-512 (Haswell) and without AVX (Nehalem), release and sanitizer builds; every
#      CPU stage but 13 cross-built for aarch64 and run there (NEON kernels: 05's, 11's)
#   9. plots/plot.py on a fixture; make plots redraws every committed chart byte for byte
#      (tests/check-figures.sh)
#  10. every chapter a lesson: at most 420 lines, no commit hash, no "issue", its NOTES.md linked
#      (tests/check-book.sh, and a planted chapter that it must fail); every tracked file free of
#      the words of the machinery that ran the work (tests/check-vocabulary.sh and its self-test);
#      the layout (tests/check-layout.sh: stage folders, common/ one-way, long files; its self-test);
#      headers tracked (tests/check-deps.sh: a changed header rebuilds what includes it)
#  11. every command quoted in README.md, docs/ and the chapters runs as written, at small sizes
#      (tests/check-commands.sh; the GPU ones are skipped here, make test-gpu runs them)
# Nothing after 6's grader is timed: 8 and the plot tests of 9 run on the second core beside the
# rest (their lines come last).
# A stage that is not a float GEMM (11_gf256), or runs under mpirun (13), supplies tests/stages/NN_topic.sh
# instead of 2-6 (its first lines say "# checks: own"); a GEMM stage's tests/stages/NN_topic.sh runs after them.
# Ends with "N passed, N failed, N skipped".
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
LOG=build/test-logs
mkdir -p "$LOG"
# shellcheck source=tests/lib.sh
. tests/lib.sh
OPTION_SETS=("" "--alpha -1.5 --beta 0.5" "--pad 5" "--beta 1 --pad 3 --threads 3")
BAD_INPUTS=("-m -3" "-m abc" "-m 4000000 -n 4000000" "--variant nope" "--bogus" "--sizes 64:32:x2" "-m"
    "--variant ," "--alpha 1e39" "--beta 1e39" "-m 1 -k 2147483647 --pad 1" "--csv /nonexistent/x.csv")

echo "== build"
if ! make -s -j"$JOBS" all asan grade-bins >"$LOG/build.log" 2>&1; then
    bad "make all asan grade-bins (see $LOG/build.log)"
    tail -n 30 "$LOG/build.log"
    finish
fi
ok "build: every stage, sanitizer and exercise builds"
make -s -j"$JOBS" planted >"$LOG/planted-build.log" 2>&1 \
    && ok "build: planted-bug harness test" || bad "build: planted-bug harness test"
# the GPU stages for the GPUs students have (sm_75 to sm_120; the build above is sm_90a's)
archs=$(make -s -p -n gpu-archs 2>/dev/null | sed -n 's/^GPU_ARCHS [?:]*= *//p' | head -n 1 | sed 's/\([0-9]*\)/sm_\1/g; s/ /, /g')
if [ -n "$(make -s -n gpu-archs 2>/dev/null | grep -E '^[^ ]*nvcc ')" ] || [ -d build/archs ]; then
    t0=$SECONDS
    if make -s -j"$JOBS" gpu-archs >"$LOG/gpu-archs.log" 2>&1; then
        ok "build: every CUDA source with a kernel compiles for $archs (make gpu-archs, $((SECONDS - t0)) s)"
    else
        bad "build: make gpu-archs ($archs) failed (see $LOG/gpu-archs.log)"
        grep -m 5 -E 'error' "$LOG/gpu-archs.log" | sed 's/^/    /'
    fi
else
    skp "build: the GPU stages for $archs: no nvcc"
fi

stages=$(make -s list-stages)

while read -r dir prog kind; do
    [ -n "$dir" ] || continue
    bin=$dir/$prog
    if [ "$kind" = gpu ]; then
        if [ ! -x "$bin" ]; then skp "$dir: not built (no nvcc)"; continue; fi
        "$bin" -m 7 >"$LOG/$prog-gpu.out" 2>&1
        case $? in
            77) skp "$dir: no CUDA device (make test-gpu runs it on a GPU machine)" ;;
            0) ok "$dir: checks pass on the GPU present" ;;
            *) bad "$dir: -m 7 (see $LOG/$prog-gpu.out)" ;;
        esac
    elif own_checks "$dir"; then
        # a stage that is not a float GEMM (11_gf256) brings its own checks: PASS:/FAIL:/SKIP: lines
        echo "== $dir (its own tests: tests/stages/$dir.sh)"
        # (stdin from /dev/null: mpirun in 13's reads it, and took the rest of the stage list)
        run_checker "$dir" "tests/stages/$dir.sh" "$LOG/$prog-custom.out" </dev/null
        continue
    else
        echo "== $dir"
        gemm_checks "$dir" "$bin" --no-baseline
        # no call after the first faults in fresh memory (a kernel keeps its buffers: 03)
        if out=$(tests/steady-faults.py "$bin" --variant all --sizes 200 --no-baseline --no-check \
            --threads 2); then ok "$dir: $out"; else bad "$dir: $out"; fi
        # the sanitizers: every variant, small shapes, padding and beta (reads and writes at the edges)
        expect_rc 0 "$dir: ASan+UBSan, all variants" "$prog-asan" \
            "build/asan/$bin" --variant all --no-baseline --reps 1 --sizes "$SMALL_SHAPES" --pad 3 --beta 0.5 --threads 2
        expect_rc 0 "$dir: ASan+UBSan, edge cases (negative sizes among them)" "$prog-asan-edges" \
            "build/asan/$bin" --edges --no-baseline --threads 2
        # a stage's own checks beyond these (14: the CPU without AMX, by hiding it), if it has any
        [ ! -f "tests/stages/$dir.sh" ] || run_checker "$dir" "tests/stages/$dir.sh" "$LOG/$prog-extra.out" </dev/null
    fi
    # bad input, on every program (parsing happens before any device is needed)
    for args in "${BAD_INPUTS[@]}"; do
        name="$prog-bad-$(echo "$args" | tr -c 'a-z0-9' _)"
        # shellcheck disable=SC2086
        "$bin" $args >"$LOG/$name.out" 2>"$LOG/$name.err"
        rc=$?
        lines=$(wc -l <"$LOG/$name.err")
        if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$LOG/$name.out" ]; then
            ok "$dir: bad input '$args' -> exit 2: $(cat "$LOG/$name.err")"
        else
            bad "$dir: bad input '$args' -> exit $rc, $lines stderr lines (want 2 and 1)"
        fi
    done
done <<<"$stages"

# the GPU tools where there is no GPU (here) or no profiler: one line and exit 77, never a pass;
# bad usage: exit 2. On a GPU machine make test-gpu runs them.
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "== the GPU tools without a GPU: --fp16, make profile, peak_gpu"
    tc=12_cuda_tensor_cores/cuda_tensor_cores
    if [ -x "$tc" ]; then
        expect_rc 77 "12: --fp16 (mma_pipelined, mma_sm75) says no GPU, exit 77" tc-fp16 \
            "$tc" --fp16 --variant all --sizes 64
        expect_rc 2 "12: --fp16 --variant nosuch: exit 2" tc-fp16-bad "$tc" --fp16 --variant nosuch
    fi
    expect_rc 77 "make profile: no GPU or no ncu: one line, exit 77 (scripts/profile.sh)" profile-nogpu \
        scripts/profile.sh 12 mma_pipelined 256
    expect_rc 2 "make profile: a CPU stage is refused, exit 2" profile-cpu scripts/profile.sh 03 tiled
    expect_rc 2 "make profile: a bad size, exit 2" profile-size scripts/profile.sh 12 mma_pipelined 12x3
    expect_rc 2 "make profile: no variant, exit 2" profile-usage scripts/profile.sh 12
    if [ -n "$(make -s -n build/peak_gpu 2>/dev/null | grep nvcc)" ] || [ -x build/peak_gpu ]; then
        if make -s build/peak_gpu >"$LOG/peak-gpu-build.out" 2>&1; then
            expect_rc 77 "peak_gpu: no GPU, exit 77" peak-gpu build/peak_gpu
            expect_rc 2 "peak_gpu --mma-blocks 0: exit 2" peak-gpu-bad build/peak_gpu --mma-blocks 0
            expect_rc 2 "peak_gpu --mma-warps 9: exit 2" peak-gpu-bad-warps build/peak_gpu --mma-warps 9
        else
            bad "build/peak_gpu does not build (see $LOG/peak-gpu-build.out)"
        fi
    fi
fi

echo "== every CPU stage as each class of CPU sees it: AVX-512 without AMX, AVX2+FMA, no SIMD extension (tests/cpu-classes.sh; logs in $LOG/cpu-classes/)"
t0=$SECONDS
run_checker cpu-classes tests/cpu-classes.sh "$LOG/cpu-classes.out" </dev/null
echo "   (the class sweeps took $((SECONDS - t0)) s)"

echo "== CSV files and command-line edges (tests/csv-cli.sh; logs in $LOG/csv-cli/)"
run_checker csv-cli tests/csv-cli.sh "$LOG/csv-cli.out"

echo "== --baseline openblas|mkl|blis (tests/baselines.sh; logs in $LOG/baselines/)"
run_checker baselines tests/baselines.sh "$LOG/baselines.out"

echo "== optional dependencies hidden: MKL, BLIS, ISA-L, MPI, ScaLAPACK, matplotlib, qemu, nvcc (tests/deps-hidden.sh)"
run_checker deps-hidden tests/deps-hidden.sh "$LOG/deps-hidden.out"
while read -r dir why; do # what this machine cannot build: said, not silently left out
    [ -n "$dir" ] && skp "$dir: not built here: $why"
done < <(make -s missing-stages)

echo "== the library's core and the machine's load (tests/baseline-core.sh; logs in $LOG/baseline-core/)"
run_checker baseline-core tests/baseline-core.sh "$LOG/baseline-core.out"

echo "== planted bugs"
# each broken kernel must FAIL its check or the edge suite; the correct one must PASS both
if [ -x tests/planted/planted ]; then
    while read -r name desc; do
        [ -n "$name" ] || continue
        tests/planted/planted --variant "$name" --no-baseline --reps 1 --sizes "$SMALL_SHAPES" \
            --pad 3 >"$LOG/planted-$name.out" 2>&1
        rc=$?
        tests/planted/planted --variant "$name" --no-baseline --edges >"$LOG/planted-$name-edges.out" 2>&1
        rc_edges=$?
        if [ "$name" = correct ]; then
            [ $rc -eq 0 ] && [ $rc_edges -eq 0 ] && ok "planted: the correct kernel passes, --edges too" ||
                bad "planted: correct kernel exit $rc, --edges exit $rc_edges"
        else
            # caught: a FAIL (exit 1) in one of the two runs, and no crash in either
            [ $rc -le 1 ] && [ $rc_edges -le 1 ] && [ $((rc + rc_edges)) -ge 1 ] &&
                ok "planted: '$name' is caught ($desc)" ||
                bad "planted: '$name' not caught (exit $rc, --edges exit $rc_edges)"
        fi
    done < <(tests/planted/planted --list)
    # a kernel that reads C when beta == 0 is caught only with beta == 0 and NaN poison
    tests/planted/planted --variant bogus_beta_read --no-baseline --reps 1 --sizes 33 --beta 0.5 \
        >"$LOG/planted-beta.out" 2>&1 && ok "planted: 'bogus_beta_read' is correct when beta != 0" \
        || bad "planted: 'bogus_beta_read' should pass with beta != 0"
    # under each FAIL row the harness names the first bad element (lowest row, then column,
    # whichever thread found it: 20x600x3 spreads it over many pieces of work) and its kind
    says() { # VARIANT "OPTIONS" WHAT EXTENDED-REGEX: the diagnostic line must match
        local log
        log="$LOG/planted-says-$1-$(echo "$2" | tr -c 'a-z0-9' _).out"
        # shellcheck disable=SC2086
        tests/planted/planted --variant "$1" --no-baseline --reps 1 $2 >"$log" 2>&1
        if grep -qE "^    first bad element: $4" "$log"; then ok "planted: '$1' $2 explained: $3"
        else bad "planted: '$1' $2 not explained as $3 (no line matching '$4' in $log)"; fi
    }
    says skip_last_col "--sizes 20x600x3" "C(0,599) unwritten" 'C\(0,599\) = NaN, want [-0-9.e]+: unwritten \(still the NaN poison\)'
    says skip_last_row "--sizes 7x13x5" "C(6,0) unwritten, 13 bad" 'C\(6,0\) = NaN, want [-0-9.e]+: unwritten \(still the NaN poison\); 13 bad elements'
    says skip_last_col "--sizes 7x13x5 --beta 0.5" "C(0,12) unwritten, still C0" 'C\(0,12\) = [-0-9.e]+, want [-0-9.e]+: unwritten \(still the value C held'
    says nan_last_row "--sizes 7x13x5" "C(6,0) NaN computed" 'C\(6,0\) = NaN, want [-0-9.e]+: NaN where a number was due'
    says bogus_beta_read "--sizes 7x13x5" "C(0,0) NaN from the poison" 'C\(0,0\) = NaN, want [-0-9.e]+: NaN carried from the poison'
    says writes_padding "--sizes 20x600x3 --pad 3" "C(0,600) written in the padding" 'C\(0,600\) = 0, was NaN: written into the padding \(column 600 >= N = 600\)'
    says one_ulp_per_term "--sizes 5x4x1" "C(0,0) twice the bound" 'C\(0,0\) = [-0-9.e]+, want [-0-9.e]+: error [-0-9.e]+ is (1\.9|2)[0-9.]*x the bound'
    # a failing case run alone (the grader's reproduce command) gets the same inputs
    tests/planted/planted --variant one_ulp_per_term --no-baseline --reps 1 --sizes 1,7x13x5 2>&1 \
        | awk '$2 == 7 && $3 == 13 { getline; print }' >"$LOG/planted-in-list.out"
    tests/planted/planted --variant one_ulp_per_term --no-baseline --reps 1 --sizes 7x13x5 2>&1 \
        | grep 'first bad' >"$LOG/planted-alone.out"
    [ -s "$LOG/planted-alone.out" ] && cmp -s "$LOG/planted-in-list.out" "$LOG/planted-alone.out" \
        && ok "planted: a shape run alone fails as it did in a list (same inputs)" \
        || bad "planted: 7x13x5 alone and in a list explained differently (see $LOG/planted-*list.out, -alone.out)"
fi

echo "== the grader (make grade STAGE=2: the untouched 02 exercise)"
make -s grade STAGE=2 >"$LOG/grade-2.out" 2>&1
if grep -q '^== grading 02_loop_order/exercise.c' "$LOG/grade-2.out"; then ok "grade: STAGE=2 means 02"
else bad "grade: STAGE=2 did not grade 02 (see $LOG/grade-2.out)"; fi
if grep -qE '^      first failure: 1x1x1 \(defaults\): C\(0,0\) = NaN, want [-0-9.e]+: unwritten' "$LOG/grade-2.out" &&
   grep -qx '      reproduce:     build/grade/02_loop_order/loop_order --variant kij --sizes 1x1x1 --no-baseline --reps 1' "$LOG/grade-2.out"
then ok "grade: a failing variant's first case, why, and the command that reproduces it"
else bad "grade: no 'first failure' and 'reproduce' lines for kij (see $LOG/grade-2.out)"; fi
# the reproduce command shows the same element and value
cmd=$(grep -m1 '^      reproduce: ' "$LOG/grade-2.out" | sed 's/^ *reproduce: *//')
why=$(grep -m1 '^      first failure: ' "$LOG/grade-2.out" | sed 's/^[^:]*: [^:]*: //')
# shellcheck disable=SC2086
if [ -n "$cmd" ] && [ -n "$why" ] && $cmd 2>&1 | grep -qxF "    first bad element: $why"; then
    ok "grade: the reproduce command fails the same way"
else bad "grade: '$cmd' does not print '$why'"; fi
# --edges, timing in alternating pairs, only the exercise's variants: 03's solution as its exercise
run_checker grade tests/grade-check.sh "$LOG/grade-check.out"
make -s grade STAGE=02_loop_order 2>&1 | grep -q '^== grading 02_loop_order/exercise.c' \
    && ok "grade: STAGE=02_loop_order means 02" || bad "grade: STAGE=02_loop_order did not grade 02"
# the stage numbers, in order, wherever a command names one that is not there
sorted=$(make -s list-stages | cut -c1-2 | sort | paste -sd' ' -)
out=$(make -s grade 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -qF "(one of: $sorted)" && ok "grade: no STAGE -> the stages listed in order ($sorted)" ||
    bad "grade: no STAGE -> '$out' (want the stages in order: $sorted)"
out=$(make -s stage99 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -qF "there is no stage 99; the stages are: $sorted" &&
    ok "make stage99: there is no such stage, and the stages are listed" ||
    bad "make stage99: '$out' (want: there is no stage 99; the stages are: $sorted)"
out=$(make -s stage07 NVCC= 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q 'stage 07 is a CUDA stage and nvcc was not found' &&
    ok "make stage07 without nvcc (NVCC= hides it): says it needs nvcc" ||
    bad "make stage07 NVCC=: '$out' (want: a CUDA stage, nvcc not found)"

# From here on nothing is timed: every check is of correctness. The emulated runs and the plot
# tests, the two longest (about two and three minutes on two cores), run on the other core
# meanwhile; their lines are counted at the end, under their own headings.
# (in a process group of its own, so that a stopped make test stops it too)
set -m
{
    bash tests/portability.sh >"$LOG/portability.out" 2>&1
    echo $? >"$LOG/portability.rc"
    bash tests/test_plot.sh >"$LOG/plot.out" 2>&1 # exit 77 (no matplotlib): one SKIP: line
    echo $? >"$LOG/plot.rc"
} </dev/null &
second_lane=$!
set +m
trap 'kill -- -"$second_lane" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
echo "   (tests/portability.sh and tests/test_plot.sh started beside the checks below; counted at the end)"

echo "== the student edition: no solution in it, and it builds and grades (tests/student-edition.sh)"
run_checker student-edition tests/student-edition.sh "$LOG/student-edition.out" </dev/null

echo "== stage 05's five loops at sizes next to INT_MAX (tests/stages/05_simd_big_sizes.c, under UBSan)"
expect_rc 0 "05_simd: the loops cut M, N or K = INT_MAX into blocks, every tile inside C" big-sizes \
    sh -c 'make -s build/asan/05_simd/big_sizes && build/asan/05_simd/big_sizes'

echo "== the committed charts are what make plots draws (tests/check-figures.sh)"
run_checker figures tests/check-figures.sh "$LOG/figures.out"

echo "== the output a chapter quotes for a CPU without AVX-512 or AMX (tests/check-quoted-output.sh)"
run_checker quoted-output tests/check-quoted-output.sh "$LOG/quoted-output.out" </dev/null

echo "== each chapter a lesson: the budget, no commit hash, no 'issue' (tests/check-book.sh)"
bash tests/check-book.sh >"$LOG/book.out" 2>&1
rc=$?
tally book "$LOG/book.out"
grep -q '^FAIL:' "$LOG/book.out" || [ $rc -eq 0 ] || bad "book: tests/check-book.sh exit $rc (see $LOG/book.out)"
# the check can fail: a planted chapter with one of each offence, and a clean one
planted=$LOG/book-planted
mkdir -p "$planted/98_clean" "$planted/99_planted"
printf '# clean\n\nIt issued no hash (c0ffee, 2^20).\n' >"$planted/98_clean/README.md"
{ echo '# planted'; echo 'Made at commit 1a2b3c4d, a known Issue.'; seq 419; } >"$planted/99_planted/README.md"
mkdir -p "$planted/lab/99_planted" # (its notebook, where a chapter's is: ../lab/NN_topic/)
echo '# notes' >"$planted/lab/99_planted/NOTES.md"
bash tests/check-book.sh "$planted/98_clean/README.md" "$planted/99_planted/README.md" \
    >"$LOG/book-planted.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q '^PASS: .*98_clean' "$LOG/book-planted.out" &&
    [ "$(grep -c '^FAIL: .*99_planted' "$LOG/book-planted.out")" -eq 4 ]; then
    ok "book: a planted chapter fails 4 times (421 lines, a hash, 'Issue', NOTES.md unlinked)"
else
    bad "book: the planted chapter was not caught as expected (see $LOG/book-planted.out)"
fi

echo "== the repository speaks only of itself (tests/check-vocabulary.sh: every tracked file; a planted file)"
run_checker vocabulary tests/check-vocabulary.sh "$LOG/vocabulary.out"

echo "== the layout: stage folders are lessons, common/ is one-way, long files say why (tests/check-layout.sh)"
run_checker layout tests/check-layout.sh "$LOG/layout.out"
run_checker layout tests/check-layout.sh "$LOG/layout-self-test.out" --self-test

echo "== generated dependencies: a header changed rebuilds what includes it (tests/check-deps.sh)"
run_checker deps tests/check-deps.sh "$LOG/deps.out"

echo "== commands quoted in the book (tests/check-commands.sh; logs in build/check-commands/)"
bash tests/check-commands.sh >"$LOG/commands.out" 2>&1
rc=$?
tally commands "$LOG/commands.out"
grep -q '^FAIL:' "$LOG/commands.out" || [ $rc -eq 0 ] || bad "commands: tests/check-commands.sh exit $rc (see $LOG/commands.out)"

wait "$second_lane"
trap - EXIT INT TERM
lane_rc() { # NAME: the exit status the second lane wrote for tests/NAME's script
    local rc
    rc=$(cat "$LOG/$1.rc" 2>/dev/null) || rc=missing
    case $rc in 0 | 1 | 77) ;; *) bad "$1: its script ended with status $rc (see $LOG/$1.out)" ;; esac
}
echo "== every CPU stage on other CPUs, emulated (tests/portability.sh; logs in build/port/logs/)"
tally portability "$LOG/portability.out"
grep -qE '^(PASS|FAIL|SKIP):' "$LOG/portability.out" || bad "portability: tests/portability.sh printed no checks"
lane_rc portability

echo "== plots (tests/test_plot.sh)"
tally plot "$LOG/plot.out"
grep -qE '^(PASS|FAIL|SKIP):' "$LOG/plot.out" || bad "plot: tests/test_plot.sh printed no checks"
lane_rc plot

finish

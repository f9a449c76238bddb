# tests/lib.sh: what the two test runners share (sourced by tests/run-tests.sh and
# tests/run-tests-gpu.sh, after each has set LOG, its log folder): the counts, the verdict line,
# running a command for an exit status, tallying a checker script's PASS:/FAIL:/SKIP: lines, the
# checks of a GEMM stage (with the runner's OPTION_SETS) and a run under compute-sanitizer.
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
pass=0 fail=0 skip=0
ok()  { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
skp() { echo "SKIP: $*"; skip=$((skip + 1)); }
finish() { echo; echo "$pass passed, $fail failed, $skip skipped"; [ "$fail" -eq 0 ]; exit $?; }

SHAPES=$(grep -v '^#' tests/shapes.txt | paste -sd, -)
SMALL_SHAPES="1,7x13x5,31,33,1x97x13,97x1x13,13x97x1,67x73x71"

# expect_rc WANT DESC LOGNAME COMMAND...: output to $LOG/LOGNAME.*; DESC passes when the exit
# status is WANT. Returns the command's status.
expect_rc() {
    local want=$1 desc=$2 logname=$3; shift 3
    "$@" >"$LOG/$logname.out" 2>"$LOG/$logname.err"
    local rc=$?
    if [ "$rc" -eq "$want" ]; then ok "$desc"; else
        bad "$desc (exit $rc, want $want; log $LOG/$logname.*)"
        tail -n 5 "$LOG/$logname.out" "$LOG/$logname.err" | sed 's/^/    /'
    fi
    return $rc
}

# run_checker PREFIX SCRIPT OUT: run a stage's own checker script (its output in OUT), tally its
# lines, and fail if it exits with anything but 0.
run_checker() { # PREFIX SCRIPT OUT [ARGS...]
    local prefix=$1 script=$2 out=$3
    shift 3
    bash "$script" "$@" >"$out" 2>&1
    local rc=$?
    tally "$prefix" "$out"
    [ $rc -eq 0 ] || bad "$prefix: $script exit $rc (see $out)"
}

# tally PREFIX FILE: one pass/fail/skip per PASS:/FAIL:/SKIP: line that a checker script printed
# to FILE (a stage's tests/stages/NN_topic.sh, portability.sh, test_plot.sh, check-commands.sh); its
# indented detail lines are shown as they are.
tally() {
    local prefix=$1 file=$2 line
    while IFS= read -r line; do
        case $line in
            PASS:*) ok "$prefix: ${line#PASS: }" ;;
            FAIL:*) bad "$prefix: ${line#FAIL: }" ;;
            SKIP:*) skp "$prefix: ${line#SKIP: }" ;;
            "    "*) echo "$line" ;;
        esac
    done <"$file"
}

# own_checks DIR: the stage brings its own checks, tests/stages/DIR.sh, in place of the GEMM checks
# (a stage that is not a float GEMM, 11; one that runs under mpirun, 13): its first lines say so.
own_checks() { head -n 3 "tests/stages/$1.sh" 2>/dev/null | grep -q '^# checks: own'; }
# case_lines DIR [KIND]: the argument lines of DIR/test-cases.txt of one kind: plain (the default:
# lines make test runs), sanitizer ("sanitizer: ..." lines, make test-gpu's compute-sanitizer runs)
# or grade ("grade: ...", what make grade checks); comments and empty lines left out.
case_lines() {
    local f=$1/test-cases.txt kind=${2:-plain}
    [ -f "$f" ] || return 0
    if [ "$kind" = plain ]; then
        grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' -e '^[a-z]*:' "$f"
    else
        sed -n "s/^$kind: *//p" "$f"
    fi
}

# gemm_checks DIR BIN K0_OPTS [LABEL]: the checks every GEMM stage gets, on the CPU (run-tests.sh,
# and cpu-classes.sh as each class of CPU) and on the GPU (run-tests-gpu.sh): every variant over
# SHAPES with each option set of the runner's OPTION_SETS, K = 0 on the command line (with
# K0_OPTS: the CPU runner leaves the baseline out), the edge-case suite, each line of
# DIR/test-cases.txt, and the untouched exercise (build/grade/BIN). The lines say LABEL (DIR).
gemm_checks() {
    local dir=${4:-$1} bin=$2 k0_opts=$3 prog=${2##*/} i=0 opts args cases=$1/test-cases.txt
    for opts in "${OPTION_SETS[@]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        expect_rc 0 "$dir: all variants, awkward shapes ${opts:-(defaults)}" "$prog-shapes$i" \
            "$bin" --variant all --no-baseline --reps 1 --sizes "$SHAPES" $opts
    done
    # shellcheck disable=SC2016
    expect_rc 0 "$dir: K = 0 on the command line, C = beta*C (beta 0 with C NaN, 1.3)" "$prog-k0" \
        sh -c '"$1" --variant all $2 --reps 1 --sizes 7x13x0,1x97x0 --pad 2 &&
               "$1" --variant all $2 --reps 1 -m 33 -n 17 -k 0 --beta 1.3' - "$bin" "$k0_opts"
    expect_rc 0 "$dir: edge cases, every variant and the baseline (--edges)" "$prog-edges" \
        "$bin" --edges
    if [ -f "$cases" ]; then
        i=0
        while IFS= read -r args; do
            i=$((i + 1))
            # shellcheck disable=SC2086
            if [ "$(case_needs "$bin" $args)" ]; then # every variant it names: not on this CPU
                expect_skip "$dir: $args" "$prog-case$i" "$bin" $args
            else
                expect_rc 0 "$dir: $args" "$prog-case$i" "$bin" $args
            fi
        done < <(case_lines "$1")
    fi
    exercise_check "$dir" "$prog-exercise" \
        "build/grade/$bin" --variant all --no-baseline --reps 1 --sizes 7x13x5,33
}

# case_needs BIN ARGS...: for a line of a stage's test-cases.txt that names its variants
# (--variant a,b), what this CPU (or the class GEMM_HIDE_ISA makes of it) lacks for every one of
# them, as --list marks it ("[not here: this machine lacks AMX-BF16]"); empty when one of them
# can run, or the line names none (--variant all). A line is written for the CPU that has it all;
# on another one such a line must exit 77 (expect_skip).
case_needs() {
    local bin=$1 names="" prev="" a n
    shift
    for a in "$@"; do [ "$prev" = --variant ] && names=$a; prev=$a; done
    [ -n "$names" ] && [ "$names" != all ] || return 0
    local list lacks="" l
    list=$("$bin" "$@" --list 2>/dev/null) || return 0
    for n in ${names//,/ }; do
        l=$(echo "$list" | sed -n "s/^$n  *.*\[not here: this machine lacks \(.*\)\]\$/\1/p")
        [ -n "$l" ] || return 0
        case ",$lacks," in *",$l,"*) ;; *) lacks=${lacks:+$lacks,}$l ;; esac
    done
    echo "$lacks"
}

# expect_skip DESC LOGNAME COMMAND...: COMMAND names only variants this CPU cannot run: exit 77,
# one line on stderr that says so, nothing on stdout.
expect_skip() {
    local desc=$1 logname=$2
    shift 2
    "$@" >"$LOG/$logname.out" 2>"$LOG/$logname.err"
    local rc=$? lines
    lines=$(wc -l <"$LOG/$logname.err")
    if [ "$rc" -eq 77 ] && [ "$lines" -eq 1 ] && [ ! -s "$LOG/$logname.out" ]; then
        ok "$desc: not on this CPU, exit 77: $(sed 's/^[^:]*: //' "$LOG/$logname.err")"
    else
        bad "$desc: its variants are not on this CPU: exit $rc, $lines stderr lines (want 77 and one; log $LOG/$logname.*)"
    fi
}

# exercise_check DESC LOGNAME COMMAND...: COMMAND runs an untouched exercise, which must fail its
# checks cleanly: exit 1 and FAIL rows, no crash (exit 0: it has been solved).
exercise_check() {
    local desc=$1 log=$LOG/$2.out
    shift 2
    "$@" >"$log" 2>&1
    local rc=$?
    if [ "$rc" -eq 1 ] && grep -q FAIL "$log"; then
        ok "$desc: untouched exercise fails its checks cleanly"
    elif [ "$rc" -eq 0 ] && grep -q ' not on this CPU: ' "$log"; then
        # what ran passed, and variants were left out: the exercise's may be among them
        skp "$desc: passes what ran here; not judged, since $(grep -c ' not on this CPU: ' "$log") variant(s) are not on this CPU ($(awk '/ not on this CPU: / {print $1}' "$log" | paste -sd, -))"
    elif [ "$rc" -eq 77 ]; then
        skp "$desc: its variants are not on this CPU: $(tail -n 1 "$log")"
    elif [ "$rc" -eq 0 ]; then
        ok "$desc: exercise passes (it has been solved)"
    else
        bad "$desc: exercise exit $rc (want 1 with FAIL rows; see $log)"
    fi
}

# sanitize TOOL DESC LOGNAME COMMAND...: COMMAND under compute-sanitizer --tool TOOL ($SANITIZER);
# DESC passes when it exits 0 and the summary says 0 errors (memcheck) or 0 hazards (racecheck).
sanitize() {
    local tool=$1 desc=$2 log=$LOG/$3.out summary
    shift 3
    "$SANITIZER" --tool "$tool" --error-exitcode 99 "$@" >"$log" 2>&1
    local rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n1)
    if [ $rc -eq 0 ] && grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$log"; then
        ok "$desc: $summary"
    else
        bad "$desc: exit $rc, ${summary:-no summary} (see $log)"
        grep -m 5 -E "=========  (Invalid|Race|Error)" "$log" | sed 's/^/    /'
    fi
}

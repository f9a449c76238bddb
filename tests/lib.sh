# tests/lib.sh: what the two test runners share (sourced by tests/run-tests.sh and
# tests/run-tests-gpu.sh, after each has set LOG, its log folder): the counts, the verdict line,
# running a command for an exit status, and tallying a checker script's PASS:/FAIL:/SKIP: lines.
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
run_checker() {
    local prefix=$1 script=$2 out=$3
    bash "$script" >"$out" 2>&1
    local rc=$?
    tally "$prefix" "$out"
    [ $rc -eq 0 ] || bad "$prefix: $script exit $rc (see $out)"
}

# tally PREFIX FILE: one pass/fail/skip per PASS:/FAIL:/SKIP: line that a checker script printed
# to FILE (a stage's custom-tests.sh, portability.sh, test_plot.sh, check-commands.sh); its
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

# exercise_check PREFIX OUT COMMAND...: COMMAND runs a stage built from its exercise (output in
# OUT). Untouched, it must fail its checks cleanly: exit 1 with FAIL rows, no crash; once solved
# it passes. PREFIX (may be empty) begins each verdict line.
exercise_check() {
    local prefix=${1:+$1: } out=$2; shift 2
    "$@" >"$out" 2>&1
    local rc=$?
    if [ "$rc" -eq 1 ] && grep -q FAIL "$out"; then
        ok "${prefix}untouched exercise fails its checks cleanly"
    elif [ "$rc" -eq 0 ]; then
        ok "${prefix}exercise passes (it has been solved)"
    else
        bad "${prefix}exercise exit $rc (want 1 with FAIL rows; see $out)"
    fi
}

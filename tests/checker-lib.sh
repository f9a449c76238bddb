# tests/checker-lib.sh: what the checker scripts share (tests/baselines.sh, csv-cli.sh,
# portability.sh, test_plot.sh, test_run_charts.sh): the PASS:/FAIL:/SKIP: lines that
# tests/lib.sh's tally counts in make test; run, which keeps a command's output in $LOG (set it
# before sourcing this file); and check, which counts its own. POSIX sh, as test_plot.sh is.
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
skip() { echo "SKIP: $*"; }
# not_in_edition PATH: this is a student edition (make student-edition: STUDENT-EDITION.md at the
# top) and it leaves PATH out (the lab, an exercise's solution): a check that needs PATH skips there
not_in_edition() { [ -f STUDENT-EDITION.md ] && [ ! -e "$1" ]; }

# run NAME COMMAND...: stdout in $LOG/NAME.out, stderr in $LOG/NAME.err; sets rc
run() {
    local name=$1
    shift
    "$@" >"$LOG/$name.out" 2>"$LOG/$name.err"
    rc=$?
}

# check DESCRIPTION COMMAND...: PASS if the command succeeds, else FAIL; counted in $passed and
# $failed for the script's own last line
passed=0
failed=0
check() {
    desc=$1
    shift
    if "$@"; then
        echo "PASS: $desc"; passed=$((passed + 1))
    else
        echo "FAIL: $desc"; failed=$((failed + 1))
    fi
}

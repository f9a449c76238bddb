# tests/checker-lib.sh: what the checker scripts share (tests/baselines.sh, csv-cli.sh,
# portability.sh): the PASS:/FAIL:/SKIP: lines that tests/lib.sh's tally counts in make test,
# and run, which keeps a command's output in $LOG (set it before sourcing this file).
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
skip() { echo "SKIP: $*"; }

# run NAME COMMAND...: stdout in $LOG/NAME.out, stderr in $LOG/NAME.err; sets rc
run() {
    local name=$1
    shift
    "$@" >"$LOG/$name.out" 2>"$LOG/$name.err"
    rc=$?
}

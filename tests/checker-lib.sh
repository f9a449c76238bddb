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

# comma_locale [ROOT]: sets COMMA to the env(1) arguments of a locale whose decimal point is a comma
# (de_DE.UTF-8: the machine's, else built once into ROOT/build/locale by localedef, about 5 s), or to
# "" where none can be had (then say SKIP in a line). The scripts set LC_ALL=C themselves; a test
# runs them under this to see that they do.
comma_locale() {
    COMMA=
    if [ "$(env LC_ALL=de_DE.UTF-8 locale decimal_point 2>/dev/null)" = , ]; then
        COMMA="LC_ALL=de_DE.UTF-8"
        return
    fi
    cl_dir=${1:-$(pwd)}/build/locale
    [ -d "$cl_dir/de_DE.UTF-8" ] || { mkdir -p "$cl_dir" &&
        localedef -i de_DE -f UTF-8 "$cl_dir/de_DE.UTF-8" >/dev/null 2>&1; }
    if [ "$(env LOCPATH="$cl_dir" LC_ALL=de_DE.UTF-8 locale decimal_point 2>/dev/null)" = , ]; then
        COMMA="LOCPATH=$cl_dir LC_ALL=de_DE.UTF-8"
    else
        rm -rf "$cl_dir/de_DE.UTF-8" # (a build cut short: tried again next time)
    fi
}

# shellcheck shell=bash
# lab/scripts/check-steps.sh, sourced by the benchmark scripts that take a list of steps (STEPS=, or
# 13's ONLY=): check_steps SCRIPT VAR "KNOWN ..." GIVEN... refuses a step the script does not
# have, before it builds or creates anything: one line on stderr, exit status 2.
check_steps() {
    local who=$1 var=$2 known=$3 s
    shift 3
    for s in "$@"; do
        [[ " $known " == *" $s "* ]] || {
            echo "$who: $var: no step '$s' ($known)" >&2
            exit 2
        }
    done
}

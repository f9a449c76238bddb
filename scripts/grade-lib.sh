# scripts/grade-lib.sh: what the graders share, sourced from the repository root by
# scripts/grade.sh and by a stage that grades itself (scripts/graders/11_gf256.sh): the time limit of one
# run, and how a run that did not end by itself ended. The sourcing script sets $report, the
# file that holds a run's output.
#   GRADE_TIMEOUT=S   the time limit of one run, in seconds (default 60)
# shellcheck shell=bash disable=SC2034,SC2154 # (report: set by the sourcing script; rc, ended: read by it)
limit=${GRADE_TIMEOUT:-60}
case $limit in *[!0-9]*) echo "grade: GRADE_TIMEOUT takes a whole number of seconds ('$limit')" >&2; exit 2 ;; esac

# ending RC: how a run that did not end by itself ended ("" if it did)
ending() {
    case $1 in
        124 | 137) echo "timed out: still running after $limit s (GRADE_TIMEOUT)" ;;
        *) [ "$1" -le 128 ] || echo "crashed (SIG$(kill -l $(($1 - 128)) 2>/dev/null || echo "NAL $(($1 - 128))"))" ;;
    esac
}
# run COMMAND...: the command under the time limit, its output in $report; sets rc and ended
run() {
    { timeout -k 5 "$limit" "$@" >"$report" 2>&1 </dev/null; } 2>/dev/null # (bash's "Segmentation fault")
    rc=$?
    ended=$(ending $rc)
}
last_line() { grep -v '^[[:space:]]*$' "$report" | tail -n 1; }

#!/usr/bin/env bash
# 11_gf256's grader: `make grade STAGE=11` runs this in place of the GEMM grader (scripts/grade.sh).
# Builds the stage with exercise.c in place of gf256.c, checks every variant this machine can run
# (encode against the reference and ISA-L, every erasure set of small codes, awkward lengths), and
# times the scalar kernel and split_tables against the solution. Exit status 0 when every check passes.
#
# Each run is under the time limit of scripts/grade.sh (scripts/grade-lib.sh): one that loops
# for ever or crashes is named (timed out, or the signal that killed it) and counted as one
# failed check, and the other runs are still checked.
#   GRADE_TIMEOUT=S   the time limit of one run, in seconds (default 60)
set -u
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/grade-lib.sh
. scripts/grade-lib.sh # $limit (GRADE_TIMEOUT), ending, run, last_line
sol=11_gf256/gf256 ex=build/grade/11_gf256/gf256
echo "== grading 11_gf256/exercise.c"
make -s "$sol" "$ex" >/dev/null || { echo "grade: the build failed (messages above)"; exit 1; }
report=$(mktemp)
trap 'rm -f "$report"' EXIT
fails=0 total=0 runs=0 unfinished=0
for args in "--data 4 --parity 3 --len 1,7,33,4097 --erasures all" "--data 10 --parity 4 --len 1,63,65,100000" \
            "--data 1 --parity 1 --len 5" "--data 20 --parity 7 --len 3000 --offset 5"; do
    # shellcheck disable=SC2086
    run "$ex" $args --reps 1
    p=$(awk '/ passed, / { print $1 }' "$report") f=$(awk '/ passed, / { print $3 }' "$report")
    total=$((total + ${p:-0} + ${f:-0})) fails=$((fails + ${f:-0})) runs=$((runs + 1))
    # a run that did not finish (a time-out, a crash, refused input, no tally): one failed check
    case $rc in
        0 | 1) why=$([ -n "$p" ] || echo "no tally printed (exit $rc)") ;;
        *) why=${ended:-exit $rc: $(last_line)} ;;
    esac
    printf "  %-48s %s\n" "$args" "${p:+$p passed, $f failed${why:+, then }}$why"
    if [ -n "$why" ]; then
        total=$((total + 1)) fails=$((fails + 1)) unfinished=$((unfinished + 1))
        echo "      reproduce: $ex $args --reps 1"
    fi
    grep -E '^    [^ ]' "$report" | head -n 2 | sed 's/^/      /'
done
echo "  total: $((total - fails)) of $total checks pass$([ "$unfinished" -eq 0 ] ||
    echo "; $unfinished of $runs runs did not finish (each counted as one failed check)")"
echo "speed at RS(10,4), 1 MiB chunks, against the solution (variants that pass every check):"
if [ "$fails" -eq 0 ]; then
    for v in table split_tables; do
        run "$ex" --variant "$v" --no-check --no-baseline --len 1M
        a=$(awk -v v="$v" '$1 == v { print $8 }' "$report") rc_a=$rc ended_a=$ended
        run "$sol" --variant "$v" --no-check --no-baseline --len 1M
        b=$(awk -v v="$v" '$1 == v { print $8 }' "$report")
        if [ "$rc_a" -eq 77 ]; then
            printf "  %-14s not timed: this CPU cannot run it\n" "$v"
        elif [ -z "$a" ]; then
            printf "  %-14s not timed: its run %s\n" "$v" "${ended_a:-printed no row (exit $rc_a)}"
        elif [ -n "$b" ]; then
            awk -v v="$v" -v a="$a" -v b="$b" 'BEGIN { printf "  %-14s %8.2f GB/s, solution %8.2f: %.2fx\n", v, a, b, (b > 0 ? a / b : 0) }'
        fi
    done
else
    echo "  not timed: fix the checks first"
fi
[ "$fails" -eq 0 ] && [ "$total" -gt 0 ]

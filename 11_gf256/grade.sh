#!/usr/bin/env bash
# 11_gf256's grader: `make grade STAGE=11` runs this in place of the GEMM grader (scripts/grade.sh).
# Builds the stage with exercise.c in place of gf256.c, checks every variant this machine can run
# (encode against the reference and ISA-L, every erasure set of small codes, awkward lengths), and
# times the scalar kernel and split_tables against the solution. Exit status 0 when every check passes.
set -u
cd "$(dirname "$0")/.."
sol=11_gf256/gf256 ex=build/grade/11_gf256/gf256
echo "== grading 11_gf256/exercise.c"
make -s "$sol" "$ex" >/dev/null || { echo "grade: the build failed (messages above)"; exit 1; }
out=$(mktemp)
fails=0 total=0
for args in "--data 4 --parity 3 --len 1,7,33,4097 --erasures all" "--data 10 --parity 4 --len 1,63,65,100000" \
            "--data 1 --parity 1 --len 5" "--data 20 --parity 7 --len 3000 --offset 5"; do
    # shellcheck disable=SC2086
    "$ex" $args --reps 1 >"$out" 2>&1
    rc=$?
    p=$(awk '/ passed, / { print $1 }' "$out") f=$(awk '/ passed, / { print $3 }' "$out")
    total=$((total + ${p:-0} + ${f:-0})) fails=$((fails + ${f:-0}))
    printf "  %-48s %s passed, %s failed%s\n" "$args" "${p:-?}" "${f:-?}" "$([ "$rc" -ge 2 ] && echo " (exit $rc: a crash or refused input)")"
    [ "$rc" -ge 2 ] && fails=$((fails + 1))
    grep -E '^    [^ ]' "$out" | head -n 2 | sed 's/^/      /'
done
echo "  total: $((total - fails)) of $total checks pass"
echo "speed at RS(10,4), 1 MiB chunks, against the solution (variants that pass every check):"
if [ "$fails" -eq 0 ]; then
    for v in table split_tables; do
        a=$("$ex" --variant "$v" --no-check --no-baseline --len 1M 2>/dev/null | awk -v v="$v" '$1 == v { print $8 }')
        b=$("$sol" --variant "$v" --no-check --no-baseline --len 1M 2>/dev/null | awk -v v="$v" '$1 == v { print $8 }')
        [ -n "$a" ] && [ -n "$b" ] &&
            awk -v v="$v" -v a="$a" -v b="$b" 'BEGIN { printf "  %-14s %8.2f GB/s, solution %8.2f: %.2fx\n", v, a, b, (b > 0 ? a / b : 0) }'
    done
else
    echo "  not timed: fix the checks first"
fi
rm -f "$out"
[ "$fails" -eq 0 ] && [ "$total" -gt 0 ]

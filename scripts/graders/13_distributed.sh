#!/usr/bin/env bash
# 13_distributed's grader: `make grade STAGE=13` runs this in place of the GEMM grader
# (scripts/grade.sh), since the program runs under mpirun. Builds the stage with exercise.c in
# place of distributed.c, checks summa and summa_overlap on 1, 2, 4 and 6 ranks (grids 1x1, 1x2,
# 2x1, 2x2, 3x2) over the awkward shapes, and times them on 4 ranks against the solution.
# Exit status 0 when every check passes.
set -u
cd "$(dirname "$0")/../.."
sol=13_distributed/distributed ex=build/grade/13_distributed/distributed
echo "== grading 13_distributed/exercise.c"
make -s "$sol" "$ex" >/dev/null || { echo "grade: the build failed (messages above)"; exit 1; }
command -v mpirun >/dev/null || { echo "grade: no mpirun (scripts/install-deps.sh installs Open MPI)"; exit 1; }
MPI=(timeout 300 mpirun --allow-run-as-root -q --oversubscribe --bind-to none -x OMP_NUM_THREADS=1 -x OPENBLAS_NUM_THREADS=1)
shapes=$(grep -v '^#' tests/shapes.txt | paste -sd, -)
out=$(mktemp)
fails=0 total=0
echo "checks (the shapes of tests/shapes.txt; C is NaN before each checked run):"
for run in "1 1x1 --nb 4" "2 1x2 --nb 3 --beta 0.5" "2 2x1 --nb 5 --pad 3" "4 2x2 --nb 4 --alpha -1.5" "6 3x2 --nb 3 --beta 0.5"; do
    read -r np grid opts <<<"$run"
    # shellcheck disable=SC2086
    "${MPI[@]}" -np "$np" "$ex" --variant summa,summa_overlap --no-baseline --reps 1 --threads 1 \
        --grid "$grid" --sizes "$shapes" $opts >"$out" 2>&1
    rc=$?
    for v in summa summa_overlap; do
        p=$(awk -v v="$v" '$1 == v && $NF == "PASS"' "$out" | wc -l)
        f=$(awk -v v="$v" '$1 == v && $NF == "FAIL"' "$out" | wc -l)
        total=$((total + p + f)) fails=$((fails + f))
        printf "  %-14s %2d ranks, %s %-24s %3d of %3d pass%s\n" "$v" "$np" "$grid" "$opts" "$p" "$((p + f))" \
            "$(awk -v v="$v" '$1 == v && $NF == "FAIL" { printf (n++ < 3 ? " " $2 "x" $3 "x" $4 : "") }' "$out" | sed 's/^ / (failing e.g. /; s/$/)/; s/^)$//')"
    done
    if [ "$rc" -ge 2 ]; then
        echo "  exit $rc on $np ranks (a crash, a hang or refused input):"; tail -n 3 "$out" | sed 's/^/    /'
        fails=$((fails + 1))
    fi
done
echo "  total: $((total - fails)) of $total"
echo "speed on 4 ranks (2x2), 1024^3, nb 128, against the solution:"
if [ "$fails" -eq 0 ] && [ "$total" -gt 0 ]; then
    for v in summa summa_overlap; do
        a=$("${MPI[@]}" -np 4 "$ex" --variant "$v" --no-baseline --no-check --threads 1 -m 1024 --nb 128 2>/dev/null | awk -v v="$v" '$1 == v { print $8 }')
        b=$("${MPI[@]}" -np 4 "$sol" --variant "$v" --no-baseline --no-check --threads 1 -m 1024 --nb 128 2>/dev/null | awk -v v="$v" '$1 == v { print $8 }')
        [ -n "$a" ] && [ -n "$b" ] &&
            awk -v v="$v" -v a="$a" -v b="$b" 'BEGIN { printf "  %-14s %9.2f GFLOP/s, solution %9.2f: %.2fx\n", v, a, b, (b > 0 ? a / b : 0) }'
    done
else
    echo "  not timed: fix the checks first"
fi
rm -f "$out"
[ "$fails" -eq 0 ] && [ "$total" -gt 0 ]

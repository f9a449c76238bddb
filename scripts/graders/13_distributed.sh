#!/usr/bin/env bash
# 13_distributed's checks and timing, for scripts/grade.sh in place of the GEMM stages'
# (scripts/graders/gemm.sh, which says what the GRADE_* variables are; scripts/grade-lib.sh what
# the records this leaves in $GRADE_WORK hold), since the program runs under mpirun.
#
# summa and summa_overlap on 1, 2, 4 and 6 ranks (grids 1x1, 1x2, 2x1, 2x2, 3x2) over the awkward
# shapes, each run under the time limit; the 2-rank run again in the ASan + UBSan build (one run
# of it: under mpirun the sanitizers cost minutes a run). Then, once every check passes, each
# timed on 4 ranks (2x2) against the solution.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/grade-lib.sh
. scripts/grade-lib.sh # limit (GRADE_TIMEOUT), run, ending, check_row, fail_rest, merge_sanitizer, timed_rounds
w=$GRADE_WORK size=$GRADE_SIZE
report=$w/out
: >"$w/checks.tsv"
: >"$w/notrun.tsv"
: >"$w/speed.tsv"
VARIANTS=(summa summa_overlap)
RUNS=("1 1x1 --nb 4" "2 1x2 --nb 3 --beta 0.5" "2 2x1 --nb 5 --pad 3" "4 2x2 --nb 4 --alpha -1.5" "6 3x2 --nb 3 --beta 0.5")
SANITIZER_RUN=1 # the run of RUNS the sanitizer build repeats
cat >"$w/about" <<EOF
checks=every shape in tests/shapes.txt on 1, 2, 4 and 6 ranks (grids 1x1, 1x2, 2x1, 2x2, 3x2)$([ -n "$GRADE_EX_ASAN" ] && echo "; the 2-rank 1x2 run also under AddressSanitizer and UBSan")
speed=at ${size}^3 on 4 ranks (2x2), nb 128, against the solution
unit=GFLOP/s
EOF
command -v mpirun >/dev/null || { echo "no mpirun (scripts/install-deps.sh installs Open MPI)" >"$w/nograde"; exit 0; }
MPI=(mpirun --allow-run-as-root -q --oversubscribe --bind-to none -x OMP_NUM_THREADS=1 -x OPENBLAS_NUM_THREADS=1
     -x ASAN_OPTIONS -x UBSAN_OPTIONS)
shapes=$(grep -v '^#' tests/shapes.txt | paste -sd, -)
read -ra expect <<<"$(echo "$shapes" | tr ',' ' ')"
for i in "${!expect[@]}"; do
    case ${expect[$i]} in *x*) ;; *) expect[$i]=${expect[$i]}x${expect[$i]}x${expect[$i]} ;; esac
done

# check_run BIN NAME NP GRID OPTS OUT: one run, both variants, every shape; a row a check into OUT
check_run() {
    local bin=$1 name=$2 np=$3 grid=$4 opts=$5 out=$6 label n s v got
    local GRADE_WORK=$w/one
    mkdir -p "$GRADE_WORK"
    : >"$GRADE_WORK/checks.tsv"
    label="$np rank$([ "$np" -gt 1 ] && echo s), grid $grid $opts"
    rm -f "$w/run.csv"
    # shellcheck disable=SC2086
    run "${MPI[@]}" -np "$np" "$bin" --variant summa,summa_overlap --no-baseline --reps 1 --threads 1 \
        --grid "$grid" --sizes "$shapes" $opts --csv "$w/run.csv"
    # the rows in the order the program writes them: every variant at a shape, shape by shape
    mapfile -t got < <(awk -F, 'FNR > 1 { print $2 "\t" $3 "x" $4 "x" $5 "\t" $17 "\t" $16 }' "$w/run.csv" 2>/dev/null)
    n=0
    local why ended_at=""
    for s in "${expect[@]}"; do
        for v in "${VARIANTS[@]}"; do
            local cmd="mpirun -np $np --oversubscribe $name --variant $v --grid $grid --sizes $s $opts --no-baseline --reps 1 --threads 1"
            if [ -z "$ended_at" ] && [ "$n" -lt "${#got[@]}" ] && [ "$(cut -f1,2 <<<"${got[$n]}")" = "$v"$'\t'"$s" ]; then
                IFS=$'\t' read -r _ _ verdict ratio <<<"${got[$n]}"
                case $verdict:$ratio in
                    FAIL:inf | FAIL:nan | FAIL:-nan) why="an element of C is not finite (NaN or Inf, or never written: C is NaN before the call)" ;;
                    FAIL:*) why="the largest error is ${ratio}x the bound" ;;
                    *) why="" ;;
                esac
                check_row "$v" "$s" "$label" "$verdict" "$why" "$cmd"
                n=$((n + 1))
                continue
            fi
            if [ -z "$ended_at" ]; then
                ended_at=$s
                case $rc in 0 | 1) why="no row written for it (exit $rc)" ;; *) why=${ended:-exit $rc (a crash, a hang or refused input): $(last_line)} ;; esac
                echo "  $v, $label, $s: $why$([ "$bin" = "${GRADE_EX_ASAN:-}" ] && echo " (sanitizer build)")" # as it happens
            else
                why="not run: the run ended at $ended_at"
            fi
            check_row "$v" "$s" "$label" FAIL "$why" "$cmd"
        done
    done
    cat "$GRADE_WORK/checks.tsv" >>"$out"
}
: >"$w/rel.tsv"
for r in "${!RUNS[@]}"; do
    read -r np grid opts <<<"${RUNS[$r]}"
    check_run "$GRADE_EX" "$GRADE_EX_NAME" "$np" "$grid" "$opts" "$w/rel.tsv"
done
if [ -n "$GRADE_EX_ASAN" ]; then
    read -r np grid opts <<<"${RUNS[$SANITIZER_RUN]}"
    : >"$w/asan.tsv"
    check_run "$GRADE_EX_ASAN" "$GRADE_EX_ASAN_NAME" "$np" "$grid" "$opts" "$w/asan.tsv"
    merge_sanitizer "$w/rel.tsv" "$w/asan.tsv" >>"$w/checks.tsv"
else
    cat "$w/rel.tsv" >>"$w/checks.tsv"
fi
# (grade.sh's report lists a variant's checks together)
awk -F'\t' -v OFS='\t' '{ print ($1 == "summa" ? 0 : 1), NR, $0 }' "$w/checks.tsv" | sort -t$'\t' -k1,1n -k2,2n | cut -f3- >"$w/sorted" &&
    mv "$w/sorted" "$w/checks.tsv"

[ "${GRADE_SPEED:-on}" = off ] && exit 0
# timed BIN V: one timed run on 4 ranks: "gflops - load - -"
timed() {
    rm -f "$w/timed.csv"
    { scripts/bench-lock timeout -k 5 "$limit" "${MPI[@]}" -np 4 "$1" --variant "$2" --no-baseline --no-check \
        --threads 1 --grid 2x2 -m "$size" --nb 128 --csv "$w/timed.csv" >"$report" 2>&1 </dev/null; } 2>/dev/null
    local rc=$? load
    load=$(busy_load)
    awk -F, -v v="$2" -v l="$load" 'FNR > 1 && $2 == v { print $13, "-", l, "-", "-" }' "$w/timed.csv" 2>/dev/null
    return $rc
}
for v in "${VARIANTS[@]}"; do
    if awk -F'\t' '$4 == "FAIL" { bad = 1 } END { exit !bad }' "$w/checks.tsv"; then
        printf '%s\t\t\tnot timed: fix the checks first\n' "$v" >>"$w/speed.tsv"; continue
    fi
    time_rounds "$v" GFLOP/s "on 4 ranks" >>"$w/speed.tsv"
done
exit 0

#!/usr/bin/env bash
# The checks and timing of a GEMM stage's exercise, for scripts/grade.sh (which builds it, sets
# the GRADE_* variables below and prints the report from the records this leaves in $GRADE_WORK:
# scripts/grade-lib.sh says what they hold).
#
# The exercise's variants (every variant of the table, or the "grade:" lines of the stage's
# test-cases.txt; GRADE_VARIANTS=a,b keeps only those) over the awkward shapes of
# tests/shapes.txt with three option sets, then the edge-case suite (--edges), each variant in
# runs of its own under the time limit. Everything twice where the stage has a sanitizer build
# (the CPU stages): the release build, whose guards around A, B and C catch a write past a matrix
# or into an input, and the ASan + UBSan build, which catches any read or write out of bounds and
# names its line; a check passes when it passes in both. A run that loops is stopped and its
# variant's other checks fail unrun; after a crash (or a sanitizer's stop) the shapes left run
# again without the one it ended on. Then each variant that passes every check is timed against
# the solution (GRADE_SPEED=off: not).
#
#   GRADE_WORK      a private folder for the records and the runs' files
#   GRADE_EX, GRADE_EX_ASAN, GRADE_SOL   the programs (GRADE_EX_ASAN empty: no sanitizer build)
#   GRADE_EX_NAME, GRADE_EX_ASAN_NAME    the same as a reproduce command names them
#   GRADE_DIR, GRADE_KIND (cpu or gpu), GRADE_SIZE, GRADE_SPEED, GRADE_VARIANTS, GRADE_SHAPES
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/grade-lib.sh
. scripts/grade-lib.sh # limit (GRADE_TIMEOUT), run, ending, check_row, fail_rest, merge_sanitizer, timed_rounds
w=$GRADE_WORK dir=$GRADE_DIR size=$GRADE_SIZE
report=$w/out
: >"$w/checks.tsv"
: >"$w/notrun.tsv"
: >"$w/speed.tsv"
OPTION_SETS=("" "--alpha -1.5 --beta 0.5" "--pad 5")
cat >"$w/about" <<EOF
checks=every shape in $([ -n "${GRADE_SHAPES:-}" ] && echo "GRADE_SHAPES ($GRADE_SHAPES)" || echo tests/shapes.txt); options: defaults, --alpha -1.5 --beta 0.5, --pad 5; then --edges$([ -n "$GRADE_EX_ASAN" ] && echo "; each also under AddressSanitizer and UBSan")
speed=at ${size}^3 against the solution
unit=GFLOP/s
EOF

# the shapes as MxNxK, in the order the harness runs them (GRADE_SHAPES=LIST: those instead)
read -ra shapes <<<"$(if [ -n "${GRADE_SHAPES:-}" ]; then echo "$GRADE_SHAPES"; else grep -v '^#' tests/shapes.txt; fi | tr ',' ' ' | tr '\n' ' ')"
for i in "${!shapes[@]}"; do
    case ${shapes[$i]} in *x*) ;; *) shapes[$i]=${shapes[$i]}x${shapes[$i]}x${shapes[$i]} ;; esac
done

# shape_rows V: the checked rows of $w/run.csv for variant V as "MxNxK<TAB>PASS|FAIL<TAB>why",
# the reasons taken in order from the harness's "first bad element" lines
shape_rows() {
    whys "first bad element: " >"$w/whys"
    awk -F, -v v="$1" 'FILENAME == ARGV[1] { why[++nw] = $0; next }
        FNR > 1 && $2 == v && ($14 == "PASS" || $14 == "FAIL") {
            print $3 "x" $4 "x" $5 "\t" $14 "\t" ($14 == "FAIL" ? why[++k] : "") }' "$w/whys" "$w/run.csv" 2>/dev/null
}
# edge_rows V CSV: the rows of an --edges CSV for variant V as "case<TAB>shape<TAB>PASS|FAIL<TAB>why"
edge_rows() {
    awk -F, -v v="$1" 'FNR > 1 && $2 == v { gsub(/;/, ",", $3); gsub(/;/, ",", $8); print $3 "\t" $4 "\t" $7 "\t" $8 }' "$2" 2>/dev/null
}

# note LINE: how a run ended, as it happens: the first three of a variant's runs in a build, then
# one line that says the report counts the rest
note() {
    noted=$((noted + 1))
    [ "$noted" -le 3 ] && echo "$1"
    [ "$noted" -ne 4 ] || echo "  $v: more of its runs ended early$([ "$bin" = "${GRADE_EX_ASAN:-}" ] && echo " in the sanitizer build"); the report counts them"
}
# check V PRE BIN NAME OUT: every shape with each option set, then --edges, by program BIN (NAME in
# the commands shown), each run alone under the time limit, one line a check into OUT (a file of
# checks.tsv's form). Returns 77 when the variant cannot run here (its line in notrun.tsv).
check() {
    local v=$1 pre=$2 bin=$3 name=$4 out=$5 opts left n lines stop= why cmd row shape verdict noted=0
    local GRADE_WORK=$w/one # (check_row writes to $GRADE_WORK/checks.tsv)
    mkdir -p "$GRADE_WORK"
    : >"$GRADE_WORK/checks.tsv"
    for opts in "${OPTION_SETS[@]}"; do
        left=("${shapes[@]}")
        cmd=$(echo "$name" $pre --variant "$v" --sizes @CASE@ $opts --no-baseline --reps 1)
        while [ "${#left[@]}" -gt 0 ]; do
            if [ -n "$stop" ]; then
                fail_rest "$v" "${opts:-defaults}" "$stop" "$stop" "$cmd" "${left[@]}"
                break
            fi
            rm -f "$w/run.csv"
            # shellcheck disable=SC2086
            run "$bin" $pre --variant "$v" --no-baseline --reps 1 --time-limit "$limit" \
                --sizes "$(IFS=,; echo "${left[*]}")" $opts --csv "$w/run.csv"
            if [ "$rc" -eq 77 ]; then
                printf '%s\t%s\n' "$v" "$(last_line)" >>"$w/notrun.tsv"
                return 77
            fi
            # the rows written, in the order asked for: a row for another shape ends the count
            n=0
            while IFS=$'\t' read -r shape verdict why; do
                [ "$n" -lt "${#left[@]}" ] && [ "$shape" = "${left[$n]}" ] || break
                check_row "$v" "$shape" "${opts:-defaults}" "$verdict" "$why" "${cmd//@CASE@/$shape}"
                n=$((n + 1))
            done < <(shape_rows "$v")
            left=("${left[@]:n}")
            [ "${#left[@]}" -gt 0 ] || break
            # the shapes the run did not reach: the first is where it ended
            case $rc in
                124 | 137) stop="not run: $v timed out earlier" ;;
                0 | 1) ended="no row written for it (exit $rc)" ;;
                *) [ -n "$ended" ] || ended="exit $rc: $(last_line)" ;;
            esac
            note "  $v, ${opts:-default options}, ${left[0]}: $ended$([ "$bin" = "${GRADE_EX_ASAN:-}" ] && echo " (sanitizer build)")"
            if [ "$rc" -gt 128 ] || [ "$rc" -eq "$SANITIZER_EXIT" ] && [ -z "$stop" ]; then # the rest again, without it
                fail_rest "$v" "${opts:-defaults}" "$ended" "" "$cmd" "${left[0]}"
                left=("${left[@]:1}")
                continue
            fi
            fail_rest "$v" "${opts:-defaults}" "$ended" "${stop:-not run: the run ended at an earlier shape}" "$cmd" "${left[@]}"
            break
        done
    done
    # the edge-case suite, every rule of common/gemm.h: one row per case
    cmd=$(echo "$name" $pre --variant "$v" --edges --no-baseline)
    n=0
    if [ -z "$stop" ]; then
        rm -f "$w/edges.csv"
        # shellcheck disable=SC2086
        run "$bin" $pre --variant "$v" --no-baseline --edges --csv "$w/edges.csv"
        while IFS=$'\t' read -r row shape verdict why; do
            check_row "$v" "$shape" "--edges: $row" "$verdict" "$why" "$cmd"
            n=$((n + 1))
        done < <(edge_rows "$v" "$w/edges.csv")
        if [ "$rc" -gt 1 ]; then
            why=${ended:-exit $rc: $(last_line)}
            note "  $v, --edges: $why$([ "$bin" = "${GRADE_EX_ASAN:-}" ] && echo " (sanitizer build)")"
            stop="not run: the --edges run ended at an earlier case"
        fi
    else
        why=$stop
    fi
    if [ -n "$stop" ]; then # the cases it did not reach, named as the solution's run names them
        rm -f "$w/sol-edges.csv"
        # shellcheck disable=SC2086
        run "$GRADE_SOL" $pre --variant "$v" --no-baseline --edges --csv "$w/sol-edges.csv"
        lines=$(edge_rows "$v" "$w/sol-edges.csv" | tail -n +$((n + 1)))
        [ -n "$lines" ] || lines=$(printf 'the edge cases\t-\tFAIL\t')
        local first=1
        while IFS=$'\t' read -r row shape verdict _; do
            check_row "$v" "$shape" "--edges: $row" FAIL "$([ $first -eq 1 ] && echo "$why" || echo "$stop")" "$cmd"
            first=0
        done <<<"$lines"
    fi
    cat "$GRADE_WORK/checks.tsv" >>"$out"
}

# what to grade: every variant, or the "grade:" lines of the stage's test-cases.txt, each the program's
# options that choose them (12: its BF16 variants, then --fp32 --variant mma_tf32,mma_3xtf32).
# A stage whose table also lists kernels the exercise does not touch (an earlier stage's,
# linked for comparison; a variant solved for you) names the exercise's own there, so that
# only what the student wrote is checked and timed.
modes=("--variant all")
[ -f "$dir/test-cases.txt" ] && mapfile -t modes < <(sed -n 's/^grade: *//p' "$dir/test-cases.txt")
[ "${#modes[@]}" -gt 0 ] || modes=("--variant all")
graded=() # "variant<TAB>options besides --variant", in order
for mode in "${modes[@]}"; do
    pre=$(printf '%s' "$mode" | sed 's/--variant [^ ]*//; s/  */ /g; s/^ //; s/ $//') # besides --variant
    names=$(printf '%s' "$mode" | sed -n 's/.*--variant \([^ ]*\).*/\1/p')
    # all: every variant the table lists, those this machine cannot run among them (they are
    # named as not graded, never silently left out)
    # shellcheck disable=SC2086
    [ "${names:-all}" = all ] && names=$("$GRADE_SOL" $pre --list 2>/dev/null | awk '{ print $1 }' | paste -sd, -)
    for v in ${names//,/ }; do
        [ -z "${GRADE_VARIANTS:-}" ] || case ",$GRADE_VARIANTS," in *",$v,"*) ;; *) continue ;; esac
        : >"$w/rel.tsv"
        check "$v" "$pre" "$GRADE_EX" "$GRADE_EX_NAME" "$w/rel.tsv"
        [ $? -eq 77 ] && continue
        if [ -n "$GRADE_EX_ASAN" ]; then
            : >"$w/asan.tsv"
            check "$v" "$pre" "$GRADE_EX_ASAN" "$GRADE_EX_ASAN_NAME" "$w/asan.tsv"
            merge_sanitizer "$w/rel.tsv" "$w/asan.tsv" >>"$w/checks.tsv"
        else
            cat "$w/rel.tsv" >>"$w/checks.tsv"
        fi
        graded+=("$v"$'\t'"$pre")
    done
done

# The speed of each variant that passed every check, against the solution. Each timed run
# alternates the variant with the vendor library (the harness's pairs), so that exercise and
# solution are compared through the library measured beside each: a machine busier during one
# run than the other moves both of its rates, not the comparison. Three rounds, solution then
# exercise, each under the benchmark lock.
# timed BIN V PRE: one timed run's variant row as "gflops baseline_gflops load spread library";
# the run's exit status
timed() {
    rm -f "$w/timed.csv"
    # shellcheck disable=SC2086
    { scripts/bench-lock timeout -k 5 "$limit" "$1" $3 --variant "$2" --no-check --sizes "$size" \
        --time-limit 5 --csv "$w/timed.csv" >"$report" 2>&1 </dev/null; } 2>/dev/null
    local rc=$?
    awk -F, -v v="$2" 'FNR > 1 && $2 == v { for (i = 10; i <= 20; i++) if ($i == "") $i = "-"; print $10, $12, $19, $20, $11 }' "$w/timed.csv" 2>/dev/null
    return $rc
}
[ "${GRADE_SPEED:-on}" = off ] && exit 0
for entry in "${graded[@]}"; do
    IFS=$'\t' read -r v pre <<<"$entry"
    if awk -F'\t' -v v="$v" '$1 == v && $4 == "FAIL" { bad = 1 } END { exit !bad }' "$w/checks.tsv"; then
        printf '%s\t\t\tnot timed: fix its checks first\n' "$v" >>"$w/speed.tsv"; continue
    fi
    time_rounds "$v" GFLOP/s "at $size" "$pre" >>"$w/speed.tsv"
done
exit 0

#!/usr/bin/env bash
# make grade STAGE=NN: build stage NN with exercise.c (or .cu) in place of the solution's
# kernel file, check the exercise's variants over the awkward shapes and the edge-case suite
# (--edges: BLAS's rules, NaN/Inf propagation, overflow), time each against the solution,
# and print a short report. Exit status 0 when every check passes, 1 when one fails, 77 when
# this machine can run none of the exercise's variants (a CPU without AMX, no GPU).
#
# Each variant runs alone, under a time limit, so that one that loops forever or crashes is
# named (timed out, or the signal that killed it) and the others are still checked; after a
# crash the variant's remaining shapes are run again without the one it crashed on.
#   GRADE_TIMEOUT=S   the time limit of one run, in seconds (default 60)
#   GRADE_SIZE=N      the size of the timed runs (default 512, 2048 on a GPU)
set -u
cd "$(dirname "$0")/.."
stage=${1:-}
[ -n "$stage" ] || { echo "usage: make grade STAGE=NN (one of: $(make -s list-stages | cut -c1-2 | sort | paste -sd' '))" >&2; exit 2; }
# STAGE=2, 02, 02_loop_order and loop_order all name stage 02
num=$(case $stage in [0-9] | [0-9][0-9]) printf %02d "$((10#$stage))" ;; esac)
line=$(make -s list-stages | awk -v s="$stage" -v n="$num" '$1 == s || $2 == s || (n != "" && substr($1, 1, 3) == n "_")')
[ -n "$line" ] || { echo "grade: no stage $stage (one of: $(make -s list-stages | cut -c1-2 | sort | paste -sd' '))" >&2; exit 2; }
read -r dir prog kind <<<"$line"
# shellcheck source=scripts/grade-lib.sh
. scripts/grade-lib.sh # $limit (GRADE_TIMEOUT), ending, run, last_line
size=${GRADE_SIZE:-$([ "$kind" = gpu ] && echo 2048 || echo 512)}
case $size in *[!0-9]*) echo "grade: GRADE_SIZE takes a whole number ('$size')" >&2; exit 2 ;; esac
# a stage that is not a float GEMM (11_gf256) grades itself
[ -f "scripts/graders/$dir.sh" ] && exec bash "scripts/graders/$dir.sh"
sol=$dir/$prog ex=build/grade/$dir/$prog
echo "== grading $dir/exercise.$([ "$kind" = gpu ] && echo cu || echo c)"
make -s "$sol" "$ex" >/dev/null || { echo "grade: the build failed (messages above)"; exit 1; }

# the shapes as MxNxK, in the order the harness runs them
read -ra shapes <<<"$(grep -v '^#' tests/shapes.txt | tr ',' ' ' | tr '\n' ' ')"
for i in "${!shapes[@]}"; do
    case ${shapes[$i]} in *x*) ;; *) shapes[$i]=${shapes[$i]}x${shapes[$i]}x${shapes[$i]} ;; esac
done
report=$(mktemp) rows=$(mktemp) notrun=$(mktemp) times=$(mktemp)
trap 'rm -f "$report" "$rows" "$notrun" "$times"' EXIT

# One line per check in $rows: variant, shape, options, PASS/FAIL, why (the harness's "first
# bad element", or how the run ended), the options that chose the variant, the command that
# shows it.
# shape_rows PRE OPTS: the rows of a shapes run in $report
shape_rows() {
    awk -v o="$(echo $1 $2)" -v p="$1" -v ex="$ex" -v opts="$2" '
        function flush() { if (row != "") print row "\t" why "\t" p "\t" cmd; row = why = "" }
        # the verdict column; a row may go on after it ("busy: others used 1.4 cores")
        function verdict(  i) { for (i = 5; i <= NF; i++) if ($i == "PASS" || $i == "FAIL") return $i; return "" }
        /^[^ ]/ && verdict() != "" { flush(); row = $1 "\t" $2 "x" $3 "x" $4 "\t" o "\t" verdict()
            cmd = ex " " (p == "" ? "" : p " ") "--variant " $1 " --sizes " $2 "x" $3 "x" $4 (opts == "" ? "" : " " opts) " --no-baseline --reps 1"; next }
        row != "" && /^    first bad element: / { why = substr($0, 24) }
        END { flush() }' "$report"
}
# shape_todo V PRE OPTS SHAPE...: the rows those shapes would have, verdict FAIL, no reason yet
shape_todo() {
    local v=$1 pre=$2 opts=$3 s
    shift 3
    for s in "$@"; do
        printf '%s\t%s\t%s\tFAIL\t\t%s\t%s\n' "$v" "$s" "$(echo $pre $opts)" "$pre" \
            "$(echo $ex $pre --variant "$v" --sizes "$s" $opts --no-baseline --reps 1)"
    done
}
# edge_rows PRE: the rows of an --edges run in $report
edge_rows() {
    awk -v p="$1" -v ex="$ex" '
        function trim(x) { gsub(/^ +| +$/, "", x); return x }
        function flush() { if (row != "") print row "\t" why "\t" p "\t" cmd; row = why = "" }
        /^[^ ]/ && ($NF == "PASS" || $NF == "FAIL") && length($0) > 70 {
            flush(); v = trim(substr($0, 1, 16))
            row = v "\t" trim(substr($0, 59, 12)) "\t--edges: " trim(substr($0, 18, 40)) "\t" $NF
            cmd = ex " " (p == "" ? "" : p " ") "--variant " v " --edges --no-baseline"; next }
        row != "" && /^    [^ ]/ && why == "" { why = substr($0, 5) }
        END { flush() }' "$report"
}
# unchecked ROWS FIRST REST: ROWS (checks that got no verdict) failed, the first because of
# FIRST, the others because of REST; into $rows
unchecked() {
    [ -n "$1" ] || return 0
    awk -F'\t' -v OFS='\t' -v first="$2" -v rest="${3:-}" '{ $4 = "FAIL"; $5 = (NR == 1 ? first : rest); print }' <<<"$1" >>"$rows"
}

# check V PRE: every shape with each option set, then --edges, each run alone under the time
# limit. After a crash the shapes left are run again without the one it crashed on; after a
# time-out nothing more is run (each would wait as long) and what is left fails unchecked.
# Returns 77 when the variant cannot run here (its line in $notrun).
check() {
    local v=$1 pre=$2 opts left n lines stop= why
    for opts in "" "--alpha -1.5 --beta 0.5" "--pad 5"; do
        left=("${shapes[@]}")
        while [ "${#left[@]}" -gt 0 ]; do
            if [ -n "$stop" ]; then
                unchecked "$(shape_todo "$v" "$pre" "$opts" "${left[@]}")" "$stop" "$stop"
                break
            fi
            # shellcheck disable=SC2086
            run "$ex" $pre --variant "$v" --no-baseline --reps 1 --time-limit "$limit" \
                --sizes "$(IFS=,; echo "${left[*]}")" $opts
            if [ "$rc" -eq 77 ]; then
                printf '%s\t%s\n' "$v" "$(last_line)" >>"$notrun"
                return 77
            fi
            lines=$(shape_rows "$pre" "$opts")
            [ -z "$lines" ] || printf '%s\n' "$lines" >>"$rows"
            n=$(grep -c . <<<"$lines")
            left=("${left[@]:n}")
            [ "${#left[@]}" -gt 0 ] || break
            # the shapes the run did not reach: the first is where it ended
            lines=$(shape_todo "$v" "$pre" "$opts" "${left[@]}")
            case $rc in
                124 | 137) stop="not run: $v timed out earlier" ;;
                0 | 1) ended="no row printed for it (exit $rc)" ;;
                *) [ -n "$ended" ] || ended="exit $rc: $(last_line)" ;;
            esac
            echo "  $v, ${opts:-default options}, ${left[0]}: $ended" # as it happens
            if [ "$rc" -gt 128 ] && [ -z "$stop" ]; then # crashed: the rest again, without it
                unchecked "$(head -n 1 <<<"$lines")" "$ended"
                left=("${left[@]:1}")
                continue
            fi
            unchecked "$lines" "$ended" "${stop:-not run: the run ended at an earlier shape}"
            break
        done
    done
    # the edge-case suite, every rule of common/gemm.h: one row per case, the reason under a FAIL
    if [ -z "$stop" ]; then
        # shellcheck disable=SC2086
        run "$ex" $pre --variant "$v" --no-baseline --edges
        lines=$(edge_rows "$pre")
        [ -z "$lines" ] || printf '%s\n' "$lines" >>"$rows"
        [ "$rc" -le 1 ] && return 0
        why=${ended:-exit $rc: $(last_line)}
        echo "  $v, --edges: $why"
        n=$(grep -c . <<<"$lines")
        stop="not run: the --edges run ended at an earlier case"
    else
        why=$stop n=0
    fi
    # the cases it did not reach, named as the solution's run names them
    # shellcheck disable=SC2086
    run "$sol" $pre --variant "$v" --no-baseline --edges
    lines=$(edge_rows "$pre" | tail -n +$((n + 1)))
    [ -n "$lines" ] || lines=$(printf '%s\t-\t--edges\tFAIL\t\t%s\t%s' "$v" "$pre" "$ex $pre --variant $v --edges --no-baseline")
    unchecked "$lines" "$why" "$stop"
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
    [ "${names:-all}" = all ] && names=$("$ex" $pre --list 2>/dev/null | awk '{ print $1 }' | paste -sd, -)
    for v in ${names//,/ }; do
        check "$v" "$pre" && graded+=("$v"$'\t'"$pre")
    done
done
echo "checks (every shape in tests/shapes.txt; options: defaults, --alpha -1.5 --beta 0.5, --pad 5; then --edges):"
# per variant, in the table's order: the count, how a run ended if it did not end by itself,
# a few failing shapes, then the first failure (the first option set, then the first shape),
# why it failed and the command that shows it
awk -F'\t' '
    !($1 in n) { order[++nv] = $1 }
    { n[$1]++; opts = ($3 == "" ? "defaults" : $3) }
    $4 == "PASS" { ok[$1]++ }
    $4 == "FAIL" && $5 ~ /^crashed/ && !($1 in ended) { ended[$1] = "; " $5 " at " $2 " (" opts ")" }
    $4 == "FAIL" && $5 ~ /^timed out: / && !($1 in ended) { ended[$1] = "; timed out at " $2 " (" opts "): " substr($5, 12) }
    $4 == "FAIL" && $5 ~ /^crashed/ { crashes[$1]++ }
    $4 == "FAIL" && nf[$1]++ < 4 { eg[$1] = eg[$1] " " $2 " (" opts ")" }
    $4 == "FAIL" && !($1 in first) {
        first[$1] = $2 " (" opts "): " ($5 == "" ? "no diagnostic printed" : $5)
        cmd[$1] = $7 }
    END { for (k = 1; k <= nv; k++) { v = order[k]
            if (crashes[v] > 1) ended[v] = ended[v] " and " crashes[v] - 1 " more"
            printf "  %-16s %3d of %3d pass%s%s\n", v, ok[v], n[v], ended[v], (v in eg ? "; failing e.g." eg[v] : "")
            if (v in first) printf "      first failure: %s\n      reproduce:     %s\n", first[v], cmd[v] } }' "$rows"
while IFS=$'\t' read -r v why; do
    printf "  %-16s not graded: it cannot run here (%s)\n" "$v" "$why"
done <"$notrun"
total=$(wc -l <"$rows"); good=$(awk -F'\t' '$4 == "PASS"' "$rows" | wc -l)
echo "  total: $good of $total$([ -s "$notrun" ] && echo "; $(wc -l <"$notrun") variant(s) not graded on this machine")"
if [ "$total" -eq 0 ] && [ -s "$notrun" ]; then
    # (the program's line without its name and "skipped": "--variant amx_naive needs AMX-BF16, ...")
    why=$(cut -f2 "$notrun" | sed 's/^[^ :]*: //; s/: skipped$//' | sort -u | paste -sd';' | sed 's/;/; /g')
    echo "grade: nothing graded, so no pass: this $([ "$kind" = gpu ] && echo machine || echo CPU) cannot run the exercise ($why)"
    exit 77
fi

# The speed of each variant that passed every check, against the solution. Each timed run
# alternates the variant with the vendor library (the harness's pairs), so that exercise and
# solution are compared through the library measured beside each: a machine busier during one
# run than the other moves both of its rates, not the comparison. Three rounds, solution then
# exercise, each under the benchmark lock. The spread is the larger of the harness's (the two
# runs' spreads added) and how far the three rounds' ratios lie apart; past NOISY, no number:
# chapters' steps differ by 2x and more, and a verdict within +-25% still tells "as fast" from
# "half as fast", where four grades of one kernel on a shared machine read 0.38x to 1.06x.
NOISY=0.25
# timed BIN V PRE: one timed run's variant row as "gflops baseline_gflops load spread library";
# the run's exit status
timed() {
    # shellcheck disable=SC2086
    { scripts/bench-lock timeout -k 5 "$limit" "$1" $3 --variant "$2" --no-check --sizes "$size" \
        --time-limit 5 --csv - >"$report" 2>/dev/null </dev/null; } 2>/dev/null
    local rc=$?
    awk -F, -v v="$2" '$2 == v { for (i = 10; i <= 20; i++) if ($i == "") $i = "-"; print $10, $12, $19, $20, $11 }' "$report"
    return $rc
}
echo "speed at ${size}^3 against the solution (variants that pass every check):"
for entry in "${graded[@]}"; do
    IFS=$'\t' read -r v pre <<<"$entry"
    if awk -F'\t' -v v="$v" '$1 == v && $4 == "FAIL" { bad = 1 } END { exit !bad }' "$rows"; then
        printf "  %-16s not timed: fix its checks first\n" "$v"; continue
    fi
    : >"$times"
    for _ in 1 2 3; do
        t_sol=$(timed "$sol" "$v" "$pre")
        t_ex=$(timed "$ex" "$v" "$pre")
        rc=$?
        if [ "$rc" -ne 0 ] || [ -z "$t_ex" ]; then
            why=$(ending $rc)
            printf "  %-16s not timed: its run at %s %s\n" "$v" "$size" "${why:-exited $rc}"
            : >"$times"; break
        fi
        [ -z "$t_sol" ] || echo "$t_ex $t_sol" >>"$times"
    done
    [ -s "$times" ] && awk -v v="$v" -v noisy="$NOISY" '
        function median(x, n,  i, j, t) {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
            return x[int((n + 1) / 2)] }
        # the rate against the library beside it, where there was one
        function rel(g, b) { return (b != "-" && b > 0) ? g / b : g }
        { n++; ge[n] = $1; gs[n] = $6; q[n] = rel($1, $2) / rel($6, $7)
          s[n] = ($4 == "-" ? 0 : $4) + ($9 == "-" ? 0 : $9)
          if ($3 != "-" && $3 > load) load = $3
          if ($8 != "-" && $8 > load) load = $8
          lo = (n == 1 || q[n] < lo) ? q[n] : lo; hi = (n == 1 || q[n] > hi) ? q[n] : hi; lib = $5 }
        END { for (i = 1; i <= n; i++) qq[i] = q[i]
              r = median(qq, n); spread = median(s, n)
              if (n > 1 && r > 0 && 0.5 * (hi - lo) / r > spread) spread = 0.5 * (hi - lo) / r
              busy = load >= 0.5 ? sprintf("; busy: others used %.1f cores", load) : ""
              how = sprintf("%d rounds, each against %s", n, lib)
              if (spread > noisy)
                  printf "  %-16s too noisy to judge: %.3gx to %.3gx the solution, \302\261%.0f%% (%s)%s\n", v, lo, hi, 100 * spread, how, busy
              else
                  printf "  %-16s %9.2f GFLOP/s, solution %9.2f: %.2fx \302\261%.0f%% (medians of %s)%s\n", v, median(ge, n), median(gs, n), r, 100 * spread, how, busy }' "$times"
done
[ "$good" -eq "$total" ] && [ "$total" -gt 0 ]

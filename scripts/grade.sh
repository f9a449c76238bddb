#!/usr/bin/env bash
# make grade STAGE=NN: build stage NN with exercise.c (or .cu) in place of the solution's
# kernel file, check the exercise's variants over the awkward shapes and the edge-case suite
# (--edges: BLAS's rules, NaN/Inf propagation, overflow), time each against the solution,
# and print a short report. Exit status 0 when every check passes.
set -u
cd "$(dirname "$0")/.."
stage=${1:-}
[ -n "$stage" ] || { echo "usage: make grade STAGE=NN (one of: $(make -s list-stages | cut -c1-2 | sort | paste -sd' '))" >&2; exit 2; }
# STAGE=2, 02, 02_loop_order and loop_order all name stage 02
num=$(case $stage in [0-9] | [0-9][0-9]) printf %02d "$((10#$stage))" ;; esac)
line=$(make -s list-stages | awk -v s="$stage" -v n="$num" '$1 == s || $2 == s || (n != "" && substr($1, 1, 3) == n "_")')
[ -n "$line" ] || { echo "grade: no stage $stage (one of: $(make -s list-stages | cut -c1-2 | sort | paste -sd' '))" >&2; exit 2; }
read -r dir prog kind <<<"$line"
# a stage that is not a float GEMM (11_gf256) grades itself
[ -f "$dir/grade.sh" ] && exec bash "$dir/grade.sh"
sol=$dir/$prog ex=build/grade/$dir/$prog
echo "== grading $dir/exercise.$([ "$kind" = gpu ] && echo cu || echo c)"
make -s "$sol" "$ex" >/dev/null || { echo "grade: the build failed (messages above)"; exit 1; }

shapes=$(grep -v '^#' tests/shapes.txt | paste -sd, -)
report=$(mktemp) rows=$(mktemp)
# what to grade: every variant, or the lines of the stage's grade-modes.txt, each the program's
# options that choose them (12: its BF16 variants, then --fp32 --variant mma_tf32,mma_3xtf32).
# A stage whose table also lists kernels the exercise does not touch (an earlier stage's,
# linked for comparison; a variant solved for you) names the exercise's own there, so that
# only what the student wrote is checked and timed.
modes=("--variant all")
[ -f "$dir/grade-modes.txt" ] && mapfile -t modes < <(grep -v -e '^#' -e '^[[:space:]]*$' "$dir/grade-modes.txt")
[ "${#modes[@]}" -gt 0 ] || modes=("--variant all")
for mode in "${modes[@]}"; do
    pre=$(printf '%s' "$mode" | sed 's/--variant [^ ]*//; s/  */ /g; s/^ //; s/ $//') # besides --variant
    for opts in "" "--alpha -1.5 --beta 0.5" "--pad 5"; do
        # shellcheck disable=SC2086
        "$ex" $mode --no-baseline --reps 1 --sizes "$shapes" $opts >"$report" 2>&1
        rc=$?
        if [ "$rc" -eq 77 ]; then echo "no CUDA device: grade this stage on a GPU machine"; exit 77; fi
        if [ "$rc" -ge 2 ]; then echo "exit $rc with $mode ${opts:-(default options)} (a crash or refused input):"; tail -n 3 "$report" | sed 's/^/    /'; fi
        # one line per check: variant, shape, options, PASS/FAIL, the harness's "first bad
        # element", and the options that chose the variant
        awk -v o="$(echo $pre $opts)" -v p="$pre" -v ex="$ex" -v opts="$opts" '
            function flush() { if (row != "") print row "\t" why "\t" p "\t" cmd; row = why = "" }
            # the verdict column; a row may go on after it ("busy: others used 1.4 cores")
            function verdict(  i) { for (i = 5; i <= NF; i++) if ($i == "PASS" || $i == "FAIL") return $i; return "" }
            /^[^ ]/ && verdict() != "" { flush(); row = $1 "\t" $2 "x" $3 "x" $4 "\t" o "\t" verdict()
                cmd = ex " " (p == "" ? "" : p " ") "--variant " $1 " --sizes " $2 "x" $3 "x" $4 (opts == "" ? "" : " " opts) " --no-baseline --reps 1"; next }
            row != "" && /^    first bad element: / { why = substr($0, 24) }
            END { flush() }' "$report" >>"$rows"
    done
    # the edge-case suite, every rule of common/gemm.h: one row per case, the reason under a FAIL
    # shellcheck disable=SC2086
    "$ex" $mode --no-baseline --edges >"$report" 2>&1
    rc=$?
    if [ "$rc" -eq 77 ]; then echo "no CUDA device: grade this stage on a GPU machine"; exit 77; fi
    if [ "$rc" -ge 2 ]; then echo "exit $rc with $mode --edges (a crash or refused input):"; tail -n 3 "$report" | sed 's/^/    /'; fi
    awk -v p="$pre" -v ex="$ex" '
        function trim(x) { gsub(/^ +| +$/, "", x); return x }
        function flush() { if (row != "") print row "\t" why "\t" p "\t" cmd; row = why = "" }
        /^[^ ]/ && ($NF == "PASS" || $NF == "FAIL") && length($0) > 70 {
            flush(); v = trim(substr($0, 1, 16))
            row = v "\t" trim(substr($0, 59, 12)) "\t--edges: " trim(substr($0, 18, 40)) "\t" $NF
            cmd = ex " " (p == "" ? "" : p " ") "--variant " v " --edges --no-baseline"; next }
        row != "" && /^    [^ ]/ && why == "" { why = substr($0, 5) }
        END { flush() }' "$report" >>"$rows"
done
echo "checks (every shape in tests/shapes.txt; options: defaults, --alpha -1.5 --beta 0.5, --pad 5; then --edges):"
# per variant, in the table's order: the count, a few failing shapes, then the first failure
# (the first option set, then the first shape), why it failed and the command that shows it
awk -F'\t' '
    !($1 in n) { order[++nv] = $1 }
    { n[$1]++; opts = ($3 == "" ? "defaults" : $3) }
    $4 == "PASS" { ok[$1]++ }
    $4 == "FAIL" && nf[$1]++ < 4 { eg[$1] = eg[$1] " " $2 " (" opts ")" }
    $4 == "FAIL" && !($1 in first) {
        first[$1] = $2 " (" opts "): " ($5 == "" ? "no diagnostic printed" : $5)
        cmd[$1] = $7 }
    END { for (k = 1; k <= nv; k++) { v = order[k]
            printf "  %-16s %3d of %3d pass%s\n", v, ok[v], n[v], (v in eg ? "; failing e.g." eg[v] : "")
            if (v in first) printf "      first failure: %s\n      reproduce:     %s\n", first[v], cmd[v] } }' "$rows"
total=$(wc -l <"$rows"); good=$(awk -F'\t' '$4 == "PASS"' "$rows" | wc -l)
echo "  total: $good of $total"

size=$([ "$kind" = gpu ] && echo 2048 || echo 512)
echo "speed at ${size}^3 against the solution (variants that pass every check):"
while IFS=$'\t' read -r v pre; do
    if awk -F'\t' -v v="$v" '$1 == v && $4 == "FAIL" { bad = 1 } $1 == v { seen = 1 } END { exit !(bad || !seen) }' "$rows"; then
        printf "  %-16s not timed: fix its checks first\n" "$v"; continue
    fi
    # three rounds, solution then exercise, each under the benchmark lock: on a shared machine
    # one pair of runs of the same code can differ by 4x, the medians of three pairs much less
    times=""
    for round in 1 2 3; do
        # shellcheck disable=SC2086
        t_sol=$(scripts/bench-lock "$sol" $pre --variant "$v" --no-baseline --no-check --sizes "$size" --time-limit 5 2>/dev/null </dev/null | awk -v v="$v" '$1 == v {print $6}')
        # shellcheck disable=SC2086
        t_ex=$(scripts/bench-lock "$ex" $pre --variant "$v" --no-baseline --no-check --sizes "$size" --time-limit 5 2>/dev/null </dev/null | awk -v v="$v" '$1 == v {print $6}')
        [ -n "$t_sol" ] && [ -n "$t_ex" ] && times="$times$t_ex $t_sol"$'\n'
    done
    [ -n "$times" ] && printf '%s' "$times" | awk -v v="$v" '{ a[++n] = $1; b[n] = $2 }
        function median(x,  i, j, t) {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
            return x[int((n + 1) / 2)] }
        END { e = median(a); s = median(b)
              printf "  %-16s %9.2f GFLOP/s, solution %9.2f: %.2fx (medians of %d alternating runs)\n", v, e, s, (s > 0 ? e / s : 0), n }'
done < <(awk -F'\t' '!seen[$1]++ { print $1 "\t" $6 }' "$rows") # each variant graded, in order
rm -f "$report" "$rows"
[ "$good" -eq "$total" ] && [ "$total" -gt 0 ]

#!/bin/sh
# test_run_charts.sh: the charts `make run` draws, from a small run of it (scripts/run-all.sh
# with RUN_SMALL=1: every stage at three small sizes, about a minute in all, into a scratch
# folder). Every Python it starts loads tests/chart-check/sitecustomize.py, which logs each
# figure saved and what a reader would trip on in it (an empty panel, no title, no units, a
# legend entry for nothing drawn, ticks that miss the data, two lines in one style, a legend over
# data, a log axis that does not say so). Checks: every chart has none of them; 03, 04 and 11 draw their own chart (the sweep gave it what it needs); each chart is
# listed once; the run ends with the total "N passed, 0 failed, N skipped".
# Prints one PASS:/FAIL: line per check; exits 1 if any failed, 77 without matplotlib.
# Usage: sh tests/test_run_charts.sh   (tests/test_plot.sh runs it; the stages must be built)

export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
py=$(scripts/find-python.sh) || { echo "SKIP: no python3 with matplotlib (apt install python3-matplotlib)"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/checker-lib.sh
. "$root/tests/checker-lib.sh"

out=$tmp/out
log=$tmp/charts.log
# a lock of its own: timings do not matter here, and another benchmark must not hold this up
RUN_OUT=$out RUN_SMALL=1 GEMM_BENCH_LOCK=$tmp/lock PYTHONPATH=$root/tests/chart-check \
    CHART_CHECK_LOG=$log scripts/run-all.sh >"$tmp/run.out" 2>&1
rc=$?
keep=$root/build/test-logs/run-charts.out # the run's output, for a FAIL to point at
mkdir -p "$(dirname "$keep")" && cp "$tmp/run.out" "$keep"
check "small make run (scripts/run-all.sh, RUN_SMALL=1) exits 0 (got $rc; output in $keep)" [ $rc -eq 0 ]

total=$(tail -n 1 "$tmp/run.out")
check "the run ends with its total, 0 failed (got '$total')" \
    sh -c 'echo "$1" | grep -Eq "^[1-9][0-9]* passed, 0 failed, [0-9]+ skipped(, [0-9]+ not here)?$"' - "$total"

# each PNG as last saved: the script that saved it and the axes that show nothing
awk -F'\t' '{last[$1] = $2 "\t" $3} END {for (p in last) print p "\t" last[p]}' "$log" 2>/dev/null |
    sort >"$tmp/last"
pngs=$(ls "$out/figures"/*.png 2>/dev/null)
check "the run wrote charts" [ -n "$pngs" ]
for png in $pngs; do
    name=$(basename "$png")
    entry=$(awk -F'\t' -v p="$png" '$1 == p {print $3}' "$tmp/last")
    case $entry in -) why= ;; "") why=" (not drawn by a checked python3)" ;; *) why=": $entry" ;; esac
    check "$name: data in every panel, a title, units, a legend of what is drawn, ticks on the data, lines told apart, legends clear of data, log axes said$why" [ "$entry" = - ]
done
for s in 03_tiling 04_threads 11_gf256; do
    [ -f "$out/$s.csv" ] || continue
    by=$(awk -F'\t' -v p="$out/figures/$s.png" '$1 == p {print $2}' "$tmp/last")
    check "$s.png is the stage's own chart (drawn by ${by:-nothing})" [ "$by" = "plots/$s.py" ]
done

# the chart list: the lines between "== charts" and "results:"
sed -n '/^== charts$/,/^results:/p' "$tmp/run.out" | grep '\.png$' >"$tmp/listed"
dups=$(sort "$tmp/listed" | uniq -d | tr '\n' ' ')
check "each chart is listed once${dups:+ (twice: $dups)}" [ -z "$dups" ]
unlisted=$(for png in $pngs; do grep -qx "$png" "$tmp/listed" || echo "$png"; done | tr '\n' ' ')
check "every chart written is listed${unlisted:+ (not: $unlisted)}" [ -z "$unlisted" ]

echo "test_run_charts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

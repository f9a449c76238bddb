#!/usr/bin/env bash
# make run: build everything, run every stage's default sweep (each variant stops growing once
# one run takes longer than --time-limit), write CSVs to results/local/ and draw the charts there.
# Ends with the checks of every stage added up: "N passed, N failed, N skipped" (skipped: the
# stages that exit 77, the GPU ones on a machine without a GPU), and ", N not here" where
# variants could not run on this machine (each table named them); exit 1 if a check failed.
#
#   RUN_ARGS="..."  more arguments for every GEMM stage (not 11_gf256, whose options differ)
#   RUN_OUT=DIR     CSVs and charts there instead of results/local
#   RUN_SMALL=1     a few seconds per stage (small sizes, few repetitions): the charts'
#                   test (tests/test_run_charts.sh) draws them from this
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
out=${RUN_OUT:-results/local}
mkdir -p "$out"
echo "== building"
make -s -j"$(nproc 2>/dev/null || echo 2)" all || exit 1
rm -f "$out"/*.csv "$out"/figures/*.png
lock=scripts/bench-lock # each timed run takes the benchmark lock (re-entrant)
small=${RUN_SMALL:-0}

# What a stage runs beyond its default sweep: what its own chart (plots/NN_topic.py) needs,
# which the default does not measure (03: a few tiles; 04: 1 and 2 threads).
stage_args() {
    case $1 in
        03_tiling) echo "--tile 32,64,256" ;;
        04_threads) echo "--threads 1,2" ;;
    esac
    if [ "$1" = 11_gf256 ]; then # its default lengths take a second or two
        [ "$small" = 1 ] && echo "--reps 3"
    else
        [ "$small" = 1 ] && echo "--sizes 32,64,128 --reps 3"
        echo "${RUN_ARGS:-}"
    fi
}

echo "== make peak: this machine's ceilings -> $out/peak.csv"
peak_args=
[ "$small" = 1 ] && peak_args=--quick
$lock build/peak --csv "$out/peak.csv" $peak_args || echo "(peak failed; charts will have no peak line)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0 failed=0 skipped=0 not_here=0
while read -r dir prog kind; do
    # shellcheck disable=SC2046  # stage_args is a list of words
    set -- $(stage_args "$dir")
    echo
    echo "== $dir (default sweep${*:+ with $*}; --help shows the options)"
    $lock "$dir/$prog" --csv "$out/$dir.csv" "$@" </dev/null | tee "$log"
    rc=${PIPESTATUS[0]}
    # the stage's last line: "N passed, N failed", or "N passed, N failed, N not on this CPU"
    counts=$(awk '/^[0-9]+ passed, [0-9]+ failed(, [0-9]+ not on this [A-Za-z]+)?$/ {p = $1; f = $3; n = $5}
                  END {print p + 0, f + 0, n + 0}' "$log")
    read -r p f n <<<"$counts"
    passed=$((passed + p)) failed=$((failed + f)) not_here=$((not_here + n))
    if [ $rc -eq 77 ]; then
        echo "($dir skipped: exit 77)"
        skipped=$((skipped + 1))
    elif [ $rc -ne 0 ]; then
        echo "($dir: exit $rc)"
        [ "$f" -eq 0 ] && failed=$((failed + 1)) # no failed check counted: the stage itself
    fi
done < <(make -s list-stages)
echo
if py=$(scripts/find-python.sh); then
    echo "== charts"
    charts=$(mktemp)
    trap 'rm -f "$log" "$charts"' EXIT
    "$py" plots/plot.py --out "$out/figures" "$out" >"$charts"
    for p in plots/[0-9][0-9]_*.py; do # stages with a chart (or a CSV schema) of their own
        s=$(basename "$p" .py)
        [ -f "$out/$s.csv" ] || continue
        # exit 77: this CSV lacks what the stage's chart needs; the generic chart stays
        "$py" "$p" "$out/$s.csv" "$out/figures/$s.png" >>"$charts"
        rc=$?
        [ $rc -ne 0 ] && [ $rc -ne 77 ] && echo "($p: exit $rc)"
    done
    sort -u "$charts"
    # a kernel above the FMA peak measured at the start says the peak is suspect
    [ -f "$out/peak.csv" ] && "$py" lab/scripts/peak-check.py "$out/peak.csv" $(ls "$out"/[0-9][0-9]_*.csv 2>/dev/null)
else
    echo "no python3 with matplotlib: charts skipped (scripts/install-deps.sh)"
fi
echo
# rows measured while other processes kept cores busy (the harness's load column, 0.5 core or
# more): the tables said "busy", the charts draw them hollow; a summary here
busy=$(awk -F, 'FNR == 1 { col = 0; for (i = 1; i <= NF; i++) if ($i == "load") col = i; next }
                col && $col != "" && $col + 0 >= 0.5 { n++; s[$1] = 1 }
                END { for (k in s) list = list (list ? ", " : "") k; print n + 0 (n ? " (" list ")" : "") }' "$out"/*.csv 2>/dev/null)
if [ "${busy%% *}" != 0 ]; then
    echo "warning: ${busy%% *} rows were measured while other processes kept cores busy ${busy#* }:"
    echo "         their tables say 'busy', their charts draw them hollow; run again on a quiet machine"
else
    echo "load: every row was measured on a quiet machine"
fi
echo "results: $out/*.csv    charts: $out/figures/*.png"
echo "every stage's checks (skipped: stages that exit 77; not here: variants this machine lacks):"
echo "$passed passed, $failed failed, $skipped skipped$([ "$not_here" -eq 0 ] || echo ", $not_here not here")"
[ "$failed" -eq 0 ]

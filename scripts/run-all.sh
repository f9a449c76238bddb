#!/usr/bin/env bash
# make run: build everything, run every stage's default sweep (each variant stops growing once
# one run takes longer than --time-limit), write CSVs to results/local/ and draw the charts there.
set -u
cd "$(dirname "$0")/.."
out=results/local
mkdir -p "$out"
echo "== building"
make -s -j"$(nproc 2>/dev/null || echo 2)" all || exit 1
rm -f "$out"/*.csv
lock=scripts/bench-lock # each timed run takes the benchmark lock (re-entrant)
echo "== make peak: this machine's ceilings -> $out/peak.csv"
$lock build/peak --csv "$out/peak.csv" || echo "(peak failed; charts will have no peak line)"
make -s list-stages | while read -r dir prog kind; do
    echo
    echo "== $dir (default sweep; --help shows the options)"
    $lock "$dir/$prog" --csv "$out/$dir.csv" ${RUN_ARGS:-}
    rc=$?
    [ $rc -eq 77 ] && echo "($dir skipped: no CUDA device)"
    [ $rc -ne 0 ] && [ $rc -ne 77 ] && echo "($dir: exit $rc)"
done
echo
py=$(scripts/find-python.sh) || { echo "no python3 with matplotlib: charts skipped (scripts/install-deps.sh)"; exit 0; }
echo "== charts"
"$py" plots/plot.py --out "$out/figures" "$out"
for p in [0-9][0-9]_*/plot.py; do   # stages with a CSV schema of their own draw their own chart
    s=$(dirname "$p")
    [ -f "$out/$s.csv" ] && "$py" "$p" "$out/$s.csv" "$out/figures/$s.png"   # it prints the path
done
echo
echo "results: $out/*.csv    charts: $out/figures/*.png"

#!/usr/bin/env bash
# tests/check-figures.sh: the committed charts are what `make plots` draws from the committed
# results. Draws every chart into a scratch folder (make plots FIGURES=...) and compares each with
# its file under docs/figures/, byte for byte: a chart left stale after a change to the plot code
# or to a CSV fails, naming the file.
#
# Where the python that draws has another matplotlib than the one that drew the committed charts
# (each PNG names it in its Software field), its bytes may differ for no fault of the charts: that
# is a SKIP, not a FAIL. Without matplotlib: SKIP. Prints PASS:/FAIL:/SKIP: lines; exit 1 on FAIL.
set -u
export LC_ALL=C # (numbers read in the C locale)
cd "$(dirname "$0")/.."
PY=$(scripts/find-python.sh 2>/dev/null || true)
if [ -z "$PY" ]; then echo "SKIP: the charts: no python3 with matplotlib"; exit 0; fi
here=$("$PY" -c 'import matplotlib; print(matplotlib.__version__)')
drew=$(LC_ALL=C grep -aoh 'matplotlib version[0-9.]*' docs/figures/*/*.png 2>/dev/null | sort | uniq -c | sort -rn |
    head -n 1 | sed 's/.*matplotlib version//')
if [ -n "$drew" ] && [ "$drew" != "$here" ]; then
    echo "SKIP: the charts: drawn with matplotlib $drew, this python has $here (bytes would differ)"
    exit 0
fi
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
if ! make -s --no-print-directory plots FIGURES="$scratch" >"$scratch/plots.log" 2>&1; then
    echo "FAIL: make plots FIGURES=<scratch> failed:"
    tail -n 5 "$scratch/plots.log" | sed 's/^/    /'
    exit 1
fi
failed=0 same=0
while IFS= read -r f; do
    rel=${f#"$scratch"/}
    if [ ! -f "docs/figures/$rel" ]; then
        echo "FAIL: make plots draws docs/figures/$rel, which is not committed"; failed=1
    elif ! cmp -s "$f" "docs/figures/$rel"; then
        echo "FAIL: docs/figures/$rel is not what make plots draws now (run make plots, look, commit)"; failed=1
    else
        same=$((same + 1))
    fi
done < <(find "$scratch" -name '*.png' | sort)
[ $failed -eq 1 ] || echo "PASS: the charts: all $same that make plots draws are the committed ones, byte for byte"
exit $failed

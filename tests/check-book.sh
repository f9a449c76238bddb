#!/usr/bin/env bash
# tests/check-book.sh: each chapter is a lesson read in one sitting, not a lab notebook.
#
#   tests/check-book.sh [FILE.md ...]      (default: every chapter: each Markdown file of a stage
#                                           directory but its NOTES.md, e.g. NN_topic/README.md
#                                           and 12_cuda_tensor_cores/fp32.md)
#
# One FAIL line per offence, a PASS line per chapter that has none:
#   - more than BUDGET lines ("about 400 lines at most", STYLE.md; 420 is that "about");
#   - a commit hash: a word of 7 to 40 lowercase hex digits (a long number counts too: write
#     1,048,576 or 2^20); commits are cited in the stage's NOTES.md;
#   - the word "issue" or "issues", any case (write problem, question; the verb: start, execute);
#   - a lab notebook, lab/NN_topic/NOTES.md, that the chapter does not link.
# (The words of the machinery that measured and wrote the book, in a chapter or any other file:
# tests/check-vocabulary.sh.)
# Then, for the same chapters, tests/check_glossary.py: every term of docs/glossary.md linked or
# defined in place at its first use, and every word that looks like a term (jargon, an acronym,
# an intrinsic's name) that the glossary lacks defined in place at its first use. With no arguments, also:
# tests/check_numbers.py, the sample of the book's numbers recomputed from their files
# (tests/book-numbers.txt); and each checker's self-test on a planted fixture that it must fail.
# A chapter in WAIVED is being rewritten: its offences are counted on one SKIP line. Once it has
# none, its entry is stale and fails, so that the list only ever shrinks.
# Prints PASS:/FAIL:/SKIP: lines (tests/lib.sh's tally counts them in make test); exit 1 if any
# FAIL.
set -u
cd "$(dirname "$0")/.."
BUDGET=420
# Remove a chapter from this list when its rewrite lands (the book: lesson + NOTES.md).
WAIVED=""

all=0
if [ $# -eq 0 ]; then set -- $(ls [0-9][0-9]_*/*.md); all=1; fi
failed=0
for f in "$@"; do
    chapter=$(basename "$(dirname "$f")")
    offences=()
    lines=$(wc -l <"$f")
    [ "$lines" -le $BUDGET ] ||
        offences+=("$f: $lines lines, over the budget of $BUDGET (move the log to NOTES.md)")
    while IFS=: read -r n word; do
        offences+=("$f:$n: '$word' looks like a commit hash (cite commits in NOTES.md)")
    done < <(grep -onE '\b[0-9a-f]{7,40}\b' "$f")
    while IFS=: read -r n word; do
        offences+=("$f:$n: the word '$word' (write problem or question; to start, to execute)")
    done < <(grep -oniwE 'issues?' "$f")
    notes=$(dirname "$f")/../lab/$chapter/NOTES.md # (lab/NN_topic/NOTES.md from the top)
    if [ -f "$notes" ] && ! grep -q "](../lab/$chapter/NOTES.md" "$f"; then
        offences+=("$f: does not link its lab notebook, $notes")
    fi
    if [[ " $WAIVED " == *" $chapter "* ]]; then
        if [ ${#offences[@]} -gt 0 ]; then
            echo "SKIP: $f: waived while it is rewritten (${#offences[@]} offences, $lines lines)"
        else
            echo "FAIL: $f: meets the budget now: remove $chapter from WAIVED in tests/check-book.sh"
            failed=1
        fi
    elif [ ${#offences[@]} -eq 0 ]; then
        echo "PASS: $f: $lines lines, no commit hash, no 'issue'"
    else
        for o in "${offences[@]}"; do echo "FAIL: $o"; done
        failed=1
    fi
done
for chapter in $WAIVED; do
    [ -f "$chapter/README.md" ] || { echo "FAIL: WAIVED names $chapter, which has no README.md"; failed=1; }
done
PY=$(command -v python3 || true)
if [ -z "$PY" ]; then
    echo "SKIP: no python3: the glossary and number checks did not run"
elif [ $all -eq 1 ]; then
    "$PY" tests/check_glossary.py --self-test || failed=1
else
    "$PY" tests/check_glossary.py "$@" || failed=1
fi
[ $all -eq 1 ] || exit $failed

[ -n "$PY" ] && { "$PY" tests/check_numbers.py --self-test || failed=1; }
exit $failed

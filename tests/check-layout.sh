#!/usr/bin/env bash
# tests/check-layout.sh: the house's layout holds (docs/adding-a-stage.md).
#
#   tests/check-layout.sh [--self-test]
#
#   - a stage folder is the lesson: at most MAX_FILES files at its top, one more for a chapter's
#     second part (the chapter, the kernels,
#     main, the exercise, stage.mk, test-cases.txt); the rest in its harness/ or in lab/NN_topic/;
#   - no bench or host script, notebook, probe, table or plot script in a stage folder: they are
#     the lab's (lab/NN_topic/) or the plots' (plots/NN_topic.py), tests in tests/stages/;
#   - a stage's main is its table: a main that runs on the harness (bench_main) calls nothing
#     of the harness's parts in its place (cli_parse, bench_run, bench_open_csv ...);
#   - the chapter links its lab notebook, lab/NN_topic/NOTES.md, and the notebook opens with
#     "What we know now";
#   - common/ is one-way: no file in it includes a stage's file or names a stage;
#   - no source file over LONG lines without its reason at its top ("Why it is one file:").
# --self-test: the same checks on a scratch tree with one offence of each kind planted; each must
# be caught. Prints PASS:/FAIL: lines; exit 1 if any FAIL.
set -u
cd "$(dirname "$0")/.."
MAX_FILES=13
LONG=520
top=$PWD

check() { # ROOT: the checks on the tree at ROOT; FAIL lines for each offence, PASS when none
    local root=$1 n=0 d f lines
    local -a offences=()
    cd "$root" || return 1
    for d in [0-9][0-9]_*/; do
        d=${d%/}
        lines=$(git ls-files -- "$d" | grep -vc "^$d/.*/") # tracked, at its top (not the program built there)
        # (a chapter in two parts, 12's README.md and fp32.md, counts its second file apart)
        max=$((MAX_FILES + $(find "$d" -maxdepth 1 -name '*.md' | wc -l) - 1))
        [ "$lines" -le $max ] ||
            offences+=("$d: $lines files at its top, over $max (machinery to $d/harness/, research to lab/$d/)")
        for f in "$d"/NOTES.md "$d"/bench*.sh "$d"/*-tests*.sh "$d"/plot*.py "$d"/targets.py \
            "$d"/report.py "$d"/tables.py "$d"/tools "$d"/grade.sh "$d"/sanitizer-cases.txt "$d"/grade-modes.txt; do
            [ -e "$f" ] && offences+=("$f: the lab's, the plots' or the tests', not the lesson's")
        done
        for f in "$d"/main.c "$d"/main.cu; do
            [ -f "$f" ] || continue
            if grep -q 'bench_main(' "$f" &&
                grep -nE '\b(cli_parse|bench_run|bench_open_csv|bench_close_csv|bench_print_header)\(' "$f" >/dev/null; then
                offences+=("$f: calls the harness's parts itself (register a mode in stage_info.modes)")
            fi
        done
        if [ -f "$d/README.md" ] && [ -f "lab/$d/NOTES.md" ] && ! grep -q "](../lab/$d/NOTES.md" "$d/README.md"; then
            offences+=("$d/README.md: does not link its lab notebook, ../lab/$d/NOTES.md")
        fi
    done
    for f in lab/[0-9][0-9]_*/NOTES.md; do
        [ -f "$f" ] || continue
        head -n 15 "$f" | grep -qi '^#.*what we know now' ||
            offences+=("$f: does not open with \"What we know now\" (in its first 15 lines)")
    done
    while IFS=: read -r f l _; do
        offences+=("$f:$l: common/ includes a stage's file")
    done < <(grep -nE '#[[:space:]]*include[[:space:]]+"\.\./' common/* 2>/dev/null)
    while IFS=: read -r f l text; do
        offences+=("$f:$l: common/ names a stage ('$(echo "$text" | grep -oE "$STAGE_NAME" | head -n 1)')")
    done < <(grep -nE "$STAGE_NAME" common/* 2>/dev/null)
    while read -r lines f; do
        [ "$f" = total ] && continue
        [ "$lines" -gt $LONG ] || continue
        head -n 30 "$f" | grep -q 'Why it is one file:' ||
            offences+=("$f: $lines lines, over $LONG, and no \"Why it is one file:\" at its top")
    done < <(git -C "$root" ls-files -- '*.c' '*.h' '*.cu' '*.cuh' '*.py' '*.sh' 2>/dev/null | xargs -r wc -l)
    for o in "${offences[@]}"; do echo "FAIL: $o"; n=$((n + 1)); done
    cd "$top" || return 1
    return $n
}
# a stage named in common/: its directory ("05_simd"), "stage 12", "stages 07-09", "12's", "chapter 06"
STAGE_NAME='\b(0[1-9]|1[0-9])_[a-z]+|\b[Ss]tages? (0[1-9]|1[0-9])\b|\b(0[1-9]|1[0-9])'"'"'s\b|\b[Cc]hapters? (0[1-9]|1[0-9])\b'

if [ "${1:-}" = --self-test ]; then
    scratch=$(mktemp -d) || exit 1
    trap 'rm -rf "$scratch"' EXIT
    git ls-files -z | xargs -0 -I{} cp --parents {} "$scratch"/ 2>/dev/null
    (cd "$scratch" && git init -q && git add -A >/dev/null 2>&1)
    base=$(check "$scratch" | grep -c '^FAIL') # offences the tree has now (0 when it is clean)
    plant() { # DESC FILE TEXT: plant, check, remove; the check must find one more offence
        local desc=$1 file=$2 text=$3 got
        mkdir -p "$(dirname "$scratch/$file")"
        [ -e "$scratch/$file" ] && cp "$scratch/$file" "$scratch/$file.orig"
        printf '%s\n' "$text" >>"$scratch/$file"
        (cd "$scratch" && git add -A >/dev/null 2>&1)
        got=$(check "$scratch" | grep -c '^FAIL')
        if [ -e "$scratch/$file.orig" ]; then mv "$scratch/$file.orig" "$scratch/$file"; else rm -f "$scratch/$file"; fi
        (cd "$scratch" && git add -A >/dev/null 2>&1)
        if [ "$got" -gt "$base" ]; then echo "PASS: check-layout catches $desc"; else echo "FAIL: check-layout misses $desc"; fi
    }
    plant "a notebook in a stage folder" 02_loop_order/NOTES.md "# notes"
    plant "a bench script in a stage folder" 03_tiling/bench.sh "#!/bin/sh"
    plant "a main that parses the command line itself" 01_naive/main.c "static void x(int c, char **v) { bench_opts o; cli_parse(0, c, v, &o); }"
    plant "common/ including a stage's header" common/timer.h '#include "../05_simd/simd.h"'
    plant "common/ naming a stage" common/matrix.h "/* as stage 12 wants */"
    plant "a long file without its reason" plots/long.py "$(seq 1 600 | sed 's/^/# line /')"
    # (one more than MAX_FILES: a student edition's 01_naive has one file fewer, its solution)
    for i in $(seq $((MAX_FILES + 1 - $(find "$scratch/01_naive" -maxdepth 1 -type f | wc -l)))); do
        : >"$scratch/01_naive/extra$i.h"
    done
    (cd "$scratch" && git add -A >/dev/null 2>&1)
    [ "$(check "$scratch" | grep -c '^FAIL')" -gt "$base" ] && echo "PASS: check-layout catches a stage folder of $((MAX_FILES + 1)) files" ||
        echo "FAIL: check-layout misses a stage folder of $((MAX_FILES + 1)) files"
    exit 0
fi

out=$(check "$top")
if [ -z "$out" ]; then
    echo "PASS: layout: stage folders are lessons, common/ is one-way, long files say why"
else
    echo "$out"
    exit 1
fi

#!/usr/bin/env bash
# scripts/grade-class.sh: grade a folder of submissions for one stage into one CSV.
#
#   scripts/grade-class.sh NN SUBMISSIONS_DIR [--csv FILE] [--out DIR]
#
# A submission is a subfolder of SUBMISSIONS_DIR holding the stage's exercise.c (exercise.cu for a
# CUDA stage), named for the folder, or a file NAME.c (NAME.cu) in SUBMISSIONS_DIR itself. Each is
# graded by scripts/grade.sh --exercise, in turn, without touching the tree's own exercise: its
# report, its result as JSON (result.json), Gradescope's results.json and the programs its
# reproduce commands name go to DIR/NAME (default build/class/NN_topic/NAME). A submission that
# does not compile, crashes, loops (GRADE_TIMEOUT) or writes out of bounds gets its row like any
# other, and the next one is graded.
#
# The CSV (default DIR/grades.csv; written anew), one row a submission, fields quoted where they
# hold a comma:
#   submission,checks_passed,checks_failed,first_failure,speed_ratio,spread,exit_status,reproduce,report
# speed_ratio is the geometric mean of the timed variants' ratios to the solution, spread the
# largest of their spreads (empty: not timed, GRADE_SPEED=off, or too noisy to judge); exit_status
# is grade.sh's: 0 every check passed, 1 a check failed, 77 not graded on this machine, 2 no
# exercise in the submission. GRADE_SPEED, GRADE_TIMEOUT, GRADE_SIZE, GRADE_VARIANTS as for
# grade.sh. Exit status 0 once every submission has its row; 2 for bad usage.
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C
usage() { echo "usage: scripts/grade-class.sh NN SUBMISSIONS_DIR [--csv FILE] [--out DIR]" >&2; exit 2; }
stage="" subs="" csv="" out=""
while [ $# -gt 0 ]; do
    case $1 in
        --csv | --out) [ $# -ge 2 ] && [ -n "$2" ] || { echo "grade-class: $1 needs a value" >&2; usage; }
            [ "$1" = --csv ] && csv=$2 || out=$2; shift 2 ;;
        -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "grade-class: unknown option '$1'" >&2; usage ;;
        *) if [ -z "$stage" ]; then stage=$1; elif [ -z "$subs" ]; then subs=$1; else
               echo "grade-class: one stage and one folder ('$1' is a third argument)" >&2; usage; fi; shift ;;
    esac
done
[ -n "$stage" ] && [ -n "$subs" ] || usage
[ -d "$subs" ] || { echo "grade-class: $subs: no such folder" >&2; exit 2; }
num=$(case $stage in [0-9] | [0-9][0-9]) printf %02d "$((10#$stage))" ;; esac)
line=$(make -s list-stages | awk -v s="$stage" -v n="$num" '$1 == s || $2 == s || (n != "" && substr($1, 1, 3) == n "_")')
[ -n "$line" ] || { echo "grade-class: no stage $stage (one of: $(make -s list-stages | cut -c1-2 | sort | paste -sd' ' -))" >&2; exit 2; }
read -r dir _ kind <<<"$line"
ext=$([ "$kind" = gpu ] && echo cu || echo c)
out=${out:-build/class/$dir}
csv=${csv:-$out/grades.csv}
mkdir -p "$out" && { : >"$csv"; } 2>/dev/null || { echo "grade-class: cannot write $csv" >&2; exit 2; }

# the submissions, sorted by name: "name<TAB>file" (file empty: the folder holds no exercise)
list=$(
    for p in "$subs"/*; do
        if [ -d "$p" ]; then printf '%s\t%s\n' "$(basename "$p")" "$([ -f "$p/exercise.$ext" ] && echo "$p/exercise.$ext")"
        elif [ -f "$p" ] && [ "${p##*.}" = "$ext" ]; then printf '%s\t%s\n' "$(basename "$p" ".$ext")" "$p"; fi
    done | sort)
[ -n "$list" ] || { echo "grade-class: $subs holds no submission (a folder with exercise.$ext, or a file NAME.$ext)" >&2; exit 2; }
echo "submission,checks_passed,checks_failed,first_failure,speed_ratio,spread,exit_status,reproduce,report" >"$csv"
# csv_row FIELD...: one row, a field quoted when it holds a comma, a quote or a line break
csv_row() {
    local f sep=""
    for f in "$@"; do
        f=${f//$'\n'/ }
        case $f in *[,\"]*) f="\"${f//\"/\"\"}\"" ;; esac
        printf '%s%s' "$sep" "$f"; sep=,
    done
    printf '\n'
}
n=0
while IFS=$'\t' read -r name file; do
    n=$((n + 1))
    d=$out/$name
    mkdir -p "$d"
    rm -f "$d/summary.tsv" "$d/result.json" "$d/results.json"
    if [ -z "$file" ]; then
        echo "== $name: no exercise.$ext in its folder" | tee "$d/report.txt"
        csv_row "$name" 0 0 "no exercise.$ext in the submission's folder" "" "" 2 "" "$d/report.txt" >>"$csv"
        continue
    fi
    scripts/grade.sh --exercise "$file" --out "$d" --json "$d/result.json" --gradescope "$d/results.json" \
        --tsv "$d/summary.tsv" "$dir" >"$d/report.txt" 2>&1 </dev/null
    rc=$?
    if [ -s "$d/summary.tsv" ]; then
        mapfile -t f < <(tr '\t' '\n' <"$d/summary.tsv") # (read would merge empty fields)
        passed=${f[1]} failed=${f[2]} first=${f[3]} reproduce=${f[4]} ratio=${f[5]} spread=${f[6]}
    else # grade.sh refused before grading (exit 2): its line says why
        passed=0 failed=0 first=$(tail -n 1 "$d/report.txt") reproduce="" ratio="" spread=""
    fi
    csv_row "$name" "$passed" "$failed" "$first" "$ratio" "$spread" "$rc" "$reproduce" "$d/report.txt" >>"$csv"
    echo "$name: $passed of $((passed + failed)) checks pass${ratio:+, speed ${ratio}x (spread ${spread})}, exit $rc: $(tail -n 1 "$d/report.txt")"
done <<<"$list"
echo "grade-class: $n submission(s) of $dir graded into $csv"

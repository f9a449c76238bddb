#!/usr/bin/env bash
# scripts/grade.sh: grade a stage's exercise (make grade STAGE=NN runs it).
#
#   scripts/grade.sh [--json FILE] [--gradescope FILE] [--exercise FILE [--out DIR]] NN [NN...]
#
# Builds stage NN with its exercise.c (or .cu) in place of the solution's kernel file, checks the
# exercise's variants (scripts/graders/gemm.sh; a stage with a checker of its own:
# scripts/graders/NN_topic.sh), times each that passes every check against the solution, and
# prints one report for every stage: per variant the checks passed of the total, the first
# failure with why and the command that reproduces it, the speed against the solution with its
# spread, then a verdict line. Exit status (the worst of the stages named):
#    0  every check passed           1  a check failed (or the exercise does not compile)
#   77  this machine cannot run the exercise (no AMX, no GPU, no nvcc, no MPI): not graded,
#       never a pass                  2  bad usage (an unknown stage, a bad option)
# make grade cannot pass 1 or 77 on (make exits 0 or 2): an autograder runs this script.
#
#   --json FILE        the result for a program: per stage the checks passed and failed, the
#                      first failure and its command, the speed ratio and its spread; the machine
#   --gradescope FILE  Gradescope's results.json: a test per variant, its score the checks passed
#   --exercise FILE    grade FILE in place of the stage's exercise (the tree's exercise.c is not
#                      touched; one stage); the graded programs are kept in --out DIR (default
#                      build/grade-runs/NN_topic/NAME), which the reproduce commands name
#   --tsv FILE         one line for a script (scripts/grade-class.sh): stage, checks passed,
#                      failed, first failure, its command, speed ratio, spread, exit status
#   GRADE_SPEED=off    no timing: the checks alone, and no wait for the benchmark lock
#   GRADE_TIMEOUT=S    the time limit of one run, in seconds (default 60)
#   GRADE_SIZE=N       the size of the timed runs (default 512, 2048 on a GPU)
#   GRADE_VARIANTS=a,b grade only these of the exercise's variants
#   GRADE_SHAPES=LIST  check these shapes (N or MxNxK, comma-separated) instead of tests/shapes.txt's
#   GRADE_SANITIZER=off  the checks in the release build alone: half the runs, but blind to a read
#                      out of bounds and to a write that leaves the bits it found
#
# The results of the exercise's runs reach the grader through files the harness writes into a
# private folder (--csv), never through the program's standard output, which the exercise's own
# printf can fill with anything. The grader runs the exercise inside the program it grades: code
# written to attack it can still forge a result, so grade on your machine with your tree.
set -u
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/grade-lib.sh
. scripts/grade-lib.sh # LC_ALL=C, limit (GRADE_TIMEOUT), ...
stages_list() { make -s list-stages | cut -c1-2 | sort | paste -sd' ' -; }
usage() {
    echo "usage: make grade STAGE=NN, or scripts/grade.sh [--json FILE] [--gradescope FILE] [--exercise FILE [--out DIR]] NN [NN...] (one of: $(stages_list))" >&2
    exit 2
}
json="" gradescope="" exercise="" out="" tsv="" names=()
while [ $# -gt 0 ]; do
    case $1 in
        --json | --gradescope | --exercise | --out | --tsv)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "grade: $1 needs a value" >&2; usage; }
            case $1 in --json) json=$2 ;; --gradescope) gradescope=$2 ;; --exercise) exercise=$2 ;;
                       --out) out=$2 ;; --tsv) tsv=$2 ;; esac
            shift 2 ;;
        -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "grade: unknown option '$1'" >&2; usage ;;
        *) names+=("$1"); shift ;;
    esac
done
[ "${#names[@]}" -gt 0 ] || usage
size_given=${GRADE_SIZE:-}
case $size_given in *[!0-9]* | 0) echo "grade: GRADE_SIZE takes a whole number ('$size_given')" >&2; exit 2 ;; esac
for knob in GRADE_SPEED GRADE_SANITIZER; do
    case ${!knob:-on} in on | off) ;; *) echo "grade: $knob takes on or off ('${!knob}')" >&2; exit 2 ;; esac
done
if [ -n "$exercise" ]; then
    [ "${#names[@]}" -eq 1 ] || { echo "grade: --exercise grades one stage; ${#names[@]} were named (${names[*]})" >&2; exit 2; }
    [ -f "$exercise" ] && [ -r "$exercise" ] || { echo "grade: --exercise $exercise: no such file" >&2; exit 2; }
    exercise=$(cd "$(dirname "$exercise")" && echo "$PWD/$(basename "$exercise")")
elif [ -n "$out" ]; then
    echo "grade: --out goes with --exercise" >&2; exit 2
fi
for f in "$json" "$gradescope" "$tsv"; do # refused now, not after the work
    [ -z "$f" ] || { : >>"$f"; } 2>/dev/null || { echo "grade: cannot write $f" >&2; exit 2; }
done
# a private folder for the runs' files (the harness's CSVs): one line when there is none
work=$(mktemp -d "${TMPDIR:-/tmp}/grade.XXXXXX" 2>/dev/null) || {
    echo "grade: cannot make a folder in the temporary folder ${TMPDIR:-/tmp}$([ -n "${TMPDIR:-}" ] && echo " (TMPDIR)"): set TMPDIR to a folder you can write" >&2
    exit 2
}
trap 'rm -rf "$work"' EXIT

# STAGE=2, 02, 02_loop_order and loop_order all name stage 02; every one named must be a stage
lines=()
for stage in "${names[@]}"; do
    num=$(case $stage in [0-9] | [0-9][0-9]) printf %02d "$((10#$stage))" ;; esac)
    line=$(make -s list-stages | awk -v s="$stage" -v n="$num" '$1 == s || $2 == s || (n != "" && substr($1, 1, 3) == n "_")')
    [ -n "$line" ] || { echo "grade: no stage $stage (one of: $(stages_list))" >&2; exit 2; }
    lines+=("$line")
done

# grade_stage DIR PROG KIND: build, check, time; the records in $work/DIR; returns the status
grade_stage() {
    local dir=$1 prog=$2 kind=$3 ext sw shown shown_asan rc why
    ext=$([ "$kind" = gpu ] && echo cu || echo c)
    sw=$work/$dir
    mkdir -p "$sw/bin" "$sw/sol" "$sw/asan"
    : >"$sw/checks.tsv"; : >"$sw/notrun.tsv"; : >"$sw/speed.tsv"; : >"$sw/about"
    printf '%s\n' "${exercise:-$dir/exercise.$ext}" >"$sw/exercise"
    if [ -n "$exercise" ]; then
        echo "== grading $exercise as $dir's exercise"
    else
        echo "== grading $dir/exercise.$ext"
    fi
    # what this machine lacks to build the stage: not the exercise's fault, so not graded
    if [ "$kind" = gpu ] && [ -z "$(make -s grade-nvcc)" ]; then
        echo "no nvcc: a CUDA exercise cannot be built here (install the CUDA toolkit, or set NVCC)" >"$sw/nograde"
        return 77
    fi
    why=$(make -s missing-stages | awk -v d="$dir" '$1 == d { $1 = ""; sub(/^ /, ""); print }')
    if [ -n "$why" ]; then
        echo "$dir $why" >"$sw/nograde"
        return 77
    fi
    local sol=$dir/$prog ex=build/grade/$dir/$prog exa=build/grade-asan/$dir/$prog
    [ "$kind" = cpu ] && [ "${GRADE_SANITIZER:-on}" = on ] || exa=""
    # the solution first: a stage that does not build here is the machine's, not the exercise's
    if ! make -s "$sol" >"$sw/build.log" 2>&1; then
        cat "$sw/build.log"
        echo "the stage itself does not build on this machine (the messages above)" >"$sw/nograde"
        return 77
    fi
    # the exercise's builds, and copies of the programs to run: a build of another exercise in
    # this tree (a class graded beside a student's make grade) must not change them mid-run
    (
        command -v flock >/dev/null && { flock 9 || exit 1; }
        make -s EXERCISE="${exercise:-$dir/exercise.$ext}" $ex $exa >"$sw/build.log" 2>&1 &&
            cp "$sol" "$sw/sol/" && cp "$ex" "$sw/bin/" && { [ -z "$exa" ] || cp "$exa" "$sw/asan/"; }
    ) 9>>build/.grade-lock
    rc=$?
    if [ -n "$exercise" ]; then # the programs the reproduce commands name
        local keep=${out:-build/grade-runs/$dir/$(basename "${exercise%.*}")}
        mkdir -p "$keep" 2>/dev/null && [ -w "$keep" ] || { echo "grade: --out $keep: cannot write there" >&2; exit 2; }
        shown=$keep/$prog shown_asan=$keep/$prog-asan
        [ $rc -ne 0 ] || { cp "$sw/bin/$prog" "$shown" && { [ -z "$exa" ] || cp "$sw/asan/$prog" "$shown_asan"; }; }
    else
        shown=$ex shown_asan=$exa
    fi
    if [ $rc -ne 0 ]; then
        cat "$sw/build.log"
        why=$(grep -m1 -E 'error|Error' "$sw/build.log" | cut -c1-200)
        printf 'compile\tthe exercise\tmake\tFAIL\tit does not compile%s\t%s\n' "${why:+: $why}" \
            "make$([ -n "$exercise" ] && echo " EXERCISE=$exercise") $ex" >>"$sw/checks.tsv"
        return 1
    fi
    local size=${size_given:-$([ "$kind" = gpu ] && echo 2048 || echo 512)}
    local checker=scripts/graders/gemm.sh
    [ -f "scripts/graders/$dir.sh" ] && checker=scripts/graders/$dir.sh
    GRADE_WORK=$sw GRADE_DIR=$dir GRADE_PROG=$prog GRADE_KIND=$kind GRADE_SIZE=$size \
        GRADE_EX=$sw/bin/$prog GRADE_EX_ASAN=$([ -n "$exa" ] && echo "$sw/asan/$prog") GRADE_SOL=$sw/sol/$prog \
        GRADE_EX_NAME=$shown GRADE_EX_ASAN_NAME=$shown_asan GRADE_SPEED=${GRADE_SPEED:-on} \
        GRADE_VARIANTS=${GRADE_VARIANTS:-} GRADE_SHAPES=${GRADE_SHAPES:-} bash "$checker"
    rc=$?
    [ $rc -eq 0 ] || { echo "grade: $checker ended with exit $rc" >>"$sw/nograde"; return 2; }
    if [ ! -s "$sw/checks.tsv" ]; then # nothing ran: every variant is one this machine cannot run
        [ -s "$sw/notrun.tsv" ] || [ -s "$sw/nograde" ] || echo "no variant was checked" >"$sw/nograde"
        return 77
    fi
    awk -F'\t' '$4 == "FAIL" { bad = 1 } END { exit bad }' "$sw/checks.tsv" && return 0 || return 1
}

# report DIR STATUS: the report of one stage, from its records
report() {
    local dir=$1 status=$2 sw=$work/$1
    local checks speed
    checks=$(sed -n 's/^checks=//p' "$sw/about")
    speed=$(sed -n 's/^speed=//p' "$sw/about")
    if [ -s "$sw/checks.tsv" ] || [ -s "$sw/notrun.tsv" ]; then
        echo "checks${checks:+ ($checks)}:"
        # per variant, in the order checked: the count, how a run ended if it did not end by
        # itself, a few failing cases, then the first failure (the first option set, then the
        # first shape; the edge cases last), why, and the command that shows it
        awk -F'\t' '
            !($1 in n) { order[++nv] = $1 }
            { n[$1]++; opts = $3 }
            $4 == "PASS" { ok[$1]++ }
            $4 == "FAIL" && $5 ~ /^(crashed|AddressSanitizer|UndefinedBehaviorSanitizer|stopped by the sanitizers)/ && !($1 in ended) {
                w = $5; sub(/:.*/, "", w); sub(/ \(.*/, "", w) ; if (w !~ /^crashed/) w = "stopped by " w
                if ($5 ~ /^crashed/) w = $5
                ended[$1] = "; " w " at " $2 " (" opts ")"; stopkind[$1] = w }
            $4 == "FAIL" && $5 ~ /^timed out: / && !($1 in ended) { ended[$1] = "; timed out at " $2 " (" opts "): " substr($5, 12) }
            $4 == "FAIL" && $5 ~ /^(crashed|AddressSanitizer|UndefinedBehaviorSanitizer|stopped by the sanitizers)/ { crashes[$1]++ }
            $4 == "FAIL" && nf[$1] < 4 && index(eg[$1] " ", " " $2 " (" opts ") ") == 0 { nf[$1]++; eg[$1] = eg[$1] " " $2 " (" opts ")" }
            $4 == "FAIL" && !($1 in first) {
                first[$1] = $2 " (" opts "): " ($5 == "" ? "no reason printed" : $5)
                cmd[$1] = $6 }
            END { for (k = 1; k <= nv; k++) { v = order[k]
                    if (crashes[v] > 1) ended[v] = ended[v] " and " crashes[v] - 1 " more"
                    printf "  %-16s %3d of %3d pass%s%s\n", v, ok[v], n[v], ended[v], (v in eg ? "; failing e.g." eg[v] : "")
                    if (v in first) printf "      first failure: %s\n      reproduce:     %s\n", first[v], cmd[v] } }' "$sw/checks.tsv"
        while IFS=$'\t' read -r v why; do
            printf "  %-16s not graded: it cannot run here (%s)\n" "$v" "$why"
        done <"$sw/notrun.tsv"
        local total good
        total=$(wc -l <"$sw/checks.tsv"); good=$(awk -F'\t' '$4 == "PASS"' "$sw/checks.tsv" | wc -l)
        echo "  total: $good of $total$([ -s "$sw/notrun.tsv" ] && echo "; $(wc -l <"$sw/notrun.tsv") variant(s) not graded on this machine")"
    fi
    if [ -n "$speed" ] && [ "$status" -ne 77 ]; then
        if [ "${GRADE_SPEED:-on}" = off ]; then
            echo "speed: not measured (GRADE_SPEED=off)"
        else
            echo "speed $speed (variants that pass every check):"
            awk -F'\t' '{ printf "  %-16s %s\n", $1, $4 }' "$sw/speed.tsv"
        fi
    fi
    verdict "$dir" "$status"
}

# verdict DIR STATUS: the last line of a stage's report
verdict() {
    local dir=$1 status=$2 sw=$work/$1 good total why
    total=$(wc -l <"$sw/checks.tsv"); good=$(awk -F'\t' '$4 == "PASS"' "$sw/checks.tsv" | wc -l)
    case $status in
        0) echo "grade $dir: PASS (exit 0): every check passes ($good of $total)$(speed_summary "$sw")" ;;
        1) echo "grade $dir: FAIL (exit 1): $good of $total checks pass; the first failure is above" ;;
        77) why=$(cat "$sw/nograde" 2>/dev/null)
            # (the program's line without its name and "skipped": "--variant amx_naive needs AMX-BF16, ...")
            [ -n "$why" ] || why="this $([ "$(kind_of "$dir")" = gpu ] && echo machine || echo CPU) cannot run the exercise ($(cut -f2 "$sw/notrun.tsv" | sed 's/^[^ :]*: //; s/: skipped$//' | sort -u | paste -sd';' | sed 's/;/; /g'))"
            echo "grade $dir: NOT GRADED (exit 77): $why; nothing graded, so no pass" ;;
        *) echo "grade $dir: NOT GRADED (exit $status): $(cat "$sw/nograde" 2>/dev/null)" ;;
    esac
}
kind_of() { make -s list-stages | awk -v d="$1" '$1 == d { print $3 }'; }
# speed_summary SW: "; speed 0.97x ±5% the solution" for a stage whose variants were timed
speed_summary() {
    [ "${GRADE_SPEED:-on}" = off ] && { echo "; speed not measured (GRADE_SPEED=off)"; return; }
    awk -F'\t' '$2 != "" { n++; r[n] = $2; s = ($3 > s ? $3 : s); lo = (n == 1 || $2 < lo) ? $2 : lo; hi = (n == 1 || $2 > hi) ? $2 : hi }
        $2 == "" && $4 ~ /^too noisy/ { noisy++ }
        END { if (n == 1) printf "; speed %.2fx \302\261%.0f%% the solution", r[1], 100 * s
              else if (n > 1) printf "; speeds %.2fx to %.2fx the solution", lo, hi
              if (noisy) printf "%s%d too noisy to judge", (n ? ", " : "; "), noisy }' "$1/speed.tsv"
}

# ---- JSON and Gradescope -----------------------------------------------------------------------
machine_cpu() { awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null; }
machine_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1; }

# results_awk MODE: one awk program for both files, over every stage's records (MODE json or
# gradescope); its input is the files of each stage, announced by a "@stage DIR STATUS" line
results() {
    local mode=$1 d st
    for d in "${dirs[@]}"; do
        st=${status_of[$d]}
        printf '@stage\t%s\t%s\t%s\t%s\n' "$d" "$st" "$(cat "$work/$d/exercise")" "$(cat "$work/$d/nograde" 2>/dev/null | head -n 1)"
        [ "$st" = 77 ] && [ ! -s "$work/$d/checks.tsv" ] || sed 's/^/@check\t/' "$work/$d/checks.tsv"
        sed 's/^/@notrun\t/' "$work/$d/notrun.tsv"
        sed 's/^/@speed\t/' "$work/$d/speed.tsv"
        printf '@verdict\t%s\n' "$(verdict "$d" "$st")"
    done | awk -F'\t' -v mode="$mode" -v status="$worst" -v cpu="$(machine_cpu)" -v gpu="$(machine_gpu)" \
        -v cores="$(nproc 2>/dev/null)" -v git="$(git describe --always --dirty 2>/dev/null)" \
        -v date="$(date -u +%Y-%m-%dT%H:%M:%SZ)" -v speed_on="${GRADE_SPEED:-on}" '
        function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); gsub(/\n/, "\\n", s); gsub(/[\001-\037]/, " ", s); return "\"" s "\"" }
        function num(x) { return x == "" ? "null" : x + 0 }
        $1 == "@stage" { ns++; sd[ns] = $2; sst[ns] = $3; sex[ns] = $4; sno[ns] = $5; nv[ns] = 0 }
        function var(name,  k) { k = ns SUBSEP name; if (!(k in vi)) { vi[k] = ++nv[ns]; vn[ns, nv[ns]] = name }; return vi[k] }
        $1 == "@check" { i = var($2); n[ns, i]++; if ($5 == "PASS") p[ns, i]++
            else if (!((ns, i) in ff)) { ff[ns, i] = 1; fcase[ns, i] = $3 " (" $4 ")"; fwhy[ns, i] = $6; fcmd[ns, i] = $7
                if (!(ns in sff)) sff[ns] = i } }
        $1 == "@notrun" { i = var($2); nr[ns, i] = $3 }
        $1 == "@speed" { i = var($2); sp[ns, i] = 1; sr[ns, i] = $3; ss[ns, i] = $4; stxt[ns, i] = $5
            if ($3 != "") { nt[ns]++; lg[ns] += log($3); if ($4 > smax[ns]) smax[ns] = $4 } }
        $1 == "@verdict" { vline[ns] = $2 }
        function failure(s, i) { return i == "" ? "null" : "{\"variant\": " q(vn[s, i]) ", \"case\": " q(fcase[s, i]) ", \"why\": " q(fwhy[s, i]) ", \"reproduce\": " q(fcmd[s, i]) "}" }
        function stage_ratio(s) { return nt[s] ? sprintf("%.4f", exp(lg[s] / nt[s])) : "" }
        END {
            if (mode == "json") json(); else gradescope() }
        function json(  s, i, tp, tf, P, F, out) {
            printf "{\n  \"status\": %d,\n", status
            for (s = 1; s <= ns; s++) for (i = 1; i <= nv[s]; i++) { tp += p[s, i]; tf += n[s, i] - p[s, i] }
            printf "  \"checks\": {\"passed\": %d, \"failed\": %d},\n", tp, tf
            for (s = 1; s <= ns && !(s in sff); s++) ;
            printf "  \"first_failure\": %s,\n", s <= ns ? failure(s, sff[s]) : "null"
            printf "  \"machine\": {\"cpu\": %s, \"gpu\": %s, \"cores\": %s},\n", q(cpu), gpu == "" ? "null" : q(gpu), num(cores)
            printf "  \"git\": %s,\n  \"date\": %s,\n  \"stages\": [", q(git), q(date)
            for (s = 1; s <= ns; s++) {
                P = F = 0
                for (i = 1; i <= nv[s]; i++) { P += p[s, i]; F += n[s, i] - p[s, i] }
                printf "%s\n    {\"stage\": %s, \"exercise\": %s, \"status\": %d, \"verdict\": %s,\n", (s > 1 ? "," : ""), q(sd[s]), q(sex[s]), sst[s], q(vline[s])
                printf "     \"not_graded\": %s,\n", sst[s] == 77 || sst[s] == 2 ? q(sno[s] != "" ? sno[s] : vline[s]) : "null"
                printf "     \"checks\": {\"passed\": %d, \"failed\": %d},\n", P, F
                printf "     \"first_failure\": %s,\n", (s in sff) ? failure(s, sff[s]) : "null"
                printf "     \"speed\": %s,\n", speed_on == "off" ? "null" : nt[s] ? sprintf("{\"ratio\": %s, \"spread\": %s, \"variants_timed\": %d}", stage_ratio(s), num(smax[s]), nt[s]) : "null"
                printf "     \"variants\": ["
                for (i = 1; i <= nv[s]; i++) {
                    printf "%s\n       {\"name\": %s, \"passed\": %d, \"failed\": %d, \"not_graded\": %s, \"first_failure\": %s, \"speed\": %s}", (i > 1 ? "," : ""),
                        q(vn[s, i]), p[s, i], n[s, i] - p[s, i], ((s, i) in nr) ? q(nr[s, i]) : "null",
                        ((s, i) in ff) ? failure(s, i) : "null",
                        ((s, i) in sp) ? sprintf("{\"ratio\": %s, \"spread\": %s, \"text\": %s}", num(sr[s, i]), num(ss[s, i]), q(stxt[s, i])) : "null"
                }
                printf "\n     ]}"
            }
            printf "\n  ]\n}\n"
        }
        # Gradescope: a test per variant, its score the checks it passed of its checks; the speed
        # in its output (score it as you wish: the ratio is in the JSON). Scale in Gradescope.
        function gradescope(  s, i, S, M, out, o) {
            printf "{\n  \"tests\": ["
            for (s = 1; s <= ns; s++) {
                if (sst[s] == 77 || sst[s] == 2 || nv[s] == 0) {
                    printf "%s\n    {\"name\": %s, \"score\": 0, \"max_score\": 0, \"output\": %s}", (o++ ? "," : ""), q(sd[s] ": not graded"), q(vline[s])
                    continue
                }
                for (i = 1; i <= nv[s]; i++) {
                    if ((s, i) in nr) { out = "not graded: it cannot run here (" nr[s, i] ")" }
                    else {
                        out = p[s, i] " of " n[s, i] " checks pass"
                        if ((s, i) in ff) out = out "\nfirst failure: " fcase[s, i] ": " fwhy[s, i] "\nreproduce: " fcmd[s, i]
                        if ((s, i) in sp) out = out "\nspeed: " stxt[s, i]
                    }
                    S += p[s, i]; M += n[s, i]
                    printf "%s\n    {\"name\": %s, \"score\": %d, \"max_score\": %d, \"output\": %s}", (o++ ? "," : ""), q(sd[s] " " vn[s, i]), p[s, i], n[s, i], q(out)
                }
            }
            for (s = 1; s <= ns; s++) v_all = v_all (s > 1 ? "\n" : "") vline[s]
            printf "\n  ],\n  \"score\": %d,\n  \"max_score\": %d,\n  \"output\": %s\n}\n", S, M, q(v_all)
        }'
}

# ---- grade every stage named ---------------------------------------------------------------------
declare -A status_of
dirs=()
worst=0
for line in "${lines[@]}"; do
    read -r dir prog kind <<<"$line"
    case " ${dirs[*]} " in *" $dir "*) continue ;; esac # (a stage named twice is graded once)
    dirs+=("$dir")
    grade_stage "$dir" "$prog" "$kind"
    st=$?
    status_of[$dir]=$st
    report "$dir" "$st"
    # the worst: bad usage, then a failed check, then not graded, then a pass
    for s in 2 1 77; do
        [ "$st" -eq $s ] || [ "$worst" -eq $s ] && { worst=$s; break; }
    done
done
if [ "${#dirs[@]}" -gt 1 ]; then
    echo "grade: ${#dirs[@]} stages: $(for d in "${dirs[@]}"; do printf '%s exit %s, ' "$d" "${status_of[$d]}"; done | sed 's/, $//'); exit $worst (the worst)"
fi
[ -z "$json" ] || results json >"$json"
[ -z "$gradescope" ] || results gradescope >"$gradescope"
if [ -n "$tsv" ]; then # one line for grade-class.sh: the first stage's
    d=${dirs[0]}
    awk -F'\t' -v st="${status_of[$d]}" -v d="$d" '
        FILENAME == ARGV[1] { if ($4 == "PASS") p++; else { f++; if (!w) { w = ($1 == "compile" ? "" : $1 " at ") $2 " (" $3 "): " $5; c = $6 } }; next }
        $2 != "" { n++; lg += log($2); if ($3 > sp) sp = $3 }
        END { printf "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", d, p, f, w, c, n ? sprintf("%.3f", exp(lg / n)) : "", n ? sprintf("%.3f", sp) : "", st }' \
        "$work/$d/checks.tsv" "$work/$d/speed.tsv" >"$tsv"
fi
if [ -n "${GRADE_FROM_MAKE:-}" ] && [ "$worst" -ne 0 ]; then # make's own "Error" line follows
    case $worst in
        1) what="a check failed: this is the grade, not a build error" ;;
        77) what="this machine cannot run the exercise: not graded (no pass), not a build error" ;;
        *) what="bad usage" ;;
    esac
    echo "make grade: exit status $worst means $what; scripts/grade.sh ${names[*]} returns it (make can only say Error)"
fi
exit $worst

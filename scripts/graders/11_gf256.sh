#!/usr/bin/env bash
# 11_gf256's checks and timing, for scripts/grade.sh in place of the GEMM stages'
# (scripts/graders/gemm.sh, which says what the GRADE_* variables are; scripts/grade-lib.sh what
# the records this leaves in $GRADE_WORK hold).
#
# First each TODO of the exercise alone (the program's --todo: its function against the
# harness's own arithmetic, with the harness's tables in place of TODO 1's), so that a student
# who has done TODOs 1 to 3 sees them pass before the code as a whole can. Then encode and decode
# of every variant this machine can run, each variant in runs of its own: RS(4,3) with every
# erasure set, RS(10,4), RS(1,1) and RS(20,7) off alignment, at awkward chunk lengths; a run that
# crashes is named and the lengths left run again without the one it ended on. Everything in the
# release build, whose guards around every chunk catch a write past one, and in the ASan + UBSan
# build. Once every check passes, table and split_tables are timed against the solution at
# RS(10,4) with 1 MiB chunks.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/grade-lib.sh
. scripts/grade-lib.sh # limit (GRADE_TIMEOUT), run, ending, check_row, fail_rest, merge_sanitizer, timed_rounds
w=$GRADE_WORK
report=$w/out
: >"$w/checks.tsv"
: >"$w/notrun.tsv"
: >"$w/speed.tsv"
CONFIGS=("--data 4 --parity 3 --erasures all" "--data 10 --parity 4" "--data 1 --parity 1" "--data 20 --parity 7 --offset 5")
LENS=("1,7,33,4097" "1,63,65,100000" "5" "3000")
cat >"$w/about" <<EOF
checks=each TODO alone (--todo); then encode and decode of every variant: RS(4,3) with every erasure set, RS(10,4), RS(1,1), RS(20,7) off alignment, at awkward lengths$([ -n "$GRADE_EX_ASAN" ] && echo "; each also under AddressSanitizer and UBSan")
speed=at RS(10,4), 1 MiB chunks, against the solution
unit=GB/s
EOF
builds=("$GRADE_EX|$GRADE_EX_NAME")
[ -z "$GRADE_EX_ASAN" ] || builds+=("$GRADE_EX_ASAN|$GRADE_EX_ASAN_NAME")

# ---- each TODO alone: one --todo run a TODO and build, so that a crash in one names it alone
# the TODOs, what each checks (the solution's rows): "t<TAB>function<TAB>what uses it<TAB>checks"
rm -f "$w/todo-sol.csv"
run "$GRADE_SOL" --todo all --csv "$w/todo-sol.csv"
awk -F, 'FNR > 1 { print $2 "\t" $3 "\t" $4 "\t" $5 }' "$w/todo-sol.csv" >"$w/todos" 2>/dev/null
while IFS=$'\t' read -r t fn uses total; do
    pass=$total why="" cmd=""
    for b in "${builds[@]}"; do
        bin=${b%%|*} name=${b#*|}
        rm -f "$w/todo.csv"
        run "$bin" --todo "$t" --csv "$w/todo.csv"
        read -r p y < <(awk -F, -v t="$t" 'FNR > 1 && $2 == t { gsub(/;/, ",", $8); print $6 "\t" $8 }' "$w/todo.csv" 2>/dev/null)
        if [ -z "${p:-}" ]; then # no row: the run ended before it
            p=0 y=${ended:-exit $rc: $(last_line)}
            echo "  TODO $t ($fn): $y$([ "$bin" = "$GRADE_EX_ASAN" ] && echo " (sanitizer build)")" # as it happens
        fi
        if [ "$p" -lt "$pass" ]; then # the build with the fewest passes: its reason
            pass=$p why=$y cmd="$name --todo $t"
            [ "$bin" != "$GRADE_EX_ASAN" ] || [ -n "$(ending $rc)" ] || why="in the sanitizer build: $why"
        fi
    done
    for ((i = 0; i < total; i++)); do
        if [ "$i" -lt "$pass" ]; then check_row "TODO $t" "$fn" "alone" PASS "" ""
        else check_row "TODO $t" "$fn" "alone; used by $uses" FAIL "$([ "$i" -eq "$pass" ] && echo "$why")" "$cmd"; fi
    done
done <"$w/todos"

# ---- encode and decode of every variant this machine can run
# rows V: the rows of a run in $w/run.csv for variant V: "len<TAB>encode<TAB>decode<TAB>why", the
# reasons from the lines under the rows, in order (a CPU variant's under its failing rows only; a
# GPU variant's, the tile shape and any reason, under every length's rows)
rows() {
    awk '/^    [^ ]/ { print substr($0, 5) }' "$report" >"$w/whys"
    awk -F, -v v="$1" 'FILENAME == ARGV[1] { why[++nw] = $0; next }
        FNR > 1 && $2 == v { f = ($15 == "FAIL" || $16 == "FAIL")
            y = (v ~ /^gpu_/ || f) ? why[++k] : ""
            print $5 "\t" $15 "\t" $16 "\t" (f ? y : "") }' "$w/whys" "$w/run.csv" 2>/dev/null
}
# check V BIN NAME OUT: every configuration and length, two checks a length (encode, and decode
# where the configuration erases chunks), one line a check into OUT
check() {
    local v=$1 bin=$2 name=$3 out=$4 c left n len enc dec why cmd label part
    local GRADE_WORK=$w/one
    mkdir -p "$GRADE_WORK"
    : >"$GRADE_WORK/checks.tsv"
    for c in "${!CONFIGS[@]}"; do
        IFS=, read -ra left <<<"${LENS[$c]}"
        label=$(echo "${CONFIGS[$c]}" | sed -E 's/--data ([0-9]+) --parity ([0-9]+)/RS(\1,\2)/')
        cmd=$(echo "$name" --variant "$v" ${CONFIGS[$c]} --len @CASE@ --no-baseline --reps 1)
        while [ "${#left[@]}" -gt 0 ]; do
            rm -f "$w/run.csv"
            # shellcheck disable=SC2086
            run "$bin" --variant "$v" ${CONFIGS[$c]} --len "$(IFS=,; echo "${left[*]}")" --no-baseline --reps 1 --csv "$w/run.csv"
            n=0
            while IFS=$'\t' read -r len enc dec why; do
                [ "$n" -lt "${#left[@]}" ] && [ "$len" = "${left[$n]}" ] || break
                [ "$enc" = - ] || check_row "$v" "len $len encode" "$label" "$enc" "$([ "$enc" = FAIL ] && echo "$why")" "${cmd//@CASE@/$len}"
                [ "$dec" = - ] || check_row "$v" "len $len decode" "$label" "$dec" "$([ "$dec" = FAIL ] && echo "$why")" "${cmd//@CASE@/$len}"
                n=$((n + 1))
            done < <(rows "$v")
            left=("${left[@]:n}")
            [ "${#left[@]}" -gt 0 ] || break
            case $rc in
                0 | 1) ended="no row written for it (exit $rc)" ;;
                *) [ -n "$ended" ] || ended="exit $rc: $(last_line)" ;;
            esac
            echo "  $v, $label, len ${left[0]}: $ended$([ "$bin" = "${GRADE_EX_ASAN:-}" ] && echo " (sanitizer build)")" # as it happens
            for len in "${left[@]}"; do # this length for how the run ended; after a time-out, the rest too
                why=$([ "$len" = "${left[0]}" ] && echo "$ended" || echo "not run: $v timed out earlier")
                for part in encode decode; do
                    [ "$part" = decode ] && [ "$len" = "${left[0]}" ] && why="not run: the run ended at its encode"
                    check_row "$v" "len $len $part" "$label" FAIL "$why" "${cmd//@CASE@/$len}"
                done
                [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || break
            done
            [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || break
            left=("${left[@]:1}") # the rest again, without it
        done
    done
    cat "$GRADE_WORK/checks.tsv" >>"$out"
}
while read -r v rest; do
    case $rest in
        *"[not here: "*) printf '%s\t%s\n' "$v" "needs $(echo "$rest" | sed 's/.*\[not here: this machine lacks \(.*\)\]$/\1/')" >>"$w/notrun.tsv"; continue ;;
    esac
    [ -z "${GRADE_VARIANTS:-}" ] || case ",$GRADE_VARIANTS," in *",$v,"*) ;; *) continue ;; esac
    : >"$w/rel.tsv"
    check "$v" "$GRADE_EX" "$GRADE_EX_NAME" "$w/rel.tsv"
    if [ -n "$GRADE_EX_ASAN" ]; then
        : >"$w/asan.tsv"
        check "$v" "$GRADE_EX_ASAN" "$GRADE_EX_ASAN_NAME" "$w/asan.tsv"
        merge_sanitizer "$w/rel.tsv" "$w/asan.tsv" >>"$w/checks.tsv"
    else
        cat "$w/rel.tsv" >>"$w/checks.tsv"
    fi
done < <("$GRADE_SOL" --list 2>/dev/null)

# ---- speed: the scalar kernel and split_tables, against the solution, once every check passes
[ "${GRADE_SPEED:-on}" = off ] && exit 0
# timed BIN V: one timed run's row as "gbps_in baseline_gbps_in load - library"
timed() {
    rm -f "$w/timed.csv"
    { scripts/bench-lock timeout -k 5 "$limit" "$1" --variant "$2" --no-check --len 1M \
        --csv "$w/timed.csv" >"$report" 2>&1 </dev/null; } 2>/dev/null
    local rc=$? load
    load=$(busy_load)
    awk -F, -v v="$2" -v l="$load" 'FNR > 1 && $2 == v { print $11, ($14 == "" ? "-" : $14), l, "-", ($13 == "" ? "-" : $13) }' "$w/timed.csv" 2>/dev/null
    return $rc
}
for v in table split_tables; do
    if grep -q "^$v"$'\t' "$w/notrun.tsv"; then continue; fi
    if awk -F'\t' '$4 == "FAIL" { bad = 1 } END { exit !bad }' "$w/checks.tsv"; then
        printf '%s\t\t\tnot timed: fix the checks first\n' "$v" >>"$w/speed.tsv"; continue
    fi
    time_rounds "$v" GB/s "" >>"$w/speed.tsv"
done
exit 0

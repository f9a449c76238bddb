# scripts/grade-lib.sh: what the graders share, sourced from the repository root by
# scripts/grade.sh and by each stage's checker (scripts/graders/gemm.sh, the GEMM stages';
# scripts/graders/NN_topic.sh, a stage that checks itself): the time limit of one run, how a run
# that did not end by itself ended, and the records a checker leaves for grade.sh's report.
#   GRADE_TIMEOUT=S   the time limit of one run, in seconds (default 60)
#
# A checker's records, in its folder $GRADE_WORK (private to the grading run), tab-separated:
#   checks.tsv  one line a check: variant, case, options, PASS|FAIL, why, the command that
#               shows it (FAIL); in the order the report lists them
#   notrun.tsv  one line a variant this machine cannot run: variant, why
#   speed.tsv   one line a variant timed or not: variant, ratio to the solution, its spread (both
#               empty where there is no ratio), the report's text for it
#   about       what the report says it checked and timed: "checks=..." and "speed=..." lines
# The results of the exercise's runs come from files the harness writes (--csv into
# $GRADE_WORK), never from its standard output: a kernel can print anything there. Only the
# reasons (the harness's "first bad element" lines) are read from standard output.
# shellcheck shell=bash disable=SC2034,SC2154 # (report: set by the sourcing script; rc, ended: read by it)

# Every number the scripts print or compute in the C locale: under LC_ALL=de_DE.UTF-8, awk's
# printf writes "40,00" and reads "1,5" as 1.
export LC_ALL=C
limit=${GRADE_TIMEOUT:-60}
case $limit in '' | *[!0-9]*) echo "grade: GRADE_TIMEOUT takes a whole number of seconds ('$limit')" >&2; exit 2 ;; esac
# A run of the sanitizer build that the sanitizers stop exits with this status (not 1, their
# default, which is a failed check); leaks are not the exercise's concern here.
SANITIZER_EXIT=86
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=$SANITIZER_EXIT:detect_leaks=0:halt_on_error=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=$SANITIZER_EXIT:halt_on_error=1:print_stacktrace=1"

# sanitizer_why: what the sanitizer report in $report says, in a line: the error, the access,
# the function and the line of code ("AddressSanitizer: heap-buffer-overflow, a WRITE of 4 bytes,
# in gemm_ikj at 02_loop_order/exercise.c:31")
sanitizer_why() {
    awk '
        /ERROR: AddressSanitizer: / && kind == "" { kind = $0; sub(/.*ERROR: AddressSanitizer: /, "", kind); sub(/ on address .*/, "", kind) }
        /^(READ|WRITE) of size [0-9]+/ && acc == "" { acc = ", a " $1 " of " $4 " bytes" }
        / runtime error: / && ub == "" { ub = $0; sub(/^[^ ]*\/?/, "", ub); loc = $1; sub(/:$/, "", loc); sub(/.* runtime error: /, "", ub) }
        /^ *#[0-9]+ 0x[0-9a-f]+ in / && frame == "" { frame = ", in " $4 (NF >= 5 ? " at " $5 : "") }
        END {
            if (kind != "") {
                hint = kind == "use-after-poison" ? " (a guard the harness poisoned next to a buffer: past its end or before its start)" : ""
                print "AddressSanitizer: " kind acc frame hint
            } else if (ub != "") print "UndefinedBehaviorSanitizer: " ub " (at " loc ")"
            else print "stopped by the sanitizers (exit '"$SANITIZER_EXIT"')"
        }' "$report" | sed 's#build/grade-src/[0-9][0-9]_[a-z0-9_]*/##g'
}

# ending RC: how a run that did not end by itself ended ("" if it did)
ending() {
    case $1 in
        124 | 137) echo "timed out: still running after $limit s (GRADE_TIMEOUT)" ;;
        "$SANITIZER_EXIT") sanitizer_why ;;
        *) [ "$1" -le 128 ] || echo "crashed (SIG$(kill -l $(($1 - 128)) 2>/dev/null || echo "NAL $(($1 - 128))"))" ;;
    esac
}
# run COMMAND...: the command under the time limit, its output in $report; sets rc and ended
run() {
    { timeout -k 5 "$limit" "$@" >"$report" 2>&1 </dev/null; } 2>/dev/null # (bash's "Segmentation fault")
    rc=$?
    ended=$(ending $rc)
}
last_line() { grep -v '^[[:space:]]*$' "$report" | tail -n 1; }
# whys: the harness's reasons in $report, in order, from lines that hold PREFIX anywhere (a
# kernel's printf("." ) before a row must not hide the line under it)
whys() { awk -v p="$1" '{ i = index($0, p); if (i) print substr($0, i + length(p)) }' "$report"; }

# check_row VARIANT CASE OPTIONS VERDICT WHY COMMAND: one check, into checks.tsv
check_row() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "${5//$'\t'/ }" "$6" >>"$GRADE_WORK/checks.tsv"; }
# fail_rest VARIANT OPTIONS FIRST REST COMMAND CASE...: the cases a run did not reach, failed: the
# first for FIRST (how the run ended), the others for REST
fail_rest() {
    local v=$1 opts=$2 first=$3 rest=$4 cmd=$5 c n=0
    shift 5
    for c in "$@"; do
        check_row "$v" "$c" "$opts" FAIL "$([ $n -eq 0 ] && echo "$first" || echo "$rest")" "${cmd//@CASE@/$c}"
        n=$((n + 1))
    done
}

# merge_sanitizer REL ASAN: checks.tsv from the release build's checks (REL) and the sanitizer
# build's (ASAN), one line a check: a check passes when it passed in both; where only the
# sanitizer build failed, its reason and command are the check's.
merge_sanitizer() {
    awk -F'\t' -v OFS='\t' '
        FILENAME == ARGV[1] { k = $1 FS $2 FS $3; if (!(k in a)) a[k] = $0; next }
        { k = $1 FS $2 FS $3
          if ($4 == "PASS" && (k in a) && split(a[k], s, FS) && s[4] == "FAIL") {
              $4 = "FAIL"; $5 = (s[5] ~ /^(AddressSanitizer|UndefinedBehaviorSanitizer|stopped by the sanitizers|crashed|timed out)/ ? "" : "in the sanitizer build: ") s[5]; $6 = s[6] }
          print }' "$2" "$1"
}

# timed_rounds NAME: the ratio of three rounds' "exercise solution" rate pairs (each rate against
# the library measured beside it, where there was one) on standard input, as speed.tsv's line for
# NAME: "NAME ratio spread text". Input lines: ex_rate ex_base ex_load ex_spread sol_rate sol_base
# sol_load sol_spread library ("-" where unknown). The spread is the larger of the harness's (the
# two runs' spreads added) and half the range of the rounds' ratios; past NOISY, no number:
# chapters' steps differ by 2x and more, and a verdict within +-25% still tells "as fast" from
# "half as fast", where four grades of one kernel on a shared machine read 0.38x to 1.06x.
NOISY=0.25
timed_rounds() {
    awk -v v="$1" -v noisy="$NOISY" -v unit="${2:-GFLOP/s}" '
        function median(x, n,  i, j, t) {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
            return x[int((n + 1) / 2)] }
        function rel(g, b) { return (b != "-" && b > 0) ? g / b : g }
        $1 > 0 && $5 > 0 { n++; ge[n] = $1; gs[n] = $5; q[n] = rel($1, $2) / rel($5, $6)
          s[n] = ($4 == "-" ? 0 : $4) + ($8 == "-" ? 0 : $8)
          if ($3 != "-" && $3 > load) load = $3
          if ($7 != "-" && $7 > load) load = $7
          lo = (n == 1 || q[n] < lo) ? q[n] : lo; hi = (n == 1 || q[n] > hi) ? q[n] : hi; lib = $9 }
        END { if (n == 0) { printf "%s\t\t\tnot timed: no rate measured\n", v; exit }
              for (i = 1; i <= n; i++) qq[i] = q[i]
              r = median(qq, n); spread = median(s, n)
              if (n > 1 && r > 0 && 0.5 * (hi - lo) / r > spread) spread = 0.5 * (hi - lo) / r
              busy = load >= 0.5 ? sprintf("; busy: others used %.1f cores", load) : ""
              how = sprintf("%d rounds", n) (lib == "-" || lib == "" ? "" : ", each against " lib)
              if (spread > noisy)
                  printf "%s\t\t%.3f\ttoo noisy to judge: %.3gx to %.3gx the solution, \302\261%.0f%% (%s)%s\n", v, spread, lo, hi, 100 * spread, how, busy
              else
                  printf "%s\t%.4f\t%.3f\t%9.2f %s, solution %9.2f: %.2fx \302\261%.0f%% (medians of %s)%s\n", v, r, spread, median(ge, n), unit, median(gs, n), r, 100 * spread, how, busy }'
}

# time_rounds VARIANT UNIT WHERE [PRE]: three rounds, each a run of the solution ($GRADE_SOL) and
# one of the exercise ($GRADE_EX), made by the grader's own `timed BIN VARIANT PRE`; prints the
# line for speed.tsv: the rounds' verdict (timed_rounds), or why the exercise's run was not timed
# (WHERE says where it ran: "at 512", "on 4 ranks"). Uses $w/times.
time_rounds() {
    local v=$1 unit=$2 where=$3 pre=${4:-} t_sol t_ex rc why
    : >"$w/times"
    for _ in 1 2 3; do
        t_sol=$(timed "$GRADE_SOL" "$v" "$pre")
        t_ex=$(timed "$GRADE_EX" "$v" "$pre")
        rc=$?
        if [ "$rc" -ne 0 ] || [ -z "$t_ex" ]; then
            why=$(ending $rc)
            printf '%s\t\t\tnot timed: its run%s %s\n' "$v" "${where:+ $where}" "${why:-exited $rc}"
            return 0
        fi
        [ -z "$t_sol" ] || echo "$t_ex $t_sol" | awk '{ print $1, $2, $3, $4, $6, $7, $8, $9, $5 }' >>"$w/times"
    done
    [ ! -s "$w/times" ] || timed_rounds "$v" "$unit" <"$w/times"
}

# busy_load: the harness's reading of the other processes' load during a run, from its header's
# last line in $report ("... other processes used 1.8 of 2 cores during the run"), or "-"
busy_load() {
    awk 'match($0, /used [0-9.]+ of [0-9]+ cores during the run/) { x = substr($0, RSTART + 5); sub(/ .*/, "", x); l = x }
         END { print (l == "" ? "-" : l) }' "$report"
}

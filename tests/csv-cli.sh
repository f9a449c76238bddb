#!/usr/bin/env bash
# tests/csv-cli.sh: the CSV files every program writes, and the edges of the command line.
# Why it is one file: every case is a run, a look at its file and a PASS or FAIL line, on the
# same scratch folder and shell functions; a case a line or three, grouped by what it exercises.
#
#   CSV (--csv of the harness, 06's --breakdown, 10's --stats, 11's --csv): refused before any
#   work with exit 2 and one line on stderr when the path is in a missing directory, is a
#   directory, is /dev/full, or holds another header or a half line (the file left as it was);
#   under `ulimit -f 1` every line of the file is a whole row; `--csv -` makes standard output
#   a valid CSV; a second run appends rows under the one header; a skipped run (exit 77)
#   leaves no file behind.
#   Every program: a run that ends before its first row leaves no file, skipped (77: MKL, a GPU it
#   lacks; 12's --fp32 too) or refused after the open (2: buffers it cannot allocate under
#   ulimit -d), and 11 refuses a length it cannot hold before it prints anything; --csv F > F
#   (standard output redirected into the CSV) is refused: exit 2, one line, F empty; with >> F
#   as it was.
#   Decimal-comma locales: every shell script of lab/, scripts/ and tests/ that reads or prints
#   numbers sets LC_ALL=C near its top; scripts/run-all.sh counts busy rows right under
#   de_DE.UTF-8 (built by localedef where the machine has none; else SKIP).
#   Pipes and FIFOs: --csv /dev/stdout into `head -n 2` or `cat`, and onto a FIFO with a reader
#   (one that leaves after a line too): the header and whole rows, and the run ends.
#   Runs creating one new file at once: one header and every run's rows (two runs whose opens a
#   preloaded tests/slow-open.c slows, so that they meet every time; eight runs as they come); a
#   skipped run that removes the file it made keeps the row of a run that opened it meanwhile.
#   A CSV with CRLF line ends is refused as such.
#   lab/scripts/upgrade-csv.sh: a last row with no newline, a row cut short, a row of 20 fields:
#   exit 2, one line, the file as it was; a whole file upgraded; CRLF made LF, and said; written
#   through a symbolic link, hard links and mode 640 kept, -n.csv upgraded; a line for each file,
#   exit 2 where one (empty, another schema, missing) could not be upgraded.
#   --edges --csv: its own header, a whole row a case; a file of the other schema refused both ways.
#   --csv with a mode that writes no rows (12's --probe, 14's --peak and --probe): exit
#   2, one line. --alpha 0:
#   no rate ("-" in the table, gflops empty in the CSV). `make stage` lists the stages.
#   Command line: --variant "" exits 2 in every program; --alpha/--beta 1e39 exit 2 (not a
#   finite float); -k 2147483647 --pad 1 says which leading dimension overflowed (and UBSan
#   stays quiet); stage 05 checks every argument before it refuses a kernel this CPU lacks
#   (--help 0, -m -5 2, then 77), --list shows every kernel and marks the missing ones;
#   --threads 1,2 adds a threads column; the ratio column is headed "vs <library>", or
#   "no baseline" under --no-baseline (01 and 14); empty list items, malformed sizes, 'all' among names,
#   an alpha that is 0 as a float, --device on a CPU stage: exit 2 with one line in every
#   program; the benchmark scripts refuse an unknown step (STEPS=, ONLY=) before they build, and
#   05's probe a malformed count, set or option; a CUDA program without a GPU says
#   "no NVIDIA GPU or driver found: skipped"; GEMM_CUDA_CC that is no compute capability
#   (abc, 8.6, sm_86, 9): exit 2, one line.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh tallies them); exits 0.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
LOG=build/test-logs/csv-cli
rm -rf "$LOG"
mkdir -p "$LOG"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
DATE_RE='^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z$' # mawk: no {4}
LAST_RE=$DATE_RE

# shellcheck source=tests/checker-lib.sh
. tests/checker-lib.sh

# refused DESC NAME PROGRAM ARGS...: exit 2, one line on stderr, nothing on stdout
refused() {
    local desc=$1 name=$2
    shift 2
    run "$name" "$@"
    local lines
    lines=$(wc -l <"$LOG/$name.err")
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$LOG/$name.out" ]; then
        pass "$desc -> exit 2: $(cat "$LOG/$name.err")"
    else
        fail "$desc -> exit $rc, $lines stderr lines, $(wc -c <"$LOG/$name.out") bytes on stdout (want 2, 1, 0; see $LOG/$name.*)"
    fi
}

# whole_rows FILE NFIELDS: the header once, first; every other line NFIELDS fields, the last one
# whole (its field LAST_AT, default the last, matching $LAST_RE: the date, or the git commit for
# 06's --breakdown); the file ends with a newline
whole_rows() {
    local file=$1 n=$2 at=${LAST_AT:-0}
    [ -s "$file" ] && [ "$(tail -c1 "$file" | od -An -c | tr -d ' ')" = '\n' ] &&
        [ "$(grep -c '^stage,' "$file")" -eq 1 ] && head -n1 "$file" | grep -q '^stage,' &&
        awk -F, -v n="$n" -v re="$LAST_RE" -v at="$at" \
            'NR > 1 && (NF != n || $(at ? at : NF) !~ re) { bad = 1 } END { exit bad }' "$file"
}

# csv_cases TAG NFIELDS WORKS PROGRAM ARGS...: the CSV cases for a program whose CSV option
# comes last in ARGS (its file is appended). WORKS: a command that writes at least a few
# hundred bytes of rows ("" if the program cannot run here).
csv_cases() {
    local tag=$1 n=$2 works=$3
    shift 3
    refused "$tag: a file in a missing directory" "$tag-nodir" "$@" "$T/no/such/dir/x.csv"
    echo data >"$T/plain"
    refused "$tag: a path through a regular file" "$tag-notdir" "$@" "$T/plain/x.csv"
    refused "$tag: a directory" "$tag-dir" "$@" "$T"
    refused "$tag: /dev/full" "$tag-full" "$@" /dev/full
    printf 'a,b\n1,2\n' >"$T/$tag-foreign.csv"
    cp "$T/$tag-foreign.csv" "$T/$tag-foreign.orig"
    refused "$tag: a file with another header" "$tag-foreign" "$@" "$T/$tag-foreign.csv"
    cmp -s "$T/$tag-foreign.csv" "$T/$tag-foreign.orig" || fail "$tag: the foreign file was changed"
    [ -z "$works" ] && return
    # shellcheck disable=SC2086
    $works "$T/$tag-ok.csv" >/dev/null 2>"$LOG/$tag-ok.err"
    local rc1=$?
    if [ $rc1 -eq 0 ] && whole_rows "$T/$tag-ok.csv" "$n"; then
        pass "$tag: a new file gets the header and whole rows of $n fields"
    else
        fail "$tag: first run exit $rc1 or bad rows (see $LOG/$tag-ok.err, $T/$tag-ok.csv)"
    fi
    # shellcheck disable=SC2086
    $works "$T/$tag-ok.csv" >/dev/null 2>>"$LOG/$tag-ok.err"
    local rc2=$? rows
    rows=$(wc -l <"$T/$tag-ok.csv")
    if [ $rc2 -eq 0 ] && whole_rows "$T/$tag-ok.csv" "$n" && [ $(((rows - 1) % 2)) -eq 0 ]; then
        pass "$tag: a second run appends its rows under the one header"
    else
        fail "$tag: second run: bad rows or a second header (see $T/$tag-ok.csv)"
    fi
    # a file cut in the middle of a row: refused, not appended to
    head -c -7 "$T/$tag-ok.csv" >"$T/$tag-cut.csv"
    refused "$tag: a file that ends in the middle of a row" "$tag-cut" "$@" "$T/$tag-cut.csv"
    # a file-size limit: the run stops with one line, and no half row is left (LIMITED: a
    # command that sets the limit itself, for a launcher such as mpirun that writes files too)
    if [ -n "${LIMITED:-}" ]; then
        # shellcheck disable=SC2086
        $LIMITED "$T/$tag-limit.csv" >/dev/null 2>"$LOG/$tag-limit.err"
    else
        # shellcheck disable=SC2086
        (ulimit -f 1 && exec $works "$T/$tag-limit.csv" >/dev/null 2>"$LOG/$tag-limit.err")
    fi
    local rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$LOG/$tag-limit.err")" -eq 1 ] && whole_rows "$T/$tag-limit.csv" "$n"; then
        pass "$tag: ulimit -f 1 -> exit 2, $(($(wc -l <"$T/$tag-limit.csv") - 1)) whole rows: $(cat "$LOG/$tag-limit.err")"
    else
        fail "$tag: ulimit -f 1 -> exit $rc (want 2 and one line), or a half row in $T/$tag-limit.csv"
        tail -n 2 "$T/$tag-limit.csv" | sed 's/^/    /'
    fi
    # --csv -: standard output is the CSV, the table goes to stderr
    # shellcheck disable=SC2086
    $works - >"$LOG/$tag-stdout.out" 2>"$LOG/$tag-stdout.err"
    rc=$?
    if [ $rc -eq 0 ] && whole_rows "$LOG/$tag-stdout.out" "$n" && [ -s "$LOG/$tag-stdout.err" ]; then
        pass "$tag: '-' -> stdout is a valid CSV ($(($(wc -l <"$LOG/$tag-stdout.out") - 1)) rows), the table on stderr"
    else
        fail "$tag: '-' -> exit $rc; stdout is not a CSV of whole rows (see $LOG/$tag-stdout.*)"
    fi
}

# (01's chapter variant alone: its table also lists the exercise's ijk_4sums, and the checks
# below count one row a size)
NAIVE="01_naive/naive --variant ijk"
# ---- the harness (every GEMM stage): 01_naive stands for them (20 fields: the date is the 18th,
# then the load and the ratios' spread, which may be empty)
LAST_AT=18 csv_cases harness 20 "$NAIVE --sizes 8:64:+4 --no-baseline --reps 1 --csv" \
    $NAIVE -m 8 --no-baseline --reps 1 --csv

# ---- pipes and FIFOs: no header to check there, the rows go out (the header first), and a
# reader that leaves ends the run (the check for the old 18-column header opened the path to
# read first, and waited for ever on a FIFO or a pipe)
# lines_ok FILE ROWS: one header, first, and ROWS whole rows of the harness
lines_ok() { LAST_AT=18 whole_rows "$1" 20 && [ "$(wc -l <"$1")" -eq $(($2 + 1)) ]; }
HEADER=$($NAIVE -m 8 --no-baseline --reps 1 --csv - 2>/dev/null | head -n 1)
timeout 10 $NAIVE --sizes 8:400:+1 --no-baseline --reps 1 --csv /dev/stdout 2>"$LOG/pipe-head.err" |
    head -n 2 >"$LOG/pipe-head.out"
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 124 ] && [ "$(head -n 1 "$LOG/pipe-head.out")" = "$HEADER" ] && [ "$(wc -l <"$LOG/pipe-head.out")" -eq 2 ]; then
    pass "harness: --csv /dev/stdout | head -n 2: the header and a row, and the run ends with head (exit $rc)"
else
    fail "harness: --csv /dev/stdout | head -n 2: exit $rc (124: it hung), $(wc -l <"$LOG/pipe-head.out") lines (see $LOG/pipe-head.*)"
fi
timeout 10 $NAIVE --sizes 8,9 --no-baseline --reps 1 --csv /dev/stdout 2>"$LOG/pipe-cat.err" | cat >"$LOG/pipe-cat.out"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] && lines_ok "$LOG/pipe-cat.out" 2 &&
    grep -q '^variant ' "$LOG/pipe-cat.err" &&
    pass "harness: --csv /dev/stdout into a pipe: the pipe gets the header and 2 whole rows, the table goes to stderr (as --csv -)" ||
    fail "harness: --csv /dev/stdout into a pipe: exit $rc, or not a CSV of 2 rows (see $LOG/pipe-cat.*)"
mkfifo "$T/fifo"
timeout 20 cat "$T/fifo" >"$LOG/fifo.csv" &
reader=$!
timeout 10 $NAIVE --sizes 8,9 --no-baseline --reps 1 --csv "$T/fifo" >/dev/null 2>"$LOG/fifo.err"
rc=$?
wait $reader
[ "$rc" -eq 0 ] && lines_ok "$LOG/fifo.csv" 2 &&
    pass "harness: --csv onto a FIFO with a reader: exit 0, the reader gets the header and 2 whole rows" ||
    fail "harness: --csv onto a FIFO: exit $rc (124: it hung), or the reader got no CSV of 2 rows (see $LOG/fifo.*)"
timeout 20 head -n 1 "$T/fifo" >"$LOG/fifo-head.out" &
reader=$!
timeout 10 $NAIVE --sizes 8:400:+1 --no-baseline --reps 1 --csv "$T/fifo" >/dev/null 2>"$LOG/fifo-head.err"
rc=$?
wait $reader
[ "$rc" -ne 124 ] && [ "$(cat "$LOG/fifo-head.out")" = "$HEADER" ] &&
    pass "harness: --csv onto a FIFO whose reader leaves after a line: the run ends (exit $rc), not blocked on a full FIFO" ||
    fail "harness: --csv onto a FIFO whose reader leaves: exit $rc (124: it hung; see $LOG/fifo-head.*)"

# ---- runs that create one new file at once: one header, every run's rows (each holds the
# file's lock while it writes the header or a row). A preloaded open() made slow on that path
# (tests/slow-open.c) holds each run 0.1 s before and after it opens, so that two runs started
# together meet between the first open and the creation every time (once a "File exists" exit
# 2, or two headers); then eight runs at once, three times, as they come.
# at_once TAG N PRELOAD...: N runs of 01 at once onto the new file $T/TAG.csv; the exit statuses
# and stderr in $LOG/TAG.*
at_once() {
    local tag=$1 n=$2 i
    shift 2
    for i in $(seq "$n"); do
        (env "$@" $NAIVE -m 1 --no-baseline --reps 1 --csv "$T/$tag.csv" >/dev/null 2>"$LOG/$tag.$i.err"
         echo $? >"$LOG/$tag.$i.rc") &
    done
    wait
    cat "$LOG/$tag".*.rc | sort | uniq -c | paste -sd, - | tr -s ' '
}
if gcc -shared -fPIC -O2 -o "$T/slow-open.so" tests/slow-open.c -ldl 2>"$LOG/slow-open.err"; then
    for round in 1 2 3; do
        rcs=$(at_once "slow$round" 2 LD_PRELOAD="$T/slow-open.so" SLOW_OPEN="$T/slow$round.csv")
        if [ "$rcs" = " 2 0" ] && lines_ok "$T/slow$round.csv" 2; then
            pass "harness: two runs creating one file, opens slowed (round $round): both exit 0, one header, 2 rows"
        else
            fail "harness: two runs creating one file, opens slowed (round $round): exit statuses '$rcs', $(grep -c '^stage,' "$T/slow$round.csv" 2>/dev/null) header(s), $(grep -vc '^stage,' "$T/slow$round.csv" 2>/dev/null) row(s): $(cat "$LOG/slow$round".*.err | head -n 1)"
        fi
    done
    # a run that creates the file and ends with no row (skipped: exit 77) removes it, but not
    # from under a run that opened it meanwhile: that one opens it again, and its row is kept.
    # (0.3 s on each side of each open: the second run, 0.75 s later, opens the file between
    # its creation, at 0.9 s, and its removal, at 1.2 s)
    (GEMM_HIDE_ISA=amx LD_PRELOAD="$T/slow-open.so" SLOW_OPEN="$T/skip-race.csv" SLOW_OPEN_MS=300 \
        14_amx/amx --variant amx_naive -m 8 --no-baseline --csv "$T/skip-race.csv" >/dev/null 2>&1
     echo $? >"$LOG/skip-race.rc") &
    sleep 0.75
    LD_PRELOAD="$T/slow-open.so" SLOW_OPEN="$T/skip-race.csv" SLOW_OPEN_MS=300 \
        14_amx/amx --variant simd -m 8 --no-baseline --reps 1 --csv "$T/skip-race.csv" >/dev/null 2>"$LOG/skip-race.err"
    rc=$?
    wait
    if [ "$(cat "$LOG/skip-race.rc")" -eq 77 ] && [ $rc -eq 0 ] && [ -f "$T/skip-race.csv" ] &&
        lines_ok "$T/skip-race.csv" 1 && grep -q '^14_amx,simd,8,' "$T/skip-race.csv"; then
        pass "harness: a skipped run (77) removing the file it made keeps the row of a run that opened it meanwhile"
    else
        fail "harness: a skipped run and a run writing one new file: exit $(cat "$LOG/skip-race.rc") and $rc, the row $([ -f "$T/skip-race.csv" ] && echo "not in the file" || echo "lost with the file")"
    fi
else
    fail "harness: tests/slow-open.c does not build (see $LOG/slow-open.err)"
fi
for round in 1 2 3; do
    rcs=$(at_once "many$round" 8)
    [ "$rcs" = " 8 0" ] && lines_ok "$T/many$round.csv" 8 &&
        pass "harness: eight runs at once creating one file (round $round): all exit 0, one header, 8 rows" ||
        fail "harness: eight runs at once creating one file (round $round): exit statuses '$rcs', $(grep -c '^stage,' "$T/many$round.csv") header(s), $(grep -vc '^stage,' "$T/many$round.csv") row(s)"
done

# ---- a file with Windows line ends: refused, and the message says so (it used to say "another
# header" and show the same header)
$NAIVE -m 8 --no-baseline --reps 1 --csv "$T/lf.csv" >/dev/null 2>&1
sed 's/$/\r/' "$T/lf.csv" >"$T/crlf.csv"
cp "$T/crlf.csv" "$T/crlf.orig"
refused "harness: a CSV with CRLF line ends" crlf $NAIVE -m 8 --no-baseline --reps 1 --csv "$T/crlf.csv"
grep -q 'CRLF' "$LOG/crlf.err" && cmp -s "$T/crlf.csv" "$T/crlf.orig" && pass "harness: the CRLF file is named as such, and left as it was" ||
    fail "harness: a CRLF file: the message does not say CRLF, or the file changed: $(cat "$LOG/crlf.err")"

# ---- lab/scripts/upgrade-csv.sh: every row checked before the file is written; a row cut short, a
# longer row, a file cut in the middle of a row: one line, exit 2, the file as it was; CRLF
# line ends made LF, and said
OLD18="stage,variant,m,n,k,threads,reps,ms_median,ms_min,gflops,baseline,baseline_gflops,max_err_ratio,check,device,compiler,git,date"
ROW18=$(sed -n '2p' "$T/lf.csv" | cut -d, -f1-18)
upgrade() { # TAG CONTENT (printf'd): the file $T/up-TAG.csv, then the script run on it
    # shellcheck disable=SC2059
    printf "$2" "$OLD18" "$ROW18" "$ROW18" >"$T/up-$1.csv"
    cp "$T/up-$1.csv" "$T/up-$1.orig"
    run "up-$1" sh lab/scripts/upgrade-csv.sh "$T/up-$1.csv"
}
for c in "unended|a last row with no newline|%s\n%s\n%s" "short|a row cut short|%s\n%s\n%.40s\n" \
         "wide|a row of 20 fields|%s\n%s\n%s,1,2\n"; do
    IFS='|' read -r tag desc form <<<"$c"
    upgrade "$tag" "$form"
    if [ $rc -eq 2 ] && [ "$(wc -l <"$LOG/up-$tag.err")" -eq 1 ] && [ ! -s "$LOG/up-$tag.out" ] &&
        cmp -s "$T/up-$tag.csv" "$T/up-$tag.orig"; then
        pass "upgrade-csv: $desc -> exit 2, the file as it was: $(cat "$LOG/up-$tag.err")"
    else
        fail "upgrade-csv: $desc -> exit $rc, '$(cat "$LOG/up-$tag.out")' (want exit 2, one line on stderr, the file unchanged)"
    fi
done
upgrade good "%s\n%s\n%s\n"
[ $rc -eq 0 ] && lines_ok "$T/up-good.csv" 2 && grep -q "^upgraded $T/up-good.csv\$" "$LOG/up-good.out" &&
    pass "upgrade-csv: a whole 18-column file -> 20 columns, 'upgraded'" ||
    fail "upgrade-csv: a whole 18-column file -> exit $rc: $(cat "$LOG/up-good.out" "$LOG/up-good.err")"
upgrade crlf "%s\r\n%s\r\n%s\r\n"
[ $rc -eq 0 ] && lines_ok "$T/up-crlf.csv" 2 && ! grep -q "$(printf '\r')" "$T/up-crlf.csv" &&
    grep -q 'CRLF line ends made LF' "$LOG/up-crlf.out" &&
    pass "upgrade-csv: an 18-column file with CRLF line ends -> upgraded and made LF, and said: $(cat "$LOG/up-crlf.out")" ||
    fail "upgrade-csv: a CRLF file -> exit $rc, '$(cat "$LOG/up-crlf.out" "$LOG/up-crlf.err")' (want it upgraded, LF, and said)"
# links, modes and odd names kept: the file is rewritten in place, through a symbolic link (the
# link was replaced by a regular file, the target left old), keeping hard links (they were split)
# and the mode (640 became 644); a file named -n.csv is upgraded (it was skipped, exit 0). Every
# file gets a line, and one that cannot be upgraded is exit 2 (an empty file or another schema was
# exit 0 and nothing said).
mkdir -p "$T/up-links"
printf '%s\n%s\n%s\n' "$OLD18" "$ROW18" "$ROW18" >"$T/up-links/target.csv"
ln -s target.csv "$T/up-links/link.csv"
cp "$T/up-links/target.csv" "$T/up-links/hard.csv"
ln "$T/up-links/hard.csv" "$T/up-links/hard2.csv"
cp "$T/up-links/target.csv" "$T/up-links/mode.csv"
chmod 640 "$T/up-links/mode.csv"
cp "$T/up-links/target.csv" "$T/up-links/-n.csv"
(cd "$T/up-links" && sh "$OLDPWD/lab/scripts/upgrade-csv.sh" link.csv hard.csv mode.csv -n.csv) \
    >"$LOG/up-links.out" 2>"$LOG/up-links.err"
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$LOG/up-links.out")" -eq 4 ] && [ ! -s "$LOG/up-links.err" ] &&
    pass "upgrade-csv: four files, exit 0, a line each: $(paste -sd';' "$LOG/up-links.out")" ||
    fail "upgrade-csv: link, hard link, mode, -n.csv -> exit $rc: $(cat "$LOG/up-links.out" "$LOG/up-links.err" | paste -sd';' -)"
[ -L "$T/up-links/link.csv" ] && lines_ok "$T/up-links/target.csv" 2 &&
    pass "upgrade-csv: through a symbolic link: the link kept, its target upgraded" ||
    fail "upgrade-csv: a symbolic link: $([ -L "$T/up-links/link.csv" ] && echo "its target not upgraded" || echo "replaced by a regular file")"
[ "$T/up-links/hard.csv" -ef "$T/up-links/hard2.csv" ] && lines_ok "$T/up-links/hard2.csv" 2 &&
    pass "upgrade-csv: a file with two hard links: still one file, upgraded under both names" ||
    fail "upgrade-csv: a hard link was split (the other name keeps the old text)"
[ "$(ls -l "$T/up-links/mode.csv" | cut -c1-10)" = -rw-r----- ] && lines_ok "$T/up-links/mode.csv" 2 &&
    pass "upgrade-csv: mode 640 kept" || fail "upgrade-csv: mode 640 became $(ls -l "$T/up-links/mode.csv" | cut -c1-10)"
lines_ok "$T/up-links/-n.csv" 2 && pass "upgrade-csv: a file named -n.csv upgraded" ||
    fail "upgrade-csv: a file named -n.csv not upgraded"
# files it cannot upgrade, among one it can and one already current: a line each, exit 2
: >"$T/up-links/empty.csv"
printf 'a,b\n1,2\n' >"$T/up-links/other.csv"
printf '%s\n%s\n' "$OLD18" "$ROW18" >"$T/up-links/fine.csv"
run up-mixed sh lab/scripts/upgrade-csv.sh "$T/up-links/empty.csv" "$T/up-links/other.csv" \
    "$T/up-links/target.csv" "$T/up-links/fine.csv" "$T/up-links/none.csv"
if [ $rc -eq 2 ] && [ "$(wc -l <"$LOG/up-mixed.err")" -eq 3 ] && [ "$(wc -l <"$LOG/up-mixed.out")" -eq 2 ] &&
    grep -q 'empty.csv: empty' "$LOG/up-mixed.err" && grep -q 'other.csv: not a result CSV' "$LOG/up-mixed.err" &&
    grep -q 'none.csv: no such file' "$LOG/up-mixed.err" && grep -q 'target.csv: already has the current header' "$LOG/up-mixed.out" &&
    lines_ok "$T/up-links/fine.csv" 1 && [ ! -s "$T/up-links/empty.csv" ]; then
    pass "upgrade-csv: empty, other schema, current, old, missing -> exit 2, one line each, the old one upgraded"
else
    fail "upgrade-csv: empty, other schema, current, old, missing -> exit $rc: $(cat "$LOG/up-mixed.out" "$LOG/up-mixed.err" | paste -sd';' -)"
fi

# ---- --edges --csv: rows of its own schema, one a case, as many as the table has; the GEMM
# rows' file refused (its header is another), and an --edges file refused by a GEMM run
run edges-csv $NAIVE --edges --no-baseline --csv "$T/edges.csv"
rows=$(grep -cE ' (PASS|FAIL)$' "$LOG/edges-csv.out")
if [ $rc -eq 0 ] && [ "$(head -n 1 "$T/edges.csv")" = "stage,variant,case,shape,line_nonfinite,elsewhere_nonfinite,check,why" ] &&
    awk -F, -v want="$rows" 'NR > 1 { n++; if (NF != 8 || $1 != "01_naive" || $2 != "ijk" || $7 != "PASS") bad = 1 }
        END { exit bad || n != want || n < 30 }' "$T/edges.csv"; then
    pass "harness: --edges --csv: one whole row of 8 fields a case ($rows), under its own header"
else fail "harness: --edges --csv: exit $rc, $(($(wc -l <"$T/edges.csv") - 1)) rows for $rows cases (see $T/edges.csv)"; fi
grep -q '^01_naive,ijk,NaN at A(0;0); beta 0,4x4x4,4,0,PASS,$' "$T/edges.csv" &&
    pass "harness: --edges --csv: a label's commas written as semicolons" ||
    fail "harness: --edges --csv: no row 'NaN at A(0;0); beta 0' for 4x4x4 (see $T/edges.csv)"
run gemm-csv $NAIVE -m 8 --reps 1 --csv "$T/gemm.csv"
refused "harness: --edges --csv onto the GEMM rows' file" edges-onto-gemm $NAIVE --edges --csv "$T/gemm.csv"
refused "harness: a GEMM run's --csv onto an --edges file" gemm-onto-edges $NAIVE -m 8 --csv "$T/edges.csv"
# ---- a mode that writes no rows, with --csv: one line, exit 2, no file (it was dropped
# without a word)
for mode in --peak --probe; do
    refused "14: $mode --csv" "amx$mode-csv" 14_amx/amx $mode --csv "$T/amx$mode.csv"
    [ ! -e "$T/amx$mode.csv" ] || fail "14: $mode --csv left $T/amx$mode.csv behind"
done
B12=12_cuda_tensor_cores/cuda_tensor_cores
[ ! -x $B12 ] || refused "12: --probe --csv (before the GPU is asked)" 12-probe-csv $B12 --probe --csv "$T/probe.csv"

# ---- --alpha 0: BLAS computes no product, so no rate: "-" in the table's GFLOP/s column and an
# empty gflops (and baseline_gflops) in the CSV, instead of 2MNK flops over an early return
run alpha0 $NAIVE -m 64 --alpha 0 --reps 1 --csv -
if [ $rc -eq 0 ] && awk -F, 'NR > 1 { n++; if ($10 != "" || $12 != "") bad = 1 } END { exit bad || n != 2 }' "$LOG/alpha0.out" &&
    grep -qE '^ijk +64 +64 +64 +[0-9.]+ +- ' "$LOG/alpha0.err"; then
    pass "harness: --alpha 0: GFLOP/s '-' in the table, gflops empty in the CSV"
else
    fail "harness: --alpha 0: a rate for an early return (see $LOG/alpha0.*)"
fi

# ---- make stage with no number: the stages, not "no stage .o"
out=$(make -s stage 2>&1)
rc=$?
sorted=$(make -s list-stages | cut -c1-2 | sort | paste -sd' ' -)
[ $rc -ne 0 ] && echo "$out" | grep -qF "give a stage's number, e.g. make stage01; the stages are: $sorted" &&
    pass "make stage: asks for a number and lists the stages" || fail "make stage: '$out'"

# ---- 03's tile sweep calls the harness's parts itself
LAST_AT=18 csv_cases 03-tiles 20 "03_tiling/tiling --variant tiled --tile 8,16 --sizes 8:40:+8 --no-baseline --reps 1 --csv" \
    03_tiling/tiling --variant tiled --tile 8 -m 8 --no-baseline --reps 1 --csv
# ---- 06 --breakdown: its own schema, which ends with the commit
LAST_RE="^$(06_strassen/strassen --breakdown --variant classic --sizes 8 --reps 1 --csv - 2>/dev/null |
    sed -n '2s/.*,//p')\$"
csv_cases 06-breakdown 15 "06_strassen/strassen --breakdown --sizes 8,16,24 --reps 1 --csv" \
    06_strassen/strassen --breakdown --sizes 8 --reps 1 --csv
# ---- 11: its own program and schema
LAST_RE=$DATE_RE
csv_cases 11-gf256 20 "11_gf256/gf256 --variant table --data 2 --parity 1 --len 1,2,3,4,5,6,7,8 --reps 1 --csv" \
    11_gf256/gf256 --variant table --data 2 --parity 1 --len 8 --reps 1 --csv
# ---- 13: its own rows (21 fields) and --bench-comm's (12), written by common/csv.c on rank 0
if [ -x 13_distributed/distributed ] && command -v mpirun >/dev/null 2>&1; then
    MPI1="mpirun --allow-run-as-root -q --oversubscribe -np 1"
    printf '#!/bin/sh\nulimit -f 1\nexec "$@"\n' >"$T/fsize1"
    chmod +x "$T/fsize1"
    LIMITED="$MPI1 $T/fsize1 13_distributed/distributed --sizes 8:64:+4 --no-baseline --reps 1 --threads 1 --csv" \
    csv_cases 13-dist 21 "$MPI1 13_distributed/distributed --sizes 8:64:+4 --no-baseline --reps 1 --threads 1 --csv" \
        $MPI1 13_distributed/distributed -m 8 --no-baseline --reps 1 --threads 1 --csv
    LIMITED="$MPI1 $T/fsize1 13_distributed/distributed --bench-comm --reps 1 --threads 1 --csv" \
    csv_cases 13-comm 12 "$MPI1 13_distributed/distributed --bench-comm --reps 1 --threads 1 --csv" \
        $MPI1 13_distributed/distributed --bench-comm --reps 1 --threads 1 --csv
    refused "13-dist: --csv ''" 13-csv-empty $MPI1 13_distributed/distributed -m 8 --csv ""
else
    skip "13_distributed: not built or no mpirun: its CSV not tried"
fi
# ---- 10 --stats (a CUDA stage: without a GPU only the refusals can run, before the device check)
B10=10_cuda_multigpu/cuda_multigpu
if [ -x $B10 ]; then
    csv_cases 10-stats 22 "" $B10 --variant tiled_streams --no-baseline --reps 1 -m 7 --stats
    run 10-nogpu $B10 -m 7 --no-baseline --reps 1 --stats "$T/10-new.csv"
    if [ $rc -eq 77 ]; then
        [ ! -e "$T/10-new.csv" ] && pass "10-stats: no GPU -> exit 77, and the new file is not left behind" \
            || fail "10-stats: no GPU -> exit 77 but $T/10-new.csv was left behind"
    elif [ $rc -eq 0 ] && whole_rows "$T/10-new.csv" 22; then
        pass "10-stats: rows of 22 fields on the GPU present"
    else
        fail "10-stats: exit $rc (see $LOG/10-nogpu.*)"
    fi
else
    skip "10-stats: 10_cuda_multigpu not built (no nvcc)"
fi

# An AVX-512 kernel of stage 05 this x86 CPU cannot run (asked of the CPU, not of the program
# under test); on a CPU with AVX-512, one it cannot run once GEMM_HIDE_ISA hides AVX-512
# (common/cpu_features.h). SIMD runs stage 05 so.
NO512= SIMD=05_simd/simd
if [ "$(uname -m)" = x86_64 ]; then
    NO512=avx512_6x64
    grep -qw avx512f /proc/cpuinfo && SIMD="env GEMM_HIDE_ISA=avx512 05_simd/simd"
fi

# ---- a skipped run leaves no file behind (exit 77 before any row)
if [ -n "$NO512" ]; then
    run skip-nofile $SIMD --variant avx512_6x64 -m 8 --csv "$T/skip.csv"
    [ $rc -eq 77 ] && [ ! -e "$T/skip.csv" ] && pass "05: a skipped run (exit 77) leaves no CSV behind" ||
        fail "05: skipped run -> exit $rc, file $( [ -e "$T/skip.csv" ] && echo left || echo absent)"
    refused "05: a bad --csv with a kernel this CPU lacks (2 comes before 77)" 05-csv-first \
        $SIMD --variant avx512_6x64 -m 8 --csv "$T/no/such/x.csv"
fi

# ---- a run that ends before its first row leaves no file behind, in every program: skipped
# (exit 77: MKL or a GPU it lacks) or refused after the file was opened (exit 2: buffers it cannot
# allocate under a limit on its data, ulimit -d). The file used to keep its header alone. Under the
# limit each program gets one OpenMP and one OpenBLAS thread (OpenBLAS reserves 128 MiB a thread as
# it loads, before main: README, troubleshooting), and 30 s. 11 refuses a length it cannot hold
# before it prints anything (it printed its header and table head first).
EMPTY_HOME=$T/no-mkl
mkdir -p "$EMPTY_HOME"
limited() { # limited COMMAND...: under a data limit of about 1 GB, one thread, 30 s at most
    (ulimit -d 1000000 && OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 exec timeout 30 "$@")
}
# no_file DESC TAG WANT: the last run (run TAG ...) exited WANT and left no $T/end-TAG.csv
no_file() {
    if [ "$rc" -eq "$3" ] && [ ! -e "$T/end-$2.csv" ]; then
        pass "$1 -> exit $3, no file left: $(cat "$LOG/end-$2.out" "$LOG/end-$2.err" | tail -n 1)"
    else
        fail "$1 -> exit $rc (want $3), $([ -e "$T/end-$2.csv" ] && echo "left $(wc -l <"$T/end-$2.csv") line(s) in the file" || echo "no file")"
    fi
}
while read -r dir prog kind; do
    [ -x "$dir/$prog" ] || continue
    p=$dir/$prog
    if [ "$kind" = gpu ]; then # no GPU here: 77 before any row (12's --fp32 as well)
        for mode in "" --fp32; do
            [ -n "$mode" ] && [ "$dir" != 12_cuda_tensor_cores ] && continue
            tag=$prog${mode:+-fp32}
            run "end-$tag" "$p" $mode -m 7 --no-baseline --reps 1 --csv "$T/end-$tag.csv"
            [ "$rc" -eq 0 ] && { skip "$dir $mode: a GPU is present: its skip not tried"; continue; }
            no_file "$dir${mode:+ $mode}: no GPU" "$tag" 77
        done
        continue
    fi
    case $dir in
        11_gf256) skip_args=(--variant gpu_tables --len 8) big=(--len 64M) ;;
        13_distributed) skip_args=(--variant summa_nccl -m 8) big=(-m 12000 --threads 1) ;;
        *) skip_args=(--baseline mkl -m 8) big=(-m 12000) ;;
    esac
    run "end-$prog-skip" env MKL_HOME="$EMPTY_HOME" "$p" "${skip_args[@]}" --reps 1 --csv "$T/end-$prog-skip.csv"
    no_file "$dir ${skip_args[*]}: skipped" "$prog-skip" 77
    run "end-$prog-big" limited "$p" "${big[@]}" --no-baseline --reps 1 --csv "$T/end-$prog-big.csv"
    no_file "$dir ${big[*]} under ulimit -d 1000000: refused" "$prog-big" 2
    if [ "$dir" = 11_gf256 ]; then
        [ ! -s "$LOG/end-$prog-big.out" ] && [ "$(wc -l <"$LOG/end-$prog-big.err")" -eq 1 ] &&
            pass "$dir ${big[*]}: refused before it prints anything" ||
            fail "$dir ${big[*]}: $(wc -l <"$LOG/end-$prog-big.out") line(s) on stdout, $(wc -l <"$LOG/end-$prog-big.err") on stderr before the refusal (want 0 and 1)"
    fi
done < <(make -s list-stages)

# ---- --csv onto the file standard output is redirected into: the table would write over the rows.
# Refused before any work, in every CPU program (common/csv.c): exit 2, one line, nothing written;
# a CSV appended to (>>) stays as it was
$NAIVE -m 8 --no-baseline --reps 1 --csv "$T/same-orig.csv" >/dev/null 2>&1
while read -r dir prog kind; do
    [ "$kind" = cpu ] && [ -x "$dir/$prog" ] || continue
    size=(-m 8)
    [ "$dir" = 11_gf256 ] && size=(--len 64)
    "$dir/$prog" "${size[@]}" --reps 1 --csv "$T/same-$prog.csv" >"$T/same-$prog.csv" 2>"$LOG/same-$prog.err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$LOG/same-$prog.err")" -eq 1 ] && [ ! -s "$T/same-$prog.csv" ]; then
        pass "$dir: --csv F > F -> exit 2, F left empty: $(cat "$LOG/same-$prog.err")"
    else
        fail "$dir: --csv F > F -> exit $rc, $(wc -l <"$LOG/same-$prog.err") line(s) on stderr, $(wc -c <"$T/same-$prog.csv") bytes in F (want 2, 1, 0)"
    fi
done < <(make -s list-stages)
cp "$T/same-orig.csv" "$T/same-append.csv"
$NAIVE -m 8 --no-baseline --reps 1 --csv "$T/same-append.csv" >>"$T/same-append.csv" 2>"$LOG/same-append.err"
rc=$?
[ $rc -eq 2 ] && cmp -s "$T/same-append.csv" "$T/same-orig.csv" &&
    pass "harness: --csv F >> F -> exit 2, F as it was" ||
    fail "harness: --csv F >> F -> exit $rc, F $(cmp -s "$T/same-append.csv" "$T/same-orig.csv" && echo unchanged || echo changed)"

# ---- decimal-comma locales: under LC_ALL=de_DE.UTF-8 Debian's awk (mawk) read "40.91" as 40, and
# make run counted 79 busy rows of 172. Every shell script that reads or prints numbers (awk,
# sort -n or -g, bc, printf of a float) sets LC_ALL=C in its first 60 lines (LC_ALL: it overrides
# the user's LC_NUMERIC, and the user's own LC_ALL). scripts/grade*.sh and scripts/graders/ are
# being rewritten: a SKIP for each until they do too.
nolocale=
while read -r f; do
    case $f in *.sh) ;; *) head -n 1 "$f" | grep -q '^#!.*sh' || continue ;; esac
    grep -qE "awk|sort -[a-zA-Z]*[ng]|printf .*%[0-9.]*[feg]|(^|[^a-z])bc( |$)" "$f" || continue
    head -n 60 "$f" | grep -qE '^export LC_ALL=C( |$)' && continue
    case $f in
        scripts/grade*.sh | scripts/graders/*) skip "$f reads numbers without LC_ALL=C (being rewritten: to add)" ;;
        *) nolocale="$nolocale $f" ;;
    esac
done < <(git ls-files lab scripts tests)
[ -z "$nolocale" ] && pass "every script of lab/, scripts/ and tests/ that reads numbers sets LC_ALL=C near its top" ||
    fail "scripts that read numbers in the user's locale (no 'export LC_ALL=C' in their first 60 lines):$nolocale"
# scripts/run-all.sh's counting, run under de_DE.UTF-8 on a stage whose rows have known loads (a
# copy of the script in a tree of its own: a stand-in make and stage, no charts): 3 of its 5 rows
# were measured busy (0.5 cores or more: 0.73, 1.5 and 40.91)
comma_locale
if [ -n "$COMMA" ]; then
    R=$T/run-tree
    mkdir -p "$R/scripts" "$R/bin" "$R/build" "$R/01_fake"
    cp scripts/run-all.sh scripts/bench-lock scripts/have-bench-lock scripts/find-python.sh "$R/scripts/"
    printf '#!/bin/sh\n[ "$2" = list-stages ] && echo "01_fake fake cpu"\nexit 0\n' >"$R/bin/make"
    printf '#!/bin/sh\nexit 0\n' >"$R/build/peak"
    { echo '#!/bin/sh'
      echo 'csv=$2'  # run-all.sh passes --csv FILE first
      echo "echo '$HEADER' >\"\$csv\""
      for load in 0.73 1.5 0.2 40.91 ""; do
          echo "echo '01_fake,ijk,8,8,8,1,1,0.1,0.1,10.25,,,0.1,PASS,cpu,gcc,0,2026-11-28T00:00:00Z,$load,' >>\"\$csv\""
      done
      echo 'echo "5 passed, 0 failed"'; } >"$R/01_fake/fake"
    chmod +x "$R/bin/make" "$R/build/peak" "$R/01_fake/fake"
    run run-all-comma env $COMMA PATH="$R/bin:$PATH" RUN_OUT="$R/out" PLOT_PYTHON=none \
        GEMM_BENCH_LOCK="$T/run-tree.lock" bash "$R/scripts/run-all.sh"
    if [ $rc -eq 0 ] && grep -q '^warning: 3 rows were measured while other processes kept cores busy' "$LOG/run-all-comma.out" &&
        [ "$(tail -n 1 "$LOG/run-all-comma.out")" = "5 passed, 0 failed, 0 skipped" ]; then
        pass "run-all.sh under $COMMA: 3 busy rows of 5 (loads 0.73, 1.5, 40.91), 5 passed"
    else
        fail "run-all.sh under $COMMA: exit $rc, '$(grep -m1 '^warning: [0-9]* rows\|^load:' "$LOG/run-all-comma.out")', last line '$(tail -n 1 "$LOG/run-all-comma.out")' (want 3 busy rows, 5 passed; $LOG/run-all-comma.*)"
    fi
else
    skip "no decimal-comma locale here (de_DE.UTF-8 neither installed nor built by localedef): run-all.sh's counting not tried under one"
fi

# ---- 10's --timeline: checked before any device is asked, and a run that never writes it (no
# GPU: 77) leaves no file (it once left an empty one) and an existing one as it was
TL=10_cuda_multigpu/cuda_multigpu
if [ -x "$TL" ]; then
    refused "10: --timeline in a folder that does not exist" tl-nodir $TL -m 8 --timeline "$T/no/such/t.csv"
    rm -f "$T/tl.csv"
    $TL -m 8 --timeline "$T/tl.csv" >/dev/null 2>&1
    rc=$?
    if [ $rc -eq 77 ]; then
        [ ! -e "$T/tl.csv" ] && pass "10: a skipped run (77) leaves no --timeline file" ||
            fail "10: a skipped run (77) left a --timeline file ($(wc -c <"$T/tl.csv") bytes)"
        echo keep >"$T/tl.csv"
        $TL -m 8 --timeline "$T/tl.csv" >/dev/null 2>&1
        [ "$(cat "$T/tl.csv")" = keep ] && pass "10: a skipped run (77) leaves an existing --timeline file as it was" ||
            fail "10: a skipped run (77) changed an existing --timeline file"
    else
        skip "10: --timeline on a skipped run: this machine has a GPU (exit $rc)"
    fi
fi

# ---- --variant "" and "," in every program; a --csv it cannot write, before any device is
# asked (a GPU stage with a main of its own once skipped with 77 and dropped every row)
while read -r dir prog kind; do
    [ -x "$dir/$prog" ] || continue
    refused "$dir: --variant ''" "$prog-variant-empty" "$dir/$prog" --variant ""
    refused "$dir: --variant ','" "$prog-variant-comma" "$dir/$prog" --variant ,
    size=(-m 7)
    [ "$dir" = 11_gf256 ] && size=(--len 64)
    refused "$dir: --csv in a folder that does not exist" "$prog-csv-nodir" \
        "$dir/$prog" "${size[@]}" --csv "$T/no/such/x.csv"
done < <(make -s list-stages)

# ---- lists with an empty item, sizes that are not sizes, 'all' among names: one line, exit 2,
# in every program (strtok used to drop the empty items without a word)
while read -r dir prog kind; do
    [ -x "$dir/$prog" ] || continue
    first=$("$dir/$prog" --list 2>/dev/null | awk 'NR == 1 {print $1}')
    cases=("--variant $first," "--variant all,$first" "--threads 1,,2")
    if [ "$dir" = 11_gf256 ]; then
        cases+=("--len 1," "--len ,64" "--len 64,,128")
    else
        cases+=("--sizes 1024," "--sizes 64,,128" "--sizes ,64" "--sizes 7xx5" "--sizes 7x13x"
                "--sizes x7x13" "--sizes :" "--sizes 7x13x5x2" "--alpha 1e-50")
    fi
    [ "$dir" = 03_tiling ] && cases+=("--tile 16,")
    case $dir in 05_simd | 14_amx) cases+=("--blocks 64,256,512," "--blocks 64,,256" "--blocks 64,256") ;; esac
    [ "$kind" = cpu ] && [ "$dir" != 11_gf256 ] && [ "$dir" != 13_distributed ] && cases+=("--device 0" "--gpus 2")
    for c in "${cases[@]}"; do
        # shellcheck disable=SC2086
        refused "$dir: $c" "$prog-list-$(echo "$c" | tr -c 'a-z0-9' _)" "$dir/$prog" $c
    done
done < <(make -s list-stages)
# what the messages say: the item itself, or why, never "needs a value"
run sizes-msg $NAIVE --sizes 7xx5
grep -q "'7xx5' is not MxNxK" "$LOG/sizes-msg.err" && pass "harness: --sizes 7xx5 says it is not MxNxK" ||
    fail "harness: --sizes 7xx5 says: $(cat "$LOG/sizes-msg.err") (want: '7xx5' is not MxNxK)"
run all-msg $NAIVE --variant all,ijk
grep -q "'all' stands alone" "$LOG/all-msg.err" && pass "harness: --variant all,ijk says 'all' stands alone" ||
    fail "harness: --variant all,ijk says: $(cat "$LOG/all-msg.err") (want: 'all' stands alone)"
run len-suffix 11_gf256/gf256 --variant table --data 2 --parity 1 --len 1K:4K:+1K --reps 1 --no-baseline
[ $rc -eq 0 ] && [ "$(grep -cE '^table .* PASS' "$LOG/len-suffix.out")" -ge 1 ] &&
    pass "11_gf256: --len 1K:4K:+1K (a step with a suffix, as --help documents)" ||
    fail "11_gf256: --len 1K:4K:+1K -> exit $rc: $(tail -n1 "$LOG/len-suffix.err")"

# ---- --alpha / --beta that are not finite floats
for opt in --alpha --beta; do
    refused "harness: $opt 1e39 (+Inf as a float)" "finite$opt" $NAIVE -m 8 "$opt" 1e39
    grep -q 'finite float' "$LOG/finite$opt.err" || fail "harness: $opt 1e39: the message does not say 'finite float'"
done

# ---- leading dimensions past the int range: computed in 64 bits, the message says which
refused "harness: -k 2147483647 --pad 1" lda $NAIVE -m 1 -k 2147483647 --pad 1
grep -q 'lda = K + pad = 2147483648' "$LOG/lda.err" || fail "harness: -k 2147483647 --pad 1: the message does not name lda = K + pad = 2147483648"
refused "harness: -n 2147483647 --pad 1 -k 1" ldb $NAIVE -m 1 -n 2147483647 -k 1 --pad 1
grep -q 'N + pad = 2147483648' "$LOG/ldb.err" || fail "harness: -n 2147483647 --pad 1: the message does not name N + pad"
if [ -x build/asan/$NAIVE ]; then
    refused "harness under UBSan: -k 2147483647 --pad 1 (no overflow report)" lda-ubsan \
        build/asan/$NAIVE -m 1 -k 2147483647 --pad 1
fi

# ---- stage 05: validate every argument first, then run what this CPU can and name the rest
run 05-list $SIMD --list
lacking=$(grep '\[not here' "$LOG/05-list.out" | awk '{print $1}' | paste -sd' ' -)
if [ "$(wc -l <"$LOG/05-list.out")" -eq 7 ] && [ $rc -eq 0 ] &&
        { [ -z "$NO512" ] || grep -q "^$NO512 .*\[not here" "$LOG/05-list.out"; }; then
    pass "05: --list shows all 6 variants; marked as lacking here: ${lacking:-none}"
else
    fail "05: --list exit $rc, $(wc -l <"$LOG/05-list.out") lines (want 7, ${NO512:-none} marked; see $LOG/05-list.out)"
fi
run 05-all $SIMD --variant all --no-baseline --reps 1 --sizes 7x13x5 --threads 1
[ $rc -eq 0 ] && [ "$(grep -cE ' PASS( |$)' "$LOG/05-all.out")" -eq $((7 - $(echo "$lacking" | wc -w))) ] &&
    pass "05: --variant all runs the $((6 - $(echo "$lacking" | wc -w))) variants this CPU can" ||
    fail "05: --variant all exit $rc (see $LOG/05-all.out)"
if [ -n "$NO512" ]; then
    v=$NO512
    run 05-help $SIMD --help --variant "$v"
    [ $rc -eq 0 ] && grep -q '^usage' "$LOG/05-help.out" && pass "05: --help --variant $v -> exit 0 and the usage" ||
        fail "05: --help --variant $v -> exit $rc (want 0)"
    refused "05: -m -5 --variant $v" 05-neg $SIMD -m -5 --variant "$v"
    refused "05: --variant $v --bogus" 05-bogus $SIMD --variant "$v" --bogus
    run 05-lacks $SIMD --variant "$v" -m 8 --no-baseline
    [ $rc -eq 77 ] && [ "$(wc -l <"$LOG/05-lacks.err")" -eq 1 ] && [ ! -s "$LOG/05-lacks.out" ] &&
        pass "05: --variant $v -> exit 77: $(cat "$LOG/05-lacks.err")" ||
        fail "05: --variant $v -> exit $rc (want 77, one line, nothing run)"
    run 05-mixed $SIMD --variant "generic,$v" -m 8 --no-baseline --reps 1
    [ $rc -eq 0 ] && grep -qE "^$v +not on this CPU: needs " "$LOG/05-mixed.out" &&
        grep -qx '1 passed, 0 failed, 1 not on this CPU' "$LOG/05-mixed.out" &&
        pass "05: --variant generic,$v -> generic runs, $v is named: $(grep -E "^$v " "$LOG/05-mixed.out" | tr -s ' ')" ||
        fail "05: --variant generic,$v -> exit $rc (want 0, generic's row and one 'not on this CPU' line; $LOG/05-mixed.out)"
else
    skip "05: not an x86 CPU: no AVX-512 kernel to refuse"
fi

# ---- a threads column when --threads lists several counts
run threads2 $NAIVE --sizes 8 --threads 1,2 --no-baseline --reps 1
if [ $rc -eq 0 ] && grep -q '^variant  *threads  *M ' "$LOG/threads2.out" &&
        grep -qE '^ijk +1 +8 ' "$LOG/threads2.out" && grep -qE '^ijk +2 +8 ' "$LOG/threads2.out"; then
    pass "harness: --threads 1,2 -> a threads column tells the rows apart"
else
    fail "harness: --threads 1,2 -> no threads column (see $LOG/threads2.out)"
fi
run threads1 $NAIVE --sizes 8 --threads 2 --no-baseline --reps 1
grep -q '^variant  *M ' "$LOG/threads1.out" && pass "harness: one thread count -> no threads column" ||
    fail "harness: --threads 2 -> the table should have no threads column (see $LOG/threads1.out)"

# ---- the ratio column's heading: the library the rows are measured against, or "no baseline"
# where none ran (14's heading read a bare "vs"); the CSV's baseline field stays empty
for prog in 01_naive/naive 14_amx/amx; do
    tag=head-$(basename "$prog")
    run "$tag" "$prog" -m 8 --no-baseline --reps 1
    head=$(grep -m1 '^variant ' "$LOG/$tag.out" | tr -s ' ')
    [ $rc -eq 0 ] && [ "$head" = "variant M N K ms GFLOP/s no baseline rel.err check" ] &&
        pass "$prog --no-baseline -> the ratio column reads 'no baseline': $head" ||
        fail "$prog --no-baseline -> exit $rc, heading '$head' (want its ratio column 'no baseline')"
    run "$tag-csv" "$prog" -m 8 --no-baseline --reps 1 --csv -
    awk -F, 'NR > 1 && $11 != "" { bad = 1 } END { exit NR < 2 || bad }' "$LOG/$tag-csv.out" &&
        pass "$prog --no-baseline --csv - -> the baseline field of every row is empty" ||
        fail "$prog --no-baseline --csv - -> a baseline named, or no rows (see $LOG/$tag-csv.out)"
done
run head-baseline $NAIVE -m 8 --reps 1
head=$(grep -m1 '^variant ' "$LOG/head-baseline.out" | tr -s ' ')
[ $rc -eq 0 ] && [[ "$head" == "variant M N K ms GFLOP/s vs OpenBLAS"*" rel.err check" ]] &&
    pass "$NAIVE with its baseline -> the ratio column names it: $head" ||
    fail "$NAIVE -> exit $rc, heading '$head' (want 'vs OpenBLAS...')"

# ---- CUDA programs without a GPU
while read -r dir prog kind; do
    [ "$kind" = gpu ] && [ -x "$dir/$prog" ] || continue
    run "$prog-nogpu" "$dir/$prog" -m 7 --no-baseline --reps 1
    if [ $rc -eq 0 ]; then
        skip "$dir: a GPU is present; the no-GPU message is not testable here"
    elif [ $rc -eq 77 ] && grep -qx 'no NVIDIA GPU or driver found: skipped' "$LOG/$prog-nogpu.out"; then
        pass "$dir: no GPU -> exit 77, 'no NVIDIA GPU or driver found: skipped'"
    else
        fail "$dir: -m 7 -> exit $rc: $(cat "$LOG/$prog-nogpu.out" "$LOG/$prog-nogpu.err" | head -n 2)"
    fi
done < <(make -s list-stages)
# the benchmark scripts' steps (lab/scripts/check-steps.sh): an unknown one is refused before the
# script builds or creates anything
for sc in "lab/05_simd/bench-host.sh STEPS peak" "lab/14_amx/bench-host.sh STEPS peak" \
    "lab/scripts/host-probe.sh STEPS kern05" "lab/13_distributed/bench-gpus.sh ONLY comm"; do
    set -- $sc # SCRIPT VARIABLE A-STEP-IT-HAS
    if not_in_edition "$1"; then skip "$1: not in the student edition"; continue; fi
    refused "$1: $2='$3 bogus'" "steps-$(basename "$(dirname "$1")")-$(basename "$1" .sh)" \
        env "$2=$3 bogus" bash "$1" "$T/steps-out"
    [ ! -e "$T/steps-out" ] || fail "$1: $2=bogus left $T/steps-out behind"
done
# 05's probe: its counts, sets and options whole and in range, else one line and exit 2
if not_in_edition lab/05_simd/probe.c; then
    skip "05's probe (lab/05_simd/probe.c): not in the student edition"
elif make -s build/rel/05_simd/probe >"$LOG/probe-build.out" 2>&1; then
    P=build/rel/05_simd/probe
    for a in "kernels 0 5 64,64,6" "kernels 2 abc 64,64,6" "kernel 3 bogus 64,64,6" \
        "kernels 2 3 avx512_6x64" "kernel 3 512,256,96x2junk" "phases 2 1 512/u8/bogus" \
        "phases 2 1 512/u-3" "blocks 2 1 256 0,0,0/ownx" "blocks 2 1 256 0,0,0junk" \
        "blocks 2 1 25x 0,0,0" "packing 1 1 0" "share 1 1 64abc"; do
        # shellcheck disable=SC2086  # a is the arguments
        refused "probe $a" "probe-$(echo "$a" | tr -c 'a-z0-9' _)" $P $a
        # the same as an AVX2 CPU: bad input is exit 2 before the CPU is asked (a kernel named
        # that this CPU lacks was exit 77 before the rest was read)
        # shellcheck disable=SC2086
        refused "probe $a, as an AVX2 CPU" "probe-avx2-$(echo "$a" | tr -c 'a-z0-9' _)" \
            env GEMM_HIDE_ISA=avx512 $P $a
    done
    if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
        # as an AVX2 CPU: no kernel named is the dispatch's (it was avx512_6x64: exit 77), and
        # the set "fma" and probe share use the AVX2 FMA loop (they needed AVX-512)
        run probe-as-avx2 env GEMM_HIDE_ISA=avx512 $P kernel 3 fma 64,16,6x10
        if [ "$rc" -eq 0 ] && grep -q '^the FMA loop (fma_avx2,' "$LOG/probe-as-avx2.out" &&
            grep -q '^kernel avx2_6x16 ' "$LOG/probe-as-avx2.out"; then
            pass "probe kernel fma as an AVX2 CPU: the AVX2 FMA loop and avx2_6x16"
        else
            fail "probe kernel fma as an AVX2 CPU -> exit $rc (want 0, fma_avx2 and avx2_6x16; $LOG/probe-as-avx2.*)"
        fi
        run probe-share-avx2 env GEMM_HIDE_ISA=avx512 $P share 1 1 64
        [ "$rc" -eq 0 ] && grep -q '^share n=64 threads=1: 1 pairs of (fma_avx2,' "$LOG/probe-share-avx2.out" &&
            pass "probe share as an AVX2 CPU: against the AVX2 FMA loop" ||
            fail "probe share as an AVX2 CPU -> exit $rc (want 0 and fma_avx2; $LOG/probe-share-avx2.*)"
    fi
    # no SIMD FMA at all (x86 with AVX2 hidden): the set "fma" and probe share, exit 77, one line
    if grep -qw sse2 /proc/cpuinfo 2>/dev/null; then
        for a in "kernel 3 fma 64,16,6x10" "share 1 1 64"; do
            run probe-no-fma env GEMM_HIDE_ISA=avx2 $P $a
            [ "$rc" -eq 77 ] && [ "$(wc -l <"$LOG/probe-no-fma.err")" -eq 1 ] &&
                pass "probe $a without AVX2 -> exit 77: $(cat "$LOG/probe-no-fma.err")" ||
                fail "probe $a without AVX2 -> exit $rc (want 77, one line; $LOG/probe-no-fma.*)"
        done
    fi
else
    fail "build/rel/05_simd/probe did not build ($LOG/probe-build.out)"
fi
# GEMM_CUDA_CC that is not a compute capability: refused as the program starts (it was ignored)
B07=07_cuda_naive/cuda_naive
if [ -x $B07 ]; then
    for cc in abc 8.6 sm_86 9; do
        refused "07: GEMM_CUDA_CC=$cc" "07-cc-$cc" env GEMM_CUDA_CC=$cc $B07 -m 7 --no-baseline --reps 1
        grep -q "GEMM_CUDA_CC: '$cc' is not a compute capability" "$LOG/07-cc-$cc.err" ||
            fail "07: GEMM_CUDA_CC=$cc: the message does not name it"
    done
    run 07-cc-ok env GEMM_CUDA_CC=80 $B07 -m 7 --no-baseline --reps 1
    [ $rc -ne 2 ] && pass "07: GEMM_CUDA_CC=80 is taken (exit $rc)" || fail "07: GEMM_CUDA_CC=80 refused: $(cat "$LOG/07-cc-ok.err")"
else
    skip "07: not built (no nvcc): GEMM_CUDA_CC's check not tried"
fi
run gf256-nogpu 11_gf256/gf256 --variant gpu_tables --len 8
if [ $rc -eq 77 ]; then
    grep -qE 'needs a CUDA GPU \((no NVIDIA GPU or driver found|not built with CUDA.*)\), which this machine lacks: skipped$' \
        "$LOG/gf256-nogpu.err" &&
        pass "11_gf256: --variant gpu_tables without a GPU -> exit 77: $(tail -n1 "$LOG/gf256-nogpu.err")" ||
        fail "11_gf256: --variant gpu_tables -> exit 77 but says: $(tail -n1 "$LOG/gf256-nogpu.err")"
else
    skip "11_gf256: gpu_tables exit $rc (a GPU is present?)"
fi

# ---- the baseline's own row says what its median is: a variant's ratio is against the baseline runs
# alternated with it, the row holds all of them (12's table on an H200 read wgmma_persistent 694.2,
# 1.04x, above cublas 731.5, with nothing said)
run baseline-row $NAIVE --sizes 16,24 --reps 3
[ "$rc" -eq 0 ] && grep -q '^openblas ' "$LOG/baseline-row.out" &&
    grep -qx "(the openblas row: the median of all its runs at a size; a variant's ratio is against the openblas runs alternated with it)" "$LOG/baseline-row.out" &&
    pass "the baseline's row: one line under the table says it is the median of all its runs" ||
    fail "the baseline's row: no line says what its median is (see $LOG/baseline-row.out)"
run baseline-row-none $NAIVE --sizes 16 --reps 3 --no-baseline
[ "$rc" -eq 0 ] && ! grep -q '^(the ' "$LOG/baseline-row-none.out" &&
    pass "--no-baseline: no line about a baseline's row" ||
    fail "--no-baseline printed a line about the baseline's row (see $LOG/baseline-row-none.out)"
exit 0

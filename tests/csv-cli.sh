#!/usr/bin/env bash
# tests/csv-cli.sh: the CSV files every program writes, and the edges of the command line.
#
#   CSV (--csv of the harness, 06's --breakdown, 10's --stats, 11's --csv): refused before any
#   work with exit 2 and one line on stderr when the path is in a missing directory, is a
#   directory, is /dev/full, or holds another header or a half line (the file left as it was);
#   under `ulimit -f 1` every line of the file is a whole row; `--csv -` makes standard output
#   a valid CSV; a second run appends rows under the one header; a skipped run (exit 77)
#   leaves no file behind.
#   Command line: --variant "" exits 2 in every program; --alpha/--beta 1e39 exit 2 (not a
#   finite float); -k 2147483647 --pad 1 says which leading dimension overflowed (and UBSan
#   stays quiet); stage 05 checks every argument before it refuses a kernel this CPU lacks
#   (--help 0, -m -5 2, then 77), --list shows every kernel and marks the missing ones;
#   --threads 1,2 adds a threads column; empty list items, malformed sizes, 'all' among names,
#   an alpha that is 0 as a float, --device on a CPU stage: exit 2 with one line in every
#   program; a CUDA program without a GPU says
#   "no NVIDIA GPU or driver found: skipped".
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh tallies them); exits 0.
set -u
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

NAIVE=01_naive/naive
# ---- the harness (every GEMM stage): 01_naive stands for them (20 fields: the date is the 18th,
# then the load and the ratios' spread, which may be empty)
LAST_AT=18 csv_cases harness 20 "$NAIVE --sizes 8:64:+4 --no-baseline --reps 1 --csv" \
    $NAIVE -m 8 --no-baseline --reps 1 --csv
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
if [ "$(wc -l <"$LOG/05-list.out")" -eq 6 ] && [ $rc -eq 0 ] &&
        { [ -z "$NO512" ] || grep -q "^$NO512 .*\[not here" "$LOG/05-list.out"; }; then
    pass "05: --list shows all 6 variants; marked as lacking here: ${lacking:-none}"
else
    fail "05: --list exit $rc, $(wc -l <"$LOG/05-list.out") lines (want 6, ${NO512:-none} marked; see $LOG/05-list.out)"
fi
run 05-all $SIMD --variant all --no-baseline --reps 1 --sizes 7x13x5 --threads 1
[ $rc -eq 0 ] && [ "$(grep -cE ' PASS( |$)' "$LOG/05-all.out")" -eq $((6 - $(echo "$lacking" | wc -w))) ] &&
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
run gf256-nogpu 11_gf256/gf256 --variant gpu_tables --len 8
if [ $rc -eq 77 ]; then
    grep -qE 'needs a CUDA GPU \((no NVIDIA GPU or driver found|not built with CUDA.*)\), which this machine lacks: skipped$' \
        "$LOG/gf256-nogpu.err" &&
        pass "11_gf256: --variant gpu_tables without a GPU -> exit 77: $(tail -n1 "$LOG/gf256-nogpu.err")" ||
        fail "11_gf256: --variant gpu_tables -> exit 77 but says: $(tail -n1 "$LOG/gf256-nogpu.err")"
else
    skip "11_gf256: gpu_tables exit $rc (a GPU is present?)"
fi
exit 0

#!/usr/bin/env bash
# tests/cpu-classes.sh: every CPU stage as each class of CPU sees it (DESIGN.md, "Tests"; the
# classes and GEMM_HIDE_ISA: common/cpu_features.h). make test runs each stage's checks on this
# machine's CPU; this runs them again as each class below it, the features above the class hidden
# with GEMM_HIDE_ISA:
#
#   class                      GEMM_HIDE_ISA       05's dispatch   (machines)
#   AVX-512 with AMX           -                   avx512_6x64     Sapphire Rapids and later
#   AVX-512 with AVX512-BF16   amx                 avx512_6x64     Zen 4/5, Cooper Lake
#   AVX-512                    amx avx512_bf16     avx512_6x64     Skylake-X to Ice Lake
#   AVX2+FMA                   avx512              avx2_6x16       Zen 1-3, Haswell to Comet Lake
#   no SIMD extension          avx                 generic         older x86
#
# Each class below this machine's, each CPU stage, at small sizes (the heavy cases ran once, on
# the CPU itself): every variant over the small awkward shapes (padded, beta 0.5, 2 threads), K = 0,
# the edge suite, each line of the stage's test-cases.txt (a line naming only variants the class
# lacks must exit 77 with one line: tests/lib.sh, case_needs), the untouched exercise, the
# sanitizer build, the stage's tests/stages/NN_topic.sh (11's in place of the GEMM checks); 13 on two ranks. And what
# the table says: one "not on this CPU" line for each variant the class lacks (as many as --list
# marks), counted in the tally; the dispatch the header names is the class's. A class above this
# machine's is built (make test's build) but cannot run here: SKIP, with the reason.
#
# Then GEMM_HIDE_ISA itself: an unknown word stops every program with one line, exit 2; a mixed
# --variant list runs what can run and names the rest; 14's header follows --blocks; build/peak's
# AVX-512 loop is "not available" when AVX-512 is hidden.
# PASS:/FAIL:/SKIP: lines, then "N passed, N failed, N skipped"; exit 0 when nothing failed.
#   CPU_CLASSES="AVX2+FMA,no SIMD extension"   only these classes (default: every one)
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
TOP=build/test-logs/cpu-classes
rm -rf "$TOP"
mkdir -p "$TOP"
LOG=$TOP
# shellcheck source=tests/lib.sh
. tests/lib.sh # ok, bad, skp, finish, gemm_checks, expect_rc, case_needs, SMALL_SHAPES

# run NAME COMMAND...: stdout in $LOG/NAME.out, stderr in $LOG/NAME.err; sets rc
run() {
    local name=$1
    shift
    "$@" >"$LOG/$name.out" 2>"$LOG/$name.err"
    rc=$?
}

make -s build/cpu-class >"$TOP/build.log" 2>&1 || { bad "make build/cpu-class (see $TOP/build.log)"; finish; }
CLASSES=("AVX-512 with AMX|-|avx512_6x64" "AVX-512 with AVX512-BF16|amx|avx512_6x64"
         "AVX-512|amx avx512_bf16|avx512_6x64" "AVX2+FMA|avx512|avx2_6x16" "no SIMD extension|avx|generic")
real=$(build/cpu-class)
pick() { env GEMM_HIDE_ISA="$1" 05_simd/simd --help | sed -n '1s/.*dispatch picks \([a-z0-9_]*\).*/\1/p'; }
real_pick=$(pick "")
# Which stages a class changes: those whose --list marks other variants "not here" than on this
# CPU, and those that link 05's dispatch (microkernel_best) when the class changes its pick. A
# stage that does neither (01 to 04 ask the CPU nothing) is the same program in every class.
changes() { # DIR BIN HIDE CLASS-PICK
    [ "$(GEMM_HIDE_ISA=$3 "$2" --list 2>&1)" != "$(env -u GEMM_HIDE_ISA "$2" --list 2>&1)" ] && return 0
    [ "$4" != "$real_pick" ] && nm "$2" 2>/dev/null | grep -q ' T microkernel_best$'
}
# the class sweeps' sizes: small (the awkward shapes and option sets of make test ran on this CPU)
SHAPES=$SMALL_SHAPES OPTION_SETS=("--pad 3 --beta 0.5 --threads 2")
stages=$(make -s list-stages | awk '$3 == "cpu"')

# not_here_lines NAME BIN ARGS...: the table of BIN ARGS (its log $LOG/NAME.out, written by the
# run before) names each variant that --list marks not here, once, and the tally counts them.
not_here_lines() {
    local name=$1 bin=$2 log=$LOG/$1.out
    shift 2
    local marked lines tally want
    marked=$("$bin" "$@" --list 2>/dev/null | grep -c '\[not here: ')
    lines=$(grep -cE '^[a-z0-9_]+ +not on this CPU: needs ' "$log")
    tally=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    want=$([ "$marked" -gt 0 ] && echo ", $marked not on this CPU")
    if [ "$lines" -eq "$marked" ] && [[ $tally =~ ^[0-9]+\ passed,\ 0\ failed$want$ ]]; then
        ok "$dir as $cname: $marked variant(s) this class lacks named in the table, and in the tally: $tally"
    else
        bad "$dir as $cname: $lines 'not on this CPU' line(s) for $marked variant(s) --list marks, tally '$tally' (see $log)"
    fi
}

for c in "${CLASSES[@]}"; do
    IFS='|' read -r cname hide pick <<<"$c"
    [ -n "${CPU_CLASSES:-}" ] && [[ ",$CPU_CLASSES," != *",$cname,"* ]] && continue
    if [ "$real" = "$cname" ]; then
        ok "class $cname: this CPU's own: make test's stage checks ran on it"
        continue
    fi
    seen=$([ "$hide" = - ] || GEMM_HIDE_ISA="$hide" build/cpu-class)
    if [ "$seen" != "$cname" ]; then # hiding takes features away, never gives them
        skp "class $cname: built, not run: this CPU is '$real' (a machine of this class runs it)"
        continue
    fi
    echo "== class $cname (GEMM_HIDE_ISA=\"$hide\")"
    got=$(pick "$hide")
    [ "$got" = "$pick" ] && ok "class $cname: 05's dispatch picks $got" ||
        bad "class $cname: 05's dispatch picks '$got', want $pick"
    export GEMM_HIDE_ISA=$hide
    LOG=$TOP/$(echo "$cname" | tr -c 'A-Za-z0-9\n' _)
    mkdir -p "$LOG"
    while read -r dir prog _; do
        [ -n "$dir" ] || continue
        bin=$dir/$prog
        if ! changes "$dir" "$bin" "$hide" "$pick"; then
            ok "$dir as $cname: runs what it runs on this CPU (the same variants can run, the same dispatch): its checks above hold"
            continue
        fi
        case $dir in
        11_gf256)
            run_checker "$dir as $cname" "tests/stages/$dir.sh" "$LOG/$prog-custom.out" </dev/null ;;
        13_distributed)
            if ! command -v mpirun >/dev/null; then skp "$dir as $cname: no mpirun"; continue; fi
            expect_rc 0 "$dir as $cname: 2 ranks, small shapes, summa and summa_overlap" "$prog-2ranks" \
                timeout 120 mpirun --allow-run-as-root -q --oversubscribe --bind-to none -x OMP_NUM_THREADS=1 \
                -x GEMM_HIDE_ISA -np 2 "$bin" --variant summa,summa_overlap --reps 1 --threads 1 --grid 1x2 \
                --nb 3 --no-baseline --sizes "$SMALL_SHAPES" </dev/null
            grep -q "local product: 05's gemm_simd ($pick)" "$LOG/$prog-2ranks.out" &&
                ok "$dir as $cname: the local product runs 05's $pick" ||
                bad "$dir as $cname: the header does not name $pick (see $LOG/$prog-2ranks.out)" ;;
        *)
            gemm_checks "$dir" "$bin" --no-baseline "$dir as $cname"
            not_here_lines "$prog-shapes1" "$bin" --variant all
            expect_rc 0 "$dir as $cname: ASan+UBSan, all variants" "$prog-asan" "build/asan/$bin" \
                --variant all --no-baseline --reps 1 --sizes "$SMALL_SHAPES" --pad 3 --beta 0.5 --threads 2
            case $dir in # the stages whose header names 05's dispatch
            05_simd | 06_strassen)
                grep -q "picks $pick\|best micro-kernel: $pick\|($pick" "$LOG/$prog-shapes1.out" &&
                    ok "$dir as $cname: the dispatch picks $pick, and the header says so" ||
                    bad "$dir as $cname: the header does not name $pick (see $LOG/$prog-shapes1.out)" ;;
            esac
            [ ! -f "tests/stages/$dir.sh" ] ||
                run_checker "$dir as $cname" "tests/stages/$dir.sh" "$LOG/$prog-extra.out" </dev/null ;;
        esac
    done <<<"$stages"
    unset GEMM_HIDE_ISA
done
LOG=$TOP

echo "== GEMM_HIDE_ISA itself"
# an unknown word: every CPU program (and build/peak) stops with one line, exit 2, nothing on stdout
while read -r dir prog _; do
    [ -n "$dir" ] || continue
    for bin in "$dir/$prog" build/peak; do
        [ "$bin" = build/peak ] && [ "$dir" != 05_simd ] && continue
        name=$(basename "$bin")-unknown
        GEMM_HIDE_ISA="avx512 sse9" "$bin" -m 8 --no-baseline --reps 1 >"$LOG/$name.out" 2>"$LOG/$name.err" </dev/null
        rc=$? lines=$(wc -l <"$LOG/$name.err")
        if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$LOG/$name.out" ] && grep -q "sse9" "$LOG/$name.err"; then
            ok "GEMM_HIDE_ISA=\"avx512 sse9\": $bin refuses it: $(cat "$LOG/$name.err")"
        else
            bad "GEMM_HIDE_ISA=\"avx512 sse9\": $bin exit $rc, $lines stderr line(s) (want 2 and 1; $LOG/$name.*)"
        fi
    done
done <<<"$stages"

# a mixed list, as a CPU without AVX-512: the generic kernel runs, the AVX-512 one is named
run mixed env GEMM_HIDE_ISA=avx512 05_simd/simd --variant avx512_6x64,generic --no-baseline --reps 1 --sizes 7x13x5,33
if [ "$rc" -eq 0 ] && grep -qx 'avx512_6x64      not on this CPU: needs AVX-512F/DQ/VL' "$LOG/mixed.out" &&
   [ "$(awk '$NF == "PASS" {print $1}' "$LOG/mixed.out" | sort -u)" = generic ] &&
   grep -qx '2 passed, 0 failed, 1 not on this CPU' "$LOG/mixed.out"; then
    ok "--variant avx512_6x64,generic as AVX2+FMA: generic runs, avx512_6x64 named, tally '2 passed, 0 failed, 1 not on this CPU'"
else
    bad "--variant avx512_6x64,generic as AVX2+FMA: exit $rc (want 0, generic's rows and one 'not on this CPU' line; $LOG/mixed.out)"
fi
run mixed-csv env GEMM_HIDE_ISA=avx512 05_simd/simd --variant avx512_6x64,generic --no-baseline --reps 1 --sizes 33 --csv -
[ "$rc" -eq 0 ] && [ "$(cut -d, -f2 "$LOG/mixed-csv.out" | sed 1d | sort -u)" = generic ] &&
    ok "--csv - with a variant not on this CPU: rows for what ran only" ||
    bad "--csv - with a variant not on this CPU: exit $rc, rows: $(cut -d, -f2 "$LOG/mixed-csv.out" | sed 1d | paste -sd' ' -) ($LOG/mixed-csv.out)"
run none env GEMM_HIDE_ISA=avx 05_simd/simd --variant avx512_6x64,avx2_6x16 --no-baseline -m 33
[ "$rc" -eq 77 ] && [ "$(wc -l <"$LOG/none.err")" -eq 1 ] && [ ! -s "$LOG/none.out" ] &&
    ok "--variant avx512_6x64,avx2_6x16 with neither: exit 77: $(cat "$LOG/none.err")" ||
    bad "--variant avx512_6x64,avx2_6x16 with neither: exit $rc (want 77, one line; $LOG/none.*)"
run mixed14 env GEMM_HIDE_ISA=amx 14_amx/amx --variant simd,amx_naive --no-baseline --reps 1 --sizes 33
[ "$rc" -eq 0 ] && grep -qx 'amx_naive        not on this CPU: needs AMX-BF16' "$LOG/mixed14.out" &&
    grep -qx '1 passed, 0 failed, 1 not on this CPU' "$LOG/mixed14.out" &&
    ok "14 --variant simd,amx_naive without AMX: simd runs, amx_naive named" ||
    bad "14 --variant simd,amx_naive without AMX: exit $rc ($LOG/mixed14.out)"

# 14's header: the block sizes it runs with, after --blocks
run blocks 14_amx/amx --variant simd --blocks 64,96,128 --no-baseline --reps 1 -m 8
grep -q "MC=64 KC=96 NC=128" "$LOG/blocks.out" && ok "14 --blocks 64,96,128: the header says MC=64 KC=96 NC=128" ||
    bad "14 --blocks 64,96,128: the header says '$(head -n 1 "$LOG/blocks.out")'"

# build/peak: its AVX-512 loop is not available when AVX-512 is hidden
if [[ $real == AVX-512* ]]; then
    run peak env GEMM_HIDE_ISA=avx512 build/peak --quick
    [ "$rc" -eq 0 ] && grep -q '^fma_avx512 .*not available' "$LOG/peak.out" && grep -q '^fma_avx2 .*GFLOP/s' "$LOG/peak.out" &&
        ok "build/peak --quick as AVX2+FMA: $(grep -m1 '^fma_avx512 .*not available' "$LOG/peak.out" | tr -s ' ')" ||
        bad "build/peak --quick as AVX2+FMA: exit $rc, its AVX-512 loop not marked 'not available' ($LOG/peak.out)"
fi
finish

#!/usr/bin/env bash
# Stages 09 and 10 before and after a change, side by side: the same kernels, the same speed.
#   lab/09_cuda_registers/compare.sh OLD [ROUNDS]     OLD: a git revision, or a directory holding it
#   lab/09_cuda_registers/compare.sh --export REV     REV's sources into build/compare/old, for a
#                                                 machine without the git history (copy it there)
# Builds stages 09 and 10 from OLD (in a temporary directory) and from this tree, then
#   1. SASS: every kernel of the old programs against the new, by name (cuobjdump -sass, where
#      installed): the kernels that differ, and those found on one side only (no error where the
#      change drops or adds a kernel: after 09's split, stage 10 no longer links 09's first
#      four kernels nor async_pipeline's);
#   2. on a GPU, ROUNDS rounds (default 5) of the old and the new programs alternately, the order
#      swapped every round: 09 every variant at 4096; warptile and async_pipeline at 4095, 4097,
#      4096x4097x4096 and 8192; 10 rows_split and tiled_streams at 16384 (end to end, all GPUs).
#      Rows go to old.csv and new.csv; the summary is the median GFLOP/s of each row over the
#      rounds, old and new, and new / old.
# Everything lands in $OUT when it is set, else in build/compare/.
set -eu
export LC_ALL=C
cd "$(dirname "$0")/../.."
export_tree() { # REV DIR: the files stages 09 and 10 are built from
    rm -rf "$2" && mkdir -p "$2"
    git archive "$1" Makefile common scripts 09_cuda_registers 10_cuda_multigpu | tar -x -C "$2"
}
if [ "${1:-}" = --export ]; then
    export_tree "${2:?--export needs a revision}" build/compare/old
    echo "$2" >build/compare/old/REVISION
    echo "build/compare/old holds $2: copy it there and run"
    echo "  lab/09_cuda_registers/compare.sh build/compare/old"
    exit 0
fi
old=${1:?usage: lab/09_cuda_registers/compare.sh OLD [ROUNDS]  (OLD: a git revision or a directory)}
rounds=${2:-5}
out=${OUT:-build/compare}
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/compare-old.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -d "$old" ]; then
    cp -r "$old"/. "$work"
    rev=$(cat "$old/REVISION" 2>/dev/null || basename "$old")
else
    export_tree "$old" "$work"
    rev=$(git rev-parse --short "$old")
fi
jobs=$(nproc 2>/dev/null || echo 2)
echo "== building the old tree ($rev) and this one"
make -C "$work" -s -j"$jobs" GIT_REV="old-$rev" stage09 stage10 >/dev/null
make -s -j"$jobs" stage09 stage10 >/dev/null
declare -A bin=([old09]=$work/09_cuda_registers/cuda_registers
                [new09]=09_cuda_registers/cuda_registers
                [old10]=$work/10_cuda_multigpu/cuda_multigpu
                [new10]=10_cuda_multigpu/cuda_multigpu)

# "kernel md5" for every kernel in a program: the md5 of its SASS (a kernel compiled in two
# files into two different codes shows both, joined by +)
sass_list() {
    local d
    d=$(mktemp -d "$work/sass.XXXXXX")
    cuobjdump -sass "$1" | awk -v d="$d" '
        /Function : / { if (f) close(f); f = d "/" ++n; print n, $NF >d "/index"; next }
        /^\t\t\.\.\.\.\.\.\.\.\.\./ { if (f) close(f); f = ""; next }
        f { $1 = $1; print >f }' # white space folded: the padding of a column varies
    while read -r i name; do echo "$name $(md5sum <"$d/$i" | cut -c1-12)"; done <"$d/index" |
        sort -u | awk '{ s[$1] = s[$1] (s[$1] == "" ? "" : "+") $2 }
                       END { for (k in s) print k, s[k] }' | sort
}
echo "== SASS, old against new"
if command -v cuobjdump >/dev/null; then
    for s in 09 10; do
        sass_list "${bin[old$s]}" >"$out/sass-old-$s.txt"
        sass_list "${bin[new$s]}" >"$out/sass-new-$s.txt"
        join -a1 -a2 -e - -o 0,1.2,2.2 "$out/sass-old-$s.txt" "$out/sass-new-$s.txt" |
            awk -v s="$s" '$2 == $3 { same++; next }
                { side = $2 == "-" ? "new only: " : $3 == "-" ? "old only: " : "DIFFERS:  "
                  print "  " side $1 }
                END { print "stage " s ": " same + 0 " kernels with the same SASS" }'
    done
else
    echo "no cuobjdump here: SASS not compared"
fi

if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU: nothing timed"
    exit 0
fi
echo "== timing, $rounds rounds, old and new alternately"
rm -f "$out/old.csv" "$out/new.csv"
lock=$(command -v flock >/dev/null && echo scripts/bench-lock)
run_side() { # old|new
    local opts=(--no-check --no-baseline --csv "$out/$1.csv")
    $lock "${bin[${1}09]}" --variant all --sizes 4096 "${opts[@]}" >/dev/null
    $lock "${bin[${1}09]}" --variant warptile,async_pipeline \
        --sizes 4095,4097,4096x4097x4096,8192 "${opts[@]}" >/dev/null
    $lock "${bin[${1}10]}" --variant rows_split,tiled_streams --sizes 16384 "${opts[@]}" >/dev/null
}
for r in $(seq "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then run_side old; run_side new; else run_side new; run_side old; fi
    echo "round $r of $rounds done"
done
# the median GFLOP/s of each stage, variant and size over the rounds, old and new
awk -F, 'function median(list,   v, n, i, j, t) {
             n = split(list, v, " ")
             for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
                 t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
             return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
         FNR == 1 { side = (FILENAME ~ /old.csv$/) ? "old" : "new"; next }
         { key = substr($1, 1, 2) " " $2 " " $3 "x" $4 "x" $5
           if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
           g[side, key] = g[side, key] " " $10 }
         END { fmt = "%-5s %-16s %-18s %10s %10s %8s\n"
               printf fmt, "stage", "variant", "size", "old", "new", "new/old"
               for (i = 1; i <= nk; i++) { k = order[i]; split(k, f, " ")
                   o = median(g["old", k]); n = median(g["new", k])
                   printf fmt, f[1], f[2], f[3], sprintf("%.0f", o), sprintf("%.0f", n),
                          sprintf("%.3f", o > 0 ? n / o : 0) } }' \
    "$out/old.csv" "$out/new.csv" | tee "$out/summary.txt"

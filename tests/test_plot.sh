#!/bin/sh
# test_plot.sh: plots/plot.py on the CSV fixture in tests/fixtures/results.
# Checks that every expected chart is written as a PNG, that FAIL rows are
# skipped with a warning, and that bad input exits with status 2 (a rate
# out of range, a stage that would name a chart outside --out among it);
# that every chart script ends in exit 0, 77 or 2 with one line, never a
# traceback, on CSVs with a number made absurd (tests/plot_bad_values.py); that every
# stage's own plot.py refuses bad CSVs (cut off, binary, empty, damaged,
# another stage's or schema's) the same way, through plots/reader.py; that no
# two lines of a chart share colour and dash; that tests/chart-check finds the
# faults planted in a chart; that the README's table names what the progression
# chart draws (tests/readme_progression.py); then the charts of a small `make run`
# (tests/test_run_charts.sh) and of `make plots`, judged by tests/chart-check: no
# empty panel, no two lines in one style, no legend over data, no log axis unsaid.
# Prints one PASS:/FAIL: line per check; exits 1 if any failed, 77 if no
# Python with matplotlib is found (the "skipped" convention of make test).
# Usage: sh tests/test_plot.sh   (from the repository root or anywhere)

export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
root=$(cd "$(dirname "$0")/.." && pwd)
plot="$root/plots/plot.py"
fixture="$root/tests/fixtures/results"

# The python3 on PATH may lack matplotlib (a pyenv, say): the one that has it.
PY=$("$root/scripts/find-python.sh") || {
    echo "SKIP: no python3 with matplotlib (apt install python3-matplotlib)"
    exit 77
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/checker-lib.sh
. "$root/tests/checker-lib.sh"
is_png() { # non-empty and starts with the 8 PNG magic bytes
    [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
exits_2() { # exits_2 ARGS...: plot.py fails with status 2 and a one-line message
    "$PY" "$plot" --out "$tmp/bad" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
    [ $? -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && [ ! -s "$tmp/bad.out" ]
}

# The whole fixture: CPU and GPU stages, several thread counts, a peak.csv, one FAIL row.
"$PY" "$plot" --out "$tmp/all" "$fixture" >"$tmp/all.out" 2>"$tmp/all.err"
check "plot.py on the fixture exits 0" [ $? -eq 0 ]
expected="01_naive 02_loop_order 04_threads_t1 04_threads_t2 07_cuda_naive
          progression_cpu progression_cpu_sizes progression_gpu progression_gpu_sizes"
for name in $expected; do
    check "$name.png is a PNG" is_png "$tmp/all/$name.png"
    check "$name.png is printed on stdout" grep -qx "$tmp/all/$name.png" "$tmp/all.out"
done
check "only the expected charts are written" [ "$(ls "$tmp/all" | wc -l)" -eq 9 ]
# The same charts, byte for byte, under a decimal-comma locale (de_DE.UTF-8, as a user in Germany
# runs make run; tests/checker-lib.sh builds it where the machine has none)
comma_locale "$root"
if [ -n "$COMMA" ]; then
    # shellcheck disable=SC2086  # COMMA is env's arguments
    env $COMMA "$PY" "$plot" --out "$tmp/comma" "$fixture" >"$tmp/comma.out" 2>"$tmp/comma.err"
    rc=$?
    same=0
    for png in "$tmp"/all/*.png; do cmp -s "$png" "$tmp/comma/$(basename "$png")" && same=$((same + 1)); done
    check "plot.py under $COMMA: exit $rc (want 0), $same of $(ls "$tmp"/all/*.png | wc -l) charts the same as in the C locale" \
        [ $rc -eq 0 -a "$same" -eq "$(ls "$tmp"/all/*.png | wc -l)" -a "$(ls "$tmp/comma" | wc -l)" -eq "$same" ]
else
    echo "SKIP: no decimal-comma locale here (de_DE.UTF-8 neither installed nor built by localedef): plot.py not tried under one"
fi
check "the FAIL row is skipped with a warning" \
    grep -q "warning: skipping FAIL row: 04_threads omp_rows 64x64x64" "$tmp/all.err"

# alpha = 0: the harness leaves gflops empty (no rate for an early return); such a row is left
# out of the charts, and the rest of the file is drawn
mkdir -p "$tmp/alpha0"
{ cat "$fixture/01_naive.csv"; tail -n 1 "$fixture/01_naive.csv" | awk -F, -v OFS=, '{$10 = ""; $12 = ""; print}'; } \
    >"$tmp/alpha0/01_naive.csv"
"$PY" "$plot" --out "$tmp/alpha0/out" "$tmp/alpha0/01_naive.csv" >"$tmp/alpha0.out" 2>&1
check "a row with no rate (alpha = 0, gflops empty) is left out, the chart drawn" \
    is_png "$tmp/alpha0/out/01_naive.png"

# CPU results only: one progression chart of each kind, with no _cpu suffix.
"$PY" "$plot" --out "$tmp/one" --size 128 "$fixture/01_naive.csv" >"$tmp/one.out" 2>&1
check "a single CSV exits 0" [ $? -eq 0 ]
for name in 01_naive progression progression_sizes; do
    check "single CSV: $name.png is a PNG" is_png "$tmp/one/$name.png"
done

# Sizes within 1% of each other (a sweep's odd-size probes, 4095 and 4097 beside 4096) would stack
# into a vertical bar: each line keeps the size most variants ran, unless it has only the other.
near_expect="{4095: 4096, 4097: 4096, 6000: 6016}"
near_got=$(cd "$root/plots" && "$PY" -c '
import plot
rows = [{"variant": v, "n": n} for v in ("a", "b") for n in (1024, 4095, 4096, 4097, 6000, 6016)]
rows += [{"variant": "c", "n": n} for n in (1024, 4097)]
print(plot.near_sizes(rows))' 2>&1)
check "near sizes: 4095 and 4097 stand beside 4096, 6000 beside 6016 (got $near_got)" \
    [ "$near_got" = "$near_expect" ]
{
    head -n 1 "$fixture/07_cuda_naive.csv"
    for n in 1024 4095 4096 4097; do
        echo "07_cuda_naive,coalesced,$n,$n,$n,1,5,1,1,1000,cuBLAS,1400,1e-07,PASS,fixture-gpu,nvcc,fixture,2024-05-04"
    done
    echo "07_cuda_naive,probe,4097,4097,4097,1,5,1,1,900,cuBLAS,1400,1e-07,PASS,fixture-gpu,nvcc,fixture,2024-05-04"
} >"$tmp/near.csv"
"$PY" "$plot" --out "$tmp/near" "$tmp/near.csv" >"$tmp/near.out" 2>&1
check "near sizes: the chart is drawn and the sizes left out are named" \
    grep -q "sizes 4095, 4097 left out of the lines that also ran" "$tmp/near.out"

# A row measured under load (its CSV load column at or above the harness's mark) is drawn
# hollow, the baseline measured beside it too, and the legend says why; with no such row,
# neither. (legend entry, lines of hollow markers) of each chart:
hollow_got=$(cd "$root/plots" && "$PY" -c '
import sys, plot
seen = []
def save(fig, ax, out_dir, name, log_y):  # stands in for plot.save: what the reader would see
    ax.legend()
    marks = [ln for ln in ax.lines if len(ln.get_xdata()) and ln.get_markerfacecolor() in ("white", (1, 1, 1, 1))]
    seen.append((any("hollow" in t.get_text() for t in ax.get_legend().get_texts()), len(marks)))
plot.save = save
_, rows = plot.read_csv(sys.argv[1])
rows = [r for r in rows if r["check"] == "PASS"]
plot.plot_stage([dict(r) for r in rows], [], "-", "quiet")
busy = [dict(r) for r in rows]
busy[0]["load"] = 1.3
plot.plot_stage(busy, [], "-", "busy")
print(seen)' "$fixture/01_naive.csv" 2>&1)
check "busy rows: the variant and its baseline hollow, in the legend; quiet rows neither (got $hollow_got)" \
    [ "$hollow_got" = "[(False, 0), (True, 2)]" ]

# Lines told apart: a stage chart of many variants and libraries (two OpenBLAS cores, BLIS, MKL;
# the 05_simd charts once drew BLIS-haswell and OpenBLAS-Haswell both black and dashed) and the
# progression by size with two thread counts: every line named in the legend has a colour and
# dash of its own. (lines named, distinct (colour, dash) pairs) of each chart, from matplotlib's
# objects:
styles_got=$(cd "$root/plots" && "$PY" -c '
import matplotlib.colors as mc, plot
libs = ["OpenBLAS", "OpenBLAS-Haswell", "OpenBLAS-Cooperlake(SkylakeX)", "OpenBLAS-SkylakeX",
        "BLIS-haswell", "BLIS-zen3", "MKL-avx2", "MKL-avx512"]
def row(stage, variant, n, g, threads=1, base="", bg=-1.0):
    return dict(stage=stage, variant=variant, m=n, n=n, k=n, threads=threads, gflops=g, baseline=base,
                baseline_gflops=bg, load=-1.0, check="PASS", device="fixture-cpu")
rows = [row("05_simd", f"v{i:02d}", n, i + n / 100, base="OpenBLAS", bg=100.0)
        for i in range(23) for n in (256, 512, 1024)]
rows += [row("05_simd", lib.lower(), n, 50 + j + n / 100, base=lib) for j, lib in enumerate(libs)
         for n in (256, 512, 1024)]
prog = [row(s, v, n, g * t * t, threads=t, base="BLIS-haswell", bg=60.0 * t) for t in (1, 2)
        for s, v, g in (("01_naive", "ijk", 1), ("03_tiling", "tiled", 10), ("05_simd", "simd", 50))
        for n in (256, 1024) if t == 1 or s != "01_naive"]  # (01 on one thread, 03 and 05 on two)
prog += [row("05_simd", lib.lower(), n, 60.0 * t + j, threads=t, base=lib) for t in (1, 2)
         for j, lib in enumerate(("OpenBLAS", "BLIS-haswell")) for n in (256, 1024)]
seen = []
def save(fig, ax, out_dir, name, log_y):  # stands in for plot.save: the lines as drawn
    named = [l for l in ax.lines if l.get_linestyle() != "None" and not l.get_label().startswith("_")]
    pairs = {(mc.to_rgba(l.get_color()), l.get_linestyle(), l._unscaled_dash_pattern) for l in named}
    seen.append((len(named), len(pairs)))
plot.save = save
plot.plot_stage(rows, [], "-", "stage")
plot.plot_progression_sizes(prog, [], "-", "", 1024)
print(seen)' 2>&1)
check "every line of a chart in a style of its own: 23 variants and 8 libraries, and a progression on 1 and 2 threads (got $styles_got)" \
    [ "$styles_got" = "[(31, 31), (5, 5)]" ]

# tests/chart-check judges a chart by its matplotlib objects: planted faults (two lines in one
# style, a legend over the data, a log axis that does not say so) are each found, and a clean
# chart passes.
PYTHONPATH="$root/tests/chart-check" CHART_CHECK_LOG="$tmp/planted.log" "$PY" -c '
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
def chart(name, dash, xlabel, **legend):
    fig, ax = plt.subplots()
    ax.plot([1, 2, 4, 8], [1, 2, 3, 4], "k--", label="OpenBLAS-Haswell")
    ax.plot([1, 2, 4, 8], [2, 3, 4, 5], "k" + dash, label="BLIS-haswell")
    ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("GFLOP/s")
    ax.set_title(name)
    ax.legend(**legend)
    fig.savefig(f"{sys.argv[1]}/{name}.png", bbox_inches="tight")
chart("planted", "--", "n", loc="center")  # one style twice, the legend over the lines
chart("clean", ":", "n (log scale)", loc="upper center", bbox_to_anchor=(0.5, -0.15))
' "$tmp" >/dev/null 2>&1
planted=$(awk -F'\t' '$1 ~ /planted.png$/ {print $3}' "$tmp/planted.log" 2>/dev/null)
for fault in "same style" "legend covers" "log unsaid x"; do
    check "tests/chart-check finds a planted '$fault' (got: $planted)" \
        sh -c 'case $1 in *"$2"*) exit 0 ;; esac; exit 1' - "$planted" "$fault"
done
check "tests/chart-check passes a clean chart" \
    [ "$(awk -F'\t' '$1 ~ /clean.png$/ {print $3}' "$tmp/planted.log" 2>/dev/null)" = - ]

# The README's chapter table against the progression charts it shows: the same variant and the
# same rate for each stage whose headline quotes one at the chart's size (tests/readme_progression.py).
"$PY" "$root/tests/readme_progression.py" >"$tmp/readme.out" 2>&1
rc=$?
cat "$tmp/readme.out"
passed=$((passed + $(grep -c '^PASS:' "$tmp/readme.out")))
failed=$((failed + $(grep -c '^FAIL:' "$tmp/readme.out")))
[ $rc -eq 0 ] || grep -q '^FAIL:' "$tmp/readme.out" ||
    { echo "FAIL: tests/readme_progression.py exited $rc"; failed=$((failed + 1)); }

# Bad input: one line on stderr, exit status 2, nothing written.
head -n 1 "$fixture/01_naive.csv" >"$tmp/empty.csv"
printf 'stage,variant,size,gflops\n01_naive,ijk,64,1.5\n' >"$tmp/wrong.csv"
sed 's/,1.62,/,fast,/' "$fixture/01_naive.csv" >"$tmp/nan.csv"
mkdir "$tmp/nocsv"
check "a missing file exits 2" exits_2 "$tmp/no-such-file.csv"
check "a CSV with a wrong header exits 2" exits_2 "$tmp/wrong.csv"
check "a CSV with no rows exits 2" exits_2 "$tmp/empty.csv"
check "a non-number in gflops exits 2" exits_2 "$tmp/nan.csv"
check "a folder without CSVs exits 2" exits_2 "$tmp/nocsv"
check "--size 0 exits 2" exits_2 --size 0 "$fixture"
# ... a rate out of range (it was a traceback, exit 1); a stage that is not a plain name, which
# names the charts ('../escaped' wrote $tmp/escaped.png, outside --out; '' a hidden .png)
refused_nowhere() { # the fixture with field $1 of its first row set to $2: exit 2, no chart anywhere
    awk -F, -v OFS=, -v c="$1" -v v="$2" 'NR == 2 { $c = v } 1' "$fixture/01_naive.csv" >"$tmp/field.csv"
    rm -rf "$tmp/bad" "$tmp/escaped.png"
    exits_2 "$tmp/field.csv" && [ ! -e "$tmp/escaped.png" ] && [ -z "$(ls -A "$tmp/bad" 2>/dev/null)" ]
}
check "gflops -5 exits 2, one line, no chart" refused_nowhere 10 -5
check "gflops 1e308 exits 2, one line, no chart" refused_nowhere 10 1e308
check "stage '../escaped' exits 2, one line, no chart (it wrote ../escaped.png beside --out)" \
    refused_nowhere 1 ../escaped
check "an empty stage exits 2, one line, no chart (it wrote a hidden .png)" refused_nowhere 1 ""
check "plot.chart_path refuses a chart name that leaves --out or hides the chart" \
    sh -c 'cd "$1/plots" && "$2" -c "
import plot
for name in (\"../x.png\", \".png\", \"a/b.png\"):
    try:
        plot.chart_path(\"out\", name)
        raise SystemExit(1)
    except plot.InputError:
        pass
print(plot.chart_path(\"out\", \"01_naive.png\"))" >/dev/null 2>&1' - "$root" "$PY"

# Every chart script on CSVs with one number made absurd (-5, 1e308; the drawn rate 0, -5 and
# 1e308 in every row) and, for plot.py, a stage '../escaped' or empty: exit 0, 77, or 2 with one
# line; never a traceback; nothing written outside its folder (tests/plot_bad_values.py).
mkdir -p "$tmp/bad-values"
"$PY" "$root/tests/plot_bad_values.py" "$root" "$tmp/bad-values" >"$tmp/bad-values.out" 2>&1
rc=$?
cat "$tmp/bad-values.out"
passed=$((passed + $(grep -c '^PASS:' "$tmp/bad-values.out")))
failed=$((failed + $(grep -c '^FAIL:' "$tmp/bad-values.out")))
[ $rc -eq 0 ] && grep -q '^PASS:' "$tmp/bad-values.out" ||
    { echo "FAIL: tests/plot_bad_values.py exited $rc"; failed=$((failed + 1)); }

# A stage's own plot.py (plots/stage_cli.py): the same, for wrong arguments, a missing file and
# a CSV without the harness's columns.
stage_exits_2() { # stage_exits_2 NN_topic ARGS...
    s=$1
    shift
    "$PY" "$root/plots/$s.py" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
    [ $? -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && [ ! -s "$tmp/bad.out" ] &&
        [ ! -e "$tmp/stage.png" ]
}
for s in 03_tiling 04_threads 10_cuda_multigpu 11_gf256; do
    check "plots/$s.py with one argument exits 2" stage_exits_2 $s "$tmp/wrong.csv"
    check "plots/$s.py on a missing file exits 2" stage_exits_2 $s "$tmp/no-such-file.csv" "$tmp/stage.png"
    check "plots/$s.py on a wrong header exits 2" stage_exits_2 $s "$tmp/wrong.csv" "$tmp/stage.png"
done

# Every stage's own plot.py reads its CSVs through plots/reader.py, the reader plots/plot.py uses,
# and refuses what is not a whole CSV of its stage: one line on stderr, exit 2, nothing on stdout,
# no chart. The bad inputs are made from a committed CSV of the stage (results/*/NN_topic.csv),
# each alone in a folder (a sibling file is read from the CSV's folder).
refuses() { # refuses NN_topic CSV [ARGS...]: the stage's plot.py on CSV exits 2, one line, no PNG
    s=$1 src=$2
    shift 2
    rm -f "$tmp/stage.png"
    "$PY" "$root/plots/$s.py" "$@" "$src" "$tmp/stage.png" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/bad.err")" -eq 1 ] && [ ! -s "$tmp/bad.out" ] &&
        [ ! -e "$tmp/stage.png" ] && return 0
    echo "  ($s/plot.py $* $src: exit $rc, $(wc -l <"$tmp/bad.err") line(s) on stderr:" \
        "$(head -c 160 "$tmp/bad.err" | tr '\n' ' '))"
    return 1
}
bad_input() { # bad_input NN_topic CASE: a folder for one bad input; prints the CSV's path
    mkdir -p "$tmp/in/$1/$2" && echo "$tmp/in/$1/$2/$1.csv"
}
cut_row() { # cut_row CSV: the file cut off half way through its last row
    head -c $(($(wc -c <"$1") - $(tail -n 1 "$1" | wc -c) / 2)) "$1"
}
for p in "$root"/plots/[0-9][0-9]_*.py; do
    s=$(basename "$p" .py)
    good=$(ls "$root"/results/*/"$s.csv" 2>/dev/null | head -n 1)
    check "$s/plot.py: a committed CSV to make its bad inputs from (results/*/$s.csv)" [ -n "$good" ]
    [ -n "$good" ] || continue
    # a field that must be a number: the rate of the stage's schema
    col=$(head -n 1 "$good" | tr ',' '\n' | grep -nxE 'gflops|gbps_in' | head -n 1 | cut -d: -f1)
    f=$(bad_input $s cut)       # cut off in the middle of its last row
    cut_row "$good" >"$f"
    check "$s/plot.py refuses a CSV cut off in its last row" refuses $s "$f"
    f=$(bad_input $s mid)       # cut off mid-row, the rest of the file lost
    head -c $(($(wc -c <"$good") / 2)) "$good" >"$f"
    check "$s/plot.py refuses a CSV cut off half way" refuses $s "$f"
    f=$(bad_input $s nul)       # NUL bytes in the middle of a row, the rest valid UTF-8
    { head -n 2 "$good"; printf 'x\000\000\001\n'; tail -n +3 "$good"; } >"$f"
    check "$s/plot.py refuses a CSV with NUL bytes" refuses $s "$f"
    f=$(bad_input $s header)
    head -n 1 "$good" >"$f"
    check "$s/plot.py refuses a header with no rows" refuses $s "$f"
    f=$(bad_input $s empty)
    : >"$f"
    check "$s/plot.py refuses an empty file" refuses $s "$f"
    f=$(bad_input $s nan)
    awk -F, -v c="$col" 'BEGIN { OFS = "," } NR == 3 { $c = "nan" } 1' "$good" >"$f"
    check "$s/plot.py refuses 'nan' as a rate" refuses $s "$f"
    f=$(bad_input $s fields)    # a row with a field too many
    awk 'NR == 3 { $0 = $0 ",extra" } 1' "$good" >"$f"
    check "$s/plot.py refuses a row with a field too many" refuses $s "$f"
    f=$(bad_input $s twice)     # two runs wrote the header at once
    { cat "$good"; head -n 2 "$good"; } >"$f"
    check "$s/plot.py refuses a second header line" refuses $s "$f"
    f=$(bad_input $s other)     # another stage's CSV: a result CSV of stage 02
    cp "$fixture/02_loop_order.csv" "$f"
    check "$s/plot.py refuses another stage's CSV (02's)" refuses $s "$f"
    f=$(bad_input $s schema)    # a stage's own schema: 13's, or 11's for 13 itself
    other=$root/results/h100/13_distributed.csv
    [ $s = 13_distributed ] && other=$root/results/xeon-2c/11_gf256.csv
    cp "$other" "$f"
    check "$s/plot.py refuses $(basename "$other") (another schema)" refuses $s "$f"
done
# the files read beside a stage's CSV: refused in the same way when damaged, or when missing where
# they are needed
sib=$tmp/in/sibling
mkdir -p "$sib/14" "$sib/13" "$sib/10/10_cuda_multigpu" "$sib/13p"
cp "$root/results/xeon-emr-2c/14_amx.csv" "$sib/14/"
cut_row "$root/results/xeon-emr-2c/14_amx_fp32.csv" >"$sib/14/14_amx_fp32.csv"
check "plots/14_amx.py refuses a cut-off 14_amx_fp32.csv beside its CSV" refuses 14_amx "$sib/14/14_amx.csv"
cp "$root/results/h100/13_distributed.csv" "$sib/13/"
awk -F, 'BEGIN { OFS = "," } NR == 3 { $7 = "nan" } 1' "$root/results/h100/13_distributed_comm.csv" \
    >"$sib/13/13_distributed_comm.csv"
check "plots/13_distributed.py refuses a 'nan' time in the 13_distributed_comm.csv beside its CSV" \
    refuses 13_distributed "$sib/13/13_distributed.csv"
cp "$root/results/h200x4/10_cuda_multigpu.csv" "$sib/10/"
cut_row "$root/results/h200x4/10_cuda_multigpu/timeline_rows_split.csv" \
    >"$sib/10/10_cuda_multigpu/timeline_rows_split.csv"
check "plots/10_cuda_multigpu.py refuses a cut-off timeline CSV, and writes no chart before" \
    refuses 10_cuda_multigpu "$sib/10/10_cuda_multigpu.csv"
cp "$root/results/h100/13_distributed.csv" "$root/results/h100/13_distributed_comm.csv" "$sib/13p/"
head -n 1 "$root/results/h100/09_cuda_registers.csv" >"$sib/13p/09_cuda_registers.csv"
"$PY" "$root/plots/13_distributed.py" --projection "$sib/13p" >"$tmp/bad.out" 2>"$tmp/bad.err"
check "plots/13_distributed.py --projection with a header alone in 09_cuda_registers.csv exits 2, one line" \
    [ $? -eq 2 -a "$(wc -l <"$tmp/bad.err")" -eq 1 -a ! -s "$tmp/bad.out" ]
# ... and 09's rates are needed by --projection alone: --table and the chart go without them
mkdir -p "$sib/13t"
cp "$root/results/h100/13_distributed.csv" "$root/results/h100/13_distributed_comm.csv" "$sib/13t/"
"$PY" "$root/plots/13_distributed.py" --table "$sib/13t/13_distributed.csv" >"$tmp/table.out" 2>"$tmp/table.err"
check "plots/13_distributed.py --table without 09_cuda_registers.csv beside it prints its tables" \
    [ $? -eq 0 -a ! -s "$tmp/table.err" -a "$(grep -c '^| summa ' "$tmp/table.out")" -gt 0 ]
f=$(bad_input 13_distributed timeline)
cut_row "$root/results/h200x4/13_distributed_timeline.csv" >"$f"
check "plots/13_distributed.py --timeline refuses a cut-off timeline CSV" \
    refuses 13_distributed "$f" --timeline
f=$(bad_input 13_distributed table)
awk -F, 'BEGIN { OFS = "," } NR == 3 { $13 = "nan" } 1' "$root/results/h100/13_distributed.csv" >"$f"
"$PY" "$root/plots/13_distributed.py" --table "$f" >"$tmp/bad.out" 2>"$tmp/bad.err"
check "plots/13_distributed.py --table refuses a 'nan' rate, one line, no table" \
    [ $? -eq 2 -a "$(wc -l <"$tmp/bad.err")" -eq 1 -a ! -s "$tmp/bad.out" ]

# A stage's chart from a CSV without what it needs would leave a panel empty: it exits 77 with
# the reason on one line and writes nothing, and `make run` keeps the generic chart instead.
stage_skips() { # stage_skips NN_topic CSV
    rm -f "$tmp/skip.png"
    "$PY" "$root/plots/$1.py" "$2" "$tmp/skip.png" >"$tmp/skip.out" 2>"$tmp/skip.err"
    [ $? -eq 77 ] && [ "$(wc -l <"$tmp/skip.err")" -eq 1 ] && [ ! -s "$tmp/skip.out" ] &&
        [ ! -e "$tmp/skip.png" ]
}
awk -F, 'NR == 1 || ($6 == 2 && $14 != "FAIL")' "$fixture/04_threads.csv" >"$tmp/04_t2.csv"
check "plots/04_threads.py without 1-thread rows exits 77, nothing written" stage_skips 04_threads "$tmp/04_t2.csv"
"$PY" "$root/plots/04_threads.py" "$fixture/04_threads.csv" "$tmp/04.png" >/dev/null 2>&1
check "plots/04_threads.py on 1 and 2 threads draws its chart" is_png "$tmp/04.png"
# Its pairs: a 1-thread row with the next row of the same variant and size, if on 2 threads; a run
# of 2 and 3 threads between two 1,2 runs adds a 2-thread row with no partner (bench.sh's run 3),
# and a 1,2 run beside OpenBLAS is not drawn where the size was timed alone (run 4).
{
    head -n 1 "$fixture/04_threads.csv"
    for tg in "1 10 " "2 20 " "2 5 " "3 6 " "1 30 " "2 60 " "1 10 OpenBLAS" "2 11 OpenBLAS"; do
        set -- $tg
        echo "04_threads,omp_tiled/64,64,64,64,$1,3,1,1,$2,$3,,1e-07,PASS,fixture-cpu,gcc,fixture,2024-05-03"
    done
} >"$tmp/04_unpaired.csv"
pairs_got=$(cd "$root/plots" && "$PY" -c '
import importlib.util, sys
spec = importlib.util.spec_from_file_location("threads04", "04_threads.py")
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
print(m.load(sys.argv[1])[0])' "$tmp/04_unpaired.csv" 2>&1)
check "plots/04_threads.py pairs each 1-thread row with its own run's 2-thread row (got $pairs_got)" \
    [ "$pairs_got" = "{('omp_tiled', 64, 64): [(10.0, 20.0), (30.0, 60.0)]}" ]
# 03's rows as the default sweep writes them: one tile, so "tiled" with no "/T" (every row of
# stage 03, the library's too: a CSV with another stage's rows is refused, exit 2)
awk -F, 'NR == 1 || $6 == 1' "$fixture/04_threads.csv" |
    sed 's/^04_threads,/03_tiling,/; s/^03_tiling,omp_rows,/03_tiling,ikj,/; s/^03_tiling,omp_tiled,/03_tiling,tiled,/' \
        >"$tmp/03_one_tile.csv"
check "plots/03_tiling.py without a tile sweep exits 77, nothing written" stage_skips 03_tiling "$tmp/03_one_tile.csv"
if [ -x "$root/11_gf256/gf256" ]; then
    "$root/11_gf256/gf256" --variant table --len 4K --reps 1 --csv "$tmp/11_one_len.csv" >/dev/null 2>&1
    check "plots/11_gf256.py with one chunk length exits 77, nothing written" stage_skips 11_gf256 "$tmp/11_one_len.csv"
fi

# The charts of a small `make run` (tests/test_run_charts.sh): its checks count as this test's.
sh "$root/tests/test_run_charts.sh" >"$tmp/run-charts.out" 2>&1
while IFS= read -r line; do
    case $line in
        PASS:*) echo "$line"; passed=$((passed + 1)) ;;
        FAIL:*) echo "$line"; failed=$((failed + 1)) ;;
    esac
done <"$tmp/run-charts.out"
grep -q '^PASS:' "$tmp/run-charts.out" || { echo "FAIL: tests/test_run_charts.sh printed no PASS"; failed=$((failed + 1)); }

# The charts the book shows: make plots from the committed results/, into a scratch folder, each
# figure judged as above (tests/chart-check: a title, units, a legend of what is drawn, ticks on
# the data, no empty panel).
PYTHONPATH="$root/tests/chart-check" CHART_CHECK_LOG="$tmp/book-charts.log" \
    make -s -C "$root" plots FIGURES="$tmp/book" PYTHON="$PY" >"$tmp/book.out" 2>&1
rc=$?
check "make plots (into a scratch folder) exits 0 (got $rc; $(tail -n1 "$tmp/book.out"))" [ $rc -eq 0 ]
nbook=$(wc -l <"$tmp/book-charts.log" 2>/dev/null || echo 0)
awk -F'\t' '$3 != "-" {sub(".*/book/", "", $1); print $1 ": " $3}' "$tmp/book-charts.log" >"$tmp/book-bad" 2>/dev/null
check "the book's $nbook charts: none with a problem$( [ -s "$tmp/book-bad" ] && printf ' (%s)' "$(paste -sd';' "$tmp/book-bad")")" \
    test "$nbook" -gt 0 -a ! -s "$tmp/book-bad"

echo "test_plot: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

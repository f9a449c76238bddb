#!/usr/bin/env bash
# make test-gpu: the CUDA stages on a machine with an NVIDIA GPU (make test only builds them).
#   1. build the CUDA stages and their exercise builds
#   2. every CUDA variant in check mode over the awkward shapes of tests/shapes.txt, with the
#      option sets of make test, once with the cuBLAS baseline, and each line of the stage's
#      test-cases.txt (grids past 65535 blocks, hand-picked tiles, the skinny preset, ...);
#      K = 0 on the command line; the edge-case suite (--edges, common/edges.h), also under
#      compute-sanitizer memcheck (negative and empty sizes must launch nothing bad)
#   3. a bad --device is refused cleanly; each untouched exercise fails its checks cleanly
#   4. compute-sanitizer --tool memcheck and --tool racecheck, every variant, small sizes
#   5. a CPU program with a GPU part (11_gf256, 13) runs its own GPU checks, tests/stages/NN_topic-gpu.sh
#   6. the GPU commands quoted in the chapters and docs run as written, at small sizes
#      (tests/check-commands.sh --gpu; with NN arguments, those in these stages' chapters)
# Ends with "N passed, N failed, N skipped". Exit status 77 when there is no GPU (or no nvcc):
# nothing was tested, and that is not a pass.
#   tests/run-tests-gpu.sh [NN ...]     only these stages (make test-gpu STAGES="07 11")
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
LOG=build/test-gpu-logs
mkdir -p "$LOG"
# shellcheck source=tests/lib.sh
. tests/lib.sh
OPTION_SETS=("" "--alpha -1.5 --beta 0.5" "--pad 5" "--beta 1 --pad 3")

stages=$(make -s list-stages | awk '$3 == "gpu"')
# A CPU program with a GPU part (11_gf256, 13) brings its own GPU checks: tests/stages/NN_topic-gpu.sh.
custom=$(for f in tests/stages/[0-9][0-9]_*-gpu.sh; do [ -f "$f" ] && basename "$f" -gpu.sh; done)
if [ $# -gt 0 ]; then
    want=" $* "
    stages=$(while read -r dir prog kind; do
        [[ $want == *" ${dir%%_*} "* ]] && echo "$dir $prog $kind"; done <<<"$stages")
    custom=$(for dir in $custom; do [[ $want == *" ${dir%%_*} "* ]] && echo "$dir"; done)
    [ -n "$stages$custom" ] || { echo "run-tests-gpu: no CUDA stage among: $*" >&2; exit 2; }
fi
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "SKIP: no nvcc: the CUDA stages cannot be built here"
    exit 77
fi

echo "== build"
# each stage on its own: one that does not build fails alone, the others are still tested
built=""
while read -r dir prog kind; do
    [ -n "$dir" ] || continue
    if make -s -j"$JOBS" "$dir/$prog" "build/grade/$dir/$prog" >"$LOG/build-$prog.log" 2>&1; then
        ok "build: $dir and its exercise"
        built="$built$dir $prog $kind"$'\n'
    else
        bad "build: $dir (see $LOG/build-$prog.log)"
        tail -n 10 "$LOG/build-$prog.log" | sed 's/^/    /'
    fi
done <<<"$stages"
stages=$built
[ -n "$stages$custom" ] || finish

# Is there a GPU? Ask the first stage (if not, it prints "no NVIDIA GPU or driver found: skipped"
# and exits 77).
read -r dir prog kind <<<"$(head -n1 <<<"$stages")"
# (Only a stage with tests/stages/NN_topic-gpu.sh: ask nvidia-smi.)
probe_rc=0
if [ -z "$stages" ]; then
    if command -v nvidia-smi >/dev/null; then
        nvidia-smi -L >"$LOG/probe.out" 2>&1 || probe_rc=77
    else
        echo "no NVIDIA GPU or driver found (no nvidia-smi): skipped" >"$LOG/probe.out"
        probe_rc=77
    fi
else
    "$dir/$prog" -m 1 --no-baseline --reps 1 >"$LOG/probe.out" 2>&1 || probe_rc=$?
fi
if [ $probe_rc -eq 77 ]; then
    cat "$LOG/probe.out"
    echo "SKIP: every GPU test (no CUDA device here)"
    exit 77
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null |
    sed 's/^/gpu: /'

SANITIZER=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)

while read -r dir prog kind; do
    [ -n "$dir" ] || continue
    bin=$dir/$prog
    echo "== $dir"
    gemm_checks "$dir" "$bin" ""
    expect_rc 0 "$dir: all variants with the cuBLAS baseline, beta 0.5, pad 2" "$prog-baseline" \
        "$bin" --variant all --reps 1 --sizes 1,7x13x5,129x131x67,256 --beta 0.5 --pad 2
    # a device that does not exist: one line on stderr, exit 2, nothing on stdout
    "$bin" --device 99 -m 8 >"$LOG/$prog-baddev.out" 2>"$LOG/$prog-baddev.err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$LOG/$prog-baddev.err")" -eq 1 ] && [ ! -s "$LOG/$prog-baddev.out" ]; then
        ok "$dir: --device 99 -> exit 2: $(cat "$LOG/$prog-baddev.err")"
    else
        bad "$dir: --device 99 -> exit $rc (want 2, one line on stderr)"
    fi
    # compute-sanitizer: out-of-bounds and misaligned accesses (memcheck), shared-memory
    # races (racecheck). Every variant, small shapes, padding, beta != 0 and beta == 0.
    if [ -z "$SANITIZER" ]; then
        bad "$dir: compute-sanitizer not found"
        continue
    fi
    for tool in memcheck racecheck; do
        for opts in "--pad 3 --beta 0.5" ""; do
            # shellcheck disable=SC2086
            sanitize "$tool" "$dir: compute-sanitizer $tool ${opts:-(defaults)}" \
                "$prog-$tool$([ -n "$opts" ] && echo -beta)" \
                "$bin" --variant all --no-baseline --reps 1 --sizes "$SMALL_SHAPES" $opts
        done
    done
    sanitize memcheck "$dir: compute-sanitizer memcheck --edges" "$prog-memcheck-edges" \
        "$bin" --edges --no-baseline
    # the stage's own sanitizer cases (the "sanitizer:" lines of its test-cases.txt)
    if [ -f "$dir/test-cases.txt" ]; then
        n=0
        while IFS= read -r args; do
            for tool in memcheck racecheck; do
                n=$((n + 1))
                # shellcheck disable=SC2086
                sanitize "$tool" "$dir: compute-sanitizer $tool $args" "$prog-san$n" "$bin" $args
            done
        done < <(case_lines "$dir" sanitizer)
    fi
done <<<"$stages"

echo "== an older GPU's path (GEMM_CUDA_CC makes the harness see less than the GPU has)"
# gated CC STAGE-BIN VARIANT [none-else]: on a GPU of compute capability CC, --list marks VARIANT
# not available, naming it exits 77 with one line, and --variant all runs the others and names it
# in one line ("wgmma_tma        not on this GPU: needs compute capability 9.0 ..."); none-else: the
# stage has no other variant for such a GPU, so --variant all exits 77 with one line naming it
gated() {
    local cc=$1 bin=$2 v=$3 name
    name="$(basename "$bin")-cc$cc-$v"
    [ -x "$bin" ] || { skp "$bin: not built"; return; }
    GEMM_CUDA_CC=$cc "$bin" --list >"$LOG/$name.list" 2>&1
    GEMM_CUDA_CC=$cc "$bin" --variant "$v" -m 64 --reps 1 >"$LOG/$name.out" 2>"$LOG/$name.err"
    local rc=$?
    GEMM_CUDA_CC=$cc "$bin" --variant all --no-baseline --sizes 7x13x5,64 --reps 1 >"$LOG/$name.all" 2>&1
    local rc_all=$?
    local all_ok=0
    if [ $rc_all -eq 0 ]; then
        ! grep -qE "^$v .* (PASS|FAIL)" "$LOG/$name.all" && grep -q "^$v  *not on this GPU: needs " "$LOG/$name.all" &&
            all_ok=1
    elif [ "${4:-}" = none-else ] && [ $rc_all -eq 77 ] && [ "$(grep -c . "$LOG/$name.all")" -eq 1 ] &&
            grep -qE "[ ,]$v needs .*which this machine lacks: skipped" "$LOG/$name.all"; then
        all_ok=2
    fi
    if grep -qE "^$v .*\[not here: this machine lacks compute capability" "$LOG/$name.list" &&
       [ $rc -eq 77 ] && [ "$(wc -l <"$LOG/$name.err")" -eq 1 ] && [ $all_ok -gt 0 ]; then
        ok "as compute capability $cc: $v marked, skipped with 77 ($(cat "$LOG/$name.err")), $(
            [ $all_ok = 1 ] && echo "the rest pass" || echo "--variant all: nothing else here, 77")"
    else
        bad "as compute capability $cc: $v: --list, exit $rc (want 77), --variant all exit $rc_all ($LOG/$name.*)"
    fi
}
# only the stages this run covers (make test-gpu STAGES=12 leaves 09 out, not skipped)
chosen() { grep -q "^$1 " <<<"$stages"; }
if chosen 09_cuda_registers; then gated 75 09_cuda_registers/cuda_registers async_pipeline; fi
if chosen 12_cuda_tensor_cores; then
    gated 75 12_cuda_tensor_cores/cuda_tensor_cores wmma none-else # (every BF16 variant needs 8.0)
    gated 86 12_cuda_tensor_cores/cuda_tensor_cores wgmma_persistent
fi

for dir in $custom; do
    echo "== $dir (its own GPU tests: tests/stages/$dir-gpu.sh)"
    run_checker "$dir" "tests/stages/$dir-gpu.sh" "$LOG/${dir%%_*}-custom-gpu.out"
done

echo "== commands quoted in the book (tests/check-commands.sh --gpu)"
make -s build/peak_gpu >"$LOG/build-peak_gpu.log" 2>&1 || true   # chapter 07 quotes it
docs=()
if [ $# -gt 0 ]; then
    while read -r dir prog kind; do [ -n "$dir" ] && docs+=("$dir/README.md"); done <<<"$stages"
    for dir in $custom; do docs+=("$dir/README.md"); done
fi
bash tests/check-commands.sh --gpu ${docs[@]+"${docs[@]}"} >"$LOG/commands.out" 2>&1
rc=$?
tally commands "$LOG/commands.out"
grep -q '^FAIL:' "$LOG/commands.out" || [ $rc -eq 0 ] || bad "commands: tests/check-commands.sh exit $rc (see $LOG/commands.out)"

finish

#!/usr/bin/env bash
# The first GPU run of the FP32 variants (--fp32: tf32, 3xtf32, cublas_tf32, cublas_fp32), in
# about 5 minutes on one H100:   lab/12_cuda_tensor_cores/bench-fp32.sh [OUT_DIR]   (default results/local)
# Outside a git checkout pass the commit: GIT_REV=abc1234 lab/12_cuda_tensor_cores/bench-fp32.sh OUT
#   OUT_DIR/12_runs/tf32_tests.log      the --fp32 lines of test-cases.txt (checks must PASS), and
#                                       compute-sanitizer memcheck and racecheck on the --fp32
#                                       "sanitizer:" lines there (make test-gpu's subset)
#   OUT_DIR/12_runs/tf32_probe.txt      --fp32 --probe: how the TF32 instructions add (NOTES.md's
#                                       emulation assumed blocks of 8, 2 extra bits, truncation)
#   OUT_DIR/12_runs/tf32_accuracy.csv   every variant against the FP32 bound (--bound fp32: tf32
#                                       fails by design), 256 x 256 x K, K = 1 .. 16384, every
#                                       element checked; 09's warptile beside it (its c is 2)
#   OUT_DIR/12_runs/tf32_time.csv       timings at 4096 and 8192, three rounds, each variant
#                                       alternated with cuBLAS FP32 (TF32 off); cublas_tf32 a row
# A summary of the ratios is printed at the end. Exit status 1 if a check or sanitizer failed,
# 77 (one line, nothing run) without a GPU.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.." || exit 1
out=${1:-results/local}
mkdir -p "$out/12_runs"
make -s -j"$(nproc)" stage12 stage09 ${GIT_REV:+GIT_REV=$GIT_REV} || exit 1
bin=12_cuda_tensor_cores/cuda_tensor_cores
log=$out/12_runs/tf32_tests.log
acc=$out/12_runs/tf32_accuracy.csv
csv=$out/12_runs/tf32_time.csv

# No GPU: the program says so in one line and exits 77 ("skipped"); so does this script.
skip=$($bin --fp32 --sizes 16 --reps 1 --no-baseline 2>&1)
[ $? -eq 77 ] && { echo "$skip" | tail -n 1; exit 77; }
rm -f "$log" "$acc" "$out/12_runs/tf32_accuracy_warptile.csv" "$csv"
fails=0

# 1. checks and sanitizers
while IFS= read -r args; do
    echo "== $bin $args" >>"$log"
    # shellcheck disable=SC2086
    timeout 300 $bin $args >>"$log" 2>&1 || { echo "FAIL: $args" | tee -a "$log"; fails=$((fails + 1)); }
done < <(grep '^--fp32' 12_cuda_tensor_cores/test-cases.txt)
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
while IFS= read -r args; do
    for tool in memcheck racecheck; do
        echo "== compute-sanitizer --tool $tool $bin $args" >>"$log"
        # shellcheck disable=SC2086
        timeout 300 "$san" --tool "$tool" --error-exitcode 1 $bin $args >>"$log" 2>&1 ||
            { echo "FAIL: $tool $args" | tee -a "$log"; fails=$((fails + 1)); }
    done
done < <(sed -n "s/^sanitizer: *\(--fp32\)/\1/p" 12_cuda_tensor_cores/test-cases.txt)
echo "checks and sanitizers: $fails failed (log: $log)"

# 2. how the tensor cores add TF32 products
$bin --fp32 --probe >"$out/12_runs/tf32_probe.txt" 2>&1

# 3. accuracy over K against the FP32 bound (c = 2)
sizes=$(for k in 1 2 3 4 7 8 16 32 64 128 256 512 1000 1024 2048 4096 8192 16384; do
    printf '256x256x%s,' "$k"; done)
sizes=${sizes%,}
$bin --fp32 --bound fp32 --variant all --no-baseline --reps 1 --sizes "$sizes" --csv "$acc" \
    >"$out/12_runs/tf32_accuracy.txt" 2>&1
09_cuda_registers/cuda_registers --variant warptile --no-baseline --reps 1 --sizes "$sizes" \
    --csv "$out/12_runs/tf32_accuracy_warptile.csv" >>"$out/12_runs/tf32_accuracy.txt" 2>&1

# 4. timings: three rounds at 4096 and 8192, each row alternated with cuBLAS FP32 (pedantic)
for round in 1 2 3; do
    $bin --fp32 --variant all --sizes 4096,8192 --csv "$csv" >"$out/12_runs/tf32_time_$round.txt" 2>&1 ||
        { echo "FAIL: timing round $round (a check failed)"; fails=$((fails + 1)); }
done

# Summary: the largest ratio to the FP32 bound per variant and K; median GFLOP/s per size
echo "largest |error| / FP32 bound (c = 2), 256 x 256 x K:"
cat "$acc" "$out/12_runs/tf32_accuracy_warptile.csv" 2>/dev/null | awk -F, '
    $1 == "stage" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "  %-12s K = %5d  %10.4g  %s\n", $col["variant"], $col["k"], $col["max_err_ratio"], $col["check"] }'
echo "GFLOP/s (three rounds; cuBLAS FP32 pedantic beside each row):"
awk -F, '$1 == "stage" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "  %-12s %5d  %9.0f   vs cuBLAS FP32 %9.0f  %5.2fx\n", $col["variant"], $col["m"],
      $col["gflops"], $col["baseline_gflops"], $col["gflops"] / $col["baseline_gflops"] }' "$csv"
echo "tf32 / cublas_tf32 and 3xtf32 / cublas_fp32 at each size: from the rows above (same round)"
[ "$fails" -eq 0 ]

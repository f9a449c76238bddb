#!/usr/bin/env bash
# The tuning sweep: every configuration of tune.cu (warptile and async_pipeline over block,
# warp and thread tiles and stage counts) at each size, with cuBLAS, into a CSV; then the best.
#   lab/09_cuda_registers/tune.sh [CSV] [SIZES]     (defaults: results/local/09_cuda_registers_tune.csv, 2048,4096)
# The reference results were made with:
#   lab/09_cuda_registers/tune.sh results/h100/09_tune/09_cuda_registers_tune.csv 2048,4096,4097,8192
set -eu
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
csv=${1:-results/local/09_cuda_registers_tune.csv}
sizes=${2:-2048,4096}
mkdir -p "$(dirname "$csv")"
make -s stage09
lock=$(command -v flock >/dev/null && echo scripts/bench-lock)
rm -f "$csv"
$lock 09_cuda_registers/cuda_registers --tune --sizes "$sizes" --csv "$csv"
echo
echo "best configurations (GFLOP/s, share of cuBLAS timed alongside):"
awk -F, 'NR > 1 && $2 != "cublas" && $14 == "PASS" {
             key = $3; if ($10 > best[key]) { best[key] = $10; name[key] = $2; base[key] = $12 }
             all[key] = all[key] sprintf("%s %.0f\n", $2, $10) }
         END { for (k in best) printf "  %5d: %-44s %9.0f GFLOP/s  %5.1f%% of cuBLAS (%.0f)\n",
                                      k, name[k], best[k], 100 * best[k] / base[k], base[k] }' "$csv" | sort -n

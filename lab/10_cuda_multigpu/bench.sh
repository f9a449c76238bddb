#!/usr/bin/env bash
# lab/10_cuda_multigpu/bench.sh OUTDIR [PHASE ...]: the runs the chapter cites, on every GPU present.
#   xt     cuBLASXt's block size: 2048, 4096, 8192, 16384 at n = 32768 on all GPUs; the best
#          is used by the later phases (OUTDIR/10_cuda_multigpu/xt_block.txt)
#   tile   tiled_streams' tile and k slice at n = 32768 on all GPUs (no baseline)
#   main   n = 32768 and 65536, every variant and cuBLASXt, on 1, 2, (4) GPUs: the scaling
#   odd    n = 50021 against its neighbour 49152, all GPUs
#   big    n = 131072 on all GPUs, tiled_streams only, checked: 192 GiB of matrices (needs
#          about 200 GiB of host memory; with less, the largest multiple of 8192 that fits)
#   ooc    out of core on purpose: n = 65536 with --device-mem 16G and 8G per GPU, so that the
#          blocks of A and B do not fit in all GPUs together and are fetched again
#   timeline  one traced call of rows_split and one of tiled_streams at n = 32768
# Default: every phase, in that order. CSVs: OUTDIR/10_cuda_multigpu.csv (the harness's rows),
# OUTDIR/10_cuda_multigpu/*.csv (stats, sweeps, timelines).
set -euo pipefail
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
out=${1:?usage: lab/10_cuda_multigpu/bench.sh OUTDIR [xt|tile|main|odd|big|ooc|timeline ...]}
shift
phases=${*:-xt tile main odd big ooc timeline}
bin=10_cuda_multigpu/cuda_multigpu
make -s stage10
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [ "$ngpu" -eq 0 ]; then echo "no NVIDIA GPU or driver found: skipped"; exit 77; fi
gpus=1; for g in 2 4 8; do [ "$g" -le "$ngpu" ] && gpus="$gpus,$g"; done
d=$out/10_cuda_multigpu
mkdir -p "$d"
csv=$out/10_cuda_multigpu.csv stats=$d/stats.csv
xtfile=$d/xt_block.txt
xt() { [ -f "$xtfile" ] && cat "$xtfile" || echo 8192; }
run() { echo "+ $bin $*" >&2; "$bin" "$@"; }

for phase in $phases; do
    echo "== $phase ($(date -u +%H:%M:%S))"
    case $phase in
    xt)
        for xb in 2048 4096 8192 16384; do
            run --variant tiled_streams --sizes 32768 --gpus "$ngpu" --xt-block "$xb" --reps 2 \
                --csv "$d/xt_block_$xb.csv"
        done
        # the baseline's own row (variant cublasxt) of each run; best median wins
        best=$(for xb in 2048 4096 8192 16384; do
                   awk -F, -v xb="$xb" '$2 == "cublasxt" { print $10, xb }' "$d/xt_block_$xb.csv"
               done | sort -gr | head -n1 | awk '{print $2}')
        echo "$best" >"$xtfile"
        echo "cuBLASXt block size: $best"
        ;;
    tile)
        for t in 4096 8192 16384; do
            for kb in 2048 4096 8192; do
                run --variant tiled_streams --sizes 32768 --gpus "$ngpu" --tile "$t" --kblock "$kb" \
                    --no-baseline --reps 2 --no-check --csv "$d/tile_sweep.csv" --stats "$d/tile_sweep_stats.csv"
            done
        done
        ;;
    main)
        run --sizes 32768 --gpus "$gpus" --xt-block "$(xt)" --reps 3 --csv "$csv" --stats "$stats"
        run --sizes 65536 --gpus "$gpus" --xt-block "$(xt)" --reps 1 --csv "$csv" --stats "$stats"
        ;;
    odd)
        run --sizes 49152,50021 --gpus "$ngpu" --xt-block "$(xt)" --reps 2 --csv "$csv" --stats "$stats"
        ;;
    big)
        avail=$(awk '/MemAvailable/ {print int($2 / 1048576)}' /proc/meminfo) # GiB
        n=131072
        while [ $((3 * n / 1024 * n / 1024 * 4 / 1024 + 8)) -gt "$avail" ]; do n=$((n - 8192)); done
        echo "host memory available: $avail GiB; n = $n ($((3 * n / 1024 * n / 1024 * 4 / 1024)) GiB of matrices)"
        run --variant tiled_streams --sizes "$n" --gpus "$ngpu" --no-baseline --csv "$csv" --stats "$stats"
        ;;
    ooc)
        for mem in 16G 8G; do
            run --variant tiled_streams --sizes 65536 --gpus "$ngpu" --device-mem "$mem" --no-baseline \
                --reps 1 --csv "$d/ooc.csv" --stats "$d/ooc_stats.csv"
        done
        ;;
    timeline)
        for v in rows_split tiled_streams; do
            run --variant "$v" --sizes 32768 --gpus "$ngpu" --no-baseline --reps 1 --no-check \
                --timeline "$d/timeline_$v.csv"
        done
        ;;
    *) echo "bench.sh: unknown phase '$phase'" >&2; exit 2 ;;
    esac
done

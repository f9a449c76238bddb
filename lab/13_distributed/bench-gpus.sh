#!/usr/bin/env bash
# lab/13_distributed/bench-gpus.sh OUTDIR: the chapter's runs on one host of several GPUs (2 or 4, one
# MPI rank a GPU), most important first, each step skipped with a line if the budget (BUDGET
# seconds from the start, default 1200; about 1150 s on 4 H200) would not hold it:
#
#   sanity   2 x 2 (or 1 x 2): summa_nccl, summa_nccl_cublas on the awkward small shapes, with
#            and without --first-split; --edge. A failure stops the script.
#   comm     --bench-comm on 2 GPUs (1 x 2) and on 4 (2 x 2): NCCL's broadcasts from 8 B to
#            512 MiB, the model's alpha and beta for the links between the GPUs
#   alone    one GPU: warptile_alone and cublas_alone on the whole product, n = 16384, 32768,
#            65536: the strong-scaling yardstick
#   each     warptile_alone on every GPU at once, one process each (unchecked): what the GPUs
#            do together with nothing to send, and the slowest of them
#   grids    summa_nccl, summa_nccl_cublas and local_only_gpu (the products with no broadcast)
#            at n = 32768 and 65536 on 2 x 2, 1 x 2, 1 x 4, 2 x 1, 4 x 1; nb 4096; the 2 x 2
#            run traced (--timeline: every rank's broadcasts and products)
#   small    the same at n = 16384
#   split    summa_nccl and local_only_gpu, 2 x 2 at 65536 and 1 x 2 at 32768: the first block in
#            4 panels (--first-split 4; the 2 x 2 run traced), and nb 8192
#   wide     summa_nccl and local_only_gpu at nb 8192 on the grids of two GPUs (1 x 2, 2 x 1), n =
#            N2 and N3: half the panels, so half the passes over C (only when ONLY names it)
#   ctas     summa_nccl on 1 x 2 at n = 32768 with its broadcasts held to 2 and 8 blocks
#            (--bcast-ctas), traced: what the broadcasts' SMs cost the products (last: under the
#            default budget it is usually skipped; ONLY=ctas runs it alone)
#
# ONLY="comm alone ..." runs those steps alone, in the order above; GRIDS="2x1" the grids and
# small steps on those grids alone. Every GPU's SM clock, power and temperature are read every
# 200 ms while the script runs (OUTDIR/clocks.csv), so that a step's speed can be set beside the
# clock it ran at.
#
# Writes OUTDIR/13_distributed.csv, 13_distributed_comm.csv, 13_distributed_timeline.csv,
# alone_gpuD.csv (the step each), clocks.csv, machine.txt and bench-gpus.log. N1 N2 N3 (default 16384,
# 32768, 65536) change the sizes, for a dry run; GIT_REV names the commit in the CSVs. Where the
# host has no ScaLAPACK, the bundled one (find-scalapack.sh: .scalapack-bundle/, as bench-host.sh).
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
out=${1:?usage: lab/13_distributed/bench-gpus.sh OUTDIR}
. lab/scripts/check-steps.sh
# shellcheck disable=SC2086  # ONLY is a list of words
check_steps lab/13_distributed/bench-gpus.sh ONLY "sanity comm alone each grids small split wide ctas" ${ONLY:-}
for g in ${GRIDS:-}; do
    [[ $g =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || { echo "bench-gpus.sh: GRIDS: '$g' is not PRxPC" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
exec > >(tee -a "$out/bench-gpus.log") 2>&1
T0=$SECONDS BUDGET=${BUDGET:-1200}
BIN=13_distributed/distributed
N1=${N1:-16384} N2=${N2:-32768} N3=${N3:-65536}
CSV=$out/13_distributed.csv COMM=$out/13_distributed_comm.csv TL=$out/13_distributed_timeline.csv
export NCCL_NVLS_ENABLE=0 # NVLink multicast off, in every process started here
echo "== lab/13_distributed/bench-gpus.sh, $(date -u +%FT%TZ)"

. scripts/find-scalapack.sh # (PSGEMM is linked in, not run: the GPU rows have no baseline)
rev=${GIT_REV:-$(git describe --always --dirty 2>/dev/null || echo unknown)}
echo "== build (git $rev)"
rm -f $BIN # linked again, against this ScaLAPACK (make does not track LDLIBS)
make -s -j"$(nproc)" stage13 GIT_REV="$rev" ${scal:+DIST_SCALAPACK_DIR=$scal} || { echo "build failed"; exit 1; }
$BIN --list | grep -q '^summa_nccl ' || { echo "summa_nccl is not built in, or no GPU"; exit 1; }
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$ngpu" -ge 2 ] || { echo "this host has $ngpu GPU(s); the script wants 2 or more"; exit 1; }
{
    echo "== $(date -u +%FT%TZ), git $rev"
    nvidia-smi; echo; nvidia-smi topo -m; echo
    nvidia-smi --query-gpu=index,name,pci.bus_id,clocks.max.sm,clocks.max.mem,power.limit --format=csv
    echo; lscpu; echo; free -g; echo
    mpirun --version | head -n1; nvcc --version | tail -n2; echo; ldd $BIN
} >"$out/machine.txt" 2>&1
echo "gpus: $ngpu x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)"

q=timestamp,index,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$q --format=csv,noheader -i 0 >/dev/null 2>&1 || q=${q/clocks_event/clocks_throttle}
echo "$q" >"$out/clocks.csv"
nvidia-smi --query-gpu=$q --format=csv,noheader,nounits -lms 200 >>"$out/clocks.csv" 2>/dev/null &
clocks=$!
trap 'kill $clocks 2>/dev/null' EXIT
want() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

MPI=(mpirun --allow-run-as-root -q --bind-to none -x NCCL_NVLS_ENABLE)
four=$([ "$ngpu" -ge 4 ] && echo 4 || echo 2)
sq=$([ "$four" = 4 ] && echo 2x2 || echo 1x2)

. lab/13_distributed/steps.sh # left, step
np_of() { echo $((${1%x*} * ${1#*x})); }
V="--variant summa_nccl,summa_nccl_cublas,local_only_gpu --no-baseline"

SMALL="1,7x13x5,33,1x97x13,97x1x13,13x97x1,67x73x71,1000,3001x2999x1501"
S="--variant summa_nccl,summa_nccl_cublas --no-baseline --reps 1 --sizes $SMALL --beta 0.5 --pad 3"
if want sanity; then
    step "sanity: $sq, nb 64" 30 "${MPI[@]}" -np $four $BIN $S --grid $sq --nb 64 || exit 1
    step "sanity: $sq, nb 64, --first-split 3" 30 "${MPI[@]}" -np $four $BIN $S --grid $sq --nb 64 --first-split 3 || exit 1
    step "sanity: $sq, --edge" 30 "${MPI[@]}" -np $four $BIN --edge --variant summa_nccl,summa_nccl_cublas \
        --no-baseline --sizes 7x13x5,33 --nb 4 --grid $sq || exit 1
fi

if want comm; then
    step "comm: 2 GPUs, 1x2" 60 "${MPI[@]}" -np 2 $BIN --bench-comm --grid 1x2 --csv "$COMM"
    [ "$four" = 4 ] && step "comm: 4 GPUs, 2x2" 60 "${MPI[@]}" -np 4 $BIN --bench-comm --grid 2x2 --csv "$COMM"
fi

if want alone; then
    step "alone: one GPU, n = $N1, $N2" 40 "${MPI[@]}" -np 1 $BIN --variant warptile_alone,cublas_alone \
        --no-baseline --nb 4096 --sizes $N1,$N2 --reps 3 --samples --csv "$CSV"
    step "alone: one GPU, n = $N3" 150 "${MPI[@]}" -np 1 $BIN --variant warptile_alone,cublas_alone \
        --no-baseline --nb 4096 --sizes $N3 --reps 2 --samples --csv "$CSV"
fi

each() {
    local pids=() d
    for d in $(seq 0 $((ngpu - 1))); do
        "${MPI[@]}" -np 1 $BIN --variant warptile_alone --no-baseline --no-check --device "$d" \
            --sizes $N2,$N3 --reps 2 --samples --csv "$out/alone_gpu$d.csv" >"$out/alone_gpu$d.txt" 2>&1 &
        pids+=($!)
    done
    local rc=0
    for d in "${pids[@]}"; do wait "$d" || rc=1; done
    tail -n 6 "$out"/alone_gpu*.txt
    return $rc
}
want each && step "each: warptile_alone on all $ngpu GPUs at once, n = $N2, $N3" 90 each

[ "$four" = 4 ] && grids="2x2 1x2 1x4 2x1 4x1" || grids="1x2 2x1"
grids=${GRIDS:-$grids}
if want grids; then
    for g in $grids; do
        np=$(np_of "$g")
        reps3=$([ "$np" = 2 ] && echo 1 || echo 2)
        tl=$([ "$g" = "$sq" ] && echo "--timeline $TL")
        step "grids: $g, n = $N2" 40 "${MPI[@]}" -np "$np" $BIN $V --nb 4096 --grid "$g" --sizes $N2 --reps 3 \
            --samples $tl --csv "$CSV"
        step "grids: $g, n = $N3" $((np == 2 ? 110 : 75)) "${MPI[@]}" -np "$np" $BIN $V --nb 4096 --grid "$g" \
            --sizes $N3 --reps "$reps3" --samples $tl --csv "$CSV"
    done
fi
if want small; then
    for g in $grids; do
        step "small: $g, n = $N1" 20 "${MPI[@]}" -np "$(np_of "$g")" $BIN $V --nb 4096 --grid "$g" --sizes $N1 \
            --reps 3 --samples --csv "$CSV"
    done
fi
W="--variant summa_nccl,local_only_gpu --no-baseline --samples --csv $CSV"
if want split; then
    step "split: $sq, n = $N3, first block in 4" 75 "${MPI[@]}" -np $four $BIN $W --nb 4096 --grid $sq --sizes $N3 \
        --reps 2 --first-split 4 --timeline "$TL"
    step "split: 1x2, n = $N2, nb 8192" 40 "${MPI[@]}" -np 2 $BIN $W --nb 8192 --grid 1x2 --sizes $N2 --reps 3
    step "split: 1x2, n = $N2, first block in 4" 40 "${MPI[@]}" -np 2 $BIN $W --nb 4096 --grid 1x2 --sizes $N2 \
        --reps 3 --first-split 4
    step "split: $sq, n = $N3, nb 8192" 75 "${MPI[@]}" -np $four $BIN $W --nb 8192 --grid $sq --sizes $N3 --reps 2
fi
if want wide && [ -n "${ONLY:-}" ]; then
    for g in ${GRIDS:-1x2 2x1}; do
        if [ "$(np_of "$g")" != 2 ]; then echo "== wide: $g is not a grid of two GPUs: skipped"; continue; fi
        step "wide: $g, n = $N2, nb 8192" 40 "${MPI[@]}" -np 2 $BIN $W --nb 8192 --grid "$g" --sizes $N2 --reps 3
        step "wide: $g, n = $N3, nb 8192" 90 "${MPI[@]}" -np 2 $BIN $W --nb 8192 --grid "$g" --sizes $N3 --reps 1
    done
fi
if want ctas; then
    for c in 2 8; do
        step "ctas: 1x2, n = $N2, broadcasts on at most $c blocks" 25 "${MPI[@]}" -np 2 $BIN --variant summa_nccl \
            --no-baseline --samples --csv "$CSV" --nb 4096 --grid 1x2 --sizes $N2 --reps 3 --bcast-ctas $c \
            --timeline "$TL"
    done
fi
echo "== done in $((SECONDS - T0)) s: $(rows "$CSV") GEMM rows, $(rows "$COMM") comm rows, $(rows "$TL") timeline rows in $out"

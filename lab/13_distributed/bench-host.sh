#!/usr/bin/env bash
# lab/13_distributed/bench-host.sh OUTDIR: the chapter's measurements, on a host of 16 cores and one
# GPU (such as the host of one H100: root, no network), in under 8 minutes. The steps, most
# important first (each one's seconds on the first host run in brackets, where it ran):
#
#   comm     --bench-comm: ping-pong and broadcasts on 16 ranks (grid 4x4) and on 4 ranks (2x2),
#            NCCL on the GPU (one rank [3 s]): the cost model's alpha and beta
#   local    one rank's local product alone (local_only on a 1x1 grid): the shapes a rank of the
#            4x4 grid (1 thread) and of the 2x2 grid (4 threads) multiplies, n = 8192 [4+3 s]
#   main     n = 8192: summa, summa_overlap and local_only on 16 ranks x 1 thread (4x4) and on
#            4 ranks x 4 threads (2x2), the first two alternated with ScaLAPACK's PSGEMM on the
#            same grid [50, 53 s with 5 samples; 3 now]
#   gpu      summa_nccl on one GPU against its kernel alone (warptile_alone), the same with
#            cuBLAS, and summa_nccl+pack (every panel through NCCL), n = 8192 and 16384 [26+15 s
#            with 10 samples; 5 now]
#   local    the same as above at n = 16384 [12+13 s]
#   contend  local_only on 16 ranks with blocks that stay in each core's L2 (n = 1024, k = 8 N1),
#            and one rank alone on the same block: the all-core clock apart from memory
#   main     the same as above at n = 16384, one sample each (the checked run) [4x4 with two
#            samples: 146 s]
#   slices   n = 8192, summa beside summa_overlap cut into 1 slice (--slices 1), 4x4 and 2x2
#   shape    n = 8192 on 16 ranks, summa and summa_overlap: the grids 2x8 and 1x16, and the panel
#            widths nb 128 and 1024 on 4x4
# A step that would not end inside the budget (BUDGET seconds from the start, default 450) is
# skipped, and says so; each says how long it took. Writes OUTDIR/13_distributed.csv (the GEMM
# rows), 13_distributed_comm.csv, machine.txt and bench-host.log.
#
#   lab/13_distributed/bench-host.sh --rest OUTDIR       what the first host run left out, in under
#       300 s (BUDGET default 290): comm on 4 and 16 ranks; summa_overlap and local_only at
#       n = 16384 on 2x2 x 4 threads, local_only at 16384 on 4x4; contend; slices; shape; and
#       summa_overlap in 2 slices on 2x2. Same files, the log in bench-host-rest.log.
#   lab/13_distributed/bench-host.sh --test-gpu OUTDIR   the same set-up, then make test-gpu STAGES=13
#                                                    (its log: OUTDIR/test-gpu-13.txt)
#
# ScaLAPACK: the system's if it links, else the bundled one, Debian's libscalapack-openmpi.so.2.2
# from the folder SCALAPACK_BUNDLE_DIR (default .scalapack-bundle, in the repository root), with
# fallbacks for the libraries it needs (its fallback/: libblas.so.3, liblapack.so.3,
# libgfortran.so.5, libquadmath.so.0) used only where this machine lacks them. The commit in the CSV: GIT_REV, else git describe.
# N1, N2 (default 8192, 16384) change the two sizes, for a dry run on a small machine;
# SCALAPACK=bundled takes the bundled ScaLAPACK even where the system has one.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
mode=bench
case ${1:-} in --test-gpu) mode=test-gpu; shift ;; --rest) mode=rest; shift ;; esac
out=${1:?usage: lab/13_distributed/bench-host.sh [--rest | --test-gpu] OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $mode in
    bench) log=$out/bench-host.log ;;
    rest) log=$out/bench-host-rest.log ;;
    *) log=$out/test-gpu-13.txt ;;
esac
exec > >(tee -a "$log") 2>&1
T0=$SECONDS BUDGET=${BUDGET:-$([ $mode = rest ] && echo 290 || echo 450)}
BIN=13_distributed/distributed
N1=${N1:-8192} N2=${N2:-16384}
CSV=$out/13_distributed.csv COMM=$out/13_distributed_comm.csv
export NCCL_NVLS_ENABLE=0 # NVLink multicast off, in every process started here
# idle threads sleep: OpenMP's and OpenBLAS's pools alternate on the same cores (05's bench.sh)
export OMP_WAIT_POLICY=passive OPENBLAS_THREAD_TIMEOUT=4
echo "== lab/13_distributed/bench-host.sh $mode, $(date -u +%FT%TZ)"

# ---- ScaLAPACK: the system's, or the bundled one (sets scal: the folder, or empty)
. scripts/find-scalapack.sh

# ---- build
rev=${GIT_REV:-$(git describe --always --dirty 2>/dev/null || echo unknown)}
echo "== build (git $rev)"
rm -f $BIN # linked again, against this ScaLAPACK (make does not track LDLIBS)
if ! make -s -j"$(nproc)" stage13 GIT_REV="$rev" ${scal:+DIST_SCALAPACK_DIR=$scal}; then
    echo "build failed"; exit 1
fi
$BIN --list | grep -q '^summa_nccl ' || echo "note: summa_nccl is not built in or there is no GPU: $($BIN --variant summa_nccl -m 8 2>&1 | tail -n1)"

if [ $mode = test-gpu ]; then
    make test-gpu STAGES=13
    exit $?
fi

# ---- the machine
{
    echo "== $(date -u +%FT%TZ), git $rev"
    lscpu; echo; free -g; echo; nvidia-smi 2>&1 | head -n 20; echo
    mpirun --version | head -n1; gcc --version | head -n1; nvcc --version 2>/dev/null | tail -n2
    echo; ldd $BIN
} >"$out/machine.txt" 2>&1
cores=$(nproc)
tpc=$(lscpu | awk -F: '/^Thread\(s\) per core/ { gsub(/ /, "", $2); print $2 }')
echo "cores: $cores online, ${tpc:-1} thread(s) per core; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"

# ---- mpirun: 16 ranks of 1 core, 4 ranks of 4 cores, each bound to its cores
MPI=(mpirun --allow-run-as-root -q -x NCCL_NVLS_ENABLE -x OMP_WAIT_POLICY -x OPENBLAS_THREAD_TIMEOUT)
unit=core
if [ "${tpc:-1}" -gt 1 ]; then MPI+=(--use-hwthread-cpus); unit=hwthread; fi
bind=$unit
if [ "$cores" -lt 16 ]; then
    MPI+=(--oversubscribe)
    bind=none
    echo "note: fewer than 16 cores: oversubscribed, not bound (a dry run, not a measurement)"
fi
# A first run that must work. If it does not: Open MPI's shared-memory single copy (CMA) may be
# refused here, then the copy through the shared segment; failing that, TCP on loopback.
sanity() { "${MPI[@]}" -np 2 --bind-to none $BIN --variant summa --threads 1 --reps 1 -m 64 >>"$out/sanity.txt" 2>&1; }
if ! sanity; then
    MPI+=(--mca btl_vader_single_copy_mechanism none)
    echo "note: MPI failed with its defaults (sanity.txt); trying btl_vader_single_copy_mechanism none"
    if ! sanity; then
        MPI+=(--mca btl self,tcp)
        echo "note: and again; trying --mca btl self,tcp"
        sanity || { echo "MPI does not run (sanity.txt)"; exit 1; }
    fi
fi
R16=("${MPI[@]}" -np 16 --map-by "$unit" --bind-to "$bind")
R4=("${MPI[@]}" -np 4 --map-by "$([ $bind = none ] && echo slot || echo slot:PE=4)" --bind-to "$bind")
R1=("${MPI[@]}" -np 1 --map-by "$unit" --bind-to "$bind")
R1x4=("${MPI[@]}" -np 1 --map-by "$([ $bind = none ] && echo slot || echo slot:PE=4)" --bind-to "$bind")

. lab/13_distributed/steps.sh # left, step

comm16() { step "comm: 16 ranks, 4x4" 20 "${R16[@]}" $BIN --bench-comm --grid 4x4 --threads 1 --csv "$COMM"; }
comm4() { step "comm: 4 ranks, 2x2" 15 "${R4[@]}" $BIN --bench-comm --grid 2x2 --threads 4 --csv "$COMM"; }
# alone N: one rank on the local product of a rank of the 4x4 (1 thread) and 2x2 (4 threads) grids
alone() {
    local n=$1 reps need
    reps=$([ "$n" = "$N1" ] && echo 3 || echo 1)
    need=$([ "$n" = "$N1" ] && echo 10 || echo 25)
    local L="--variant local_only --no-baseline --grid 1x1 --nb 256 --sizes"
    step "local: one rank, 1 thread, $n's share of a 4x4 grid" $need "${R1[@]}" $BIN $L \
        $((n / 4))x$((n / 4))x$n --threads 1 --reps $reps --csv "$CSV"
    step "local: one rank, 4 threads, $n's share of a 2x2 grid" $need "${R1x4[@]}" $BIN $L \
        $((n / 2))x$((n / 2))x$n --threads 4 --reps $reps --csv "$CSV"
}
# The all-core clock apart from memory: 16 ranks on blocks of 256 x 256 (C, and each panel of A
# and B: 256 KiB apiece, all in a core's L2) against one rank alone on the same block; K = 8 N1.
contend() {
    local C="--variant local_only --no-baseline --nb 256 --threads 1 --reps 5 --csv $CSV" k=$((N1 * 8))
    step "contend: local_only on 16 ranks, blocks in L2 (1024 x 1024 x $k)" 10 "${R16[@]}" $BIN $C \
        --grid 4x4 --sizes 1024x1024x$k
    step "contend: one rank alone, the same block (256 x 256 x $k)" 10 "${R1[@]}" $BIN $C \
        --grid 1x1 --sizes 256x256x$k
}
# slices S GRID...: summa beside summa_overlap cut into at most S slices, n = N1
slices() {
    local s=$1
    shift
    local V="--variant summa,summa_overlap --slices $s --no-baseline --nb 256 --sizes $N1 --reps 3 --csv $CSV"
    for g in "$@"; do
        if [ "$g" = 4x4 ]; then
            step "slices: summa_overlap in $s, 16 ranks, 4x4, n = $N1" 25 "${R16[@]}" $BIN $V --grid 4x4 --threads 1
        else
            step "slices: summa_overlap in $s, 4 ranks x 4 threads, 2x2, n = $N1" 25 "${R4[@]}" $BIN $V --grid 2x2 --threads 4
        fi
    done
}
shapes() {
    local S="--variant summa,summa_overlap --no-baseline --threads 1 --sizes $N1 --reps 3 --csv $CSV"
    step "shape: 16 ranks, 2x8, n = $N1" 25 "${R16[@]}" $BIN $S --grid 2x8 --nb 256
    step "shape: 16 ranks, 1x16, n = $N1" 30 "${R16[@]}" $BIN $S --grid 1x16 --nb 256
    step "shape: 16 ranks, 4x4, nb 128, n = $N1" 25 "${R16[@]}" $BIN $S --grid 4x4 --nb 128
    step "shape: 16 ranks, 4x4, nb 1024, n = $N1" 25 "${R16[@]}" $BIN $S --grid 4x4 --nb 1024
}
# 16384 on 2x2 x 4 threads: summa_overlap against PSGEMM, and local_only (the compute alone)
main2x2_n2() {
    step "main: summa_overlap, local_only, 4 ranks x 4 threads, 2x2, n = $N2" 70 "${R4[@]}" $BIN \
        --variant summa_overlap,local_only --nb 256 --grid 2x2 --threads 4 --sizes $N2 --csv "$CSV"
}
main4x4_local_n2() {
    step "main: local_only, 16 ranks, 4x4, n = $N2" 20 "${R16[@]}" $BIN --variant local_only \
        --no-baseline --nb 256 --grid 4x4 --threads 1 --sizes $N2 --csv "$CSV"
}
done_line() {
    echo "== done in $((SECONDS - T0)) s: $(rows "$CSV") GEMM rows, $(rows "$COMM") comm rows in $out"
}

if [ $mode = rest ]; then
    comm4
    comm16
    main2x2_n2
    main4x4_local_n2
    contend
    slices 1 2x2 4x4
    shapes
    slices 2 2x2
    done_line
    exit 0
fi

comm16
comm4
step "comm: NCCL, one GPU" 10 "${R1[@]}" $BIN --bench-comm --threads 1 --csv "$COMM"
alone $N1
M="--variant summa,summa_overlap,local_only --nb 256 --sizes $N1 --reps 3 --csv $CSV"
step "main: 16 ranks x 1 thread, 4x4, n = $N1" 40 "${R16[@]}" $BIN $M --grid 4x4 --threads 1
step "main: 4 ranks x 4 threads, 2x2, n = $N1" 40 "${R4[@]}" $BIN $M --grid 2x2 --threads 4
if $BIN --list | grep -q '^summa_nccl '; then
    G="--no-baseline --grid 1x1 --nb 4096 --threads $cores --sizes $N1,$N2 --reps 5 --csv $CSV"
    step "gpu: summa_nccl against its kernel alone, and with cuBLAS" 30 "${MPI[@]}" -np 1 --bind-to none $BIN \
        --variant summa_nccl,warptile_alone,summa_nccl_cublas,cublas_alone $G
    step "gpu: summa_nccl+pack (every panel packed and broadcast)" 20 "${MPI[@]}" -np 1 --bind-to none $BIN \
        --variant summa_nccl,summa_nccl_cublas --pack $G
else
    echo "== gpu: SKIPPED (summa_nccl not built in, or no GPU)"
fi
alone $N2
contend
# n = N2: one sample each (the checked run: no --reps), PSGEMM alternated with summa, summa_overlap
M="--variant summa,summa_overlap,local_only --nb 256 --sizes $N2 --csv $CSV"
step "main: 16 ranks x 1 thread, 4x4, n = $N2" 100 "${R16[@]}" $BIN $M --grid 4x4 --threads 1
step "main: 4 ranks x 4 threads, 2x2, n = $N2" 100 "${R4[@]}" $BIN $M --grid 2x2 --threads 4
slices 1 4x4 2x2
shapes
done_line

#!/usr/bin/env bash
# 13_distributed's GPU checks, run by make test-gpu (tests/run-tests-gpu.sh) on a machine with an
# NVIDIA GPU: summa_nccl and its yardsticks, one rank on one GPU, and one rank per GPU on every
# grid shape where there are several; compute-sanitizer memcheck and racecheck on small sizes.
# With one GPU, --pack sends every panel through the packing and ncclBroadcast path that several
# GPUs take (a broadcast to itself). PASS:/FAIL:/SKIP: lines, then "N passed, N failed, N skipped".
#
#   tests/stages/13_distributed-gpu.sh     (make test-gpu STAGES=13)
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
BIN=13_distributed/distributed
LOG=build/test-gpu-logs/13_distributed
mkdir -p "$LOG"
pass=0 fail=0 skip=0
ok()  { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
skp() { echo "SKIP: $*"; skip=$((skip + 1)); }
finish() { echo; echo "$pass passed, $fail failed, $skip skipped"; [ "$fail" -eq 0 ]; exit $?; }

# A GPU host may lack ScaLAPACK (stage 13 links it for its CPU baseline): the bundled one, put in
# place as bench-gpus.sh does, where there is one (.scalapack-bundle); else a skip with make's reason.
not_here() { make -s missing-stages | awk '$1 == "13_distributed" { $1 = ""; print substr($0, 2) }'; }
why=$(not_here)
if [[ $why == "needs ScaLAPACK"* ]] && [ -f "${SCALAPACK_BUNDLE_DIR:-.scalapack-bundle}/libscalapack-openmpi.so.2.2" ]; then
    if (. scripts/find-scalapack.sh) >"$LOG/scalapack.out" 2>&1; then
        rm -f "$BIN" # linked again, against it (make does not track the libraries)
    else
        rm -rf build/dist-lib # (half made: stage.mk must not find it)
        why="$why; the bundled one did not load ($LOG/scalapack.out)"
    fi
    [[ $why == *"did not load"* ]] || why=$(not_here)
fi
if [ -n "$why" ]; then skp "stage 13 is not built here: $why"; finish; fi
if make -s "$BIN" >"$LOG/build.log" 2>&1; then ok "build: stage 13"; else
    bad "build (see $LOG/build.log)"; tail -n 15 "$LOG/build.log" | sed 's/^/    /'; finish; fi
if ! "$BIN" --list | grep -q '^summa_nccl '; then
    bad "summa_nccl is not built in: $("$BIN" --variant summa_nccl -m 8 2>&1 | tail -n1)"
    finish
fi
export NCCL_NVLS_ENABLE=0 # NVLink multicast off, in every process started here
MPI=(timeout 300 mpirun --allow-run-as-root -q --bind-to none -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS=4)
GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
SHAPES=$(grep -v '^#' tests/shapes.txt | paste -sd, -)
SMALL="1,7x13x5,33,1x97x13,97x1x13,13x97x1,67x73x71"
V1="--variant summa_nccl,summa_nccl_cublas,warptile_alone,cublas_alone --no-baseline --reps 1"
VN="--variant summa_nccl,summa_nccl_cublas --no-baseline --reps 1"

n=0
# expect DESC NP ARGS...: mpirun -np NP BIN ARGS passes every check
expect() {
    local desc=$1 np=$2; shift 2
    n=$((n + 1))
    "${MPI[@]}" -np "$np" $BIN "$@" >"$LOG/case$n.out" 2>"$LOG/case$n.err"
    local rc=$?
    if [ $rc -eq 0 ] && tail -n 1 "$LOG/case$n.out" | grep -qE '^[1-9][0-9]* passed, 0 failed$'; then
        ok "$desc"
    else
        bad "$desc (exit $rc; log $LOG/case$n.*)"
        tail -n 4 "$LOG/case$n.out" "$LOG/case$n.err" | sed 's/^/    /'
    fi
}

expect "1 GPU: awkward shapes, nb 4" 1 $V1 --sizes "$SHAPES" --nb 4
expect "1 GPU: awkward shapes, nb 5, alpha -1.5, beta 0.5" 1 $V1 --sizes "$SHAPES" --nb 5 --alpha -1.5 --beta 0.5
expect "1 GPU: awkward shapes, nb 3, pad 5" 1 $V1 --sizes "$SHAPES" --nb 3 --pad 5
expect "1 GPU, --pack (every panel packed and broadcast by NCCL): awkward shapes, beta 1, pad 3" 1 $VN --pack --sizes "$SHAPES" --nb 7 --beta 1 --pad 3
expect "1 GPU: alpha = 0 (A and B are NaN on the GPU: not read), beta 0.5" 1 $V1 --sizes 7x13x5,65 --nb 4 --alpha 0 --beta 0.5
expect "1 GPU: sampled check, 2048 x 2048 x 1024, nb 256, --pack" 1 $V1 --pack -m 2048 -k 1024 --nb 256 --beta 0.5
expect "1 GPU: 4097 x 1000 x 3001, nb 1024 (09's strips and copies inside each panel)" 1 $V1 -m 4097 -n 1000 -k 3001 --nb 1024
expect "1 GPU, --pack --first-split 3 (the first block in 3 panels): awkward shapes, nb 7, beta 0.5" 1 $VN --pack --first-split 3 --sizes "$SHAPES" --nb 7 --beta 0.5
# --timeline: 3 rows a panel (A's piece, B's, the product); 1000 x 1000 x 1000 at nb 256 with the
# first block in 2 is 5 panels; local_only_gpu runs (its result is not checked)
n=$((n + 1))
rm -f "$LOG/timeline.csv"
"${MPI[@]}" -np 1 $BIN --variant summa_nccl,local_only_gpu --no-baseline --pack --first-split 2 --nb 256 -m 1000 \
    --reps 1 --timeline "$LOG/timeline.csv" >"$LOG/case$n.out" 2>&1
rc=$?
rows=$(grep -c '^13_distributed,summa_nccl+pack+split2,1000,1000,1000,1x1,1,256,0,0,0,' "$LOG/timeline.csv" 2>/dev/null)
lrows=$(grep -c '^13_distributed,local_only_gpu+split2,' "$LOG/timeline.csv" 2>/dev/null)
if [ $rc -eq 0 ] && [ "$rows" = 15 ] && [ "$lrows" = 15 ] && grep -q '^local_only_gpu+split2 ' "$LOG/case$n.out"; then
    ok "--timeline: 15 rows a run (5 panels x 3), summa_nccl and local_only_gpu"
else
    bad "--timeline: exit $rc, $rows and $lrows rows (want 0, 15 and 15; see $LOG/case$n.out)"
fi
n=$((n + 1))
"${MPI[@]}" -np 1 $BIN --edge --variant summa_nccl,summa_nccl_cublas,warptile_alone,cublas_alone --no-baseline --sizes 7x13x5,33 --nb 4 --pad 2 >"$LOG/case$n.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "every edge case passed" "$LOG/case$n.out" && [ "$(grep -c ' PASS$' "$LOG/case$n.out")" -eq 32 ]; then
    ok "1 GPU: K = 0, M = 0, N = 0 (32 cases)"
else
    bad "1 GPU: edge cases (exit $rc; see $LOG/case$n.out)"
fi
# a GPU that is not there: one line, exit 2
n=$((n + 1))
"${MPI[@]}" -np 1 $BIN --variant summa_nccl --device 99 -m 8 >"$LOG/case$n.out" 2>"$LOG/case$n.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$LOG/case$n.err")" -eq 1 ] && [ ! -s "$LOG/case$n.out" ]; then
    ok "--device 99 -> exit 2: $(cat "$LOG/case$n.err")"
else
    bad "--device 99 -> exit $rc (want 2 and one line; $LOG/case$n.*)"
fi
# the NCCL rows of --bench-comm
n=$((n + 1))
"${MPI[@]}" -np 1 $BIN --bench-comm --reps 3 --csv "$LOG/comm.csv" >"$LOG/case$n.out" 2>&1
if [ $? -eq 0 ] && grep -q '^13_distributed,nccl,bcast_all,1,33554432,' "$LOG/comm.csv"; then
    ok "--bench-comm: NCCL broadcast rows"
else
    bad "--bench-comm: no NCCL rows (see $LOG/case$n.out)"
fi
# more ranks than GPUs (the host's 16 and 4 ranks on one GPU): MPI's rows, NCCL skipped with a line
n=$((n + 1))
np=$((GPUS + 1))
rm -f "$LOG/comm-more.csv"
"${MPI[@]}" --oversubscribe -np $np $BIN --bench-comm --reps 3 --threads 1 --csv "$LOG/comm-more.csv" >"$LOG/case$n.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "^13_distributed,mpi,bcast_all,$np,33554432," "$LOG/comm-more.csv" &&
   ! grep -q '^13_distributed,nccl,' "$LOG/comm-more.csv" && grep -q '^nccl   skipped: NCCL takes one GPU per rank' "$LOG/case$n.out"; then
    ok "--bench-comm, $np ranks on $GPUS GPU(s): MPI rows, NCCL skipped with a line"
else
    bad "--bench-comm, $np ranks on $GPUS GPU(s): exit $rc (see $LOG/case$n.out)"
fi

# one rank per GPU, every grid shape the GPUs allow
if [ "$GPUS" -ge 2 ]; then
    grids="1x$GPUS ${GPUS}x1"
    [ "$GPUS" -ge 4 ] && grids="$grids 2x2"
    [ "$GPUS" -ge 6 ] && grids="$grids 3x2"
    for grid in $grids; do
        np=$((${grid%x*} * ${grid#*x}))
        expect "$np GPUs, $grid: awkward shapes, nb 3, beta 0.5, pad 3" "$np" $VN --grid "$grid" --sizes "$SHAPES" --nb 3 --beta 0.5 --pad 3
        expect "$np GPUs, $grid: 3001 x 2999 x 1501, nb 256, alpha -1.5" "$np" $VN --grid "$grid" -m 3001 -n 2999 -k 1501 --nb 256 --alpha -1.5
        expect "$np GPUs, $grid: awkward shapes, nb 5, --first-split 2" "$np" $VN --grid "$grid" --sizes "$SHAPES" --nb 5 --first-split 2
    done
else
    skp "one rank per GPU on several GPUs: this machine has $GPUS"
fi

# compute-sanitizer: out-of-bounds accesses (memcheck) and shared-memory races (racecheck), one
# rank on one GPU, the NCCL path included (--pack); and one per GPU where there are several
SANITIZER=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
if [ -z "$SANITIZER" ]; then
    bad "compute-sanitizer not found"
    finish
fi
sanitize() {
    local desc=$1 np=$2; shift 2
    n=$((n + 1))
    "${MPI[@]}" -np "$np" "$SANITIZER" "$@" >"$LOG/case$n.out" 2>&1
    local rc=$? summary
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$LOG/case$n.out" | sort | uniq -c | tr -s ' ' | paste -sd';' -)
    if [ $rc -eq 0 ] && ! grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$LOG/case$n.out" | grep -qvE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" &&
       grep -qE "ERROR SUMMARY|RACECHECK SUMMARY" "$LOG/case$n.out"; then
        ok "$desc:$summary"
    else
        bad "$desc: exit $rc, ${summary:-no summary} (see $LOG/case$n.out)"
        grep -m 5 -E "=========  (Invalid|Race|Error)" "$LOG/case$n.out" | sed 's/^/    /'
    fi
}
# --report-api-errors no: NCCL asks the runtime about kernels of other architectures at start-up
# and memcheck reports each refusal (cudaErrorNoKernelImageForDevice in ncclInitKernelsForDevice,
# 24 of them, measured on the H100); the program checks its own API calls (CUDA_CHECK), so only
# memory accesses are the sanitizer's to judge here
for tool in memcheck racecheck; do
    sanitize "compute-sanitizer $tool, 1 GPU, --pack, beta 0.5, pad 3" 1 --tool $tool --report-api-errors no --error-exitcode 99 \
        $BIN $V1 --pack --sizes "$SMALL" --nb 16 --beta 0.5 --pad 3
    sanitize "compute-sanitizer $tool, 1 GPU, beta 0 (C was NaN)" 1 --tool $tool --report-api-errors no --error-exitcode 99 \
        $BIN $V1 --sizes "$SMALL" --nb 16
    if [ "$GPUS" -ge 2 ]; then
        sanitize "compute-sanitizer $tool, $GPUS GPUs, 1x$GPUS, beta 0.5" "$GPUS" --tool $tool --report-api-errors no --error-exitcode 99 \
            $BIN $VN --grid "1x$GPUS" --sizes "$SMALL" --nb 16 --beta 0.5
    fi
done
finish

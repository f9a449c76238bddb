#!/usr/bin/env bash
# checks: own (in place of the GEMM checks every stage gets; tests/lib.sh, own_checks)
# 13_distributed's tests. The program runs under mpirun, so tests/run-tests.sh runs this script
# in place of its generic GEMM cases for the stage; it prints PASS:/FAIL:/SKIP: lines and a
# last line "N passed, N failed, N skipped", and exits 0 when nothing failed.
#
#   tests/stages/13_distributed.sh      (after make stage13 asan grade-bins; it builds what is missing)
#
# The CPU variants (and PSGEMM, checked once per size) with 1, 2, 3, 4 and 6 ranks, oversubscribed
# on a small machine: the awkward shapes of tests/shapes.txt on grids 1x1, 1xP, Px1, 2x2 and 3x2,
# block sizes that divide nothing, alpha, beta, padding, a sampled check, alpha = 0 with NaN in
# A and B, the edge cases (K = 0, M = 0, N = 0), bad input (one line from rank 0, exit 2, every
# rank gone), the sanitizers, the untouched exercise, the CSVs and --bench-comm (on 2 and 4 ranks,
# and on a stand-in for a node of one GPU: one_gpu_standin.c). A run that hangs is killed after
# 120 s and fails.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
BIN=13_distributed/distributed ASAN=build/asan/13_distributed/distributed
GRADE=build/grade/13_distributed/distributed ONE_GPU=build/test/13_distributed/one_gpu
LOG=build/test-logs/13_distributed
mkdir -p "$LOG"
pass=0 fail=0 skip=0
ok()  { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
skp() { echo "SKIP: $*"; skip=$((skip + 1)); }

# (make is asked every time: it rebuilds the stand-in after a change, which make test's build
# does not name)
make -s "$BIN" "$ASAN" "$GRADE" "$ONE_GPU" >"$LOG/build.log" 2>&1 || bad "build (see $LOG/build.log)"
if ! command -v mpirun >/dev/null; then
    skp "no mpirun (scripts/install-deps.sh installs openmpi-bin)"
    echo; echo "$pass passed, $fail failed, $skip skipped"; exit 0
fi

# one rank per slot whatever the core count; idle ranks yield; one thread each; NVLink
# multicast off in any NCCL the program starts
MPI=(timeout 120 mpirun --allow-run-as-root -q --oversubscribe --bind-to none
     -x OMP_NUM_THREADS=1 -x OPENBLAS_NUM_THREADS=1 -x NCCL_NVLS_ENABLE=0)
SHAPES=$(grep -v '^#' tests/shapes.txt | paste -sd, -)
SMALL="1,7x13x5,31,33,1x97x13,97x1x13,13x97x1,67x73x71"
CPU="--variant summa,summa_overlap --reps 1 --threads 1"

n=0
# expect WANT DESC NP ARGS...: mpirun -np NP BIN ARGS exits WANT; with 0, one line "N passed, 0 failed",
# the last
expect() {
    local t0=$SECONDS
    local want=$1 desc=$2 np=$3; shift 3
    n=$((n + 1))
    "${MPI[@]}" -np "$np" "$@" >"$LOG/case$n.out" 2>"$LOG/case$n.err"
    local rc=$?
    if [ "$rc" -eq "$want" ] && { [ "$want" -ne 0 ] || { tail -n 1 "$LOG/case$n.out" | grep -qE '^[1-9][0-9]* passed, 0 failed$' &&
            [ "$(grep -cE '^[0-9]+ passed, [0-9]+ failed$' "$LOG/case$n.out")" -eq 1 ]; }; }; then
        ok "$desc ($((SECONDS - t0)) s)"
    else
        bad "$desc (exit $rc, want $want; log $LOG/case$n.*)"
        tail -n 4 "$LOG/case$n.out" "$LOG/case$n.err" | sed 's/^/    /'
    fi
}

expect 0 "1 rank: awkward shapes, with PSGEMM" 1 $BIN $CPU --sizes "$SHAPES" --nb 4
expect 0 "4 ranks, 2x2: awkward shapes, nb 4, with PSGEMM" 4 $BIN $CPU --grid 2x2 --sizes "$SHAPES" --nb 4
expect 0 "6 ranks, 3x2: awkward shapes, nb 3, beta 0.5, pad 2" 6 $BIN $CPU --grid 3x2 --sizes "$SHAPES" --nb 3 --beta 0.5 --pad 2 --no-baseline
# the other grid shapes on fewer shapes (PSGEMM is checked above)
Q="$CPU --no-baseline --sizes $SMALL"
expect 0 "2 ranks, 1x2: small shapes, nb 3, alpha -1.5, beta 0.5" 2 $BIN $Q --grid 1x2 --nb 3 --alpha -1.5 --beta 0.5
expect 0 "2 ranks, 2x1: small shapes, nb 5, pad 5" 2 $BIN $Q --grid 2x1 --nb 5 --pad 5
expect 0 "3 ranks, 1x3: small shapes, nb 7, beta 1, pad 3" 3 $BIN $Q --grid 1x3 --nb 7 --beta 1 --pad 3
expect 0 "4 ranks, 4x1: small shapes, nb 2, beta 0.5, pad 1" 4 $BIN $Q --grid 4x1 --nb 2 --beta 0.5 --pad 1
expect 0 "4 ranks, 1x4: small shapes, nb 16 (ranks with no columns), alpha -1.5" 4 $BIN $Q --grid 1x4 --nb 16 --alpha -1.5
expect 0 "6 ranks, 3x2: nb larger than the matrix (one rank holds it all)" 6 $BIN $CPU --grid 3x2 --sizes 7x13x5,31 --nb 64
expect 0 "4 ranks, 2x2: sampled check above 2^30 multiply-adds" 4 $BIN $CPU --no-baseline --grid 2x2 -m 1031 -n 1100 -k 1000 --nb 100 --beta 0.5
expect 0 "4 ranks, 2x2: summa_overlap in at most 3 slices, nb 4" 4 $BIN --variant summa_overlap --reps 1 --threads 1 --no-baseline --grid 2x2 --sizes 7x13x5,67x73x71 --nb 4 --slices 3
grep -q '^summa_overlap+slices3 ' "$LOG/case$n.out" || bad "--slices 3: no row named summa_overlap+slices3 ($LOG/case$n.out)"
expect 0 "4 ranks, 2x2: summa_overlap in 1 slice (one call a panel)" 4 $BIN --variant summa_overlap --reps 1 --threads 1 --no-baseline --grid 2x2 --sizes 7x13x5,67x73x71 --nb 4 --slices 1
expect 0 "2 ranks of 2 threads, 1x2: OpenMP inside each rank" 2 $BIN --variant summa,summa_overlap --reps 1 --threads 2 --grid 1x2 --sizes 257x131x99,300 --nb 32
expect 0 "4 ranks: alpha = 0 (A and B are NaN: not read), beta 0.5, with PSGEMM" 4 $BIN $CPU --sizes 7x13x5,65 --nb 4 --alpha 0 --beta 0.5
# the edge cases, on each rank's block
for np_grid in "1 1x1" "3 3x1" "4 2x2"; do
    read -r np grid <<<"$np_grid"
    n=$((n + 1))
    "${MPI[@]}" -np "$np" $BIN --edge --variant summa,summa_overlap --threads 1 --grid "$grid" --sizes 7x13x5,33 --nb 4 --pad 2 >"$LOG/case$n.out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && grep -q "every edge case passed" "$LOG/case$n.out" && [ "$(grep -c ' PASS$' "$LOG/case$n.out")" -eq 24 ]; then
        ok "$np ranks, $grid: K = 0, M = 0, N = 0 (24 cases: summa, summa_overlap, psgemm)"
    else
        bad "$np ranks, $grid: edge cases (exit $rc; see $LOG/case$n.out)"
    fi
done
# --edges, every stage's name for the edge cases, runs this suite too (it used to be taken
# silently and run the benchmark)
n=$((n + 1))
"${MPI[@]}" -np 2 $BIN --edges --variant summa --threads 1 --grid 1x2 --sizes 7x13x5 --nb 4 >"$LOG/case$n.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "every edge case passed" "$LOG/case$n.out" && ! grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$LOG/case$n.out"; then
    ok "--edges runs the edge suite ($(grep -c ' PASS$' "$LOG/case$n.out") cases), not the benchmark"
else
    bad "--edges: exit $rc, or no edge suite (see $LOG/case$n.out)"
fi
# local_only is timed, not checked; its rows and the others' go to a CSV
rm -f "$LOG/13_distributed.csv"
expect 0 "local_only runs (not checked), beside summa, rows to a CSV" 2 $BIN --variant summa,local_only --reps 1 --threads 1 --sizes 64,7x13x5 --nb 8 --csv "$LOG/13_distributed.csv"

# bad input: one line on stderr, from rank 0 only, nothing on stdout, exit 2, and every rank gone
badcase() {
    local desc=$1 np=$2; shift 2
    n=$((n + 1))
    "${MPI[@]}" -np "$np" $BIN "$@" >"$LOG/case$n.out" 2>"$LOG/case$n.err"
    local rc=$? lines
    lines=$(wc -l <"$LOG/case$n.err")
    if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$LOG/case$n.out" ]; then
        ok "bad input, $np ranks, $desc -> exit 2: $(cat "$LOG/case$n.err")"
    else
        bad "bad input, $np ranks, $desc -> exit $rc, $lines stderr lines (want 2 and 1; $LOG/case$n.*)"
    fi
}
badcase "--grid 3x2 on 4 ranks" 4 --grid 3x2 -m 8
badcase "--grid 2 (no columns)" 2 --grid 2 -m 8
badcase "--variant nope" 4 --variant nope
badcase "--slices 0" 2 --slices 0 -m 8
badcase "--first-split 0" 2 --first-split 0 -m 8
badcase "--timeline with no file name" 2 --timeline '' -m 8
badcase "--timeline in a folder that does not exist" 2 --timeline "$LOG/no/such/t.csv" -m 8
badcase "a size too large for one rank's memory" 2 -m 400000 -n 400000 -k 8
printf 'stage,variant\n' >"$LOG/foreign.csv"
badcase "--csv with another header" 2 -m 8 --csv "$LOG/foreign.csv"

# the CSV: our header once, then every row (a second run appends)
"${MPI[@]}" -np 2 $BIN $CPU --sizes 16 --nb 4 --csv "$LOG/13_distributed.csv" >"$LOG/csv.out" 2>&1
if [ "$(head -n1 "$LOG/13_distributed.csv" 2>/dev/null | cut -d, -f1-9)" = "stage,variant,m,n,k,grid,ranks,threads,nb" ] &&
   [ "$(grep -c '^stage,' "$LOG/13_distributed.csv")" -eq 1 ] && [ "$(grep -c '^13_distributed,.*,PASS,' "$LOG/13_distributed.csv")" -eq 7 ] &&
   [ "$(grep -c '^13_distributed,local_only,.*,-,' "$LOG/13_distributed.csv")" -eq 2 ] &&
   [ "$(awk -F, '$2 == "local_only" && $14 == "" && $15 == ""' "$LOG/13_distributed.csv" | wc -l)" -eq 2 ]; then
    ok "--csv: one header over two runs, 7 checked rows and local_only's 2 unchecked, not timed against PSGEMM"
else
    bad "--csv: header or rows wrong (see $LOG/13_distributed.csv)"
fi
# --bench-comm: ping-pong and broadcasts, 8 B to 32 MiB (3 of each here); the 1x2 grid's
# columns of one rank have nothing to broadcast: no rows for them
rm -f "$LOG/13_distributed_comm.csv"
"${MPI[@]}" -np 2 $BIN --bench-comm --reps 3 --threads 1 --csv "$LOG/13_distributed_comm.csv" >"$LOG/comm.out" 2>&1
rc=$?
rows=$(grep -c '^13_distributed,mpi,' "$LOG/13_distributed_comm.csv" 2>/dev/null)
if [ $rc -eq 0 ] && [ "${rows:-0}" -ge 24 ] && grep -q '^13_distributed,mpi,pingpong,2,33554432,' "$LOG/13_distributed_comm.csv" &&
   ! grep -q '^13_distributed,mpi,bcast_[a-z]*,1,' "$LOG/13_distributed_comm.csv"; then
    ok "--bench-comm, 2 ranks: $rows rows (ping-pong, broadcasts, 8 B to 32 MiB)"
else
    bad "--bench-comm: exit $rc, ${rows:-0} rows (see $LOG/comm.*)"
fi
# comm_rows FILE TRANSPORT: "op,ranks" of each kind of row, one a line
comm_rows() { awk -F, -v t="$2" '$2 == t { print $3 "," $4 }' "$1" | sort -u | paste -sd' ' -; }
WANT4="bcast_all,4 bcast_col,2 bcast_row,2 pingpong,2"
rm -f "$LOG/comm4.csv"
"${MPI[@]}" -np 4 $BIN --bench-comm --grid 2x2 --reps 3 --threads 1 --csv "$LOG/comm4.csv" >"$LOG/comm4.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(comm_rows "$LOG/comm4.csv" mpi)" = "$WANT4" ] &&
   [ "$(grep -c ',mpi,bcast_row,2,' "$LOG/comm4.csv")" -eq 12 ]; then
    ok "--bench-comm, 4 ranks, 2x2: MPI on all 4 ranks and on rows and columns of 2"
else
    bad "--bench-comm, 4 ranks, 2x2: exit $rc, rows $(comm_rows "$LOG/comm4.csv" mpi) (see $LOG/comm4.*)"
fi
# more ranks on a node than GPUs (a stand-in that reports one GPU): MPI's timings all the same,
# NCCL's skipped with a line; on one rank, NCCL's too
rm -f "$LOG/comm-1gpu.csv" "$LOG/comm-1gpu-1rank.csv"
"${MPI[@]}" -np 4 $ONE_GPU --bench-comm --grid 2x2 --reps 3 --threads 1 --csv "$LOG/comm-1gpu.csv" >"$LOG/comm-1gpu.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(comm_rows "$LOG/comm-1gpu.csv" mpi)" = "$WANT4" ] &&
   [ -z "$(comm_rows "$LOG/comm-1gpu.csv" nccl)" ] && grep -q '^nccl   skipped: NCCL takes one GPU per rank' "$LOG/comm-1gpu.out"; then
    ok "--bench-comm, 4 ranks on a node of one GPU (stand-in): MPI rows, NCCL skipped with a line"
else
    bad "--bench-comm, 4 ranks on a node of one GPU (stand-in): exit $rc (see $LOG/comm-1gpu.*)"
    tail -n 2 "$LOG/comm-1gpu.out" | sed 's/^/    /'
fi
"${MPI[@]}" -np 1 $ONE_GPU --bench-comm --reps 3 --threads 1 --csv "$LOG/comm-1gpu-1rank.csv" >"$LOG/comm-1gpu-1rank.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(comm_rows "$LOG/comm-1gpu-1rank.csv" nccl)" = "bcast_all,1" ]; then
    ok "--bench-comm, 1 rank, one GPU (stand-in): NCCL rows beside MPI's"
else
    bad "--bench-comm, 1 rank, one GPU (stand-in): exit $rc, NCCL rows '$(comm_rows "$LOG/comm-1gpu-1rank.csv" nccl)'"
fi

# the cost model on the two CSVs just written: its chart, its tables, and bad input
PY=$(scripts/find-python.sh)
if [ -z "$PY" ]; then
    skp "plots/13_distributed.py: no python3 with matplotlib"
else
    rm -f "$LOG/model.png"
    if "$PY" plots/13_distributed.py "$LOG/13_distributed.csv" "$LOG/model.png" >"$LOG/plot.out" 2>&1 &&
       [ "$(head -c 4 "$LOG/model.png" | od -An -c | tr -d ' ')" = "211PNG" ] &&
       "$PY" plots/13_distributed.py --table "$LOG/13_distributed.csv" >"$LOG/table.out" 2>&1 &&
       grep -q '^| summa | 16 | 1x2 | 2 x 1 | 4 |' "$LOG/table.out" && grep -q '^| broadcast | 2 |' "$LOG/table.out"; then
        ok "plot.py: the model's chart and tables from the CSVs above"
    else
        bad "plot.py on the CSVs above (see $LOG/plot.out, $LOG/table.out)"
    fi
    n_bad=0
    for args in "$LOG/13_distributed.csv" "$LOG/no-such.csv $LOG/x.png" "$LOG/foreign.csv $LOG/x.png"; do
        # shellcheck disable=SC2086
        "$PY" plots/13_distributed.py $args >"$LOG/plot-bad.out" 2>"$LOG/plot-bad.err"
        [ $? -eq 2 ] && [ "$(wc -l <"$LOG/plot-bad.err")" -eq 1 ] && [ ! -e "$LOG/x.png" ] || n_bad=$((n_bad + 1))
    done
    [ $n_bad -eq 0 ] && ok "plot.py: one argument, a missing file, a foreign header -> exit 2, one line" ||
        bad "plot.py: $n_bad bad inputs not refused with exit 2 and one line"
    # a summa rerun beside --slices (no PSGEMM alternated) stays out of the targets' medians,
    # and the sliced summa_overlap is held to the model
    mkdir -p "$LOG/fix"
    h="stage,variant,m,n,k,grid,ranks,threads,nb,reps,ms_median,ms_min,gflops,baseline,baseline_gflops"
    h="$h,max_err_ratio,check,device,compiler,git,date"
    row() { printf '13_distributed,%s,1024,1024,1024,2x2,4,4,256,1,%s,%s,%s,%s,%s,0,%s,cpu,gcc,0,0\n' "$@"; }
    { echo "$h"; row summa 200 200 10.0 psgemm 5.0 PASS; row summa 70 70 30.0 "" "" PASS
      row summa_overlap+slices1 100 100 20.0 "" "" PASS; row local_only 90 90 23.0 "" "" -
    } >"$LOG/fix/13_distributed.csv"
    { echo "stage,transport,op,ranks,bytes,reps,us_median,us_min,gbytes_s,device,git,date"
      echo "13_distributed,mpi,bcast_row,2,8,1,1,1,0,cpu,0,0"
      echo "13_distributed,mpi,bcast_row,2,33554432,1,1000,1000,0,cpu,0,0"; } >"$LOG/fix/13_distributed_comm.csv"
    "$PY" plots/13_distributed.py --table "$LOG/fix/13_distributed.csv" >"$LOG/fix/table.out" 2>&1
    grep -q '^| 1024 | 2x2 | 4 x 4 | summa | 10.0 | 2.00x |' "$LOG/fix/table.out" &&
        grep -q '^| summa_overlap+slices1 | 1024 | 2x2 | 4 x 4 | 256 | 100.0 |' "$LOG/fix/table.out" &&
        ok "plot.py: targets from summa's PSGEMM-alternated rows; --slices runs held to the model" ||
        bad "plot.py --table on $LOG/fix/13_distributed.csv (see $LOG/fix/table.out)"
    # several GPUs: n = 8192 on 2x2, nb 4096 (2 panels, blocks of 4096); the kernel alone on one
    # GPU 20 ms, so a panel's product is 2.5 ms; a 64 MiB piece 210 us (alpha 10 us, 200 us
    # for the bytes). The two streams: 0.42 + 2.5 + 2.5 = 5.42 ms against 6 measured, -9.7%;
    # 4 x alone is 219902 GFLOP/s, the run 183252: 83.3%
    mkdir -p "$LOG/gpufix"
    grow() { printf '13_distributed,%s,8192,8192,8192,%s,%s,64,4096,1,%s,%s,%s,,,0,PASS,gpu,nvcc,0,0\n' "$@"; }
    { echo "$h"; grow warptile_alone 1x1 1 20 20 54975.581; grow summa_nccl 2x2 4 6 6 183251.938
    } >"$LOG/gpufix/13_distributed.csv"
    { echo "stage,transport,op,ranks,bytes,reps,us_median,us_min,gbytes_s,device,git,date"
      echo "13_distributed,nccl,bcast_row,2,8,1,10,10,0,gpu,0,0"
      echo "13_distributed,nccl,bcast_row,2,67108864,1,210,210,0,gpu,0,0"; } >"$LOG/gpufix/13_distributed_comm.csv"
    "$PY" plots/13_distributed.py --table "$LOG/gpufix/13_distributed.csv" >"$LOG/gpufix/table.out" 2>&1
    grep -q '^| summa_nccl | 8192 | 2x2 | 4096 | 6.0 | 183252 | 83.3% | 5.4 | -9.7% |' "$LOG/gpufix/table.out" &&
        ok "plot.py: several GPUs, % of P x alone and the two streams' model on a hand-worked case" ||
        bad "plot.py --table on $LOG/gpufix/13_distributed.csv (see $LOG/gpufix/table.out)"
    # --timeline's chart: 2 ranks, 2 panels
    t="stage,variant,m,n,k,grid,ranks,nb,rank,prow,pcol,panel,what,start_ms,end_ms,bytes,git"
    { echo "$t"
      for q in 0 1; do for i in 0 1; do
          printf '13_distributed,summa_nccl,8192,8192,8192,1x2,2,4096,%s,0,%s,%s,bcast_a,%s,%s,67108864,0\n' $q $q $i $((i * 3)) $((i * 3 + 1))
          printf '13_distributed,summa_nccl,8192,8192,8192,1x2,2,4096,%s,0,%s,%s,bcast_b,%s,%s,0,0\n' $q $q $i $((i * 3 + 1)) $((i * 3 + 1))
          printf '13_distributed,summa_nccl,8192,8192,8192,1x2,2,4096,%s,0,%s,%s,gemm,%s,%s,0,0\n' $q $q $i $((i * 3 + 1)) $((i * 3 + 4))
      done; done; } >"$LOG/gpufix/timeline.csv"
    rm -f "$LOG/gpufix/timeline.png"
    if "$PY" plots/13_distributed.py --timeline "$LOG/gpufix/timeline.csv" "$LOG/gpufix/timeline.png" >"$LOG/gpufix/tl.out" 2>&1 &&
       [ "$(head -c 4 "$LOG/gpufix/timeline.png" | od -An -c | tr -d ' ')" = "211PNG" ] &&
       ! "$PY" plots/13_distributed.py --timeline "$LOG/foreign.csv" "$LOG/x.png" 2>/dev/null && [ ! -e "$LOG/x.png" ]; then
        ok "plot.py --timeline: the chart from a 2-rank trace; a foreign CSV refused"
    else
        bad "plot.py --timeline (see $LOG/gpufix/tl.out)"
    fi
fi

# the model's command line (13_distributed/cost_model.py: standard library, any python3): on the
# CSVs above, alpha and beta of the 2-rank broadcasts and the errors of summa's runs; on a
# hand-worked case (n = 8192 on 2x2 GPUs, nb 4096: 64 MiB pieces at alpha 10 us and 200 us for
# the bytes, 210 us; a panel's product 20 ms / 8 = 2.5 ms; the run 5.42 ms against 6, -9.7%);
# its words table; bad input
mkdir -p "$LOG/model"
{ echo "stage,variant,m,n,k,grid,ranks,threads,nb,reps,ms_median,ms_min,gflops,baseline,baseline_gflops,max_err_ratio,check,device,compiler,git,date"
  echo "13_distributed,warptile_alone,8192,8192,8192,1x1,1,64,4096,1,20,20,54975.581,,,0,PASS,gpu,nvcc,0,0"
  echo "13_distributed,summa_nccl,8192,8192,8192,2x2,4,64,4096,1,6,6,183251.938,,,0,PASS,gpu,nvcc,0,0"
} >"$LOG/model/13_distributed.csv"
{ echo "stage,transport,op,ranks,bytes,reps,us_median,us_min,gbytes_s,device,git,date"
  echo "13_distributed,nccl,bcast_row,2,8,1,10,10,0,gpu,0,0"
  echo "13_distributed,nccl,bcast_row,2,67108864,1,210,210,0,gpu,0,0"; } >"$LOG/model/13_distributed_comm.csv"
if ! command -v python3 >/dev/null; then
    skp "cost_model.py: no python3"
elif python3 13_distributed/cost_model.py "$LOG/13_distributed.csv" >"$LOG/model.out" 2>&1 &&
     grep -q '^| broadcast | 2 |' "$LOG/model.out" && grep -q '^| summa | under load | [1-9]' "$LOG/model.out" &&
     python3 13_distributed/cost_model.py "$LOG/model/13_distributed.csv" >"$LOG/model/out" 2>&1 &&
     grep -q '^| summa_nccl | 8192 | 2x2 | 64 | 4096 | 0.21 | 0.21 | 2.5 | 2 |$' "$LOG/model/out" &&
     grep -q '^| summa_nccl | alone | 1 | 1 | 1 | -9.7% | -9.7% |$' "$LOG/model/out" &&
     python3 13_distributed/cost_model.py --words >"$LOG/model/words.out" 2>&1 &&
     grep -q '^| 8192 | 4 x 4 | 96 MiB | 69 G | 2731 | 2 MiB, 2 MiB |$' "$LOG/model/words.out"; then
    ok "cost_model.py: fits and errors from the CSVs above; a panel and the error on a hand-worked case; words"
else
    bad "cost_model.py (see $LOG/model.out, $LOG/model/out)"
fi
if command -v python3 >/dev/null; then
    n_bad=0
    for args in "" "--words 4" "--projection" "$LOG/no-such.csv" "$LOG/foreign.csv" "$LOG/model/13_distributed.csv --comm"; do
        # shellcheck disable=SC2086
        python3 13_distributed/cost_model.py $args >"$LOG/model/bad.out" 2>"$LOG/model/bad.err"
        [ $? -eq 2 ] && [ ! -s "$LOG/model/bad.out" ] && [ "$(wc -l <"$LOG/model/bad.err")" -ge 1 ] || n_bad=$((n_bad + 1))
    done
    [ $n_bad -eq 0 ] && ok "cost_model.py: no arguments, bad ones, a missing file, a foreign header -> exit 2" ||
        bad "cost_model.py: $n_bad bad inputs not refused with exit 2"
fi

# the chapter's mpirun lines say what they need: --oversubscribe, or a comment naming the cores
# or GPUs (a reader on a 2-core laptop, or as root, must not meet a bare failure)
unsaid=$(awk '/^```/ { inblock = !inblock; next }
              inblock && cont != "" { $0 = cont " " $0; cont = "" }
              inblock && /\\$/ { cont = $0; next }
              inblock && /^mpirun -np [0-9]/ && $3 > 1 && !/--oversubscribe/ &&
              !/# .*(cores?|GPUs?)/' 13_distributed/README.md)
if [ -z "$unsaid" ] && grep -q -- '--allow-run-as-root' 13_distributed/README.md; then
    ok "README: every mpirun line of more than one rank says what it needs; root is mentioned"
else
    bad "README: mpirun lines that do not say what they need: ${unsaid:-(none; but no word on --allow-run-as-root)}"
fi

# the sanitizers (no CUDA in this build), 4 ranks
n=$((n + 1))
ASAN_OPTIONS=detect_leaks=0 "${MPI[@]}" -x ASAN_OPTIONS -np 4 $ASAN $CPU --grid 2x2 --sizes 1,7x13x5,1x97x13,13x97x1,67x73x71 --nb 5 --pad 3 --beta 0.5 >"$LOG/case$n.out" 2>"$LOG/case$n.err"
rc=$?
if [ $rc -eq 0 ] && tail -n 1 "$LOG/case$n.out" | grep -qE '^[1-9][0-9]* passed, 0 failed$'; then
    ok "ASan+UBSan, 4 ranks, 2x2: small shapes, pad 3, beta 0.5, with PSGEMM"
else
    bad "ASan+UBSan, 4 ranks (exit $rc; see $LOG/case$n.*)"
    grep -m 3 -E "ERROR|runtime error" "$LOG/case$n.err" | sed 's/^/    /'
fi

# the untouched exercise fails cleanly: exit 1 with FAIL rows, no crash, no hang
n=$((n + 1))
"${MPI[@]}" -np 2 $GRADE $CPU --sizes 7x13x5,33 --nb 4 --no-baseline >"$LOG/case$n.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q FAIL "$LOG/case$n.out"; then
    ok "untouched exercise fails its checks cleanly (2 ranks)"
elif [ $rc -eq 0 ]; then
    ok "exercise passes (it has been solved)"
else
    bad "exercise: exit $rc (want 1 with FAIL rows; see $LOG/case$n.out)"
fi

# summa_nccl: checked on a GPU machine by make test-gpu (custom-tests-gpu.sh)
n=$((n + 1))
"${MPI[@]}" -np 1 $BIN --variant summa_nccl -m 8 >"$LOG/case$n.out" 2>"$LOG/case$n.err"
rc=$?
case $rc in
    0) ok "summa_nccl: checks pass on the GPU present" ;;
    77) if [ "$(wc -l <"$LOG/case$n.err")" -eq 1 ]; then skp "summa_nccl: $(cat "$LOG/case$n.err")"
        else bad "summa_nccl: exit 77 but not one line on stderr"; fi ;;
    *) bad "summa_nccl -m 8: exit $rc (see $LOG/case$n.*)" ;;
esac
# --list names every variant; one that cannot run here is marked, as cli.c marks the others
n=$((n + 1))
"${MPI[@]}" -np 1 $BIN --list >"$LOG/case$n.out" 2>&1
listed=$(grep -cE '^(summa|summa_overlap|local_only|summa_nccl|summa_nccl_cublas|warptile_alone|cublas_alone|local_only_gpu) ' "$LOG/case$n.out")
if [ "$listed" -eq 8 ] && { [ $rc -eq 0 ] || [ "$(grep -c '\[not here: ' "$LOG/case$n.out")" -eq 5 ]; }; then
    ok "--list: all 8 variants$([ $rc -eq 0 ] || echo ', the 5 GPU ones marked [not here: ...]')"
else bad "--list: $listed of 8 variants listed, or the GPU ones not marked (see $LOG/case$n.out)"; fi

echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

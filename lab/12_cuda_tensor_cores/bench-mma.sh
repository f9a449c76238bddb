#!/usr/bin/env bash
# What chapter 12's mma.sync section and its GPU table quote, and the profiles of chapters 09 and
# 12:  lab/12_cuda_tensor_cores/bench-mma.sh [OUT_DIR] [PART...]   (default results/local, all parts)
#   peak      build/peak_gpu: the mma.sync ceilings (BF16, FP16, FP16 sums) beside wgmma's
#             -> OUT_DIR/peak.csv, peak.txt
#   check     mma_pipelined (BF16, FP16, every --tune row) and mma_sm75 at the awkward sizes;
#             the T4's gate (GEMM_CUDA_CC=75) -> OUT_DIR/check.log
#   time      mma_ldmatrix, mma_pipelined and wgmma_persistent with cuBLAS at 4096, 8192 and
#             4097, twice; --tune's mma rows; FP16 with cuBLAS FP16 -> OUT_DIR/12_mma.csv,
#             12_mma_tune.csv, 12_fp16.csv
#   profile   scripts/profile.sh on every step of 09 and of 12's BF16 table at 4096
#             -> OUT_DIR/profile.csv
#   sanitize  compute-sanitizer memcheck and racecheck on the new variants -> OUT_DIR/sanitize.log
#   diagnose  (asked for by name) profiles of mma_pipelined at 4096 and 8192 beside mma_ldmatrix
#             and wgmma_persistent, its rate as K grows, clocks and power through long runs
#             -> OUT_DIR/diagnose.csv, kscale.csv, dmon.txt
#   anchor    (by name) CUTLASS's sm80 GEMM (build/anchor/cutlass_sm80, anchor/build.sh makes it)
#             and mma_pipelined, one after the other, twice, at 4096 and 8192 -> OUT_DIR/anchor.txt
#   power     (by name) the SM clock, the board's power and the driver's reasons for holding the
#             clock down, sampled every 10 ms through long runs: the mma.sync ceiling loop,
#             mma_pipelined alone at 4096 and 8192, CUTLASS's sm80 GEMM and wgmma_persistent at
#             8192, mma_pipelined with cuBLAS in pairs -> OUT_DIR/power.txt (power-phases.py),
#             power-samples.csv, power-runs.txt
#   anchorprofile (by name) ncu's tensor pipe and clock for CUTLASS's sm80 GEMM (its first shape)
#             and mma_pipelined, at 4096 and 8192 -> OUT_DIR/anchor-profile.txt
#   sustained (by name) the same ncu measures of one launch late in a long run (the SM's own
#             cycle count: the clock a kernel keeps at the power limit), for the mma.sync ceiling
#             loop, mma_pipelined at 4096 and 8192 and CUTLASS at 8192 -> OUT_DIR/sustained.txt
#   source    (by name) ncu's warp-stall samples of each SASS instruction of mma_pipelined at
#             4096 -> OUT_DIR/source-sass.csv.gz (lab/12_cuda_tensor_cores/source-stalls.py sums them)
# The reference results in results/h200/2026-11-29-mma/ were made with this script.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
out=${1:-results/local}
shift || true
parts=${*:-peak check time profile sanitize}
mkdir -p "$out"
make -s -j"$(nproc)" stage09 stage12 build/peak_gpu || exit 1
bin=12_cuda_tensor_cores/cuda_tensor_cores
has() { [[ " $parts " == *" $1 "* ]]; }
fail=0
run() { echo "+ $*"; "$@" || { echo "FAILED ($?): $*"; fail=1; }; }

if has peak; then
    nvidia-smi --query-gpu=name,power.limit,clocks.max.sm,clocks.sm --format=csv >"$out/gpu.txt"
    build/peak_gpu --csv "$out/peak.csv" | tee "$out/peak.txt"
fi

if has check; then
    {
        tune=$($bin --tune --list | awk '/^pipelined\//{print $1}' | paste -sd,)
        s1=127,128,129,255x257x17,1x300x9,300x1x17,2x2x1,64x64x5,65x65x65,1000x1001x999,2049x2049x100
        s2=256,383x129x250,200x520x72
        run $bin --variant mma_pipelined --no-baseline --reps 1 --sizes $s1 --beta 0.5
        run $bin --variant mma_pipelined --no-baseline --reps 1 --sizes $s2 --pad 1 --alpha 2
        run $bin --fp16 --variant all --no-baseline --reps 1 --sizes $s1 --beta 0.5
        run $bin --fp16 --variant all --no-baseline --reps 1 --sizes $s2 --pad 3 --alpha -2
        run $bin --fp16 --variant all --reps 1 --sizes 300x700x4111,4097 --beta -1
        run $bin --tune --variant "$tune" --no-baseline --reps 1 --sizes 1,33,129x131x67,300x257x513,1100x1030x70 --beta 0.5 --pad 3
        run $bin --variant mma_pipelined --no-baseline --reference unrounded --reps 1 --sizes 1024
        echo "+ the T4's gate: GEMM_CUDA_CC=75 (mma_sm75 runs, mma_pipelined exits 77)"
        GEMM_CUDA_CC=75 $bin --fp16 --variant all --no-baseline --reps 1 --sizes 129x131x67
        GEMM_CUDA_CC=75 $bin --fp16 --variant mma_pipelined --no-baseline --reps 1 --sizes 64
        echo "exit status $? (77 expected)"
    } > >(tee "$out/check.log") 2>&1
fi

if has time; then
    rm -f "$out"/12_mma.csv "$out"/12_mma_tune.csv "$out"/12_fp16.csv
    tune=$($bin --tune --list | awk '/^pipelined\//{print $1}' | paste -sd,)
    for round in 1 2; do
        run $bin --variant mma_ldmatrix,mma_pipelined,wgmma_persistent --sizes 4096,8192,4097 --csv "$out/12_mma.csv"
    done
    run $bin --tune --variant "$tune" --sizes 4096,8192 --csv "$out/12_mma_tune.csv"
    run $bin --fp16 --variant all --sizes 4096,8192,4097 --csv "$out/12_fp16.csv"
fi

if has profile; then
    rm -f "$out/profile.csv"
    for v in $(09_cuda_registers/cuda_registers --list | awk '{print $1}'); do
        run scripts/profile.sh --csv "$out/profile.csv" 09 "$v" 4096
    done
    for v in wmma mma_ldmatrix mma_pipelined wgmma_tma wgmma_ws wgmma_persistent; do
        run scripts/profile.sh --csv "$out/profile.csv" 12 "$v" 4096
    done
    run scripts/profile.sh --csv "$out/profile.csv" 12 mma_sm75 4096 --fp16
fi

if has diagnose; then # where mma_pipelined's time goes: profiles at two sizes, K from 1024 to
    # 16384 at 4096 x 4096 (the prologue and epilogue's share), clocks and power during 8192s
    rm -f "$out/diagnose.csv"
    for v in mma_ldmatrix mma_pipelined wgmma_persistent; do
        run scripts/profile.sh --csv "$out/diagnose.csv" 12 "$v" 4096
    done
    run scripts/profile.sh --csv "$out/diagnose.csv" 12 mma_pipelined 8192
    run $bin --variant mma_pipelined --no-baseline --sizes 4096x4096x1024,4096x4096x4096,4096x4096x16384,8192x8192x1024 --csv "$out/kscale.csv"
    nvidia-smi dmon -s pc -d 1 >"$out/dmon.txt" &
    dmon=$!
    run $bin --variant mma_pipelined,wgmma_persistent --sizes 8192 --reps 400 --no-check
    kill $dmon
fi

if has anchor; then
    {
        if [ -x build/anchor/cutlass_sm80 ]; then
            for n in 4096 8192; do
                for round in 1 2; do
                    run build/anchor/cutlass_sm80 $n 20
                    run $bin --variant mma_pipelined --no-baseline --no-check --sizes $n --reps 20
                done
            done
        else
            echo "anchor: build/anchor/cutlass_sm80 not built (lab/12_cuda_tensor_cores/anchor/build.sh)"
        fi
    } > >(tee "$out/anchor.txt") 2>&1
fi

if has power; then # where the clock settles under the power limit, run by run
    r=clocks_event_reasons
    # the newest field names first; a driver that lacks one refuses the whole query
    for q in power.draw.instant,$r.sw_power_cap,$r.hw_slowdown,$r.sw_thermal_slowdown,$r.hw_thermal_slowdown \
             power.draw,$r.sw_power_cap,$r.hw_slowdown,$r.sw_thermal_slowdown,$r.hw_thermal_slowdown \
             power.draw,clocks_throttle_reasons.sw_power_cap,clocks_throttle_reasons.hw_slowdown \
             power.draw; do
        nvidia-smi --format=csv,noheader,nounits --query-gpu=timestamp,clocks.sm,$q >/dev/null 2>&1 && break
    done
    echo "power: sampling timestamp,clocks.sm,$q"
    nvidia-smi --format=csv,noheader,nounits -lms 10 --query-gpu=timestamp,clocks.sm,$q >"$out/power-samples.csv" &
    smi_pid=$!
    marks=$out/power-marks.txt
    : >"$marks"
    mark() { echo "$(date '+%Y/%m/%d %H:%M:%S.%3N') $*" >>"$marks"; }
    phase() { # NAME [LAST] -- command: two idle seconds, then the command between marks
        local name=$1 last=
        shift
        [ "$1" != -- ] && { last=$1; shift; }
        shift
        sleep 2
        mark start "$name" $last
        run "$@"
        mark end "$name"
    }
    {
        sleep 1
        phase ceiling_loop 1.6 -- build/peak_gpu
        phase pipelined_8192_alone -- $bin --variant mma_pipelined --no-baseline --no-check --sizes 8192 --reps 800
        phase pipelined_4096_alone -- $bin --variant mma_pipelined --no-baseline --no-check --sizes 4096 --reps 6000
        if [ -x build/anchor/cutlass_sm80 ]; then
            phase cutlass_8192_alone -- build/anchor/cutlass_sm80 8192 600
        fi
        phase wgmma_persistent_8192_alone -- $bin --variant wgmma_persistent --no-baseline --no-check --sizes 8192 --reps 800
        phase pipelined_8192_with_cublas -- $bin --variant mma_pipelined --no-check --sizes 8192 --reps 400
        sleep 1
    } >"$out/power-runs.txt" 2>&1
    kill $smi_pid
    python3 lab/12_cuda_tensor_cores/power-phases.py "$out/power-samples.csv" "$marks" >"$out/power.txt" || fail=1
    cat "$out/power.txt"
fi

if has anchorprofile; then # the tensor pipe's share of the cycles and the clock, CUTLASS beside ours
    [ -x build/anchor/cutlass_sm80 ] || { echo "anchorprofile: build/anchor/cutlass_sm80 not built (lab/12_cuda_tensor_cores/anchor/build.sh)"; fail=1; }
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    m=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum
    {
        for n in 4096 8192; do
            run "$ncu" --clock-control none --metrics $m -k regex:Kernel -c 1 build/anchor/cutlass_sm80 $n 1
            run "$ncu" --clock-control none --metrics $m -k regex:pipelined_kernel -c 1 $bin \
                --variant mma_pipelined --no-baseline --no-check --sizes $n --reps 1
        done
    } > >(tee "$out/anchor-profile.txt") 2>&1
fi

if has sustained; then # ncu lets the first launches run unprofiled, then measures one
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    m=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum
    prof() { run "$ncu" --clock-control none --metrics $m -k regex:"$1" --launch-skip "$2" -c 1 "${@:3}"; }
    {
        prof ^mma_peak_kernel 60 build/peak_gpu # the BF16 loop's 61st run: 0.5 s into it
        prof pipelined_kernel 700 $bin --variant mma_pipelined --no-baseline --no-check --sizes 8192 --reps 800
        prof pipelined_kernel 5000 $bin --variant mma_pipelined --no-baseline --no-check --sizes 4096 --reps 6000
        [ -x build/anchor/cutlass_sm80 ] && prof Kernel 500 build/anchor/cutlass_sm80 8192 600
    } > >(tee "$out/sustained.txt") 2>&1
fi

if has source; then # the SASS page: one row an instruction, the stall samples of each reason
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    rep=$(mktemp -d)/source
    run "$ncu" --clock-control none --section SourceCounters --section WarpStateStats \
        -k regex:pipelined_kernel -c 1 -o "$rep" $bin --variant mma_pipelined --sizes 4096 \
        --reps 1 --no-baseline --no-check
    "$ncu" -i "$rep.ncu-rep" --page source --csv --print-source sass | gzip >"$out/source-sass.csv.gz"
fi

if has sanitize; then
    cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    {
        for tool in memcheck racecheck; do
            run "$cs" --tool $tool --error-exitcode 1 $bin --variant mma_pipelined --no-baseline --reps 1 --sizes 256x256x128,129x131x67 --pad 8 --beta 0.5
            run "$cs" --tool $tool --error-exitcode 1 $bin --fp16 --variant all --no-baseline --reps 1 --sizes 256x256x128,129x131x67 --pad 1 --beta 0.5
        done
    } > >(tee "$out/sanitize.log") 2>&1
fi
wait # the tee of the last part, if any, before the verdict
echo "bench-mma: done, $([ $fail = 0 ] && echo "every command passed" || echo "SOME COMMAND FAILED")"
exit $fail

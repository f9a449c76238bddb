#!/usr/bin/env bash
# lab/06_strassen/bench.sh: the measurements chapter 06 quotes.
#
#   lab/06_strassen/bench.sh [MACHINE [PART...]]     MACHINE: results folder (default xeon-2c)
#   PART: headline crossover errors breakdown fold (default: all of them, in that order)
#
#   headline   every variant against classic, timed alternately, 2 threads, 2048 4096 8192
#                -> results/MACHINE/06_strassen.csv
#   crossover  one level forced (--cutoff 2) from 512 to 4096: where it starts to pay; the
#              size from which it does is strassen_default_cutoff in strassen.c
#                -> results/MACHINE/06_strassen/crossover.csv
#   errors     every variant, normwise error in units of (K+2)u max(|A||B|) (--errors)
#                -> results/MACHINE/06_strassen/errors.csv
#   breakdown  how much of each variant's time the additions (or reloaded's packing) take
#                -> results/MACHINE/06_strassen/breakdown.csv
#   fold       the three ways reloaded_* can add a product to several quadrants of C
#                -> results/MACHINE/06_strassen/fold.csv
#
# Each part deletes its CSV first (the harness appends), then runs REPEAT times (default 3;
# errors and breakdown once), at different moments: report.py takes the median over the
# runs, and shows their spread. Every timing run takes the benchmark lock
# (scripts/bench-lock), then waits, holding it, until the machine has been idle for three
# seconds: on a shared machine, builds and test runs are not under the lock, and a
# 2-thread benchmark that shares the two cores with them measures them, not itself.
# `lab/06_strassen/tables.py` turns the CSVs into the chapter's tables and two charts.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Inside the lock: wait (at most QUIET_MAX seconds, default 300) for 3 consecutive seconds
# with both CPUs at least 95% idle, then run the command.
if [ "${1:-}" = --when-quiet ]; then
    shift
    max=${QUIET_MAX:-300} start=$(date +%s) ok=0
    while [ "$ok" -lt 3 ]; do
        read -r _ u n s i w x y z _ </proc/stat
        t1=$((u + n + s + i + w + x + y + z)) i1=$((i + w))
        sleep 1
        read -r _ u n s i w x y z _ </proc/stat
        t2=$((u + n + s + i + w + x + y + z)) i2=$((i + w))
        idle=$((100 * (i2 - i1) / (t2 - t1 > 0 ? t2 - t1 : 1)))
        if [ "$idle" -ge 95 ]; then ok=$((ok + 1)); else ok=0; fi
        if [ $(($(date +%s) - start)) -gt "$max" ]; then
            echo "bench.sh: the machine was never idle for 3 s in ${max} s; measuring anyway" >&2
            break
        fi
    done
    echo "+ $* ($(date -u +%H:%M:%SZ))" >&2
    exec "$@"
fi

machine=${1:-xeon-2c}
shift || true
parts=${*:-headline crossover errors breakdown fold}
repeat=${REPEAT:-3}
out=results/$machine
extra=$out/06_strassen
bin=06_strassen/strassen
mkdir -p "$extra"
make -s stage06

lock=scripts/bench-lock # re-entrant: under `scripts/bench-lock lab/06_strassen/bench.sh` too
quiet_then_lock() { $lock "$0" --when-quiet "$@"; }

for part in $parts; do
    case $part in
    headline)
        rm -f "$out/06_strassen.csv"
        # 8192 apart: ~4 s per call, and a short run is less likely to be disturbed
        for _ in $(seq "$repeat"); do
            quiet_then_lock "$bin" --threads 2 --sizes 2048,4096 --vs classic --reps 7 \
                --csv "$out/06_strassen.csv"
            quiet_then_lock "$bin" --threads 2 --sizes 8192 --vs classic --reps 3 \
                --csv "$out/06_strassen.csv"
        done
        ;;
    crossover)
        rm -f "$extra/crossover.csv"
        for _ in $(seq "$repeat"); do
            quiet_then_lock "$bin" --threads 2 --cutoff 2 \
                --sizes 512,1024,1536,2048,2560,3072,3584,4096 \
                --variant strassen_1lvl,winograd_1lvl,reloaded_1lvl --vs classic --reps 7 \
                --csv "$extra/crossover.csv"
        done
        ;;
    errors)
        rm -f "$extra/errors.csv"
        quiet_then_lock "$bin" --errors --threads 2 --cutoff 64 --no-baseline --reps 1 \
            --sizes 128,256,512,1024,2048,4096 --csv "$extra/errors.csv"
        ;;
    breakdown)
        rm -f "$extra/breakdown.csv"
        # --cutoff 1024: two levels at 4096 too, to see what the second level costs there
        quiet_then_lock "$bin" --breakdown --threads 2 --cutoff 1024 --sizes 4096,8192 \
            --variant classic,reloaded_0lvl,strassen_1lvl,winograd_1lvl,reloaded_1lvl,strassen_2lvl,winograd,reloaded_2lvl,hybrid_2lvl \
            --reps 3 --csv "$extra/breakdown.csv"
        ;;
    fold)
        rm -f "$extra/fold.csv"
        for _ in $(seq "$repeat"); do
            # --cutoff 1024: reloaded_2lvl takes its two levels at 4096 (2048 -> 1024)
            for mode in last every none; do
                quiet_then_lock "$bin" --fold-c "$mode" --threads 2 --cutoff 1024 --sizes 4096 \
                    --vs classic --variant reloaded_1lvl,reloaded_2lvl --reps 5 \
                    --csv "$extra/fold.csv"
            done
        done
        ;;
    *)
        echo "bench.sh: unknown part '$part' (headline crossover errors breakdown fold)" >&2
        exit 2
        ;;
    esac
done

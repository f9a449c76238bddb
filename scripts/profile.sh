#!/usr/bin/env bash
# scripts/profile.sh: one GPU variant under Nsight Compute, the few numbers the chapters reason
# with, a line each (make profile STAGE=NN VARIANT=name [SIZE=n] [OPTS="--fp16"] runs it).
#
#   scripts/profile.sh [--csv FILE] NN VARIANT [SIZE] [STAGE OPTIONS...]
#
# Runs the stage's program once (--variant VARIANT --sizes SIZE --reps 1 --no-baseline) under
# ncu with a fixed set of metrics, takes the longest kernel it launched (the GEMM, not the small
# kernels around it: aligned copies, C = beta C) and prints:
#   time                 the kernel's duration under the profiler (clocks left as they are)
#   achieved occupancy   warps resident on an SM, of the most it can hold
#   shared bank conflicts  extra shared-memory wavefronts from bank conflicts, of all of them
#   shared-memory pipe   wavefronts (128 bytes each: ldmatrix, cp.async's stores, ld/st.shared)
#                        of the SM's active cycles: it moves at most one a cycle
#   L2, DRAM throughput  of their peaks
#   tensor pipe          cycles the tensor cores were busy, of the SM's active cycles (each
#                        of the pipes ncu names: hmma for mma.sync, gmma for wgmma)
#   SM clock, SM throughput  the clock the kernel ran at; the busiest of the SM's units
#   issue stalls         the three largest reasons a warp waited, in cycles per instruction
# --csv FILE appends them (stage,variant,size,device,metric,value,unit,date,commit): the small
# CSVs of results/ that the chapters cite. SIZE: N or MxNxK (default 4096). PROFILE_RAW=FILE keeps
# ncu's whole raw page (every metric of its sections) in FILE.
# Exit status: 0; 2 bad usage; 77 where ncu or a GPU is missing (one line says which).
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C

usage() { echo "usage: scripts/profile.sh [--csv FILE] NN VARIANT [SIZE] [STAGE OPTIONS...]" >&2; exit 2; }
csv=
if [ "${1:-}" = --csv ]; then
    [ $# -ge 2 ] || usage
    csv=$2
    shift 2
fi
[ $# -ge 2 ] || usage
nn=$1 variant=$2
shift 2
size=4096
if [ $# -ge 1 ] && [[ $1 != -* ]]; then
    size=$1
    shift
fi
[[ $nn =~ ^[0-9]{1,2}$ ]] || { echo "profile: stage '$nn' is not a number (07, 12 ...)" >&2; exit 2; }
nn=$(printf '%02d' "$((10#$nn))")
[[ $size =~ ^[0-9]+(x[0-9]+x[0-9]+)?$ ]] || { echo "profile: size '$size' is neither N nor MxNxK" >&2; exit 2; }
dir=$(ls -d "${nn}"_*/ 2>/dev/null | head -n1)
dir=${dir%/}
[ -n "$dir" ] || { echo "profile: no stage $nn" >&2; exit 2; }
[ -f "$dir/main.cu" ] || { echo "profile: stage $dir runs on the CPU; make profile is for the GPU stages (07-13)" >&2; exit 2; }
bin=$dir/${dir#*_}
python=$(scripts/find-python.sh 2>/dev/null) || { echo "profile: no python3 found: skipped"; exit 77; }

ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -n1)
if [ -z "$ncu" ]; then
    echo "profile: Nsight Compute (ncu) is not installed: skipped"
    exit 77
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "profile: no NVIDIA GPU or driver found: skipped"
    exit 77
fi
make -s "stage$nn" >/dev/null || { echo "profile: make stage$nn failed" >&2; exit 1; }
# the variant must exist: the program says so in one line (exit 2) or that the GPU lacks it (77)
"$bin" "$@" --variant "$variant" --list >/dev/null || exit $?

tmp=$(mktemp -d "${TMPDIR:-/tmp}/profile.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
sections="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats"
sections+=" --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables"
echo "profile: $bin $* --variant $variant --sizes $size under ncu (a minute or so)" >&2
# shellcheck disable=SC2086 # the sections are words
if ! "$ncu" --clock-control none --target-processes all $sections --csv --page raw \
        "$bin" "$@" --variant "$variant" --sizes "$size" --reps 1 --no-baseline --no-check \
        >"$tmp/raw.csv" 2>"$tmp/err"; then
    if grep -qi "ERR_NVGPUCTRPERM" "$tmp/err" "$tmp/raw.csv"; then
        echo "profile: this user may not read the GPU's counters (ERR_NVGPUCTRPERM): skipped"
        exit 77
    fi
    # the program's own one line where this GPU lacks what the variant needs (its exit 77)
    if why=$(grep -h -m1 "which this machine lacks: skipped\|not on this GPU" "$tmp/raw.csv" "$tmp/err"); then
        echo "profile: ${why#*: }"
        exit 77
    fi
    echo "profile: ncu failed:" >&2
    tail -n 5 "$tmp/err" "$tmp/raw.csv" >&2
    exit 1
fi
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
commit=${GIT_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)} # as the Makefile has it
[ -n "${PROFILE_RAW:-}" ] && cp "$tmp/raw.csv" "$PROFILE_RAW" # every metric ncu gave, for a closer look
"$python" - "$tmp/raw.csv" "$dir" "$variant" "$size" "$device" "$commit" "$csv" <<'EOF'
import csv, datetime, os, sys
raw, stage, variant, size, device, commit, out = sys.argv[1:8]
rows = [r for r in csv.reader(l for l in open(raw) if l.startswith('"'))]
if len(rows) < 3:
    sys.exit("profile: ncu measured no kernel")
head, units, data = rows[0], rows[1], rows[2:]
col = {n: i for i, n in enumerate(head)}
def num(r, n):
    try:
        return float(r[col[n]].replace(',', ''))
    except (KeyError, ValueError):
        return None
gemm = max(data, key=lambda r: num(r, 'gpu__time_duration.sum') or 0)
unit = units[col['gpu__time_duration.sum']]
t = num(gemm, 'gpu__time_duration.sum') * {'nsecond': 1e-3, 'ns': 1e-3, 'usecond': 1, 'us': 1,
                                           'msecond': 1e3, 'ms': 1e3}.get(unit, 1)
kernel = gemm[col['Kernel Name']] if 'Kernel Name' in col else '?'
def first(*names):
    for n in names:
        v = num(gemm, n)
        if v is not None:
            return v
    return None
def total(prefix, ops=('ld', 'st')):
    vals = [num(gemm, f'{prefix}_op_{o}.sum') for o in ops]
    vals = [v for v in vals if v is not None]
    return sum(vals) if vals else None
conf = total('l1tex__data_bank_conflicts_pipe_lsu_mem_shared')
waves = total('l1tex__data_pipe_lsu_wavefronts_mem_shared')
active = first('sm__cycles_active.avg')
sms = first('device__attribute_multiprocessor_count', 'launch__sm_count')
clocks = ('gpc__cycles_elapsed.avg.per_second', 'sm__cycles_elapsed.avg.per_second',
          'smsp__cycles_elapsed.avg.per_second')
clock = first(*clocks)
cscale = {'cycle/nsecond': 1e3, 'cycle/usecond': 1, 'cycle/second': 1e-6, 'hz': 1e-6, 'khz': 1e-3,
          'mhz': 1, 'ghz': 1e3}
if clock is not None:
    for n in clocks:
        if n in col:
            clock *= cscale.get(units[col[n]].lower(), 1e-6)
            break
pfx, sfx = 'smsp__average_warps_issue_stalled_', '_per_issue_active.ratio'
stalls = sorted(((num(gemm, n), n[len(pfx):-len(sfx)]) for n in head
                 if n.startswith(pfx) and n.endswith(sfx) and 'not_issued' not in n), reverse=True)
stalls = [(v, n) for v, n in stalls if v is not None and n != 'selected'][:3]
tensor = [(n, num(gemm, n)) for n in head
          if n.startswith('sm__pipe_tensor') and n.endswith('cycles_active.avg.pct_of_peak_sustained_active')]
tensor = [(n, v) for n, v in tensor if v]
out_rows = [('time', t, 'us'),
            ('sm_clock', clock, 'MHz'),
            ('sm_throughput', first('sm__throughput.avg.pct_of_peak_sustained_elapsed'), '% of peak'),
            ('achieved_occupancy', first('sm__warps_active.avg.pct_of_peak_sustained_active'), '%'),
            ('shared_bank_conflicts', 100.0 * conf / waves if conf is not None and waves else None, '% of wavefronts'),
            ('shared_pipe', 100.0 * waves / (active * sms) if waves and active and sms else None,
             '% of active cycles'),
            ('l2_throughput', first('lts__throughput.avg.pct_of_peak_sustained_elapsed',
                                    'lts__t_sectors.avg.pct_of_peak_sustained_elapsed'), '% of peak'),
            ('dram_throughput', first('dram__throughput.avg.pct_of_peak_sustained_elapsed',
                                      'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed'), '% of peak')]
def pipe(n):
    p = n[len('sm__pipe_tensor'):-len('cycles_active.avg.pct_of_peak_sustained_active')].strip('_')
    return {'': 'all', 'op_hmma': 'hmma', 'op_gmma': 'gmma'}.get(p, p)
out_rows += [('tensor_pipe_' + pipe(n), v, '% of active cycles') for n, v in tensor]
out_rows += [('stall_' + n, v, 'cycles per instruction') for v, n in stalls]
short = kernel if len(kernel) < 60 else kernel[:57] + '...'
print(f"{stage} {variant} {size} on {device}: kernel {short}")
labels = {'time': 'time under the profiler', 'sm_clock': 'SM clock',
          'sm_throughput': 'SM throughput', 'achieved_occupancy': 'achieved occupancy',
          'shared_bank_conflicts': 'shared bank conflicts', 'shared_pipe': 'shared-memory pipe',
          'l2_throughput': 'L2 throughput',
          'dram_throughput': 'DRAM throughput'}
for m, v, u in out_rows:
    if v is None:
        continue
    label = labels.get(m) or (('stall: ' + m[len('stall_'):]) if m.startswith('stall_')
                              else 'tensor pipe (' + m[len('tensor_pipe_'):] + ')')
    print(f"  {label:<28} {v:10.2f} {u}" + (f"  ({conf:.0f} of {waves:.0f})" if m == 'shared_bank_conflicts' else ''))
if out:
    new = not os.path.exists(out) or os.path.getsize(out) == 0
    date = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')
    with open(out, 'a', newline='') as f:
        w = csv.writer(f)
        if new:
            w.writerow(['stage', 'variant', 'size', 'device', 'metric', 'value', 'unit', 'date', 'commit'])
        for m, v, u in out_rows:
            if v is not None:
                w.writerow([stage, variant, size, device, m, f"{v:.3f}", u, date, commit])
    print(f"appended to {out}")
EOF

#!/usr/bin/env python3
"""power-phases.py SAMPLES MARKS: the SM clock and the board's power through each run of
bench-mma.sh power, from nvidia-smi's samples (SAMPLES: its CSV, a row every 10 ms) and the
script's marks (MARKS: 'start NAME' and 'end NAME' lines, each after a timestamp of the same form
as nvidia-smi's, 'YYYY/MM/DD HH:MM:SS.mmm'). SAMPLES may be gzipped (.gz).

For each run: the median clock and power over its steady part, the share of those samples in which the driver held the clock down for power (the
'SW power cap' reason) or for heat, and the same figures in 100 ms bins, so that a student sees
when the clock settles. A run may name a window of its own, 'start NAME LAST' (seconds): only
its last LAST seconds, less the final 0.35 (the program's exit), count (build/peak_gpu's mma.sync
loops are the last ~1.8 s of that program). Without one, the steady part runs from 200 ms after the first sample
that draws at least half the run's highest power to the last such sample: the program's own
setup on the host (random matrices of 8192^2) draws idle power and stays out."""
import datetime, gzip, statistics, sys

if len(sys.argv) != 3:
    sys.stderr.write("usage: power-phases.py SAMPLES MARKS\n")
    sys.exit(2)

def when(s):
    return datetime.datetime.strptime(s.strip(), '%Y/%m/%d %H:%M:%S.%f').timestamp()

try:
    opener = gzip.open if sys.argv[1].endswith('.gz') else open
    rows = [l.split(',') for l in opener(sys.argv[1], 'rt') if l.strip() and not l.startswith('timestamp')]
    marks = [l.split() for l in open(sys.argv[2]) if l.strip()]
except OSError as e:
    sys.stderr.write(f"power-phases.py: {e.filename or sys.argv[1]}: {e.strerror or e}\n")
    sys.exit(2)
except UnicodeDecodeError:
    sys.stderr.write("power-phases.py: not text (a gzipped file must end in .gz)\n")
    sys.exit(2)
samples = []
for r in rows:
    try: # timestamp, clocks.sm [MHz], power.draw [W], then the reasons (Active / Not Active)
        samples.append((when(r[0]), float(r[1]), float(r[2]), [x.strip() == 'Active' for x in r[3:]]))
    except (ValueError, IndexError):
        continue # a field the driver could not read ([N/A]) or a line cut short
if not samples:
    sys.stderr.write(f"power-phases.py: {sys.argv[1]}: no samples (timestamp, clocks.sm, power.draw, ...)\n")
    sys.exit(2)

runs, open_runs = [], {}
for m in marks:
    try:
        t, what, name = when(' '.join(m[:2])), m[2], m[3]
        last = float(m[4]) if what == 'start' and len(m) > 4 else None
    except (ValueError, IndexError):
        sys.stderr.write(f"power-phases.py: {sys.argv[2]}: not a mark: {' '.join(m)}\n")
        sys.exit(2)
    if what == 'start':
        open_runs[name] = (t, last)
    elif what == 'end' and name in open_runs:
        t0, last = open_runs.pop(name)
        runs.append((name, t0, t, last))
if not runs:
    sys.stderr.write(f"power-phases.py: {sys.argv[2]}: no run with a start and an end mark\n")
    sys.exit(2)

def share(ss, pick): # the share of samples with a reason active, or '-' where none was sampled
    if not any(s[3] for s in ss):
        return '-'
    return f"{100 * sum(pick(s[3]) for s in ss if s[3]) / len(ss):.0f}%"

def line(label, ss):
    clocks, watts = [s[1] for s in ss], [s[2] for s in ss]
    return (f"{label:<34} {len(ss):4d} {statistics.median(clocks):6.0f} {min(clocks):6.0f}"
            f" {max(clocks):6.0f} {statistics.median(watts):6.0f} {share(ss, lambda r: r[0]):>7}"
            f" {share(ss, lambda r: any(r[1:])):>6}")

head = f"{'run (steady part)':<34} {'n':>4} {'MHz':>6} {'min':>6} {'max':>6} {'W':>6} {'capped':>7} {'heat':>6}"
print("clock and power a run, medians of nvidia-smi's samples; capped: the driver's 'SW power cap'")
print("reason active; heat: a thermal or hardware slowdown reason active")
print(head)
for name, t0, t1, last in runs:
    if last:
        lo, hi = t1 - last, t1 - 0.35
    else:
        inside = [s for s in samples if t0 <= s[0] <= t1]
        top = max((s[2] for s in inside), default=0)
        busy = [s[0] for s in inside if s[2] >= top / 2]
        lo, hi = (busy[0] + 0.2, busy[-1]) if busy else (t0, t1)
    ss = [s for s in samples if lo <= s[0] <= hi]
    print(line(name, ss) if ss else f"{name:<34} no samples")
for name, t0, t1, last in runs:
    print(f"\n{name}: 100 ms bins from its start (bin's start in s, median MHz, median W, capped share)")
    t = t0
    while t < t1:
        ss = [s for s in samples if t <= s[0] < t + 0.1]
        if ss:
            print(f"  {t - t0:5.1f} {statistics.median(s[1] for s in ss):6.0f}"
                  f" {statistics.median(s[2] for s in ss):6.0f} {share(ss, lambda r: r[0]):>5}")
        t += 0.1

#!/usr/bin/env python3
"""source-stalls.py FILE [N]: where the warps of one kernel wait, from ncu's SASS page
(bench-mma.sh source writes it: ncu --page source --csv --print-source sass, gzipped or not).

Prints the stall reasons summed over every instruction, the samples by opcode, and the N
instructions (default 25) with the most samples, each with its largest reasons. A sample is one
warp seen waiting (or issuing: 'selected') at that instruction."""
import collections, csv, gzip, re, sys

if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and not sys.argv[2].isdigit()):
    sys.stderr.write("usage: source-stalls.py FILE [N]\n")
    sys.exit(2)
path, top = sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 25
try:
    opener = gzip.open if path.endswith('.gz') else open
    rows = list(csv.reader(opener(path, 'rt')))
except OSError as e:
    sys.stderr.write(f"source-stalls.py: {path}: {e.strerror or e}\n")
    sys.exit(2)
hi = next((i for i, r in enumerate(rows) if 'Source' in r and 'Address' in r), None)
if hi is None:
    sys.stderr.write(f"source-stalls.py: {path} is not ncu's source page (no Address, Source columns)\n")
    sys.exit(2)
head, data = rows[hi], rows[hi + 1:]
col = {n: i for i, n in enumerate(head)}
reasons = [n for n in head if n.startswith('stall_') and '(Not Issued)' not in n]
ALL = 'Warp Stall Sampling (All Samples)'

def num(r, n):
    try:
        return float(r[col[n]])
    except (KeyError, IndexError, ValueError):
        return 0.0

total, by_reason, by_op, per = 0.0, collections.Counter(), collections.Counter(), []
for r in data:
    src = r[col['Source']].strip()
    op = re.sub(r'^@!?U?P\w+\s+', '', src).split(' ')[0].split('.')[0]
    s = num(r, ALL)
    total += s
    by_op[op] += s
    mine = {n[len('stall_'):]: num(r, n) for n in reasons}
    for n, v in mine.items():
        by_reason[n] += v
    per.append((s, r[col['Address']][-5:], src, mine))
if not total:
    sys.exit("source-stalls.py: no samples in " + path)
print(f"{total:.0f} samples")
print("by reason:")
for n, v in by_reason.most_common(10):
    print(f"  {n:22s} {v:8.0f} {100 * v / total:5.1f}%")
print("by opcode:")
for n, v in by_op.most_common(8):
    print(f"  {n:22s} {v:8.0f} {100 * v / total:5.1f}%")
print(f"the {top} instructions with the most samples (address, share, SASS, largest reasons):")
for s, a, src, mine in sorted(per, key=lambda x: -x[0])[:top]:
    big = ' '.join(f"{k}={v:.0f}" for k, v in sorted(mine.items(), key=lambda x: -x[1])[:2] if v)
    print(f"  {a} {100 * s / total:5.1f}%  {src[:58]:58s} {big}")

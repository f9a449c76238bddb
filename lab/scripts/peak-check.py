#!/usr/bin/env python3
"""lab/scripts/peak-check.py PEAK.csv RESULTS.csv...: is the FMA peak measured beside these runs
above every FP32 rate they hold?

A ceiling is the most the machine can do; a kernel (or a library) that runs faster than the
peak measured beside it on the same machine says the peak was measured badly (cores not yet
warm, a passing load), and a chart drawn with it would show a kernel above its roofline. For each row
whose work is FP32 FMAs on the CPU (stages 01-06, stage 14's `simd`, and the FP32 libraries
beside them), at a thread count that build/peak measured (1 and all cores), compares the rate
with the fastest fma_* measure at that thread count. Prints one line per row above it and a
summary; exit 0 either way (the runs themselves are not wrong), 2 for a file plots/reader.py
refuses (one line).
Rows of the tile unit (14's BF16 variants, amx_fp32) and of GPUs are left out: their ceiling is
another unit's."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
from reader import PEAK, RESULT, InputError, read_rows  # noqa: E402  (the charts' own reader)

FP32_STAGES = ("01_", "02_", "03_", "04_", "05_", "06_")


def fp32_rates(row):
    """(what, GFLOP/s) pairs of this row that are FP32 FMA work on the CPU."""
    stage, variant, base = row.get("stage", ""), row.get("variant", ""), row.get("baseline", "")
    out = []
    cpu_fp32 = stage.startswith(FP32_STAGES) or (stage == "14_amx" and variant == "simd")
    if cpu_fp32:
        out.append((variant, row.get("gflops", "")))
    if cpu_fp32 and base and "bf16" not in base.lower():
        out.append((base, row.get("baseline_gflops", "")))
    return [(w, v) for w, v in out if v is not None and v >= 0]


def main(argv):
    if len(argv) < 2:
        print("usage: lab/scripts/peak-check.py PEAK.csv RESULTS.csv...", file=sys.stderr)
        return 2
    try:
        peaks = read_rows(argv[0], PEAK)
        results = [(path, read_rows(path, RESULT)) for path in argv[1:] if os.path.exists(path)]
    except InputError as e:
        print(f"peak-check: {e}", file=sys.stderr)
        return 2
    for path in argv[1:]:
        if not os.path.exists(path):
            print(f"peak check: {path}: not there (a step not run), left out")
    peak = {}
    for r in peaks:
        if r["measure"].startswith("fma_"):
            peak[r["threads"]] = max(peak.get(r["threads"], 0.0), r["value"])
    if not peak:
        print(f"peak check: no FMA rows in {argv[0]}: nothing to compare")
        return 0
    above = checked = 0
    for path, rows in results:
        for row in rows:
            t = row["threads"]
            if t not in peak or row["check"] == "FAIL":
                continue
            for what, rate in fp32_rates(row):
                checked += 1
                if rate > peak[t]:
                    above += 1
                    print(f"peak check: {what} at {row['m']}x{row['n']}x{row['k']} on {t} "
                          f"thread(s) ran {rate:.1f} GFLOP/s, above the FMA peak measured beside "
                          f"it ({peak[t]:.1f}): {os.path.basename(path)}")
    ceilings = ", ".join(f"{v:.1f} on {t}" for t, v in sorted(peak.items()))
    if above:
        print(f"peak check: warning: {above} of {checked} FP32 rates are above the peak "
              f"({ceilings} GFLOP/s): the peak is suspect (measured on cold cores or under "
              "load); measure it again (build/peak) before drawing a roofline with it")
    else:
        print(f"peak check: all {checked} FP32 rates at 1 and all cores are below the peak "
              f"measured beside them ({ceilings} GFLOP/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""readme_progression.py: the README's chapter table against the progression charts it shows.

    python3 tests/readme_progression.py [README.md]

The README shows docs/figures/<machine>/progression.png for some machines. A row of its chapter
table whose headline quotes a rate at the chart's size on one of those machines
("`ikj` 9.3 GFLOP/s at 1024, ..., xeon-2c"; "6.5 TFLOP/s at 4096, ..., H100") must say what the
chart draws for that stage, as plots/plot.py would draw it from results/<machine>/: the same
rate, to the digits the table shows, and the same variant where the table names one (its tile
aside: `unroll_2x4` is the bar unroll_2x4/256). One PASS or FAIL line per row checked; exit 1
if any FAIL, or if no row could be checked.
"""
import io
import os
import re
import sys
from contextlib import redirect_stderr

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "plots"))
import plot  # noqa: E402  (plots/plot.py)

HEADLINE = re.compile(r"(?:`(?P<variant>[\w/]+)` )?(?P<value>[0-9][0-9,]*(?:\.[0-9]+)?) "
                      r"(?P<unit>GFLOP/s|TFLOP/s) at (?P<n>[0-9]+)\b")


def table_rows(text):
    """[(stage, headline)] of the chapter table (its first column a link to NN_topic/)."""
    out = []
    for line in text.splitlines():
        m = re.match(r"\|\s*\[[^\]]*\]\((\d\d_[A-Za-z0-9_]+)/[^)]*\)\s*\|.*\|\s*([^|]*?)\s*\|\s*$", line)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def same(quoted, value):
    """quoted (as the table writes it) equals value rounded to the digits it shows."""
    q = quoted.replace(",", "")
    digits = len(q.split(".")[1]) if "." in q else 0
    return f"{value:.{digits}f}" == f"{float(q):.{digits}f}"


def bars_of(machine):
    """{stage: [(variant, GFLOP/s, n)]}: every bar of the machine's progression charts."""
    folder = os.path.join(ROOT, "results", machine)
    extra = os.path.join(folder, "12_runs", "tf32_time.csv")  # as make plots reads it
    with redirect_stderr(io.StringIO()):  # (plot.py's notes about FAIL rows and shapes)
        results, _ = plot.load([folder] + ([extra] if os.path.exists(extra) else []))
        rows = plot.plottable(results)
    bars = {}
    for _, want, mine in plot.progression_groups(rows, None):
        gpu = plot.is_gpu(mine)
        for _, panel in plot.progression_chart(mine, want, gpu):
            for stage, variant, g, n in plot.progression_bars(panel, want, gpu):
                bars.setdefault(stage, []).append((variant, g, n, want))
    return bars


def main():
    readme = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "README.md")
    text = open(readme, encoding="utf-8").read()
    shown = re.findall(r"docs/figures/([^/)\s]+)/progression\.png", text)
    bad = checked = 0
    cache = {}
    for stage, headline in table_rows(text):
        m = HEADLINE.search(headline)
        machine = headline.rsplit(",", 1)[-1].strip().lower()
        if not m or machine not in shown:
            continue
        if machine not in cache:
            cache[machine] = bars_of(machine)
        scale = 1000.0 if m.group("unit") == "TFLOP/s" else 1.0
        n = int(m.group("n"))
        drawn = [b for b in cache[machine].get(stage, []) if b[2] == n == b[3]]
        what = (f"README {stage}: {m.group('variant') + ' ' if m.group('variant') else ''}"
                f"{m.group('value')} {m.group('unit')} at {n}, {machine}")
        chart = "; ".join(f"{v} {g / scale:.4g}" for v, g, _, _ in drawn) or "no bar at that size"
        ok = any(same(m.group("value"), g / scale) and
                 (not m.group("variant") or v.split("/")[0] == m.group("variant").split("/")[0])
                 for v, g, _, _ in drawn)
        checked += 1
        bad += not ok
        print(f"{'PASS' if ok else 'FAIL'}: {what}; the progression chart draws {chart}")
    if not checked:
        print(f"FAIL: no row of {readme}'s table quotes a rate at a progression chart's size")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

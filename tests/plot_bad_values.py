"""tests/plot_bad_values.py ROOT SCRATCH: every chart script of the repository on CSVs with one
field made absurd, as a user's file might have it (tests/test_plot.sh runs it).

For each script (plots/plot.py, plots/NN_topic.py, lab/*/plot-*.py; not plots/13_distributed.py,
which is being rewritten): a copy of the CSVs it reads, from tests/fixtures/ or results/; in the
CSV it is given, each number column in turn set to -5 and to 1e308 in one row, and the rate it
draws set to 0, -5 and 1e308 in every row; for plots/plot.py also a stage named '../escaped' and an empty stage
(it names its charts after the stage). Each run must end in exit 0 or 77 (a chart, or none drawn
with the reason), or in exit 2 with one line on stderr and nothing on stdout: never a traceback.
A run of exit 0 writes nothing outside its output folder. The scripts run in this one Python (a
process each would take a minute): as `python3 SCRIPT ARGS`, through runpy, their exit status from
SystemExit, their stderr captured.
Prints one PASS: or FAIL: line per script and kind of damage; exits 0.
"""
import contextlib
import csv
import glob
import io
import os
import runpy
import shutil
import sys
import traceback

ROOT, SCRATCH = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "plots"))
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import reader  # noqa: E402



def r(*parts):
    return os.path.join(ROOT, *parts)


# (name, script, the files copied into a folder of their own (sources, from the repository),
#  the one damaged (its name in that folder), the arguments (folder-relative paths filled in))
CASES = [
    ("plot.py", "plots/plot.py", [r("tests/fixtures/results/01_naive.csv"),
                                  r("tests/fixtures/results/peak.csv")],
     "01_naive.csv", ["--out", "{out}", "{dir}"]),
    ("plot.py (peak)", "plots/plot.py", [r("tests/fixtures/results/01_naive.csv"),
                                         r("tests/fixtures/results/peak.csv")],
     "peak.csv", ["--out", "{out}", "{dir}"]),
    ("03_tiling.py", "plots/03_tiling.py", [r("results/xeon-2c/03_tiling.csv")], "03_tiling.csv",
     ["{csv}", "{out}/c.png"]),
    ("04_threads.py", "plots/04_threads.py", [r("tests/fixtures/results/04_threads.csv")],
     "04_threads.csv", ["{csv}", "{out}/c.png"]),
    ("10_cuda_multigpu.py", "plots/10_cuda_multigpu.py", [r("results/h200x4/10_cuda_multigpu.csv")],
     "10_cuda_multigpu.csv", ["{csv}", "{out}/c.png"]),
    ("11_gf256.py", "plots/11_gf256.py", [r("results/xeon-2c/11_gf256.csv")], "11_gf256.csv",
     ["{csv}", "{out}/c.png"]),
    ("14_amx.py", "plots/14_amx.py", [r("results/epyc-zen4-2c/14_amx.csv"),
                                      r("results/epyc-zen4-2c/14_amx_fp32.csv")],
     "14_amx.csv", ["{csv}", "{out}/c.png"]),
    ("14_amx.py (its fp32 CSV)", "plots/14_amx.py", [r("results/epyc-zen4-2c/14_amx.csv"),
                                                     r("results/epyc-zen4-2c/14_amx_fp32.csv")],
     "14_amx_fp32.csv", ["{dir}/14_amx.csv", "{out}/c.png"]),
    ("lab/05_simd/plot-scaling.py", "lab/05_simd/plot-scaling.py",
     [r("results/h100/05_host/05_simd_scaling.csv"), r("results/h100/05_host/04_threads_scaling.csv"),
      r("results/h100/05_host/05_simd_baselines_peak.csv")],
     "05_simd_scaling.csv", ["{dir}", "{out}/c.png"]),
    ("lab/12_cuda_tensor_cores/plot-tf32-error.py", "lab/12_cuda_tensor_cores/plot-tf32-error.py",
     [r("results/epyc-2c/12_runs/tf32_error_emulated.csv")], "tf32_error_emulated.csv",
     ["{csv}", "{out}/c.png"]),
]


def numeric_columns(path):
    schema, _ = reader.read(path, reader.SCHEMAS, need_rows=False)
    header = next(csv.reader(open(path, newline="")))
    return [c for c in header if c in schema.ints or c in schema.floats]


def damaged(src, dst, column, value, every):
    """src with column set to value in its first row, or in every row."""
    with open(src, newline="") as f:
        rows = list(csv.reader(f))
    at = rows[0].index(column)
    for row in rows[1:] if every else rows[1:2]:
        row[at] = value
    with open(dst, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def run(script, args):
    """(exit status, stdout, stderr, traceback or '') of `python3 script args`."""
    out, err = io.StringIO(), io.StringIO()
    argv, path = sys.argv, list(sys.path)
    sys.argv = [script] + args
    status, tb = 0, ""
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # what the command line would show as a traceback, exit 1
        status, tb = 1, traceback.format_exc(limit=-3)
    finally:
        sys.argv, sys.path[:] = argv, path
        plt.close("all")
    return status, out.getvalue(), err.getvalue(), tb


def verdict(status, out, err, tb, outside):
    """'' if the run ended as it should, else what went wrong."""
    if tb:
        return "a traceback: " + tb.strip().splitlines()[-1]
    if outside:
        return "wrote outside its output folder: " + ", ".join(outside)
    if status == 2 and (len(err.splitlines()) != 1 or out):
        return f"exit 2 with {len(err.splitlines())} lines on stderr and {len(out)} bytes on stdout"
    if status not in (0, 2, 77):
        return f"exit {status}: {err.strip()[:160]}"
    return ""


def files_under(folder):
    return {os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs}


n = 0
for name, script, sources, target, argt in CASES:
    missing = [s for s in sources if not os.path.exists(s)]
    if missing:
        print(f"FAIL: {name}: its input {missing[0]} is not in the repository")
        continue
    original = next(s for s in sources if os.path.basename(s) == target)
    numeric = numeric_columns(original)
    damages = [(c, v, False) for c in numeric for v in ("-5", "1e308")]
    rate = next(c for c in ("gflops", "gbps_in", "value", "max_err_ratio") if c in numeric)
    damages += [(rate, v, True) for v in ("0", "-5", "1e308")]
    if script == "plots/plot.py" and target == "01_naive.csv":
        damages += [("stage", "../escaped", False), ("stage", "", False)]
    problems = {}
    for column, value, every in damages:
        n += 1
        case = os.path.join(SCRATCH, f"case{n}")
        folder, out = os.path.join(case, "in"), os.path.join(case, "out")
        os.makedirs(folder)
        os.makedirs(out)
        for s in sources:
            shutil.copy(s, folder)
        damaged(original, os.path.join(folder, target), column, value, every)
        args = [a.format(dir=folder, out=out, csv=os.path.join(folder, target)) for a in argt]
        before = files_under(SCRATCH)
        status, o, e, tb = run(r(script), args)
        after = files_under(SCRATCH)
        outside = sorted(p for p in after - before if not p.startswith(out + os.sep)
                         or os.path.basename(p).startswith("."))  # (a hidden file: a name lost)
        why = verdict(status, o, e, tb, outside)
        if why:
            problems[f"{column}={value!r}{' in every row' if every else ''}"] = why
        shutil.rmtree(case)
    if problems:
        for what, why in problems.items():
            print(f"FAIL: {name}: {what}: {why}")
    else:
        print(f"PASS: {name}: {len(damages)} damaged CSVs (each number column at -5 and 1e308, "
              f"{rate} at 0, -5 and 1e308 in every row{', the stage ../escaped and empty' if script == 'plots/plot.py' and target == '01_naive.csv' else ''}): "
              "exit 0, 2 with one line, or 77, nothing written outside its folder")

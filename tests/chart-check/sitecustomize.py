"""Loaded by every Python that tests/test_run_charts.sh starts (its folder is on PYTHONPATH).
Each figure saved is logged to $CHART_CHECK_LOG as "PATH<TAB>SCRIPT<TAB>EMPTY": SCRIPT is the
program that drew it (sys.argv[0]), EMPTY the titles of the axes that show no data ("-" when
every one does). An axes shows data when it holds a line in data coordinates with points (not a
reference line such as axhline, drawn in axes coordinates), a bar or other patch, a collection
or an image. Independent of plots/: it judges the old scripts' charts and the new alike."""
import os
import sys

try:
    import matplotlib.figure
except ImportError:     # a python3 without matplotlib (scripts/find-python.sh looks further)
    matplotlib = None

if matplotlib and os.environ.get("CHART_CHECK_LOG"):

    def shows_data(ax):
        lines = [ln for ln in ax.lines if ln.get_transform() == ax.transData and len(ln.get_xdata())]
        return bool(lines or ax.patches or ax.collections or ax.images)

    real_savefig = matplotlib.figure.Figure.savefig

    def savefig(fig, fname, *args, **kwargs):
        empty = [f"'{ax.get_title() or 'untitled'}'" for ax in fig.axes if not shows_data(ax)]
        if not fig.axes:
            empty = ["(no axes)"]
        with open(os.environ["CHART_CHECK_LOG"], "a") as log:
            log.write(f"{os.path.abspath(str(fname))}\t{sys.argv[0]}\t{', '.join(empty) or '-'}\n")
        return real_savefig(fig, fname, *args, **kwargs)

    matplotlib.figure.Figure.savefig = savefig

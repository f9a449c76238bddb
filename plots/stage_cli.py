"""stage_cli.py: the command line a stage's own chart shares (plots/NN_topic.py RESULTS.csv OUT.png).

    from stage_cli import run
    if __name__ == "__main__":
        run(main, "plots/03_tiling.py RESULTS.csv OUT.png")

main(src, dst) is called with the two arguments, reads its CSVs through plots/reader.py (the
reader plots/plot.py uses: read_rows(src, RESULT, stage=...)) before it draws anything, and
saves its figure with save(fig, src, dst). Bad input (wrong arguments, a missing, binary, cut
off, empty or damaged CSV, another stage's or another schema's, a required sibling missing) is
one line on stderr and exit status 2, as for every program of this repository, and no chart is
written.

A CSV that lacks what the chart needs (03's without a tile sweep, 04's without 1-thread rows)
would leave a panel empty: save() then writes nothing and exits 77 ("skipped") with the reason,
and `make run` keeps the generic chart that plots/plot.py drew under the same name.
"""
import csv
import os
import subprocess
import sys

from reader import InputError


def pyplot():
    """matplotlib.pyplot on the Agg backend (files, no display); where this python has no
    matplotlib, one line naming one that has it (scripts/find-python.sh) and exit status 2."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        finder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts",
                              "find-python.sh")
        other = subprocess.run([finder], capture_output=True, text=True).stdout.strip()
        print(f"{os.path.basename(sys.argv[0])}: no matplotlib in {sys.executable}"
              + (f"; {other} {' '.join(sys.argv)} draws it" if other else
                 " (scripts/install-deps.sh installs it)"), file=sys.stderr)
        sys.exit(2)


def split_tile(variant):
    """("tiled", 64) from a blocked variant's row name "tiled/64" (03's and 04's tile sweeps);
    ("ikj", None) from "ikj"."""
    name, _, tile = variant.partition("/")
    if tile and not tile.isdigit():
        raise InputError(f"variant {variant!r}: after the / comes a tile size, not {tile!r}")
    return name, int(tile) if tile else None


def passed_square(rows, path):
    """The rows of square problems (m = n = k) that did not FAIL their check; each FAIL row is
    named on stderr."""
    for r in rows:
        if r["check"] == "FAIL":
            print(f"{path}: leaving out a FAIL row of {r['variant']}", file=sys.stderr)
        elif r["m"] == r["n"] == r["k"]:
            yield r


def has_data(ax):
    """True if the axes shows measured data: a line in data coordinates with points, a bar, a
    collection or an image (reference lines such as axhline are in axes coordinates)."""
    lines = [ln for ln in ax.lines if ln.get_transform() == ax.transData and len(ln.get_xdata())]
    return bool(lines or ax.patches or ax.collections or ax.images)


def save(fig, src, dst, **kwargs):
    empty = [ax.get_title() or f"panel {i + 1}" for i, ax in enumerate(fig.axes) if not has_data(ax)]
    if empty:
        print(f"{sys.argv[0]}: {src} has no data for '{empty[0]}': chart not drawn", file=sys.stderr)
        sys.exit(77)
    fig.savefig(dst, **kwargs)
    print(dst)


def run(main, usage):
    """main(src, dst) from the command line; bad input: its one line on stderr, exit status 2."""
    if len(sys.argv) != 3:
        print(f"usage: {usage}", file=sys.stderr)
        sys.exit(2)
    guard(usage.split()[0], main, *sys.argv[1:])


def guard(prog, fn, *args):
    """fn(*args), with bad input reported on one line (prog: ...) and exit status 2."""
    try:
        fn(*args)
    except KeyError as e:
        print(f"{prog}: {args[0]}: no column or value {e}", file=sys.stderr)
        sys.exit(2)
    except (InputError, OSError, ValueError, csv.Error, UnicodeDecodeError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        sys.exit(2)

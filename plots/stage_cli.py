"""stage_cli.py: the command line a stage's own plot.py shares (NN_topic/plot.py RESULTS.csv OUT.png).

    from stage_cli import run
    if __name__ == "__main__":
        run(main, "03_tiling/plot.py RESULTS.csv OUT.png")

Bad input (wrong arguments, a missing or unreadable CSV, a column or value that is not there)
is one line on stderr and exit status 2, as for every program of this repository; main(src, dst)
itself is called with the two arguments, and saves its figure with save(fig, src, dst).

A CSV that lacks what the chart needs (03's without a tile sweep, 04's without 1-thread rows)
would leave a panel empty: save() then writes nothing and exits 77 ("skipped") with the reason,
and `make run` keeps the generic chart that plots/plot.py drew under the same name.
"""
import csv
import sys


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


def log_axes(ax, xs, labels, fontsize=None):
    """Both axes logarithmic (x in powers of two): an x tick at each value measured, written as
    `labels` says (1024, 4K), not at the powers of two between them; y ticks at 1, 2 and 5 of each
    decade, written as numbers (not 4x10^0)."""
    import matplotlib.ticker as ticker
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    if xs:
        ax.set_xticks(xs, labels, fontsize=fontsize)
        ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.yaxis.set_major_locator(ticker.LogLocator(subs=(1, 2, 5)))
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())


def run(main, usage):
    if len(sys.argv) != 3:
        print(f"usage: {usage}", file=sys.stderr)
        sys.exit(2)
    src, dst = sys.argv[1], sys.argv[2]
    try:
        main(src, dst)
    except KeyError as e:
        print(f"{usage.split()[0]}: {src}: no column or value {e}", file=sys.stderr)
        sys.exit(2)
    except (OSError, ValueError, csv.Error, UnicodeDecodeError) as e:
        print(f"{usage.split()[0]}: {e}", file=sys.stderr)
        sys.exit(2)

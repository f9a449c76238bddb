"""chart_style.py: what every chart of this repository draws the same way, for plots/plot.py and
each stage's plots/NN_topic.py.

  Styles     a colour and a dash for each line of an axes that no other line of it shares:
             variants solid, in the ten tab10 colours and then the ten lighter tab20 ones;
             libraries dashed, a colour for each library (OpenBLAS black, BLIS grey, MKL brown,
             cuBLAS black, cuBLASXt grey) and a dash for each of its cores or thread counts.
  size_axis, log_axes  logarithmic axes, whose labels say "(log scale)".
  plot_by_size  a line against n that does not join 1000 to 1024 (a jump on a log axis).
  legend_below  a legend under the axes (below the x axis's label), never over the data.

tests/chart-check judges every chart the test suite draws for the same things (two lines in one
style, a legend over data, a log axis that does not say so).
"""
try:  # (a script that prints a table, 05's and 13's --table, needs log_label and no matplotlib)
    from matplotlib import transforms
    from matplotlib.ticker import (FuncFormatter, LogLocator, NullFormatter, NullLocator,
                                   ScalarFormatter)
except ImportError:
    transforms = None

LOG_SCALE = " (log scale)"

# a variant: solid, these colours in turn (tab10, then tab20's lighter ten)
VARIANT_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
                   "tab:pink", "tab:gray", "tab:olive", "tab:cyan", "#aec7e8", "#ffbb78",
                   "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7", "#dbdb8d",
                   "#9edae5")
# a library: dashed, its family's colour (the name up to the first "-" or "+"), a dash per core
LIBRARY_COLOURS = {"openblas": "black", "blis": "dimgray", "mkl": "saddlebrown",
                   "cublas": "black", "cublasxt": "dimgray", "isa": "black",
                   "classic": "black"}
SPARE_COLOURS = ("darkslateblue", "darkolivegreen", "darkgoldenrod", "darkgray", "rosybrown")
LINE_DASHES = ("-", "--", "-.", ":", (0, (6, 2, 1, 2, 1, 2)), (0, (1, 4)))
LIBRARY_DASHES = LINE_DASHES[1:]


class Styles:
    """The lines of one axes: each call gives {color, linestyle} that no earlier call for this axes
    gave, so no two lines share colour and dash, whatever the names and however many."""

    def __init__(self):
        self.used = set()

    def take(self, colours, dashes, dash_first=False):
        """The first (colour, dash) not yet taken: colour by colour, each in its dashes (or
        dash by dash, each in the colours); past those, any free pair of every colour and dash
        known."""
        pairs = ([(c, d) for d in dashes for c in colours] if dash_first else
                 [(c, d) for c in colours for d in dashes])
        everything = [(c, d) for d in LINE_DASHES for c in VARIANT_COLOURS + SPARE_COLOURS]
        for pair in pairs + everything:
            if pair not in self.used:
                self.used.add(pair)
                return {"color": pair[0], "linestyle": pair[1]}
        raise ValueError("more lines than styles in one axes")

    def variant(self):
        """A measured line: solid in the next free colour (dashed past twenty)."""
        return self.take(VARIANT_COLOURS, LINE_DASHES, dash_first=True)

    def library(self, name):
        """A library's line: its family's colour in the next free dash (then a spare colour)."""
        family = name.lower().replace("+", "-").split("-")[0]
        colour = LIBRARY_COLOURS.get(family)
        return self.take(((colour,) if colour else ()) + SPARE_COLOURS, LIBRARY_DASHES)


def log_label(text):
    """text + " (log scale)", unless it says so already."""
    return text if "log" in text.lower() else text + LOG_SCALE


def size_axis(ax, label="matrix size n (m = n = k)", sizes=None):
    """Log2 x axis labelled with plain sizes (64, 128, ...), saying it is logarithmic; ticks at
    `sizes` where given (none between them)."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.xaxis.set_minor_formatter(NullFormatter())
    if sizes:
        ax.set_xticks(sizes)
        ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel(log_label(label))


if transforms is not None:
    class DenseLogLocator(LogLocator):
        """Ticks at 1, 2 and 5 of each decade, or, where fewer than three of them fall within the
        axis (data that spans less than a decade: 23 to 97 has only 50), at 1, 2, 3, 5 and 7, or
        at every digit: a reader always has ticks to read the data against."""

        def tick_values(self, vmin, vmax):
            lo, hi = min(vmin, vmax), max(vmin, vmax)
            for subs in ((1, 2, 5), (1, 2, 3, 5, 7), (1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9)):
                self.set_params(subs=subs)
                ticks = super().tick_values(vmin, vmax)
                if sum(lo <= t <= hi for t in ticks) >= 3:
                    break
            return ticks


def log_y(ax, label=None, text=lambda v: f"{v:g}"):
    """Logarithmic y axis: labelled ticks at 1, 2 and 5 of each decade, denser where the data spans
    less than a decade (DenseLogLocator), written as numbers (not 4x10^0)."""
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(DenseLogLocator(subs=(1, 2, 5)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: text(v)))
    ax.yaxis.set_minor_formatter(NullFormatter())
    if label is not None:
        ax.set_ylabel(log_label(label))


def log_axes(ax, xs, labels, fontsize=None, xlabel=None, ylabel=None):
    """Both axes logarithmic (x in powers of two): an x tick at each value measured, written as
    `labels` says (1024, 4K), not at the powers of two between them; y as log_y."""
    ax.set_xscale("log", base=2)
    if xs:
        ax.set_xticks(xs, labels, fontsize=fontsize)
        ax.xaxis.set_minor_locator(NullLocator())
    log_y(ax, ylabel)
    if xlabel is not None:
        ax.set_xlabel(log_label(xlabel))


def odd_sizes(sizes, apart=0.05):
    """The sizes that stand within 5% of a rounder one among them (1000 beside 1024; 46340 beside
    47104): on a log axis a line through both reads as a jump at one size. Of each such cluster
    the roundest (the most factors of two) is joined into the line; these are the others."""
    odd, cluster = [], []
    for n in sorted(sizes) + [None]:
        if cluster and (n is None or n - cluster[-1] > apart * n):
            keep = max(cluster, key=lambda m: (m & -m, m))
            odd += [m for m in cluster if m != keep]
            cluster = []
        if n is not None:
            cluster.append(n)
    return odd


def plot_by_size(ax, line, label=None, marker="o", **style):
    """line ({n: value}) against n, joined, but for its odd_sizes(): each a hollow diamond of its
    own in the line's colour. Returns (the line drawn, the odd sizes)."""
    odd = odd_sizes(line)
    joined = [n for n in sorted(line) if n not in odd]
    drawn, = ax.plot(joined, [line[n] for n in joined], marker=marker, label=label, **style)
    if odd:
        ax.plot(odd, [line[n] for n in odd], linestyle="none", marker="D", mfc="white",
                mec=drawn.get_color(), zorder=3)
    return drawn, odd


def odd_sizes_key(ax, odd):
    """The legend's entry for the hollow diamonds of plot_by_size, where any were drawn."""
    if odd:
        ax.plot([], [], linestyle="none", marker="D", color="black", mfc="white", mec="black",
                label=f"n = {', '.join(map(str, sorted(set(odd))))}: beside a rounder size "
                      "(not joined)")


def legend_below(ax, below=40, ncol=3, fontsize=8, **kwargs):
    """The axes' legend under it, `below` points under its bottom edge (clear of the tick labels
    and the x axis's label), so that it never covers a line; bbox_inches="tight" or a layout
    engine makes room for it."""
    anchor = transforms.offset_copy(ax.transAxes, fig=ax.figure, y=-below, units="points")
    return ax.legend(fontsize=fontsize, loc="upper center", bbox_to_anchor=(0.5, 0),
                     bbox_transform=anchor, ncol=ncol, **kwargs)

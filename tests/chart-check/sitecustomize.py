"""Loaded by every Python that tests/test_run_charts.sh starts (its folder is on PYTHONPATH).
Each figure saved is logged to $CHART_CHECK_LOG as "PATH<TAB>SCRIPT<TAB>PROBLEMS": SCRIPT is the
program that drew it (sys.argv[0]), PROBLEMS what a reader would trip on ("-" when nothing):

  empty 'T'        an axes (titled T) that shows no data. An axes shows data when it holds a line
                   in data coordinates with points (not a reference line such as axhline, drawn in
                   axes coordinates), a bar or other patch, a collection or an image.
  no title         neither the figure nor any axes has a title.
  no units 'T'     an axes with data and no label on its value (y) axis.
  legend 'L'       a legend entry for something the axes does not draw: its handle holds no data,
                   and no drawn line, bar or set of markers shares its colour or its marker.
  ticks 'T'        fewer than two labelled ticks within the range of the data on a numeric axis
                   (the ticks miss the data).
  same style 'T'   two lines of one axes, each named in the legend, drawn in the same colour and
                   the same dash (markers aside): a reader cannot tell them apart, in the legend
                   least of all. (Unnamed lines, a guide or a range bar, are not counted.)
  legend covers 'T'  a legend's box (in display coordinates, after drawing) over a data point of
                   an axes: a line's measured point or a point of the segments between them, a
                   scatter point, a bar, a span of a timeline.
  log unsaid 'T'   a logarithmic axis whose label does not say so ("log" in it).

Independent of plots/: it judges the old scripts' charts and the new alike."""
import os
import sys

import numpy as np

try:
    import matplotlib.figure
    import matplotlib.colors as mcolors
except ImportError:     # a python3 without matplotlib (scripts/find-python.sh looks further)
    matplotlib = None

if matplotlib and os.environ.get("CHART_CHECK_LOG"):

    def data_lines(ax):
        return [ln for ln in ax.lines if ln.get_transform() == ax.transData and len(ln.get_xdata())]

    def shows_data(ax):
        return bool(data_lines(ax) or ax.patches or ax.collections or ax.images)

    def colours_of(artist):
        out = set()
        for get in ("get_color", "get_facecolor", "get_edgecolor", "get_markerfacecolor"):
            try:
                c = getattr(artist, get)()
            except (AttributeError, TypeError, ValueError):
                continue
            try:
                many = mcolors.to_rgba_array(c)
            except (ValueError, TypeError):
                continue
            out.update(tuple(round(x, 3) for x in rgba[:3]) for rgba in many if rgba[3] > 0)
        return out

    def marker_of(artist):
        try:
            return str(artist.get_marker())
        except AttributeError:
            pass
        try:
            paths = artist.get_paths()
            return str(len(paths[0].vertices)) if len(paths) else None
        except (AttributeError, IndexError):
            return None

    def has_data(h):
        try:
            if len(h.get_xdata()):
                return True
        except (AttributeError, TypeError):
            pass
        try:
            if len(h.get_offsets()):
                return True
        except (AttributeError, TypeError):
            pass
        return bool(getattr(h, "patches", None)) or h.__class__.__name__ in ("Rectangle", "Patch")

    def signatures(artist):
        """(marker, colour) pairs an artist shows; marker None for bars and areas."""
        m = marker_of(artist)
        m = None if m in (None, "None", "", "nothing") else m
        return {(m, c) for c in colours_of(artist)} or {(m, None)}

    def legend_problems(ax):
        legends = [ax.get_legend()] if ax.get_legend() else []
        drawn = data_lines(ax) + list(ax.patches) + [c for c in ax.collections if has_data(c)]
        shown = set().union(*[signatures(a) for a in drawn]) if drawn else set()
        refs = [ln for ln in ax.lines if ln not in data_lines(ax)]  # axhline and the like
        bad = []
        # the artists the legend was made from (its own handles are copies, drawn in the box)
        originals = dict(zip(*reversed(ax.get_legend_handles_labels())))
        for leg in legends:
            for text in leg.get_texts():
                label = text.get_text()
                h = originals.get(label)
                if h is None or has_data(h) or h in refs:
                    continue
                if any(r.get_label() == label for r in refs) or any(
                        getattr(a, "get_label", lambda: None)() == label for a in drawn):
                    continue
                want = signatures(h)
                # a proxy for a colour (a patch, or a marker in the colour of a drawn one), or
                # for a marker in black (any colour of that marker drawn): what is drawn
                ok = any(w in shown for w in want)
                ok |= any(m is None and any(c == cc for _, cc in shown) for m, c in want)
                ok |= any(c in (None, (0.0, 0.0, 0.0)) and any(m == mm for mm, _ in shown)
                          for m, c in want)
                if not ok:
                    bad.append(f"legend '{label}'")
        return bad

    def lonely_legend(fig):
        """A legend on one panel of several, where another panel with several lines has none."""
        with_data = [ax for ax in fig.axes if shows_data(ax)]
        legended = [ax for ax in with_data if ax.get_legend()]
        if len(with_data) < 2 or not legended or fig.legends:
            return []
        return [f"legend on one panel only: '{ax.get_title() or 'untitled'}' has none"
                for ax in with_data if not ax.get_legend() and len(data_lines(ax)) >= 2]

    def tick_problems(ax):
        bad = []
        lines = data_lines(ax)
        for axis, get in (("x", lambda ln: ln.get_xdata()), ("y", lambda ln: ln.get_ydata())):
            vals = [float(v) for ln in lines for v in get(ln) if v == v]
            if len(set(vals)) < 2:
                continue
            lo, hi = min(vals), max(vals)
            scale = ax.get_xscale() if axis == "x" else ax.get_yscale()
            if scale == "linear" and (ax.get_xlim() if axis == "x" else ax.get_ylim())[0] <= 0 <= lo:
                lo = 0  # a linear axis from zero: its ticks from zero up to the data are the point
            ticks = ax.get_xticks() if axis == "x" else ax.get_yticks()
            labels = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
            shown = [t for t, lab in zip(ticks, labels) if lab.get_text() and lo <= t <= hi]
            above = [t for t, lab in zip(ticks, labels) if lab.get_text() and t > hi]
            if lo == 0 and above:  # (from zero: the tick just above the data bounds it too)
                shown.append(min(above))
            if len(shown) < 2:
                bad.append(f"ticks {axis} '{ax.get_title() or 'untitled'}'")
                continue
            pts = {float(v) for ln in lines if str(ln.get_marker()) not in ("None", "", " ")
                   for v in ln.get_xdata() if v == v}  # measured points, not a guide line
            if axis == "x" and pts and len(pts) <= 12 and not any(
                    abs(t - v) <= 0.01 * max(abs(v), 1e-300) for t in shown for v in pts):
                bad.append(f"ticks x miss the data '{ax.get_title() or 'untitled'}' (no labelled "
                           "tick at a measured x)")
        return bad

    def dash_of(line):
        """A line's dash as drawn: its on-off pattern (None for solid)."""
        pattern = getattr(line, "_unscaled_dash_pattern", None)
        return (line.get_linestyle(), None if pattern is None else
                (round(float(pattern[0] or 0), 2), tuple(round(float(x), 2) for x in pattern[1] or ())))

    def style_problems(ax):
        """Named lines (with a line style; a marker-only overlay is not a line) sharing colour and
        dash."""
        seen = {}
        bad = []
        for ln in ax.lines:
            if str(ln.get_linestyle()) in ("None", "", " ") or not len(ln.get_xdata()) or \
                    ln.get_label().startswith("_"):
                continue
            key = (tuple(round(x, 3) for x in mcolors.to_rgba(ln.get_color())), dash_of(ln))
            if key in seen:
                bad.append(f"same style '{ax.get_title() or 'untitled'}' "
                           f"({seen[key]!r} and {ln.get_label()!r})")
            else:
                seen[key] = ln.get_label()
        return bad

    def display_points(ax):
        """The axes' data in display coordinates, as (N, 2) arrays of points and a list of boxes
        [(x0, y0, x1, y1)], only what lies inside the axes (what is drawn)."""
        pts, boxes = [], []
        for ln in data_lines(ax):
            xy = np.column_stack([np.asarray(ln.get_xdata(), float), np.asarray(ln.get_ydata(), float)])
            xy = xy[np.isfinite(xy).all(axis=1)]
            if not len(xy):
                continue
            d = ax.transData.transform(xy)
            if str(ln.get_linestyle()) not in ("None", "", " ") and len(d) > 1:
                # the segments between the points too, every 2 pixels
                seg = []
                for a, b in zip(d[:-1], d[1:]):
                    steps = max(2, int(np.hypot(*(b - a)) / 2))
                    seg.append(a + (b - a) * np.linspace(0, 1, steps)[:, None])
                d = np.vstack(seg)
            pts.append(d)
        for c in ax.collections:
            name = c.__class__.__name__
            if name == "PathCollection" and len(c.get_offsets()):  # scatter
                pts.append(c.get_offset_transform().transform(np.asarray(c.get_offsets(), float)))
            elif name in ("BrokenBarHCollection", "LineCollection") and c.get_transform() == ax.transData:
                for path in c.get_paths():
                    v = ax.transData.transform(path.vertices)
                    boxes.append((v[:, 0].min(), v[:, 1].min(), v[:, 0].max(), v[:, 1].max()))
        for p in ax.patches:
            if p.get_transform().contains_branch(ax.transData):  # a bar (not an axhspan)
                e = p.get_window_extent()
                boxes.append((e.x0, e.y0, e.x1, e.y1))
        box = ax.bbox
        pts = [p[(p[:, 0] >= box.x0) & (p[:, 0] <= box.x1) & (p[:, 1] >= box.y0) & (p[:, 1] <= box.y1)]
               for p in pts]
        boxes = [(max(x0, box.x0), max(y0, box.y0), min(x1, box.x1), min(y1, box.y1))
                 for x0, y0, x1, y1 in boxes]
        return [p for p in pts if len(p)], [b for b in boxes if b[0] < b[2] and b[1] < b[3]]

    def legend_covers(fig):
        """Legends (of an axes or of the figure) whose box lies over data of any axes."""
        renderer = fig.canvas.get_renderer()
        legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
        bad = []
        data = [(ax, *display_points(ax)) for ax in fig.axes]
        for leg in legends:
            e = leg.get_window_extent(renderer)
            for ax, pts, boxes in data:
                hit = any(((p[:, 0] > e.x0) & (p[:, 0] < e.x1) & (p[:, 1] > e.y0) & (p[:, 1] < e.y1)).any()
                          for p in pts)
                hit = hit or any(x0 < e.x1 and e.x0 < x1 and y0 < e.y1 and e.y0 < y1
                                 for x0, y0, x1, y1 in boxes)
                if hit:
                    bad.append(f"legend covers '{ax.get_title() or 'untitled'}'")
                    break
        return bad

    def log_problems(ax):
        bad = []
        for axis, scale, label in (("x", ax.get_xscale(), ax.get_xlabel()),
                                   ("y", ax.get_yscale(), ax.get_ylabel())):
            if scale in ("log", "symlog", "logit"):
                shared = (ax.get_shared_x_axes() if axis == "x" else ax.get_shared_y_axes()).get_siblings(ax)
                labels = [a.get_xlabel() if axis == "x" else a.get_ylabel() for a in shared]
                if shows_data(ax) and not any("log" in text.lower() for text in labels + [label]):
                    bad.append(f"log unsaid {axis} '{ax.get_title() or 'untitled'}'")
        return bad

    def judge(fig):
        problems = [f"empty '{ax.get_title() or 'untitled'}'" for ax in fig.axes if not shows_data(ax)]
        if not fig.axes:
            problems = ["empty (no axes)"]
        sup = getattr(fig, "_suptitle", None)
        titled = (sup is not None and sup.get_text()) or any(ax.get_title() for ax in fig.axes)
        if fig.axes and not titled:
            problems.append("no title")
        for ax in fig.axes:
            siblings = ax.get_shared_y_axes().get_siblings(ax)
            named_lanes = any(lab.get_text() and not lab.get_text().replace(".", "").replace(
                ",", "").replace("\u2212", "").replace("-", "").strip().isdigit()
                for a in siblings for lab in a.get_yticklabels()) and ax.get_yscale() == "linear"
            if shows_data(ax) and not named_lanes and not any(a.get_ylabel() for a in siblings):
                problems.append(f"no units '{ax.get_title() or 'untitled'}'")
            problems += legend_problems(ax)
            problems += tick_problems(ax)
            problems += style_problems(ax)
            problems += log_problems(ax)
        return problems + lonely_legend(fig) + legend_covers(fig)

    real_savefig = matplotlib.figure.Figure.savefig

    def savefig(fig, fname, *args, **kwargs):
        try:
            fig.canvas.draw()  # tick labels are made at draw time
        except Exception:  # noqa: BLE001  (a checker must not break the program it watches)
            pass
        try:
            problems = judge(fig)
        except Exception as e:  # noqa: BLE001
            problems = [f"the chart check failed: {e!r}"]
        with open(os.environ["CHART_CHECK_LOG"], "a") as log:
            log.write(f"{os.path.abspath(str(fname))}\t{sys.argv[0]}\t{', '.join(problems) or '-'}\n")
        return real_savefig(fig, fname, *args, **kwargs)

    matplotlib.figure.Figure.savefig = savefig

"""A sample of the book's numbers, each recomputed from the committed file it comes from.

    python3 tests/check_numbers.py [--self-test] [NUMBERS-FILE]     (default: tests/book-numbers.txt)

The numbers file lists, per chapter, quoted pieces of text with the figures to check marked in
braces, and for each mark an expression that recomputes it from a CSV or a log:

    @ 03_tiling/README.md
    "reference machine the last step, `unroll_2x4` with T = 256, runs at {37.1} GFLOP/s at 1024"
        = csv("results/xeon-2c/03_tiling.csv", "gflops", variant="unroll_2x4/256", m=1024)

The text without the braces must appear in the chapter as it is (a sentence that changes must
have its entry changed too); each marked figure must equal its expression rounded to the digits
the figure shows (37.1: to one decimal; 65,255: to the unit; a trailing % or × is dropped, the
expression gives the percentage or the ratio). Expressions are Python with these helpers:

    csv(path, column, which=0, **match)   the column of the rows whose columns equal the match
                                          (numbers compared as numbers); which: 0 the first,
                                          -1 the last, an index, or "median", "min", "max"
    ratio(path, which=0, **match)         gflops / baseline_gflops of the matching rows
    log(path, regex, group=1)             a number a regular expression finds in a text file
    median(list), min, max, sum, len, abs, round

One PASS or FAIL line per quoted text; exit 1 if any FAIL. --self-test first runs the fixture in
tests/fixtures/book-numbers/, which holds one right figure and one planted wrong one: the check
must pass the first and fail the second.
"""
import csv as csvmod, os, re, statistics, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_cache = {}


def _rows(path):
    if path not in _cache:
        with open(os.path.join(BASE, path), newline="", encoding="utf-8") as f:
            _cache[path] = list(csvmod.DictReader(f))
    return _cache[path]


def _same(cell, want):
    if isinstance(want, (int, float)):
        try:
            return float(cell) == float(want)
        except (TypeError, ValueError):
            return False
    return cell == str(want)


def _pick(rows, value, which, what):
    """value(row) of the row `which` picks, or the median, min or max over the rows that have one"""
    if not rows:
        raise ValueError(f"no row matches {what}")
    if which in ("median", "min", "max"):
        values = []
        for r in rows:
            try:
                values.append(value(r))
            except (TypeError, ValueError, ZeroDivisionError):
                pass
        if not values:
            raise ValueError(f"no row of {what} has the value")
        return {"median": statistics.median, "min": min, "max": max}[which](values)
    return value(rows[which])


def _match(path, match):
    return [r for r in _rows(path) if all(_same(r.get(k), v) for k, v in match.items())]


def csv(path, column, which=0, **match):
    return _pick(_match(path, match), lambda r: float(r[column]), which, f"{path} {match}")


def ratio(path, which=0, **match):
    return _pick(_match(path, match), lambda r: float(r["gflops"]) / float(r["baseline_gflops"]),
                 which, f"{path} {match}")


def log(path, regex, group=1):
    m = re.search(regex, open(os.path.join(BASE, path), encoding="utf-8").read(), re.M)
    if not m:
        raise ValueError(f"{path}: no match for {regex!r}")
    return float(m.group(group).replace(",", ""))


HELPERS = {"csv": csv, "ratio": ratio, "log": log, "median": statistics.median, "min": min,
           "max": max, "sum": sum, "len": len, "abs": abs, "round": round}


def parse(path):
    """[(chapter, line number in the numbers file, quoted text, [expressions])]"""
    entries, chapter = [], None
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("@ "):
            chapter = s[2:].strip()
        elif s.startswith('"') and s.endswith('"') and len(s) > 1:
            entries.append((chapter, no, s[1:-1], []))
        elif s.startswith("= ") and entries:
            entries[-1][3].append(s[2:].strip())
        else:
            raise SystemExit(f"{path}:{no}: not '@ FILE', a \"quoted text\" or '= expression': {s}")
    return entries


def figure(text):
    """the value and the half-unit of the last digit a quoted figure shows"""
    t = text.replace(",", "").replace("\u2009", "").replace("\u2212", "-").rstrip("%×x ")
    value = float(t)
    decimals = len(t.split(".")[1]) if "." in t else 0
    return value, 0.5 * 10 ** -decimals


def check(numbers_file, say=print):
    failed = passed = 0
    for chapter, no, quoted, exprs in parse(numbers_file):
        where = f"{os.path.relpath(numbers_file, ROOT)}:{no}"
        marks = re.findall(r"\{([^}]*)\}", quoted)
        plain = re.sub(r"\{([^}]*)\}", r"\1", quoted)
        problems = []
        try:
            text = open(os.path.join(BASE, chapter), encoding="utf-8").read()
        except OSError as ex:
            text, problems = "", [f"cannot read {chapter}: {ex}"]
        # a link counts as its text: a glossary link added to a sentence changes no entry
        unlink = lambda t: re.sub(r"\[([^\]]*)\]\([^)\s]*\)", r"\1", t)
        if text and unlink(plain) not in unlink(text):
            problems.append(f"the text is not in {chapter} (changed? update the entry)")
        if len(marks) != len(exprs):
            problems.append(f"{len(marks)} marked figures but {len(exprs)} expressions")
        for mark, expr in zip(marks, exprs):
            try:
                want, half = figure(mark)
                got = eval(expr, dict(HELPERS))
            except Exception as ex:     # a bad entry is a failure, not a crash
                problems.append(f"{{{mark}}}: {type(ex).__name__}: {ex}")
                continue
            if abs(got - want) > half * (1 + 1e-9) + 1e-12:
                problems.append(f"{{{mark}}} is {got:.6g} in its file ({expr})")
        if problems:
            failed += 1
            say(f"FAIL: {chapter}: \"{plain[:70]}{'...' if len(plain) > 70 else ''}\" ({where}): "
                  + "; ".join(problems))
        else:
            passed += 1
            say(f"PASS: {chapter}: {', '.join(marks)} as in the files ({where})")
    return failed, passed


def main(argv):
    global BASE
    bad = 0
    if "--self-test" in argv:
        BASE = os.path.join(ROOT, "tests", "fixtures", "book-numbers")
        lines = []
        out_failed, out_passed = check(os.path.join(BASE, "numbers.txt"), lines.append)
        if (out_failed, out_passed) == (1, 1):
            print("PASS: number check: the fixture's right figure passes and its planted wrong one fails")
        else:
            print(f"FAIL: number check: the fixture gave {out_failed} failed, {out_passed} passed "
                  "(want the planted figure failed and the right one passed)")
            bad = 1
            for line in lines:
                print("    fixture: " + line)
        _cache.clear()
    BASE = ROOT
    files = [a for a in argv if not a.startswith("--")]
    failed, _ = check(files[0] if files else os.path.join(ROOT, "tests", "book-numbers.txt"))
    return 1 if failed or bad else 0


BASE = ROOT
if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

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
expression gives the percentage or the ratio). Expressions are Python with these functions:

    csv(path, column, which=0, **match)   the column of the rows whose columns equal the match
                                          (numbers compared as numbers); which: 0 the first,
                                          -1 the last, an index, or "median", "min", "max"
    ratio(path, which=0, **match)         gflops / baseline_gflops of the matching rows
    log(path, regex, group=1)             a number a regular expression finds in a text file
    by(path, column, key, which=0, **match)
                                          {row[key]: column} over the matching rows, e.g. one
                                          variant's error at every K
    row(prefix)                           the numbers of the chapter's table row that starts
                                          with prefix, as the chapter prints them (bold, commas,
                                          a trailing × dropped; None for a cell with no number)
    module(path)                          a Python file of the repository, imported: a figure a
                                          chapter quotes from a model is recomputed by the
                                          model's own code, e.g. module("13_distributed/
                                          cost_model.py").words(8192, 4, 4, 256)[0] (its paths
                                          are relative to the repository root, where this runs)
    median(list), min, max, sum, len, abs, round, all, any

A sentence that compares (a claim: "within a factor of two", "below it from K = 8 to 512") is
a quoted text followed by `? EXPRESSION` lines, each a condition that must be true, with the same
functions and these:

    within(a, b, factor)                  every pair of a and b (lists: cell by cell; dicts: the
                                          same keys) within factor of each other, either way
    at_most(a, b, factor)                 every a at most factor times its b
    below(a, b, keys=None)                every a[k] < b[k] (keys: only those)

Write a claim twice, on the table as printed (row) and on the files (by): a reader checks the
sentence against the table, which rounds, and the table against the files. Each marked figure of
a table row is checked to the digits it shows, as the chapter rounds it: 117 for 116.45 fails.

    "three pieces land within a factor of two of 05's FP32 kernel"
        ? within(row("| `amx_fp32` "), row("| `simd` "), 2)
        ? within(by(F, "max_err_ratio", "k", variant="amx_fp32"), by(F, "max_err_ratio", "k", variant="simd"), 2)

One PASS or FAIL line per quoted text; exit 1 if any FAIL. --self-test first runs the fixture in
tests/fixtures/book-numbers/: every entry under a comment line `# planted` must fail (a figure
off by a rounding, a claim its own table contradicts: chapter 14's "within a factor of two" as it
once read) and every other entry must pass.
"""
import csv as csvmod, importlib.util, os, re, statistics, sys

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


def by(path, column, key, which=0, **match):
    out = {}
    for r in _match(path, match):
        k = float(r[key]) if re.fullmatch(r"-?[0-9.]+(e-?[0-9]+)?", r[key] or "") else r[key]
        out.setdefault(k, []).append(r)
    return {k: _pick(rows, lambda r: float(r[column]), which, f"{path} {match} {key}={k}")
            for k, rows in out.items()}


CHAPTER = None      # the text of the chapter whose entry is being checked


def cell(text):
    t = re.sub(r"[*`]", "", text).replace(",", "").replace("\u2009", "").replace("\u2212", "-")
    m = re.fullmatch(r"\s*(-?[0-9]*\.?[0-9]+(?:e-?[0-9]+)?)\s*[×x%]?\s*", t)
    return float(m.group(1)) if m else None


def row(prefix):
    lines = [l for l in CHAPTER.split("\n") if l.strip().startswith(prefix)]
    if len(lines) != 1:
        raise ValueError(f"{len(lines)} table rows start with {prefix!r}")
    return [cell(c) for c in lines[0].strip().strip("|").split("|")[1:]]


def _pairs(a, b):
    if isinstance(a, dict):
        return [(a[k], b[k]) for k in a if k in b]
    if len(a) != len(b):
        raise ValueError(f"rows of {len(a)} and {len(b)} cells")
    return [(x, y) for x, y in zip(a, b) if x is not None and y is not None]


def within(a, b, factor):
    pairs = _pairs(a, b)
    if not pairs:
        raise ValueError("nothing to compare")
    return all(x <= factor * y and y <= factor * x for x, y in pairs)


def at_most(a, b, factor):
    pairs = _pairs(a, b)
    if not pairs:
        raise ValueError("nothing to compare")
    return all(x <= factor * y for x, y in pairs)


def below(a, b, keys=None):
    if keys is not None:
        return all(a[k] < b[k] for k in keys)
    pairs = _pairs(a, b)
    return bool(pairs) and all(x < y for x, y in pairs)


_modules = {}


def module(path):
    if path not in _modules:
        spec = importlib.util.spec_from_file_location(
            "book_" + re.sub(r"\W", "_", path), os.path.join(ROOT, path))
        _modules[path] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_modules[path])
    return _modules[path]


def log(path, regex, group=1):
    m = re.search(regex, open(os.path.join(BASE, path), encoding="utf-8").read(), re.M)
    if not m:
        raise ValueError(f"{path}: no match for {regex!r}")
    return float(m.group(group).replace(",", ""))


FUNCTIONS = {"csv": csv, "ratio": ratio, "log": log, "by": by, "row": row, "module": module, "within": within,
           "at_most": at_most, "below": below, "median": statistics.median, "min": min, "max": max, "sum": sum,
           "len": len, "abs": abs, "round": round, "all": all, "any": any}


def parse(path):
    """[(chapter, line number in the numbers file, quoted text, [expressions], [claims],
    planted)]: planted when a comment line `# planted` comes right before the quoted text"""
    entries, chapter, planted = [], None, False
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        s = line.strip()
        if not s:
            continue
        if s.startswith("#"):
            planted = s.startswith("# planted")
            continue
        if s.startswith("@ "):
            chapter = s[2:].strip()
        elif s.startswith('"') and s.endswith('"') and len(s) > 1:
            entries.append((chapter, no, s[1:-1], [], [], planted))
        elif s.startswith("= ") and entries:
            entries[-1][3].append(s[2:].strip())
        elif s.startswith("? ") and entries:
            entries[-1][4].append(s[2:].strip())
        else:
            raise SystemExit(f"{path}:{no}: not '@ FILE', a \"quoted text\", '= expression' or "
                             f"'? claim': {s}")
        planted = False
    return entries


def figure(text):
    """the value and the half-unit of the last digit a quoted figure shows"""
    t = text.replace(",", "").replace("\u2009", "").replace("\u2212", "-").rstrip("%×x ")
    value = float(t)
    decimals = len(t.split(".")[1]) if "." in t else 0
    return value, 0.5 * 10 ** -decimals


def check(numbers_file, say=print):
    """(failed, passed, [(line in the numbers file, failed?, planted?)])"""
    global CHAPTER
    failed = passed = 0
    verdicts = []
    for chapter, no, quoted, exprs, claims, planted in parse(numbers_file):
        where = f"{os.path.relpath(numbers_file, ROOT)}:{no}"
        marks = re.findall(r"\{([^}]*)\}", quoted)
        plain = re.sub(r"\{([^}]*)\}", r"\1", quoted)
        problems = []
        try:
            text = open(os.path.join(BASE, chapter), encoding="utf-8").read()
        except OSError as ex:
            text, problems = "", [f"cannot read {chapter}: {ex}"]
        # a link counts as its text: a glossary link added to a sentence changes no entry
        # and a sentence may wrap, inside a boxed quote too: runs of white space (and the "> "
        # that starts each line of a box) count as one space
        unlink = lambda t: re.sub(r"\s+", " ", re.sub(r"\[([^\]]*)\]\([^)\s]*\)", r"\1",
                                                      re.sub(r"(?m)^>[ \t]?", "", t)))
        if text and unlink(plain) not in unlink(text):
            problems.append(f"the text is not in {chapter} (changed? update the entry)")
        CHAPTER = text
        if len(marks) != len(exprs):
            problems.append(f"{len(marks)} marked figures but {len(exprs)} expressions")
        if not marks and not claims:
            problems.append("no marked figure and no claim")
        for claim in claims:
            try:
                holds = eval(claim, dict(FUNCTIONS))
            except Exception as ex:
                problems.append(f"claim {claim}: {type(ex).__name__}: {ex}")
                continue
            if not holds:
                problems.append(f"the claim does not hold: {claim}")
        for mark, expr in zip(marks, exprs):
            try:
                want, half = figure(mark)
                got = eval(expr, dict(FUNCTIONS))
            except Exception as ex:     # a bad entry is a failure, not a crash
                problems.append(f"{{{mark}}}: {type(ex).__name__}: {ex}")
                continue
            if abs(got - want) > half * (1 + 1e-9) + 1e-12:
                problems.append(f"{{{mark}}} is {got:.6g} in its file ({expr})")
        verdicts.append((no, bool(problems), planted))
        if problems:
            failed += 1
            say(f"FAIL: {chapter}: \"{plain[:70]}{'...' if len(plain) > 70 else ''}\" ({where}): "
                  + "; ".join(problems))
        else:
            passed += 1
            what = [", ".join(marks) + " as in the files"] if marks else []
            what += [f"{len(claims)} claim{'s hold' if len(claims) > 1 else ' holds'}"] if claims else []
            say(f"PASS: {chapter}: {'; '.join(what)} ({where})")
    return failed, passed, verdicts


def main(argv):
    global BASE
    bad = 0
    if "--self-test" in argv:
        BASE = os.path.join(ROOT, "tests", "fixtures", "book-numbers")
        lines = []
        out_failed, out_passed, verdicts = check(os.path.join(BASE, "numbers.txt"), lines.append)
        wrong = [no for no, bad_, planted in verdicts if bad_ != planted]
        n_planted = sum(1 for v in verdicts if v[2])
        if not wrong and n_planted:
            print(f"PASS: number check: the fixture's {out_passed} right entries pass and its "
                  f"{n_planted} planted ones fail (a figure off by a rounding; 14's claim "
                  f"\"within a factor of two\", which its own table contradicts)")
        else:
            print(f"FAIL: number check: the fixture gave {out_failed} failed, {out_passed} passed; "
                  f"entries at lines {wrong} of its numbers.txt gave the wrong verdict "
                  "(want every '# planted' entry failed and every other passed)")
            bad = 1
            for line in lines:
                print("    fixture: " + line)
        _cache.clear()
    BASE = ROOT
    files = [os.path.abspath(a) for a in argv if not a.startswith("--")]
    os.chdir(ROOT)  # (module()'s functions open paths relative to the repository root)
    failed, _, _ = check(files[0] if files else os.path.join(ROOT, "tests", "book-numbers.txt"))
    return 1 if failed or bad else 0


BASE = ROOT
if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

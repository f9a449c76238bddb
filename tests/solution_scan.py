#!/usr/bin/env python3
"""tests/solution_scan.py: no answer in a student edition.

    tests/solution_scan.py [--chapters] [--list] ROOT EDITION < files
        files: `make -s list-exercises` and `make -s list-answers` of ROOT, "NN_topic FILE" per
        line: the file the stage's exercise replaces, or a further file of its answers (a
        stage.mk's NN_topic_ANSWERS: 09's warptile.cuh)

ROOT is the instructor's repository (it has the solutions), EDITION the copy that
`make student-edition` wrote. For each stage, the answers are the functions of the file its
exercise replaces, and of its further answer files, whose bodies the exercise does not have as
they are: the functions the student writes (a function that exercise.c keeps word for word, a
launcher or a wrapper, is given, not an answer). Code is compared as C tokens, comments and
layout dropped, so that a copy re-indented or re-commented is still a copy.

  - none of those files is in the edition;
  - no file of the edition that is not Markdown (sources, scripts, tests, CSVs: every text
    file) holds an answer's whole body;
  - --chapters: no Markdown file (the chapters and docs) quotes WINDOW tokens in a row (about
    three lines of code) of an answer, where those tokens are not also in the exercise or in a
    source file of the edition (code the student is given anyway).
--list prints the answers found, one a line, and scans nothing.
Prints PASS:/FAIL:/SKIP: lines; exit 1 when one fails. Python 3, standard library only.
"""
import os
import re
import sys

WINDOW = 40     # tokens in a row that make a quotation: about three lines of C
MIN_BODY = 20   # a body shorter than this (a one-line round_up, also in a given file) is no answer

TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<word>[A-Za-z_][A-Za-z_0-9]*|[0-9][0-9A-Za-z_.]*(?:[eEpP][-+][0-9]+[A-Za-z]*)?|\.[0-9][0-9A-Za-z_.]*)
  | (?P<space>\s+)
  | (?P<punct>.)
""", re.S | re.X)


def tokens(text):
    """C tokens without comments and white space; each punctuation character one token."""
    return [m.group() for m in TOKEN.finditer(text) if m.lastgroup not in ("comment", "space")]


def tokens_with_lines(text):
    out, line = [], 1
    for m in TOKEN.finditer(text):
        if m.lastgroup not in ("comment", "space"):
            out.append((m.group(), line))
        line += m.group().count("\n")
    return out


def functions(toks):
    """{name: body tokens} of the function definitions at file level: a `{` after the `)` of a
    parameter list (attributes such as __launch_bounds__(...) may stand between)."""
    out, depth, i = {}, 0, 0
    while i < len(toks):
        t = toks[i]
        if t == "{" and depth == 0 and i > 0 and toks[i - 1] == ")":
            # the name: the identifier before the parenthesis that this `)` closes, skipping
            # attribute lists written after the parameters
            j = i - 1
            name = None
            while j >= 0 and toks[j] == ")":
                level, j = 0, j
                while j >= 0:
                    level += {")": 1, "(": -1}.get(toks[j], 0)
                    if level == 0:
                        break
                    j -= 1
                j -= 1
                if j >= 0 and re.match(r"[A-Za-z_]\w*$", toks[j]):
                    name = toks[j]
                    if name.startswith("__") or name in ("const", "noexcept"):
                        j -= 1
                        continue
                break
            level, k = 0, i
            while k < len(toks):
                level += {"{": 1, "}": -1}.get(toks[k], 0)
                if level == 0:
                    break
                k += 1
            if name:
                out[name] = toks[i:k + 1]
            i = k + 1
            continue
        depth += {"{": 1, "}": -1}.get(t, 0)
        i += 1
    return out


def read(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data:
        return None         # an object, an image: machine code is not source
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


SEP = "\x1f"
CODE = (".c", ".h", ".cu", ".cuh", ".py", ".sh", ".mk", ".txt")  # where given code is


def joined(toks):
    return SEP + SEP.join(toks) + SEP


def answers(root, solutions):
    """[(stage, solution or answer file, exercise path, name, body tokens)]"""
    out = []
    for stage, sol in solutions:
        # the stage's exercise: exercise.c|cu, as the file it replaces (a header of answers: either)
        ex = next((e for e in (os.path.join(stage, "exercise" + x)
                               for x in (os.path.splitext(sol)[1], ".cu", ".c"))
                   if os.path.isfile(os.path.join(root, e))),
                  os.path.join(stage, "exercise" + os.path.splitext(sol)[1]))
        text = read(os.path.join(root, sol))
        if text is None:
            print(f"FAIL: {sol}: cannot read it in {root}")
            continue
        given = functions(tokens(read(os.path.join(root, ex)) or ""))
        for name, body in functions(tokens(text)).items():
            if len(body) < MIN_BODY or given.get(name) == body:
                continue
            out.append((stage, sol, ex, name, body))
    return out


def edition_files(edition):
    for top, dirs, files in os.walk(edition):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "build"))
        for f in sorted(files):
            path = os.path.join(top, f)
            yield os.path.relpath(path, edition), path


def main(argv):
    chapters = "--chapters" in argv
    listing = "--list" in argv
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    root, edition = args
    solutions = [tuple(l.split()) for l in sys.stdin.read().splitlines() if len(l.split()) == 2]
    found = answers(root, solutions)
    if listing:
        for stage, sol, ex, name, body in found:
            print(f"{sol}: {name} ({len(body)} tokens)")
        return 0
    failed = 0

    def fail(msg):
        nonlocal failed
        failed += 1
        print(f"FAIL: {msg}")

    texts, unreadable = {}, 0
    for rel, path in edition_files(edition):
        text = read(path)
        if text is None:
            unreadable += 1
        else:
            texts[rel] = text
    sources = {rel: joined(tokens(t)) for rel, t in texts.items() if not rel.endswith(".md")}

    for stage, sol in solutions:
        funcs = [(name, body) for _, s, _, name, body in found if s == sol]
        hits = 0
        if os.path.exists(os.path.join(edition, sol)):
            hits += 1
            fail(f"{sol}: the file is in the edition (it holds answers)")
        for name, body in funcs:
            needle = joined(body)
            for rel, hay in sources.items():
                if needle in hay:
                    hits += 1
                    fail(f"{rel}: holds {name}'s body, the answer of {sol}")
        if not hits:
            names = ", ".join(n for n, _ in funcs) or "none (no function of it is not also in the exercise)"
            print(f"PASS: {sol}: not in the edition, and no file of it holds the body of {names}")
    if not found:
        fail("no answers found: nothing was checked")
    print(f"PASS: {len(sources)} text files read (besides the Markdown), {unreadable} binary left out"
          if not failed else f"(read {len(sources)} text files besides the Markdown)")

    if not chapters:
        n = sum(rel.endswith(".md") for rel in texts)
        print(f"SKIP: the {n} Markdown files (chapters, docs) not read for quoted answers (--chapters reads them)")
        return 1 if failed else 0
    # the windows given anyway: in the exercise, or in a source file of the edition
    def windows(toks):
        """each WINDOW tokens in a row, as one string"""
        j = joined(toks)
        cut = [i for i, c in enumerate(j) if c == SEP]
        return (j[cut[i]:cut[i + WINDOW] + 1] for i in range(len(cut) - WINDOW))
    quoted = {}
    for stage, sol, ex, name, body in found:
        for w in windows(body):
            quoted.setdefault(w, (sol, name))
    exercises = {ex for _, _, ex, _, _ in found}
    for rel, text in [(ex, read(os.path.join(root, ex)) or "") for ex in exercises] + \
            [(rel, t) for rel, t in texts.items() if rel.endswith(CODE)]:
        for w in windows(tokens(text)):
            quoted.pop(w, None)
    for rel, text in sorted(texts.items()):
        if not rel.endswith(".md"):
            continue
        tl = tokens_with_lines(text)
        last = {}   # answer -> the line of its last window seen: one FAIL a passage
        for i, w in enumerate(windows([t for t, _ in tl])):
            hit = quoted.get(w)
            if hit is None:
                continue
            line = tl[i][1]
            if hit not in last or line - last[hit] > 1:
                fail(f"{rel}:{line}: quotes {hit[1]} of {hit[0]}")
            last[hit] = tl[i + WINDOW - 1][1]
        if not last:
            print(f"PASS: {rel}: quotes no answer")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Every glossary term is linked or defined where a chapter first uses it.

    python3 tests/check_glossary.py [--self-test] [--first-uses] [CHAPTER.md ...]
        (default: every chapter, each Markdown file of a stage directory but its NOTES.md)

The terms are docs/glossary.md's `###` headings; the comment under each, `<!-- match: REGEX -->`,
is the Python regular expression of its spellings (case-sensitive). In a chapter, a *use* is a
match in the prose: outside fenced code blocks, headings and image captions, and outside inline
code unless the code span is the term itself (`ncu`). A use is *covered* when, at or before it in
the chapter, there is a link to the term's entry (`](../docs/glossary.md#anchor)`, whatever its
text), or the use itself is set in italics or bold (`*term*`, `**term**`, `_term_`): the book's
mark of a term defined in place. The first use of each term must be covered. One FAIL line per
chapter and term whose first use is not, a PASS line per chapter with none.

A chapter in WAIVED is being rewritten elsewhere: its uncovered first uses are counted on one SKIP
line (--first-uses lists them). Once it has none, its entry is stale and fails.
--self-test: a planted chapter (the term used a line before its link) must fail and a clean one
pass, and every glossary entry must have a match that finds a spelling in its own entry.
Prints PASS:/FAIL:/SKIP: lines; exit 1 if any FAIL.
"""
import glob, os, re, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GLOSSARY = os.path.join(ROOT, "docs", "glossary.md")
WAIVED = set()  # a chapter being rewritten elsewhere, its first uses counted on one SKIP line


def slug(heading):
    """GitHub's anchor for a heading (as tests/check_commands.py computes it)"""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().strip("#").strip())
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def load_terms(path=GLOSSARY):
    """[(name, anchor, compiled regex, entry text)] in the glossary's order"""
    terms, lines = [], open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^### (.+)$", line)
        if not m:
            continue
        name = m.group(1).strip()
        spec = re.match(r"^<!-- match: (.+) -->$", lines[i + 1]) if i + 1 < len(lines) else None
        if not spec:
            raise SystemExit(f"FAIL: {path}:{i + 2}: '{name}' has no '<!-- match: REGEX -->' line")
        body = []
        for line2 in lines[i + 2:]:
            if line2.startswith("#"):
                break
            body.append(line2)
        terms.append((name, slug(name), re.compile(spec.group(1)), "\n".join(body)))
    return terms


def prose(path):
    """(line number, text) of the lines a reader reads as prose: not in a fence, not a heading"""
    fence = False
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence or line.startswith("#") or line.startswith("    ") and line.strip():
            continue        # an indented line is a code block too (a formula)
        yield no, line


LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]*)\)")


EMPH = re.compile(r"(\*\*|\*|\b_)(?=\S)(.+?)(?<=\S)(\1|_\b)")


def events(line, terms):
    """(position, kind, anchor) in a line: kind 'link' for a glossary link, 'def' for a term in
    italics or bold (its own, or a short phrase's), 'use' for a plain use. A bold or italic
    phrase that ends in '.', ':' or '?' is a run-in heading: not read as prose."""
    out, masked = [], list(line)

    def blank(a, b):
        for k in range(a, b):
            masked[k] = "\0"
    for m in re.finditer(r"!\[[^\]]*\]\([^)]*\)", line):      # image captions
        blank(m.start(), m.end())
    for m in LINK.finditer(line):       # a glossary link covers its anchor; targets are not prose
        if "glossary.md#" in m.group(2):
            out.append((m.start(), "link", m.group(2).split("#", 1)[1]))
            blank(m.start(), m.end())
        else:
            blank(m.start(2) - 1, m.end())
    text = "".join(masked)
    spans = [(m.start(), m.end(), m.group(1)) for m in re.finditer(r"`([^`]+)`", text)]
    nocode = list(text)
    for a, b, _ in spans:
        for k in range(a, b):
            nocode[k] = "x"
    emph, heads = [], []
    for m in EMPH.finditer("".join(nocode)):
        inner = m.group(2).rstrip()
        (heads if inner[-1:] in ".:?" else emph).append((m.start(), m.end()))
    for name, anchor, rx, _ in terms:
        for m in rx.finditer(text):
            if "\0" in m.group(0):
                continue
            a, b = m.start(), m.end()
            span = next((s for s in spans if s[0] <= a < s[1]), None)
            if span and not rx.fullmatch(span[2]):
                continue
            if any(h[0] <= a < h[1] for h in heads):
                continue
            kind = "def" if any(e[0] <= a < e[1] for e in emph) else "use"
            out.append((a, kind, anchor))
    return sorted(out)


def first_uses(path, terms):
    """[(line, term name, anchor)] of the terms whose first use in the chapter is not covered"""
    covered, seen, bad = set(), set(), []
    names = {anchor: name for name, anchor, _, _ in terms}
    for no, line in prose(path):
        for _, kind, anchor in events(line, terms):
            if anchor not in names:
                if kind == "link":
                    bad.append((no, f"#{anchor}", anchor))   # a link to no entry
                continue
            if kind in ("link", "def"):
                covered.add(anchor)
            if kind in ("use", "def") and anchor not in seen:
                seen.add(anchor)
                if anchor not in covered:
                    bad.append((no, names[anchor], anchor))
    return bad


def chapters():
    return sorted(p for p in glob.glob(os.path.join(ROOT, "[0-9][0-9]_*", "*.md"))
                  if not p.endswith("/NOTES.md"))


def check(paths, terms, list_uses=False):
    failed = 0
    for path in paths:
        rel = os.path.relpath(path, ROOT)
        bad = first_uses(path, terms)
        if rel in WAIVED:
            if bad:
                print(f"SKIP: {rel}: waived while it is rewritten ({len(bad)} terms used before "
                      f"a link to docs/glossary.md or a definition)")
                if list_uses:
                    for no, name, anchor in bad:
                        print(f"    {rel}:{no}: {name} -> [..](../docs/glossary.md#{anchor})")
            else:
                print(f"FAIL: {rel}: every term is covered now: remove it from WAIVED in "
                      f"tests/check_glossary.py")
                failed = 1
        elif bad:
            for no, name, anchor in bad:
                if name.startswith("#"):
                    print(f"FAIL: {rel}:{no}: a link to docs/glossary.md{name}, which has no such entry")
                else:
                    print(f"FAIL: {rel}:{no}: '{name}' used before a link to docs/glossary.md#{anchor} "
                          f"or a definition in place (*{name}*)")
            failed = 1
        else:
            print(f"PASS: {rel}: every glossary term linked or defined at its first use")
    return failed


def self_test(terms):
    failed = 0
    for name, anchor, rx, body in terms:
        loose = re.compile(rx.pattern, re.IGNORECASE)
        if not loose.search(name) and not loose.search(body):
            print(f"FAIL: docs/glossary.md: '{name}': its match finds no spelling in its own entry")
            failed = 1
    with tempfile.TemporaryDirectory() as d:
        planted = os.path.join(d, "planted.md")
        clean = os.path.join(d, "clean.md")
        open(planted, "w").write("# 99\n\nEach CTA holds its tiles.\n\n"
                                 "A [CTA](../docs/glossary.md#cta) is a block.\n")
        open(clean, "w").write("# 98\n\nA *CTA* is a block; each CTA holds its tiles, and each\n"
                               "[warp](../docs/glossary.md#warp) of it, its warps. `ncu --x` is code.\n"
                               "```\nan SM in a fence\n```\n")
        bad = first_uses(planted, terms)
        if [b[:2] for b in bad] == [(3, "CTA")]:
            print("PASS: glossary check: a planted chapter that uses CTA a line before its link fails")
        else:
            print(f"FAIL: glossary check: the planted chapter gave {bad}, want [(3, 'CTA', ...)]")
            failed = 1
        bad = first_uses(clean, terms)
        if not bad:
            print("PASS: glossary check: a term defined in place (*CTA*) or linked passes; code is not prose")
        else:
            print(f"FAIL: glossary check: the clean chapter gave {bad}")
            failed = 1
    return failed


def main(argv):
    terms = load_terms()
    list_uses = "--first-uses" in argv
    files = [os.path.abspath(a) for a in argv if not a.startswith("--")]
    failed = 0
    if "--self-test" in argv:
        failed |= self_test(terms)
    failed |= check(files or chapters(), terms, list_uses)
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

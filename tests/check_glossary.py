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

Words that look like terms are checked too, so that a chapter cannot slip past the glossary by
using a word it does not list. Three kinds are found in the prose (a bold or italic run-in
heading, `**Latency.**`, counts as a use there, not a definition):
  - a fixed list of the book's jargon (JARGON below: intrinsic, broadcast, lane, latency,
    throughput, subnormal, K-major, exit status 77, ...);
  - acronyms: a word of two or more capitals (digits and hyphens allowed: TILECFG, DAZ, SSE3),
    in the prose or as a whole code span (`LDTILECFG`), and in a diagram (a fenced block with no
    language that is not a list of commands); COMMON below is the short list of those any
    reader knows (CPU, GPU, GB, ...) and of names that are not terms (NVIDIA, CUDA, ...);
  - code that presupposes a word: an intrinsic's name (`_mm512_fmadd_ps`, `_tile_loadd`), in
    the prose or in a fenced code block, is a use of the word "intrinsic".
When a glossary entry matches the word, it is that entry's term and the rule above applies.
Otherwise its first use must be a definition in place (*TILECFG*, **broadcast**), or come after
one: the fix is that, or an entry in docs/glossary.md (with its match line) and a link.
--self-test also runs the check on the three chapters as a newcomer first read them
(tests/fixtures/glossary/, with the glossary of that day): it must find the eight words the
newcomer stalled on.
Prints PASS:/FAIL:/SKIP: lines; exit 1 if any FAIL.
"""
import glob, os, re, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GLOSSARY = os.path.join(ROOT, "docs", "glossary.md")
# A chapter being rewritten elsewhere, its first uses counted on one SKIP line (--first-uses
# lists them); once it has none, its entry is stale and fails, so the list only shrinks:
WAIVED = set()

# The book's jargon that a newcomer stalls on when it comes undefined: (name, spellings).
JARGON = [
    ("intrinsic", r"\bintrinsics?\b"),
    ("broadcast", r"\bbroadcast(s|ing|ed)?\b"),
    ("lane", r"\blanes?\b"),
    ("latency", r"\blatenc(y|ies)\b"),
    ("throughput", r"\bthroughputs?\b"),
    ("subnormal", r"\b(subnormals?|denormals?)\b"),
    ("K-major", r"\b[KMN]-major\b"),
    ("exit status 77", r"\bexit(s|ed)?( with)?( status| code)? 77\b"),
    ("unit roundoff", r"\bunit round-?off\b"),
    ("hyperthread", r"\bhyper-?threads?\b|\bhyperthreading\b"),
]
# Code that presupposes a word: (the word, the code's spelling).
IMPLIES = [("intrinsic", r"\b_(mm\d*|tile)_[a-z0-9_]+")]
ACRONYM = re.compile(r"(?<![\w/.$-])[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*(-[A-Z0-9]+)*(?![\w=(-])"
                     r"(?!\.(md|c|cu|h|py|sh|txt|csv|png)\b)")
# Acronyms that need no definition, kept short. Each line is one reason:
COMMON = set("""
    CPU GPU OS API RAM DRAM SRAM CSV PDF ASCII IEEE ISO POSIX VM XOR OR AND CFLAGS LU QR
    GB MB KB TB GFLOP TFLOP FLOP
    PASS FAIL SKIP OK TODO
    GEMM SGEMM FP32 FP64 FP16 INT8
    NVIDIA AMD ARM EPYC RTX GCC CUDA MKL BLIS TBB SYCL KVM SLATE COSMA HDFS RAID RAID-6 ELF AES AES-NI
    AWS SC16
""".split())
# what every reader of a book on C and computers knows (the prerequisites of docs/README.md);
# units; a check's verdicts as the programs print them; the book's subject, its precisions;
# names of vendors, products, libraries, formats and a conference: the sentence says what each
# is (a library, a CPU), and a definition would teach nothing.


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
    for no, line, kind in lines(path):
        if kind == "prose":
            yield no, line


COMMAND = re.compile(r"^\s*(\$ |make\b|\./|build/|scripts/|tests/|python3\b|mpirun\b|[0-9][0-9]_\w+/|"
                     r"[A-Z_]+=\S*\s|#)")


def lines(path):
    """(line number, text, kind) of a chapter: kind 'prose'; 'code', a line of a fenced block
    with a language (```c); 'diagram', one of a block with none that is not a list of commands
    (a block whose first line is a command, a listing of `make ...`, `./...`, is skipped)"""
    fence, kind = None, None
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        s = line.lstrip()
        if s.startswith("```"):
            if fence is None:
                fence, kind = [], ("code" if s[3:].strip() else "diagram")
            else:
                if kind == "diagram" and fence and COMMAND.match(fence[0][1]):
                    kind = "commands"
                for item in fence:
                    if kind != "commands":
                        yield item[0], item[1], kind
                fence = None
            continue
        if fence is not None:
            if line.strip():
                fence.append((no, line))
            continue
        if line.startswith("#") or line.startswith("    ") and line.strip():
            continue        # a heading; an indented line is a code block too (a formula)
        yield no, line, "prose"


LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]*)\)")


EMPH = re.compile(r"(\*\*|\*|\b_)(?=\S)(.+?)(?<=\S)(\1|_\b)")


def jargon_anchor(name):
    return "?" + name


def events(line, terms, kind="prose"):
    """(position, kind, anchor) in a line: kind 'link' for a glossary link, 'def' for a term in
    italics or bold (its own, or a short phrase's), 'use' for a plain use. A bold or italic
    phrase that ends in '.', ':' or '?' is a run-in heading: a use there, never a definition.
    Words that look like terms and that no glossary entry matches get the anchor '?word'.
    In a fenced block (kind 'code' or 'diagram') only the words that code presupposes
    (IMPLIES) count, and in a diagram the acronyms too."""
    out, masked = [], list(line)
    if kind != "prose":
        text = line
        for word, rx in IMPLIES:
            for m in re.finditer(rx, text):
                out.append((m.start(), "use", implied_anchor(word, terms)))
        if kind == "diagram":
            for m in ACRONYM.finditer(text):
                if acronym_term(m.group(0), None) and not glossary_match(m, text, terms):
                    out.append((m.start(), "use", jargon_anchor(m.group(0))))
        return sorted(out)

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

    def kind_at(a):
        return "def" if any(e[0] <= a < e[1] for e in emph) else "use"

    def in_code(a):
        return next((sp for sp in spans if sp[0] <= a < sp[1]), None)
    for name, anchor, rx, _ in terms:
        for m in rx.finditer(text):
            if "\0" in m.group(0):
                continue
            a = m.start()
            span = in_code(a)
            if span and not rx.fullmatch(span[2]):
                continue
            out.append((a, kind_at(a), anchor))
    # words that look like terms, that no glossary entry matches
    for name, rx in JARGON:
        for m in re.finditer(rx, text, re.I):
            if "\0" in m.group(0) or in_code(m.start()) or glossary_match(m, text, terms):
                continue
            out.append((m.start(), kind_at(m.start()), jargon_anchor(name)))
    for m in ACRONYM.finditer(text):
        word, a = m.group(0), m.start()
        span = in_code(a)
        if "\0" in word or span and span[2] != word or not acronym_term(word, span):
            continue
        if glossary_match(m, text, terms):
            continue
        out.append((a, kind_at(a), jargon_anchor(word)))
    for word, rx in IMPLIES:
        for m in re.finditer(rx, text):
            if in_code(m.start()):
                out.append((m.start(), "use", implied_anchor(word, terms)))
    return sorted(out)


def is_product(word):
    """AB, ABC: a product of the book's matrices, a formula, not an acronym"""
    return set(word) <= set("ABC")


_identifiers = None


def source_identifiers():
    """the identifiers of the repository's C and CUDA code (comments and strings dropped): a
    code span that names one (`IDX`, `BLOCK`) is the code's, which the reader can open"""
    global _identifiers
    if _identifiers is None:
        _identifiers = set()
        for ext in ("c", "h", "cu", "cuh"):
            for path in glob.glob(os.path.join(ROOT, "**", "*." + ext), recursive=True):
                if "/build/" in path:
                    continue
                code = open(path, encoding="utf-8", errors="replace").read()
                code = re.sub(r"/\*.*?\*/|//[^\n]*|\"(\\.|[^\"\\\n])*\"", " ", code, flags=re.S)
                _identifiers.update(re.findall(r"\b[A-Z][A-Z0-9_]*\b", code))
    return _identifiers


def acronym_term(word, span):
    """whether an acronym found in the text is a word to define: not a common one, not a
    product AB, and (in a code span) not an identifier of the repository's code"""
    if word in COMMON or is_product(word):
        return False
    return not (span and word in source_identifiers())


def glossary_match(m, text, terms):
    """whether a glossary entry's spelling overlaps the match m in text"""
    for _, _, rx, _ in terms:
        for g in rx.finditer(text):
            if g.start() < m.end() and m.start() < g.end():
                return True
    return False


def implied_anchor(word, terms):
    """the glossary entry of a word that code presupposes, or its '?word' when it has none"""
    for _, anchor, rx, _ in terms:
        if rx.search(word):
            return anchor
    return jargon_anchor(word)


def first_uses(path, terms):
    """[(line, term name, anchor)] of the terms whose first use in the chapter is not covered;
    a word with no glossary entry has the anchor '?word'"""
    covered, seen, bad = set(), set(), []
    names = {anchor: name for name, anchor, _, _ in terms}
    for no, line, kind in lines(path):
        for _, ev, anchor in events(line, terms, kind):
            if anchor.startswith("?"):
                name = anchor[1:]
                if slug(name) in names:
                    continue        # cannot happen: a glossary entry would have matched it
            elif anchor not in names:
                if ev == "link":
                    bad.append((no, f"#{anchor}", anchor))   # a link to no entry
                continue
            else:
                name = names[anchor]
            if ev in ("link", "def"):
                covered.add(anchor)
            if ev in ("use", "def") and anchor not in seen:
                seen.add(anchor)
                if anchor not in covered:
                    bad.append((no, name, anchor))
    return bad


def chapters():
    return sorted(p for p in glob.glob(os.path.join(ROOT, "[0-9][0-9]_*", "*.md"))
                  if not p.endswith("/NOTES.md"))


def describe(name, anchor):
    if name.startswith("#"):
        return f"a link to docs/glossary.md{name}, which has no such entry"
    if anchor.startswith("?"):
        return (f"'{name}' looks like a term and is in no glossary entry: define it in place "
                f"(*{name}*) at or before its first use, or give it an entry in docs/glossary.md "
                f"and link it")
    return (f"'{name}' used before a link to docs/glossary.md#{anchor} or a definition in "
            f"place (*{name}*)")


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
                        print(f"    {rel}:{no}: {describe(name, anchor)}")
            else:
                print(f"FAIL: {rel}: every term is covered now: remove it from WAIVED in "
                      f"tests/check_glossary.py")
                failed = 1
        elif bad:
            for no, name, anchor in bad:
                print(f"FAIL: {rel}:{no}: {describe(name, anchor)}")
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


# The words a newcomer stalled on in the fixture's chapters (tests/fixtures/glossary/): each
# tuple is one of the eight, and the check must find every spelling in it.
STALLED = [("intrinsic",), ("broadcast",), ("lane",), ("latency", "throughput"),
           ("exit status 77",), ("DAZ", "subnormal"), ("K-major",), ("TILECFG",)]
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "glossary")


def self_test_unknown(terms):
    """the words that look like terms: planted chapters, and the newcomer's eight, each with the
    glossary of the fixture's day, which lacked these words (today's has them as terms)"""
    failed = 0
    then = load_terms(os.path.join(FIXTURE, "glossary.txt"))
    with tempfile.TemporaryDirectory() as d:
        planted = os.path.join(d, "planted.md")
        clean = os.path.join(d, "clean.md")
        open(planted, "w").write("# 97\n\nThe TILECFG holds each tile's shape.\n\n"
                                 "A *TILECFG* is 64 bytes.\n\n```c\n_mm512_fmadd_ps(a, b, c);\n```\n\n"
                                 "**Latency.** A multiply takes 4 cycles.\n")
        open(clean, "w").write("# 96\n\nThe CPU reads a *TILECFG*, and the TILECFG says each tile's shape.\n"
                               "An *intrinsic* is a C function for one instruction:\n\n"
                               "```c\n_mm512_fmadd_ps(a, b, c);\n```\n\nThe product AB, and `IDX`.\n")
        bad = [b[:2] for b in first_uses(planted, then)]
        want = [(3, "TILECFG"), (8, "intrinsic"), (11, "latency")]
        if bad == want:
            print("PASS: glossary check: a planted chapter with an acronym, an intrinsic and a run-in "
                  "heading used before their definitions fails on each")
        else:
            print(f"FAIL: glossary check: the planted chapter gave {bad}, want {want}")
            failed = 1
        bad = first_uses(clean, then) + first_uses(clean, terms)
        if not bad:
            print("PASS: glossary check: a word defined in place (*TILECFG*, *intrinsic*) before "
                  "its use passes; CPU, AB and the code's `IDX` are not terms")
        else:
            print(f"FAIL: glossary check: the clean chapter gave {bad}")
            failed = 1
    found = set()
    for name in sorted(os.listdir(FIXTURE)):
        if name.endswith(".txt") and name not in ("glossary.txt", "README.txt"):
            found |= {b[1] for b in first_uses(os.path.join(FIXTURE, name), then)}
    missed = [" / ".join(w) for w in STALLED if not set(w) <= found]
    if not missed:
        print(f"PASS: glossary check: on the chapters a newcomer read (tests/fixtures/glossary/) it "
              f"finds the eight words they stalled on, among {len(found)}")
    else:
        print(f"FAIL: glossary check: on tests/fixtures/glossary/ it misses {', '.join(missed)}")
        failed = 1
    return failed


def main(argv):
    terms = load_terms()
    list_uses = "--first-uses" in argv
    files = [os.path.abspath(a) for a in argv if not a.startswith("--")]
    failed = 0
    if "--self-test" in argv:
        failed |= self_test(terms)
        failed |= self_test_unknown(terms)
    failed |= check(files or chapters(), terms, list_uses)
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

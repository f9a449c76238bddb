"""The logic behind tests/check-commands.sh (its header says what is checked and how).

Why it is one file: finding a quoted command, shrinking it and judging its run are one pipeline
over the same parsed Markdown; it is read top to bottom as that pipeline.

The quoted commands of the Markdown files are found, classified (make, a stage binary, a bench
script, a Python script, a mentioned path) and run in a scratch copy of the tree, shrunk to
small sizes. With --stub as the first argument this file is the `flock` stand-in that the
bench scripts reach through scripts/bench-lock: it runs the locked command shrunk instead.
"""
import glob, os, re, shlex, shutil, subprocess, sys, tempfile, time

ROOT = os.getcwd()
args = sys.argv[1:]
STUB = bool(args) and args[0] == "--stub"     # called by the flock stub inside a bench script
SHIM = bool(args) and args[0] == "--shim"     # a stage binary's stand-in in the scratch tree
if STUB:
    args = args[1:]
if SHIM:
    # --shim REAL ORIGINAL-PATH ARGS...: run the real binary with ARGS shrunk (a bench script
    # may call the program directly, or copy it elsewhere first: lab/05_simd/bench.sh does)
    STUB = True
GPU_MODE = not STUB and "--gpu" in args
LIST_ONLY = not STUB and "--list" in args
files = [] if STUB else [a for a in args if not a.startswith("--")]
LINK_FILES = files      # whose relative links are checked: the files named, else every .md
if not files:
    files = ["README.md"] + sorted(glob.glob("docs/*.md")) + sorted(
        p for p in glob.glob("[0-9][0-9]_*/*.md") if not p.endswith("/NOTES.md"))   # the chapters

# ---- the stages: "dir prog kind" -------------------------------------------------------------
# (in --stub mode `make` is the stub: the list comes down in the environment)
out = os.environ.get("CHECK_STAGES") or subprocess.run(["make", "-s", "list-stages"], capture_output=True,
                                                       text=True, stdin=subprocess.DEVNULL).stdout
os.environ["CHECK_STAGES"] = out
STAGES = {}          # prog -> (dir, kind)
STAGE_DIRS = {}      # "07" -> dir
for line in out.splitlines():
    p = line.split()
    if len(p) == 3:
        STAGES[p[1]] = (p[0], p[2])
        STAGE_DIRS[p[0][:2]] = p[0]
GPU_DIRS = {d for d, k in STAGES.values() if k == "gpu"}
PYTHON = subprocess.run(["scripts/find-python.sh"], capture_output=True, text=True,
                        stdin=subprocess.DEVNULL).stdout.strip() if not (STUB or SHIM) else ""
HAVE_NVCC = bool(shutil.which("nvcc")) or os.access("/usr/local/cuda/bin/nvcc", os.X_OK)

CMD_START = re.compile(r"^(make\b|\./|build/|scripts/|tests/|[0-9][0-9]_[a-z0-9_]+/|python3?\b|[A-Z_][A-Z0-9_]*=\S*\s)")
PLACEHOLDER = re.compile(r"((?<![A-Z])NN(?![A-Z])|<[^>]*>|\[[^\]]*\]|\.\.\.|…|\bN\b)")

def is_listing(text):
    """a line of a directory listing (`tests/   make test ...`), not a command"""
    return text.split()[0].endswith("/")

def extract(path):
    """(line number, command text, inline?) for every quoted command of a Markdown file."""
    cmds = []
    lines = open(path, encoding="utf-8").read().split("\n")
    in_fence, lang, pending, start = False, "", "", 0
    for no, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_fence, lang = (not in_fence), line[3:].strip()
            continue
        if in_fence:
            if lang not in ("", "sh", "bash", "console", "shell"):
                continue
            text = line.strip()
            if text.startswith("$ "):
                text = text[2:]
            if pending:
                text, start = pending + " " + text, start
            elif CMD_START.match(text) and not is_listing(text):
                start = no
            else:
                continue
            if text.endswith("\\"):
                pending = text[:-1].strip()
                continue
            pending = ""
            cmds.append((start, strip_comment(text), False))
        else:
            for m in re.finditer(r"`([^`]+)`", line):
                text = m.group(1).strip()
                if CMD_START.match(text) and not is_listing(text) and text != "make":
                    cmds.append((no, text, True))
    return cmds

def strip_comment(text):
    """the command without a trailing # comment (a # inside quotes or a word stays)"""
    quote = None
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i].strip()
    return text.strip()

# ---- the student edition ------------------------------------------------------------------------
# make student-edition writes a copy (STUDENT-EDITION.md at its top) without the lab, the
# instructor's key and the exercises' solutions (NN_topic/reference/ holds them compiled): there,
# a link to one of those, a mention of one or a command that runs one is a skip, not a failure.
EDITION = os.path.isfile("STUDENT-EDITION.md") and not STUB
SOLUTIONS = set(subprocess.run(["make", "-s", "list-exercises"], capture_output=True, text=True,
                               stdin=subprocess.DEVNULL).stdout.split()[1::2]) if EDITION else set()

def left_out(path):
    p = os.path.normpath(path)
    if not EDITION or os.path.exists(p):
        return False
    if p.startswith(("lab/", "docs/instructor/")) or p in SOLUTIONS:
        return True
    # a lab program (05's probe: lab/05_simd/lab.mk has its rule): no rule for it here
    return p.startswith("build/") and subprocess.run(["make", "-r", "-n", p], capture_output=True,
                                                     stdin=subprocess.DEVNULL).returncode != 0

# ---- relative links -----------------------------------------------------------------------------
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")

def markdown_files():
    """every Markdown file of the repository: git's list, or a walk outside build/ and .git/"""
    r = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if r.returncode == 0 and r.stdout.strip():
        return sorted(p for p in r.stdout.splitlines() if os.path.isfile(p))
    found = []
    for d, dirs, names in os.walk("."):
        dirs[:] = [x for x in dirs if x not in (".git", "build")]
        found += [os.path.relpath(os.path.join(d, n)) for n in names if n.endswith(".md")]
    return sorted(found)

def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks"""
    in_fence = False
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if not in_fence:
            yield no, line

def slug(heading):
    """GitHub's anchor for a heading: links reduced to their text, lower case, punctuation
    dropped (letters, digits, _ and - stay), spaces to hyphens"""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().strip("#").strip())
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")

def anchors(path):
    seen, out = {}, set()
    for _, line in prose_lines(path):
        m = re.match(r"^#{1,6}\s+(.*)", line)
        if m:
            a = slug(m.group(1))
            out.add(a if a not in seen else f"{a}-{seen[a]}")
            seen[a] = seen.get(a, 0) + 1
    return out

def check_links(paths):
    """each relative link of each file: the target exists; #anchor: a heading that makes it.
    A Markdown file named in inline code (`docs/measuring.md`) must exist too, next to the
    file or from the top of the repository."""
    for path in paths:
        ok = 0
        for no, line in prose_lines(path):
            for name in re.findall(r"`([^`\s]+\.md)`", line):
                if os.path.exists(os.path.join(os.path.dirname(path), name)) or os.path.exists(name):
                    ok += 1
                elif left_out(name):
                    report("SKIP", f"{path}:{no}: `{name}`: not in the student edition")
                else:
                    report("FAIL", f"{path}:{no}: `{name}`: no such file")
            line = re.sub(r"`[^`]*`", "``", line)       # no links inside code
            targets = [m.group(1) for m in LINK.finditer(line)]
            m = REF_LINK.match(line)
            if m:
                targets.append(m.group(1))
            for t in targets:
                if re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I):
                    continue            # http:, https:, mailto:: not this checker's business
                file, _, anchor = t.partition("#")
                file = re.sub(r"%20", " ", file)
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
                if not os.path.exists(dest) and left_out(dest):
                    report("SKIP", f"{path}:{no}: link {t}: not in the student edition")
                elif not os.path.exists(dest):
                    report("FAIL", f"{path}:{no}: link {t}: no such file or folder ({dest})")
                elif anchor and dest.endswith(".md") and re.fullmatch(r"[\w-]+", anchor) \
                        and anchor not in anchors(dest):
                    report("FAIL", f"{path}:{no}: link {t}: no heading '#{anchor}' in {dest}")
                else:
                    ok += 1
        if ok:
            report("PASS", f"{path}: {ok} relative link{'s resolve' if ok > 1 else ' resolves'}")

# ---- classifying and shrinking ------------------------------------------------------------------
def split_env(toks):
    env = {}
    while toks and re.match(r"^[A-Z_][A-Z0-9_]*=", toks[0]):
        k, v = toks[0].split("=", 1)
        env[k] = v
        toks = toks[1:]
    while toks and toks[0] in ("scripts/bench-lock", "./scripts/bench-lock"):
        toks = toks[1:]
    return env, toks

def program_of(path):
    """the stage (dir, prog, kind) a binary path belongs to, or None"""
    base = os.path.basename(path)
    p = path[2:] if path.startswith("./") else path
    if p.startswith("build/grade/") or p.startswith("build/asan/"):
        p = p.split("/", 2)[2]
    d = os.path.dirname(p)
    if base in STAGES and (d == STAGES[base][0] or not d.startswith(tuple("0123456789"))):
        return STAGES[base]
    return None

def cap(v):
    return v if v <= 96 else 64 + v % 32

def small_sizes(spec):
    items = []
    for item in spec.split(","):
        if ":" in item:
            a, b, *rest = item.split(":")
            try:
                if int(a) > int(b):
                    items.append(item)      # a backwards range stays wrong: the program must refuse it
                else:
                    a2 = min(int(a), 32)
                    items.append(":".join([str(a2), str(max(a2, min(int(b), 64)))] + rest))
            except ValueError:
                items.append(item)
        else:
            items.append("x".join(str(cap(int(x))) if x.isdigit() else x for x in item.split("x")))
    return ",".join(dict.fromkeys(items))     # 128 and 256 both become 64: once is enough

def small_len(spec):
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    def one(x):
        m = re.fullmatch(r"(\d+)([KMG]?)", x)
        if not m:
            return x
        n = int(m.group(1)) * units[m.group(2)]
        return x if n <= 16384 else "16K"
    out = []
    for item in spec.split(","):
        if ":" in item:
            a, b, *rest = item.split(":")
            out.append(":".join([one(a), one(b)] + rest))
        else:
            out.append(one(item))
    return ",".join(out)

def shrink(toks, stage):
    """the binary's arguments at small sizes"""
    prog, a = toks[0], toks[1:]
    if os.path.basename(prog) == "peak_gpu":
        return toks
    if os.path.basename(prog) == "peak":
        return toks + (["--quick"] if "--quick" not in a and "--help" not in a and "-h" not in a else [])
    gf = stage and stage[0].endswith("gf256")
    out, i, sized = [], 0, False
    while i < len(a):
        t = a[i]
        val = a[i + 1] if i + 1 < len(a) else None
        if t == "--sizes" and val is not None and not gf:
            out += [t, small_sizes(val)]; i += 2; sized = True; continue
        if t in ("-m", "-n", "-k") and val is not None and not gf and val.isdigit():
            out += [t, str(cap(int(val)))]; i += 2; sized = True; continue
        if t == "--len" and val is not None and gf:
            out += [t, small_len(val)]; i += 2; sized = True; continue
        if t == "--reps" and val is not None:
            out += [t, "1"]; i += 2; continue
        if t == "--shape":
            sized = True
        out.append(t); i += 1
    if not any(x in a for x in ("--list", "--help", "-h")):
        if "--reps" not in a:
            out += ["--reps", "1"]
        if not sized:
            out += ["--len", "4K"] if gf else ["--sizes", "64"]
    return [prog] + out

def is_gpu(text, toks):
    words = " ".join(toks)
    if re.search(r"\bgpu_\w+|test-gpu|peak[-_]gpu|\bmake( \S+)* gpu\b", words):
        return True
    for t in toks:
        t2 = t[2:] if t.startswith("./") else t
        for d in GPU_DIRS:
            if t2.startswith(d + "/") or t2.startswith("build/grade/" + d + "/") or t == "stage" + d[:2]:
                return True
    return False

# ---- running -------------------------------------------------------------------------------------
SCRATCH = None if STUB else tempfile.mkdtemp(prefix="check-commands.")
LOGDIR = os.path.join(ROOT, "build", "check-commands")
counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
def report(kind, msg):
    counts[kind] += 1
    print(f"{kind}: {msg}", flush=True)

def make_scratch():
    tree = os.path.join(SCRATCH, "tree")
    os.makedirs(tree)
    # (build/port: tests/portability.sh builds there while make test runs these checks)
    subprocess.run(f"tar --exclude=./.git --exclude=./build/check-commands --exclude=./build/test-logs "
                   f"--exclude=./build/test-gpu-logs --exclude=./build/port -cf - . | (cd {shlex.quote(tree)} && tar -xf -)",
                   shell=True, check=True, stdin=subprocess.DEVNULL)
    stub = os.path.join(SCRATCH, "stub")
    os.makedirs(stub)
    # flock LOCKFILE CMD...: run CMD shrunk (this program's --stub mode), never a full benchmark
    with open(os.path.join(stub, "flock"), "w") as f:
        f.write(f'#!/bin/sh\nshift\nexec {shlex.quote(sys.executable)} {shlex.quote(os.path.abspath(__file__))} --stub "$@"\n')
    with open(os.path.join(stub, "make"), "w") as f:   # the stages are built already
        f.write('#!/bin/sh\nexit 0\n')
    for n in ("flock", "make"):
        os.chmod(os.path.join(stub, n), 0o755)
    # every stage binary (and build/peak) becomes a shim that shrinks its
    # arguments, so that a script that runs a program without the lock runs it small too
    progs = [os.path.join(d, p) for p, (d, _) in STAGES.items()] + ["build/peak"]
    for rel in progs:
        path = os.path.join(tree, rel)
        if not os.path.isfile(path):
            continue
        real = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".real")
        os.rename(path, real)
        with open(path, "w") as f:
            f.write(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(os.path.abspath(__file__))} '
                    f'--shim {shlex.quote(real)} {shlex.quote(rel)} "$@"\n')
        os.chmod(path, 0o755)
    return tree, stub

def run_binary(toks, env, cwd, timeout=120):
    e = dict(os.environ, **env)
    try:
        r = subprocess.run(toks, cwd=cwd, env=e, capture_output=True, text=True, timeout=timeout,
                           stdin=subprocess.DEVNULL)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout} s"
    except OSError as ex:
        return 127, str(ex)

def strip_wrappers(toks):
    """env [-u X] [A=B] cmd / SCRIPT --when-quiet cmd (06's bench.sh) -> env, cmd"""
    env = {}
    while toks:
        if toks[0] == "env":
            toks = toks[1:]
            while toks and (toks[0] == "-u" or re.match(r"^[A-Z_][A-Z0-9_]*=", toks[0])):
                if toks[0] == "-u":
                    env[toks[1]] = ""; toks = toks[2:]
                else:
                    k, v = toks[0].split("=", 1); env[k] = v; toks = toks[1:]
        elif len(toks) > 1 and toks[1] == "--when-quiet":
            toks = toks[2:]
        else:
            break
    return env, toks

def check_binary(toks, env, cwd):
    """(rc, output) of the shrunk run; rc 2 from the --list pre-check means a bad argument"""
    stage = program_of(toks[0])
    if stage and not any(x in toks for x in ("--list", "--help", "-h")):
        rc, outp = run_binary(toks + ["--list"], env, cwd, 60)
        if rc not in (0, 77):
            return rc, "(arguments + --list) " + outp
    small = shrink(toks, stage)
    # a CSV under results/<machine>/: the book makes that folder first (make peak, bench.sh),
    # which this scratch tree has not done; the program itself refuses a missing folder
    for flag, path in zip(small, small[1:]):
        if flag in ("--csv", "--stats") and os.path.dirname(path) and not os.path.isabs(path):
            os.makedirs(os.path.join(cwd, os.path.dirname(path)), exist_ok=True)
    rc, outp = run_binary(small, env, cwd)
    return rc, "$ " + shlex.join(small) + "\n" + outp

NOT_HERE = 1000  # (not an exit status) a command for a stage this machine cannot build: a skip

def missing_stages(make_args, env, cwd):
    """{"13": why} for each stage that make leaves out here (a dependency it lacks), asked with
    the quoted command's VAR=value arguments and environment"""
    r = subprocess.run(["make", "-s", "missing-stages"] + make_args, capture_output=True, text=True,
                       env={**os.environ, **env}, cwd=cwd, stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        return {}
    return {l.split()[0][:2]: l.split(None, 1)[1] for l in r.stdout.splitlines() if len(l.split()) > 1}

def check_make(toks, env, cwd):
    vars_ = dict(t.split("=", 1) for t in toks[1:] if "=" in t and not t.startswith("-"))
    named = [(key, s) for key in ("STAGE", "STAGES") for s in vars_.get(key, "").split()]
    missing = missing_stages([t for t in toks[1:] if "=" in t and not t.startswith("-")], env, cwd) if named else {}
    for key, s in named:
        if s not in STAGE_DIRS and s not in missing:
            return 2, f"{key}={s}: no such stage (make list-stages)"
    for key, s in named:
        if s in missing:
            return NOT_HERE, f"stage {s} is not built here: {missing[s]}"
    targets = [t for t in toks[1:] if not t.startswith("-") and "=" not in t]
    if targets and all(t.startswith("build/") for t in targets):
        # a build product (a probe, a grade build): build it for real, so that the commands
        # quoted after it, which run it, find it (a few seconds of compiling)
        return run_binary(["make", "-s"] + toks[1:], env, cwd, 300)
    rc, outp = run_binary(["make", "-n"] + toks[1:], env, cwd, 120)
    return rc, outp

def check_one(text, where, tree, stub, gpu):
    try:
        toks = shlex.split(text)
    except ValueError as ex:
        report("FAIL", f"{where}: {text}: cannot parse ({ex})")
        return
    # a && b: each part in turn
    parts, cur = [], []
    for t in toks:
        if t == "&&":
            parts.append(cur); cur = []
        else:
            cur.append(t)
    parts.append(cur)
    results, t0 = [], time.time()
    for part in parts:
        env, cmd = split_env(part)
        if not cmd:
            continue
        head = cmd[0]
        if head == "make":
            rc, outp = check_make(cmd, env, tree)
            if rc != 0 and gpu and not HAVE_NVCC:
                rc = 77
        elif re.match(r"^(\./)?[0-9][0-9]_[a-z0-9_]+/(bench|tune)[a-z0-9_]*\.sh$", head):
            rc, outp = check_script(cmd, env, tree, stub)
        elif head.endswith(".py") or head.startswith("python"):
            if head.startswith("python") and PYTHON:
                cmd = [PYTHON] + cmd[1:]    # the python3 that has matplotlib, as install-deps.sh set up
            rc, outp = run_binary(cmd, env, tree, 120)
        elif program_of(head) or os.path.basename(head) in ("peak", "peak_gpu"):
            rc, outp = check_binary(cmd, env, tree)
            if head.startswith("build/grade/") and rc == 1:
                rc = 0          # an unsolved exercise fails its checks: that is what it is for
        else:
            path = os.path.join(tree, head)
            if not os.path.exists(path):
                rc, outp = 127, f"{head}: no such file"
            else:
                rc, outp = run_binary(cmd, env, tree, 120)
        results.append((rc, outp))
        if rc not in (0,):
            break
    rc, outp = results[-1] if results else (0, "")
    log = os.path.join(LOGDIR, re.sub(r"[^A-Za-z0-9]+", "_", where) + ".log")
    with open(log, "w") as f:
        f.write(f"$ {text}\n{outp}\n(exit {rc})\n")
    secs = time.time() - t0
    took = f" ({secs:.0f} s)" if secs >= 5 else ""
    if rc == 0:
        report("PASS", f"{where}: {text}{took}")
    elif rc == NOT_HERE:
        report("SKIP", f"{where}: {text} ({outp})")
    elif rc == 77 and gpu and not GPU_MODE:
        report("SKIP", f"{where}: {text} (no CUDA device here: make test-gpu checks it)")
    elif rc == 77 and not gpu:
        # "skipped on this machine" (05's AVX-512 variants on a CPU without it): say why
        why = next((l for l in reversed(outp.strip().splitlines())
                    if l.strip() and not re.match(r"\s*exit \d+:|\d+ locked commands", l)), "exit 77")
        report("SKIP", f"{where}: {text} ({why.strip()})")
    else:
        report("FAIL", f"{where}: {text} (exit {rc}; log {os.path.relpath(log, ROOT)})")
        for l in outp.strip().splitlines()[-4:]:
            print("    " + l)

def check_script(cmd, env, tree, stub):
    path = os.path.join(tree, cmd[0][2:] if cmd[0].startswith("./") else cmd[0])
    if not os.path.exists(path):
        return 127, f"{cmd[0]}: no such file"
    if not os.access(path, os.X_OK):
        return 126, f"{cmd[0]}: not executable (chmod +x)"
    runlog = os.path.join(SCRATCH, "stub.log")
    open(runlog, "w").close()
    # a lock file of its own: under `scripts/bench-lock make test`, bench-lock must not see the
    # lock as held (it would then run the commands without the flock stub that shrinks them)
    e = dict(env, PATH=stub + ":" + os.environ["PATH"], CHECK_STUB_LOG=runlog, CHECK_SHRINK="1",
             GEMM_BENCH_LOCK=os.path.join(SCRATCH, "bench.lock"),
             QUIET_WAIT="0", QUIET_MAX="0", REPEAT=env.get("REPEAT", "1"))
    rc, outp = run_binary(cmd, e, tree, 300)
    runs = [l.split("\t", 1) for l in open(runlog).read().splitlines()]
    bad = [r for r in runs if r[0] not in ("0", "77")]
    summary = f"\n{len(runs)} locked commands run small: " + ", ".join(sorted({r[0] for r in runs})) + " (exit statuses)\n"
    summary += "\n".join(f"  exit {r[0]}: {r[1]}" for r in runs)
    if rc == 0 and bad:
        rc = int(bad[0][0]) or 1
    elif rc == 0 and runs and all(r[0] == "77" for r in runs):
        rc = 77
    return rc, outp + summary

# the flock stub: run the locked command shrunk, log "rc<TAB>command", pass 77 on as 0 so that
# a GPU script goes on to its next command
def stub_main(argv):
    env, toks = strip_wrappers(argv)
    e = {k: v for k, v in env.items() if v}
    for k, v in env.items():
        if not v:
            os.environ.pop(k, None)
    if program_of(toks[0]) or os.path.basename(toks[0]) == "peak":
        rc, outp = check_binary(toks, e, os.getcwd())
    else:
        rc, outp = run_binary(toks, e, os.getcwd(), 300)
    sys.stdout.write(outp)
    with open(os.environ["CHECK_STUB_LOG"], "a") as f:
        f.write(f"{rc}\t{shlex.join(argv)}\n")
    return 0 if rc == 77 else rc


if SHIM:
    # shrink only inside a bench or tune script (CHECK_SHRINK): a stage's own test script
    # (tests/stages/11_gf256.sh) passes exact arguments, bad ones on purpose
    real, orig = args[1], args[2]
    argv = args[3:]
    if os.environ.get("CHECK_SHRINK"):
        argv = shrink([orig] + argv, program_of(orig))[1:]
    os.execv(real, [orig] + argv)
if STUB:
    sys.exit(stub_main(args))

# ---- main ------------------------------------------------------------------------------------
found = []
for path in files:
    for no, text, inline in extract(path):
        found.append((path, no, text, inline))

if LIST_ONLY:
    for path, no, text, inline in found:
        print(f"{path}:{no}: {text}")
    shutil.rmtree(SCRATCH, ignore_errors=True)
    sys.exit(0)

os.makedirs(LOGDIR, exist_ok=True)
if not GPU_MODE:
    check_links(LINK_FILES or markdown_files())
tree, stub = make_scratch()
seen, templates = set(), 0
for path, no, text, inline in found:
    if not text:
        continue
    if PLACEHOLDER.search(text):
        templates += 1
        continue
    try:
        toks = shlex.split(text)
    except ValueError:
        toks = text.split()
    # an inline mention of a script or program with no arguments: it must exist, runnable
    if inline and len(toks) == 1 and toks[0] != "make":
        if GPU_MODE:
            continue            # make test checks the mentions
        top = toks[0].lstrip("./").split("/")[0]
        if top not in set(STAGE_DIRS.values()) | {"scripts", "tests", "build", "common", "plots", "docs"}:
            continue            # a path relative to somewhere else (results/h100/09_tune/...)
        p = os.path.join(ROOT, toks[0])
        key = ("exists", toks[0])
        if key in seen:
            continue
        seen.add(key)
        if left_out(toks[0]):
            report("SKIP", f"{path}:{no}: {text} (not in the student edition)")
            continue
        made = toks[0].startswith("build/") or program_of(toks[0]) or not os.path.exists(p)
        if made:        # a build product (or nothing): there must be a rule for it; a clean clone has no file
            rc, _ = run_binary(["make", "-r", "-n", toks[0].lstrip("./")], {}, ROOT, 60)   # -r: no built-in rules
            report("PASS" if rc == 0 else "FAIL", f"{path}:{no}: {text} ({'a make target' if rc == 0 else 'no make rule'})")
        elif os.path.isfile(p) and (os.access(p, os.X_OK) or not p.endswith(".sh")):
            report("PASS", f"{path}:{no}: {text} (exists)")
        elif os.path.isfile(p):
            report("FAIL", f"{path}:{no}: {text}: not executable")
        else:
            report("FAIL", f"{path}:{no}: {text}: no such file")
        continue
    if not split_env(toks)[1]:
        continue                # `KC=256 NC=512`: settings named in the text, not a command
    head = split_env(toks)[1][0]
    if head in ("tests/check-commands.sh", "tests/check_commands.py"):
        continue                # this checker, quoted in the docs: it does not run itself
    if not CMD_START.match(head + " "):
        continue                # `CI=true bash .ci/run`: a command this checker does not run (bash, git, ...)
    gpu = is_gpu(text, toks)
    if GPU_MODE and not gpu:
        continue
    key = ("run", text)
    if key in seen:
        continue
    seen.add(key)
    if any(left_out(t) for t in toks if "/" in t):
        report("SKIP", f"{path}:{no}: {text} (runs what is not in the student edition)")
        continue
    check_one(text, f"{path}:{no}", tree, stub, gpu)

shutil.rmtree(SCRATCH, ignore_errors=True)
print(f"({templates} template lines with placeholders not run; logs in {os.path.relpath(LOGDIR, ROOT)}/)")
print()
print(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
sys.exit(1 if counts["FAIL"] else 0)

#!/usr/bin/env bash
# tests/check-deps.sh: the Makefile tracks every header a program is built from, so that editing
# one rebuilds exactly what includes it (generated dependencies: gcc and nvcc -MMD -MP).
#
#   tests/check-deps.sh          (after a full build: make all asan grade-bins)
#
#   1. every object's dependency file (build/**/*.d) lists each header its source includes with
#      #include "..." outside #if blocks (found beside the source, or in common/);
#   2. for a few headers, `make -n -W HEADER all` (make's "what if this file changed"; build/flags,
#      build/nvflags and build/git-rev held as they are) rebuilds
#      every program whose sources include it, and the programs of stages that do not include it
#      stay as they are; build/peak_gpu (compiled and linked in one nvcc call) among them.
# Prints PASS:/FAIL:/SKIP: lines; exit 1 if any FAIL.
set -u
cd "$(dirname "$0")/.."
failed=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failed=1; }

PY=$(command -v python3 || true)
if [ -z "$PY" ]; then
    echo "SKIP: dependency files: no python3"
elif ls build/rel/common/*.d >/dev/null 2>&1; then
    out=$("$PY" - <<'EOF'
import glob, os, re
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
missing, seen = [], 0
for d in glob.glob('build/rel/**/*.d', recursive=True):
    obj = d[:-2] + '.o'
    rel = os.path.relpath(d[:-2], 'build/rel')
    src = next((rel + e for e in ('.c', '.cu') if os.path.exists(rel + e)), None)
    if not src:
        continue
    listed = {os.path.realpath(p) for p in open(d).read().replace('\\\n', ' ').split()
              if not p.endswith(':')}
    listed |= {os.path.realpath(p.rstrip(':')) for p in open(d).read().split() if p.endswith(':')}
    seen += 1
    depth, heads = 0, []  # the includes outside #if blocks: those every build of it reads
    for line in open(src, errors='replace'):
        t = line.strip()
        if re.match(r'#\s*if', t):
            depth += 1
        elif re.match(r'#\s*endif', t):
            depth -= 1
        elif depth == 0:
            heads += inc.findall(line)
    for h in heads:
        for base in (os.path.dirname(src), 'common'):
            p = os.path.join(base, h)
            if os.path.exists(p):
                if os.path.realpath(p) not in listed:
                    missing.append(f'{d}: does not list {os.path.normpath(p)}, which {src} includes')
                break
print(seen)
for m in missing:
    print(m)
EOF
)
    n=$(echo "$out" | head -n 1)
    bad=$(echo "$out" | tail -n +2)
    if [ -z "$bad" ]; then pass "dependency files: each of $n objects lists every header its source includes"
    else echo "$bad" | head -n 10 | while read -r l; do echo "FAIL: $l"; done; failed=1; fi
else
    echo "SKIP: dependency files: nothing built yet (make all first)"
fi

# what-if: HEADER changed -> these programs are rebuilt, those are not
whatif() { # HEADER "PROGRAMS REBUILT" "PROGRAMS KEPT"
    local h=$1 p out
    [ -f "$h" ] || { echo "SKIP: make -n -W $h: no such header"; return; }
    out=$(make -n -o build/flags -o build/nvflags -o build/git-rev -W "$h" all 2>/dev/null | grep -oE -- '-o [^ ]+' | sed 's/^-o //')
    for p in $2; do
        [ -e "$p" ] || continue # not built on this machine (no nvcc, no MPI)
        if echo "$out" | grep -qxF "$p"; then pass "make -n -W $h: rebuilds $p"
        else fail "make -n -W $h: $p is not rebuilt, though it includes the header"; fi
    done
    for p in $3; do
        [ -e "$p" ] || continue
        if echo "$out" | grep -qxF "$p"; then fail "make -n -W $h: rebuilds $p, which does not include it"
        else pass "make -n -W $h: leaves $p alone"; fi
    done
}
whatif 05_simd/simd.h "05_simd/simd 06_strassen/strassen 14_amx/amx" "01_naive/naive 04_threads/threads"
whatif common/timer.h "01_naive/naive 05_simd/simd" ""
whatif 12_cuda_tensor_cores/hopper.cuh "12_cuda_tensor_cores/cuda_tensor_cores" "09_cuda_registers/cuda_registers 01_naive/naive"
# the peak program includes the headers of common/ it is built from
whatif common/cuda_harness.cuh "build/peak_gpu 07_cuda_naive/cuda_naive" "01_naive/naive"
exit $failed

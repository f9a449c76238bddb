#!/usr/bin/env python3
"""Does a kernel fault in fresh memory on every call? Runs a stage's program twice, with --reps 1
and with --reps 41, and counts the minor page faults of each run (getrusage). The forty extra
calls of every variant should need none: buffers a kernel needs are kept from call to call
(a buffer freed at the end of each call goes back to the kernel, and the next call pays a page
fault for every 4 KiB of it again; chapter 03, "Pitfalls").

    tests/steady-faults.py PROGRAM [ARGS...]    prints one line; exit 0 if it held, 1 if not
"""
import resource
import subprocess
import sys

EXTRA_CALLS = 40
# In all, over every variant's forty calls. Not 0: a thread that first gets work late (one tile
# of C, two threads, dynamic schedule) allocates its buffers then, once. A buffer allocated in
# every call costs forty times its pages: 3 x 169 KiB blocks at 200, 5,100 faults.
ALLOWED = 1000


def faults(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    rc = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    if rc != 0:
        print(f"{' '.join(args)}: exit status {rc}")
        sys.exit(1)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - before


def main():
    prog = sys.argv[1:]
    if not prog:
        print("usage: steady-faults.py PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    once = faults(prog + ["--reps", "1"])
    more = faults(prog + ["--reps", str(1 + EXTRA_CALLS)])
    extra = more - once
    held = extra <= ALLOWED
    why = "" if held else ": a buffer is allocated and freed in every call?"
    print(f"{EXTRA_CALLS} more calls of each variant, {max(extra, 0)} more page faults "
          f"(at most {ALLOWED} allowed){why}")
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())

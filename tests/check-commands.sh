#!/usr/bin/env bash
# tests/check-commands.sh: every command the book quotes still runs as written.
#
#   tests/check-commands.sh [--gpu] [--list] [FILE.md ...]
#       (default files: README.md docs/*.md and the chapters, NN_*/*.md but NOTES.md, in that order)
#
# What counts as a quoted command: a line of a fenced block with no language (or sh, bash,
# console) that starts with make, ./, build/, scripts/, tests/, NN_topic/, python3 or an
# environment assignment (VAR=value cmd); and inline `code` in the text that starts the same
# way and has arguments. `#` comments are dropped, `\` continuations joined, `a && b` split.
# A line with a placeholder (NN, <...>, [...], ...) is a template: listed, not run.
#
# How each is checked, in a scratch copy of the tree (build products included), so that no
# command can overwrite a committed CSV or chart:
#   make T ...       `make -n T ...` must succeed (the target exists, its recipe expands);
#                    a target under build/ (a probe, a grade build) is built for real, since
#                    the quoted commands after it run it;
#                    STAGE=NN / STAGES="NN .." must name stages. Nothing is built or run:
#                    `make run`, `make test`, `make peak`, `make grade` are checked this way only.
#   a stage binary   first with the quoted arguments and --list appended (every option name
#                    and number parses), then for real at small sizes: --sizes, -m/-n/-k
#                    capped (values above 96 become 64 + v mod 32, so odd sizes stay odd),
#                    11_gf256's --len capped at 16K, --reps 1, --sizes 64 added when no size
#                    is given; build/peak gets --quick. Exit 0 passes; 77 ("no NVIDIA GPU
#                    or driver found: skipped") is a skip, not a failure; a build/grade/
#                    binary (an unsolved exercise) may exit 1 but must not crash.
#   NN_topic/*.sh    the bench and tune scripts run end to end with every timed command
#                    shrunk: `flock` (what scripts/bench-lock runs) and `make` are replaced by
#                    stubs on PATH; the flock stub runs the locked command at small sizes as
#                    above, so each script's arguments, its command lines and what it does
#                    with the CSVs afterwards (report.py, targets.py, awk) are all exercised.
#                    The full runs take 10 to 40 minutes: this is their dry run.
#   NN_topic/*.py    run as quoted (after the scripts before them, on their small CSVs).
#   a path alone     an inline mention (`lab/05_simd/bench.sh`, `01_naive/naive.c`) must exist, and a
#                    .sh must be executable.
# GPU commands (a CUDA stage's binary or script, 11_gf256's gpu_* variants, make test-gpu,
# peak-gpu, stage07+) exit 77 on a machine with no GPU and are counted as skipped. A CPU
# command that exits 77 (05's AVX-512 variants and probes on a CPU without AVX-512) is a skip
# too, with the program's last line as the reason.
# Links first: in every Markdown file of the repository (or the files named), each relative
# link [text](path#anchor) must reach a file or folder, and an #anchor of a .md file one of its
# headings (GitHub's slug); a .md file named in inline code must exist (next to the file or
# from the top). A PASS line per file, a FAIL line per broken link. Not with --gpu.
# --gpu: only the GPU commands, and a 77 is a failure (make test-gpu runs this on a GPU).
# --list: print the commands found, run nothing.
# Prints PASS:/FAIL:/SKIP: lines (each run's output in build/check-commands/), and ends with
# "N passed, N failed, N skipped". The logic is in tests/check_commands.py (Python 3, standard
# library only). make test runs this; make test-gpu runs it with --gpu.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
PY=$(command -v python3 || true)
if [ -z "$PY" ]; then echo "SKIP: no python3 (scripts/install-deps.sh installs it)"; echo; echo "0 passed, 0 failed, 1 skipped"; exit 0; fi
exec "$PY" tests/check_commands.py "$@"

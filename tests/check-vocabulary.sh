#!/usr/bin/env bash
# tests/check-vocabulary.sh: the repository speaks only of itself.
#
#   tests/check-vocabulary.sh [FILE ...]   (default: every tracked text file, `git ls-files`,
#                                          then the self-test)
#   tests/check-vocabulary.sh --self-test  (only the self-test)
#
# A reader outside the team cannot tell what the words of the machinery that measured and wrote
# this repository mean: a session or the helpers in it, a loan and lending, a lease, device time,
# a "call" as a stretch of a machine's time (call3, "the first call on the host"), a budget of a
# lent machine's time, "carry/carried" for a library brought along (say bundled), the name of a
# machine kind of a lending service (nvidia-h100-x1). Machines are named by what they are ("the
# 16-core Xeon host of one H100"), result folders by machine and date or purpose.
# The words are the regexes in WORDS below (grep -E, any case), each with what to write instead.
# Technical meanings (carry-less multiplication, a function call, helpers.cuh) are admitted by
# tests/vocabulary-allow.txt: a path glob, a regex and the reason; the part of a line that an
# entry of a file's glob matches is blanked out before the words are looked for, so an entry
# admits its own words and no others. An entry that admits nothing any more is stale and fails.
#
# One FAIL line per hit (path:line: 'word' and what to write instead), a PASS line when there is
# none; exit 1 if any FAIL. Binary files (PNG) are not read.
# VOCABULARY_SKIP_NOTES=1 leaves out the lab notebooks, lab/*/NOTES.md, while they are rewritten
# (one SKIP line says how many files); make test sets it until that rewrite lands.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
ALLOW=$ROOT/tests/vocabulary-allow.txt
# this checker and its allowlist name the words in order to find them
SELF="tests/check-vocabulary.sh tests/vocabulary-allow.txt"

# regex <TAB> what to write instead
WORDS=$(cat <<'EOF'
\bsessions?\b	names the work's sessions: say what happened and when (the run, the day, the measurements)
\bsub-?agents?\b	names agents that did the work: say what was done
\bhelpers?('s|s')?\b	a helper that worked on this: say what ran (another build, another benchmark); a function: name it
\bloans?\b	a loan of a machine: name the machine and the date (the 4 x H200 host, 2026-11-27)
\b(lend|lends|lending|lender|lent)\b	a lent machine: name the machine by what it is
\bleases?d?\b	a lease of a machine: name the machine and the date
\bdevice[- ]time\b	machine time: say minutes, or what ran
\bdevice (machine|host|call)s?\b	say what the machine is (the 16-core Xeon host of one H100)
\bnvidia-[a-z]+[0-9]+(-x[0-9]+)?\b	a machine kind's name: say what the machine is (one H100, 4 x H200)
\b(machine|host)s? of the (same )?kind\b	a machine kind: say what the machine is, or another such machine
\bcalls?[-_]?[0-9]+\b	a call as a unit of work: a run, a folder named for its date or purpose
\bcall [0-9]+\b|\bcalls [0-9]+ ?(-|–|to|and) ?[0-9]+\b	a call as a unit of work: a run, named by date or purpose
\b(second|third|fourth|fifth|sixth) calls?\b|\b(two|three|four|five|six) calls\b	a call as a unit of work: a run (the second run on the host)
\bcalls? (on|of) (a |the |this |that |one |each )?(freshly started |fresh |new )?([0-9]+-core )?(gpu |cpu )?(host|machine)s?\b	a call on a machine: a run on it
\bcalls? of (about |at most |under |over |some )?[0-9.]+ ?(s|sec|seconds?|min|minutes?|h|hours?)\b	a call as a stretch of time: a run of N minutes
\b(device|machine|gpu|host|loan|lease|session)('s)? (time )?budgets?\b	a lent machine's time: say minutes, or the script's time limit
(\.|\b[a-z]+[-_])carry\b|\bcarry[_/]	a library brought along: bundled (.mkl-bundle, MKL_BUNDLE_DIR)
\b(the|none|one|is|was|were) carried\b|[:=] ?carried\b|\bcarried (one|ones|copy|copies|librar(y|ies)|mkl|scalapack|openblas|blis|from pypi)\b	a library brought along: say bundled
\bcarry (it|them) (there|along)\b	bringing files to a machine: copy them there
EOF
)
mapfile -t PAT < <(cut -f1 <<<"$WORDS")
mapfile -t WHY < <(cut -f2 <<<"$WORDS")

# the allowlist: "glob  regex  reason", two or more spaces apart; # comments
AGLOB=() AREX=() ALINE=()
load_allow() {
    local n=0 line glob rex why
    while IFS= read -r line; do
        n=$((n + 1))
        [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
        IFS=$'\t' read -r glob rex why <<<"$(sed -E 's/ {2,}/\t/g' <<<"$line")"
        if [ -z "$glob" ] || [ -z "$rex" ] || [ -z "$why" ]; then
            echo "FAIL: $ALLOW:$n: want 'glob  regex  reason' (two spaces apart): $line"
            return 1
        fi
        AGLOB+=("$glob") AREX+=("$rex") ALINE+=("$n")
    done <"$ALLOW"
}

# scan FILE...: one FAIL line per hit; sets hits and, per allowlist entry, used[i]=1
declare -A used=()
scan() {
    local combined hit path rest n text i j m
    combined=$(printf '%s\n' "${PAT[@]}" | paste -sd'|')
    hits=0
    shopt -s nocasematch
    while IFS= read -r hit; do
        path=${hit%%:*} rest=${hit#*:}
        n=${rest%%:*} text=${rest#*:}
        for i in "${!AGLOB[@]}"; do
            # shellcheck disable=SC2053 # the glob is a pattern
            [[ $path == ${AGLOB[$i]} ]] || continue
            while [[ $text =~ ${AREX[$i]} ]] && [ -n "${BASH_REMATCH[0]}" ]; do
                text=${text/"${BASH_REMATCH[0]}"/ }
                used[$i]=1
            done
        done
        for j in "${!PAT[@]}"; do
            while [[ $text =~ ${PAT[$j]} ]] && [ -n "${BASH_REMATCH[0]}" ]; do
                m=${BASH_REMATCH[0]}
                echo "FAIL: $path:$n: '$m' ${WHY[$j]}"
                hits=$((hits + 1))
                text=${text/"$m"/ }
            done
        done
    done < <(printf '%s\0' "$@" | xargs -0 -r grep -IHniE -e "$combined" -- 2>/dev/null)
    shopt -u nocasematch
}

# select_files FILE...: keep, the files to read (files that exist, but this checker's own and,
# with VOCABULARY_SKIP_NOTES=1, the lab notebooks); skipped, how many notebooks were left out
select_files() {
    local f
    keep=() skipped=0
    for f in "$@"; do
        [[ " $SELF " == *" $f "* ]] && continue
        [ -f "$f" ] || continue
        if [ "${VOCABULARY_SKIP_NOTES:-}" = 1 ] && [[ $f == lab/*/NOTES.md ]]; then
            skipped=$((skipped + 1)); continue
        fi
        keep+=("$f")
    done
}

# the self-test: each line of a planted file must fail with the word it was planted for (a banned
# word beside an admitted one too), the clean file pass, a notebook fail, and be left out on request
self_test() {
    local tmp out ok=1 n=0 want text l
    tmp=$(mktemp -d)
    mkdir -p "$tmp/lab/99_planted"
    # the word each line must fail with | the line
    while IFS='|' read -r want text; do
        n=$((n + 1))
        echo "$text" >>"$tmp/planted.md"
        echo "$want" >>"$tmp/want.txt"
    done <<'EOF'
session|Measured in the third session.
subagent|A subagent wrote it.
helper's|The helpers.cuh file, and a helper's compiles on the other core.
loan|The loan ran out.
lent|The machines were lent for an hour.
lease|Not in the lease.
device time|No device time was left.
device machine|On the device machine.
nvidia-h100-x1|On the nvidia-h100-x1 machines.
host of the kind|Perhaps on another host of the kind.
call3|Logs in results/h200x2/13_distributed/call3/.
call 4|As call 4 showed.
Calls 1 and 2|Calls 1 and 2 ran on one host.
second call|The second call repeats both kernels.
four calls|The four calls of the day.
call on a freshly started 16-core GPU host|The first call on a freshly started 16-core GPU host.
call of about 7 minutes|In one call of about 7 minutes.
machine budget|The machine budget was spent.
mkl-carry|MKL from .mkl-carry.
MKL_CARRY|MKL_CARRY names the folder.
the carried|ScaLAPACK: the carried one.
carried from PyPI|MKL carried from PyPI.
carry it there|Export it and carry it there.
EOF
    cat >"$tmp/clean.md" <<'EOF'
A carry-less multiplication: the product has no carries between bits; NaN carried from the poison.
Every function call is checked; the first call of a variant warms it up; the next call reuses it.
Release the device buffers; nvidia-smi names the GPU; an excellent helpers.cuh; the time budget.
The bundled MKL (.mkl-bundle, MKL_BUNDLE_DIR) on the 16-core Xeon host of one H100.
EOF
    echo 'The session report.' >"$tmp/lab/99_planted/NOTES.md"
    out=$(cd "$tmp" && scan planted.md)
    for i in $(seq "$n"); do
        want=$(sed -n "${i}p" "$tmp/want.txt")
        grep -qiF "FAIL: planted.md:$i: '$want' " <<<"$out" ||
            { echo "FAIL: self-test: planted.md line $i did not fail with '$want': $(sed -n "${i}p" "$tmp/planted.md")"; ok=0; }
    done
    out=$(cd "$tmp" && scan clean.md)
    if [ -n "$out" ]; then
        echo "FAIL: self-test: technical meanings were failed:"
        while IFS= read -r l; do echo "    $l"; done <<<"$out"
        ok=0
    fi
    out=$(cd "$tmp" && scan lab/99_planted/NOTES.md)
    grep -q "^FAIL: lab/99_planted/NOTES.md:1: 'session'" <<<"$out" || { echo "FAIL: self-test: a notebook's 'session' was not caught"; ok=0; }
    out=$(cd "$tmp" && VOCABULARY_SKIP_NOTES=1 && select_files lab/99_planted/NOTES.md planted.md && echo "${keep[*]} $skipped")
    [ "$out" = "planted.md 1" ] || { echo "FAIL: self-test: VOCABULARY_SKIP_NOTES=1 kept '$out' (want planted.md, 1 notebook left out)"; ok=0; }
    rm -rf "$tmp"
    [ $ok -eq 1 ] && echo "PASS: self-test: each of $n planted lines fails with its word (a banned word beside an admitted one too), a notebook's too unless left out; technical meanings (carry-less, a function call, helpers.cuh) pass"
    [ $ok -eq 1 ]
}

load_allow || exit 1
if [ "${1:-}" = --self-test ]; then self_test; exit $?; fi

all=0
if [ $# -eq 0 ]; then
    all=1
    mapfile -t files < <(git ls-files)
else
    files=("$@")
fi
select_files "${files[@]}"
failed=0
scan "${keep[@]}"
[ $hits -eq 0 ] || failed=1
[ $skipped -eq 0 ] || echo "SKIP: $skipped lab notebooks (lab/*/NOTES.md) not read: VOCABULARY_SKIP_NOTES=1"
if [ $all -eq 1 ]; then
    for i in "${!AGLOB[@]}"; do
        [ -n "${used[$i]:-}" ] && continue
        # an entry that may be for the notebooks admits nothing while they are skipped
        # shellcheck disable=SC2053 # the glob is a pattern
        [ $skipped -gt 0 ] && [[ lab/x/NOTES.md == ${AGLOB[$i]} ]] && continue
        echo "FAIL: $ALLOW:${ALINE[$i]}: admits nothing any more ('${AGLOB[$i]}', '${AREX[$i]}'): remove it"
        failed=1
    done
fi
[ $hits -gt 0 ] || echo "PASS: ${#keep[@]} files speak only of the repository"
if [ $all -eq 1 ]; then self_test || failed=1; fi
exit $failed

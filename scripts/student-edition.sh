#!/usr/bin/env bash
# make student-edition DEST=dir (scripts/student-edition.sh [--portable] DEST): a copy of this
# repository to hand to a class, without the answers.
#
#   left out   each exercise's solution source, the file its exercise.c|cu replaces (make
#              list-exercises); the further files of answers a stage.mk names in NN_topic_ANSWERS
#              (make list-answers: 09's warptile.cuh), and each source that includes one
#              directly; lab/ (the notebooks and the research quote the solutions) but
#              lab/scripts/, which the student's tools call; docs/instructor/ (the key), and the
#              links to it in other docs; .git (the history holds the solutions: the edition gets
#              a repository of its own, one commit); build/.
#   in its place  NN_topic/reference/name.c.o (name.cu.o): the solution compiled, which the
#              Makefile links where the source is missing, so that every stage builds and runs
#              and make grade still times the exercise against the solution; name.c.asan.o for
#              the sanitizer build. Likewise a source that includes an answer file, in the
#              reference/ beside it (09's any_size.cu.o; harness/reference/tune.cu.o): shipped as
#              source, it would need the file. A README.md beside them says what they are.
#   kept       the chapters and exercises as they are; common/, plots/, scripts/, tests/,
#              results/ and docs/figures/ (the chapters quote them).
#
# The objects are machine code. By default they are compiled for this machine's CPU
# (-march=native: the class's shared server, where the students build and run), with the
# Makefile's flags; --portable (make student-edition PORTABLE=1) compiles them for any x86-64
# (-march=x86-64-v2; the kernel files keep their own instruction sets and the run-time checks
# before them). A .cu solution holds code for every GPU make gpu-archs builds for and this
# machine's (CUDA_ARCH), but no PTX (it reads much as the source does). A stage this machine
# cannot build (no nvcc, no MPI) gets no object: in the edition make says its solution is not
# there. The edition's STUDENT-EDITION.md says all this,
# and what to do on another machine.
#
# Last, tests/solution_scan.py reads every file of the copy: no solution or answer file, no file
# holding the body of a function an exercise asks for or an answer file holds. Exit 0 when the
# edition is written and clean.
set -euo pipefail
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/.."
root=$PWD
portable=
[ "${1:-}" = --portable ] && { portable=1; shift; }
dest=${1:-}
die() { echo "student-edition: $*" >&2; exit 2; }
[ -n "$dest" ] || die "usage: make student-edition DEST=dir [PORTABLE=1]"
[ ! -f STUDENT-EDITION.md ] || die "this is a student edition already: make one from the full repository"
dest=$(realpath -m "$dest")
case $dest/ in "$root"/*) die "$dest is inside this repository: give a folder outside it" ;; esac
mkdir -p "$dest" || die "cannot create $dest"
[ -z "$(ls -A "$dest")" ] || die "$dest is not empty: give a new folder"
jobs=$(nproc 2>/dev/null || echo 2)
t0=$SECONDS
# the Makefile's own values, expanded
value() { make -s --no-print-directory --eval="print-value: ; @echo \$($1)" print-value; }

# ---- the files: what git tracks (as it is in the working tree), or every file but build/ ---------
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    list() { git ls-files -z | while IFS= read -r -d '' f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done; }
else
    list() { find . -path ./build -prune -o -path ./.git -prune -o -type f -print0 | sed -z 's|^\./||'; }
fi
keep() { # from stdin, NUL-separated: the paths the edition gets (solutions still in: compiled first)
    grep -zv -e '^lab/' -e '^docs/instructor/' | cat - <(list | grep -z '^lab/scripts/')
}

# ---- what to leave out, what to compile -------------------------------------------------------
mapfile -t exercises < <(make -s list-exercises)            # "NN_topic NN_topic/solution.c|cu"
mapfile -t answer_files < <(make -s list-answers)           # "NN_topic file": stage.mk's NN_topic_ANSWERS
cpu=() gpu=() unbuilt=()
missing=$(make -s missing-stages)                           # "NN_topic why" (13 without MPI)
have_nvcc=$(value NVCC)
why_not() { # why source $2 of stage $1 cannot be compiled here (nothing when it can)
    local why
    why=$(awk -v d="$1" '$1 == d { $1 = ""; print substr($0, 2) }' <<<"$missing")
    [ -n "$why" ] || [[ $2 != *.cu ]] || [ -n "$have_nvcc" ] || why="nvcc was not found"
    printf '%s' "$why"
}
md_list() { local x out=; for x; do out+="${out:+, }\`$x\`"; done; printf '%s' "$out"; }
is_in() { local x=$1 y; shift; for y in "$@"; do [ "$x" = "$y" ] && return 0; done; return 1; }
solutions=() stages=()
for line in "${exercises[@]}"; do
    read -r dir sol <<<"$line"
    solutions+=("$sol") stages+=("$dir")
    why=$(why_not "$dir" "$sol")
    if [ -n "$why" ]; then unbuilt+=("$dir: $why")
    elif [[ $sol == *.cu ]]; then gpu+=("$sol")
    else cpu+=("$sol"); fi
done
# A stage.mk's NN_topic_ANSWERS names further files that hold answers (09's warptile.cuh, the
# kernels of its exercise's last two variants): left out too, and so is each source that includes
# one directly (#include "..." from its folder or common/), shipped compiled as a solution is, in
# a reference/ beside it (NN_topic/harness/reference/ for the harness's).
answers=() shipped=() # shipped: "NN_topic source answer-files-it-includes..."
for line in "${answer_files[@]}"; do
    read -r dir f <<<"$line"
    [ -f "$f" ] || die "$dir/stage.mk: ${dir}_ANSWERS names $f, which is not a file"
    answers+=("$f")
done
if [ ${#answers[@]} -gt 0 ]; then
    declare -A includes=()
    names=() # (a source that names none of their file names includes none of them)
    for a in "${answers[@]}"; do names+=(-e "${a##*/}"); done
    while IFS= read -r -d '' f; do
        while IFS= read -r inc; do
            for c in "$(dirname "$f")/$inc" "common/$inc"; do
                c=$(realpath -m --relative-to=. "$c")
                if is_in "$c" "${answers[@]}"; then includes[$f]="${includes[$f]:-}${includes[$f]:+ }$c"; break; fi
            done
        done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$f")
    done < <(list | keep | grep -zE '\.(c|h|cu|cuh)$' | xargs -0r grep -lZF "${names[@]}" --)
    mapfile -t includers < <(printf '%s\n' "${!includes[@]}" | sort)
    for f in "${includers[@]}"; do
        is_in "$f" "${answers[@]}" "${solutions[@]}" && continue # left out already (a solution compiled)
        dir=${f%%/*}
        if ! [[ $f =~ ^[0-9][0-9]_[^/]+/(harness/)?[^/]+\.(c|cu)$ ]] || [[ $f == */exercise.* ]] ||
            ! is_in "$dir" "${stages[@]}"; then
            die "$f includes ${includes[$f]}, which holds answers: only a stage's own .c and .cu files (in NN_topic/ or its harness/, not its exercise) can be shipped compiled; a header that includes it holds the answers too (name it in NN_topic_ANSWERS)"
        fi
        shipped+=("$dir $f ${includes[$f]}")
        why=$(why_not "$dir" "$f")
        if [ -n "$why" ]; then # (a stage not compiled says so already)
            printf '%s\n' "${unbuilt[@]}" | grep -q "^$dir: " || unbuilt+=("$f (it includes ${includes[$f]}): $why")
        elif [[ $f == *.cu ]]; then gpu+=("$f")
        else cpu+=("$f"); fi
    done
fi
cc=$(value CC)
if [ -n "$portable" ]; then
    case $($cc -dumpmachine 2>/dev/null) in x86_64-* | amd64-*) ;;
        *) die "PORTABLE=1 builds for x86-64; $cc targets $($cc -dumpmachine)" ;; esac
fi
# from here on, a failure leaves no half-made edition behind
trap '[ $? -eq 0 ] || [ -n "${keep_dest:-}" ] || rm -rf "$dest"' EXIT

# ---- the copy ----------------------------------------------------------------------------------
echo "== copying the repository to $dest"
list | keep | tar --null -T - -cf - | tar -xf - -C "$dest"
# the stage programs of a tree without git are not sources
while read -r dir prog _; do rm -f "$dest/$dir/$prog"; done < <(make -s list-stages)

# ---- the solutions, compiled ---------------------------------------------------------------------
native_cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
if [ -n "$portable" ]; then
    target="any x86-64 CPU (-march=x86-64-v2: SSE4.2; the kernel files keep their own instruction sets)"
else
    target="this CPU: ${native_cpu:-$(uname -m)} (-march=native)"
fi
cflags=$(value CFLAGS) nvflags=$(value NVFLAGS)
if [ -n "$portable" ]; then
    cflags=${cflags//-march=native/-march=x86-64-v2} nvflags=${nvflags//-march=native/-march=x86-64-v2}
fi
# the GPUs: every one make gpu-archs builds for, and this machine's (no PTX: it reads much as the
# source does; a GPU newer than all of them needs an edition made for it)
# shellcheck disable=SC2046 # (GPU_ARCHS: one word a GPU)
gpu_list=$(printf '%s\n' $(value GPU_ARCHS) "$(value CUDA_ARCH | sed 's/^sm_//')" | sort -un)
gencode=$(for a in $gpu_list; do printf -- '-gencode arch=compute_%s,code=sm_%s ' "$a" "$a"; done)
gpus=$(sed 's/^/sm_/' <<<"$gpu_list" | paste -sd, | sed 's/,/, /g')

objects=() # "solution its-object its-sanitizer-object (- for none)"
if [ ${#cpu[@]} -gt 0 ]; then
    echo "== compiling the CPU solutions (and sources including answers) for $target: ${cpu[*]}"
    goals=()
    for s in "${cpu[@]}"; do goals+=("build/rel/${s%.*}.o" "build/asan/${s%.*}.o"); done
    if [ -n "$portable" ]; then # in the copy, with the portable flags: this build/ stays as it is
        make -s -j"$jobs" -C "$dest" CFLAGS="$cflags" GIT_REV=edition "${goals[@]}"
        from=$dest
    else                        # here, as make builds them (up to date after make or make test)
        make -s -j"$jobs" "${goals[@]}"
        from=$root
    fi
    for s in "${cpu[@]}"; do objects+=("$s $from/build/rel/${s%.*}.o $from/build/asan/${s%.*}.o"); done
fi
if [ ${#gpu[@]} -gt 0 ]; then
    echo "== compiling the GPU solutions (and sources including answers) for $gpus: ${gpu[*]}"
    goals=()
    for s in "${gpu[@]}"; do goals+=("build/archs/${s%.*}.o"); done
    make -s -j"$jobs" -C "$dest" NVFLAGS="$nvflags" GPU_ARCH_FLAGS="$gencode" GIT_REV=edition "${goals[@]}"
    for s in "${gpu[@]}"; do objects+=("$s $dest/build/archs/${s%.*}.o -"); done
fi

# ---- the solutions out, their objects in ----------------------------------------------------------
made=$(date -u +%Y-%m-%d)
rev=$(git describe --always --dirty 2>/dev/null || echo "a copy without git")
compiler=$($cc --version | head -n 1)
place() { # source $1 out of the copy, its objects (where compiled) into the reference/ beside it
    local ref o s obj asan
    ref=$(dirname "$1")/reference
    rm -f "$dest/$1"
    mkdir -p "$dest/$ref"
    for o in "${objects[@]}"; do
        read -r s obj asan <<<"$o"
        [ "$s" = "$1" ] || continue
        cp "$obj" "$dest/$ref/${1##*/}.o"
        # the sanitizer build's, without its debugging sections (variable names, lines)
        [ "$asan" = - ] || objcopy --strip-debug "$asan" "$dest/$ref/${1##*/}.asan.o"
        return 0
    done
    return 1
}
n_built=0 n_shipped=0
for line in "${exercises[@]}"; do
    read -r dir sol <<<"$line"
    ! place "$sol" || n_built=$((n_built + 1))
done
for line in "${shipped[@]}"; do
    read -r dir src _ <<<"$line"
    ! place "$src" || n_shipped=$((n_shipped + 1))
done
for a in "${answers[@]}"; do rm -f "$dest/$a"; done
# What reference folder $1 holds besides a solution: the sources that include answers (nothing
# when it holds none).
shipped_note() {
    local line dir src incs inc_names name items=() all=()
    for line in "${shipped[@]}"; do
        read -r dir src incs <<<"$line"
        [ "$(dirname "$src")/reference" = "$1" ] || continue
        read -ra inc_names <<<"$incs"
        all+=("${inc_names[@]}")
        read -ra inc_names <<<"${incs//$dir\//}"
        name=${src##*/} incs=$(md_list "${inc_names[@]}")
        if [ -e "$dest/$1/$name.o" ]; then
            if [[ $name == *.cu ]]; then
                items+=("- \`$name.o\` is \`$name\`, which includes $incs, compiled by nvcc for the GPUs
  $gpus (its host code for $target).")
            else
                items+=("- \`$name.o\` is \`$name\`, which includes $incs, compiled by $compiler for
  $target; \`$name.asan.o\` is the same for the sanitizer build.")
            fi
        else
            items+=("- \`$name\`, which includes $incs: not here either; it could not be
  compiled where this edition was made ($(why_not "$dir" "$src")).")
        fi
    done
    [ ${#items[@]} -gt 0 ] || return 0
    mapfile -t all < <(printf '%s\n' "${all[@]}" | sort -u)
    cat <<EOF
Besides the solution, $(md_list "${all[@]}") holds answers of an exercise (the
\`stage.mk\` of its stage names it in \`NN_topic_ANSWERS\`): this edition leaves it out, and
with it each source that includes it, shipped compiled as a solution is. Where the source is
missing, the Makefile links its object instead.

$(printf '%s\n' "${items[@]}")
EOF
}
for line in "${exercises[@]}"; do
    read -r dir sol <<<"$line"
    name=$(basename "$sol") n=${dir:0:2}
    others=$(shipped_note "$dir/reference")
    if [ ! -e "$dest/$dir/reference/$name.o" ]; then
        why=$(printf '%s\n' "${unbuilt[@]}" | awk -v d="$dir:" '$1 == d { $1 = ""; print substr($0, 2) }')
        cat <<EOF
# $dir/reference: the solution, compiled

Not here: the solution of this stage's exercise could not be compiled where this edition was
made ($why), so the stage does not build (\`make stage$n\` says so). An edition made on a
machine that builds the stage has it.
EOF
    else
        if [[ $name == *.cu ]]; then
            what="

Built $made by nvcc for the GPUs $gpus; its host code for $target."
        else
            what="\`$name.asan.o\` is the same for the sanitizer build (\`make test\`).

Built $made by $compiler for $target."
        fi
        cat <<EOF
# $dir/reference: the solution, compiled

\`$name.o\` is the solution of this stage's exercise, compiled: the file that
\`exercise.${name##*.}\` replaces, \`$name\`, which this edition leaves out. Where \`$name\` is
missing, the Makefile links this object instead: \`make stage$n\` builds the whole stage, and
\`make grade STAGE=$n\` times your exercise against it. $what

[STUDENT-EDITION.md](../../STUDENT-EDITION.md) says what to do on another machine.
EOF
    fi >"$dest/$dir/reference/README.md"
    [ -z "$others" ] || printf '\n## Compiled too: the sources that include answers\n\n%s\n' "$others" \
        >>"$dest/$dir/reference/README.md"
done
# the other reference folders (harness/reference/): the sources that include answers alone
for ref in $(for line in "${shipped[@]}"; do read -r _ src _ <<<"$line"; dirname "$src"; done | sort -u); do
    [ ! -e "$dest/$ref/reference/README.md" ] || continue
    up=$(tr -cd / <<<"$ref/reference/") up=${up//\//../} up=${up%/}
    cat <<EOF >"$dest/$ref/reference/README.md"
# $ref/reference: sources that include answers, compiled

$(shipped_note "$ref/reference")

[STUDENT-EDITION.md]($up/STUDENT-EDITION.md) says what to do on another machine.
EOF
done
rm -rf "$dest/build"

# ---- the docs: no link to the instructor's key; the front page says which edition this is -------
while IFS= read -r -d '' f; do
    sed -i -E 's/\[([^]]*)\]\(([.]{1,2}\/)*(docs\/)?instructor\/[^)]*\)/\1/g' "$f"
done < <(grep -rlZ --include='*.md' -E '\]\(([.]{1,2}/)*(docs/)?instructor/' "$dest" || true)

if [ -n "$portable" ]; then
    machine="They run on any x86-64 CPU from about 2009 on (SSE4.2), the kernels that need more
checking the CPU before they run. Compiled for every CPU, they are slower than the same code
compiled for yours, while your exercise is compiled for yours (\`-march=native\`): \`make grade\`'s
speed ratio flatters you. Compare speeds on a machine that an edition was made for."
else
    machine="Build and run them on that machine (the class's server). On a CPU without an instruction
the compiler used there, a stage stops with \"Illegal instruction\" when it runs a solution."
fi
left_answers=
if [ ${#answers[@]} -gt 0 ]; then
    shipped_src=()
    for line in "${shipped[@]}"; do read -r _ src _ <<<"$line"; shipped_src+=("$src"); done
    left_answers="
- **Left out too:** the other files that hold an exercise's answers (\`make list-answers\`:
  $(md_list "${answers[@]}")), and each source that includes one
  ($(md_list "${shipped_src[@]}")), which would not compile without it. These sources are
  compiled in a \`reference/\` folder beside them ($n_shipped of ${#shipped[@]} here), linked as the solutions are."
fi
cat >"$dest/STUDENT-EDITION.md" <<EOF
# The student edition

This copy of gemm-from-scratch was made on $made from $rev with \`make student-edition\`, for a
class. It is the repository without the answers:

- **Left out:** each exercise's solution, the file that \`exercise.c\` or \`exercise.cu\` replaces
  (\`make list-exercises\` lists them); \`lab/\`, the lab notebooks and research programs (they
  quote the solutions), but for \`lab/scripts/\`, which \`make run\` and the harness name; the
  instructor's key (\`docs/instructor/\`); the history (this edition's own starts with it). The
  chapters' links to a lab notebook lead nowhere here; their numbers are in \`results/\`.$left_answers
- **In their place:** each stage's \`reference/\` folder holds its solution compiled ($n_built of
  ${#exercises[@]} here). The Makefile links it where the source is missing, so that every stage builds
  and runs (\`make\`, \`make run\`, \`make test\`) and \`make grade STAGE=NN\` checks your exercise and
  times it against the solution, as in the full repository.
- **As they are:** the chapters, the exercises, \`common/\`, \`scripts/\`, \`tests/\`, \`results/\`,
  \`docs/figures/\`.

## The machine it was built for

The compiled solutions are machine code for $target, built by
$compiler$([ ${#gpu[@]} -eq 0 ] || echo "; the GPU ones by nvcc for $gpus").

$machine

On another machine (a laptop, another CPU, ARM, macOS), ask for an edition made there (the
instructor runs \`make student-edition DEST=dir\` on it) or, for any x86-64 Linux machine, for one
made with \`make student-edition DEST=dir PORTABLE=1\`. The objects also need a compiler of the same
major version or newer to link (gcc; the CUDA toolkit for the GPU stages).
EOF
if [ ${#unbuilt[@]} -gt 0 ]; then
    printf '\nNot compiled where this edition was made, so not built here (`make stageNN` says why):\n\n'
    printf -- '- %s\n' "${unbuilt[@]}"
fi >>"$dest/STUDENT-EDITION.md"
# the front page says it, under its title
sed -i '1a\
\
> **The student edition**: the exercises'"'"' solutions are compiled objects here, built for\
> '"$([ -n "$portable" ] && echo "any x86-64 CPU" || echo "${native_cpu:-this machine}")"'. [STUDENT-EDITION.md](STUDENT-EDITION.md) says what is left out\
> and what to do on another machine.' "$dest/README.md"

# ---- proof: no solution in it --------------------------------------------------------------------
echo "== reading every file of the edition for a solution (tests/solution_scan.py)"
keep_dest=1 # (what it finds is to be seen)
scan=$(printf '%s\n' "${exercises[@]}" "${answer_files[@]}" | python3 tests/solution_scan.py "$root" "$dest") || {
    grep '^FAIL' <<<"$scan"; echo "student-edition: a solution is in $dest (above): do not hand it out" >&2; exit 1; }
echo "$(grep -c '^PASS: .*: not in the edition' <<<"$scan") solution and answer files: none in the edition, nor a function body of theirs"

# ---- a repository of its own: one commit, no history ------------------------------------------
if command -v git >/dev/null 2>&1; then
    (cd "$dest" && git init -q && git add -A &&
        git -c user.name="$(git config user.name || echo gemm-from-scratch)" \
            -c user.email="$(git config user.email || echo student-edition@localhost)" \
            commit -q -m "gemm-from-scratch, the student edition" \
            -m "Made $made by make student-edition from $rev: STUDENT-EDITION.md says what it holds.")
fi

files=$(find "$dest" -path "$dest/.git" -prune -o -type f -print | wc -l)
size=$(du -sh --exclude=.git "$dest" | cut -f1)
echo "student edition: $dest, $files files, $size, $n_built of ${#exercises[@]} solutions compiled$([ ${#shipped[@]} -eq 0 ] ||
    echo ", $n_shipped of ${#shipped[@]} sources including answers"), in $((SECONDS - t0)) s"
[ ${#unbuilt[@]} -eq 0 ] || printf 'not compiled here (not built in the edition): %s\n' "${unbuilt[@]}"

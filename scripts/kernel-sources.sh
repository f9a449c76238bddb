#!/usr/bin/env bash
# scripts/kernel-sources.sh FILE...: the CUDA sources among FILE... that hold a kernel: __global__
# in the file, or in a header it includes with #include "..." (found beside the including file or
# in common/, followed down). make gpu-archs compiles only these for every GPU class: a source
# without a kernel (a harness's main.cu) has no device code for an architecture to change, and
# the usual build compiles its host code. Prints one path a line; exit 2 on a missing file.
set -u
seen=" "
has_kernel() { # FILE: 0 if FILE or a header it includes (each read once) says __global__
    local f=$1 h p dir
    case $seen in *" $f "*) return 1 ;; esac
    seen="$seen$f "
    grep -q '__global__' "$f" && return 0
    dir=$(dirname "$f")
    for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
        for p in "$dir/$h" "common/$h"; do
            if [ -f "$p" ]; then
                has_kernel "$p" && return 0
                break
            fi
        done
    done
    return 1
}
for f in "$@"; do
    [ -f "$f" ] || { echo "kernel-sources.sh: $f: no such file" >&2; exit 2; }
    seen=" "
    has_kernel "$f" && echo "$f"
done
exit 0

#!/usr/bin/env bash
# tests/isa-reach.sh PROGRAM haswell|nehalem: the instructions that a CPU of the class lacks, in
# the code PROGRAM runs before it has asked the CPU anything.
#
# A stage built for an older CPU (-march=x86-64-v2) still holds newer instructions: the kernel
# files get their instruction sets (stage.mk), and a kernel runs only where the CPU test says it
# may, called through a variant table, a micro-kernel's struct or a unit table (function
# pointers). What main reaches by direct calls (and jumps, and OpenMP's outlined bodies), from
# main and the constructors, runs on every CPU, so it must hold none of them:
#   haswell  no EVEX-encoded instruction (AVX-512) and no AMX instruction
#   nehalem  no VEX- or EVEX-encoded instruction (AVX, AVX2, FMA, AVX-512, AMX)
# qemu's emulated CPU finds such an instruction only on a path a run takes, and cannot run an
# AddressSanitizer program at all before qemu 8.1 (tests/portability.sh); this reads every path.
# Prints one line per function that holds one ("peak_main: vmovdqu8 %ymm0,0x7fff8000(%r13)",
# with the chain of calls from main) and exits 1; prints nothing and exits 0 when there is none;
# exits 2 on a usage error or without objdump.
set -u
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
prog=${1:-} class=${2:-}
case $class in haswell | nehalem) ;; *) echo "usage: $0 PROGRAM haswell|nehalem" >&2; exit 2 ;; esac
[ -f "$prog" ] || { echo "$0: no program '$prog'" >&2; exit 2; }
command -v objdump >/dev/null || { echo "$0: no objdump (binutils)" >&2; exit 2; }

# the constructors: the addresses in .init_array, as the symbols there
ctors=$(objdump -s -j .init_array "$prog" 2>/dev/null | awk '/^ [0-9a-f]+ / {
            for (i = 2; i <= 5 && i <= NF; i++) if (length($i) == 8) w = w $i
        } END { for (i = 1; i + 15 <= length(w); i += 16) { a = ""
                for (j = 14; j >= 0; j -= 2) a = a substr(w, i + j, 2)
                sub(/^0+/, "", a); print a } }')
roots="main $(for a in $ctors; do nm "$prog" | awk -v a="$a" '{ x = $1; sub(/^0+/, "", x) } x == a && $2 ~ /[tT]/ { print $3; exit }'; done)"

objdump -d -w "$prog" | awk -v class="$class" -v roots="$roots" '
    # "0000000000401136 <main>:" starts a function
    /^[0-9a-f]+ <[^>]+>:$/ { f = substr($2, 2, length($2) - 3); next }
    f == "" || !/^ *[0-9a-f]+:\t/ { next }
    {
        split($0, part, "\t")
        n = split(part[2], byte, " ")
        insn = part[3]
        k = 1 # past segment and address-size prefixes: what follows decides the encoding
        while (k < n && byte[k] ~ /^(2e|3e|26|36|64|65|67)$/) k++
        evex = byte[k] == "62"
        vex = byte[k] == "c4" || byte[k] == "c5"
        amx = insn ~ /^(tile|tdp|ldtilecfg|sttilecfg)/
        if (!(f in bad) && (evex || amx || (class == "nehalem" && vex)))
            bad[f] = insn
        # the edges: direct calls and jumps to another function, OpenMP outlined bodies by address
        if (match(insn, /<[^>+]+>$/)) {
            t = substr(insn, RSTART + 1, RLENGTH - 2)
            if (t != f && t !~ /@plt$/ && (insn ~ /^(call|jmp|j[a-z]+) / || t ~ /\._omp_fn\./))
                edge[f] = edge[f] " " t
        }
    }
    END {
        nq = split(roots, queue, " ")
        for (i = 1; i <= nq; i++) { seen[queue[i]] = 1; from[queue[i]] = "" }
        for (i = 1; i <= nq; i++) {
            g = queue[i]
            m = split(edge[g], to, " ")
            for (j = 1; j <= m; j++)
                if (!(to[j] in seen)) { seen[to[j]] = 1; from[to[j]] = g; queue[++nq] = to[j] }
        }
        found = 0
        for (i = 1; i <= nq; i++) {
            g = queue[i]
            if (!(g in bad)) continue
            chain = g
            for (h = from[g]; h != ""; h = from[h]) chain = h " > " chain
            printf "%s: %s  (%s)\n", g, bad[g], chain
            found = 1
        }
        exit found
    }'

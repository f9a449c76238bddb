#!/usr/bin/env bash
# lab/06_strassen/contamination.sh [MACHINE]: how far one NaN or Inf in A or B spreads in C.
#
# Runs the edge suite (--edges, common/edges.h) on every variant with every level forced
# (--cutoff 2) at a few sizes. Each of its propagation cases plants one NaN or Inf in A (at
# the first, a middle and the last row) or in B (first, middle, last column), with beta 0
# and 1.3, and counts the non-finite elements of C: in the row (column) whose dot products
# use the bad value, and elsewhere. Classic variants must have none elsewhere; the fast ones
# spread it through their sums of blocks.
#   -> results/MACHINE/06_strassen/contamination.csv   (default MACHINE: local)
# and the chapter's table (the largest count elsewhere over the positions) on stdout.
# No timing: no lock needed.
set -euo pipefail
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
cd "$(dirname "$0")/../.."
machine=${1:-local}
sizes=4x4x4,37x41x43,256,255x257x129
out=results/$machine/06_strassen/contamination.csv
mkdir -p "$(dirname "$out")"
make -s stage06
log=$(mktemp)
trap 'rm -f "$log"' EXIT
./06_strassen/strassen --edges --cutoff 2 --no-baseline --threads 2 --sizes "$sizes" >"$log" ||
    { echo "contamination.sh: the edge suite failed (a classic variant leaked?):" >&2
      grep -A1 FAIL "$log" | head >&2; exit 1; }

# rows like: strassen_1lvl  NaN at A(0,0), beta 0  37x41x43  41  20  PASS
awk -v date="$(date -u +%Y-%m-%dT%H:%M:%SZ)" '
    /^cpu / { sub(/^cpu +/, ""); sub(/, [0-9]+ cores online$/, ""); device = $0 }
    /^threads / { threads = $2 }
    /^build / { git = $3 }
    $3 == "at" && ($2 == "NaN" || $2 == "Inf") {
        if (!header++)
            print "stage,variant,m,n,k,cutoff,threads,value,operand,row,col,beta," \
                  "line_nonfinite,line_elements,elsewhere_nonfinite,device,git,date"
        split($4, w, /[(,)]/); split($7, d, "x")
        print "06_strassen," $1 "," d[1] "," d[2] "," d[3] ",2," threads "," $2 "," w[1] "," \
              w[2] "," w[3] "," $6 "," $8 "," (w[1] == "A" ? d[2] : d[1]) "," $9 "," device "," \
              git "," date
    }' "$log" >"$out"
echo "wrote $out ($(($(wc -l <"$out") - 1)) cases)"

# The chapter's table: per variant and size, the most elements made non-finite outside the
# bad value's row (column), over the three positions, NaN and Inf, beta 0 and 1.3.
python3 - "$out" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sizes = list(dict.fromkeys(f"{r['m']}x{r['n']}x{r['k']}" for r in rows))
most, same = {}, True
for r in rows:
    key = (r["variant"], f"{r['m']}x{r['n']}x{r['k']}", r["operand"])
    most[key] = max(most.get(key, 0), int(r["elsewhere_nonfinite"]))
by_value = {}
for r in rows:
    by_value.setdefault((r["variant"], r["m"], r["n"], r["operand"], r["row"], r["col"], r["beta"]),
                        set()).add(r["elsewhere_nonfinite"])
same = all(len(v) == 1 for v in by_value.values())
print("| variant | " + " | ".join(sizes) + " |")
print("|---|" + "---:|" * len(sizes))
for v in dict.fromkeys(r["variant"] for r in rows):
    print(f"| `{v}` | " + " | ".join(f"{most[(v, s, 'A')]} / {most[(v, s, 'B')]}" for s in sizes) + " |")
print(f"(cells: bad value in A / in B; NaN and Inf give the same counts: {'yes' if same else 'NO'})")
EOF

#!/bin/sh
# lab/scripts/upgrade-csv.sh FILE...: a result CSV written before the harness recorded the machine's
# load and the spread of each ratio (18 columns, ending in "date") gets the two new columns,
# load and ratio_spread, empty on every row: the measurements are unchanged, and the harness can
# append to the file again. A file already upgraded, or of another schema, is left as it is.
#
# Every row is checked before anything is written: a row of another width (cut short, or a
# longer schema's) or a file that ends in the middle of a row is refused with one line naming
# the line, exit status 2, and the file is left as it was. Lines ending in CRLF (a file saved on
# Windows), which the harness refuses, are made LF, and the message says so; that is done to an
# upgraded file too.
old="stage,variant,m,n,k,threads,reps,ms_median,ms_min,gflops,baseline,baseline_gflops,max_err_ratio,check,device,compiler,git,date"
new="$old,load,ratio_spread"
[ $# -gt 0 ] || { echo "usage: lab/scripts/upgrade-csv.sh FILE..." >&2; exit 2; }
cr=$(printf '\r')
rc=0
for f in "$@"; do
    if [ ! -f "$f" ]; then echo "upgrade-csv: $f: no such file" >&2; rc=2; continue; fi
    first=$(head -n 1 "$f")
    crlf=
    case $first in *"$cr") crlf=" (its CRLF line ends made LF)"; first=${first%"$cr"} ;; esac
    if [ "$first" = "$old" ]; then n=18
    elif [ "$first" = "$new" ] && [ -n "$crlf" ]; then n=20
    else continue
    fi
    # the first row that is not whole: its line, and why
    bad=$(awk -F, -v n="$n" '
        { sub(/\r$/, "") }
        NR > 1 && NF > 0 && NF != n { print NR ": " NF " fields, where the header has " n; exit }
        NR > 1 && NF > 0 && $18 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z$/ {
            print NR ": its date (column 18) is not whole: \"" $18 "\""; exit }' "$f")
    [ -n "$bad" ] || [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] ||
        bad="$(($(wc -l <"$f") + 1)): the file ends in the middle of this row (no newline)"
    if [ -n "$bad" ]; then
        echo "upgrade-csv: $f:$bad: not upgraded, the file is left as it was" >&2
        rc=2
        continue
    fi
    tmp="$f.upgrading"
    awk -v n="$n" '{ sub(/\r$/, "") } NR == 1 && n == 18 { print $0 ",load,ratio_spread"; next }
                   NR == 1 || n == 20 { print; next } NF { print $0 ",," }' "$f" >"$tmp" &&
        mv "$tmp" "$f" || { rm -f "$tmp"; echo "upgrade-csv: $f: could not be rewritten" >&2; rc=2; continue; }
    [ "$n" -eq 18 ] && echo "upgraded $f$crlf" || echo "$f: its CRLF line ends made LF (the harness appends LF rows)"
done
exit $rc

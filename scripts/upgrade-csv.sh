#!/bin/sh
# scripts/upgrade-csv.sh FILE...: a result CSV written before the harness recorded the machine's
# load and the spread of each ratio (18 columns, ending in "date") gets the two new columns,
# load and ratio_spread, empty on every row: the measurements are unchanged, and the harness can
# append to the file again. A file already upgraded, or of another schema, is left as it is.
old="stage,variant,m,n,k,threads,reps,ms_median,ms_min,gflops,baseline,baseline_gflops,max_err_ratio,check,device,compiler,git,date"
[ $# -gt 0 ] || { echo "usage: scripts/upgrade-csv.sh FILE..." >&2; exit 2; }
rc=0
for f in "$@"; do
    if [ ! -f "$f" ]; then echo "upgrade-csv: $f: no such file" >&2; rc=2; continue; fi
    [ "$(head -n 1 "$f")" = "$old" ] || continue
    tmp="$f.upgrading"
    awk 'NR == 1 { print $0 ",load,ratio_spread"; next } NF { print $0 ",," }' "$f" >"$tmp" &&
        mv "$tmp" "$f" && echo "upgraded $f"
done
exit $rc

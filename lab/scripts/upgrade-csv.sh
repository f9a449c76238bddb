#!/bin/sh
# lab/scripts/upgrade-csv.sh FILE...: a result CSV written before the harness recorded the machine's
# load and the spread of each ratio (18 columns, ending in "date") gets the two new columns,
# load and ratio_spread, empty on every row: the measurements are unchanged, and the harness can
# append to the file again.
#
# Every row is checked before anything is written: a row of another width (cut short, or a
# longer schema's) or a file that ends in the middle of a row is refused with one line naming
# the line, and the file is left as it was. Lines ending in CRLF (a file saved on Windows), which
# the harness refuses, are made LF, and the message says so; that is done to an upgraded file too.
#
# The file is rewritten in place, through a symbolic link to its target: its links (symbolic and
# hard), owner and mode stay as they were (a new file renamed over it would have replaced the
# link and taken the default mode). Its old text is kept aside until the new one is written
# whole; a write that fails (a full disk) puts the old text back. The harness's lock on the file
# (flock, where there is the command) is held meanwhile, so that no run appends to it half way.
#
# One line for each file: what was done (on stdout), or why not (on stderr). Exit status 0 when
# every file was upgraded or already current; 2 when one could not be (missing, empty, of another
# schema, damaged, not writable), the others done all the same.
old="stage,variant,m,n,k,threads,reps,ms_median,ms_min,gflops,baseline,baseline_gflops,max_err_ratio,check,device,compiler,git,date"
new="$old,load,ratio_spread"
export LC_ALL=C # numbers read and printed with a decimal point, whatever the user's locale
[ $# -gt 0 ] || { echo "usage: lab/scripts/upgrade-csv.sh FILE..." >&2; exit 2; }
cr=$(printf '\r')
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
rc=0
refuse() { # refuse FILE WHY: one line on stderr, exit status 2 at the end
    echo "upgrade-csv: $1: $2" >&2
    rc=2
}

# upgrade NAME PATH N CRLF: the checked file rewritten (N = 18: two columns added; 20: CRLF made LF)
upgrade() {
    name=$1 path=$2 n=$3 crlf=$4
    # the first row that is not whole: its line, and why
    bad=$(awk -F, -v n="$n" '
        { sub(/\r$/, "") }
        NR > 1 && NF > 0 && NF != n { print NR ": " NF " fields, where the header has " n; exit }
        NR > 1 && NF > 0 && $18 !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z$/ {
            print NR ": its date (column 18) is not whole: \"" $18 "\""; exit }' "$path")
    [ -n "$bad" ] || [ "$(tail -c 1 "$path" | od -An -c | tr -d ' ')" = '\n' ] ||
        bad="$(($(wc -l <"$path") + 1)): the file ends in the middle of this row (no newline)"
    if [ -n "$bad" ]; then
        refuse "$name:$bad" "not upgraded, the file is left as it was"
        return
    fi
    if ! awk -v n="$n" '{ sub(/\r$/, "") } NR == 1 && n == 18 { print $0 ",load,ratio_spread"; next }
                        NR == 1 || n == 20 { print; next } NF { print $0 ",," }' "$path" >"$work/new" ||
        ! cp "$path" "$work/old"; then
        refuse "$name" "could not be read or copied aside (disk full?): not upgraded, left as it was"
        return
    fi
    if ! cat "$work/new" >"$path" 2>"$work/err"; then
        if cmp -s "$path" "$work/old" || cat "$work/old" >"$path" 2>/dev/null; then
            refuse "$name" "could not be rewritten ($(sed -n '1s/.*: //p' "$work/err")): not upgraded, left as it was"
        else
            keep=$(mktemp "${TMPDIR:-/tmp}/upgrade-csv.XXXXXX") && cp "$work/old" "$keep"
            refuse "$name" "a write failed part-way and the old text could not be put back: it is in $keep"
        fi
        return
    fi
    if [ "$n" -eq 18 ]; then echo "upgraded $name$crlf"
    else echo "$name: its CRLF line ends made LF (the harness appends LF rows)"
    fi
}

for f in "$@"; do
    path=$f
    case $f in -*) path=./$f ;; esac # a name that starts with '-' is a name, not an option
    if [ -L "$path" ] && [ ! -e "$path" ]; then refuse "$f" "a symbolic link to nothing: not upgraded"; continue; fi
    if [ ! -e "$path" ]; then refuse "$f" "no such file"; continue; fi
    if [ ! -f "$path" ]; then refuse "$f" "not a regular file: not upgraded"; continue; fi
    if [ ! -r "$path" ]; then refuse "$f" "cannot be read: not upgraded"; continue; fi
    if [ ! -s "$path" ]; then refuse "$f" "empty: not a result CSV, not upgraded"; continue; fi
    first=$(head -n 1 "$path")
    crlf=
    case $first in *"$cr") crlf=" (its CRLF line ends made LF)"; first=${first%"$cr"} ;; esac
    if [ "$first" = "$new" ] && [ -z "$crlf" ]; then
        echo "$f: already has the current header: left as it is"
        continue
    elif [ "$first" = "$old" ]; then n=18
    elif [ "$first" = "$new" ]; then n=20
    else
        refuse "$f" "not a result CSV of 18 columns (its header: '$(echo "$first" | cut -c1-60)'): not upgraded"
        continue
    fi
    if [ ! -w "$path" ]; then refuse "$f" "cannot be written (mode $(ls -lL "$path" | cut -c2-10)): not upgraded"; continue; fi
    if command -v flock >/dev/null 2>&1; then
        # the harness's lock (common/csv.c locks the file while it writes a header or a row)
        exec 9<"$path"
        flock 9
        upgrade "$f" "$path" "$n" "$crlf"
        exec 9<&-
    else
        upgrade "$f" "$path" "$n" "$crlf"
    fi
done
exit $rc

# lab/13_distributed/steps.sh, sourced by bench-host.sh and bench-gpus.sh: their steps under a time
# budget. The script sets T0 (its start, $SECONDS) and BUDGET (seconds) before the first step.
left() { echo $((BUDGET - (SECONDS - T0))); }

# step NAME SECONDS COMMAND...: run it if about SECONDS are left, under a timeout of what is left
# (a shell function runs as it is: timeout cannot start one); says how long it took
step() {
    local name=$1 need=$2 t=$SECONDS
    shift 2
    if [ "$(left)" -lt "$need" ]; then
        echo "== $name: SKIPPED, $(left) s of the budget left, it needs about $need"
        return 1
    fi
    echo "== $name ($(date -u +%T), $(left) s left)"
    echo "+ $*"
    if [ "$(type -t "$1")" = function ]; then "$@"; else timeout "$(left)" "$@"; fi
    local rc=$?
    echo "== $name: $([ $rc -eq 0 ] && echo "done" || echo "exit $rc") in $((SECONDS - t)) s"
    return $rc
}

# rows FILE: how many result rows FILE holds (0 when there is no such file)
rows() { cat "$1" 2>/dev/null | grep -c '^13_distributed,'; }

#!/bin/sh
# Print a python3 that can import matplotlib (the PATH's first, else the system's).
# PLOT_PYTHON names the one to take (PLOT_PYTHON=none: none, as on a machine without matplotlib;
# the tests hide it so).
if [ -n "${PLOT_PYTHON:-}" ]; then
    [ "$PLOT_PYTHON" != none ] && "$PLOT_PYTHON" -c 'import matplotlib' >/dev/null 2>&1 &&
        command -v "$PLOT_PYTHON" && exit 0
    exit 1
fi
for py in python3 /usr/bin/python3 /usr/local/bin/python3 python; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import matplotlib' >/dev/null 2>&1; then
        command -v "$py"
        exit 0
    fi
done
exit 1

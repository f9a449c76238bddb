#!/bin/sh
# Print a python3 that can import matplotlib (the PATH's first, else the system's).
for py in python3 /usr/bin/python3 /usr/local/bin/python3 python; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import matplotlib' >/dev/null 2>&1; then
        command -v "$py"
        exit 0
    fi
done
exit 1

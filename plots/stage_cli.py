"""stage_cli.py: the command line a stage's own plot.py shares (NN_topic/plot.py RESULTS.csv OUT.png).

    from stage_cli import run
    if __name__ == "__main__":
        run(main, "03_tiling/plot.py RESULTS.csv OUT.png")

Bad input (wrong arguments, a missing or unreadable CSV, a column or value that is not there)
is one line on stderr and exit status 2, as for every program of this repository; main(src, dst)
itself is called with the two arguments.
"""
import csv
import sys


def run(main, usage):
    if len(sys.argv) != 3:
        print(f"usage: {usage}", file=sys.stderr)
        sys.exit(2)
    src, dst = sys.argv[1], sys.argv[2]
    try:
        main(src, dst)
    except KeyError as e:
        print(f"{usage.split()[0]}: {src}: no column or value {e}", file=sys.stderr)
        sys.exit(2)
    except (OSError, ValueError, csv.Error, UnicodeDecodeError) as e:
        print(f"{usage.split()[0]}: {e}", file=sys.stderr)
        sys.exit(2)

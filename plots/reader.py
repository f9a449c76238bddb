"""reader.py: the one reader of the CSVs the charts are drawn from, for plots/plot.py and for every
stage's own plots/NN_topic.py.

    from reader import InputError, RESULT, read_rows
    rows = read_rows(path, RESULT, stage="03_tiling")   # [{column: value}], numbers converted

A CSV is refused with an InputError, whose text is the one line a program prints before it exits
with status 2 (stage_cli.run does that for a stage's script), when it is
  - not text: a NUL byte, or bytes that are not UTF-8 (a binary or compressed file);
  - cut off: its last line has no newline (the harness writes whole lines);
  - of another schema: a header that is none of those asked for (the message names the schema
    when it is one of this repository's);
  - another stage's: a stage column that is not the stage asked for;
  - a header alone, or empty;
  - damaged: a row with more or fewer fields than the header, or the header again;
  - wrong in a number: a field that must be a number and is not, or is NaN or infinite, or is
    out of its column's range: below 0 (or 1 for a size, or -1 where -1 stands for "none"), or
    past 1e15 (no measurement comes near: 1e308 GFLOP/s would overflow the charts' arithmetic);
    or a field outside the values its column may take;
  - a result CSV whose stage is not a plain name (letters, digits, _ . + -, a letter or digit
    first): plots/plot.py names its charts after the stage, and '../x' or '' would write outside
    its --out folder or a hidden file.
A CSV written before the harness recorded the load (18 columns, no `load,ratio_spread`) is read as
the current schema with those fields empty; lab/scripts/upgrade-csv.sh rewrites one in place.
"""
import csv
import io
import math
import os
import re


class InputError(Exception):
    """Bad input: reported on one line, exit status 2."""


class OtherSchema(InputError):
    """A CSV with another header: an error when named, skipped when found in a folder."""


class Schema:
    """A CSV's columns, which of them are numbers, and what an empty field stands for.

    columns   the header, comma-separated; older: earlier headers still read (their rows get the
              missing columns' empty values)
    ints, floats  the numeric columns (space-separated); a number may be empty only where
              `empty` gives its value
    choices   {column: (allowed values)}; patterns: {column: regular expression it matches}
    least     {column: the least value a number may take} (0 where not given: 1 for the sizes,
              -1 for a column where -1 stands for "none"); no number is past LARGEST"""

    def __init__(self, what, columns, ints="", floats="", empty=None, older=(), choices=None,
                 patterns=None, least=None):
        self.what = what  # what a message calls it: "a result CSV (a stage's --csv)"
        self.columns = columns.split(",")
        self.headers = [self.columns] + [h.split(",") for h in older]
        self.ints, self.floats = set(ints.split()), set(floats.split())
        self.empty = empty or {}
        self.choices = choices or {}
        self.patterns = {k: re.compile(v) for k, v in (patterns or {}).items()}
        self.least = least or {}


LARGEST = 1e15  # past any count, size, time or rate measured here (a seed may be larger)
SIZES = {"m": 1, "n": 1, "k": 1}  # a product's dimensions: 1 at least
STAGE_NAME = r"[0-9A-Za-z][0-9A-Za-z_.+-]*"  # a stage's name, which names plots/plot.py's charts


RESULT = Schema(
    "a result CSV (a stage's --csv)",
    "stage,variant,m,n,k,threads,reps,ms_median,ms_min,gflops,baseline,baseline_gflops,"
    "max_err_ratio,check,device,compiler,git,date,load,ratio_spread",
    older=("stage,variant,m,n,k,threads,reps,ms_median,ms_min,gflops,baseline,baseline_gflops,"
           "max_err_ratio,check,device,compiler,git,date",),
    ints="m n k threads reps", floats="ms_median ms_min gflops baseline_gflops max_err_ratio load "
    "ratio_spread",
    # baseline_gflops and load: -1 where not measured (a baseline's own row; before the load was
    # recorded); threads: 1 where a GPU stage leaves it empty; gflops: empty where the rate means
    # nothing (alpha = 0: an early return), and such a row is left out of every chart
    empty={"threads": 1, "baseline_gflops": -1.0, "max_err_ratio": None, "load": -1.0,
           "ratio_spread": None, "gflops": None},
    patterns={"stage": STAGE_NAME}, least={**SIZES, "baseline_gflops": -1, "load": -1})
PEAK = Schema("a peak CSV (make peak)", "device,measure,threads,value,unit,date",
              ints="threads", floats="value", empty={"threads": 1})
GF256 = Schema(
    "11_gf256's CSV", "stage,variant,k,m,len,threads,timing,reps,ms_median,ms_min,gbps_in,gbps_rw,"
    "baseline,baseline_gbps_in,encode_check,decode_check,device,compiler,git,date",
    ints="k m len threads reps", floats="ms_median ms_min gbps_in gbps_rw baseline_gbps_in",
    empty={"baseline_gbps_in": None}, least={"k": 1, "m": 1, "len": 1})
DISTRIBUTED = Schema(
    "13_distributed's CSV", "stage,variant,m,n,k,grid,ranks,threads,nb,reps,ms_median,ms_min,gflops,"
    "baseline,baseline_gflops,max_err_ratio,check,device,compiler,git,date",
    ints="m n k ranks threads nb reps", floats="ms_median ms_min gflops baseline_gflops "
    "max_err_ratio", empty={"baseline_gflops": -1.0, "max_err_ratio": None, "gflops": None},
    patterns={"grid": r"[1-9][0-9]*x[1-9][0-9]*"},
    least={**SIZES, "ranks": 1, "nb": 1, "baseline_gflops": -1})
DISTRIBUTED_COMM = Schema(
    "13_distributed's --bench-comm CSV",
    "stage,transport,op,ranks,bytes,reps,us_median,us_min,gbytes_s,device,git,date",
    ints="ranks bytes reps", floats="us_median us_min gbytes_s", least={"ranks": 1})
DISTRIBUTED_TIMELINE = Schema(
    "13_distributed's --timeline CSV", "stage,variant,m,n,k,grid,ranks,nb,rank,prow,pcol,panel,what,"
    "start_ms,end_ms,bytes,git", ints="m n k ranks nb rank prow pcol panel bytes",
    floats="start_ms end_ms", choices={"what": ("gemm", "bcast_a", "bcast_b")},
    patterns={"grid": r"[1-9][0-9]*x[1-9][0-9]*"}, least={**SIZES, "ranks": 1, "nb": 1})
MULTIGPU_TIMELINE = Schema(
    "10_cuda_multigpu's --timeline CSV",
    "variant,m,n,k,gpus,gpu,stream,kind,ti,tj,kc,start_ms,end_ms,bytes",
    ints="m n k gpus gpu stream ti tj kc bytes", floats="start_ms end_ms",
    choices={"kind": ("h2d", "kernel", "d2h")},
    least={**SIZES, "gpus": 1, "stream": -1, "ti": -1, "tj": -1, "kc": -1})
STRASSEN_BREAKDOWN = Schema(
    "06_strassen's --breakdown CSV", "stage,variant,m,n,k,threads,cutoff,reps,ms_total,"
    "ms_additions,add_gbytes,add_gbs,ms_packing_t0,device,git",
    ints="m n k threads cutoff reps", floats="ms_total ms_additions add_gbytes add_gbs ms_packing_t0",
    least=SIZES)
TF32_ERROR = Schema(
    "lab/12_cuda_tensor_cores/tf32_error's CSV", "tool,method,model,m,n,k,seed,bound_c,"
    "max_err_ratio,max_rel_err,device,git,date", ints="m n k seed",
    floats="bound_c max_err_ratio max_rel_err", least=SIZES)
SCHEMAS = (RESULT, PEAK, GF256, DISTRIBUTED, DISTRIBUTED_COMM, DISTRIBUTED_TIMELINE,
           MULTIGPU_TIMELINE, STRASSEN_BREAKDOWN, TF32_ERROR)


def read_text(path):
    """The file's text; InputError if it is not UTF-8 text (a binary or compressed file)."""
    with open(path, "rb") as f:
        data = f.read()
    nul = data.find(b"\0")
    if nul >= 0:
        raise InputError(f"{path}: binary data (a NUL byte at offset {nul}), not a CSV")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not text (byte 0x{data[e.start]:02x} at offset {e.start} is "
                         "not UTF-8): a binary or compressed file?") from None


def number(text, kind, where, column, empty=..., least=0):
    """One field as kind (int or float), from least to LARGEST (a seed: any size); an empty field
    gives `empty` where it may be empty."""
    if text == "" and empty is not ...:
        return empty
    try:
        value = kind(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise InputError(f"{where}: {column} is {text!r}, not a number")
    if value < least or (value > LARGEST and column != "seed"):
        raise InputError(f"{where}: {column} is {text!r}: out of range (at least {least:g}, "
                         f"at most {LARGEST:g})")
    return value


def read(path, schemas, stage=None, need_rows=True):
    """(schema, rows) of the CSV at path, which must have the header of one of `schemas`; each row
    a {column: value} dict, numbers converted. stage: every row's stage column must be this.
    need_rows=False lets a header alone through (rows = [])."""
    if os.path.isdir(path):
        raise InputError(f"{path}: a directory, not a CSV file")
    text = read_text(path)
    if not text:
        raise InputError(f"{path}: empty file")
    if not text.endswith("\n"):
        raise InputError(f"{path}: cut off (its last line has no newline; the harness writes "
                         "whole lines)")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [h.strip() for h in next(reader, [])]
        schema = next((s for s in schemas if header in s.headers), None)
        if schema is None:
            known = next((s for s in SCHEMAS if header in s.headers), None)
            wanted = " or ".join(s.what for s in schemas)
            raise OtherSchema(f"{path}: {known.what}, not {wanted}" if known else
                              f"{path}: not {wanted} (header {','.join(header)[:60]!r})")
        rows = []
        for fields in reader:
            if not fields:
                continue
            row = convert(schema, header, fields, f"{path}:{reader.line_num}", stage)
            if row.get("gflops", 0) is not None:  # (no rate: alpha = 0, nothing to draw)
                rows.append(row)
    except csv.Error as e:
        raise InputError(f"{path}:{reader.line_num}: {e}") from None
    if need_rows and not rows:
        raise InputError(f"{path}: a header and no rows")
    return schema, rows


def convert(schema, header, fields, where, stage):
    """One row as a dict, checked against the schema."""
    if [f.strip() for f in fields] == header:
        raise InputError(f"{where}: the header again (two runs wrote to the file at once?)")
    if len(fields) != len(header):
        raise InputError(f"{where}: {len(fields)} fields where the header has {len(header)} "
                         "(a damaged row)")
    row = {h: v.strip() for h, v in zip(header, fields)}
    for column in schema.columns:
        if column not in row:  # a column added since this file was written
            row[column] = schema.empty.get(column, "")
        elif column in schema.ints or column in schema.floats:
            kind = int if column in schema.ints else float
            row[column] = number(row[column], kind, where, column, schema.empty.get(column, ...),
                                 schema.least.get(column, 0))
        elif column in schema.choices and row[column] not in schema.choices[column]:
            raise InputError(f"{where}: {column} is {row[column]!r}, not one of "
                             f"{', '.join(schema.choices[column])}")
        elif column in schema.patterns and not schema.patterns[column].fullmatch(row[column]):
            raise InputError(f"{where}: {column} is {row[column]!r}, not of the form "
                             f"{schema.patterns[column].pattern}")
    if stage and "stage" in row and row["stage"] != stage:
        raise InputError(f"{where}: a row of {row['stage'] or 'no stage'}: another stage's CSV, "
                         f"not {stage}'s")
    return row


def read_rows(path, schema, stage=None):
    """The rows of a CSV that must be of `schema` (and of `stage`, where given), one row at least."""
    return read(path, (schema,), stage)[1]


def optional(path, schema, stage=None, required=False, why="needed here"):
    """The rows of a CSV that a chart reads where it is there (a stage's second file), read as
    read_rows does; [] where there is none, unless it is required (then an InputError saying why)."""
    if not os.path.exists(path):
        if required:
            raise InputError(f"{path}: no such file ({why})")
        return []
    return read_rows(path, schema, stage)


def sibling(path, name, schema, stage=None, required=False):
    """optional() for the CSV `name` in the folder of `path`."""
    return optional(os.path.join(os.path.dirname(os.path.abspath(path)), name), schema, stage,
                    required, f"needed beside {path}")

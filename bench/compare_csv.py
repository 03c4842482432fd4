#!/usr/bin/env python3
"""Compares two result CSV files of `contend simulate` (--per-rank, --messages)
field by field: text fields must be equal, numbers equal within a relative
tolerance (default 1e-9, issue 18's bar for a faster model).

usage: bench/compare_csv.py REFERENCE.csv CANDIDATE.csv [--rel 1e-9]

Prints the number of rows and the largest relative difference, and the first
differing rows; exits 1 when the files differ beyond the tolerance (or in
shape), 2 on unreadable input.
"""
import argparse
import csv
import math
import sys


def as_number(text):
    try:
        return float(text)
    except ValueError:
        return None


def relative_difference(a, b):
    if a == b or (math.isnan(a) and math.isnan(b)):
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reference")
    parser.add_argument("candidate")
    parser.add_argument("--rel", type=float, default=1e-9, help="relative tolerance on numbers")
    parser.add_argument("--show", type=int, default=5, help="differing rows to print")
    args = parser.parse_args()
    try:
        with open(args.reference, newline="") as f:
            reference = list(csv.reader(f))
        with open(args.candidate, newline="") as f:
            candidate = list(csv.reader(f))
    except OSError as e:
        print(f"compare_csv: {e}", file=sys.stderr)
        return 2
    if len(reference) != len(candidate):
        print(f"{args.candidate}: {len(candidate)} rows, {args.reference}: {len(reference)}")
        return 1
    worst, shown, differing = 0.0, 0, 0
    for line, (ref_row, cand_row) in enumerate(zip(reference, candidate), start=1):
        row_differs = len(ref_row) != len(cand_row)
        for ref_field, cand_field in zip(ref_row, cand_row):
            if ref_field == cand_field:
                continue
            a, b = as_number(ref_field), as_number(cand_field)
            if a is None or b is None:
                row_differs = True
                continue
            difference = relative_difference(a, b)
            worst = max(worst, difference)
            row_differs = row_differs or difference > args.rel
        if row_differs:
            differing += 1
            if shown < args.show:
                print(f"line {line}:\n  {','.join(ref_row)}\n  {','.join(cand_row)}")
                shown += 1
    print(f"{len(reference)} rows, largest relative difference {worst:.3g}, "
          f"{differing} rows beyond {args.rel:g}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())

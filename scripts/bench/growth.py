#!/usr/bin/env python3
"""How `geocluster cluster` time grows with n: several sizes run in turn, one binary.

Usage: growth.py BINARY ROUNDS FILE [FILE ...]

Runs `cluster FILE --min-cluster-size 15 --min-samples 5 --timings` for every file in turn,
ROUNDS times, and prints per file the median process wall time minus the reported reading stage
and the median fit (the stages from index to label), then the growth factors between
consecutive files next to n log n's (n = data rows of each file).

Alternating the sizes within one sitting keeps the machine's drift out of the ratios. Each file
writes its own output: replacing a large output with a small one would charge the small run
for the kernel freeing the large file.
"""
import math
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from process_times import run_cluster  # noqa: E402

STAGES = ["index", "core distances", "MST", "linkage", "condense", "select", "label"]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    binary, rounds, files = argv[0], int(argv[1]), argv[2:]
    wall = {f: [] for f in files}
    fit = {f: [] for f in files}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(rounds):
            for i, f in enumerate(files):
                elapsed, stages = run_cluster(binary, f, f"{folder}/labels-{i}.csv")
                wall[f].append(elapsed - stages["reading"])
                fit[f].append(sum(stages[s] for s in STAGES))
    rows = {}
    for f in files:
        with open(f) as handle:
            rows[f] = sum(1 for _ in handle) - 1
        print(f"{f} ({rows[f]} rows): process - reading median {statistics.median(wall[f]):.4f} s "
              f"(min {min(wall[f]):.4f}), fit median {statistics.median(fit[f]):.4f} s")
    for a, b in zip(files, files[1:]):
        nlogn = rows[b] * math.log(rows[b]) / (rows[a] * math.log(rows[a]))
        print(f"{a} -> {b}: process x{statistics.median(wall[b]) / statistics.median(wall[a]):.2f}, "
              f"fit x{statistics.median(fit[b]) / statistics.median(fit[a]):.2f}, n log n x{nlogn:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])

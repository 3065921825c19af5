#!/usr/bin/env python3
"""Whole-process timings of `geocluster cluster`, interleaved across builds.

Usage: process_times.py FILE RUNS BINARY [BINARY ...] [-- extra cluster options]

Runs each binary RUNS times on FILE, alternating between the binaries, with
`--min-cluster-size 15 --min-samples 5 --timings` (plus any extra options), and prints, per
binary, the process wall time minus its reported reading stage (min and median; the figure the
speed targets are stated in), the median of every stage `--timings` reports, and peak memory.

Interleaving matters on a shared machine whose speed drifts within minutes: two builds timed in
turns see the same drift, so their ratio is meaningful even when the seconds are not.
"""
import re
import statistics
import subprocess
import sys
import tempfile
import time


def run_cluster(binary, path, output, extra=()):
    """Runs `binary cluster path ... --timings` once; returns (wall seconds, {stage: value})
    with the stages `--timings` reports (seconds; peak memory in MB)."""
    command = [binary, "cluster", path, "--min-cluster-size", "15", "--min-samples", "5",
               "--output", output, "--timings", *extra]
    start = time.perf_counter()
    r = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{r.stderr}")
    return wall, parse_timings(r.stderr)


def parse_timings(stderr):
    """{stage: value} from the lines `--timings` writes to standard error ("MST   0.9123 s",
    "peak memory   124.0 MB"): seconds, and megabytes for peak memory; a stage listed twice
    (writing the labels, then a model) counts its total."""
    stages = {}
    for line in stderr.splitlines():
        m = re.match(r"\s*([A-Za-z][A-Za-z ]*?)\s+([0-9.]+) (s|MB)$", line)
        if m:
            stages[m.group(1)] = stages.get(m.group(1), 0) + float(m.group(2))
    return stages


def main(argv):
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    else:
        extra = []
    if len(argv) < 3:
        sys.exit(__doc__)
    path, runs, binaries = argv[0], int(argv[1]), argv[2:]
    results = {b: [] for b in binaries}
    with tempfile.TemporaryDirectory() as folder:
        out = f"{folder}/labels.csv"
        for _ in range(runs):
            for b in binaries:
                wall, stages = run_cluster(b, path, out, extra)
                stages["process - reading"] = wall - stages["reading"]
                results[b].append(stages)
    for b in binaries:
        rows = results[b]
        v = [r["process - reading"] for r in rows]
        print(f"{b}: process - reading min {min(v):.4f} s, median {statistics.median(v):.4f} s ({runs} runs)")
        for name in rows[0]:
            if name in ("process - reading", "total"):
                continue
            unit = "MB" if name == "peak memory" else "s"
            print(f"    {name:16s} median {statistics.median(r[name] for r in rows):.4f} {unit}")


if __name__ == "__main__":
    main(sys.argv[1:])

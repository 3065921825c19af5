#!/usr/bin/env python3
"""Reading speed: geocluster's CSV reader against pandas' C parser, in one run on one file.

Usage:
    python3 scripts/bench/reading.py [--file F.csv] [--count 1000000] [--repeat 7]
                                     [--geocluster .build/release/geocluster] [--also OTHER_BINARY]

Without --file, a seoul file of --count listings (seed 1) is generated with
`geocluster generate` into /tmp/geocluster-reading-<count>.csv (kept for the next run).
Needs pandas (`pip install pandas`).

Each repeat runs, interleaved so that a slow spell of this shared machine hits every variant
alike:
  pandas xy       pandas.read_csv(f, usecols=["x", "y"]) in this Python process (C engine,
                  one thread: pandas' C parser does not use more);
  pandas filters  the same with the filter columns too (category, area_m2, deposit,
                  monthly_rent), parsed as pandas does (numbers to float64/int64, text to
                  objects);
  geocluster xy   the `reading` stage printed by
                  `geocluster cluster F --min-cluster-size 15 --min-samples 5 --timings -o /dev/null`:
                  PointFile.read of x,y and the id (mapping the file, splitting it, parsing on
                  every core, joining the parts), in its own process after start-up;
  geocluster filters  the same run with filters that read category, area_m2, deposit and
                  monthly_rent in every row and keep every row (all six categories, open ranges),
                  so the rest of the run is unchanged.
With --also, a second binary (say a build of main) is measured the same way, for before/after.

Prints one line per variant: median, min and max over the repeats in seconds, and the ratio of
each geocluster median to pandas' median of the same columns (< 1: geocluster is faster).
The machine's load average is printed too: the figures are only comparable within one run.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

FILTER_ARGS = ["--category", "apartment,officetel,villa,one-room,two-room,store",
               "--area", "0..", "--deposit", "0..", "--rent", "0.."]
FILTER_COLUMNS = ["x", "y", "category", "area_m2", "deposit", "monthly_rent"]


def geocluster_reading(binary, path, filters):
    cmd = [binary, "cluster", path, "--min-cluster-size", "15", "--min-samples", "5",
           "--timings", "-o", "/dev/null"] + (FILTER_ARGS if filters else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    m = re.search(r"^reading\s+([0-9.]+) s", out, re.M)
    if not m:
        sys.exit(f"no reading stage in the output of {' '.join(cmd)}:\n{out}")
    return float(m.group(1))


def pandas_reading(pd, path, columns):
    t = time.perf_counter()
    frame = pd.read_csv(path, usecols=columns)
    elapsed = time.perf_counter() - t
    assert len(frame) > 0
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--file")
    ap.add_argument("--count", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--geocluster", default=".build/release/geocluster")
    ap.add_argument("--also", help="a second geocluster binary to measure the same way")
    args = ap.parse_args()
    import pandas as pd

    path = args.file
    if path is None:
        path = f"/tmp/geocluster-reading-{args.count}.csv"
        if not os.path.exists(path):
            subprocess.run([args.geocluster, "generate", "--count", str(args.count), "--seed", "1",
                            "--output", path], check=True, capture_output=True)
    binaries = [("geocluster", args.geocluster)] + ([("also", args.also)] if args.also else [])

    times = {}
    def add(name, value):
        times.setdefault(name, []).append(value)

    pandas_reading(pd, path, ["x", "y"])  # warm the page cache and pandas' imports
    for _ in range(args.repeat):
        add("pandas xy", pandas_reading(pd, path, ["x", "y"]))
        for label, binary in binaries:
            add(f"{label} xy", geocluster_reading(binary, path, False))
        add("pandas filters", pandas_reading(pd, path, FILTER_COLUMNS))
        for label, binary in binaries:
            add(f"{label} filters", geocluster_reading(binary, path, True))

    size = os.path.getsize(path)
    print(f"file {path}: {size / 1e6:.1f} MB; {args.repeat} repeats, interleaved; "
          f"load average {os.getloadavg()[0]:.2f} at the end; {os.cpu_count()} processors")
    print(f"pandas {pd.__version__} (C engine, one thread); geocluster on every processor")
    for kind in ["xy", "filters"]:
        reference = statistics.median(times[f"pandas {kind}"])
        for name in [f"pandas {kind}"] + [f"{label} {kind}" for label, _ in binaries]:
            ts = times[name]
            med = statistics.median(ts)
            ratio = "" if name.startswith("pandas") else f"   {med / reference:.2f}x pandas"
            print(f"{name:20s} median {med:.3f} s  (min {min(ts):.3f}, max {max(ts):.3f}){ratio}")


if __name__ == "__main__":
    main()

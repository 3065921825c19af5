#!/usr/bin/env python3
"""The speed table of docs/performance.md from one run: every data set x size, stages, peak memory, and the
pandas and peer ratios measured in the same sitting.

Usage (from the repository root, after `make build`):

    scripts/bench/speed_table.py                          # seoul, duplicates, distinct x 1M, 10M
    scripts/bench/speed_table.py --sizes 1M --cache /tmp/speed-cache --peers
    scripts/bench/speed_table.py --sizes 20k,50k --repeat 3   # a quick check of the script

Options: --sizes (default 1M,10M; k and M suffixes), --data (default seoul,duplicates,distinct),
--repeat R (default 3; every figure is a median of R), --seed (default 1), --binary (default
.build/release/geocluster), --cache DIR (keep the generated files there and reuse them;
otherwise they go to a temporary folder removed at the end), --peers (also time the peer
libraries; install them first with scripts/peers/install.sh), --peer-size (default 1M),
--sklearn-size (default 100k), --sklearn-repeat (default 1), --markdown-only.

Data sets, each generated once per size and seed:
  seoul       `geocluster generate --count N --seed S` (the default scenario: apartment
              complexes, officetel strips, scattered villas; several listings per building)
  duplicates  `geocluster generate --scenario duplicates --count N --seed S` (90 % of the
              listings in buildings of 4-16 units at one coordinate)
  distinct    `scripts/peers/run_peers.py --generate N --seed S --generate-only` (blobs,
              strips and noise on a 1 cm grid: almost every point has coordinates of its own)

What is run: for R rounds, every file in turn (rounds interleaved, so the machine's drift is
shared by all rows), `geocluster cluster FILE --min-cluster-size 15 --min-samples 5 --timings
-o OUT`, each its own process; then in the same round `pandas.read_csv(FILE,
usecols=["x","y"])` in this process on the files of the first size. Before the rounds, every
file is read once with pandas (to count its locations), which also puts it in the page cache.

Columns of the table (seconds are medians over the R runs of each file):
  data, n                 the data set and its number of rows (listings)
  locations               distinct (x, y) pairs in the file, counted with pandas: the n that
                          HDBSCAN works on after grouping co-located listings
  reading ... writing     the stages `--timings` reports (linkage and select are not shown
                          but are part of fit; projecting is 0 for files with x,y)
  fit                     index + core distances + MST + linkage + condense + select + label,
                          per run, then the median: the clustering alone, comparable with a
                          peer library's fit()
  fit / (index + core)    per-run ratio, median (the target: docs/performance.md)
  total process           wall time of the whole `geocluster cluster` process (start, reading,
                          clustering, writing the labels, exit), measured by this script
  peak                    the process's peak resident set, from /usr/bin/time (its
                          "Maximum resident set size"), the largest of the R runs

Below the table: geocluster's reading over pandas' (pandas' C parser is single-threaded;
geocluster reads on all cores), the growth of total process and fit from the smallest to the
largest size next to n log n's growth (1M -> 10M: 10 log(10^7) / log(10^6) = 11.67), and with
--peers each peer's median fit over geocluster's fit from this run: hdbscan_rs, fast_hdbscan and
hdbscan on the seoul file of --peer-size, scikit-learn on a seoul file of --sklearn-size (its
HDBSCAN is quadratic in memory and time). The peers run through scripts/peers/run_peers.py,
each in its own process, after geocluster's rounds; fast_hdbscan gets an untimed JIT warm-up.

How long: the default takes minutes, most of it generating the 10M files the first time (use
--cache to keep them: about 1 GB each), and --peers adds a quarter of an hour or so at 1M (the
peers' fits, times --repeat). Measured durations: docs/performance.md ("The tools' own run
times").

Standard library and pandas only (the peers bring their own packages).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from process_times import parse_timings  # noqa: E402

DATA = ["seoul", "duplicates", "distinct"]
FIT_STAGES = ["index", "core distances", "MST", "linkage", "condense", "select", "label"]
SHOWN_STAGES = ["reading", "index", "core distances", "MST", "condense", "label", "writing"]
PEERS_AT_PEER_SIZE = ["hdbscan_rs", "fast_hdbscan", "hdbscan"]
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


# ----------------------------------------------------------------------------------------
# Sizes and formatting
# ----------------------------------------------------------------------------------------

def parse_size(text: str) -> int:
    """'20k' -> 20000, '1M' -> 1000000, '1.5M' -> 1500000, '300' -> 300."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([kKmM]?)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (examples: 20k, 1M, 10M)")
    scale = {"": 1, "k": 1_000, "m": 1_000_000}[m.group(2).lower()]
    n = round(float(m.group(1)) * scale)
    if n < 100:
        raise argparse.ArgumentTypeError(f"size {text!r}: at least 100 rows")
    return n


def size_label(n: int) -> str:
    """1000000 -> '1M', 20000 -> '20k', 1500000 -> '1.5M', 12345 -> '12345'."""
    if n >= 1_000_000 and n % 100_000 == 0:
        return f"{n / 1_000_000:g}M"
    if n >= 1_000 and n % 1_000 == 0:
        return f"{n // 1_000}k"
    return str(n)


def seconds(v: float | None) -> str:
    if v is None:
        return "–"
    return f"{v:.4f} s" if v < 0.1 else f"{v:.3f} s" if v < 10 else f"{v:.2f} s"


def megabytes(mb: float) -> str:
    return f"{mb / 1000:.2f} GB" if mb >= 1000 else f"{mb:.0f} MB"


# ----------------------------------------------------------------------------------------
# Files
# ----------------------------------------------------------------------------------------

def generate(data: str, n: int, seed: int, folder: Path, binary: str) -> Path:
    """The CSV of `data` at `n` rows and `seed` in `folder`, generated if it is not there yet
    (written under a temporary name and renamed, so an interrupted run leaves no half file)."""
    path = folder / f"{data}-{size_label(n)}-seed{seed}.csv"
    if path.exists():
        return path
    partial = folder / f".partial-{path.name}"
    if data == "distinct":
        command = [sys.executable, str(ROOT / "scripts/peers/run_peers.py"), "--generate", str(n),
                   "--seed", str(seed), "--input", str(partial), "--generate-only"]
    else:
        command = [binary, "generate", "--count", str(n), "--seed", str(seed), "--output", str(partial)]
        if data != "seoul":
            command[2:2] = ["--scenario", data]
    log(f"generating {path.name}: {shlex.join(command)}")
    start = time.perf_counter()
    r = subprocess.run(command, capture_output=True, text=True)
    if r.returncode != 0:
        partial.unlink(missing_ok=True)
        sys.exit(f"{shlex.join(command)} failed:\n{r.stderr}")
    partial.rename(path)
    log(f"    {time.perf_counter() - start:.1f} s")
    return path


def describe(path: Path) -> dict:
    """Rows and distinct (x, y) pairs of a CSV, counted with pandas; kept beside the file
    (FILE.info.json) while the file's size and modification time stay the same."""
    info_path = path.with_name(path.name + ".info.json")
    stat = path.stat()
    key = {"bytes": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    if info_path.exists():
        info = json.loads(info_path.read_text())
        if info.get("key") == key:
            # Read the file once anyway, so that it is in the page cache like the others.
            with open(path, "rb") as handle:
                while handle.read(1 << 24):
                    pass
            return info
    import pandas
    frame = pandas.read_csv(path, usecols=["x", "y"])
    info = {"key": key, "rows": len(frame), "locations": int(len(frame.drop_duplicates()))}
    info_path.write_text(json.dumps(info) + "\n")
    return info


# ----------------------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------------------

def run_cluster(binary: str, path: Path, output: Path) -> dict:
    """One `geocluster cluster` process: its wall time, peak RSS in MB, the stages `--timings`
    printed, and clusters / noise from its summary line.

    The peak comes from GNU time (`/usr/bin/time`, the figure `-v` prints as "Maximum resident
    set size"), whose own small process is the one that starts geocluster. Not from this
    script's wait4: Linux carries the parent's high-water RSS into a child it starts (vfork,
    then exec), and this script has held a pandas frame of the largest file. Without
    /usr/bin/time, the peak geocluster's `--timings` reports itself is used."""
    command = [binary, "cluster", str(path), "--min-cluster-size", "15", "--min-samples", "5",
               "--timings", "--output", str(output)]
    if GNU_TIME:
        command = [GNU_TIME, "-f", "speed_table maxrss_kb=%M", *command]
    start = time.perf_counter()
    r = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"{shlex.join(command)} failed (exit {r.returncode}):\n{r.stderr}")
    stages = parse_timings(r.stderr)
    rss = re.search(r"^speed_table maxrss_kb=(\d+)$", r.stderr, re.M)
    m = re.search(r"(\d+) clusters, (\d+) noise", r.stderr)
    return {"wall": wall, "peak_mb": int(rss.group(1)) / 1024 if rss else stages["peak memory"],
            "stages": stages, "clusters": int(m.group(1)) if m else None, "noise": int(m.group(2)) if m else None}


def time_pandas(path: Path) -> float:
    import pandas
    start = time.perf_counter()
    frame = pandas.read_csv(path, usecols=["x", "y"])
    elapsed = time.perf_counter() - start
    del frame
    return elapsed


def summarise(runs: list[dict]) -> dict:
    """Medians over runs: each stage, fit, fit / (index + core), wall; the largest peak."""
    def stage(r, name):
        return r["stages"].get(name)

    out = {}
    for name in SHOWN_STAGES:
        values = [stage(r, name) for r in runs]
        out[name] = statistics.median(values) if None not in values else None
    fits = [sum(r["stages"].get(s, 0.0) for s in FIT_STAGES) for r in runs]
    out["fit"] = statistics.median(fits)
    out["fit ratio"] = statistics.median(
        f / (r["stages"]["index"] + r["stages"]["core distances"]) for f, r in zip(fits, runs))
    out["total process"] = statistics.median(r["wall"] for r in runs)
    out["peak"] = max(r["peak_mb"] for r in runs)
    out["clusters"], out["noise"] = runs[0]["clusters"], runs[0]["noise"]
    return out


def run_peers(path: Path, peers: list[str], repeat: int, folder: Path) -> list[dict]:
    """The peers' results (run_peers.py's JSON records) on `path`."""
    report = folder / f"peers-{path.stem}.json"
    command = [sys.executable, str(ROOT / "scripts/peers/run_peers.py"), "--input", str(path),
               "--peers", ",".join(peers), "--repeat", str(repeat), "--sklearn-max-n", str(10**12),
               "--json", str(report)]
    log(f"peers: {shlex.join(command)}")
    r = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=sys.stderr)
    if not report.exists():
        return [{"peer": p, "error": f"run_peers.py exited {r.returncode} without results"} for p in peers]
    return json.loads(report.read_text())["peers"]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="See the top of this file for the columns and timings.")
    parser.add_argument("--sizes", default="1M,10M", help="comma-separated sizes (default 1M,10M)")
    parser.add_argument("--data", default=",".join(DATA), help=f"data sets (default {','.join(DATA)})")
    parser.add_argument("--repeat", type=int, default=3, help="runs per file; figures are medians (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--binary", default=str(ROOT / ".build/release/geocluster"))
    parser.add_argument("--cache", type=Path, help="keep the generated files here and reuse them")
    parser.add_argument("--peers", action="store_true", help="also time hdbscan_rs, fast_hdbscan, hdbscan and scikit-learn")
    parser.add_argument("--peer-size", type=parse_size, default=1_000_000, help="seoul size for the peers (default 1M)")
    parser.add_argument("--sklearn-size", type=parse_size, default=100_000, help="seoul size for scikit-learn (default 100k)")
    parser.add_argument("--sklearn-repeat", type=int, default=1, help="scikit-learn fits (default 1: minutes each)")
    args = parser.parse_args(argv)

    sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    data = [d.strip() for d in args.data.split(",") if d.strip()]
    unknown = set(data) - set(DATA)
    if unknown or not data or not sizes:
        parser.error(f"--data: choose from {','.join(DATA)}; --sizes: at least one size")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"{binary}: no geocluster binary; build it with `make build` or pass --binary")
    try:
        import pandas
    except ImportError:
        sys.exit("pandas is needed (pip install pandas)")

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="speed-table-") as scratch:
        scratch = Path(scratch)
        folder = args.cache or scratch
        folder.mkdir(parents=True, exist_ok=True)

        # The files: (data, n) for the table; extra seoul files for the peers.
        cells = [(d, n) for n in sizes for d in data]
        extra = []
        if args.peers:
            extra = [("seoul", m) for m in (args.peer_size, args.sklearn_size) if ("seoul", m) not in cells]
            extra = list(dict.fromkeys(extra))
        files = {c: generate(c[0], c[1], args.seed, folder, binary) for c in cells + extra}
        log("counting locations (pandas) and warming the page cache ...")
        info = {c: describe(files[c]) for c in files}

        pandas_cells = [c for c in cells if c[1] == sizes[0]]
        runs = {c: [] for c in files}
        pandas_times = {c: [] for c in pandas_cells}
        for round_ in range(args.repeat):
            log(f"round {round_ + 1} of {args.repeat} ...")
            for i, c in enumerate(files):
                runs[c].append(run_cluster(binary, files[c], scratch / f"labels-{i}.csv"))
                if c in pandas_cells:
                    pandas_times[c].append(time_pandas(files[c]))
        results = {c: summarise(runs[c]) for c in files}

        peer_results = []
        if args.peers:
            peer_results += [(args.peer_size, r) for r in
                             run_peers(files[("seoul", args.peer_size)], PEERS_AT_PEER_SIZE, args.repeat, scratch)]
            peer_results += [(args.sklearn_size, r) for r in
                             run_peers(files[("seoul", args.sklearn_size)], ["sklearn"], args.sklearn_repeat, scratch)]
        elapsed = time.perf_counter() - started

    # ---- the report ----
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor()) if os.path.exists("/proc/cpuinfo") else platform.processor()
    print(f"`{shlex.join(['scripts/bench/speed_table.py', *(argv if argv is not None else sys.argv[1:])])}`: "
          f"geocluster {version} ({binary}), {os.cpu_count()} cores ({cpu}), {time.strftime('%Y-%m-%d %H:%M')}; "
          f"`geocluster cluster FILE --min-cluster-size 15 --min-samples 5 --timings -o OUT`, "
          f"median of {args.repeat} runs (peak: the largest); seed {args.seed}; took {elapsed / 60:.1f} min.\n")
    header = ["data", "n", "locations", *SHOWN_STAGES, "fit", "fit / (index + core)", "total process", "peak"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for c in cells:
        r, i = results[c], info[c]
        row = [c[0], size_label(i["rows"]) if i["rows"] == c[1] else str(i["rows"]),
               f"{i['locations']:,} ({i['rows'] / i['locations']:.2f} listings each)",
               *(seconds(r[s]) for s in SHOWN_STAGES), seconds(r["fit"]), f"{r['fit ratio']:.2f}",
               seconds(r["total process"]), megabytes(r["peak"])]
        print("| " + " | ".join(row) + " |")

    print(f"\nReading against pandas {pandas.__version__} (`pandas.read_csv(f, usecols=[\"x\", \"y\"])`, its C "
          f"parser, single-threaded; geocluster reads on {os.cpu_count()} cores), same files, same run:")
    for c in pandas_cells:
        p = statistics.median(pandas_times[c])
        g = results[c]["reading"]
        print(f"- {c[0]} {size_label(c[1])}: geocluster reading {seconds(g)}, pandas {seconds(p)}: "
              f"geocluster / pandas = {g / p:.2f}")

    if len(sizes) > 1:
        a, b = sizes[0], sizes[-1]
        nlogn = b * math.log(b) / (a * math.log(a))
        print(f"\nGrowth {size_label(a)} -> {size_label(b)} (n log n: x{nlogn:.2f}; linear: x{b / a:.2f}):")
        for d in data:
            ra, rb = results[(d, a)], results[(d, b)]
            print(f"- {d}: total process x{rb['total process'] / ra['total process']:.2f}, "
                  f"fit x{rb['fit'] / ra['fit']:.2f}")

    if args.peers:
        print(f"\nPeers (scripts/peers/run_peers.py, each in its own process, median fit of "
              f"{args.repeat} at {size_label(args.peer_size)}, {args.sklearn_repeat} for scikit-learn), "
              f"over geocluster's fit on the same seoul file in this run:\n")
        print("| peer | n | fit | geocluster fit | peer / geocluster | clusters (geocluster) | noise (geocluster) |")
        print("|---|---|---|---|---|---|---|")
        for n, r in peer_results:
            g = results[("seoul", n)]
            name = f"{r['peer']} {r.get('version', '')}".strip()
            if "error" in r or "skipped" in r:
                why = r.get("error") or r.get("skipped")
                if "No module named" in str(why):
                    why = f"not installed ({why}); scripts/peers/install.sh installs the peers"
                print(f"| {name} | {size_label(n)} | – | {seconds(g['fit'])} | {why} | | |")
                continue
            t = statistics.median(r["fit_times_s"])
            print(f"| {name} | {size_label(n)} | {seconds(t)} | {seconds(g['fit'])} | {t / g['fit']:.1f}x "
                  f"| {r.get('clusters')} ({g['clusters']}) | {r.get('noise')} ({g['noise']}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

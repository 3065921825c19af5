"""The tiles of the engines' global DBSCAN (geocluster_hdbscan._engines), with pandas alone:
every point is owned by exactly one tile, and every point within 2·eps of a point is copied
into that point's tile (the halo the exactness argument needs), on the plane and on the
sphere across the antimeridian and the poles. And importing geocluster_hdbscan imports
neither PySpark nor Dask."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pd = pytest.importorskip("pandas", reason="the engines' helpers need pandas")

from geocluster_hdbscan import _engines  # noqa: E402


def exploded(plan, X):
    frame = pd.DataFrame({"id": np.arange(len(X)), "a": X[:, 0], "b": X[:, 1]})
    return plan.explode(frame)


def check_halo(plan, X, distance):
    """Each point owned once; each pair within 2·eps (by `distance`) shares the first point's
    tile. Returns how many pairs crossed a tile border."""
    out = exploded(plan, X)
    owned = out[out[_engines.OWNED]]
    assert np.array_equal(np.sort(owned["id"].to_numpy()), np.arange(len(X)))
    assert not out.duplicated(["id", _engines.TILE]).any()
    own = owned.set_index("id")[_engines.TILE].sort_index().to_numpy()
    copies = set(zip(out["id"].to_numpy().tolist(), out[_engines.TILE].to_numpy().tolist()))
    d = distance(X[:, None, :], X[None, :, :])
    crossing = 0
    for p, q in zip(*np.nonzero(d <= 2 * plan.eps)):
        assert (int(q), int(own[p])) in copies, (p, q)
        crossing += own[p] != own[q]
    return crossing


def planar(a, b):
    return np.hypot(a[..., 0] - b[..., 0], a[..., 1] - b[..., 1])


def great_circle(a, b):
    h = (np.sin((a[..., 0] - b[..., 0]) / 2) ** 2
         + np.cos(a[..., 0]) * np.cos(b[..., 0]) * np.sin((a[..., 1] - b[..., 1]) / 2) ** 2)
    return 2 * np.arcsin(np.sqrt(np.minimum(1, h)))


@pytest.mark.parametrize("tile_size", [0.5, 1.0, 3.0])
def test_planar_halo(tile_size):
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.uniform(-6, 6, (700, 2)), np.repeat([[3.0, 3.0], [0.0, -3.0]], 5, axis=0)])
    plan = _engines.TiledDBSCAN("dbscan", ("a", "b"), "id", tile_size, dict(eps=0.5, min_samples=3))
    assert check_halo(plan, X, planar) > 100


@pytest.mark.parametrize("tile_size", [0.02, 0.05, 0.5])
def test_sphere_halo_across_the_antimeridian_and_the_poles(tile_size):
    rng = np.random.default_rng(1)
    near_antimeridian = np.column_stack([rng.uniform(-0.1, 0.1, 400), rng.uniform(math.pi - 0.05, math.pi, 400)])
    near_antimeridian[::2, 1] -= 2 * math.pi - 0.05  # the other side: just east of -π
    near_poles = np.column_stack([np.repeat([1, -1], 200) * (math.pi / 2 - rng.uniform(0, 0.03, 400)),
                                  rng.uniform(-math.pi, math.pi, 400)])
    X = np.concatenate([near_antimeridian, near_poles, [[math.pi / 2, 0.0], [0.0, math.pi], [0.0, -math.pi]]])
    plan = _engines.TiledDBSCAN("dbscan", ("a", "b"), "id", tile_size,
                                dict(eps=0.005, min_samples=3, metric="haversine"))
    assert check_halo(plan, X, great_circle) > 100


def test_global_hdbscan_names_the_alternative():
    with pytest.raises(NotImplementedError, match=r"cluster_groups\(df, by=\[\.\.\.\], algorithm='hdbscan'\)"):
        _engines.TiledDBSCAN("hdbscan", ("x", "y"), "id", None, {})


def test_estimator_parameters_are_checked_before_any_task():
    with pytest.raises(TypeError):
        _engines.TiledDBSCAN("dbscan", ("x", "y"), "id", None, dict(eps=1, min_points=3))
    with pytest.raises(ValueError, match="eps"):
        _engines.TiledDBSCAN("dbscan", ("x", "y"), "id", None, dict(eps=-1))
    with pytest.raises(ValueError, match="tile_size"):
        _engines.TiledDBSCAN("dbscan", ("x", "y"), "id", 0, dict(eps=1))


def test_importing_the_package_imports_no_engine():
    code = ("import sys, geocluster_hdbscan; "
            "print(sorted(m for m in ('pyspark', 'dask', 'distributed') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_wheel_declares_the_extras_pyproject_lists():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11's")
    root = Path(__file__).resolve().parents[1]
    listed = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    sys.path.insert(0, str(root / "_build"))
    try:
        import geocluster_build
    finally:
        sys.path.pop(0)
    assert {name: listed[name] for name in ("spark", "dask")} == geocluster_build.EXTRAS
    metadata = geocluster_build._metadata()
    assert 'Requires-Dist: pyspark>=3.5; extra == "spark"' in metadata
    assert 'Requires-Dist: distributed>=2024.12; extra == "dask"' in metadata

"""metric="haversine": scikit-learn's partitions on the great-circle fixtures
(Tests/Fixtures/haversine, written by scripts/reference/make_haversine_fixtures.py) and live,
distances in radians."""
import numpy as np
import pytest

import geocluster_hdbscan
from conftest import load_fixtures, same_partition

R = 6371008.8
CASES = load_fixtures("haversine")


def radians(case):
    points = np.array(case["points"])
    return np.radians(points[:, [1, 0]])  # [latitude, longitude], as scikit-learn's haversine


@pytest.mark.parametrize("name,case", CASES, ids=[n for n, _ in CASES])
def test_hdbscan_matches_scikit_learn(name, case):
    p = dict(case["hdbscan"]["params"])
    p["cluster_selection_epsilon"] /= R
    model = geocluster_hdbscan.HDBSCAN(metric="haversine", gen_min_span_tree=True, **p).fit(radians(case))
    stable = np.setdiff1d(np.arange(case["n"]), case["hdbscan"]["unstable_points"])
    assert same_partition(model.labels_[stable], np.array(case["hdbscan"]["labels"])[stable])
    weights = np.sort(model.minimum_spanning_tree_["distance"]) * R
    np.testing.assert_allclose(weights, case["hdbscan"]["mst_weights_m"], rtol=1e-9, atol=1e-6)
    if case["hdbscan"]["shuffle_stable"]:
        np.testing.assert_allclose(model.probabilities_, case["hdbscan"]["probabilities"], atol=1e-9)


@pytest.mark.parametrize("name,case", CASES, ids=[n for n, _ in CASES])
def test_dbscan_matches_scikit_learn(name, case):
    p = case["dbscan"]["params"]
    model = geocluster_hdbscan.DBSCAN(eps=p["eps"] / R, min_samples=p["min_samples"], metric="haversine").fit(radians(case))
    np.testing.assert_array_equal(model.labels_, case["dbscan"]["labels"])
    np.testing.assert_array_equal(model.core_sample_indices_, case["dbscan"]["core_sample_indices"])


def test_live_against_scikit_learn_with_radians_out():
    cluster = pytest.importorskip("sklearn.cluster")
    rng = np.random.default_rng(3)
    centres = np.radians([[-17.8, 179.9], [51.5, -0.1], [78.2, 15.6], [-54.8, -68.3]])
    X = np.vstack([c + rng.normal(scale=0.004, size=(150, 2)) for c in centres])
    X[:, 1] = (X[:, 1] + np.pi) % (2 * np.pi) - np.pi
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=10, metric="haversine").fit(X)
    theirs = cluster.HDBSCAN(min_cluster_size=10, metric="haversine", copy=True).fit(X)
    assert same_partition(ours.labels_, theirs.labels_)
    assert ours.labels_.max() >= 3
    # Lambdas are 1/radians: the largest finite ones are those of points a few kilometres apart.
    lam = ours.condensed_tree_["lambda_val"]
    assert np.nanmax(lam[np.isfinite(lam)]) > 100
    eps = 20_000 / R
    np.testing.assert_array_equal(geocluster_hdbscan.DBSCAN(eps=eps, metric="haversine").fit(X).labels_,
                                  cluster.DBSCAN(eps=eps, metric="haversine").fit(X).labels_)


def test_latitude_beyond_a_pole_is_refused():
    X = np.array([[2.0, 0.0], [0.0, 0.0], [0.1, 0.1]])  # 2 radians > pi/2
    with pytest.raises(ValueError, match="latitude"):
        geocluster_hdbscan.HDBSCAN(min_cluster_size=2, metric="haversine").fit(X)


DEGREES = np.array([[52.52, 13.40], [48.14, 11.58], [53.55, 9.99], [50.94, 6.96], [52.53, 13.41]])


@pytest.mark.parametrize("estimator", [geocluster_hdbscan.HDBSCAN(min_cluster_size=2), geocluster_hdbscan.DBSCAN(eps=0.01)])
def test_degrees_are_named_as_degrees(estimator):
    estimator.set_params(metric="haversine")
    with pytest.raises(ValueError, match=r"latitude \(X\[0, 0\]\) = 52\.52 .*look like degrees: convert with np\.radians"):
        estimator.fit(DEGREES)
    seoul = np.array([[126.98, 37.57], [127.03, 37.50], [126.93, 37.52]])  # longitude first, degrees
    with pytest.raises(ValueError, match=r"degrees with longitude first.*np\.radians\(X\[:, ::-1\]\)"):
        estimator.fit(seoul)
    with pytest.raises(ValueError, match=r"columns look swapped"):
        estimator.fit(np.radians(seoul))
    estimator.fit(np.radians(DEGREES))  # in radians, latitude first: accepted


def test_distances_in_metres_are_named_as_metres():
    with pytest.raises(ValueError, match=r"eps=500 is more than π radians.*metres / 6371008\.8.*7\.84805e-05"):
        geocluster_hdbscan.DBSCAN(eps=500, metric="haversine").fit(np.radians(DEGREES))
    with pytest.raises(ValueError, match=r"cluster_selection_epsilon=2000 is more than π radians"):
        geocluster_hdbscan.HDBSCAN(min_cluster_size=2, cluster_selection_epsilon=2000, metric="haversine").fit(np.radians(DEGREES))
    # The same numbers on the plane are metres and fine.
    geocluster_hdbscan.DBSCAN(eps=500).fit(DEGREES)

"""The two tie rules (HDBSCAN(ties=...)): "one-at-a-time" is scikit-learn's dendrogram, in an
order of the points' own, so it comes closer to scikit-learn than the default "all-at-once"
where ties decide, and neither depends on the order of the rows."""

import numpy as np
import pytest

import geocluster_hdbscan
from conftest import FIXTURES, same_partition


def german_places():
    """GeoNames' German places of more than 1,000 people (Tests/Fixtures/geonames), as
    [latitude, longitude] in radians, and the same snapped to a 1/60 degree grid."""
    table = np.loadtxt(FIXTURES / "geonames" / "de-cities1000.csv", delimiter=",", skiprows=1)
    degrees = table[:, [2, 1]]
    return np.radians(degrees), np.radians(np.round(degrees * 60) / 60)


@pytest.mark.parametrize("grid", [False, True])
def test_one_at_a_time_is_closer_to_scikit_learn(grid):
    metrics = pytest.importorskip("sklearn.metrics")
    cluster = pytest.importorskip("sklearn.cluster")
    X = german_places()[1 if grid else 0]
    theirs = cluster.HDBSCAN(min_cluster_size=15, metric="haversine", copy=False).fit(X).labels_
    rules = {rule: geocluster_hdbscan.HDBSCAN(min_cluster_size=15, metric="haversine", ties=rule).fit(X).labels_
             for rule in ("all-at-once", "one-at-a-time")}
    ari = {rule: metrics.adjusted_rand_score(theirs, labels) for rule, labels in rules.items()}
    noise_gap = {rule: abs(int((labels < 0).sum()) - int((theirs < 0).sum())) for rule, labels in rules.items()}
    assert ari["one-at-a-time"] > ari["all-at-once"] > 0.98, ari
    assert noise_gap["one-at-a-time"] < noise_gap["all-at-once"], noise_gap


@pytest.mark.parametrize("metric", ["haversine", "euclidean"])
def test_one_at_a_time_does_not_depend_on_row_order(metric):
    X = german_places()[1]  # grid-snapped: distances tie by the thousand
    if metric == "euclidean":
        X = np.degrees(X)
    model = geocluster_hdbscan.HDBSCAN(min_cluster_size=5, metric=metric, ties="one-at-a-time")
    base = model.fit(X)
    labels, probabilities = base.labels_.copy(), base.probabilities_.copy()
    for seed in (1, 2):
        p = np.random.default_rng(seed).permutation(len(X))
        again = model.fit(X[p])
        back = np.argsort(p)
        assert same_partition(labels, again.labels_[back])
        np.testing.assert_array_equal(probabilities, again.probabilities_[back])


def test_ties_is_checked():
    X = german_places()[0][:200]
    with pytest.raises(ValueError, match="ties"):
        geocluster_hdbscan.HDBSCAN(ties="sklearn", metric="haversine").fit(X)

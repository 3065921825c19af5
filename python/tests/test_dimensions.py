"""X of 1 to 16 features: scikit-learn's partitions (HDBSCAN) and labels and core points (DBSCAN)
on random blobs at d = 1, 3, 5, 8 and 16 (continuous data: no ties to decide), the hdbscan
library's spanning-tree weights, every layout of X giving the same result, sample weights as
repeated rows, and the errors of what stays 2-D (haversine, prediction)."""

import pickle

import numpy as np
import pytest

import geocluster_hdbscan
from conftest import same_partition

cluster = pytest.importorskip("sklearn.cluster")


def blobs(d, seed, n=600):
    """Four Gaussian blobs of different spreads and 10 % uniform noise in d dimensions."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-12, 12, size=(4, d))
    spread = np.array([0.6, 1.0, 1.4, 2.0])
    k = rng.integers(0, 4, size=n - n // 10)
    X = centres[k] + rng.normal(size=(len(k), d)) * spread[k, None]
    return np.concatenate([X, rng.uniform(-16, 16, size=(n // 10, d))])


CASES = [(d, seed) for d in (1, 3, 5, 8, 16) for seed in (0, 1, 2)]


def moved_rows(base, other):
    """Rows whose label in `other` differs from `base` once each cluster of `other` is renamed
    to the `base` label it overlaps most (scripts/reference's rule; -1 maps only to -1)."""
    rename = {-1: -1}
    for label in set(other.tolist()) - {-1}:
        values, counts = np.unique(base[other == label], return_counts=True)
        rename[label] = int(values[np.argmax(counts)])
    return set(np.flatnonzero(np.array([rename[v] for v in other.tolist()]) != base).tolist())


def scikit_learn_over_shuffles(X, params, shuffles=12):
    """scikit-learn's labels and probabilities, the rows whose label changes when its rows are
    shuffled (mutual-reachability distances tie wherever edges weigh a point's core distance,
    and scikit-learn settles such ties by row order), and its lowest ARI against itself."""
    from sklearn.metrics import adjusted_rand_score
    fit = cluster.HDBSCAN(copy=True, **params).fit(X)
    labels = fit.labels_
    rng = np.random.default_rng(len(X))
    unstable, lowest = set(), 1.0
    for k in range(shuffles):
        order = np.arange(len(X))[::-1] if k == 0 else rng.permutation(len(X))
        shuffled = np.empty_like(labels)
        shuffled[order] = cluster.HDBSCAN(copy=True, **params).fit(X[order]).labels_
        unstable |= moved_rows(labels, shuffled) | moved_rows(shuffled, labels)
        lowest = min(lowest, adjusted_rand_score(labels, shuffled))
    return labels, fit.probabilities_, np.array(sorted(unstable), dtype=np.intp), lowest


def assert_scikit_learns_partition(ours, X, params):
    """scikit-learn's partition where its labels survive shuffling the rows; elsewhere the
    same on the rows it labels stably, and as close overall as it is to itself (the rule of
    test_reference.py, shuffles computed here). A row where ours differs must be one that
    scikit-learn itself moves when its rows are shuffled: more shuffles (up to 200) are tried
    until each such row has been seen to move, since a tie that few orders decide otherwise
    is missed by twelve."""
    from sklearn.metrics import adjusted_rand_score
    labels, probabilities, unstable, lowest = scikit_learn_over_shuffles(X, params)
    assert labels.max() >= 1 and len(unstable) <= len(X) // 20
    differing = moved_rows(labels, ours.labels_) | moved_rows(ours.labels_, labels)
    unstable = set(unstable.tolist())
    rng = np.random.default_rng(len(X) + 1)
    for _ in range(200):
        if differing <= unstable:
            break
        order = rng.permutation(len(X))
        shuffled = np.empty_like(labels)
        shuffled[order] = cluster.HDBSCAN(copy=True, **params).fit(X[order]).labels_
        unstable |= moved_rows(labels, shuffled) | moved_rows(shuffled, labels)
        lowest = min(lowest, adjusted_rand_score(labels, shuffled))
    assert differing <= unstable, f"rows {sorted(differing - unstable)} differ from scikit-learn's, which no tie moves"
    if not unstable:
        np.testing.assert_allclose(ours.probabilities_, probabilities, rtol=1e-9, atol=1e-12)
    else:
        stable = np.setdiff1d(np.arange(len(X)), np.array(sorted(unstable), dtype=np.intp))
        assert same_partition(ours.labels_[stable], labels[stable])
        assert adjusted_rand_score(ours.labels_, labels) >= lowest - 1e-12


PARAMS = [dict(min_cluster_size=15), dict(min_cluster_size=10, min_samples=4),
          dict(min_cluster_size=20, cluster_selection_method="leaf")]
PARAM_IDS = ["default", "min_samples", "leaf"]


@pytest.mark.parametrize("d,seed", [(d, seed) for d, seed in CASES if d > 1])
@pytest.mark.parametrize("params", PARAMS, ids=PARAM_IDS)
def test_hdbscan_one_at_a_time_is_scikit_learns(d, seed, params):
    """scikit-learn's dendrogram (ties="one-at-a-time"): its partition, ties aside. (On a line,
    d = 1, so many edges tie that scikit-learn's own labels move for up to 14 % of the rows
    when its rows are shuffled: the test below covers it.)"""
    X = blobs(d, seed)
    ours = geocluster_hdbscan.HDBSCAN(ties="one-at-a-time", **params).fit(X)
    assert ours.n_features_in_ == d
    assert_scikit_learns_partition(ours, X, params)


@pytest.mark.parametrize("d,seed", CASES)
@pytest.mark.parametrize("params", PARAMS, ids=PARAM_IDS)
def test_hdbscan_all_at_once_is_scikit_learns_with_tied_merges_noise(d, seed, params):
    """The default rule (HDBSCAN*'s: tied merges at once) finds scikit-learn's clusters and
    labels its points alike, but leaves noise some that a tie lets scikit-learn attach (a point
    whose edges to two groups both weigh its core distance): docs/python.md, "Ties"."""
    X = blobs(d, seed)
    ours = geocluster_hdbscan.HDBSCAN(**params).fit(X).labels_
    theirs = cluster.HDBSCAN(copy=True, **params).fit(X).labels_
    assert ours.max() == theirs.max() >= 1
    assert np.all(ours[theirs == -1] == -1)
    both = (ours != -1) & (theirs != -1)
    assert same_partition(ours[both], theirs[both])
    assert (ours == -1).sum() - (theirs == -1).sum() <= len(X) // 50


@pytest.mark.parametrize("d,seed", CASES)
@pytest.mark.parametrize("eps,min_samples", [(1.0, 5), (2.5, 10)])
def test_dbscan_is_scikit_learns(d, seed, eps, min_samples):
    X = blobs(d, seed)
    ours = geocluster_hdbscan.DBSCAN(eps=eps * np.sqrt(d), min_samples=min_samples).fit(X)
    theirs = cluster.DBSCAN(eps=eps * np.sqrt(d), min_samples=min_samples).fit(X)
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_array_equal(ours.core_sample_indices_, theirs.core_sample_indices_)
    np.testing.assert_array_equal(ours.components_, theirs.components_)
    assert ours.n_features_in_ == d


@pytest.mark.parametrize("d", [3, 5, 8])
def test_spanning_tree_weights_are_the_hdbscan_librarys(d):
    hdbscan = pytest.importorskip("hdbscan")
    X = blobs(d, 7, n=400)
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=10, min_samples=6, gen_min_span_tree=True).fit(X)
    # The hdbscan library's min_samples leaves the point itself out; its default Borůvka tree
    # is approximate.
    theirs = hdbscan.HDBSCAN(min_cluster_size=10, min_samples=5, gen_min_span_tree=True,
                             approx_min_span_tree=False).fit(X)
    np.testing.assert_allclose(np.sort(ours.minimum_spanning_tree_["distance"]),
                               np.sort(theirs.minimum_spanning_tree_.to_numpy()[:, 2]), rtol=1e-12)


@pytest.mark.parametrize("make", [
    np.asfortranarray, lambda X: X.astype(np.float32).astype(np.float64), lambda X: X.tolist(),
    lambda X: np.repeat(X, 2, axis=0)[::2], lambda X: X[:, ::-1][:, ::-1], lambda X: read_only(X),
    lambda X: np.column_stack([X, X])[:, :X.shape[1]],
], ids=["fortran", "float32-values", "list", "row-strided-view", "negative-column-stride", "read-only",
        "column-subset-view"])
def test_every_layout_gives_the_same_result(make):
    X = blobs(5, 3)
    reference_h = geocluster_hdbscan.HDBSCAN(min_cluster_size=12).fit(np.ascontiguousarray(X))
    reference_d = geocluster_hdbscan.DBSCAN(eps=3.0, min_samples=6).fit(np.ascontiguousarray(X))
    given = make(X)
    expected = np.asarray(given, dtype=np.float64)
    if not np.array_equal(expected, X):  # float32 values: compare against the same values
        reference_h = geocluster_hdbscan.HDBSCAN(min_cluster_size=12).fit(expected)
        reference_d = geocluster_hdbscan.DBSCAN(eps=3.0, min_samples=6).fit(expected)
    h = geocluster_hdbscan.HDBSCAN(min_cluster_size=12).fit(given)
    np.testing.assert_array_equal(h.labels_, reference_h.labels_)
    np.testing.assert_array_equal(h.probabilities_, reference_h.probabilities_)
    d = geocluster_hdbscan.DBSCAN(eps=3.0, min_samples=6).fit(given)
    np.testing.assert_array_equal(d.labels_, reference_d.labels_)


def read_only(X):
    X = np.array(X)
    X.flags.writeable = False
    return X


def test_float32_input_is_scikit_learns():
    X = blobs(3, 4).astype(np.float32)
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=15).fit(X)
    np.testing.assert_array_equal(ours.labels_, geocluster_hdbscan.HDBSCAN(min_cluster_size=15).fit(
        X.astype(np.float64)).labels_)
    assert_scikit_learns_partition(ours, X, dict(min_cluster_size=15))
    np.testing.assert_array_equal(geocluster_hdbscan.DBSCAN(eps=2.0).fit(X).labels_,
                                  cluster.DBSCAN(eps=2.0).fit(X).labels_)


@pytest.mark.parametrize("d", [3, 5])
def test_hdbscan_weights_equal_repeated_rows(d):
    X = blobs(d, 5, n=300)
    rng = np.random.default_rng(d)
    w = rng.integers(0, 5, size=len(X)).astype(float)
    params = dict(min_cluster_size=15, min_samples=6)
    weighted = geocluster_hdbscan.HDBSCAN(**params).fit(X, sample_weight=w)
    repeated = geocluster_hdbscan.HDBSCAN(**params).fit(np.repeat(X, w.astype(int), axis=0))
    inverse = np.repeat(np.arange(len(X)), w.astype(int))
    np.testing.assert_array_equal(weighted.labels_[inverse], repeated.labels_)
    np.testing.assert_array_equal(weighted.probabilities_[inverse], repeated.probabilities_)
    np.testing.assert_array_equal(weighted.labels_[w == 0], -1)


@pytest.mark.parametrize("d", [3, 5])
def test_dbscan_weights_are_scikit_learns(d):
    X = blobs(d, 6, n=300)
    w = np.random.default_rng(d).uniform(-0.5, 3, size=len(X))
    ours = geocluster_hdbscan.DBSCAN(eps=2.0 * np.sqrt(d), min_samples=8).fit(X, sample_weight=w)
    theirs = cluster.DBSCAN(eps=2.0 * np.sqrt(d), min_samples=8).fit(X, sample_weight=w)
    np.testing.assert_array_equal(ours.labels_, theirs.labels_)
    np.testing.assert_array_equal(ours.core_sample_indices_, theirs.core_sample_indices_)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_nan_and_inf_rows_as_scikit_learn():
    """Rows with NaN (-3) or inf (-2) take no part, as in scikit-learn; the rest are clustered
    as they are alone."""
    X = blobs(3, 8, n=300)
    bad = [4, 50, 77]
    X[[4, 50]] = np.nan
    X[77, 2] = np.inf
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=15).fit(X)
    theirs = cluster.HDBSCAN(min_cluster_size=15, copy=True).fit(X)
    np.testing.assert_array_equal(ours.labels_[bad], theirs.labels_[bad])
    np.testing.assert_array_equal(ours.labels_[bad], [-3, -3, -2])
    finite = np.setdiff1d(np.arange(len(X)), bad)
    alone = geocluster_hdbscan.HDBSCAN(min_cluster_size=15).fit(X[finite])
    np.testing.assert_array_equal(ours.labels_[finite], alone.labels_)


def test_centres_are_scikit_learns_definition():
    X = blobs(5, 12, n=300)
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=15, store_centers="both").fit(X)
    assert ours.centroids_.shape == ours.medoids_.shape == (ours.labels_.max() + 1, 5)
    for k in range(ours.labels_.max() + 1):
        members, weights = X[ours.labels_ == k], ours.probabilities_[ours.labels_ == k]
        np.testing.assert_allclose(ours.centroids_[k], np.average(members, axis=0, weights=weights), rtol=1e-12)
        distances = np.sqrt(((members[:, None, :] - members[None, :, :]) ** 2).sum(axis=2))
        np.testing.assert_array_equal(ours.medoids_[k], members[np.argmin((distances * weights).sum(axis=1))])


def test_pickling_a_fit_in_d_dimensions():
    X = blobs(4, 9)
    fitted = geocluster_hdbscan.HDBSCAN(min_cluster_size=12, gen_min_span_tree=True).fit(X)
    again = pickle.loads(pickle.dumps(fitted))
    np.testing.assert_array_equal(again.labels_, fitted.labels_)
    np.testing.assert_array_equal(again.condensed_tree_, fitted.condensed_tree_)
    np.testing.assert_array_equal(again.minimum_spanning_tree_, fitted.minimum_spanning_tree_)


def test_the_hdbscan_interface_in_d_dimensions():
    hdbscan = pytest.importorskip("hdbscan")
    import geocluster_hdbscan.hdbscan as compat
    X = blobs(3, 10, n=400)
    ours = compat.HDBSCAN(min_cluster_size=12, gen_min_span_tree=True).fit(X)
    theirs = hdbscan.HDBSCAN(min_cluster_size=12, gen_min_span_tree=True, approx_min_span_tree=False).fit(X)
    np.testing.assert_allclose(ours.minimum_spanning_tree_.to_numpy()[:, 2],
                               np.sort(theirs.minimum_spanning_tree_.to_numpy()[:, 2]), rtol=1e-12)
    # Tied merges: the hdbscan library's labels may differ on a few rows (see test_reference.py).
    from sklearn.metrics import adjusted_rand_score
    assert adjusted_rand_score(ours.labels_, theirs.labels_) > 0.95
    assert len(ours.exemplars_) == ours.labels_.max() + 1 and ours.exemplars_[0].shape[1] == 3
    graph = ours.minimum_spanning_tree_.to_networkx()
    assert set(graph.nodes[0]) == {"feature 0", "feature 1", "feature 2"}


def test_what_stays_two_dimensional_is_refused_clearly():
    X = blobs(3, 11)
    with pytest.raises(ValueError, match="with metric='haversine' HDBSCAN needs 2"):
        geocluster_hdbscan.HDBSCAN(metric="haversine").fit(X / 100)
    with pytest.raises(ValueError, match="prediction_data=True with X of 3 features is not supported"):
        geocluster_hdbscan.HDBSCAN(prediction_data=True).fit(X)
    planar = geocluster_hdbscan.HDBSCAN(prediction_data=True).fit(X[:, :2])
    with pytest.raises(ValueError, match=r"must have shape \(n, 2\), got \(5, 3\).*prediction is for 2-D points"):
        geocluster_hdbscan.approximate_predict(planar, X[:5])
    with pytest.raises(ValueError, match="X has 65 features, but DBSCAN clusters points of 1 to 64 features"):
        geocluster_hdbscan.DBSCAN().fit(np.zeros((10, 65)))


@pytest.mark.parametrize("d", [1, 3])
def test_the_spanning_tree_is_drawn_in_2_d(d):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import geocluster_hdbscan.hdbscan as compat
    X = blobs(d, 13, n=200)
    fitted = compat.HDBSCAN(min_cluster_size=10, gen_min_span_tree=True).fit(X)
    figure, axis = plt.subplots()
    fitted.minimum_spanning_tree_.plot(axis=axis)
    drawn = axis.collections[-1].get_offsets()
    assert drawn.shape == (len(X), 2)
    if d == 1:
        np.testing.assert_array_equal(drawn[:, 0], X[:, 0])
    else:  # the first two principal components keep most of the spread
        assert drawn.var(axis=0).sum() >= 0.8 * X.var(axis=0).sum()
    plt.close(figure)

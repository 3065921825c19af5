"""What X may be: layouts and dtypes (no copy for float64 C or Fortran order, others converted
once), and the bad inputs, each behaving as scikit-learn's estimators do (compared live)."""

import numpy as np
import pytest

import geocluster_hdbscan
from conftest import load_fixtures, same_partition
from geocluster_hdbscan import _native

sklearn_cluster = pytest.importorskip("sklearn.cluster")


def blobs(n=300, seed=0):
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.normal(0, 1, (n // 3, 2)), rng.normal(8, 1.5, (n // 3, 2)),
                           rng.uniform(-4, 12, (n - 2 * (n // 3), 2))])


def test_float64_c_and_fortran_order_are_not_copied():
    X = blobs()
    for array in (X, np.asfortranarray(X)):
        kept, given = _native.points(array)
        assert kept is array
        address = np.ctypeslib.as_array(given.data, shape=(1,)).__array_interface__["data"][0]
        assert address == array.ctypes.data
        assert (given.row_stride, given.column_stride) == (array.strides[0] // 8, array.strides[1] // 8)
        assert (given.n, given.dimensions) == X.shape


@pytest.mark.parametrize("make", [
    np.asfortranarray, lambda X: X.astype(np.float32), lambda X: np.round(X * 100).astype(np.int64) / 100,
    lambda X: X.tolist(), lambda X: np.repeat(X, 2, axis=0)[::2], lambda X: np.column_stack([X[:, 1], X[:, 0]])[:, ::-1],
], ids=["fortran", "float32", "int-derived", "list", "row-strided-view", "negative-column-stride"])
def test_layouts_and_dtypes_give_scikit_learns_result_for_the_same_values(make):
    X = make(blobs())
    reference = np.asarray(X, dtype=np.float64)
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=10).fit(X)
    same = geocluster_hdbscan.HDBSCAN(min_cluster_size=10).fit(np.ascontiguousarray(reference))
    np.testing.assert_array_equal(ours.labels_, same.labels_)
    np.testing.assert_array_equal(ours.probabilities_, same.probabilities_)
    d = geocluster_hdbscan.DBSCAN(eps=0.7, min_samples=4).fit(X)
    s = sklearn_cluster.DBSCAN(eps=0.7, min_samples=4).fit(reference)
    np.testing.assert_array_equal(d.labels_, s.labels_)
    np.testing.assert_array_equal(d.core_sample_indices_, s.core_sample_indices_)


def test_integer_input_is_converted():
    X = np.array([[0, 0], [0, 1], [1, 0], [9, 9], [9, 10], [10, 9], [50, 50]], dtype=np.int32)
    d = geocluster_hdbscan.DBSCAN(eps=1.5, min_samples=3).fit(X)
    np.testing.assert_array_equal(d.labels_, sklearn_cluster.DBSCAN(eps=1.5, min_samples=3).fit(X).labels_)
    assert d.components_.dtype == np.float64


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # scikit-learn's inf + -inf
def test_hdbscan_nan_and_inf_rows_as_scikit_learn():
    """scikit-learn leaves rows with inf (label -2, probability 0) or NaN (label -3,
    probability NaN) out of the fit; so does geocluster, with its trees still naming input
    rows. The finite rows are a reference fixture's (scikit-learn's labels are stable there)."""
    case = dict(load_fixtures("hdbscan"))["duplicates"]
    finite_points = np.array(case["points"], dtype=np.float64)
    bad = {3: [np.nan, np.nan], 7: [np.inf, 0.0], 11: [np.inf, -np.inf], 20: [1.0, -np.inf]}
    n = len(finite_points) + len(bad)
    rows = np.setdiff1d(np.arange(n), list(bad))
    X = np.empty((n, 2))
    X[rows] = finite_points
    for row, value in bad.items():
        X[row] = value
    p = case["params"]
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=p["min_cluster_size"], min_samples=p["min_samples"],
                              gen_min_span_tree=True).fit(X)
    theirs = sklearn_cluster.HDBSCAN(min_cluster_size=p["min_cluster_size"], min_samples=p["min_samples"],
                                     copy=True).fit(X)
    np.testing.assert_array_equal(ours.labels_[list(bad)], theirs.labels_[list(bad)])
    np.testing.assert_array_equal(ours.labels_[list(bad)], [-3, -2, -3, -2])
    np.testing.assert_array_equal(ours.probabilities_[list(bad)], theirs.probabilities_[list(bad)])
    assert same_partition(ours.labels_[rows], case["sklearn"]["labels"])
    np.testing.assert_allclose(ours.probabilities_[rows], case["sklearn"]["probabilities"], rtol=0, atol=1e-9)
    assert np.isnan(ours.outlier_scores_[list(bad)]).all()
    clean = geocluster_hdbscan.HDBSCAN(min_cluster_size=p["min_cluster_size"], min_samples=p["min_samples"],
                               gen_min_span_tree=True).fit(finite_points)
    mst = ours.minimum_spanning_tree_
    np.testing.assert_array_equal(mst["from"], rows[clean.minimum_spanning_tree_["from"]])
    np.testing.assert_array_equal(mst["to"], rows[clean.minimum_spanning_tree_["to"]])
    tree = ours.condensed_tree_
    assert tree["parent"].min() == n and set(tree["child"][tree["child"] < n].tolist()) == set(rows.tolist())


def test_dbscan_nan_and_inf_refused_as_scikit_learn():
    X = blobs()
    for bad in (np.nan, np.inf):
        X2 = X.copy()
        X2[5, 1] = bad
        with pytest.raises(ValueError) as theirs:
            sklearn_cluster.DBSCAN().fit(X2)
        with pytest.raises(ValueError) as ours:
            geocluster_hdbscan.DBSCAN().fit(X2)
        assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("X", [np.zeros((0, 2)), np.zeros(6), np.zeros((2, 3, 1))], ids=["0-samples", "1-D", "3-D"])
def test_bad_shapes_raise_as_scikit_learn(X):
    for ours, theirs in ((geocluster_hdbscan.HDBSCAN(), sklearn_cluster.HDBSCAN(copy=True)),
                         (geocluster_hdbscan.DBSCAN(), sklearn_cluster.DBSCAN())):
        with pytest.raises(ValueError) as expected:
            theirs.fit(X)
        with pytest.raises(ValueError) as got:
            ours.fit(X)
        assert str(got.value).replace("geocluster_hdbscan.", "") == str(expected.value)


def test_strings_refused():
    for model in (geocluster_hdbscan.HDBSCAN(), geocluster_hdbscan.DBSCAN()):
        with pytest.raises(ValueError):
            model.fit([["a", "b"], ["c", "d"]])


def test_one_sample():
    X = np.array([[1.0, 2.0]])
    with pytest.raises(ValueError, match="n_samples=1 while HDBSCAN requires more than one sample"):
        sklearn_cluster.HDBSCAN(copy=True).fit(X)
    with pytest.raises(ValueError, match="n_samples=1 while HDBSCAN requires more than one sample"):
        geocluster_hdbscan.HDBSCAN().fit(X)
    for min_samples in (1, 2):
        ours = geocluster_hdbscan.DBSCAN(min_samples=min_samples).fit(X)
        theirs = sklearn_cluster.DBSCAN(min_samples=min_samples).fit(X)
        np.testing.assert_array_equal(ours.labels_, theirs.labels_)
        np.testing.assert_array_equal(ours.core_sample_indices_, theirs.core_sample_indices_)


def test_min_samples_above_n_as_scikit_learn():
    X = blobs(9)
    with pytest.raises(ValueError) as theirs:
        sklearn_cluster.HDBSCAN(min_cluster_size=10, copy=True).fit(X)
    with pytest.raises(ValueError) as ours:
        geocluster_hdbscan.HDBSCAN(min_cluster_size=10).fit(X)
    assert str(ours.value) == str(theirs.value) == "min_samples (10) must be at most the number of samples in X (9)"


def test_fewer_points_than_min_cluster_size_as_scikit_learn():
    X = blobs(12)
    for single in (False, True):
        ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=20, min_samples=3, allow_single_cluster=single).fit(X)
        theirs = sklearn_cluster.HDBSCAN(min_cluster_size=20, min_samples=3, allow_single_cluster=single,
                                         copy=True).fit(X)
        np.testing.assert_array_equal(ours.labels_, theirs.labels_)


def test_more_than_64_features_is_a_clear_error():
    X = np.random.default_rng(0).normal(size=(40, 65))
    for model in (geocluster_hdbscan.HDBSCAN(), geocluster_hdbscan.DBSCAN()):
        with pytest.raises(ValueError, match=r"X has 65 features, but .* clusters points of 1 to 64 features"):
            model.fit(X)


def test_haversine_needs_two_features():
    X = np.random.default_rng(0).uniform(-1, 1, size=(40, 3))
    for model in (geocluster_hdbscan.HDBSCAN(metric="haversine"), geocluster_hdbscan.DBSCAN(eps=0.1, metric="haversine")):
        with pytest.raises(ValueError, match=r"X has 3 features, but with metric='haversine' .* needs 2"):
            model.fit(X)


def test_prediction_data_needs_two_features():
    X = np.random.default_rng(0).normal(size=(40, 3))
    with pytest.raises(ValueError, match="prediction_data=True with X of 3 features is not supported: prediction .* "
                                         "is for 2-D points"):
        geocluster_hdbscan.HDBSCAN(prediction_data=True).fit(X)


def test_sparse_input_refused_with_scikit_learns_message():
    sparse = pytest.importorskip("scipy.sparse")
    X = sparse.csr_matrix(blobs())
    for model in (geocluster_hdbscan.HDBSCAN(), geocluster_hdbscan.DBSCAN()):
        with pytest.raises(TypeError, match=r"Sparse data was passed for X, but dense data is required. Use "
                                            r"'\.toarray\(\)'"):
            model.fit(X)


def test_unknown_metric_is_a_clear_error():
    X = np.radians(blobs())
    for model in (geocluster_hdbscan.HDBSCAN(metric="manhattan"), geocluster_hdbscan.DBSCAN(metric="cosine")):
        with pytest.raises(ValueError, match="metric must be 'euclidean' or 'haversine'"):
            model.fit(X)

"""Parameters: scikit-learn's names and defaults, get_params / set_params / clone, and errors
that name the parameter."""

import inspect
import warnings

import numpy as np
import pytest

import geocluster_hdbscan

sklearn_cluster = pytest.importorskip("sklearn.cluster")
from sklearn.base import clone  # noqa: E402

from conftest import same_partition  # noqa: E402


def test_hdbscan_names_and_defaults_are_scikit_learns():
    ours = inspect.signature(geocluster_hdbscan.HDBSCAN).parameters
    theirs = inspect.signature(sklearn_cluster.HDBSCAN).parameters
    for name, parameter in ours.items():
        if name in ("n_jobs", "gen_min_span_tree", "ties", "prediction_data"):
            continue
        assert name in theirs and theirs[name].default == parameter.default, name


def test_prediction_data_is_the_hdbscan_librarys():
    hdbscan = pytest.importorskip("hdbscan")
    default = inspect.signature(hdbscan.HDBSCAN).parameters["prediction_data"].default
    assert inspect.signature(geocluster_hdbscan.HDBSCAN).parameters["prediction_data"].default == default is False


def test_gen_min_span_tree_is_the_hdbscan_librarys():
    """The one parameter scikit-learn lacks: the hdbscan library's, with its default."""
    hdbscan = pytest.importorskip("hdbscan")
    default = inspect.signature(hdbscan.HDBSCAN).parameters["gen_min_span_tree"].default
    assert inspect.signature(geocluster_hdbscan.HDBSCAN).parameters["gen_min_span_tree"].default == default is False
    X = np.random.default_rng(4).normal(size=(100, 2))
    model = geocluster_hdbscan.HDBSCAN().fit(X)
    with pytest.raises(AttributeError, match="gen_min_span_tree=True"):
        model.minimum_spanning_tree_
    assert len(model.set_params(gen_min_span_tree=True).fit(X).minimum_spanning_tree_) == len(X) - 1
    assert not hasattr(model.set_params(gen_min_span_tree=False).fit(X), "minimum_spanning_tree_")
    with pytest.raises(AttributeError, match="has no attribute 'nothing_'"):
        model.nothing_


def test_dbscan_names_and_defaults_are_scikit_learns():
    ours = inspect.signature(geocluster_hdbscan.DBSCAN).parameters
    theirs = inspect.signature(sklearn_cluster.DBSCAN).parameters
    for name, parameter in ours.items():
        assert name in theirs and theirs[name].default == parameter.default, name


def test_get_set_params_and_clone():
    model = geocluster_hdbscan.HDBSCAN(min_cluster_size=12, cluster_selection_method="leaf")
    assert model.get_params()["min_cluster_size"] == 12
    model.set_params(min_samples=3, allow_single_cluster=True)
    copy = clone(model)
    assert copy is not model and copy.get_params() == model.get_params()
    assert copy.min_samples == 3 and copy.allow_single_cluster is True
    with pytest.raises(ValueError):
        model.set_params(gamma=2.0)
    d = clone(geocluster_hdbscan.DBSCAN(eps=3.0, min_samples=2))
    assert d.get_params() == {"eps": 3.0, "min_samples": 2, "metric": "euclidean", "n_jobs": None, "metric_params": None,
                              "algorithm": "auto", "leaf_size": 30, "p": None}


def test_fit_predict_equals_fit_labels():
    X = np.random.default_rng(1).normal(size=(200, 2))
    for model in (geocluster_hdbscan.HDBSCAN(), geocluster_hdbscan.DBSCAN(eps=0.3)):
        np.testing.assert_array_equal(clone(model).fit_predict(X), clone(model).fit(X).labels_)


X_SMALL = np.random.default_rng(2).normal(size=(50, 2))


@pytest.mark.parametrize("params,error,message", [
    (dict(min_cluster_size=1), ValueError, "min_cluster_size must be at least 2, got 1"),
    (dict(min_cluster_size=2.5), TypeError, "min_cluster_size must be an int, got 2.5"),
    (dict(min_samples=0), ValueError, "min_samples must be at least 1, got 0"),
    (dict(cluster_selection_epsilon=-1.0), ValueError, "cluster_selection_epsilon must be a finite number at least 0"),
    (dict(cluster_selection_epsilon=float("nan")), ValueError, "cluster_selection_epsilon must be a finite number"),
    (dict(max_cluster_size=0), ValueError, "max_cluster_size must be at least 1, got 0"),
    (dict(cluster_selection_method="excess"), ValueError, "cluster_selection_method must be one of 'eom', 'leaf'"),
    (dict(allow_single_cluster="yes"), TypeError, "allow_single_cluster must be a bool"),
    (dict(gen_min_span_tree=1), TypeError, "gen_min_span_tree must be a bool"),
    (dict(metric="manhattan"), ValueError, "metric must be 'euclidean' or 'haversine', got 'manhattan'"),
    (dict(n_jobs=0), ValueError, "n_jobs must not be 0"),
    (dict(n_jobs=1.5), TypeError, "n_jobs must be an int or None"),
    (dict(alpha=2.0), ValueError, "alpha=2.0 is not supported"),
    (dict(alpha=0.0), ValueError, "alpha must be a finite number greater than 0"),
    (dict(metric_params={"p": 3}), ValueError, "metric_params=.* is not supported"),
    (dict(algorithm="prims_kdtree"), ValueError, "algorithm must be one of 'auto', 'brute', 'kd_tree', 'ball_tree'"),
    (dict(leaf_size=0), ValueError, "leaf_size must be at least 1, got 0"),
    (dict(store_centers="mean"), ValueError, "store_centers must be one of 'centroid', 'medoid', 'both'"),
    (dict(copy="yes"), TypeError, "copy must be a bool"),
])
def test_hdbscan_bad_parameters_name_themselves(params, error, message):
    with pytest.raises(error, match=message):
        geocluster_hdbscan.HDBSCAN(**params).fit(X_SMALL)


@pytest.mark.parametrize("params,error,message", [
    (dict(eps=0.0), ValueError, "eps must be a finite number greater than 0"),
    (dict(eps=float("inf")), ValueError, "eps must be a finite number greater than 0"),
    (dict(min_samples=0), ValueError, "min_samples must be at least 1, got 0"),
    (dict(metric="cosine"), ValueError, "metric must be 'euclidean' or 'haversine', got 'cosine'"),
    (dict(p=1), ValueError, "p=1 is not supported"),
    (dict(metric_params={"w": 1}), ValueError, "metric_params=.* is not supported"),
    (dict(algorithm="fast"), ValueError, "algorithm must be one of"),
    (dict(leaf_size=-3), ValueError, "leaf_size must be at least 1, got -3"),
])
def test_dbscan_bad_parameters_name_themselves(params, error, message):
    with pytest.raises(error, match=message):
        geocluster_hdbscan.DBSCAN(**params).fit(X_SMALL)


def test_n_jobs_does_not_change_results():
    X = np.random.default_rng(3).normal(size=(3000, 2))
    one = geocluster_hdbscan.HDBSCAN(n_jobs=1, gen_min_span_tree=True).fit(X)
    # 2**62 is beyond the library's most workers: it runs as that many, instead of sizing
    # per-worker scratch for 2**62 workers.
    for n_jobs in (2, -1, 2**62):
        other = geocluster_hdbscan.HDBSCAN(n_jobs=n_jobs, gen_min_span_tree=True).fit(X)
        np.testing.assert_array_equal(one.labels_, other.labels_)
        np.testing.assert_array_equal(one.condensed_tree_, other.condensed_tree_)
        np.testing.assert_array_equal(one.minimum_spanning_tree_, other.minimum_spanning_tree_)


def test_native_errors_are_value_errors_with_the_library_message():
    from geocluster_hdbscan import _native
    X = np.zeros((5, 2))
    with pytest.raises(ValueError, match="minClusterSize = 1 is invalid") as error:
        _native.hdbscan_fit(X, 1, None, 0.0, None, False, False, 1)
    assert error.value.code == _native.GC_INVALID_PARAMETER
    with pytest.raises(ValueError, match="threads = 0 is invalid") as error:
        _native.dbscan_fit(X, 1.0, 2, 0)
    assert error.value.code == _native.GC_INVALID_ARGUMENT


def test_search_parameters_change_nothing():
    """algorithm, leaf_size, copy, metric_params=None, alpha=1.0, p=2: accepted, same result."""
    X = np.random.default_rng(8).normal(size=(2000, 2))
    plain = geocluster_hdbscan.HDBSCAN(min_cluster_size=8).fit(X)
    for extra in (dict(algorithm="brute", leaf_size=3, copy=True), dict(algorithm="kd_tree", metric_params={}, alpha=1.0),
                  dict(algorithm="ball_tree", leaf_size=400, copy=False)):
        other = geocluster_hdbscan.HDBSCAN(min_cluster_size=8, **extra).fit(X)
        np.testing.assert_array_equal(other.labels_, plain.labels_)
        np.testing.assert_array_equal(other.condensed_tree_, plain.condensed_tree_)
    d = geocluster_hdbscan.DBSCAN(eps=0.2).fit(X).labels_
    for extra in (dict(algorithm="brute", leaf_size=2, p=2), dict(algorithm="kd_tree", metric_params={}, p=None)):
        np.testing.assert_array_equal(geocluster_hdbscan.DBSCAN(eps=0.2, **extra).fit(X).labels_, d)


def test_store_centers_are_scikit_learns():
    rng = np.random.default_rng(9)
    X = np.concatenate([rng.normal(c, 0.3, size=(150, 2)) for c in ((0, 0), (5, 5), (0, 6))])
    ours = geocluster_hdbscan.HDBSCAN(min_cluster_size=20, store_centers="both").fit(X)
    theirs = sklearn_cluster.HDBSCAN(min_cluster_size=20, store_centers="both", copy=True).fit(X)
    assert same_partition(ours.labels_, theirs.labels_)
    order = [int(np.bincount(theirs.labels_[ours.labels_ == k][theirs.labels_[ours.labels_ == k] >= 0]).argmax())
             for k in range(ours.labels_.max() + 1)]
    np.testing.assert_allclose(ours.centroids_, theirs.centroids_[order], rtol=0, atol=1e-9)
    np.testing.assert_allclose(ours.medoids_, theirs.medoids_[order], rtol=0, atol=1e-12)
    assert not hasattr(geocluster_hdbscan.HDBSCAN(min_cluster_size=20).fit(X), "centroids_")


def test_lazy_attributes_survive_pickling_copying_and_refitting():
    """outlier_scores_, cluster_persistence_, condensed_tree_ and minimum_spanning_tree_ come
    from the library's result on first access: a pickled or copied estimator carries them,
    and a new fit replaces them."""
    import copy
    import pickle

    X = np.random.default_rng(11).normal(size=(500, 2))
    Y = np.random.default_rng(12).normal(size=(300, 2))
    names = ("outlier_scores_", "cluster_persistence_", "condensed_tree_", "minimum_spanning_tree_")
    reference = geocluster_hdbscan.HDBSCAN(min_cluster_size=8, gen_min_span_tree=True).fit(X)
    expected = {name: getattr(reference, name).copy() for name in names}
    for make in (lambda m: pickle.loads(pickle.dumps(m)), copy.deepcopy, copy.copy):
        fresh = geocluster_hdbscan.HDBSCAN(min_cluster_size=8, gen_min_span_tree=True).fit(X)
        other = make(fresh)  # before any access
        for name in names:
            np.testing.assert_array_equal(getattr(other, name), expected[name])
        assert "_native" not in vars(other)
    model = geocluster_hdbscan.HDBSCAN(min_cluster_size=8, gen_min_span_tree=True).fit(X)
    assert len(model.condensed_tree_) > 0
    model.fit(Y)
    assert len(model.minimum_spanning_tree_) == len(Y) - 1 and len(model.outlier_scores_) == len(Y)
    assert np.isin(model.condensed_tree_["child"], np.arange(len(Y))).sum() == len(Y)
    unfitted = geocluster_hdbscan.HDBSCAN()
    for name in names:
        assert not hasattr(unfitted, name)


@pytest.mark.parametrize("estimator", [geocluster_hdbscan.HDBSCAN(), geocluster_hdbscan.DBSCAN()])
def test_notebook_display_warns_of_nothing(estimator):
    """Jupyter shows an estimator through scikit-learn's HTML, which parses the docstring."""
    pytest.importorskip("sklearn")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        html = estimator._repr_html_()
    assert type(estimator).__name__ in html

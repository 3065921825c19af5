"""Parameters: scikit-learn's names and defaults, get_params / set_params / clone, and errors
that name the parameter."""

import inspect

import numpy as np
import pytest

import geocluster

sklearn_cluster = pytest.importorskip("sklearn.cluster")
from sklearn.base import clone  # noqa: E402


def test_hdbscan_names_and_defaults_are_scikit_learns():
    ours = inspect.signature(geocluster.HDBSCAN).parameters
    theirs = inspect.signature(sklearn_cluster.HDBSCAN).parameters
    for name, parameter in ours.items():
        if name in ("n_jobs", "gen_min_span_tree"):
            continue
        assert name in theirs and theirs[name].default == parameter.default, name


def test_gen_min_span_tree_is_the_hdbscan_librarys():
    """The one parameter scikit-learn lacks: the hdbscan library's, with its default."""
    hdbscan = pytest.importorskip("hdbscan")
    default = inspect.signature(hdbscan.HDBSCAN).parameters["gen_min_span_tree"].default
    assert inspect.signature(geocluster.HDBSCAN).parameters["gen_min_span_tree"].default == default is False
    X = np.random.default_rng(4).normal(size=(100, 2))
    model = geocluster.HDBSCAN().fit(X)
    with pytest.raises(AttributeError, match="gen_min_span_tree=True"):
        model.minimum_spanning_tree_
    assert len(model.set_params(gen_min_span_tree=True).fit(X).minimum_spanning_tree_) == len(X) - 1
    assert not hasattr(model.set_params(gen_min_span_tree=False).fit(X), "minimum_spanning_tree_")
    with pytest.raises(AttributeError, match="has no attribute 'nothing_'"):
        model.nothing_


def test_dbscan_names_and_defaults_are_scikit_learns():
    ours = inspect.signature(geocluster.DBSCAN).parameters
    theirs = inspect.signature(sklearn_cluster.DBSCAN).parameters
    for name, parameter in ours.items():
        assert name in theirs and theirs[name].default == parameter.default, name


def test_get_set_params_and_clone():
    model = geocluster.HDBSCAN(min_cluster_size=12, cluster_selection_method="leaf")
    assert model.get_params()["min_cluster_size"] == 12
    model.set_params(min_samples=3, allow_single_cluster=True)
    copy = clone(model)
    assert copy is not model and copy.get_params() == model.get_params()
    assert copy.min_samples == 3 and copy.allow_single_cluster is True
    with pytest.raises(ValueError):
        model.set_params(alpha=2.0)
    d = clone(geocluster.DBSCAN(eps=3.0, min_samples=2))
    assert d.get_params() == {"eps": 3.0, "min_samples": 2, "metric": "euclidean", "n_jobs": None}


def test_fit_predict_equals_fit_labels():
    X = np.random.default_rng(1).normal(size=(200, 2))
    for model in (geocluster.HDBSCAN(), geocluster.DBSCAN(eps=0.3)):
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
    (dict(metric="manhattan"), ValueError, "metric must be 'euclidean', got 'manhattan'"),
    (dict(n_jobs=0), ValueError, "n_jobs must not be 0"),
    (dict(n_jobs=1.5), TypeError, "n_jobs must be an int or None"),
])
def test_hdbscan_bad_parameters_name_themselves(params, error, message):
    with pytest.raises(error, match=message):
        geocluster.HDBSCAN(**params).fit(X_SMALL)


@pytest.mark.parametrize("params,error,message", [
    (dict(eps=0.0), ValueError, "eps must be a finite number greater than 0"),
    (dict(eps=float("inf")), ValueError, "eps must be a finite number greater than 0"),
    (dict(min_samples=0), ValueError, "min_samples must be at least 1, got 0"),
    (dict(metric="cosine"), ValueError, "metric must be 'euclidean', got 'cosine'"),
])
def test_dbscan_bad_parameters_name_themselves(params, error, message):
    with pytest.raises(error, match=message):
        geocluster.DBSCAN(**params).fit(X_SMALL)


def test_n_jobs_does_not_change_results():
    X = np.random.default_rng(3).normal(size=(3000, 2))
    one = geocluster.HDBSCAN(n_jobs=1, gen_min_span_tree=True).fit(X)
    for n_jobs in (2, -1):
        other = geocluster.HDBSCAN(n_jobs=n_jobs, gen_min_span_tree=True).fit(X)
        np.testing.assert_array_equal(one.labels_, other.labels_)
        np.testing.assert_array_equal(one.condensed_tree_, other.condensed_tree_)
        np.testing.assert_array_equal(one.minimum_spanning_tree_, other.minimum_spanning_tree_)


def test_native_errors_are_value_errors_with_the_library_message():
    from geocluster import _native
    X = np.zeros((5, 2))
    with pytest.raises(ValueError, match="minClusterSize = 1 is invalid") as error:
        _native.hdbscan_fit(X, 1, None, 0.0, None, False, False, 1)
    assert error.value.code == _native.GC_INVALID_PARAMETER
    with pytest.raises(ValueError, match="threads = 0 is invalid") as error:
        _native.dbscan_fit(X, 1.0, 2, 0)
    assert error.value.code == _native.GC_INVALID_ARGUMENT

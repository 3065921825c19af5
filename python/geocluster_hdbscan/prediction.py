"""Prediction and soft clustering with the hdbscan library's names and semantics.

    clusterer = geocluster_hdbscan.HDBSCAN(min_cluster_size=15, prediction_data=True).fit(X)
    labels, strengths = geocluster_hdbscan.approximate_predict(clusterer, new_points)

New points are not refitted: each joins the fitted point nearest to it by mutual reachability
among its 2 * min_samples nearest, and takes the cluster the condensed tree holds there
(hdbscan's approximate_predict). The rules use the estimator's min_samples (or
min_cluster_size) as hdbscan uses its own; the functions run in geocluster's Swift core.
Prediction is for 2-D points (planar x, y, or haversine latitude, longitude): a fit on X of
other than 2 features refuses prediction_data=True. See docs/python.md, "Prediction"."""

import numpy as np

from . import _native
from ._base import check_haversine_points, threads_for


def _points(clusterer, points_to_predict):
    points = np.asarray(points_to_predict, dtype=np.float64)
    if points.ndim != 2 or points.shape[1] != 2:
        # A fit keeps prediction data for 2-D points only (HDBSCAN refuses it otherwise).
        raise ValueError(f"points_to_predict must have shape (n, 2), got {points.shape}: "
                         "New points dimension does not match fit data! (prediction is for 2-D points)")
    if not np.isfinite(points).all():
        raise ValueError("points_to_predict contains NaN or infinity")
    if getattr(clusterer, "metric", None) == "haversine":
        check_haversine_points(points)
    return points


def _native_result(clusterer):
    if not hasattr(clusterer, "_prediction_native"):
        raise TypeError(f"{type(clusterer).__name__} is not a geocluster_hdbscan.HDBSCAN")
    native, rows = clusterer._prediction_native()
    return native, rows, threads_for(clusterer.n_jobs)


def _input_rows(connecting, rows):
    """Connecting rows of the fitted finite points as rows of the estimator's X."""
    _, finite_rows, _ = rows
    return connecting if finite_rows is None else finite_rows[connecting]


def approximate_predict(clusterer, points_to_predict, return_connecting_points=False):
    """Labels and membership strengths of new points against a fit with prediction_data=True
    (hdbscan.approximate_predict); with return_connecting_points, also the row of X each joins."""
    native, rows, threads = _native_result(clusterer)
    labels, probabilities, _, connecting = native.predict(_points(clusterer, points_to_predict), threads)
    if return_connecting_points:
        return labels, probabilities, _input_rows(connecting, rows)
    return labels, probabilities


def approximate_predict_scores(clusterer, points_to_predict):
    """GLOSH outlier scores of new points (hdbscan.approximate_predict_scores)."""
    native, _, threads = _native_result(clusterer)
    return native.predict(_points(clusterer, points_to_predict), threads)[2]


def membership_vector(clusterer, points_to_predict):
    """(n, n_clusters) soft cluster memberships of new points (hdbscan.membership_vector)."""
    native, _, threads = _native_result(clusterer)
    return native.membership_vectors(_points(clusterer, points_to_predict), threads)


def all_points_membership_vectors(clusterer):
    """(n_samples, n_clusters) soft memberships of the fitted rows
    (hdbscan.all_points_membership_vectors); rows with NaN or inf get zeros."""
    native, rows, threads = _native_result(clusterer)
    vectors = native.all_points_membership_vectors(threads)
    n, finite_rows, _ = rows
    if finite_rows is None:
        return vectors
    spread = np.zeros((n, vectors.shape[1]))
    spread[finite_rows] = vectors
    return spread

"""What both estimators share: scikit-learn's base classes when scikit-learn is installed
(numpy is the only hard dependency: a map back end that only clusters should not need
scikit-learn and SciPy), a small stand-in otherwise; input validation; parameter checks
whose messages name the parameter; n_jobs to threads."""

import inspect
import numbers
import os

import numpy as np

from ._native import GC_MAX_DIMENSIONS

try:
    from sklearn.base import BaseEstimator, ClusterMixin
except ImportError:  # numpy only: the same public surface, without scikit-learn's machinery
    BaseEstimator = ClusterMixin = None

try:
    from sklearn.utils.validation import validate_data
except ImportError:  # scikit-learn missing or older than 1.6
    validate_data = None

HAVE_SKLEARN = BaseEstimator is not None

if not HAVE_SKLEARN:

    class BaseEstimator:
        """get_params / set_params as scikit-learn defines them: the parameters are the
        keyword arguments of __init__, stored unchanged under their own names."""

        @classmethod
        def _get_param_names(cls):
            signature = inspect.signature(cls.__init__)
            return sorted(p.name for p in signature.parameters.values()
                          if p.name != "self" and p.kind != p.VAR_KEYWORD)

        def get_params(self, deep=True):
            return {name: getattr(self, name) for name in self._get_param_names()}

        def set_params(self, **params):
            valid = self._get_param_names()
            for name, value in params.items():
                if name not in valid:
                    raise ValueError(f"Invalid parameter {name!r} for estimator {self}. "
                                     f"Valid parameters are: {valid!r}.")
                setattr(self, name, value)
            return self

        def __repr__(self):
            args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
            return f"{type(self).__name__}({args})"

    class ClusterMixin:
        """fit_predict: fit, then the labels."""

        def fit_predict(self, X, y=None, **kwargs):
            self.fit(X, **kwargs)
            return self.labels_


#: The most features (columns) X may have: the C API's GC_MAX_DIMENSIONS.
MAX_FEATURES = GC_MAX_DIMENSIONS


def check_X(estimator, X, ensure_all_finite):
    """X as a float64 2-D array (not copied when it already is one, in C or Fortran order;
    other dtypes and lists converted once), with scikit-learn's checks and messages (its own
    validate_data when installed: sparse input is refused with its message) and
    n_features_in_ set. The number of features is checked by check_features."""
    if validate_data is not None:
        return validate_data(estimator, X, dtype=np.float64, ensure_all_finite=ensure_all_finite)
    X = _check_array(type(estimator).__name__, X, ensure_all_finite)
    estimator.n_features_in_ = X.shape[1]
    return X


def check_features(estimator, X, haversine):
    """X's number of features: 1 to MAX_FEATURES, and 2 with metric="haversine"."""
    name, d = type(estimator).__name__, X.shape[1]
    if haversine and d != 2:
        raise ValueError(f"X has {d} features, but with metric='haversine' {name} needs 2: [latitude, longitude] in "
                         "radians; give metric='euclidean' for other data")
    if d > MAX_FEATURES:
        raise ValueError(f"X has {d} features, but {name} clusters points of 1 to {MAX_FEATURES} features: reduce "
                         f"the dimension first (for example with PCA or UMAP to at most {MAX_FEATURES} components)")


def _check_array(name, X, ensure_all_finite):
    """scikit-learn's check_array for dense input, for when scikit-learn is not installed."""
    if hasattr(X, "toarray") or hasattr(X, "tocsr"):
        raise TypeError("Sparse data was passed for X, but dense data is required. Use '.toarray()' to convert to a "
                        "dense numpy array.")
    X = np.asarray(X)
    if X.dtype.kind not in "biuf":
        try:
            X = X.astype(np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{name} needs numeric X: {error}") from error
    X = X.astype(np.float64, copy=False)
    if X.ndim < 2:
        kind = "scalar" if X.ndim == 0 else "1D"
        raise ValueError(f"Expected 2D array, got {kind} array instead:\narray={X}.\nReshape your data either using "
                         "array.reshape(-1, 1) if your data has a single feature or array.reshape(1, -1) if it "
                         "contains a single sample.")
    if X.ndim > 2:
        raise ValueError(f"Found array with dim {X.ndim}, while dim <= 2 is required by {name}.")
    if X.shape[0] < 1:
        raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required by {name}.")
    if X.shape[1] < 1:
        raise ValueError(f"Found array with 0 feature(s) (shape={X.shape}) while a minimum of 1 is required by {name}.")
    if ensure_all_finite:
        if np.isnan(X).any():
            raise ValueError(f"Input X contains NaN.\n{name} does not accept missing values encoded as NaN natively.")
        if not np.isfinite(X).all():
            raise ValueError("Input X contains infinity or a value too large for dtype('float64').")
    return X


def check_sample_weight(sample_weight, n, whole=False):
    """sample_weight as a contiguous float64 array of n finite weights (a number: that weight
    for every sample), not all zero, or None. With whole (HDBSCAN, where a sample of weight w
    counts as w identical samples): whole numbers of at least 0."""
    if sample_weight is None:
        return None
    weights = np.asarray(sample_weight, dtype=np.float64)
    if weights.ndim == 0:
        weights = np.full(n, float(weights))
    if weights.ndim != 1 or weights.shape[0] != n:
        raise ValueError(f"sample_weight.shape == {weights.shape}, expected ({n},)")
    if not np.isfinite(weights).all():
        raise ValueError("sample_weight must be finite (no NaN or infinity)")
    if n and not weights.any():
        raise ValueError("Sample weights must contain at least one non-zero number.")
    if whole:
        bad = np.flatnonzero((weights < 0) | (weights != np.round(weights)))
        if bad.size:
            raise ValueError(f"sample_weight[{bad[0]}] = {weights[bad[0]]!r}: HDBSCAN counts a sample of weight w as "
                             "w identical samples, so weights must be whole numbers of at least 0")
    return np.ascontiguousarray(weights)


def check_int(name, value, minimum, allow_none=False):
    """An integer parameter (None allowed when `allow_none`), at least `minimum`."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        expected = "an int or None" if allow_none else "an int"
        raise TypeError(f"{name} must be {expected}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def check_real(name, value, minimum, inclusive):
    """A finite real parameter, >= `minimum` (or > when not `inclusive`)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not np.isfinite(value) or value < minimum or (value == minimum and not inclusive):
        relation = "at least" if inclusive else "greater than"
        raise ValueError(f"{name} must be a finite number {relation} {minimum}, got {value}")
    return value


def check_choice(name, value, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(repr(c) for c in choices)}, got {value!r}")
    return value


def check_metric(estimator, metric):
    """"euclidean" (planar points) or "haversine" (great-circle distance on [latitude,
    longitude] in radians, distances in radians, as scikit-learn's). Returns whether it is
    haversine."""
    if metric not in ("euclidean", "haversine"):
        raise ValueError(f"metric must be 'euclidean' or 'haversine', got {metric!r}")
    return metric == "haversine"


EARTH_RADIUS_M = 6371008.8


def check_haversine_points(X):
    """With metric="haversine" X is [latitude, longitude] in radians: a latitude beyond ±π/2 is
    refused, naming the row, and saying what it most likely is (degrees, or the columns in
    the other order)."""
    latitudes = X[:, 0]
    beyond = np.flatnonzero(np.abs(latitudes) > np.pi / 2)
    if beyond.size == 0:
        return
    row = int(beyond[0])
    value = float(latitudes[row])
    first, second = np.abs(latitudes).max(), np.abs(X[:, 1]).max()
    if first <= 2 * np.pi and second <= np.pi / 2:
        hint = "the columns look swapped: X must be [latitude, longitude], latitude first (X[:, ::-1])"
    elif first <= 90 and second <= 360:
        hint = "the values look like degrees: convert with np.radians(X)"
    elif second <= 90 and first <= 360:
        hint = ("the values look like degrees with longitude first: X must be [latitude, longitude] in "
                "radians, np.radians(X[:, ::-1])")
    else:
        hint = "X must be [latitude, longitude] in radians"
    raise ValueError(f"latitude (X[{row}, 0]) = {value:g} is beyond ±π/2 radians: with metric='haversine' "
                     f"{hint}")


def check_haversine_distance(name, value):
    """A distance given with metric="haversine" is an angle in radians: more than π (half the
    circumference) is refused with how to convert metres."""
    if value > np.pi:
        raise ValueError(
            f"{name}={value:g} is more than π radians: with metric='haversine' {name} is in radians, the "
            f"distance in metres divided by the Earth's radius ({name}=metres / 6371008.8, e.g. 500 m is "
            f"{500 / EARTH_RADIUS_M:.6g})")


def check_metric_params(metric_params):
    """Neither metric takes parameters: None or an empty dict."""
    if metric_params is not None and metric_params != {}:
        raise ValueError(f"metric_params={metric_params!r} is not supported: the Euclidean and haversine distances "
                         "take no parameters (give None)")


def check_search(algorithm, leaf_size, algorithms):
    """scikit-learn's neighbour-search choices: accepted, and ignored, since the result is
    exact whichever is named (geocluster has its own index)."""
    check_choice("algorithm", algorithm, algorithms)
    check_int("leaf_size", leaf_size, 1)


def threads_for(n_jobs):
    """joblib's meaning of n_jobs: None is 1, -1 every CPU, -2 all but one, ...; 0 is an error."""
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral):
        raise TypeError(f"n_jobs must be an int or None, got {n_jobs!r}")
    if n_jobs == 0:
        raise ValueError("n_jobs must not be 0: give None or a positive count, or -1 for every CPU")
    if n_jobs > 0:
        return int(n_jobs)
    return max(1, (os.cpu_count() or 1) + 1 + int(n_jobs))

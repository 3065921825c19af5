"""The C library (Sources/GeoclusterCAPI) loaded with ctypes, as its header declares it
(Sources/GeoclusterCHeader/include/geocluster.h, shipped in the wheel as geocluster.h): the
structures and the signatures below are checked against the header by tests/test_capi.py.

ctypes.CDLL functions release the GIL for the duration of each call, so fits run in parallel
with other Python threads (tests/test_threads.py checks it). The points are passed as one
pointer into the caller's float64 (n, d) array with its row and column strides, so neither C-
nor Fortran-ordered input is copied on the Python side; the library reads them once into its
own arrays.
"""

import ctypes
import os
import sys
from pathlib import Path

import numpy as np

GC_OK = 0
GC_INVALID_PARAMETER = 1
GC_NON_FINITE_COORDINATE = 2
GC_TOO_FEW_POINTS = 3
GC_INVALID_ARGUMENT = 4
GC_OUTPUT_MST = 1
GC_OUTPUT_CONDENSED_TREE = 2
GC_OUTPUT_PREDICTION = 4
GC_OUTPUT_CORE_DISTANCES = 8
GC_METRIC_EUCLIDEAN = 0
GC_METRIC_HAVERSINE = 1
GC_MAX_DIMENSIONS = 64

_LIBRARY_NAME = "libGeoclusterCAPI.dylib" if sys.platform == "darwin" else "libGeoclusterCAPI.so"
_MESSAGE_CAPACITY = 1024

_f64 = ctypes.POINTER(ctypes.c_double)
_i64 = ctypes.POINTER(ctypes.c_int64)
_i32 = ctypes.POINTER(ctypes.c_int32)
_u8 = ctypes.POINTER(ctypes.c_uint8)
_handle = ctypes.c_void_p
_i64t, _i32t, _dbl = ctypes.c_int64, ctypes.c_int32, ctypes.c_double


class Points(ctypes.Structure):
    """gc_points: n points of d coordinates (coordinate a of point i at data[i * row_stride +
    a * column_stride]) and their metric."""
    _fields_ = [("data", _f64), ("n", _i64t), ("dimensions", _i64t), ("row_stride", _i64t),
                ("column_stride", _i64t), ("metric", _i32t)]


class HDBSCANParams(ctypes.Structure):
    """gc_hdbscan_params."""
    _fields_ = [("min_cluster_size", _i64t), ("min_samples", _i64t), ("cluster_selection_epsilon", _dbl),
                ("max_cluster_size", _i64t), ("selection_method", _i32t), ("allow_single_cluster", _i32t),
                ("ties", _i32t), ("outputs", _i32t), ("threads", _i64t)]


class DBSCANParams(ctypes.Structure):
    """gc_dbscan_params."""
    _fields_ = [("eps", _dbl), ("min_samples", _i64t), ("threads", _i64t)]


class Listings(ctypes.Structure):
    """gc_listings: the columns of a pin index's listings (NULL where absent)."""
    _fields_ = [("lon", _f64), ("lat", _f64), ("n", _i64t), ("ids", _i64), ("key_bytes", _u8), ("key_offsets", _i64),
                ("categories", _u8), ("areas", _f64), ("deposits", _f64), ("rents", _f64)]


class PinsParams(ctypes.Structure):
    """gc_pins_params."""
    _fields_ = [("secret", _u8), ("secret_length", _i64t), ("min_anonymity", _i64t), ("anonymity_cap", _dbl),
                ("radius", _dbl), ("min_samples", _i64t), ("location_tolerance", _dbl), ("threads", _i64t),
                ("mask", _u8), ("mask_length", _i64t), ("remask", _i32t)]


# The header's structures by their C names.
STRUCTURES = {"gc_points": Points, "gc_hdbscan_params": HDBSCANParams, "gc_dbscan_params": DBSCANParams,
              "gc_listings": Listings, "gc_pins_params": PinsParams}

_points, _message = ctypes.POINTER(Points), ctypes.c_char_p
_out = ctypes.POINTER(_handle)

# Every function of the header: (result type, argument types).
SIGNATURES = {
    "gc_hdbscan_defaults": (HDBSCANParams, []),
    "gc_hdbscan_fit": (_i32t, [_points, _f64, ctypes.POINTER(HDBSCANParams), _out, _message, _i64t]),
    "gc_hdbscan_fit_tree": (_i32t, [_i64t, _i64, _i64, _f64, ctypes.POINTER(HDBSCANParams), _out, _message, _i64t]),
    "gc_hdbscan_fit_located_tree": (_i32t, [_i64t, _i64t, _i64, _f64, _i64, _i64, _f64, ctypes.POINTER(HDBSCANParams),
                                            _out, _message, _i64t]),
    "gc_hdbscan_free": (None, [_handle]),
    "gc_hdbscan_point_count": (_i64t, [_handle]),
    "gc_hdbscan_cluster_count": (_i64t, [_handle]),
    "gc_hdbscan_condensed_tree_row_count": (_i64t, [_handle]),
    "gc_hdbscan_mst_edge_count": (_i64t, [_handle]),
    "gc_hdbscan_copy_labels": (None, [_handle, _i32, _f64, _f64]),
    "gc_hdbscan_copy_cluster_persistence": (None, [_handle, _f64]),
    "gc_hdbscan_copy_condensed_tree": (None, [_handle, _i64, _i64, _f64, _i64]),
    "gc_hdbscan_copy_mst": (None, [_handle, _i64, _i64, _f64]),
    "gc_hdbscan_copy_core_distances": (None, [_handle, _f64]),
    "gc_hdbscan_predict": (_i32t, [_handle, _points, _i64t, _i32, _f64, _f64, _i64, _message, _i64t]),
    "gc_hdbscan_membership_vectors": (_i32t, [_handle, _points, _i64t, _f64, _message, _i64t]),
    "gc_hdbscan_all_points_membership_vectors": (_i32t, [_handle, _i64t, _f64, _message, _i64t]),
    "gc_distances": (_i32t, [_points, _points, _f64, _message, _i64t]),
    "gc_mutual_reachability_mst": (_i32t, [_points, _i64t, _i64t, _i64, _i64, _f64, _f64, _message, _i64t]),
    "gc_bottleneck_forest": (_i32t, [_i64t, _i64t, _i64, _i64, _f64, _dbl, _u8, _i64, _i64, _f64, _i64, _message,
                                     _i64t]),
    "gc_dbscan_defaults": (DBSCANParams, []),
    "gc_dbscan_fit": (_i32t, [_points, _f64, ctypes.POINTER(DBSCANParams), _i32, _u8, _message, _i64t]),
    "gc_pins_defaults": (PinsParams, []),
    "gc_pins_build": (_i32t, [ctypes.POINTER(Listings), ctypes.POINTER(PinsParams), _out, _out, _message, _i64t]),
    "gc_pins_free": (None, [_handle]),
    "gc_pins_counts": (None, [_handle, _i64, _i64]),
    "gc_pins_set_aside": (_i32t, [_handle, _out, _message, _i64t]),
    "gc_pins_request": (_i32t, [_handle, ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p),
                                ctypes.POINTER(ctypes.c_char_p), _i64t, _out, _message, _i64t]),
    "gc_pins_category_names": (None, [_out]),
    "gc_stable_labels": (_i32t, [_i64t, _i32, _i32, _i64, _i64t, _i32, _i32t, _i32, _i32, _out, _message, _i64t]),
    "gc_text_length": (_i64t, [_handle]),
    "gc_text_copy": (None, [_handle, _u8]),
    "gc_text_free": (None, [_handle]),
}


def _library_path():
    """The packaged library, or GEOCLUSTER_CAPI_LIBRARY (a development build) when set."""
    override = os.environ.get("GEOCLUSTER_CAPI_LIBRARY")
    return Path(override) if override else Path(__file__).with_name(_LIBRARY_NAME)


def _load():
    lib = ctypes.CDLL(str(_library_path()))
    for name, (restype, argtypes) in SIGNATURES.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


_lib = _load()


class NativeError(ValueError):
    """An error the library reported: its GC_* code and its message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def points(X, haversine=False):
    """(X, gc_points) for a float64 (n, d) array, without copying it when its strides are
    positive whole doubles (C and Fortran order, and most views); the caller keeps the returned
    X alive during the call. Other layouts are copied once to C order. The library checks d
    (1 to 16; 2 with haversine)."""
    if X.dtype != np.float64 or X.ndim != 2:
        raise TypeError("points needs a float64 array of shape (n, d)")
    s0, s1 = X.strides
    if X.size == 0 or s0 <= 0 or s1 <= 0 or s0 % 8 or s1 % 8:
        X = np.ascontiguousarray(X)
        s0, s1 = 8 * max(X.shape[1], 1), 8  # C order (a length-1 axis may carry any stride)
    return X, Points(ctypes.cast(ctypes.c_void_p(X.ctypes.data), _f64), X.shape[0], X.shape[1], s0 // 8, s1 // 8,
                     GC_METRIC_HAVERSINE if haversine else GC_METRIC_EUCLIDEAN)


def _pointer(array, kind):
    return array.ctypes.data_as(kind)


def _check(code, message):
    if code != GC_OK:
        raise NativeError(code, message.value.decode("utf-8", "replace"))


def hdbscan_fit(X, min_cluster_size, min_samples, cluster_selection_epsilon, max_cluster_size,
                leaf, allow_single_cluster, threads, keep_mst=True, haversine=False, one_at_a_time=False,
                prediction_data=False, sample_weight=None, core_distances=False):
    """Runs the library's HDBSCAN on a validated float64 (n, d) array (with haversine, d = 2:
    latitude, longitude in radians, distances in radians). Returns an HDBSCANResult: the
    library's result, whose arrays are copied out when asked for."""
    outputs = (GC_OUTPUT_CONDENSED_TREE | (GC_OUTPUT_MST if keep_mst else 0)
               | (GC_OUTPUT_PREDICTION if prediction_data else 0) | (GC_OUTPUT_CORE_DISTANCES if core_distances else 0))
    params = _hdbscan_params(min_cluster_size, min_samples, cluster_selection_epsilon, max_cluster_size, leaf,
                             allow_single_cluster, threads, one_at_a_time, outputs)
    X, given = points(X, haversine)
    handle = _handle()
    message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
    weights = None if sample_weight is None else _pointer(sample_weight, _f64)
    code = _lib.gc_hdbscan_fit(ctypes.byref(given), weights, ctypes.byref(params), ctypes.byref(handle), message,
                               _MESSAGE_CAPACITY)
    _check(code, message)
    return HDBSCANResult(handle, haversine)


def _hdbscan_params(min_cluster_size, min_samples, cluster_selection_epsilon, max_cluster_size, leaf,
                    allow_single_cluster, threads, one_at_a_time, outputs):
    return HDBSCANParams(min_cluster_size, -1 if min_samples is None else min_samples, cluster_selection_epsilon,
                         -1 if max_cluster_size is None else max_cluster_size, 1 if leaf else 0,
                         1 if allow_single_cluster else 0, 1 if one_at_a_time else 0, outputs, threads)


def hdbscan_fit_tree(n, a, b, weight, min_cluster_size, cluster_selection_epsilon, max_cluster_size, leaf,
                     allow_single_cluster, threads, keep_mst=False, one_at_a_time=False):
    """HDBSCAN's clusters over a mutual-reachability minimum spanning tree of n points computed
    elsewhere (n - 1 edges a[i]-b[i] of weight[i]; the library checks it is a spanning tree).
    Returns an HDBSCANResult."""
    outputs = GC_OUTPUT_CONDENSED_TREE | (GC_OUTPUT_MST if keep_mst else 0)
    params = _hdbscan_params(min_cluster_size, None, cluster_selection_epsilon, max_cluster_size, leaf,
                             allow_single_cluster, threads, one_at_a_time, outputs)
    a, b = (np.ascontiguousarray(v, dtype=np.int64) for v in (a, b))
    weight = np.ascontiguousarray(weight, dtype=np.float64)
    handle = _handle()
    message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
    code = _lib.gc_hdbscan_fit_tree(n, _pointer(a, _i64), _pointer(b, _i64), _pointer(weight, _f64),
                                    ctypes.byref(params), ctypes.byref(handle), message, _MESSAGE_CAPACITY)
    _check(code, message)
    return HDBSCANResult(handle)


def hdbscan_fit_located_tree(location_of, inner, a, b, weight, min_cluster_size, cluster_selection_epsilon,
                             max_cluster_size, leaf, allow_single_cluster, threads):
    """hdbscan_fit_tree over locations (gc_hdbscan_fit_located_tree): point i at location
    location_of[i], each location's core distance inner[l] (used where it holds several points),
    len(inner) - 1 edges a[i]-b[i] of weight[i] between the locations. Returns an HDBSCANResult."""
    params = _hdbscan_params(min_cluster_size, None, cluster_selection_epsilon, max_cluster_size, leaf,
                             allow_single_cluster, threads, False, GC_OUTPUT_CONDENSED_TREE)
    location_of, a, b = (np.ascontiguousarray(v, dtype=np.int64) for v in (location_of, a, b))
    inner, weight = (np.ascontiguousarray(v, dtype=np.float64) for v in (inner, weight))
    if not len(a) == len(b) == len(weight) == max(0, len(inner) - 1):
        raise ValueError(f"{len(a)}, {len(b)}, {len(weight)} edge ends and weights for {len(inner)} locations: "
                         "one edge fewer than the locations")
    handle = _handle()
    message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
    code = _lib.gc_hdbscan_fit_located_tree(len(location_of), len(inner), _pointer(location_of, _i64),
                                            _pointer(inner, _f64), _pointer(a, _i64), _pointer(b, _i64),
                                            _pointer(weight, _f64), ctypes.byref(params), ctypes.byref(handle),
                                            message, _MESSAGE_CAPACITY)
    _check(code, message)
    return HDBSCANResult(handle)


class HDBSCANResult:
    """One fit's result held by the library (labels, probabilities, GLOSH scores, the
    condensed tree without its point rows, the MST when kept), freed with this object. Each
    method copies one part into new numpy arrays: the estimator copies the labels at once and
    the rest on first access, so a fit costs what the CLI's does."""

    def __init__(self, handle, haversine=False):
        self._handle = handle
        self._haversine = haversine
        self.n = _lib.gc_hdbscan_point_count(handle)

    def __del__(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle is not None and _lib is not None:
            _lib.gc_hdbscan_free(handle)

    def labels(self):
        """(labels int32, probabilities float64), one per point."""
        labels = np.empty(self.n, dtype=np.int32)
        probabilities = np.empty(self.n, dtype=np.float64)
        _lib.gc_hdbscan_copy_labels(self._handle, _pointer(labels, _i32), _pointer(probabilities, _f64), None)
        return labels, probabilities

    def outlier_scores(self):
        scores = np.empty(self.n, dtype=np.float64)
        _lib.gc_hdbscan_copy_labels(self._handle, None, None, _pointer(scores, _f64))
        return scores

    def persistence(self):
        out = np.empty(_lib.gc_hdbscan_cluster_count(self._handle), dtype=np.float64)
        _lib.gc_hdbscan_copy_cluster_persistence(self._handle, _pointer(out, _f64))
        return out

    def condensed_tree(self):
        """Columns parent, child, lambda_val, child_size: the cluster rows, then a row per point."""
        rows = _lib.gc_hdbscan_condensed_tree_row_count(self._handle)
        tree = {k: np.empty(rows, dtype=np.float64 if k == "lambda_val" else np.int64)
                for k in ("parent", "child", "lambda_val", "child_size")}
        _lib.gc_hdbscan_copy_condensed_tree(self._handle, _pointer(tree["parent"], _i64),
                                            _pointer(tree["child"], _i64), _pointer(tree["lambda_val"], _f64),
                                            _pointer(tree["child_size"], _i64))
        return tree

    def core_distances(self):
        """Each point's core distance (a fit made with core_distances=True)."""
        out = np.empty(self.n, dtype=np.float64)
        _lib.gc_hdbscan_copy_core_distances(self._handle, _pointer(out, _f64))
        return out

    def mst(self):
        """Columns a, b, weight (empty unless the fit kept the MST)."""
        edges = _lib.gc_hdbscan_mst_edge_count(self._handle)
        mst = {"a": np.empty(edges, dtype=np.int64), "b": np.empty(edges, dtype=np.int64),
               "weight": np.empty(edges, dtype=np.float64)}
        _lib.gc_hdbscan_copy_mst(self._handle, _pointer(mst["a"], _i64), _pointer(mst["b"], _i64),
                                 _pointer(mst["weight"], _f64))
        return mst

    def predict(self, X, threads):
        """(labels, probabilities, outlier scores, connecting rows) of new points."""
        X, given = points(X, self._haversine)
        n = X.shape[0]
        out = (np.empty(n, dtype=np.int32), np.empty(n, dtype=np.float64), np.empty(n, dtype=np.float64),
               np.empty(n, dtype=np.int64))
        message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
        code = _lib.gc_hdbscan_predict(self._handle, ctypes.byref(given), threads, _pointer(out[0], _i32),
                                       _pointer(out[1], _f64), _pointer(out[2], _f64), _pointer(out[3], _i64),
                                       message, _MESSAGE_CAPACITY)
        _check(code, message)
        return out

    def membership_vectors(self, X, threads):
        """(n, clusters) soft memberships of new points."""
        X, given = points(X, self._haversine)
        out = np.empty((X.shape[0], _lib.gc_hdbscan_cluster_count(self._handle)), dtype=np.float64)
        message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
        code = _lib.gc_hdbscan_membership_vectors(self._handle, ctypes.byref(given), threads,
                                                  _pointer(out, _f64), message, _MESSAGE_CAPACITY)
        _check(code, message)
        return out

    def all_points_membership_vectors(self, threads):
        """(point_count, clusters) soft memberships of the fitted points."""
        out = np.empty((self.n, _lib.gc_hdbscan_cluster_count(self._handle)), dtype=np.float64)
        message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
        code = _lib.gc_hdbscan_all_points_membership_vectors(self._handle, threads, _pointer(out, _f64),
                                                             message, _MESSAGE_CAPACITY)
        _check(code, message)
        return out


def distances(a, b, haversine=False):
    """The distance between row i of a and row i of b (float64 (n, 2) arrays), as the library
    measures it (Euclidean; great-circle in radians with haversine)."""
    a, given_a = points(a, haversine)
    b, given_b = points(b, haversine)
    out = np.empty(a.shape[0], dtype=np.float64)
    message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
    _check(_lib.gc_distances(ctypes.byref(given_a), ctypes.byref(given_b), _pointer(out, _f64), message,
                             _MESSAGE_CAPACITY), message)
    return out


def mutual_reachability_mst(X, min_samples, threads, haversine=False):
    """gc_mutual_reachability_mst on a validated float64 (n, d) array: the fit's spanning tree
    ({"a", "b", "weight"}, as HDBSCANResult.mst gives it) and the core distances, without the
    clusters."""
    X, given = points(X, haversine)
    n = X.shape[0]
    m = max(n - 1, 0)
    mst = {"a": np.empty(m, dtype=np.int64), "b": np.empty(m, dtype=np.int64), "weight": np.empty(m)}
    core = np.empty(n)
    message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
    _check(_lib.gc_mutual_reachability_mst(ctypes.byref(given), min_samples, threads, _pointer(mst["a"], _i64),
                                           _pointer(mst["b"], _i64), _pointer(mst["weight"], _f64),
                                           _pointer(core, _f64), message, _MESSAGE_CAPACITY), message)
    return mst, core


def bottleneck_forest(n, a, b, weight, limit, kept):
    """gc_bottleneck_forest: (a, b, weight) of the edges the forest's joins make between kept
    rows, over its edges of weight <= limit."""
    a, b = (np.ascontiguousarray(v, dtype=np.int64) for v in (a, b))
    weight = np.ascontiguousarray(weight, dtype=np.float64)
    kept = np.ascontiguousarray(kept, dtype=np.uint8)
    m = len(weight)
    out = (np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64), np.empty(m, dtype=np.float64))
    count = np.zeros(1, dtype=np.int64)
    message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
    _check(_lib.gc_bottleneck_forest(n, m, _pointer(a, _i64), _pointer(b, _i64), _pointer(weight, _f64), limit,
                                     _pointer(kept, _u8), _pointer(out[0], _i64), _pointer(out[1], _i64),
                                     _pointer(out[2], _f64), _pointer(count, _i64), message, _MESSAGE_CAPACITY),
           message)
    return tuple(v[:count[0]] for v in out)


def dbscan_fit(X, eps, min_samples, threads, haversine=False, sample_weight=None):
    """Runs the library's DBSCAN on a validated float64 (n, d) array (with haversine, d = 2:
    latitude, longitude and eps in radians): (labels int32, core bool)."""
    X, given = points(X, haversine)
    n = X.shape[0]
    labels = np.empty(n, dtype=np.int32)
    core = np.empty(n, dtype=np.uint8)
    message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
    weights = None if sample_weight is None else _pointer(sample_weight, _f64)
    code = _lib.gc_dbscan_fit(ctypes.byref(given), weights, ctypes.byref(DBSCANParams(eps, min_samples, threads)),
                              _pointer(labels, _i32), _pointer(core, _u8), message, _MESSAGE_CAPACITY)
    _check(code, message)
    return labels, core.astype(bool)


def stable_labels(labels, previous, order, previous_labels, next_label):
    """gc_stable_labels on validated arrays (int32 labels, previous and previous_labels, int64
    order): (stable labels int32, the next fresh label, the changes' JSON text)."""
    stable = np.empty(len(labels), dtype=np.int32)
    next_out = np.zeros(1, dtype=np.int32)
    text = call_for_text(_lib.gc_stable_labels, len(labels), _pointer(labels, _i32), _pointer(previous, _i32),
                         _pointer(order, _i64), len(previous_labels), _pointer(previous_labels, _i32), next_label,
                         _pointer(stable, _i32), _pointer(next_out, _i32))
    return stable, int(next_out[0]), text


def call_for_text(function, *arguments):
    """Calls a library function that answers with a text handle (its last three arguments:
    the handle's address, the message buffer and its capacity); returns the text."""
    text = _handle()
    message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
    _check(function(*arguments, ctypes.byref(text), message, _MESSAGE_CAPACITY), message)
    return take_text(text)


def take_text(text):
    """The UTF-8 text of a text handle, which is freed."""
    return take_bytes(text).decode("utf-8")


def take_bytes(text):
    """The bytes of a text handle, which is freed."""
    try:
        buffer = (ctypes.c_uint8 * _lib.gc_text_length(text))()
        _lib.gc_text_copy(text, ctypes.cast(buffer, _u8))
        return bytes(buffer)
    finally:
        _lib.gc_text_free(text)


def pins_build(lon, lat, ids, key_bytes, key_offsets, categories, areas, deposits, rents, secret, min_anonymity,
               anonymity_cap, radius, min_samples, location_tolerance, threads, mask=None, remask=False):
    """Builds a pin index from validated columns (None where absent); returns its handle and,
    when `mask` (a mask store's bytes, b"" for a new one) is given, the store's new bytes."""
    def pointer(array, kind):
        return None if array is None else _pointer(array, kind)

    handle, mask_out = _handle(), _handle()
    message = ctypes.create_string_buffer(_MESSAGE_CAPACITY)
    mask_buffer = None if mask is None else (ctypes.c_uint8 * max(len(mask), 1)).from_buffer_copy(mask or b"\0")
    secret_buffer = None if secret is None else (ctypes.c_uint8 * len(secret)).from_buffer_copy(secret)
    listings = Listings(pointer(lon, _f64), pointer(lat, _f64), len(lon), pointer(ids, _i64), pointer(key_bytes, _u8),
                        pointer(key_offsets, _i64), pointer(categories, _u8), pointer(areas, _f64),
                        pointer(deposits, _f64), pointer(rents, _f64))
    params = PinsParams(None if secret is None else ctypes.cast(secret_buffer, _u8), 0 if secret is None else len(secret),
                        min_anonymity, anonymity_cap, radius, min_samples, location_tolerance, threads,
                        None if mask is None else ctypes.cast(mask_buffer, _u8), 0 if mask is None else len(mask),
                        1 if remask else 0)
    code = _lib.gc_pins_build(ctypes.byref(listings), ctypes.byref(params), ctypes.byref(mask_out),
                              ctypes.byref(handle), message, _MESSAGE_CAPACITY)
    _check(code, message)
    return handle, (take_bytes(mask_out) if mask_out.value else None)


def f64_pointer(array):
    return None if array is None else _pointer(array, _f64)

"""The C header is the library's one declaration: a C program compiled against it and linked
with the packaged library gets scikit-learn's labels and a coded error message; the Python
package's ctypes structures and signatures, and the library's exported symbols, are checked
against the header as clang reads it (the Swift exports are compiled against it)."""

import ctypes
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, load_fixtures, same_partition
from geocluster_hdbscan import _native

REPOSITORY_HEADER = ROOT / "Sources" / "GeoclusterCHeader" / "include" / "geocluster.h"


def header_path():
    """The header next to the loaded library (a wheel ships it), else the repository's."""
    installed = _native._library_path().with_name("geocluster.h")
    return installed if installed.is_file() else REPOSITORY_HEADER


@pytest.mark.skipif(shutil.which("cc") is None or sys.platform == "win32", reason="needs a C compiler")
def test_c_caller(tmp_path):
    cluster = pytest.importorskip("sklearn.cluster")
    library = _native._library_path()
    program = tmp_path / "capi_smoke"
    subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-Wstrict-prototypes", f"-I{header_path().parent}",
                    str(Path(__file__).with_name("capi_smoke.c")), str(library), f"-Wl,-rpath,{library.parent}",
                    "-o", str(program)], check=True)
    case = dict(load_fixtures("hdbscan"))["duplicates"]  # scikit-learn's labels are stable on it
    X = np.array(case["points"], dtype=np.float64)
    p = case["params"]
    text = f"{len(X)} {p['min_cluster_size']} {p['min_samples']} 20.0 4\n" + "\n".join(f"{x:.17g} {y:.17g}" for x, y in X)
    run = subprocess.run([str(program)], input=text, capture_output=True, text=True, check=True)
    hdbscan_line, dbscan_line, error_line = run.stdout.splitlines()
    np.testing.assert_array_equal([int(v) for v in dbscan_line.split()],
                                  cluster.DBSCAN(eps=20.0, min_samples=4).fit(X).labels_)
    assert same_partition([int(v) for v in hdbscan_line.split()], case["sklearn"]["labels"])
    assert error_line.startswith(f"{_native.GC_INVALID_PARAMETER} minClusterSize = 1 is invalid: must be at least 2")


def test_null_handles_and_pointers_are_errors_not_crashes():
    lib = _native._lib
    for name in ("gc_hdbscan_point_count", "gc_hdbscan_cluster_count", "gc_hdbscan_condensed_tree_row_count",
                 "gc_hdbscan_mst_edge_count"):
        assert getattr(lib, name)(None) == 0
    lib.gc_hdbscan_copy_labels(None, None, None, None)
    lib.gc_hdbscan_free(None)
    message = ctypes.create_string_buffer(200)
    params = lib.gc_hdbscan_defaults()
    nowhere = _native.Points(None, 10, 2, 2, 1, _native.GC_METRIC_EUCLIDEAN)
    code = lib.gc_hdbscan_fit(ctypes.byref(nowhere), None, ctypes.byref(params), None, message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"out must not be null"
    handle = _native._handle()
    code = lib.gc_hdbscan_fit(ctypes.byref(nowhere), None, ctypes.byref(params), ctypes.byref(handle), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"data must not be null when n > 0"
    code = lib.gc_hdbscan_fit(None, None, ctypes.byref(params), ctypes.byref(handle), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"points must not be null"
    code = lib.gc_hdbscan_fit(ctypes.byref(nowhere), None, None, ctypes.byref(handle), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"params must not be null"
    unknown = _native.Points(None, 0, 2, 2, 1, 7)
    code = lib.gc_hdbscan_fit(ctypes.byref(unknown), None, ctypes.byref(params), ctypes.byref(handle), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value.startswith(b"metric = 7 is invalid")
    params.selection_method = 7
    code = lib.gc_hdbscan_fit(ctypes.byref(nowhere), None, ctypes.byref(params), ctypes.byref(handle), message, 8)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"selecti"  # cut to the buffer
    assert not handle.value
    params = lib.gc_hdbscan_defaults()
    params.outputs = 16
    empty = _native.Points(None, 0, 2, 2, 1, _native.GC_METRIC_EUCLIDEAN)
    code = lib.gc_hdbscan_fit(ctypes.byref(empty), None, ctypes.byref(params), ctypes.byref(handle), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value.startswith(b"outputs = 16 is invalid")
    code = lib.gc_hdbscan_predict(None, ctypes.byref(empty), 1, None, None, None, None, message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"result must not be null"
    code = lib.gc_hdbscan_all_points_membership_vectors(None, 1, None, message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"result must not be null"


def test_defaults_are_scikit_learns():
    d = _native._lib.gc_hdbscan_defaults()
    assert (d.min_cluster_size, d.min_samples, d.cluster_selection_epsilon, d.max_cluster_size) == (5, -1, 0.0, -1)
    assert (d.selection_method, d.allow_single_cluster, d.ties, d.threads) == (0, 0, 0, 1)
    assert d.outputs == _native.GC_OUTPUT_CONDENSED_TREE


def test_the_estimators_defaults_are_the_librarys():
    """The Python signature's defaults are the C API's gc_hdbscan_defaults(): one table."""
    import inspect
    import geocluster_hdbscan
    d = _native._lib.gc_hdbscan_defaults()
    given = {k: v.default for k, v in inspect.signature(geocluster_hdbscan.HDBSCAN.__init__).parameters.items()}
    assert given["min_cluster_size"] == d.min_cluster_size
    assert (given["min_samples"] is None) == (d.min_samples < 0)
    assert given["cluster_selection_epsilon"] == d.cluster_selection_epsilon
    assert (given["max_cluster_size"] is None) == (d.max_cluster_size < 0)
    assert given["cluster_selection_method"] == {_native_selection: name for name, _native_selection in
                                                 (("eom", 0), ("leaf", 1))}[d.selection_method]
    assert given["allow_single_cluster"] == bool(d.allow_single_cluster)
    assert given["ties"] == {0: "all-at-once", 1: "one-at-a-time"}[d.ties]


def test_dbscan_and_pin_index_defaults_are_the_librarys():
    """DBSCAN's and PinIndex's signature defaults are the C API's gc_dbscan_defaults() and
    gc_pins_defaults(): one table per method."""
    import inspect
    import geocluster_hdbscan
    d = _native._lib.gc_dbscan_defaults()
    dbscan = {k: v.default for k, v in inspect.signature(geocluster_hdbscan.DBSCAN.__init__).parameters.items()}
    assert dbscan["min_samples"] == d.min_samples
    p = _native._lib.gc_pins_defaults()
    pins = {k: v.default for k, v in inspect.signature(geocluster_hdbscan.PinIndex.__init__).parameters.items()}
    assert (pins["min_anonymity"], pins["anonymity_cap"]) == (p.min_anonymity, p.anonymity_cap)
    assert (pins["radius"], pins["min_samples"], pins["location_tolerance"]) == (p.radius, p.min_samples, p.location_tolerance)


def test_predicting_needs_the_fits_metric():
    X = np.random.default_rng(3).normal(size=(200, 2))
    fitted = _native.hdbscan_fit(X, 10, None, 0.0, None, False, False, 1, prediction_data=True)
    _, given = _native.points(X[:5], haversine=True)
    message = ctypes.create_string_buffer(200)
    code = _native._lib.gc_hdbscan_predict(fitted._handle, ctypes.byref(given), 1, None, None, None, None, message, 200)
    assert code == _native.GC_INVALID_ARGUMENT
    assert message.value == b"points: the metric must be the fit's (euclidean)"


def fit_code(points, params=None):
    """gc_hdbscan_fit's code and message on `points`, the result freed."""
    lib = _native._lib
    params = params or lib.gc_hdbscan_defaults()
    message = ctypes.create_string_buffer(300)
    handle = _native._handle()
    code = lib.gc_hdbscan_fit(ctypes.byref(points), None, ctypes.byref(params), ctypes.byref(handle), message, 300)
    lib.gc_hdbscan_free(handle)
    return code, message.value.decode()


def test_points_of_bad_shape_are_errors_naming_it():
    X = np.zeros((20, 65))
    data = X.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    euclidean, haversine = _native.GC_METRIC_EUCLIDEAN, _native.GC_METRIC_HAVERSINE
    for d in (0, 65, -1):
        assert fit_code(_native.Points(data, 20, d, 65, 1, euclidean)) == (
            _native.GC_INVALID_PARAMETER, f"dimensions = {d} is invalid: must be between 1 and 64")
    for d in (1, 3):
        code, message = fit_code(_native.Points(data, 20, d, 65, 1, haversine))
        assert code == _native.GC_INVALID_PARAMETER
        assert message.startswith(f"dimensions = {d} is invalid with GC_METRIC_HAVERSINE: its points have 2")
    assert fit_code(_native.Points(data, 20, 3, 0, 1, euclidean)) == (
        _native.GC_INVALID_ARGUMENT, "row_stride = 0 is invalid: must be at least 1")
    assert fit_code(_native.Points(data, 20, 3, 65, -2, euclidean)) == (
        _native.GC_INVALID_ARGUMENT, "column_stride = -2 is invalid: must be at least 1")
    X[4, 2] = np.nan
    assert fit_code(_native.Points(data, 20, 3, 65, 1, euclidean))[0] == _native.GC_NON_FINITE_COORDINATE


@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_c_and_fortran_strides_read_the_same_points(d):
    """Coordinate a of point i at data[i * row_stride + a * column_stride]: a C-ordered array
    (d, 1), a Fortran-ordered one (1, n) and a column-subset view give the same labels and
    spanning tree as a contiguous copy."""
    rng = np.random.default_rng(d)
    X = np.concatenate([rng.normal(0, 1, (60, d)), rng.normal(6, 1, (60, d))])
    wide = np.column_stack([X, rng.normal(size=(len(X), 3))])[:, :d]  # row stride d + 3
    results = []
    for array in (X, np.asfortranarray(X), wide):
        kept, given = _native.points(array)
        assert kept is array
        assert (given.row_stride, given.column_stride) == (array.strides[0] // 8, array.strides[1] // 8)
        fitted = _native.hdbscan_fit(array, 10, None, 0.0, None, False, False, 1)
        results.append((fitted.labels()[0], fitted.mst()["weight"]))
    for labels, weights in results[1:]:
        np.testing.assert_array_equal(labels, results[0][0])
        np.testing.assert_array_equal(weights, results[0][1])


def test_prediction_needs_two_dimensions():
    rng = np.random.default_rng(4)
    X3 = rng.normal(size=(100, 3))
    with pytest.raises(_native.NativeError, match="GC_OUTPUT_PREDICTION needs points of 2 dimensions, got "
                                                  "dimensions = 3"):
        _native.hdbscan_fit(X3, 10, None, 0.0, None, False, False, 1, prediction_data=True)
    fitted = _native.hdbscan_fit(rng.normal(size=(100, 2)), 10, None, 0.0, None, False, False, 1,
                                 prediction_data=True)
    _, given = _native.points(X3[:5])
    message = ctypes.create_string_buffer(200)
    code = _native._lib.gc_hdbscan_predict(fitted._handle, ctypes.byref(given), 1, None, None, None, None, message, 200)
    assert code == _native.GC_INVALID_PARAMETER
    assert message.value == b"points: dimensions = 3, but the fit's points have 2; give new points of 2 coordinates"
    code = _native._lib.gc_hdbscan_membership_vectors(fitted._handle, ctypes.byref(given), 1, None, message, 200)
    assert code == _native.GC_INVALID_PARAMETER


def test_pins_null_handles_are_errors_not_crashes():
    lib = _native._lib
    lib.gc_pins_free(None)
    lib.gc_text_free(None)
    assert lib.gc_text_length(None) == 0
    message = ctypes.create_string_buffer(200)
    text = _native._handle()
    code = lib.gc_pins_request(None, b"pins", None, None, None, 0, ctypes.byref(text), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"index must not be null" and not text.value
    handle = _native._handle()
    listings = _native.Listings(None, None, 3)
    params = _native.PinsParams(None, 0, 5, 1500.0, 12.5, 1, 30.0, 1, None, 0, 0)
    code = lib.gc_pins_build(ctypes.byref(listings), ctypes.byref(params), None, ctypes.byref(handle), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"lon and lat must not be null when n > 0"
    assert not handle.value


# ---- the header against the ctypes declarations and the library's symbols ----

def header_declarations():
    """(functions, structures) of the header as clang parses it: {name: (result, [parameter
    types])} and {name: [(field, type)]}, types as C spells them."""
    clang = shutil.which("clang")
    if clang is None:
        pytest.skip("needs clang (the Swift toolchain's) to parse the header")
    dump = subprocess.run([clang, "-Xclang", "-ast-dump=json", "-fsyntax-only", "-x", "c", str(header_path())],
                          capture_output=True, text=True, check=True).stdout
    functions, structures = {}, {}
    for node in json.loads(dump)["inner"]:
        name = node.get("name", "")
        if not name.startswith("gc_"):
            continue
        if node["kind"] == "FunctionDecl":
            parameters = [p["type"]["qualType"] for p in node.get("inner", []) if p["kind"] == "ParmVarDecl"]
            functions[name] = (node["type"]["qualType"].split("(")[0].strip(), parameters)
        elif node["kind"] == "RecordDecl" and node.get("completeDefinition"):
            structures[name] = [(f["name"], f["type"]["qualType"]) for f in node["inner"] if f["kind"] == "FieldDecl"]
    return functions, structures


def ctypes_type(spelling, structures):
    """The ctypes type a C type stands for in the package's declarations."""
    bare = re.sub(r"\bconst\b", "", spelling).replace(" ", "")
    base, stars = bare.rstrip("*"), len(bare) - len(bare.rstrip("*"))
    if base == "char":  # a NUL-terminated text, or an array of them
        return {1: ctypes.c_char_p, 2: ctypes.POINTER(ctypes.c_char_p)}[stars]
    scalars = {"void": None, "double": ctypes.c_double, "int32_t": ctypes.c_int32, "int64_t": ctypes.c_int64,
               "uint8_t": ctypes.c_uint8}
    if base in scalars:
        kind = scalars[base]
    elif base in structures:
        kind = _native.STRUCTURES[base]
    else:  # an opaque handle: its pointer is a void pointer
        kind, stars = ctypes.c_void_p, stars - 1
    for _ in range(stars):
        kind = ctypes.POINTER(kind)
    return kind


def test_constants_are_the_headers():
    defined = dict(re.findall(r"^#define (GC_\w+) (-?\d+)", header_path().read_text(), flags=re.MULTILINE))
    assert defined["GC_MAX_DIMENSIONS"] == "64"
    for name, value in defined.items():
        if hasattr(_native, name):
            assert getattr(_native, name) == int(value), name
    assert {n for n in dir(_native) if n.startswith("GC_")} <= set(defined)


def test_ctypes_structures_are_the_headers():
    _, structures = header_declarations()
    assert set(structures) == set(_native.STRUCTURES)
    for name, fields in structures.items():
        declared = [(field, ctypes_type(kind, structures)) for field, kind in fields]
        assert _native.STRUCTURES[name]._fields_ == declared, name


def test_ctypes_signatures_are_the_headers():
    functions, structures = header_declarations()
    assert set(functions) == set(_native.SIGNATURES)
    for name, (result, parameters) in functions.items():
        declared = (ctypes_type(result, structures), [ctypes_type(p, structures) for p in parameters])
        assert _native.SIGNATURES[name] == declared, name


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs nm")
def test_the_library_exports_exactly_the_headers_functions():
    functions, _ = header_declarations()
    symbols = subprocess.run(["nm", "-D", "--defined-only", str(_native._library_path())], capture_output=True,
                             text=True, check=True).stdout.split()
    assert {s for s in symbols if s.startswith("gc_")} == set(functions)


@pytest.mark.skipif(not REPOSITORY_HEADER.is_file(), reason="needs the repository's Swift sources")
def test_every_export_is_type_checked_against_the_header():
    """Sources/GeoclusterCAPI/HeaderConformance.swift compiles one check per function; one
    missing from it would leave that export's types unchecked."""
    functions, _ = header_declarations()
    checks = (ROOT / "Sources" / "GeoclusterCAPI" / "HeaderConformance.swift").read_text()
    checked = set(re.findall(r"var f = GeoclusterCHeader\.(\w+); f = GeoclusterCAPI\.\1;", checks))
    assert checked == set(functions)

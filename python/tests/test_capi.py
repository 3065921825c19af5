"""The C header is the library's real interface: a C program compiled against _capi.h and
linked with the packaged library gets scikit-learn's labels and a coded error message."""

import ctypes
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import load_fixtures, same_partition
from geocluster_hdbscan import _native

HEADER_DIR = Path(__file__).resolve().parents[1] / "geocluster_hdbscan"


@pytest.mark.skipif(shutil.which("cc") is None or sys.platform == "win32", reason="needs a C compiler")
def test_c_caller(tmp_path):
    cluster = pytest.importorskip("sklearn.cluster")
    library = _native._library_path()
    program = tmp_path / "capi_smoke"
    subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", f"-I{HEADER_DIR}",
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
    code = lib.gc_hdbscan_fit(None, None, 10, 2, None, 5, -1, 0.0, -1, 0, 0, 0, 1, 3, None, message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"out must not be null"
    handle = _native._handle()
    code = lib.gc_hdbscan_fit(None, None, 10, 2, None, 5, -1, 0.0, -1, 0, 0, 0, 1, 3, ctypes.byref(handle), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"x and y must not be null when n > 0"
    code = lib.gc_hdbscan_fit(None, None, 10, 2, None, 5, -1, 0.0, -1, 7, 0, 0, 1, 3, ctypes.byref(handle), message, 8)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"selecti"  # cut to the buffer
    assert not handle.value
    code = lib.gc_hdbscan_fit(None, None, 0, 2, None, 5, -1, 0.0, -1, 0, 0, 0, 1, 8, ctypes.byref(handle), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value.startswith(b"outputs = 8 is invalid")
    code = lib.gc_hdbscan_predict(None, None, None, 0, 2, 1, None, None, None, None, message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"result must not be null"
    code = lib.gc_hdbscan_all_points_membership_vectors(None, 1, None, message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"result must not be null"


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
    code = lib.gc_pins_build(None, None, 3, None, None, None, None, None, None, None, None, 0, 5, 1500.0, 12.5, 1,
                             30.0, 1, None, 0, 0, None, ctypes.byref(handle), message, 200)
    assert code == _native.GC_INVALID_ARGUMENT and message.value == b"lon and lat must not be null when n > 0"
    assert not handle.value

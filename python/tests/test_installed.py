"""The package under test is the installed wheel, and it needs no Swift toolchain: its
library links no Swift runtime library dynamically, and it imports and fits with a bare
environment (no PATH to swift, no LD_LIBRARY_PATH)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import geocluster_hdbscan
from geocluster_hdbscan import _native

pytestmark = pytest.mark.skipif(os.environ.get("GEOCLUSTER_CAPI_LIBRARY") is not None,
                                reason="testing a development build, not the installed wheel")


def test_library_is_the_packaged_one():
    library = _native._library_path()
    assert library.parent == Path(geocluster_hdbscan.__file__).parent and library.is_file()


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ldd") is None, reason="Linux ldd")
def test_no_dynamic_swift_runtime():
    needed = subprocess.run(["ldd", str(_native._library_path())], capture_output=True, text=True,
                            check=True).stdout
    for name in ("libswift", "libFoundation", "libdispatch", "libBlocksRuntime", "/swift/"):
        assert name not in needed, needed


def test_imports_and_fits_in_a_bare_environment():
    X = [[0, 0], [0, 1], [1, 0], [9, 9], [9, 10], [10, 9], [50, 50.0]]
    code = f"import numpy as np, geocluster_hdbscan; print(geocluster_hdbscan.HDBSCAN(min_cluster_size=3).fit_predict(np.array({X})).tolist())"
    run = subprocess.run([sys.executable, "-c", code], env={"PATH": "/usr/bin:/bin"}, capture_output=True,
                         text=True, check=True, cwd="/")
    cluster = pytest.importorskip("sklearn.cluster")
    assert run.stdout.strip() == str(cluster.HDBSCAN(min_cluster_size=3, copy=True).fit_predict(X).tolist())


@pytest.mark.skipif(os.environ.get("GEOCLUSTER_EXPECT_NO_SWIFT") != "1", reason="make wheel-check sets it")
def test_runs_where_no_swift_toolchain_is():
    """make wheel-check runs the suite on the built wheel with the toolchain off PATH."""
    assert shutil.which("swift") is None
    assert geocluster_hdbscan.__file__.endswith("site-packages/geocluster_hdbscan/__init__.py")

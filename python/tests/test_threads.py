"""ctypes releases the GIL during each call into the library: other Python threads run while
a fit does, and fits in several threads give each its own, correct, result."""

import ctypes
import threading
import time

import numpy as np

import geocluster_hdbscan
from geocluster_hdbscan import _native

X_LARGE = np.random.default_rng(0).uniform(0, 1000, (200_000, 2))


def longest_main_thread_pause(call):
    """Runs `call` in a thread while the main thread spins; returns (the main thread's longest
    pause during the call, the call's duration), in seconds."""
    inside = threading.Event()
    done = threading.Event()
    span = {}

    def fit():
        inside.set()
        start = time.perf_counter()
        call()
        span["call"] = (start, time.perf_counter())
        done.set()

    worker = threading.Thread(target=fit)
    worker.start()
    inside.wait()
    ticks = []
    while not done.is_set():
        ticks.append(time.perf_counter())
    worker.join()
    start, end = span["call"]
    during = [t for t in ticks if start <= t <= end]
    duration = end - start
    return max(np.diff([start] + during + [end])), duration


def test_python_threads_run_during_a_fit():
    """While one thread is inside the library, the main thread keeps executing Python
    bytecode: its longest pause is a small part of the call. The control: the same call
    through ctypes.PyDLL, which holds the GIL, pauses the main thread for nearly all of it."""
    pause, duration = longest_main_thread_pause(
        lambda: _native.hdbscan_fit(X_LARGE, 5, None, 0.0, None, False, False, 1))
    assert duration > 0.05, "the fit must take long enough to measure"
    assert pause < 0.5 * duration, f"main thread paused {pause:.3f} s of a {duration:.3f} s call"

    holding = ctypes.PyDLL(str(_native._library_path()))
    fit = holding.gc_dbscan_fit
    fit.restype, fit.argtypes = _native._lib.gc_dbscan_fit.restype, _native._lib.gc_dbscan_fit.argtypes
    X, given = _native.points(X_LARGE)
    params = _native.DBSCANParams(3.0, 5, 1)
    labels = np.empty(len(X), dtype=np.int32)
    core = np.empty(len(X), dtype=np.uint8)

    def dbscan_holding_the_gil():
        for _ in range(3):
            fit(ctypes.byref(given), None, ctypes.byref(params), labels.ctypes.data_as(_native._i32),
                core.ctypes.data_as(_native._u8), None, 0)

    pause, duration = longest_main_thread_pause(dbscan_holding_the_gil)
    assert pause > 0.2 * duration, f"control: with the GIL held the main thread paused only {pause:.3f} s"


def test_concurrent_fits_are_independent_and_correct():
    datasets = [np.random.default_rng(seed).normal(size=(20_000, 2)) * (seed + 1) for seed in range(4)]
    expected_h = [geocluster_hdbscan.HDBSCAN(min_cluster_size=15).fit(X) for X in datasets]
    expected_d = [geocluster_hdbscan.DBSCAN(eps=0.05, min_samples=4).fit(X).labels_ for X in datasets]
    results = {}

    def run(i):
        results[("h", i)] = geocluster_hdbscan.HDBSCAN(min_cluster_size=15).fit(datasets[i])
        results[("d", i)] = geocluster_hdbscan.DBSCAN(eps=0.05, min_samples=4).fit(datasets[i]).labels_

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(datasets))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(len(datasets)):
        np.testing.assert_array_equal(results[("h", i)].labels_, expected_h[i].labels_)
        np.testing.assert_array_equal(results[("h", i)].outlier_scores_, expected_h[i].outlier_scores_)
        np.testing.assert_array_equal(results[("d", i)], expected_d[i])

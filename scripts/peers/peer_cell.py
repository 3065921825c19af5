#!/usr/bin/env python3
"""Run one peer library on one benchmark cell, in this process; write its labels and a report.

    python3 scripts/peers/peer_cell.py --peer fast_hdbscan --input cell.csv \
        --params '{"min_cluster_size":15,"min_samples":5}' --labels out.csv --report out.json

    # map pins per zoom (geocluster bench --pins-zooms): supercluster only
    python3 scripts/peers/peer_cell.py --peer supercluster --input listings.csv --pins-zooms 10-18 \
        --viewports viewports.csv --pins pins.csv --labels labels.i32 --report out.json

`geocluster bench` starts one fresh process per cell, measures its wall time, kills it on
timeout, and reads back the two files. This script measures the rest: reading, exactly one
timed fit (after an untimed JIT warm-up for numba peers), peak memory, and the MST weight
the library built. Exit status: 0 for ok, unavailable and skipped; 1 for error (the report
says why); 2 for bad command-line arguments (argparse; no report). See README.md.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from importlib.metadata import version as dist_version
from pathlib import Path

from run_peers import map_min_samples, read_points, status_kb, write_labels

# peer -> (module to import, pip distribution, parameter defaults). Parameters not listed
# here are rejected, so a misspelt key fails instead of silently running the default.
PEERS = {
    "sklearn": ("sklearn", "scikit-learn", {"min_cluster_size": 15, "min_samples": 5}),
    "hdbscan": ("hdbscan", "hdbscan", {"min_cluster_size": 15, "min_samples": 5}),
    "fast_hdbscan": ("fast_hdbscan", "fast_hdbscan", {"min_cluster_size": 15, "min_samples": 5}),
    "hdbscan_rs": ("hdbscan_rs", "hdbscan-rs", {"min_cluster_size": 15, "min_samples": 5}),
    "sklearn_dbscan": ("sklearn", "scikit-learn", {"eps": 100.0, "min_samples": 5}),
    # The exact mutual-reachability MST only (no labels): compared with geocluster's index,
    # core distances and MST stages, not its whole fit.
    "quitefastmst": ("quitefastmst", "quitefastmst", {"min_samples": 5}),
    # radius in pixels of an `extent`-pixel tile, as in mapbox/supercluster; labels are the
    # clusters at `zoom`. min_points is not a setting of this library: it is always 2.
    "supercluster": ("pysupercluster", "pysupercluster-problematy",
                     {"radius": 40.0, "extent": 512.0, "min_zoom": 0, "max_zoom": 16, "zoom": 14, "min_points": 2}),
}
# Peers that measure great-circle distance (`--metric geodesic`: lon/lat in, metres on the
# sphere); the others are skipped on such cells. supercluster always reads lon/lat.
GEODESIC_PEERS = ("sklearn", "sklearn_dbscan", "quitefastmst", "supercluster")
EARTH_RADIUS = 6_371_008.8  # metres: the mean radius geocluster measures great circles on
WARMUP_POINTS = 2000  # numba compiles per argument type, not per size: a slice is enough
REPLAY_BLOCK = 20000  # supercluster's replay: items whose neighbour lists are held at once


class Outcome(Exception):
    """Ends the cell early with a status other than ok (unavailable, skipped)."""

    def __init__(self, status: str, message: str):
        super().__init__(message)
        self.status = status


def parse_params(peer: str, text: str) -> dict:
    params = dict(PEERS[peer][2])
    given = json.loads(text)
    unknown = set(given) - set(params)
    if unknown:
        raise ValueError(f"unknown --params keys for {peer}: {sorted(unknown)}; known: {sorted(params)}")
    params.update(given)
    if peer == "supercluster":
        if params["min_points"] != 2:
            raise ValueError("pysupercluster has no min_points setting: every group of 2 or more is a cluster")
        if not params["min_zoom"] <= params["zoom"] <= params["max_zoom"]:
            raise ValueError(f"need min_zoom <= zoom <= max_zoom, got {params}")
    elif params["min_samples"] < 1 or params.get("min_cluster_size", 2) < 2:
        raise ValueError(f"need min_samples >= 1 and min_cluster_size >= 2, got {params}")
    return params


def make_fit(peer: str, p: dict, threads: int, geodesic: bool = False):
    """(fit: points -> model, summarize: model -> (labels or None, mst_weight or None), settings).

    Imports happen here; fit is the only part timed. mst_weight is the total weight of the
    mutual-reachability spanning tree the library itself built (its own tie-breaking and,
    for hdbscan, its approximations), so a non-minimal tree shows as a larger weight; in
    metres, on the sphere too. `geodesic`: the points are what `peer_points` makes of lon/lat.
    Labels are None for quitefastmst, which builds the MST only.
    """
    if geodesic and peer in ("sklearn", "sklearn_dbscan"):
        return make_haversine_fit(peer, p, threads)
    if peer == "quitefastmst":
        return make_quitefastmst_fit(p, threads, geodesic)
    if peer in ("sklearn", "hdbscan", "fast_hdbscan", "hdbscan_rs"):
        ms, note = map_min_samples(peer, p["min_samples"])
        mcs = p["min_cluster_size"]
        settings = f"min_cluster_size={mcs}, min_samples={ms} (sklearn's {p['min_samples']}{'; ' + note if note else ''})"
    if peer == "sklearn":
        from sklearn.cluster import HDBSCAN

        return (lambda x: HDBSCAN(min_cluster_size=mcs, min_samples=ms, n_jobs=threads, copy=False).fit(x),
                lambda m: (m.labels_, float(m._single_linkage_tree_["value"].sum())),
                f"sklearn.cluster.HDBSCAN {settings}, algorithm=auto (KD-tree core distances, dense Prim MST), "
                f"n_jobs={threads} (k-NN only); mst_weight = sum of _single_linkage_tree_ distances")
    if peer == "hdbscan":
        import hdbscan

        return (lambda x: hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=ms, core_dist_n_jobs=threads,
                                          gen_min_span_tree=True).fit(x),
                lambda m: (m.labels_, float(m.minimum_spanning_tree_.to_numpy()[:, 2].sum())),
                f"hdbscan.HDBSCAN {settings}, algorithm=best (boruvka_kdtree, approx_min_span_tree=True: "
                f"the tree may be heavier than the MST), core_dist_n_jobs={threads} (joblib worker processes "
                f"above 16384 points, their memory not in peak_mb); mst_weight = minimum_spanning_tree_ "
                f"(gen_min_span_tree=True)")
    if peer == "fast_hdbscan":
        import fast_hdbscan
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        return (lambda x: fast_hdbscan.HDBSCAN(min_cluster_size=mcs, min_samples=ms).fit(x),
                lambda m: (m.labels_, float(m._min_spanning_tree[:, 2].sum())),
                f"fast_hdbscan.HDBSCAN {settings}, parallel Boruvka on a float32 KD-tree, numba threads="
                f"{numba.get_num_threads()}, one untimed warm-up fit on {WARMUP_POINTS} points first (JIT); "
                f"mst_weight = _min_spanning_tree (the array behind minimum_spanning_tree_)")
    if peer == "hdbscan_rs":
        import hdbscan_rs

        return (lambda x: hdbscan_rs.HDBSCAN(min_cluster_size=mcs, min_samples=ms).fit(x),
                lambda m: (m.labels_, None),
                f"hdbscan_rs.HDBSCAN {settings}, no thread setting (single-threaded); "
                f"mst_weight null: the library exposes no tree")
    if peer == "sklearn_dbscan":
        from sklearn.cluster import DBSCAN

        return (lambda x: DBSCAN(eps=p["eps"], min_samples=p["min_samples"], n_jobs=threads).fit(x),
                lambda m: (m.labels_, None),
                f"sklearn.cluster.DBSCAN eps={p['eps']} m, min_samples={p['min_samples']} (the point counts), "
                f"algorithm=auto (KD-tree), n_jobs={threads}")
    if peer == "supercluster":
        import pysupercluster

        def fit(lonlat):
            index = pysupercluster.SuperCluster(lonlat, min_zoom=p["min_zoom"], max_zoom=p["max_zoom"],
                                                radius=p["radius"], extent=p["extent"])
            return lonlat, index.getClusters(top_left=(-180.0, 90.0), bottom_right=(180.0, -90.0), zoom=p["zoom"]), index

        return (fit, lambda m: (supercluster_labels(m[0], m[1], p), None),
                f"pysupercluster.SuperCluster(radius={p['radius']} px, extent={p['extent']}, zooms "
                f"{p['min_zoom']}-{p['max_zoom']}) on lon/lat, then getClusters(whole world, zoom={p['zoom']}); "
                f"single-threaded C++; timed: building all zooms + that query; labels (untimed) by replaying "
                f"its greedy pass, checked against every cluster's id, count and centre")
    raise ValueError(peer)


def make_haversine_fit(peer: str, p: dict, threads: int):
    """make_fit for scikit-learn's HDBSCAN and DBSCAN with metric="haversine": X is
    [lat, lon] in radians, so distances are in radians of the unit sphere; eps is given to
    DBSCAN as eps / EARTH_RADIUS and the MST weight is returned in metres."""
    if peer == "sklearn":
        from sklearn.cluster import HDBSCAN

        ms, mcs = p["min_samples"], p["min_cluster_size"]
        return (lambda x: HDBSCAN(min_cluster_size=mcs, min_samples=ms, metric="haversine", n_jobs=threads,
                                  copy=False).fit(x),
                lambda m: (m.labels_, float(m._single_linkage_tree_["value"].sum()) * EARTH_RADIUS),
                f"sklearn.cluster.HDBSCAN min_cluster_size={mcs}, min_samples={ms}, metric=haversine on "
                f"[lat, lon] radians, algorithm=auto (ball-tree core distances, dense Prim MST), n_jobs={threads} "
                f"(k-NN only); mst_weight = sum of _single_linkage_tree_ distances x {EARTH_RADIUS} m")
    from sklearn.cluster import DBSCAN

    eps = p["eps"] / EARTH_RADIUS
    return (lambda x: DBSCAN(eps=eps, min_samples=p["min_samples"], metric="haversine", n_jobs=threads).fit(x),
            lambda m: (m.labels_, None),
            f"sklearn.cluster.DBSCAN eps={p['eps']} m = {eps!r} rad (R = {EARTH_RADIUS} m), "
            f"min_samples={p['min_samples']} (the point counts), metric=haversine on [lat, lon] radians, "
            f"algorithm=auto (ball tree), n_jobs={threads}")


def make_quitefastmst_fit(p: dict, threads: int, geodesic: bool):
    """make_fit for quitefastmst.mst_euclid(X, M=min_samples - 1): the exact Euclidean
    mutual-reachability MST, M counting neighbours other than the point (sklearn's min_samples
    counts the point itself). On the sphere X holds unit vectors times EARTH_RADIUS: the chord
    grows with the great-circle distance, so the tree and its core distances are the
    great-circle ones, and each edge's chord c becomes the arc 2R asin(c / 2R) for the weight.
    No labels: the fit is the MST alone."""
    import numpy as np
    import quitefastmst

    quitefastmst.omp_set_num_threads(threads)
    m = p["min_samples"] - 1

    def weight(model):
        chords = np.asarray(model[0], dtype=np.float64)
        if geodesic:
            chords = 2.0 * EARTH_RADIUS * np.arcsin(np.minimum(chords / (2.0 * EARTH_RADIUS), 1.0))
        return float(chords.sum())

    where = (f"3-D unit vectors x {EARTH_RADIUS} m (chords; mst_weight in great-circle metres)" if geodesic
             else "planar x,y (metres, translated to a 0 minimum)")
    return (lambda x: quitefastmst.mst_euclid(x, M=m),
            lambda model: (None, weight(model)),
            f"quitefastmst.mst_euclid(X, M={m}) (sklearn's min_samples {p['min_samples']} minus the point itself), "
            f"X = {where}, algorithm=auto (sesqui k-d tree Boruvka), OpenMP threads={quitefastmst.omp_get_max_threads()}; "
            f"the MST only, no labels: compare with geocluster's index + core distances + MST stages")


def peer_points(peer: str, lonlat_or_xy, geodesic: bool):
    """The array a peer fits: planar x,y translated to a 0 minimum (exact HDBSCAN/DBSCAN don't
    change under translation; it keeps float32 peers such as fast_hdbscan from rounding
    EPSG:5179 coordinates of ~2e6 m to 0.125 m); on the sphere (lon, lat in degrees) [lat, lon]
    in radians for scikit-learn's haversine, unit vectors times EARTH_RADIUS for quitefastmst;
    supercluster's lon/lat unchanged."""
    import numpy as np

    points = lonlat_or_xy
    if peer == "supercluster" or not len(points):
        return points
    if not geodesic:
        return np.ascontiguousarray(points - points.min(axis=0))
    lon, lat = np.radians(points[:, 0]), np.radians(points[:, 1])
    if peer == "quitefastmst":
        return np.ascontiguousarray(np.column_stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon),
                                                     np.sin(lat)]) * EARTH_RADIUS)
    return np.ascontiguousarray(np.column_stack([lat, lon]))


def scaled_features(columns, names: list[str], scale: str):
    """The features as geocluster's `--features NAMES --scale SCALE` puts them (Harness,
    FeatureSpace.swift): each column centred and divided by its spread, the mean and standard
    deviation (`standard`, as scikit-learn's StandardScaler) or the median and interquartile
    range (`robust`, quartiles interpolated linearly, numpy's default); x and y, the position
    in metres, share one spread (the root mean square of their deviations, or the mean of
    their ranges); a spread of 0 divides by 1; `none` leaves every column as read."""
    import numpy as np

    if scale == "none" or not len(columns):
        return np.ascontiguousarray(columns)
    if scale == "standard":
        centre, spread = columns.mean(axis=0), columns.std(axis=0)
    else:
        q1, centre, q3 = np.percentile(columns, [25, 50, 75], axis=0)
        spread = q3 - q1
    position = [i for i, name in enumerate(names) if name in ("x", "y")]
    if position:
        shared = spread[position]
        spread[position] = np.sqrt(np.mean(shared ** 2)) if scale == "standard" else np.mean(shared)
    spread = np.where(spread > 0, spread, 1.0)
    return np.ascontiguousarray((columns - centre) / spread)


# --------------------------------------------------------------------------------------
# supercluster: which points are in which cluster
# --------------------------------------------------------------------------------------


def supercluster_labels(lonlat, clusters: list[dict], p: dict):
    """Label each point with the id of its cluster at p["zoom"], -1 if it stays a single point.

    pysupercluster-problematy 0.7.8 returns only each cluster's id, count, centre and
    expansion zoom; it has no getLeaves. Its clustering is mapbox/supercluster's greedy
    pass, run from max_zoom down: each item at zoom z+1, in order, not yet taken, takes all
    untaken items within radius / (extent * 2^z) of it (Web Mercator, world = unit square);
    a group of 2 or more becomes a new item with the count-weighted centre and the next id
    (ids count on from n; single points keep their row index). Replaying that pass here
    gives the membership. It is used only if it reproduces the library's clusters exactly
    (same ids and counts, centres within 1e-9 degrees); otherwise this raises.
    """
    import numpy as np

    for _, ids, count, item_of_point in supercluster_replay(lonlat, p, [p["zoom"]], {p["zoom"]: clusters}):
        return np.where(count > 1, ids, -1)[item_of_point]


def supercluster_replay(lonlat, p: dict, zooms: list, clusters_at):
    """Replays supercluster's greedy pass from p["max_zoom"] down to min(zooms) (see
    supercluster_labels) and yields (zoom, ids, count, item_of_point) at each zoom of `zooms`,
    after checking the items against the library's pins there, `clusters_at(zoom)` (or a dict
    zoom -> pins): the same ids and counts, centres within 1e-9 degrees; otherwise it raises.
    `ids[item_of_point]` is each input point's pin id at that zoom (its row for a lone point)."""
    import numpy as np
    from scipy.spatial import cKDTree

    sin = np.sin(np.radians(lonlat[:, 1]))
    pos = np.column_stack([lonlat[:, 0] / 360.0 + 0.5, 0.5 - 0.25 * np.log((1 + sin) / (1 - sin)) / np.pi])
    n = len(pos)
    count, ids = np.ones(n), np.arange(n)
    item_of_point = np.arange(n)  # each input point's item at the current zoom
    next_id = n
    for z in range(p["max_zoom"], min(zooms) - 1, -1):
        tree, r = cKDTree(pos), p["radius"] / (p["extent"] * 2.0 ** z)
        taken, group_of, seeds = [False] * len(pos), [0] * len(pos), []
        # Neighbour lists a block of items at a time, for the items not yet taken: all at once
        # they need gigabytes at 1M points (buildings of many listings at high zooms).
        for start in range(0, len(pos), REPLAY_BLOCK):
            block = [i for i in range(start, min(start + REPLAY_BLOCK, len(pos))) if not taken[i]]
            for i, within in zip(block, tree.query_ball_point(pos[block], r) if block else ()):
                if not taken[i]:
                    for j in within:  # i itself included
                        if not taken[j]:
                            taken[j], group_of[j] = True, len(seeds)
                    seeds.append(i)
        group_of = np.asarray(group_of)
        size = np.bincount(group_of)
        new_count = np.bincount(group_of, weights=count)
        pos = np.column_stack([np.bincount(group_of, weights=pos[:, k] * count) / new_count for k in (0, 1)])
        merged = size > 1
        ids = np.where(merged, next_id + np.cumsum(merged) - 1, ids[seeds])
        next_id += int(merged.sum())
        count, item_of_point = new_count, group_of[item_of_point]
        if z not in zooms:
            continue
        clusters = clusters_at[z] if isinstance(clusters_at, dict) else clusters_at(z)
        lat = np.degrees(2 * np.arctan(np.exp(np.pi * (1 - 2 * pos[:, 1])))) - 90.0
        ours = {int(i): (c, x, y) for i, c, x, y in zip(ids, count, (pos[:, 0] - 0.5) * 360.0, lat)}
        theirs = {c["id"]: (c["count"], c["longitude"], c["latitude"]) for c in clusters}
        if ours.keys() != theirs.keys() or any(
                ours[i][0] != c or abs(ours[i][1] - x) > 1e-9 or abs(ours[i][2] - y) > 1e-9
                for i, (c, x, y) in theirs.items()):
            raise RuntimeError(f"replaying supercluster's greedy pass did not reproduce its clusters at zoom {z}; labels unknown")
        yield z, ids, count, item_of_point


# --------------------------------------------------------------------------------------
# The cell
# --------------------------------------------------------------------------------------


def write_atomically(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    write(tmp)
    os.replace(tmp, path)


def run_cell(args, report: dict) -> None:
    """Fills `report` in place, so whatever was measured before an exception is kept."""
    import numpy as np

    peer = args.peer
    if peer not in PEERS:
        raise ValueError(f"unknown peer {peer!r}; choose from {', '.join(PEERS)}")
    module, dist, _ = PEERS[peer]
    params = parse_params(peer, args.params)
    geodesic = args.metric == "geodesic"

    features = [name.strip().lower() for name in args.features.split(",")] if args.features else None
    if features and peer == "supercluster":
        raise Outcome("skipped", "supercluster groups map positions (lon/lat); it has no feature space (--features)")
    start = time.perf_counter()
    columns = features or (("lon", "lat") if geodesic or peer == "supercluster" else ("x", "y"))
    ids, points = read_points(args.input, columns)
    if features:
        points = scaled_features(points, features, args.scale)
    report["read_seconds"] = time.perf_counter() - start
    report["points"] = n = len(ids)
    points = peer_points(peer, points, geodesic)

    if geodesic and peer not in GEODESIC_PEERS:
        raise Outcome("skipped", f"{peer} is not run on great-circle cells (--metric geodesic): it measures "
                                 f"planar distance only; peers there: {', '.join(GEODESIC_PEERS)}")
    if peer == "sklearn" and n > args.sklearn_max_n:
        raise Outcome("skipped", f"n = {n} > --sklearn-max-n {args.sklearn_max_n} "
                                 f"(scikit-learn's HDBSCAN MST is quadratic in time and memory)")
    try:
        importlib.import_module(module)
    except ImportError as error:
        raise Outcome("unavailable", f"cannot import {module} ({error}); install it with "
                                     f"scripts/peers/install.sh or pip install {dist}")
    report["version"] = dist_version(dist)
    fit, summarize, report["settings"] = make_fit(peer, params, args.threads, geodesic)
    if peer == "fast_hdbscan":
        fit(points[:WARMUP_POINTS])  # untimed: numba compiles here

    cpu, start = time.process_time(), time.perf_counter()
    model = fit(points)
    report["fit_seconds"] = time.perf_counter() - start
    report["fit_cpu_seconds"] = time.process_time() - cpu  # this process only, all its threads
    # Read before the (untimed) summarize: supercluster's label replay is ours, not the library's.
    report["peak_mb"] = status_kb("VmHWM") / 1024.0

    labels, report["mst_weight"] = summarize(model)
    if labels is None:
        return  # the MST only (fit_scope "mst"): no labels, clusters or noise
    labels = np.asarray(labels, dtype=np.int64)
    if len(labels) != n:
        raise RuntimeError(f"{peer} returned {len(labels)} labels for {n} points")
    report["clusters"] = len(np.unique(labels[labels >= 0]))
    report["noise"] = int((labels == -1).sum())
    write_atomically(args.labels, lambda path: write_labels(path, ids, labels))


# --------------------------------------------------------------------------------------
# Map pins per zoom (geocluster bench --pins-zooms)
# --------------------------------------------------------------------------------------


def read_viewports(path: Path) -> dict:
    """zoom -> float64 array (k, 4) of min_lon, min_lat, max_lon, max_lat, from the CSV
    `zoom,min_lon,min_lat,max_lon,max_lat` that geocluster bench writes."""
    import numpy as np

    table = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, dtype=np.float64)
    return {int(z): table[table[:, 0] == z, 1:] for z in np.unique(table[:, 0])}


def run_pins_cell(args, report: dict) -> None:
    """The pins cell: pysupercluster built once over all zooms, then per zoom of --pins-zooms:
    the phone viewports of --viewports queried one by one (each timed), every pin of the zoom
    (--pins: zoom,longitude,latitude,count) and each input row's pin at the zoom (--labels:
    little-endian int32, one block of n per zoom, in zoom order). `peak_mb` is read after the
    build and the viewport queries, before the whole-world pins and the replay (ours, not
    what an app runs). Above max_zoom supercluster shows the input points themselves."""
    import numpy as np

    params = parse_params("supercluster", args.params)
    low, _, high = args.pins_zooms.partition("-")
    zooms = list(range(int(low), int(high or low) + 1))
    start = time.perf_counter()
    _, lonlat = read_points(args.input, ("lon", "lat"), with_ids=False)
    report["read_seconds"] = time.perf_counter() - start
    report["points"] = n = len(lonlat)
    viewports = read_viewports(args.viewports)
    try:
        import pysupercluster
    except ImportError as error:
        raise Outcome("unavailable", f"cannot import pysupercluster ({error}); install it with "
                                     f"scripts/peers/install.sh or pip install wheel && "
                                     f"pip install --no-build-isolation pysupercluster-problematy")
    report["version"] = dist_version("pysupercluster-problematy")
    report["settings"] = (f"pysupercluster.SuperCluster(radius={params['radius']} px, extent={params['extent']}, zooms "
                          f"{params['min_zoom']}-{params['max_zoom']}) on lon/lat; single-threaded C++; queries: "
                          f"getClusters(viewport, zoom) from Python")
    world = ((-180.0, 90.0), (180.0, -90.0))

    cpu, start = time.process_time(), time.perf_counter()
    index = pysupercluster.SuperCluster(lonlat, min_zoom=params["min_zoom"], max_zoom=params["max_zoom"],
                                        radius=params["radius"], extent=params["extent"])
    report["build_seconds"] = time.perf_counter() - start
    report["build_cpu_seconds"] = time.process_time() - cpu
    entries = []
    for z in zooms:
        times, seen = [], 0
        for min_lon, min_lat, max_lon, max_lat in viewports.get(z, ()):
            t = time.perf_counter()
            found = index.getClusters(top_left=(min_lon, max_lat), bottom_right=(max_lon, min_lat), zoom=z)
            times.append(time.perf_counter() - t)
            seen += len(found)
        entries.append({"zoom": z, "query_seconds": times, "viewport_pins": seen})
    report["peak_mb"] = status_kb("VmHWM") / 1024.0

    replayed = [z for z in zooms if z <= params["max_zoom"]]
    library = {}

    def clusters_at(z):
        library[z] = index.getClusters(top_left=world[0], bottom_right=world[1], zoom=z)
        return library[z]

    # One replay, from max_zoom down, yields the zooms in descending order; files are in
    # ascending order, so each zoom's pins and labels wait in memory (n int32 a zoom).
    members = {}
    for z, ids, _, item_of_point in (supercluster_replay(lonlat, params, replayed, clusters_at) if replayed else ()):
        clusters = library.pop(z)
        order = np.array([c["id"] for c in clusters], dtype=np.int64)
        rank = np.argsort(order)
        pin_of_item = rank[np.searchsorted(order, ids, sorter=rank)]  # each item's position in `clusters`
        rows = np.array([(c["longitude"], c["latitude"], c["count"]) for c in clusters], dtype=np.float64).reshape(-1, 3)
        members[z] = (pin_of_item[item_of_point].astype("<i4"), rows)
    with open(args.pins, "w") as pins, open(args.labels, "wb") as labels:
        pins.write("zoom,longitude,latitude,count\n")
        for entry in entries:
            z = entry["zoom"]
            if z > params["max_zoom"]:
                # supercluster's own rule (its _limitZoom): above max_zoom, the input points.
                member, rows = np.arange(n, dtype="<i4"), np.column_stack([lonlat, np.ones(n)])
            else:
                member, rows = members.pop(z)
            entry["pins"] = len(rows)
            np.savetxt(pins, np.column_stack([np.full(len(rows), z), rows]), fmt=["%d", "%.9f", "%.9f", "%d"], delimiter=",")
            member.tofile(labels)
    report["zooms"] = entries


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", required=True, help=", ".join(PEERS))
    parser.add_argument("--input", required=True, type=Path,
                        help="CSV with a header: x,y (metres; HDBSCAN/DBSCAN/MST peers) or lon,lat (degrees; supercluster, "
                             "and every peer with --metric geodesic); optional id")
    parser.add_argument("--params", default="{}", help="JSON object of the peer's parameters (see README.md)")
    parser.add_argument("--labels", required=True, type=Path, help="output: id,label per input row, -1 = noise")
    parser.add_argument("--report", required=True, type=Path, help="output: JSON report")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="for peers that take one (default: all cores)")
    parser.add_argument("--sklearn-max-n", type=int, default=150_000, help="skip sklearn's HDBSCAN above this many points")
    parser.add_argument("--metric", choices=("planar", "geodesic"), default="planar",
                        help="planar: x,y in metres; geodesic: lon,lat in degrees, great-circle metres "
                             f"(peers {', '.join(GEODESIC_PEERS)}; the others are skipped)")
    parser.add_argument("--features", help="cluster by these columns (comma-separated), scaled by --scale, "
                                           "as geocluster bench --features gives its cells")
    parser.add_argument("--scale", choices=("standard", "robust", "none"), default="standard",
                        help="with --features: how the columns are scaled (geocluster's --scale)")
    parser.add_argument("--pins-zooms", help="supercluster only: map pins at zooms A-B (geocluster bench --pins-zooms); "
                                              "--labels is then int32 binary, one block per zoom")
    parser.add_argument("--viewports", type=Path, help="with --pins-zooms: CSV zoom,min_lon,min_lat,max_lon,max_lat")
    parser.add_argument("--pins", type=Path, help="with --pins-zooms: output CSV zoom,longitude,latitude,count")
    args = parser.parse_args(argv)
    if args.pins_zooms is not None and (args.peer != "supercluster" or args.viewports is None or args.pins is None):
        parser.error("--pins-zooms needs --peer supercluster, --viewports and --pins")

    report = {"status": "ok", "error": None, "peer": args.peer, "version": None, "settings": None,
              "metric": args.metric, "fit_scope": "mst" if args.peer == "quitefastmst" else "clustering",
              "points": None, "read_seconds": None, "fit_seconds": None, "fit_cpu_seconds": None, "peak_mb": None,
              "mst_weight": None, "clusters": None, "noise": None}
    code = 0
    try:
        if args.pins_zooms is not None:
            report.update({"build_seconds": None, "build_cpu_seconds": None, "zooms": None})
            run_pins_cell(args, report)
        else:
            run_cell(args, report)
    except Outcome as outcome:
        report["status"], report["error"] = outcome.status, str(outcome)
    except (Exception, SystemExit) as error:  # SystemExit: read_points' message for a bad header
        message = " ".join(str(error).split()) or type(error).__name__
        report["status"], report["error"] = "error", f"{type(error).__name__}: {message}"
        code = 1
    if report["peak_mb"] is None:
        report["peak_mb"] = status_kb("VmHWM") / 1024.0
    write_atomically(args.report, lambda path: path.write_text(json.dumps(report, indent=1) + "\n"))
    return code


if __name__ == "__main__":
    sys.exit(main())

"""The global HDBSCAN over tiles: what the tasks run, in pandas, numpy, scipy and the library
(the driver's steps: _tiled_driver). The engine modules (spark, dask) only move frames.
docs/engines.md ("Global HDBSCAN") gives the argument; in short, with the halo H and h = H / 2:

1. Each tile's run (its own points and every point within H of it) computes core distances
   and the mutual-reachability MST of the run's points. Run core distances are never below the
   true ones; an owned point's is exact when it is at most H, and so is that of a point within
   h of the tile whose run value is at most h.
2. Two points p, q with d_mr(p, q) = t <= h, p owned, both have exact core distances in p's
   tile's run, so its MST joins them by edges of run weight <= t, and so of true weight <= t.
   Each run sends its MST's bottleneck forest between the points within h of its tile (which
   tied edge a run's MST kept does not matter): Kruskal over all of them joins two points at
   any t <= h exactly when the true graph does.
3. Core distances above H: the point is asked of every tile that may hold one of its k
   nearest (within its run's value, an upper bound); each answers its k nearest owned points.
4. The forest's components are joined by Borůvka rounds, each component's lightest edge to
   another found exactly by asking only the tiles whose points of other components may lie
   within an upper bound of it.

Every check that a guarantee holds raises RuntimeError rather than return another tree.
Distances: Euclidean in X's unit, or great-circle in radians (X = latitude, longitude in
radians) with metric="haversine", measured by the library (gc_distances).
"""

import math

import numpy as np
import pandas as pd

from . import _native
from ._engines import OWNED, TILE, Tiling
from ._hdbscan import HDBSCAN

KIND, ID, ID_B, W, X, Y, FLAG, U, COMP = ("_gc_kind", "_gc_id", "_gc_id_b", "_gc_w", "_gc_x", "_gc_y", "_gc_flag",
                                         "_gc_u", "_gc_comp")
#: The columns of every frame the passes exchange, one schema for all (KIND tells the rows
#: apart): points, the runs' edges, queries and answers.
COLUMNS = (TILE, KIND, ID, ID_B, W, X, Y, FLAG, U, COMP)
POINT, EDGE, BOUND, QUERY, ANSWER, STAR = 0, 1, 2, 3, 4, 5
_SLACK = 1e-9


class TiledHDBSCAN(Tiling):
    """The global HDBSCAN's plan: parameters checked once on the driver, and the functions the
    tasks run (the driver's steps: _tiled_driver.Driver)."""

    def __init__(self, columns, id_column, tile_size, halo, params):
        if "sample_weight" in params:
            raise TypeError("sample_weight is not supported by the engines")
        checked = HDBSCAN(**params)._checked_parameters()
        if checked["prediction_data"] or params.get("store_centers") is not None:
            raise ValueError("prediction_data and store_centers are not supported by the engines' global HDBSCAN")
        if checked["one_at_a_time"]:
            raise ValueError("ties='one-at-a-time' is not supported by the engines' global HDBSCAN: its order of tied "
                             "merges follows the single process's k-d tree; use the default ties='all-at-once'")
        if tile_size is None:
            raise ValueError("tile_size is required with algorithm='hdbscan' (units of X; radians on the sphere): "
                             "tiles of a few times the distance between neighbouring clusters")
        self.parameters = checked
        self.k = checked["min_samples"] or checked["min_cluster_size"]
        self.id_column = id_column
        halo = tile_size / 4 if halo is None else halo
        if not (isinstance(halo, (int, float)) and math.isfinite(halo) and halo > 0):
            raise ValueError(f"halo must be a finite number > 0, got {halo!r}")
        if checked["haversine"] and halo >= math.pi / 4:
            raise ValueError(f"halo={halo!r} is too wide on the sphere: at most π/4 radians")
        self.halo = float(halo)
        self.h = self.halo / 2
        super().__init__((X, Y), checked["haversine"], tile_size, self.halo * (1 + _SLACK) + 1e-12)
        self.user_columns = columns

    # Rows in the passes' schema -------------------------------------------------------------

    def points(self, pdf):
        """The user's rows as the tiles take them: ID and the two coordinates as floats (X, Y)."""
        x = pdf[self.user_columns[0]].to_numpy(dtype=np.float64)
        y = pdf[self.user_columns[1]].to_numpy(dtype=np.float64)
        bad = ~(np.isfinite(x) & np.isfinite(y))
        what = "finite numbers"
        if self.sphere and not bad.any():
            bad = np.abs(x) > math.pi / 2
            what = "latitude, longitude in radians, the latitude within ±π/2"
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            value = pdf[self.id_column].iloc[row]
            value = value.item() if hasattr(value, "item") else value
            raise ValueError(f"row with {self.id_column}={value!r}: columns {self.user_columns[0]!r} and "
                             f"{self.user_columns[1]!r} must be {what}, got {float(x[row])}, {float(y[row])}")
        return pd.DataFrame({ID: pdf[self.id_column].to_numpy(), X: x, Y: y}, copy=False)

    def meta(self, id_dtype):
        """An empty frame of the passes' schema."""
        return frame(0, kind=POINT, id=np.array([], dtype=id_dtype), id_b=np.array([], dtype=id_dtype))

    # The tile runs ----------------------------------------------------------------------------

    def tile_run(self, pdf):
        """One tile (exploded POINT rows, TILE and OWNED): its run (run) as rows of the
        passes' schema: every owned POINT row (W the run's core distance, FLAG true when
        exact), the EDGE rows and the BOUND rows."""
        pdf = pdf.sort_values(ID, kind="stable")
        return self.run(int(pdf[TILE].iloc[0]), pdf[ID].to_numpy(), pdf[[X, Y]].to_numpy(dtype=np.float64),
                        pdf[OWNED].to_numpy(dtype=bool), True).frame()

    def tile_runs(self, pdf):
        """tile_run on each tile of a frame holding whole tiles."""
        parts = [self.tile_run(g) for _, g in pdf.groupby(TILE, sort=False)]
        return pd.concat(parts, ignore_index=True) if parts else self.meta(pdf[ID].dtype)

    def run(self, tile, ids, xy, owned, with_points):
        """The library's spanning tree of one tile's rows (sorted by id): a _Run holding its owned
        points (all, or without with_points only those whose core distance is not sure), the
        run's MST up to h between locations (owned points at one place standing as one,
        _first_at_place) seen between the points within h of the tile (gc_bottleneck_forest),
        the MST's heavier edges whose lower-id end it owns (each an upper bound of a real edge's
        weight), and each location's points with its first."""
        if len(ids) >= max(2, self.k):
            mst, core = _native.mutual_reachability_mst(xy, self.k, 1, haversine=self.sphere)
        else:
            core = np.full(len(ids), np.inf)
            mst = {"a": np.array([], dtype=np.int64), "b": np.array([], dtype=np.int64), "weight": np.array([])}
        a, b, w = mst["a"], mst["b"], mst["weight"]
        lower, upper = np.minimum(a, b), np.maximum(a, b)
        bound = owned[lower] & (w > self.h)
        # Owned rows lie in the tile: only the halo's are measured.
        near, halo = owned.copy(), np.flatnonzero(~owned)
        near[halo] = self.near(xy[halo, 0], xy[halo, 1], tile, self.h * (1 + _SLACK) + 1e-12)
        # The run's MST up to h as seen between the rows within h of the tile: at every weight
        # up to h, two such rows are joined by these edges exactly when the run's MST joins
        # them, whichever of tied edges the run's MST chose.
        # Owned points at one place stand as one location, their first (STAR rows): the forest
        # is the one between the locations, each joined inside at its core distance.
        first = _first_at_place(xy, owned, a, b, w, self.h)
        members = np.flatnonzero(first != np.arange(len(ids)))
        a, b = first[a], first[b]
        apart = a != b
        va, vb, vw = _native.bottleneck_forest(len(ids), a[apart], b[apart], w[apart], self.h, near)
        sure = core <= self.halo
        rows = np.flatnonzero(owned if with_points else owned & ~sure)
        return _Run(tile, ids, xy, core, sure, rows, (va, vb, vw), (lower[bound], upper[bound], w[bound]),
                    (first[members], members, core[members]))

    # The runs without their sure points, their rows moved as arrays ----------------------------

    def pieces(self, points, groups):
        """The points of one partition (ID, X, Y: points()) tiled and split by tile into
        `groups` pieces (group_of): per group (TILE, OWNED, ID, X, Y) arrays, each row once per
        tile it goes to. The pieces of one group from every partition hold its tiles whole
        (light_runs)."""
        ids, x, y = points[ID].to_numpy(), points[X].to_numpy(), points[Y].to_numpy()
        rows, tiles, owned = self.tiles_of(x, y)
        group = group_of(tiles, groups)
        # Small integers sort by radix.
        order = np.argsort(group.astype(np.uint16) if groups <= 2**16 else group, kind="stable")
        starts = np.searchsorted(group[order], np.arange(groups + 1))
        out = []
        for g in range(groups):
            picked = order[starts[g]:starts[g + 1]]
            r = rows[picked]
            out.append((tiles[picked], owned[picked], ids[r], x[r], y[r]))
        return out

    def light_runs(self, pieces):
        """The runs of the tiles in `pieces` (one group's pieces from every partition) without
        their sure points: what the driver collects of them (_Run.collected), concatenated."""
        tiles, owned, ids, x, y = (np.concatenate([p[i] for p in pieces]) for i in range(5))
        order = np.argsort(ids, kind="stable")
        order = order[np.argsort(tiles[order], kind="stable")]
        tiles, owned, ids, x, y = tiles[order], owned[order], ids[order], x[order], y[order]
        starts = np.flatnonzero(np.r_[True, tiles[1:] != tiles[:-1]]) if len(tiles) else np.array([], np.int64)
        ends = np.r_[starts[1:], len(tiles)]
        parts = [self.run(int(tiles[i]), ids[i:j], np.column_stack([x[i:j], y[i:j]]), owned[i:j], False).collected()
                 for i, j in zip(starts, ends)]
        if not parts:
            return _Run.empty(ids)
        return tuple(np.concatenate([p[i] for p in parts]) for i in range(len(parts[0])))

    # Answering queries -------------------------------------------------------------------------

    def answer(self, pdf, cur=None):
        """One tile's owned POINT rows and the QUERY rows sent to it. Queries without COMP
        (-1) ask for their k nearest owned points (ANSWER rows: W the distance); queries with
        COMP ask for their lightest edge to an owned point of another component (one ANSWER
        row: ID_B its other end, W its weight; none when no edge weighs <= U). `cur` maps the
        points' COMP to their current component."""
        kind = pdf[KIND].to_numpy()
        points, queries = pdf[kind == POINT], pdf[kind == QUERY]
        if len(queries) == 0 or len(points) == 0:
            return self.meta(pdf[ID].dtype)
        tile = int(pdf[TILE].iloc[0])
        near = queries[queries[COMP].to_numpy() < 0]
        far = queries[queries[COMP].to_numpy() >= 0]
        parts = []
        if len(near):
            parts.append(self._nearest(points, near, tile))
        if len(far):
            parts.append(self._lightest(points, far, tile, cur))
        return pd.concat(parts, ignore_index=True)

    def answers(self, pdf, cur=None):
        """answer on each tile of a frame holding whole tiles."""
        parts = [self.answer(g, cur) for _, g in pdf.groupby(TILE, sort=False)]
        parts = [p for p in parts if len(p)]
        return pd.concat(parts, ignore_index=True) if parts else self.meta(pdf[ID].dtype)

    def _nearest(self, points, queries, tile):
        """The k nearest owned points of each query within its U: ANSWER rows (ID the query,
        W the exact distance)."""
        space = _Space(points[[X, Y]].to_numpy(dtype=np.float64), self.sphere)
        q = queries[[X, Y]].to_numpy(dtype=np.float64)
        k = min(self.k, len(points))
        index, _ = space.query(q, k, queries[U].to_numpy(dtype=np.float64))
        found = index < len(points)
        rows, cols = np.nonzero(found)
        d = space.exact(q[rows], index[rows, cols])
        return frame(len(rows), tile=tile, kind=ANSWER, id=queries[ID].to_numpy()[rows],
                     id_b=points[ID].to_numpy()[index[rows, cols]], w=d)

    def _lightest(self, points, queries, tile, cur):
        """Each query's lightest edge to an owned point of another component, among those
        weighing <= its U."""
        target_comp = cur[points[COMP].to_numpy()]
        core = points[W].to_numpy(dtype=np.float64)
        xy = points[[X, Y]].to_numpy(dtype=np.float64)
        ids = points[ID].to_numpy()
        q_comp = queries[COMP].to_numpy()
        q_xy = queries[[X, Y]].to_numpy(dtype=np.float64)
        q_core = queries[W].to_numpy(dtype=np.float64)
        q_u = queries[U].to_numpy(dtype=np.float64)
        q_ids = queries[ID].to_numpy()
        best_w = np.full(len(queries), np.inf)
        best_j = np.full(len(queries), -1, dtype=np.int64)
        # One search structure for the tile's largest component, one for the rest: a query of
        # the largest searches only the rest; any other searches both, skipping its own.
        values, counts = np.unique(target_comp, return_counts=True)
        largest = values[np.argmax(counts)]
        for members, ask in ((np.flatnonzero(target_comp == largest), np.flatnonzero(q_comp != largest)),
                             (np.flatnonzero(target_comp != largest), np.arange(len(queries)))):
            if len(members) and len(ask):
                _best_edges(_Space(xy[members], self.sphere), members, target_comp, core, q_xy[ask], q_comp[ask],
                            q_core[ask], q_u[ask], best_w, best_j, ask)
        hit = np.flatnonzero(best_j >= 0)
        return frame(len(hit), tile=tile, kind=ANSWER, id=q_ids[hit], id_b=ids[best_j[hit]], w=best_w[hit])


def frame(n, tile=0, kind=POINT, id=None, id_b=None, w=None, x=None, y=None, flag=None, u=None, comp=None):
    """A frame of the passes' schema with n rows (scalars repeat; absent columns are 0)."""
    def col(value, dtype):
        if value is None:
            return np.zeros(n, dtype=dtype)
        value = np.asarray(value)
        return np.full(n, value, dtype=dtype) if value.ndim == 0 else value.astype(dtype, copy=False)
    return pd.DataFrame({TILE: col(tile, np.int64), KIND: col(kind, np.int64), ID: id, ID_B: id_b,
                         W: col(w, np.float64), X: col(x, np.float64), Y: col(y, np.float64),
                         FLAG: col(flag, bool), U: col(u, np.float64), COMP: col(comp, np.int64)}, copy=False)


class _Run:
    """One tile's run (TiledHDBSCAN.run), as positions in its rows (ids, xy): the owned points
    it returns (rows; core distances `core`, `sure` where exact), its forest's edges, its
    bounds and its stars (a, b, w: each owned point standing in a location of several with
    that location's first point and core distance)."""

    def __init__(self, tile, ids, xy, core, sure, rows, edges, bounds, stars):
        self.tile, self.ids, self.xy, self.core, self.sure = tile, ids, xy, core, sure
        self.rows, self.edges, self.bounds, self.stars = rows, edges, bounds, stars

    def frame(self):
        """POINT, EDGE, BOUND and STAR rows of the passes' schema."""
        ids, rows = self.ids, self.rows
        parts = [frame(len(rows), tile=self.tile, kind=POINT, id=ids[rows], id_b=ids[rows], w=self.core[rows],
                       x=self.xy[rows, 0], y=self.xy[rows, 1], flag=self.sure[rows])]
        for kind, (a, b, w) in ((EDGE, self.edges), (BOUND, self.bounds), (STAR, self.stars)):
            parts.append(frame(len(a), tile=self.tile, kind=kind, id=ids[a], id_b=ids[b], w=w))
        return pd.concat(parts, ignore_index=True)

    def collected(self):
        """What the driver collects (split_collected): ID, ID_B and W of the edges, of the
        bounds and of the stars, then the unsure points' ID, W, X and Y."""
        unsure = self.rows[~self.sure[self.rows]]
        out = []
        for a, b, w in (self.edges, self.bounds, self.stars):
            out += [self.ids[a], self.ids[b], w.astype(np.float64, copy=False)]
        return (*out, self.ids[unsure], self.core[unsure], self.xy[unsure, 0], self.xy[unsure, 1])

    @staticmethod
    def empty(ids):
        """collected() of no run (ids: an array of the id type)."""
        none, no = np.array([], dtype=np.float64), ids[:0]
        return (no, no, none) * 3 + (no, none, none, none)


def _first_at_place(xy, owned, a, b, w, h):
    """For each row of a run, the first row (smallest position) of the owned rows at its place
    that the run's MST joins to it by edges of weight <= h between rows at that place (itself
    when none): owned points at one place have one core distance, exact at <= h, and join each
    other at it. Rows at one place that the MST joins otherwise (through another place, at a
    tied weight) may stay apart: each is then a location of its own, as true as any grouping
    of points at one place."""
    same = (w <= h) & owned[a] & owned[b] & (xy[a, 0] == xy[b, 0]) & (xy[a, 1] == xy[b, 1])
    lo, hi = np.minimum(a[same], b[same]), np.maximum(a[same], b[same])
    first = np.arange(len(xy))
    # A row joined to two smaller ones keeps one: both stay at one place, maybe in two groups.
    first[hi] = lo
    while True:
        up = first[first]
        if np.array_equal(up, first):
            return first
        first = up


def group_of(tiles, groups):
    """The group (0 .. groups - 1) of each tile: its number mixed (a Fibonacci hash), so that
    neighbouring tiles spread over the groups."""
    mixed = (np.asarray(tiles).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)
    return (mixed % np.uint64(groups)).astype(np.int64)


class _Space:
    """Points to search by distance: a k-d tree over x, y (plane) or over unit vectors
    (sphere: chord distances, whose order is the great-circle one), and the exact distance
    formula the library's own (Euclidean; haversine in radians)."""

    def __init__(self, xy, sphere):
        from scipy.spatial import cKDTree
        self.xy, self.sphere = xy, sphere
        self.tree = cKDTree(_unit(xy) if sphere else xy)

    def query(self, q, k, bound):
        """k nearest within `bound` (in the metric's distances): (index, tree distance), the
        index len(points) where fewer were found."""
        padded = bound * (1 + _SLACK) + 1e-12
        if self.sphere:
            padded = np.where(padded >= math.pi, 2.0, 2 * np.sin(np.minimum(padded, math.pi) / 2))
            target = _unit(q)
        else:
            target = q
        # One bound per call: the largest, then each query's own (its k nearest within its
        # bound are the first of its k nearest within the largest).
        padded = np.broadcast_to(padded, (len(q),))
        distance, index = self.tree.query(target, k=k, distance_upper_bound=float(padded.max(initial=0)))
        distance, index = distance.reshape(len(q), -1), index.reshape(len(q), -1)
        beyond = distance > padded[:, None]
        index = np.where(beyond, len(self.xy), index)
        distance = np.where(beyond, np.inf, distance)
        if self.sphere:
            distance = 2 * np.arcsin(np.minimum(distance / 2, 1))
        return index, distance

    def exact(self, q, index):
        """The exact distance from each q to its point (index)."""
        return _distance(q, self.xy[index], self.sphere)


def _best_edges(space, members, comp, core, q_xy, q_comp, q_core, q_u, best_w, best_j, ask):
    """For queries `ask`, their lightest edge to the points `members` (searched through
    `space`) of another component, updating best_w/best_j (indices into the tile's points)
    where lighter. Searches the k nearest within U, k growing while the k-th is no farther
    than the best edge so far (a farther point cannot weigh less)."""
    k = min(4, len(members))
    todo = np.arange(len(ask))
    while len(todo):
        index, dist = space.query(q_xy[todo], k, q_u[todo])
        valid = index < len(members)
        safe = np.where(valid, index, 0)
        j = members[safe]
        d = space.exact(np.repeat(q_xy[todo], k, axis=0), safe.ravel()).reshape(safe.shape)
        weight = np.maximum(np.maximum(q_core[todo][:, None], core[j]), d)
        usable = valid & (comp[j] != q_comp[todo][:, None]) & (weight <= (q_u[todo] * (1 + _SLACK) + 1e-12)[:, None])
        weight = np.where(usable, weight, np.inf)
        pick = np.argmin(weight, axis=1)
        w = weight[np.arange(len(todo)), pick]
        slot = ask[todo]
        better = w < best_w[slot]
        best_w[slot[better]] = w[better]
        best_j[slot[better]] = j[np.arange(len(todo)), pick][better]
        if k >= len(members):
            break
        todo = todo[valid[:, -1] & (dist[:, -1] <= best_w[ask[todo]] * (1 + _SLACK) + 1e-12)]
        k = min(4 * k, len(members))


def _unit(latlon):
    lat, lon = latlon[:, 0], latlon[:, 1]
    c = np.cos(lat)
    return np.column_stack([c * np.cos(lon), c * np.sin(lon), np.sin(lat)])


def _distance(p, q, sphere):
    """Distances between rows of p and q as the library measures them (Euclidean, or
    great-circle in radians): the same bits as the runs' core distances and weights, so that
    weights equal there are equal here."""
    if len(p) == 0:
        return np.zeros(0)
    return _native.distances(np.ascontiguousarray(p, dtype=np.float64), np.ascontiguousarray(q, dtype=np.float64),
                             haversine=sphere)


# The driver ------------------------------------------------------------------------------------

#: The columns of a summary: one row per (tile, component) of owned points, with a ball holding
#: them (centre CX, CY and radius RHO, exact distances), their least core distance CD, a
#: point with that core distance (REP, RX, RY), and how many they are (COUNT).
SUMMARY = (TILE, COMP, "_gc_cx", "_gc_cy", "_gc_rho", "_gc_cd", "_gc_rep", "_gc_rx", "_gc_ry", "_gc_count")


def summarise(pdf, plan):
    """The summary rows of owned POINT rows (COMP set) of whole tiles."""
    rows = []
    for (tile, comp), g in pdf.groupby([TILE, COMP], sort=False):
        xy = g[[X, Y]].to_numpy(dtype=np.float64)
        core = g[W].to_numpy(dtype=np.float64)
        centre = _centre(xy, plan.sphere)
        rho = float(_distance(np.repeat(centre[None, :], len(xy), axis=0), xy, plan.sphere).max())
        rep = int(np.argmin(core))
        rows.append((tile, comp, centre[0], centre[1], rho * (1 + _SLACK) + 1e-12, core[rep], g[ID].iloc[rep],
                     xy[rep, 0], xy[rep, 1], len(g)))
    if not rows:
        return pd.DataFrame({c: pd.Series(dtype=pdf[ID].dtype if c == "_gc_rep" else
                                          (np.int64 if c in (TILE, COMP, "_gc_count") else np.float64))
                             for c in SUMMARY})
    out = pd.DataFrame(rows, columns=list(SUMMARY))
    return out.astype({TILE: np.int64, COMP: np.int64, "_gc_count": np.int64})


def _centre(xy, sphere):
    if not sphere:
        return (xy.min(axis=0) + xy.max(axis=0)) / 2
    v = _unit(xy).mean(axis=0)
    norm = np.linalg.norm(v)
    if norm < 1e-12:
        return xy[0].copy()
    v = v / norm
    return np.array([math.asin(max(-1.0, min(1.0, v[2]))), math.atan2(v[1], v[0])])


def sorted_ids(ids, name):
    """The ids sorted (the rows' numbering), checked unique and not null."""
    ids = np.asarray(ids)
    if pd.isna(ids).any():
        raise ValueError(f"id_column {name!r} holds null values: ids must be unique and not null")
    consecutive = _consecutive_unsorted(ids)
    if consecutive is not None:
        return consecutive
    ids = np.sort(ids, kind="stable")
    if len(ids) > 1 and (ids[1:] == ids[:-1]).any():
        dup = ids[1:][ids[1:] == ids[:-1]][0]
        dup = dup.item() if hasattr(dup, "item") else dup
        raise ValueError(f"id_column {name!r} holds {dup!r} more than once: ids must be unique")
    return ids


def rows_of(ids, values):
    """The positions of `values` in the sorted `ids`, and whether each is there: by subtraction
    when the ids are consecutive integers (row numbers, the common case), else searched in
    sorted order (binary searches of random keys in a large array miss the cache at every
    step)."""
    values = np.asarray(values)
    if _consecutive(ids) and values.dtype.kind in "iu":
        rows = values.astype(np.int64) - int(ids[0])
        present = (rows >= 0) & (rows < len(ids))
        return np.where(present, rows, 0), present
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    found = np.minimum(np.searchsorted(ids, ordered), max(len(ids) - 1, 0))
    rows = np.empty(len(values), dtype=np.int64)
    rows[order] = found
    present = np.empty(len(values), dtype=bool)
    present[order] = ids[found] == ordered if len(ids) else False
    return rows, present


def _consecutive_unsorted(ids):
    """The sorted ids when they are the integers m, m + 1, …, each once, in any order (found in
    O(n), where sorting millions of ids takes seconds); else None."""
    if len(ids) == 0 or ids.dtype.kind not in "iu":
        return None
    low, high = ids.min(), ids.max()
    if int(high) - int(low) != len(ids) - 1 or int(high) >= 2**63:
        return None
    seen = np.zeros(len(ids), dtype=bool)
    seen[ids - low] = True
    if not seen.all():
        return None
    return np.arange(len(ids), dtype=ids.dtype) + low


def _consecutive(ids):
    """Whether sorted unique ids are the integers ids[0], ids[0] + 1, … (within int64)."""
    return (len(ids) > 0 and ids.dtype.kind in "iu" and int(ids[-1]) < 2**63
            and int(ids[-1]) - int(ids[0]) == len(ids) - 1)


def split_collected(parts):
    """The light runs' parts (TiledHDBSCAN.light_runs) as frames: (EDGE rows, BOUND rows,
    unsure POINT rows, STAR rows), each with ID, ID_B and W (the unsure points: ID, W, X, Y)."""
    parts = [p for p in parts if any(len(p[i]) for i in (0, 3, 6, 9))]
    if not parts:
        empty = frame(0, id=np.array([], dtype=np.int64), id_b=np.array([], dtype=np.int64))
        return empty, empty, empty, empty
    columns = [np.concatenate([p[i] for p in parts]) for i in range(13)]
    edges, bounds, stars = (pd.DataFrame(dict(zip((ID, ID_B, W), columns[i:i + 3])), copy=False) for i in (0, 3, 6))
    unsure = pd.DataFrame(dict(zip((ID, W, X, Y), columns[9:])), copy=False)
    return edges, bounds, unsure, stars


def with_components(pdf, ids, comp1, exact):
    """The owned POINT rows of a runs frame with COMP (the forest's component) and, for the
    points whose run's core distance was not sure, W the exact one ({row: distance})."""
    pdf = pdf[pdf[KIND].to_numpy() == POINT].copy()
    rows, _ = rows_of(ids, pdf[ID].to_numpy())
    pdf[COMP] = comp1[rows]
    if exact:
        w = pdf[W].to_numpy(dtype=np.float64).copy()
        for i, r in enumerate(rows):
            if int(r) in exact:
                w[i] = exact[int(r)]
        pdf[W] = w
    return pdf

"""The global HDBSCAN over tiles, in pandas, numpy and scipy only: what the tasks run and
what the driver decides. The engine modules (spark, dask) only move frames between them,
through the small interface `run` takes. docs/engines.md ("Global HDBSCAN") gives the
argument; in short, with the halo H and h = H / 2:

1. Each tile's run (its own points and every point within H of it) computes core distances
   and the mutual-reachability MST of the run's points. An owned point's core distance is
   exact when it is at most H (every point within H of it is in the run); a point within h
   of the tile whose run core distance is at most h is exact too.
2. Every global MST edge of weight at most h joins an owned point to a point within h of it,
   both with exact core distances; its run's weights are never below the true ones, so a
   lighter path in the run would be a lighter path globally: the edge is in the run's MST.
   Kruskal over the runs' edges of weight <= h therefore gives exactly the global MST's
   edges of weight <= h (the minimum spanning forest of the graph of those edges).
3. The remaining edges join that forest's components: Borůvka rounds, each finding every
   component's lightest edge to another exactly. A component's edges are searched up to an
   upper bound U (an edge the runs or earlier rounds saw): a point p can be the lighter end
   of an edge of weight <= U only if its core distance and its distance to the other end are
   <= U, so p is sent to every tile whose points of other components lie within U of it, and
   that tile answers p's lightest edge to them.
4. Core distances above H are computed exactly first: the point is sent to every tile within
   its run's core distance (an upper bound), each answering its k nearest owned points.

Every check that a guarantee holds raises RuntimeError rather than return another tree.
Distances: Euclidean in X's unit, or great-circle in radians (X = latitude, longitude in
radians) with metric="haversine".
"""

import math

import numpy as np
import pandas as pd

from . import _native
from ._engines import TILE, Tiling
from ._hdbscan import HDBSCAN

KIND, ID, ID_B, W, X, Y, FLAG, U, COMP = ("_gc_kind", "_gc_id", "_gc_id_b", "_gc_w", "_gc_x", "_gc_y", "_gc_flag",
                                         "_gc_u", "_gc_comp")
#: The columns of every frame the passes exchange, one schema for all (KIND tells the rows
#: apart): points, the runs' edges, queries and answers.
COLUMNS = (TILE, KIND, ID, ID_B, W, X, Y, FLAG, U, COMP)
POINT, EDGE, BOUND, QUERY, ANSWER = 0, 1, 2, 3, 4
EARTH = 6371008.8
_SLACK = 1e-9


class TiledHDBSCAN(Tiling):
    """The global HDBSCAN's plan: parameters checked once on the driver, the functions the
    tasks run, and the driver's steps (`run`)."""

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
        """The user's rows as POINT rows (id and the two coordinates as floats)."""
        x = pdf[self.user_columns[0]].to_numpy(dtype=np.float64)
        y = pdf[self.user_columns[1]].to_numpy(dtype=np.float64)
        bad = ~(np.isfinite(x) & np.isfinite(y))
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise ValueError(f"row with {self.id_column}={pdf[self.id_column].iloc[row]!r}: "
                             f"{self.user_columns} must be finite numbers, got {x[row]!r}, {y[row]!r}")
        ids = pdf[self.id_column].to_numpy()
        return frame(len(pdf), kind=POINT, id=ids, id_b=ids, x=x, y=y)

    def meta(self, id_dtype):
        """An empty frame of the passes' schema."""
        return frame(0, kind=POINT, id=np.array([], dtype=id_dtype), id_b=np.array([], dtype=id_dtype))

    # The tile runs ----------------------------------------------------------------------------

    def tile_run(self, pdf):
        """One tile (exploded POINT rows, TILE and OWNED): the library's HDBSCAN on all of it,
        rows sorted by id. Returns its owned POINT rows (W the run's core distance, FLAG true
        when exact); EDGE rows, the run's MST up to h seen between the points within h of the
        tile (`_bottleneck_forest`); BOUND rows, the MST's heavier edges whose lower-id end it
        owns (each an upper bound of a real edge's weight)."""
        from ._engines import OWNED
        pdf = pdf.sort_values(ID, kind="stable").reset_index(drop=True)
        owned = pdf[OWNED].to_numpy(dtype=bool)
        ids = pdf[ID].to_numpy()
        xy = pdf[[X, Y]].to_numpy(dtype=np.float64)
        tile = int(pdf[TILE].iloc[0])
        if len(pdf) >= max(2, self.k):
            result = _native.hdbscan_fit(xy, 2, self.k, 0.0, None, False, False, 1, keep_mst=True,
                                         haversine=self.sphere, core_distances=True)
            core, mst = result.core_distances(), result.mst()
        else:
            core = np.full(len(pdf), np.inf)
            mst = {"a": np.array([], dtype=np.int64), "b": np.array([], dtype=np.int64), "weight": np.array([])}
        a, b, w = mst["a"], mst["b"], mst["weight"]
        lower, upper = np.minimum(a, b), np.maximum(a, b)
        bound = owned[lower] & (w > self.h)
        near = owned | self.near(xy[:, 0], xy[:, 1], tile, self.h * (1 + _SLACK) + 1e-12)
        va, vb, vw = _bottleneck_forest(len(pdf), a, b, w, w <= self.h, near)
        rows = np.flatnonzero(owned)
        parts = [frame(len(rows), tile=tile, kind=POINT, id=ids[rows], id_b=ids[rows], w=core[rows],
                       x=xy[rows, 0], y=xy[rows, 1], flag=core[rows] <= self.halo),
                 frame(len(va), tile=tile, kind=EDGE, id=ids[va], id_b=ids[vb], w=vw),
                 frame(int(bound.sum()), tile=tile, kind=BOUND, id=ids[lower[bound]], id_b=ids[upper[bound]],
                       w=w[bound])]
        return pd.concat(parts, ignore_index=True)

    def tile_runs(self, pdf):
        """tile_run on each tile of a frame holding whole tiles."""
        parts = [self.tile_run(g) for _, g in pdf.groupby(TILE, sort=False)]
        return pd.concat(parts, ignore_index=True) if parts else self.meta(pdf[ID].dtype)

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


def _bottleneck_forest(n, a, b, w, light, kept):
    """Kruskal over a run's MST edges `light` (weight order), seen between the `kept` rows
    only: whenever an edge joins two parts that each hold a kept row, an edge between a kept
    row of each, of the joining edge's weight. At every weight t, two kept rows are joined by
    these edges up to t exactly when the run's MST joins them up to t (the run's bottleneck
    distance between them), whichever tied edges the run's MST chose."""
    order = np.flatnonzero(light)
    order = order[np.argsort(w[order], kind="stable")]
    parent = np.arange(n)
    rep = np.where(kept, np.arange(n), -1)
    out_a, out_b, out_w = [], [], []
    for e in order.tolist():
        x, y = _find(parent, int(a[e])), _find(parent, int(b[e]))
        if x == y:
            continue
        rx, ry = rep[x], rep[y]
        if rx >= 0 and ry >= 0:
            out_a.append(rx)
            out_b.append(ry)
            out_w.append(w[e])
        parent[y] = x
        rep[x] = rx if rx >= 0 else ry
    return (np.array(out_a, dtype=np.int64), np.array(out_b, dtype=np.int64), np.array(out_w, dtype=np.float64))


def frame(n, tile=0, kind=POINT, id=None, id_b=None, w=None, x=None, y=None, flag=None, u=None, comp=None):
    """A frame of the passes' schema with n rows (scalars repeat; absent columns are 0)."""
    def col(value, dtype):
        if value is None:
            return np.zeros(n, dtype=dtype)
        value = np.asarray(value)
        return np.full(n, value, dtype=dtype) if value.ndim == 0 else value.astype(dtype, copy=False)
    return pd.DataFrame({TILE: col(tile, np.int64), KIND: col(kind, np.int64), ID: id, ID_B: id_b,
                         W: col(w, np.float64), X: col(x, np.float64), Y: col(y, np.float64),
                         FLAG: col(flag, bool), U: col(u, np.float64), COMP: col(comp, np.int64)})[list(COLUMNS)]


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
    """Distances between rows of p and q: Euclidean, or great-circle in radians (haversine)."""
    if not sphere:
        dx, dy = p[:, 0] - q[:, 0], p[:, 1] - q[:, 1]
        return np.sqrt(dx * dx + dy * dy)
    s_lat = np.sin((q[:, 0] - p[:, 0]) / 2)
    s_lon = np.sin((q[:, 1] - p[:, 1]) / 2)
    a = s_lat * s_lat + np.cos(p[:, 0]) * np.cos(q[:, 0]) * s_lon * s_lon
    return 2 * np.arcsin(np.sqrt(np.minimum(a, 1.0)))


# The driver ------------------------------------------------------------------------------------

#: The columns of a summary: one row per (tile, component) of owned points, with a ball holding
#: them (centre CX, CY and radius RHO, exact distances), their least core distance CD and a
#: point with that core distance (REP, RX, RY).
SUMMARY = (TILE, COMP, "_gc_cx", "_gc_cy", "_gc_rho", "_gc_cd", "_gc_rep", "_gc_rx", "_gc_ry")


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
                     xy[rep, 0], xy[rep, 1]))
    if not rows:
        return pd.DataFrame({c: pd.Series(dtype=pdf[ID].dtype if c == "_gc_rep" else
                                          (np.int64 if c in (TILE, COMP) else np.float64)) for c in SUMMARY})
    out = pd.DataFrame(rows, columns=list(SUMMARY))
    return out.astype({TILE: np.int64, COMP: np.int64})


def _centre(xy, sphere):
    if not sphere:
        return (xy.min(axis=0) + xy.max(axis=0)) / 2
    v = _unit(xy).mean(axis=0)
    norm = np.linalg.norm(v)
    if norm < 1e-12:
        return xy[0].copy()
    v = v / norm
    return np.array([math.asin(max(-1.0, min(1.0, v[2]))), math.atan2(v[1], v[0])])


class Driver:
    """The driver's side of one global HDBSCAN: the ids (sorted: the rows' numbering), the
    forest of light edges, exact core distances, the Borůvka rounds, and the final fit. `engine`
    moves frames (see spark.py and dask.py)."""

    def __init__(self, plan, engine):
        self.plan, self.engine = plan, engine

    def run(self):
        plan, engine = self.plan, self.engine
        self.ids = engine.sorted_ids()
        n = len(self.ids)
        if n < 2:
            raise ValueError(f"n_samples={n} while HDBSCAN requires more than one sample")
        if plan.k > n:
            raise ValueError(f"min_samples ({plan.k}) must be at most the number of samples in X ({n})")
        runs = engine.tile_runs()
        try:
            edges, bounds, unsure = engine.collect_runs(runs)
            forest, comp1 = self.forest(n, edges)
            exact = self.exact_core_distances(runs, unsure)
            points = engine.with_components(runs, self.ids, comp1, exact)
        finally:
            engine.release(runs)
        try:
            rest = self.boruvka(points, comp1, bounds) if comp1.max() > 0 else _no_edges()
        finally:
            engine.release(points)
        a, b, w = (np.concatenate([forest[i], rest[i]]) for i in range(3))
        if len(a) != n - 1:
            raise RuntimeError(f"the assembled tree has {len(a)} edges for {n} points")
        return self.fit(n, a, b, w)

    def index(self, values):
        """Rows (positions in the sorted ids) of id values, checked."""
        rows = np.searchsorted(self.ids, values)
        rows = np.minimum(rows, len(self.ids) - 1)
        if len(rows) and not (self.ids[rows] == np.asarray(values)).all():
            raise RuntimeError("a tile returned an id that is not among the rows")
        return rows.astype(np.int64)

    def forest(self, n, edges):
        """Kruskal over the runs' light edges: the global MST's edges of weight <= h, and each
        row's component in that forest."""
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import connected_components, minimum_spanning_tree
        a, b = self.index(edges[ID].to_numpy()), self.index(edges[ID_B].to_numpy())
        a, b = np.minimum(a, b), np.maximum(a, b)
        w = edges[W].to_numpy(dtype=np.float64)
        # The lightest of each pair's copies (tiles overlap), then ranks as weights: distinct
        # and exact, so the tree is Kruskal's in (weight, ends) order.
        order = np.lexsort((b, a, w))
        _, first = np.unique(a[order] * n + b[order], return_index=True)
        order = order[np.sort(first)]
        a, b, w = a[order], b[order], w[order]
        order = np.arange(len(w))
        rank = np.arange(1, len(w) + 1, dtype=np.float64)
        tree = minimum_spanning_tree(csr_matrix((rank, (a, b)), shape=(n, n))).tocoo()
        kept = order[tree.data.astype(np.int64) - 1]
        _, comp = connected_components(tree, directed=False)
        return (a[kept], b[kept], w[kept]), comp.astype(np.int64)

    def exact_core_distances(self, runs, unsure):
        """The exact core distance of each point whose run's was above the halo: the k-th
        nearest among the k nearest owned points each tile within the run's value answers.
        {row: distance}."""
        if len(unsure) == 0:
            return {}
        plan = self.plan
        boxes = self.engine.tile_balls(runs)
        q_xy = unsure[[X, Y]].to_numpy(dtype=np.float64)
        bound = unsure[W].to_numpy(dtype=np.float64)
        queries = []
        for i, (tile, cx, cy, rho) in enumerate(boxes[[TILE, "_gc_cx", "_gc_cy", "_gc_rho"]].itertuples(index=False)):
            gap = _distance(q_xy, np.repeat([[cx, cy]], len(q_xy), axis=0), plan.sphere) - rho
            near = np.flatnonzero(gap <= bound * (1 + _SLACK) + 1e-12)
            if len(near):
                queries.append(frame(len(near), tile=tile, kind=QUERY, id=unsure[ID].to_numpy()[near],
                                     id_b=unsure[ID].to_numpy()[near], x=q_xy[near, 0], y=q_xy[near, 1],
                                     u=bound[near], comp=-1))
        answers = self.engine.ask(runs, pd.concat(queries, ignore_index=True), None)
        exact = {}
        for q, d in answers.groupby(ID)[W]:
            d = np.sort(d.to_numpy())
            if len(d) < plan.k:
                raise RuntimeError(f"point {q!r}: {len(d)} neighbours found within its bound, fewer than {plan.k}")
            exact[int(self.index([q])[0])] = float(d[plan.k - 1])
        if len(exact) != len(unsure):
            raise RuntimeError("a point's core distance was not found")
        return exact

    def boruvka(self, points, comp1, bounds):
        """Borůvka rounds over the forest's components: every component's lightest edge to
        another, found exactly, until one is left. The edges (a, b, w)."""
        engine, plan = self.engine, self.plan
        parent = np.arange(comp1.max() + 1)
        summary = engine.summaries(points)
        cand = (self.index(bounds[ID].to_numpy()), self.index(bounds[ID_B].to_numpy()),
                bounds[W].to_numpy(dtype=np.float64))
        out = [], [], []
        while True:
            cur = _roots(parent)
            if len(np.unique(cur)) == 1:
                break
            upper = self.upper_bounds(cur, comp1, cand, summary)
            routes = self.routes(summary, cur, upper)
            answers = engine.ask(points, _Asking(plan, cur, upper, routes), cur)
            a, b = self.index(answers[ID].to_numpy()), self.index(answers[ID_B].to_numpy())
            w = answers[W].to_numpy(dtype=np.float64)
            picked = self.join_lightest(parent, cur, comp1, a, b, w)
            for i in range(3):
                out[i].append((a, b, w)[i][picked])
            cand = tuple(np.concatenate([cand[i], (a, b, w)[i]]) for i in range(3))
        return tuple(np.concatenate(o) if o else np.array([], dtype=np.int64 if i < 2 else np.float64)
                     for i, o in enumerate(out))

    def upper_bounds(self, cur, comp1, cand, summary):
        """Per current component, the weight of an edge to another (a real edge's weight, or
        more): from the edges seen, else from the summaries' representative points."""
        ca, cb = cur[comp1[cand[0]]], cur[comp1[cand[1]]]
        cross = ca != cb
        upper = np.full(len(cur), np.inf)
        np.minimum.at(upper, ca[cross], cand[2][cross])
        np.minimum.at(upper, cb[cross], cand[2][cross])
        s_comp = cur[summary[COMP].to_numpy()]
        missing = np.flatnonzero(~np.isfinite(upper[s_comp]))
        if len(missing):
            rep = summary[["_gc_rx", "_gc_ry"]].to_numpy(dtype=np.float64)
            core = summary["_gc_cd"].to_numpy(dtype=np.float64)
            for i in missing:
                others = np.flatnonzero(s_comp != s_comp[i])
                d = _distance(np.repeat(rep[i:i + 1], len(others), axis=0), rep[others], self.plan.sphere)
                weight = np.maximum(np.maximum(core[i], core[others]), d)
                upper[s_comp[i]] = min(upper[s_comp[i]], float(weight.min()))
        return upper

    def routes(self, summary, cur, upper):
        """For each summary row (tile A, component C), the summary rows of other components
        whose ball may hold the other end of an edge of weight <= U(C) from a point of C in A:
        a frame (TILE, COMP: current, and the target's tile, centre and radius)."""
        from scipy.spatial import cKDTree
        plan = self.plan
        centre = summary[["_gc_cx", "_gc_cy"]].to_numpy(dtype=np.float64)
        rho = summary["_gc_rho"].to_numpy(dtype=np.float64)
        core = summary["_gc_cd"].to_numpy(dtype=np.float64)
        comp = cur[summary[COMP].to_numpy()]
        u = upper[comp] * (1 + _SLACK) + 1e-12
        reach = u + rho + rho.max()
        if plan.sphere:
            tree, where = cKDTree(_unit(centre)), _unit(centre)
            radius = np.where(reach >= math.pi, 2.0, 2 * np.sin(np.minimum(reach, math.pi) / 2)) * (1 + 1e-9)
        else:
            tree, where, radius = cKDTree(centre), centre, reach * (1 + 1e-9)
        lists = tree.query_ball_point(where, radius)
        src = np.repeat(np.arange(len(lists)), [len(x) for x in lists])
        dst = np.concatenate([np.asarray(x, dtype=np.int64) for x in lists]) if len(lists) else np.array([], np.int64)
        gap = _distance(centre[src], centre[dst], plan.sphere) - rho[src] - rho[dst]
        ok = (comp[src] != comp[dst]) & (np.maximum(np.maximum(core[src], core[dst]), gap) <= u[src])
        src, dst = src[ok], dst[ok]
        return pd.DataFrame({TILE: summary[TILE].to_numpy()[src], COMP: comp[src],
                             "_gc_to": summary[TILE].to_numpy()[dst], "_gc_cx": centre[dst, 0],
                             "_gc_cy": centre[dst, 1], "_gc_rho": rho[dst]})

    def join_lightest(self, parent, cur, comp1, a, b, w):
        """Each current component's lightest answered edge, joined in ascending weight (an
        edge closing a cycle among equal weights is skipped): the indices of the edges kept."""
        ca, cb = cur[comp1[a]], cur[comp1[b]]
        if (ca == cb).any():
            raise RuntimeError("an answer joins a component to itself")
        ends = np.concatenate([ca, cb])
        weight = np.concatenate([w, w])
        edge = np.concatenate([np.arange(len(w)), np.arange(len(w))])
        order = np.lexsort((edge, weight, ends))
        first = order[np.r_[True, ends[order][1:] != ends[order][:-1]]]
        roots = np.unique(cur)
        if len(first) != len(roots):
            raise RuntimeError(f"{len(roots) - len(first)} components found no edge within their bound")
        picked = np.unique(edge[first])
        picked = picked[np.argsort(w[picked], kind="stable")]
        kept = []
        for e in picked:
            x, y = _find(parent, ca[e]), _find(parent, cb[e])
            if x != y:
                parent[max(x, y)] = min(x, y)
                kept.append(e)
        return np.array(kept, dtype=np.int64)

    def fit(self, n, a, b, w):
        """The library's HDBSCAN over the assembled tree: (id, label, probability) by row."""
        p = self.plan.parameters
        result = _native.hdbscan_fit_tree(n, a, b, w, p["min_cluster_size"], p["cluster_selection_epsilon"],
                                          p["max_cluster_size"], p["leaf"], p["allow_single_cluster"], p["threads"])
        labels, probabilities = result.labels()
        self.mst_weights = np.sort(w)
        return pd.DataFrame({ID: self.ids, "label": labels, "probability": probabilities})


class _Asking:
    """The queries of one Borůvka round, made in the tasks from their owned points (a
    picklable callable): each point p of component C whose core distance is <= U(C), sent to
    every tile holding a ball of another component within U(C) of p."""

    def __init__(self, plan, cur, upper, routes):
        self.sphere, self.cur, self.upper, self.routes = plan.sphere, cur, upper, routes

    def __call__(self, pdf):
        comp = self.cur[pdf[COMP].to_numpy()]
        u = self.upper[comp] * (1 + _SLACK) + 1e-12
        eligible = pdf[W].to_numpy(dtype=np.float64) <= u
        p = pdf[eligible].assign(**{COMP: comp[eligible], U: u[eligible]})
        pairs = p[[TILE, COMP, ID, X, Y, W, U]].merge(self.routes, on=[TILE, COMP])
        if len(pairs) == 0:
            return frame(0, id=pdf[ID].to_numpy()[:0], id_b=pdf[ID].to_numpy()[:0])
        xy = pairs[[X, Y]].to_numpy(dtype=np.float64)
        gap = _distance(xy, pairs[["_gc_cx", "_gc_cy"]].to_numpy(dtype=np.float64), self.sphere) \
            - pairs["_gc_rho"].to_numpy()
        pairs = pairs[gap <= pairs[U].to_numpy()].drop_duplicates([ID, "_gc_to"])
        ids = pairs[ID].to_numpy()
        return frame(len(pairs), tile=pairs["_gc_to"].to_numpy(), kind=QUERY, id=ids, id_b=ids,
                     w=pairs[W].to_numpy(), x=pairs[X].to_numpy(), y=pairs[Y].to_numpy(), u=pairs[U].to_numpy(),
                     comp=pairs[COMP].to_numpy())


def _roots(parent):
    """Every element's root (parents point to smaller roots)."""
    root = parent.copy()
    while True:
        nxt = root[root]
        if (nxt == root).all():
            return root
        root = nxt


def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _no_edges():
    return np.array([], dtype=np.int64), np.array([], dtype=np.int64), np.array([], dtype=np.float64)


def sorted_ids(ids, name):
    """The ids sorted (the rows' numbering), checked unique and not null."""
    ids = np.asarray(ids)
    if pd.isna(ids).any():
        raise ValueError(f"id_column {name!r} holds null values: ids must be unique and not null")
    ids = np.sort(ids, kind="stable")
    if len(ids) > 1 and (ids[1:] == ids[:-1]).any():
        dup = ids[1:][ids[1:] == ids[:-1]][0]
        raise ValueError(f"id_column {name!r} holds {dup!r} more than once: ids must be unique")
    return ids


def with_components(pdf, ids, comp1, exact):
    """The owned POINT rows of a runs frame with COMP (the forest's component) and, for the
    points whose run's core distance was not sure, W the exact one ({row: distance})."""
    pdf = pdf[pdf[KIND].to_numpy() == POINT].copy()
    rows = np.searchsorted(ids, pdf[ID].to_numpy())
    pdf[COMP] = comp1[rows]
    if exact:
        w = pdf[W].to_numpy(dtype=np.float64).copy()
        for i, r in enumerate(rows):
            if int(r) in exact:
                w[i] = exact[int(r)]
        pdf[W] = w
    return pdf

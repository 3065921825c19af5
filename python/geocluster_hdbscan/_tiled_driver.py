"""The global HDBSCAN's driver: the ids, the forest of light edges, exact core distances,
the Borůvka rounds between the forest's components and the library's hierarchy over the
assembled tree (the argument: _tiled_hdbscan's docstring and docs/engines.md). The engine
modules give the driver an object that moves frames; its methods:

- sorted_ids(): the id column's values, sorted and checked (_tiled_hdbscan.sorted_ids);
- light_runs(): the runs without their sure points (TiledHDBSCAN.pieces of every partition,
  TiledHDBSCAN.light_runs of every group), started (or planned, fetched with the ids),
  kept until released;
- collect_runs(runs): their EDGE rows, BOUND rows, unsure POINT rows and STAR rows, as
  pandas (split_collected);
- tile_runs(): the runs' frame with every owned point (TiledHDBSCAN.tile_run on every tile),
  kept until released;
- tile_balls(runs): summarise() of each tile's owned points taken as one component;
- with_components(runs, ids, comp1, exact): the owned points with COMP (with_components);
- summaries(points): summarise() of every tile of the points;
- ask(points, queries, cur): TiledHDBSCAN.answer on every tile of the owned points and the
  queries (a pandas frame, or a function making them from each partition of the points),
  its ANSWER rows as pandas;
- release(frame).
"""

import math
import time

import numpy as np
import pandas as pd

from . import _native
from ._engines import TILE
from ._tiled_hdbscan import (_SLACK, COMP, ID, ID_B, QUERY, U, W, X, Y, _distance, _unit, frame,
                             rows_of)


class Driver:
    """The driver's side of one global HDBSCAN: the ids (sorted: the rows' numbering), the
    forest of light edges, exact core distances, the Borůvka rounds, and the final fit. `engine`
    moves frames (see spark.py and dask.py)."""

    def __init__(self, plan, engine):
        self.plan, self.engine = plan, engine
        #: What the run took: points whose core distance needed queries, forest components,
        #: Borůvka rounds; and the wall time of each step, in seconds.
        self.stats = dict(unsure=0, components=0, rounds=0, seconds={})

    def _timed(self, step, function, *arguments):
        start = time.perf_counter()
        try:
            return function(*arguments)
        finally:
            seconds = self.stats["seconds"]
            seconds[step] = seconds.get(step, 0.0) + time.perf_counter() - start

    def run(self):
        plan, engine = self.plan, self.engine
        # The light runs leave out the owned points whose core distance is sure: only the
        # Borůvka rounds need them, when the forest leaves several components (the halo too
        # narrow for the data). Then the runs are made again, with every owned point. They are
        # asked for before the ids: an engine that starts them at once (Dask) tiles meanwhile.
        runs, points = self._timed("tile runs", engine.light_runs), None
        try:
            self.ids = self._timed("ids", engine.sorted_ids)
            n = len(self.ids)
            if n < 2:
                raise ValueError(f"n_samples={n} while HDBSCAN requires more than one sample")
            if plan.k > n:
                raise ValueError(f"min_samples ({plan.k}) must be at most the number of samples in X ({n})")
            edges, bounds, unsure, stars = self._timed("tile runs", engine.collect_runs, runs)
            self.locations = self._timed("forest", _Locations, n, self.index(stars[ID_B].to_numpy()),
                                         self.index(stars[ID].to_numpy()), stars[W].to_numpy(dtype=np.float64))
            forest, comp1 = self._timed("forest", self.forest, n, edges)
            # A forest that spans every row is the tree: a point whose core distance is above
            # the halo has no edge in it, so it would stand alone.
            if comp1.max() == 0 and len(unsure):
                raise RuntimeError("the forest spans rows whose core distances are above the halo")
            if comp1.max() > 0:
                engine.release(runs)
                runs = None
                runs = self._timed("tile runs with points", engine.tile_runs)
                exact = self._timed("core distances", self.exact_core_distances, runs, unsure)
                points = self._timed("components", engine.with_components, runs, self.ids, comp1, exact)
        finally:
            if runs is not None:
                engine.release(runs)
        if points is None:
            # One tree over the locations.
            return self._timed("hierarchy", self.fit_located, forest)
        try:
            rest = self._timed("boruvka", self.boruvka, points, comp1, bounds)
        finally:
            engine.release(points)
        a, b, w = (np.concatenate([tree, more]) for tree, more in zip(self.locations.over_rows(forest), rest))
        if len(a) != n - 1:
            raise RuntimeError(f"the assembled tree has {len(a)} edges for {n} points")
        return self._timed("hierarchy", self.fit, n, a, b, w)

    @property
    def mst_weights(self):
        """The assembled tree's weights, ascending."""
        return np.sort(self._weights)

    def index(self, values):
        """Rows (positions in the sorted ids) of id values, checked."""
        rows, present = rows_of(self.ids, values)
        if not present.all():
            raise RuntimeError("a tile returned an id that is not among the rows")
        return rows

    def forest(self, n, edges):
        """Kruskal over the runs' light edges between the locations (the library's, in
        (weight, smaller end, larger end) order; a pair sent by several tiles closes a cycle
        and is skipped): a forest joining the locations at every weight up to h as the true
        graph does (each location's rows join at its core distance, not above h), and each
        row's component in it."""
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import connected_components
        place = self.locations.of_row
        a, b = place[self.index(edges[ID].to_numpy())], place[self.index(edges[ID_B].to_numpy())]
        apart = a != b
        count = self.locations.count
        fa, fb, fw = _native.bottleneck_forest(count, a[apart], b[apart], edges[W].to_numpy(dtype=np.float64)[apart],
                                               np.inf, np.ones(count, dtype=np.uint8))
        if len(fa) == count - 1:
            # A forest of count - 1 edges over count locations is one tree.
            return (fa, fb, fw), np.zeros(n, dtype=np.int64)
        graph = csr_matrix((np.ones(len(fa), dtype=np.int8), (fa, fb)), shape=(count, count))
        _, comp = connected_components(graph, directed=False)
        return (fa, fb, fw), comp.astype(np.int64)[place]

    def exact_core_distances(self, runs, unsure):
        """The exact core distance of each point whose run's was above the halo: the k-th
        nearest among the k nearest owned points each tile within the run's value answers.
        {row: distance}."""
        self.stats["unsure"] = len(unsure)
        if len(unsure) == 0:
            return {}
        plan = self.plan
        balls = self.engine.tile_balls(runs)
        q_xy = unsure[[X, Y]].to_numpy(dtype=np.float64)
        ids = unsure[ID].to_numpy()
        centre = balls[["_gc_cx", "_gc_cy"]].to_numpy(dtype=np.float64)
        rho = balls["_gc_rho"].to_numpy(dtype=np.float64)
        count = balls["_gc_count"].to_numpy()
        queries = []
        for start in range(0, len(q_xy), 256):
            rows = np.arange(start, min(start + 256, len(q_xy)))
            gap = _distance(np.repeat(q_xy[rows], len(centre), axis=0), np.tile(centre, (len(rows), 1)),
                            plan.sphere).reshape(len(rows), -1)
            bound = np.minimum(unsure[W].to_numpy(dtype=np.float64)[rows], _enclosing(gap + rho, count, plan.k))
            for r, (i, b) in enumerate(zip(rows, bound)):
                near = np.flatnonzero(gap[r] - rho <= b * (1 + _SLACK) + 1e-12)
                queries.append(frame(len(near), tile=balls[TILE].to_numpy()[near], kind=QUERY, id=ids[i], id_b=ids[i],
                                     x=q_xy[i, 0], y=q_xy[i, 1], u=b, comp=-1))
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
        self.stats["components"] = len(parent)
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
            self.stats["rounds"] += 1
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
        self._weights = w
        return self._labelled(result)

    def fit_located(self, tree):
        """The library's HDBSCAN over the locations' tree (and each location's rows joined at
        its core distance): (id, label, probability) by row."""
        p, places = self.plan.parameters, self.locations
        result = _native.hdbscan_fit_located_tree(places.of_row, places.inner, *tree, p["min_cluster_size"],
                                                  p["cluster_selection_epsilon"], p["max_cluster_size"], p["leaf"],
                                                  p["allow_single_cluster"], p["threads"])
        self._weights = np.concatenate([tree[2], places.star_weight])
        return self._labelled(result)

    def _labelled(self, result):
        labels, probabilities = result.labels()
        return pd.DataFrame({ID: self.ids, "label": labels, "probability": probabilities})


class _Locations:
    """The rows grouped by location, from the runs' STAR rows (a row standing with the first
    row of its location, at the location's core distance): each row's location (numbered in
    order of their first rows), each location's first row and core distance (inf for a
    location of one row)."""

    def __init__(self, n, member, first, weight):
        root = np.arange(n)
        root[member] = first
        if len(member) and (root[first] != first).any():
            raise RuntimeError("a location's first row stands with another")
        alone = root == np.arange(n)
        number = np.cumsum(alone) - 1
        self.of_row, self.first_row = number[root], np.flatnonzero(alone)
        self.count = len(self.first_row)
        self.inner = np.full(self.count, np.inf)
        self.inner[number[first]] = weight
        self._stars = (member, first, weight)

    @property
    def star_weight(self):
        return self._stars[2]

    def over_rows(self, tree):
        """A tree between locations (a, b, w) as edges between rows: its ends' first rows,
        and each location's rows joined to its first at its core distance."""
        a, b, w = tree
        member, first, weight = self._stars
        return (np.concatenate([self.first_row[a], member]), np.concatenate([self.first_row[b], first]),
                np.concatenate([w, weight]))


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


def _enclosing(far, count, k):
    """For each row of `far` (the farthest a tile's points can be from a point, by tile), the
    least distance within which the nearest tiles hold k points: an upper bound of the point's
    core distance (inf where all tiles together hold fewer)."""
    order = np.argsort(far, axis=1, kind="stable")
    held = np.cumsum(count[order], axis=1)
    reached = (held >= k).argmax(axis=1)
    out = np.take_along_axis(far, order, axis=1)[np.arange(len(far)), reached]
    return np.where(held[:, -1] >= k, out * (1 + _SLACK) + 1e-12, np.inf)


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

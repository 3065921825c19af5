"""What the Spark and Dask engines share, in pandas and numpy only: the per-group fit, and the
pieces of the tiled global DBSCAN (which tiles a point goes to, the two per-tile passes, and
the driver's union-find and numbering). The engine modules only move these frames around.

The tiled DBSCAN (docs/engines.md says why it is exact): every point is *owned* by one tile
and copied into each other tile within 2·eps of it (the halo). In a tile's run every point
within eps of the tile has all its neighbours present, so the owned points' core flags, and
those of halo points within eps, are the single-process ones; a point that is core in a
tile's run is core globally (a run can only miss neighbours). Local components are
therefore pieces of global clusters, and two pieces holding the same core point belong to
one cluster. Every neighbourhood is decided by geocluster's own DBSCAN: this module never
measures a distance except to choose tiles, where it pads generously.
"""

import math

import numpy as np
import pandas as pd

from ._dbscan import DBSCAN
from ._hdbscan import HDBSCAN

TILE = "_gc_tile"
OWNED = "_gc_owned"
COMP = "_gc_comp"
LABEL1 = "_gc_label1"
GLABEL = "_gc_glabel"
MIN_ID = "_gc_min_id"
TILE_B = "_gc_tile_b"
COMP_B = "_gc_comp_b"
ALGORITHMS = ("dbscan", "hdbscan")
DEFAULT_TILES_PER_EPS = 50


def estimator(algorithm, params):
    """The single-process estimator the engines run, built (and so checked for unknown
    parameters) on the driver before any task starts."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be 'dbscan' or 'hdbscan', got {algorithm!r}")
    return (DBSCAN if algorithm == "dbscan" else HDBSCAN)(**params)


def result_columns(algorithm):
    """The columns both modes add: label and is_core for DBSCAN, label and probability for
    HDBSCAN."""
    return ("label", "is_core") if algorithm == "dbscan" else ("label", "probability")


def _columns(columns):
    columns = tuple(columns)
    if len(columns) != 2:
        raise ValueError(f"columns must name 2 columns (x, y or lat, lon), got {columns!r}")
    return columns


def fit_group(pdf, algorithm, columns, id_column, params, by=(), key=()):
    """One group's rows, sorted by id (an engine hands a group's rows in no fixed order, and
    DBSCAN's numbering and HDBSCAN's ties follow row order), with the estimator's result; an
    error names the group (by=key) it comes from."""
    if id_column is not None:
        pdf = pdf.sort_values(id_column, kind="stable")
    X = pdf[list(columns)].to_numpy(dtype=np.float64)
    model = estimator(algorithm, params)
    try:
        model.fit(X)
    except ValueError as error:
        key = key if isinstance(key, tuple) else (key,)
        group = ", ".join(f"{name}={getattr(value, 'item', lambda: value)()!r}" for name, value in zip(by, key))
        raise ValueError(f"group {group}: {error}") from error
    out = pdf.copy()
    out["label"] = model.labels_.astype(np.int32)
    if algorithm == "dbscan":
        core = np.zeros(len(pdf), dtype=bool)
        core[model.core_sample_indices_] = True
        out["is_core"] = core
    else:
        out["probability"] = np.asarray(model.probabilities_, dtype=np.float64)
    return out


def fit_groups(pdf, by, algorithm, columns, id_column, params):
    """fit_group on every group of a frame that holds whole groups (a Dask partition after a
    shuffle by the group columns); null keys form groups too, as Spark's groupBy makes them."""
    parts = [fit_group(g, algorithm, columns, id_column, params, by, key)
             for key, g in pdf.groupby(list(by), sort=False, dropna=False)]
    if not parts:
        return group_meta(pdf, algorithm)
    return pd.concat(parts, ignore_index=True)


def group_meta(pdf, algorithm):
    """An empty frame with fit_group's columns and types."""
    out = pdf.iloc[:0].copy()
    out["label"] = np.array([], dtype=np.int32)
    if algorithm == "dbscan":
        out["is_core"] = np.array([], dtype=bool)
    else:
        out["probability"] = np.array([], dtype=np.float64)
    return out


class Tiling:
    """Tiles over X (docs/engines.md, "Tiles"): each point owned by the tile it lies in and
    copied into every other tile within `reach` of it (padded so rounding never drops one)."""

    def __init__(self, columns, sphere, tile_size, reach):
        self.columns = _columns(columns)
        self.sphere = sphere
        if not (isinstance(tile_size, (int, float)) and math.isfinite(tile_size) and tile_size > 0):
            raise ValueError(f"tile_size must be a finite number > 0, got {tile_size!r}")
        self.tile_size = float(tile_size)
        self.reach = reach

    # Tiles --------------------------------------------------------------------------------

    def explode(self, pdf):
        """The rows of `pdf` (id and the two coordinates) once for each tile they belong to:
        TILE, and OWNED true for the one tile the point lies in, false for halo copies."""
        x = pdf[self.columns[0]].to_numpy(dtype=np.float64)
        y = pdf[self.columns[1]].to_numpy(dtype=np.float64)
        rows, tiles, owned = self.tiles_of(x, y)
        out = pdf.iloc[rows].reset_index(drop=True)
        out[self.columns[0]] = x[rows]
        out[self.columns[1]] = y[rows]
        out[TILE] = tiles
        out[OWNED] = owned
        return out

    def tiles_of(self, x, y):
        """Each point's tiles: (row, tile, owned) for every tile a row goes to."""
        return (self._sphere_tiles if self.sphere else self._plane_tiles)(x, y)

    def near(self, x, y, tile, reach):
        """Whether each point is within `reach` of `tile` (padded as the halo is)."""
        if not self.sphere:
            s = self.tile_size
            tx, ty = tile // 2**32, tile % 2**32 - 2**31
            gx = np.maximum(0, np.maximum(tx * s - x, x - (tx + 1) * s))
            gy = np.maximum(0, np.maximum(ty * s - y, y - (ty + 1) * s))
            pad = reach + 1e-9 * (np.abs(x) + np.abs(y))
            return gx * gx + gy * gy <= pad * pad * (1 + 1e-6)
        rows, tiles, _ = self._sphere_tiles(x, y, reach)
        out = np.zeros(len(x), dtype=bool)
        out[rows[tiles == tile]] = True
        return out

    def explode_batches(self, batches):
        """explode for Spark's mapInPandas."""
        for pdf in batches:
            yield self.explode(pdf)

    def _plane_tiles(self, x, y, reach=None):
        """Square tiles of side tile_size anchored at the origin; a point goes to every tile
        whose square is within the (padded) halo of it (`reach`, by default the tiling's).
        Rows farther than the padded halo (and 1 % more) inside their square go to it alone
        (the rule gives them nothing else) and come first; the others follow, with their
        tiles."""
        s = self.tile_size
        pad = (self.reach if reach is None else reach) + 1e-9 * (np.abs(x) + np.abs(y))
        ix, iy = np.floor(x / s), np.floor(y / s)
        fx, fy = x - ix * s, y - iy * s
        margin = 1.01 * pad
        alone = (fx > margin) & (fx < s - margin) & (fy > margin) & (fy < s - margin)
        lone, border = np.flatnonzero(alone), np.flatnonzero(~alone)
        if max(np.abs(ix[lone]).max(initial=0), np.abs(iy[lone]).max(initial=0)) >= 2**30:
            raise ValueError(f"tile_size={s:g} is too small for coordinates this large")
        rows, tiles, own = self._plane_tiles_near(x[border], y[border], ix[border], iy[border], pad[border])
        return (np.concatenate([lone, border[rows]]), np.concatenate([_tile(ix[lone], iy[lone]), tiles]),
                np.concatenate([np.ones(len(lone), dtype=bool), own]))

    def _plane_tiles_near(self, x, y, ix, iy, pad):
        """_plane_tiles for points (in squares ix, iy) of any distance to their square's sides:
        (row, tile, owned) for every tile within pad of each."""
        s = self.tile_size
        x0 = np.minimum(np.floor((x - pad) / s), ix)
        x1 = np.maximum(np.floor((x + pad) / s), ix)
        y0 = np.minimum(np.floor((y - pad) / s), iy)
        y1 = np.maximum(np.floor((y + pad) / s), iy)
        if max(np.abs(x0).max(initial=0), np.abs(x1).max(initial=0), np.abs(y0).max(initial=0),
               np.abs(y1).max(initial=0)) >= 2**30:
            raise ValueError(f"tile_size={s:g} is too small for coordinates this large")
        ny = (y1 - y0 + 1).astype(np.int64)
        rows, k = _blocks((x1 - x0 + 1).astype(np.int64) * ny)
        tx = x0[rows] + k // ny[rows]
        ty = y0[rows] + k % ny[rows]
        gx = np.maximum(0, np.maximum(tx * s - x[rows], x[rows] - (tx + 1) * s))
        gy = np.maximum(0, np.maximum(ty * s - y[rows], y[rows] - (ty + 1) * s))
        own = (tx == ix[rows]) & (ty == iy[rows])
        keep = own | (gx * gx + gy * gy <= pad[rows] * pad[rows] * (1 + 1e-6))
        return rows[keep], _tile(tx[keep], ty[keep]), own[keep]

    def _sphere_tiles(self, lat, lon, reach=None):
        """Latitude bands by longitude sectors, in radians, sectors wrapping at the
        antimeridian; a point goes to every tile meeting the latitude/longitude box around its
        halo (all longitudes when the halo reaches a pole)."""
        n_lat = max(1, math.ceil(math.pi / self.tile_size))
        n_lon = max(1, math.ceil(2 * math.pi / self.tile_size))
        h, w, r = math.pi / n_lat, 2 * math.pi / n_lon, self.reach if reach is None else reach
        band = np.clip(np.floor((lat + math.pi / 2) / h), 0, n_lat - 1)
        b0 = np.clip(np.floor((lat - r + math.pi / 2) / h), 0, n_lat - 1)
        b1 = np.clip(np.floor((lat + r + math.pi / 2) / h), 0, n_lat - 1)
        u = np.mod(lon + math.pi, 2 * math.pi)
        polar = np.abs(lat) + r >= math.pi / 2 - 1e-9
        with np.errstate(invalid="ignore", divide="ignore"):
            spread = np.arcsin(np.minimum(1, math.sin(min(r, math.pi / 2)) / np.cos(lat))) * (1 + 1e-9) + 1e-12
        s0 = np.floor((u - spread) / w)
        s1 = np.floor((u + spread) / w)
        every = polar | (s1 - s0 + 1 >= n_lon)
        s0 = np.where(every, 0, s0)
        s1 = np.where(every, n_lon - 1, s1)
        sector = np.floor(u / w)
        n_s = (s1 - s0 + 1).astype(np.int64)
        rows, k = _blocks((b1 - b0 + 1).astype(np.int64) * n_s)
        tb = b0[rows] + k // n_s[rows]
        ts = np.mod(s0[rows] + k % n_s[rows], n_lon)
        own = (tb == band[rows]) & (ts == np.mod(sector[rows], n_lon))
        tiles = tb.astype(np.int64) * n_lon + ts.astype(np.int64)
        return rows, tiles, own

class TiledDBSCAN(Tiling):
    """The global DBSCAN's plan: parameters checked once on the driver, then the functions the
    tasks run (explode, first_pass, second_pass) and the driver's number_clusters."""

    def __init__(self, algorithm, columns, id_column, tile_size, params):
        if algorithm != "dbscan":
            raise ValueError(f"TiledDBSCAN plans a DBSCAN, not {algorithm!r} (the HDBSCAN's plan: _tiled_hdbscan)")
        model = estimator(algorithm, params)
        if "sample_weight" in params:
            raise TypeError("sample_weight is not supported by the engines")
        model.fit(np.zeros((1, 2)))  # the estimator's own parameter checks, on the driver
        self.params = dict(params)
        self.eps = float(model.eps)
        self.id_column = id_column
        # The halo: 2·eps, padded far beyond rounding so no point within 2·eps is missed.
        super().__init__(columns, model.metric == "haversine",
                         DEFAULT_TILES_PER_EPS * self.eps if tile_size is None else tile_size,
                         2 * self.eps * (1 + 1e-9) + 1e-12)

    # The two passes -----------------------------------------------------------------------

    def _fit(self, pdf):
        X = pdf[list(self.columns)].to_numpy(dtype=np.float64)
        model = DBSCAN(**self.params).fit(X)
        core = np.zeros(len(pdf), dtype=bool)
        core[model.core_sample_indices_] = True
        return model.labels_.astype(np.int64), core

    def first_pass(self, pdf):
        """One tile (owned rows and halo): geocluster's DBSCAN on all of it, rows sorted by
        id. COMP is the local component of each point core in this run (else -1), LABEL1
        the run's label (an owned non-core point with LABEL1 >= 0 is a border point)."""
        pdf = pdf.sort_values(self.id_column, kind="stable").reset_index(drop=True)
        labels, core = self._fit(pdf)
        out = pdf.copy()
        out[COMP] = np.where(core, labels, -1)
        out[LABEL1] = labels
        return out

    def second_pass(self, pdf):
        """One tile's first-pass rows with GLABEL (the global label of their component; -1
        where not core): the owned rows' final label and is_core. A border point takes the
        lowest global label among its core neighbours', as the single-process DBSCAN gives it:
        the tile is run again with its core points ordered by global label, so that the
        run's own rule (the lowest-numbered neighbouring component, components numbered by
        their first row) picks that cluster."""
        owned = pdf[OWNED].to_numpy(dtype=bool)
        comp = pdf[COMP].to_numpy(dtype=np.int64)
        glabel = pdf[GLABEL].to_numpy(dtype=np.int64)
        core = comp >= 0
        if (glabel[core] < 0).any():
            raise RuntimeError("a core point's component has no global label")
        label = np.where(core, glabel, -1)
        border = owned & ~core & (pdf[LABEL1].to_numpy(dtype=np.int64) >= 0)
        if border.any():
            key = np.where(core, glabel, np.iinfo(np.int64).max)
            order = pdf.assign(_gc_key=key).sort_values(["_gc_key", self.id_column], kind="stable").index
            ordered = pdf.loc[order]
            labels2, core2 = self._fit(ordered)
            position = pdf.index.get_indexer(order)
            if not np.array_equal(core2, core[position]):
                raise RuntimeError("a tile's second run found other core points than its first")
            by_component = np.full(labels2.max() + 1, -1, dtype=np.int64)
            by_component[labels2[core2]] = glabel[position][core2]
            relabelled = np.full(len(pdf), -1, dtype=np.int64)
            relabelled[position] = np.where(labels2 >= 0, by_component[np.maximum(labels2, 0)], -1)
            label = np.where(border, relabelled, label)
        return pd.DataFrame({self.id_column: pdf[self.id_column][owned].reset_index(drop=True),
                             "label": label[owned].astype(np.int32), "is_core": core[owned]})

    def first_pass_partition(self, pdf):
        """first_pass on each tile of a frame holding whole tiles (a Dask partition)."""
        parts = [self.first_pass(g) for _, g in pdf.groupby(TILE, sort=False)]
        return pd.concat(parts, ignore_index=True) if parts else self.first_pass_meta(pdf)

    def second_pass_partition(self, pdf, numbering):
        """second_pass on each tile of a frame holding whole tiles, GLABEL joined from the
        driver's numbering (small: one row per local component)."""
        pdf = pdf.merge(numbering, on=[TILE, COMP], how="left")
        pdf[GLABEL] = pdf[GLABEL].fillna(-1).astype(np.int64)
        parts = [self.second_pass(g.reset_index(drop=True)) for _, g in pdf.groupby(TILE, sort=False)]
        return pd.concat(parts, ignore_index=True) if parts else self.labels_meta(pdf)

    def first_pass_meta(self, pdf):
        out = pdf.iloc[:0].copy()
        out[COMP] = np.array([], dtype=np.int64)
        out[LABEL1] = np.array([], dtype=np.int64)
        return out

    def labels_meta(self, pdf):
        return pd.DataFrame({self.id_column: pdf[self.id_column].iloc[:0].reset_index(drop=True),
                             "label": np.array([], dtype=np.int32), "is_core": np.array([], dtype=bool)})

    # The driver ---------------------------------------------------------------------------

    def number_clusters(self, pieces, links):
        """The global label of every local component. `pieces`: (TILE, COMP, MIN_ID), each
        component holding owned core points with the smallest of their ids; `links`: (TILE,
        COMP, TILE_B, COMP_B), two components sharing a core point. Union-find joins the
        linked components; clusters are numbered 0, 1, ... by their smallest id, as the
        single-process DBSCAN numbers them by lowest row when rows are in id order."""
        parent = {}

        def find(node):
            root = node
            while parent.setdefault(root, root) != root:
                root = parent[root]
            while parent[node] != root:
                parent[node], node = root, parent[node]
            return root

        for a_tile, a_comp, b_tile, b_comp in links[[TILE, COMP, TILE_B, COMP_B]].itertuples(index=False):
            a, b = find((int(a_tile), int(a_comp))), find((int(b_tile), int(b_comp)))
            if a != b:
                parent[max(a, b)] = min(a, b)
        smallest = {}
        for tile, comp, min_id in pieces[[TILE, COMP, MIN_ID]].itertuples(index=False):
            root = find((int(tile), int(comp)))
            if root not in smallest or min_id < smallest[root]:
                smallest[root] = min_id
        roots = sorted(smallest, key=smallest.__getitem__)
        number = {root: i for i, root in enumerate(roots)}
        nodes = list(parent)
        missing = [n for n in nodes if find(n) not in number]
        if missing:
            raise RuntimeError(f"local components {missing[:3]} link to no owned core point")
        return pd.DataFrame({TILE: np.array([n[0] for n in nodes], dtype=np.int64),
                             COMP: np.array([n[1] for n in nodes], dtype=np.int64),
                             GLABEL: np.array([number[find(n)] for n in nodes], dtype=np.int64)})


def _tile(tx, ty):
    """The number of the square (tx, ty) (floats holding whole numbers within ±2^30)."""
    return tx.astype(np.int64) * 2**32 + (ty.astype(np.int64) + 2**31)


def _blocks(counts):
    """For blocks of `counts` items: each item's block and its position in the block."""
    rows = np.repeat(np.arange(len(counts)), counts)
    starts = np.cumsum(counts) - counts
    return rows, np.arange(len(rows)) - np.repeat(starts, counts)

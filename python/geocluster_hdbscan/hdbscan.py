"""The hdbscan library's interface on geocluster's core: code written for ``hdbscan`` runs by
changing its import,

    import geocluster_hdbscan.hdbscan as hdbscan

``HDBSCAN`` takes the hdbscan library's parameters with their meanings and defaults
(``min_samples`` not counting the point itself, ``max_cluster_size=0`` for unlimited,
``core_dist_n_jobs``, ``algorithm="best"`` …) and condenses ties one merge at a time, as its
dendrogram does; ``condensed_tree_``, ``single_linkage_tree_`` and ``minimum_spanning_tree_``
are objects with ``to_numpy()``, ``to_pandas()``, ``to_networkx()`` and ``plot()``
(matplotlib, pandas and networkx only when those are called), ``single_linkage_tree_`` also
``get_clusters(cut_distance, min_cluster_size)``; ``exemplars_`` and ``relative_validity_``
are the hdbscan library's. The prediction functions are the package's own (hdbscan's names
and signatures). See docs/python.md, "Code written for the hdbscan library".
"""

import numpy as np

from . import _hdbscan
from ._base import check_choice, check_int, check_metric, check_real, threads_for
from .prediction import (all_points_membership_vectors, approximate_predict, approximate_predict_scores,
                         membership_vector)

__all__ = ["HDBSCAN", "CondensedTree", "SingleLinkageTree", "MinimumSpanningTree", "approximate_predict",
           "approximate_predict_scores", "membership_vector", "all_points_membership_vectors"]

# The hdbscan library's algorithm names: how it searches, never what it finds.
_ALGORITHMS = ("best", "generic", "prims_kdtree", "prims_balltree", "boruvka_kdtree", "boruvka_balltree")


class HDBSCAN(_hdbscan.HDBSCAN):
    """The hdbscan library's ``HDBSCAN`` (its parameters, defaults and attributes) on
    geocluster's exact core. Parameters that only choose how hdbscan searches (``algorithm``,
    ``leaf_size``, ``approx_min_span_tree``, ``memory``, ``match_reference_implementation``)
    are accepted and change nothing: the result is exact either way."""

    # What the scikit-learn-style estimator underneath reads and this interface fixes.
    store_centers = None
    copy = "warn"
    metric_params = None

    def __init__(self, min_cluster_size=5, min_samples=None, cluster_selection_epsilon=0.0, max_cluster_size=0,
                 metric="euclidean", alpha=1.0, p=None, algorithm="best", leaf_size=40, memory=None,
                 approx_min_span_tree=True, gen_min_span_tree=False, core_dist_n_jobs=4,
                 cluster_selection_method="eom", allow_single_cluster=False, prediction_data=False,
                 match_reference_implementation=False, cluster_selection_epsilon_max=float("inf")):
        self.min_cluster_size = min_cluster_size
        self.min_samples = min_samples
        self.cluster_selection_epsilon = cluster_selection_epsilon
        self.max_cluster_size = max_cluster_size
        self.metric = metric
        self.alpha = alpha
        self.p = p
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.memory = memory
        self.approx_min_span_tree = approx_min_span_tree
        self.gen_min_span_tree = gen_min_span_tree
        self.core_dist_n_jobs = core_dist_n_jobs
        self.cluster_selection_method = cluster_selection_method
        self.allow_single_cluster = allow_single_cluster
        self.prediction_data = prediction_data
        self.match_reference_implementation = match_reference_implementation
        self.cluster_selection_epsilon_max = cluster_selection_epsilon_max

    @property
    def n_jobs(self):
        """Threads, as the estimator underneath names them: hdbscan's core_dist_n_jobs."""
        return self.core_dist_n_jobs

    def _checked_parameters(self):
        haversine = check_metric("HDBSCAN", self.metric)
        check_choice("algorithm", self.algorithm, _ALGORITHMS)
        check_int("leaf_size", self.leaf_size, 1)
        if check_real("alpha", self.alpha, 0, inclusive=False) != 1.0:
            raise ValueError(f"alpha={self.alpha} is not supported: it scales the mutual-reachability distances; "
                             "only alpha=1.0 (the default) is computed")
        if self.cluster_selection_epsilon_max != float("inf"):
            raise ValueError("cluster_selection_epsilon_max is not supported: give inf (the default)")
        if self.p is not None and self.metric == "minkowski" and self.p != 2:
            raise ValueError(f"p={self.p!r} is not supported: only the Euclidean distance (p=2) is computed")
        min_cluster_size = check_int("min_cluster_size", self.min_cluster_size, 2)
        # hdbscan's min_samples leaves the point itself out: scikit-learn's is one more.
        min_samples = check_int("min_samples", self.min_samples, 1, allow_none=True)
        max_cluster_size = check_int("max_cluster_size", self.max_cluster_size, 0)
        for name in ("allow_single_cluster", "gen_min_span_tree", "prediction_data"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be a bool, got {getattr(self, name)!r}")
        return dict(
            min_cluster_size=min_cluster_size,
            min_samples=(min_samples if min_samples is not None else min_cluster_size) + 1,
            cluster_selection_epsilon=check_real("cluster_selection_epsilon", self.cluster_selection_epsilon, 0,
                                                 inclusive=True),
            max_cluster_size=max_cluster_size or None,
            leaf=check_choice("cluster_selection_method", self.cluster_selection_method, ("eom", "leaf")) == "leaf",
            allow_single_cluster=bool(self.allow_single_cluster),
            threads=threads_for(self.core_dist_n_jobs),
            # The single-linkage tree is built from the spanning tree: it is always kept.
            keep_mst=True,
            haversine=haversine,
            one_at_a_time=True,
            prediction_data=bool(self.prediction_data),
        )

    def fit(self, X, y=None, sample_weight=None):
        """Clusters X, an array of shape (n_samples, n_features), 1 to 64 features (2 with
        metric="haversine" or prediction_data=True); y is ignored. Returns self."""
        super().fit(X, y, sample_weight=sample_weight)
        self._raw_data = np.asarray(X, dtype=np.float64)
        for name in ("_single_linkage_tree", "_relative_validity"):
            self.__dict__.pop(name, None)
        return self

    @property
    def condensed_tree_(self):
        return CondensedTree(self._cached("condensed_tree_", _hdbscan._condensed_tree), self.labels_)

    @property
    def minimum_spanning_tree_(self):
        if not self.gen_min_span_tree:
            raise AttributeError("No minimum spanning tree was generated. "
                                 "This may be due to optimized algorithm variations that skip explicit generation "
                                 "of the spanning tree.")
        return MinimumSpanningTree(self._mst_rows(), self._raw_data)

    @property
    def single_linkage_tree_(self):
        if "_single_linkage_tree" not in self.__dict__:
            mst = self._mst_rows()
            self.__dict__["_single_linkage_tree"] = _linkage(mst, len(self._raw_data))
        return SingleLinkageTree(self.__dict__["_single_linkage_tree"])

    @property
    def exemplars_(self):
        tree = self._cached("condensed_tree_", _hdbscan._condensed_tree)
        return [self._raw_data[rows] for rows in _exemplar_rows(tree, self.labels_)]

    @property
    def relative_validity_(self):
        if "_relative_validity" not in self.__dict__:
            if not self.gen_min_span_tree:
                raise AttributeError("Minimum spanning tree not present. Either HDBSCAN object was created with "
                                     "gen_min_span_tree=False or the tree was not generated in spite of it owing "
                                     "to internal optimization criteria.")
            self.__dict__["_relative_validity"] = _relative_validity(self._mst_rows(), self.labels_)
        return self.__dict__["_relative_validity"]

    def _mst_rows(self):
        """The spanning tree as the hdbscan library's (n - 1, 3) array: from, to, distance."""
        mst = self._cached("minimum_spanning_tree_", _hdbscan._minimum_spanning_tree)
        return np.column_stack([mst["from"].astype(np.float64), mst["to"].astype(np.float64), mst["distance"]])

    def __getstate__(self):
        # The trees are copied out of the library's result first (the spanning tree always:
        # the single-linkage tree is built from it), as the estimator underneath does.
        if "_native" in self.__dict__:
            self._cached("condensed_tree_", _hdbscan._condensed_tree)
            self._cached("minimum_spanning_tree_", _hdbscan._minimum_spanning_tree)
            self._cached("outlier_scores_", _hdbscan._outlier_scores)
            self._cached("cluster_persistence_", lambda native, *_: native.persistence())
        base = super(_hdbscan.HDBSCAN, self)
        state = dict(base.__getstate__() if hasattr(base, "__getstate__") else self.__dict__)
        state.pop("_native", None)
        return state


def _linkage(mst, n):
    """The single-linkage tree of a spanning tree sorted by distance, in scipy's linkage form:
    merge i joins the current clusters of its edge's ends into node n + i."""
    parent = np.arange(2 * n - 1)
    size = np.ones(2 * n - 1, dtype=np.int64)
    out = np.empty((len(mst), 4))

    def find(x):
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for i, (a, b, distance) in enumerate(mst):
        ra, rb = find(int(a)), find(int(b))
        node = n + i
        parent[ra] = parent[rb] = node
        size[node] = size[ra] + size[rb]
        out[i] = (ra, rb, distance, size[node])
    return out


def _selected_clusters(tree, labels):
    """The selected cluster of each label: the deepest cluster above every point labelled so."""
    clusters = tree[tree["child_size"] > 1] if len(tree) else tree
    up = dict(zip(clusters["child"].tolist(), clusters["parent"].tolist()))
    points = tree[tree["child"] < len(labels)]
    selected = []
    for label in range(int(labels.max()) + 1 if len(labels) else 0):
        parents = np.unique(points["parent"][labels[points["child"]] == label])
        common = None
        for p in parents.tolist():
            chain = {p}
            while p in up:
                p = up[p]
                chain.add(p)
            common = chain if common is None else common & chain
        selected.append(max(common) if common else None)
    return selected


def _exemplar_rows(tree, labels):
    """The hdbscan library's exemplars: per cluster, the points that stay longest in each leaf
    cluster below it."""
    clusters = tree[tree["child_size"] > 1]
    children = {}
    for parent, child in zip(clusters["parent"].tolist(), clusters["child"].tolist()):
        children.setdefault(parent, []).append(child)
    result = []
    for cluster in _selected_clusters(tree, labels):
        stack, leaves = [cluster], []
        while stack:
            c = stack.pop()
            if c in children:
                stack.extend(reversed(children[c]))
            else:
                leaves.append(c)
        rows = []
        for leaf in leaves:
            under = tree[tree["parent"] == leaf]
            if len(under):
                rows.append(under["child"][under["lambda_val"] == under["lambda_val"].max()])
        result.append(np.hstack(rows) if rows else np.array([], dtype=np.int64))
    return result


def _relative_validity(mst, labels):
    """The hdbscan library's relative_validity_: its fast DBCV from the spanning tree."""
    sizes = np.bincount(labels[labels >= -1] + 1)
    cluster_size = sizes[1:]
    total = sizes.sum()
    k = len(cluster_size)
    if k == 0:
        return 0.0
    dsc = np.zeros(k)
    dspc = np.full(k, np.inf)
    a, b, distance = mst[:, 0].astype(np.intp), mst[:, 1].astype(np.intp), mst[:, 2]
    la, lb = labels[a], labels[b]
    largest = distance.max() if len(distance) else 0.0
    one_noise = (la == -1) ^ (lb == -1)
    neither = (la >= 0) & (lb >= 0)
    outlier_separation = distance[one_noise].min() if one_noise.any() else largest
    same = neither & (la == lb)
    different = neither & (la != lb)
    np.maximum.at(dsc, la[same], distance[same])
    np.minimum.at(dspc, la[different], distance[different])
    np.minimum.at(dspc, lb[different], distance[different])
    dspc[dspc == np.inf] = 2 * (largest if k > 1 else outlier_separation)
    validity = (dspc - dsc) / np.maximum(dspc, dsc)
    return float(np.sum(cluster_size * validity / total))


class CondensedTree:
    """The condensed tree, as the hdbscan library's ``condensed_tree_`` object."""

    def __init__(self, condensed_tree_array, labels):
        self._raw_tree = condensed_tree_array
        self._labels = labels

    def to_numpy(self):
        """The rows as a structured array: parent, child, lambda_val, child_size."""
        return self._raw_tree.copy()

    def to_pandas(self):
        """The rows as a pandas DataFrame (pandas needed)."""
        from pandas import DataFrame
        return DataFrame(self._raw_tree)

    def to_networkx(self):
        """A networkx DiGraph, parent to child, weighted by lambda, nodes sized (networkx needed)."""
        from networkx import DiGraph, set_node_attributes
        graph = DiGraph()
        for row in self._raw_tree:
            graph.add_edge(int(row["parent"]), int(row["child"]), weight=float(row["lambda_val"]))
        set_node_attributes(graph, {int(r["child"]): int(r["child_size"]) for r in self._raw_tree}, "size")
        return graph

    def _select_clusters(self):
        return [c for c in _selected_clusters(self._raw_tree, self._labels) if c is not None]

    def plot(self, leaf_separation=1, cmap="viridis", select_clusters=False, label_clusters=False,
             selection_palette=None, axis=None, colorbar=True, log_size=False, max_rectangles_per_icicle=20):
        """An icicle plot (matplotlib needed): each cluster a bar from its birth down to where its
        last point leaves, as wide as the points it still holds (narrowing in up to
        ``max_rectangles_per_icicle`` steps) and coloured by that number; the selected clusters
        ringed with ``select_clusters``. Returns the axis."""
        import matplotlib.pyplot as plt
        from matplotlib.patches import Ellipse
        tree = self._raw_tree
        root = int(tree["parent"].min())
        clusters = tree[tree["child_size"] > 1]
        children, birth = {}, {root: 0.0}
        for row in clusters:
            children.setdefault(int(row["parent"]), []).append(int(row["child"]))
            birth[int(row["child"])] = float(row["lambda_val"])
        finite = tree["lambda_val"][np.isfinite(tree["lambda_val"])]
        cap = float(finite.max()) if len(finite) else 1.0
        x, leaves = {}, []

        def place(c):  # leaves left to right, a parent centred over its children
            if c not in children:
                x[c] = len(leaves) * leaf_separation
                leaves.append(c)
            else:
                for child in children[c]:
                    place(child)
                x[c] = float(np.mean([x[child] for child in children[c]]))
        place(root)
        axis = plt.gca() if axis is None else axis
        scale = (lambda v: np.log(v)) if log_size else (lambda v: v)
        steps = []  # (x, width, top, bottom): a cluster's points still in it between top and bottom
        for c, top in birth.items():
            rows = tree[tree["parent"] == c]
            events = np.sort(np.minimum(rows["lambda_val"], cap), kind="stable")
            gone = np.cumsum(rows["child_size"][np.argsort(np.minimum(rows["lambda_val"], cap), kind="stable")])
            total = int(gone[-1]) if len(gone) else 0
            cuts = np.unique(np.quantile(events, np.linspace(0, 1, max_rectangles_per_icicle + 1))) if total else []
            start = top
            for end in cuts:
                if end <= start:
                    continue
                left = total - (int(gone[np.searchsorted(events, start, side="right") - 1]) if events[0] <= start else 0)
                steps.append((x[c], float(scale(max(left, 1))), start, end))
                start = end
        largest = max(s[1] for s in steps) if steps else 1.0
        colours = plt.get_cmap(cmap)
        for cx, width, top, bottom in steps:
            w = 0.9 * leaf_separation * width / largest
            axis.add_patch(plt.Rectangle((cx - w / 2, top), w, bottom - top, facecolor=colours(width / largest),
                                         edgecolor="none"))
        for c, kids in children.items():
            for child in kids:
                axis.plot([x[c], x[child]], [birth[child], birth[child]], color="black", linewidth=1)
        if select_clusters:
            for i, c in enumerate(sorted(self._select_clusters())):
                deepest = float(np.minimum(tree["lambda_val"][tree["parent"] == c], cap).max())
                colour = selection_palette[i] if selection_palette else "red"
                axis.add_patch(Ellipse((x[c], (birth[c] + deepest) / 2), 0.95 * leaf_separation,
                                       1.1 * (deepest - birth[c]), facecolor="none", edgecolor=colour, linewidth=2))
                if label_clusters:
                    axis.annotate(str(i), (x[c], deepest), ha="center", va="top")
        if colorbar:
            mappable = plt.cm.ScalarMappable(cmap=colours, norm=plt.Normalize(0, largest))
            plt.colorbar(mappable, ax=axis).set_label("log(Number of points)" if log_size else "Number of points")
        axis.set_xlim(-leaf_separation, len(leaves) * leaf_separation)
        axis.set_ylim(cap * 1.05, 0)
        axis.set_xticks([])
        axis.set_ylabel("$\\lambda$ value")
        for side in ("right", "top", "bottom"):
            axis.spines[side].set_visible(False)
        return axis


class SingleLinkageTree:
    """The single-linkage tree of the mutual-reachability spanning tree, as the hdbscan
    library's ``single_linkage_tree_`` object (scipy's linkage form)."""

    def __init__(self, linkage):
        self._linkage = linkage

    def to_numpy(self):
        """The (n - 1, 4) linkage matrix: left, right, distance, size (scipy's form)."""
        return self._linkage.copy()

    def to_pandas(self):
        """parent, left_child, right_child, distance, size (pandas needed)."""
        from pandas import DataFrame
        n = len(self._linkage) + 1
        return DataFrame({"parent": np.arange(n, 2 * n - 1), "left_child": self._linkage[:, 0],
                          "right_child": self._linkage[:, 1], "distance": self._linkage[:, 2],
                          "size": self._linkage[:, 3]})

    def to_networkx(self):
        """A networkx DiGraph, parent to children, weighted by distance (networkx needed)."""
        from networkx import DiGraph, set_node_attributes
        n = len(self._linkage) + 1
        graph = DiGraph()
        for node, row in enumerate(self._linkage, n):
            graph.add_edge(node, int(row[0]), weight=row[2])
            graph.add_edge(node, int(row[1]), weight=row[2])
        set_node_attributes(graph, {node: row[3] for node, row in enumerate(self._linkage, n)}, "size")
        return graph

    def get_clusters(self, cut_distance, min_cluster_size=5):
        """Flat clusters of the tree cut below ``cut_distance`` (robust single linkage): the
        components joined by merges closer than the cut, those smaller than
        ``min_cluster_size`` noise (-1), the others numbered in order of their root node."""
        n = len(self._linkage) + 1
        parent = np.arange(2 * n - 1)

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x
        for i, row in enumerate(self._linkage):
            if row[2] < cut_distance:
                parent[find(int(row[0]))] = n + i
                parent[find(int(row[1]))] = n + i
        roots = np.array([find(i) for i in range(n)])
        unique, counts = np.unique(roots, return_counts=True)
        numbering = np.full(len(unique), -1)
        big = counts >= min_cluster_size
        numbering[big] = np.arange(int(big.sum()))
        return numbering[np.searchsorted(unique, roots)]

    def plot(self, axis=None, truncate_mode=None, p=0, vary_line_width=True, cmap="viridis", colorbar=True):
        """A dendrogram (scipy and matplotlib needed). Returns the axis."""
        import matplotlib.pyplot as plt
        from scipy.cluster.hierarchy import dendrogram
        if axis is None:
            axis = plt.gca()
        dendrogram(self._linkage, truncate_mode=truncate_mode, p=p, no_labels=True, ax=axis,
                   color_threshold=0, above_threshold_color="black")
        axis.set_ylabel("distance")
        return axis


class MinimumSpanningTree:
    """The mutual-reachability minimum spanning tree, as the hdbscan library's
    ``minimum_spanning_tree_`` object."""

    def __init__(self, mst, data):
        self._mst = mst
        self._data = data

    def to_numpy(self):
        """The (n - 1, 3) edges: from, to, distance, in ascending distance."""
        return self._mst.copy()

    def to_pandas(self):
        """from, to, distance (pandas needed)."""
        from pandas import DataFrame
        return DataFrame({"from": self._mst[:, 0].astype(int), "to": self._mst[:, 1].astype(int),
                          "distance": self._mst[:, 2]})

    def to_networkx(self, feature_names=None):
        """A networkx Graph weighted by distance, nodes carrying their coordinates (networkx needed)."""
        from networkx import Graph, set_node_attributes
        graph = Graph()
        for a, b, distance in self._mst:
            graph.add_edge(int(a), int(b), weight=distance)
        d = self._data.shape[1]
        names = feature_names or (["x", "y"] if d == 2 else [f"feature {i}" for i in range(d)])
        for i, name in enumerate(names[:self._data.shape[1]]):
            set_node_attributes(graph, dict(enumerate(self._data[:, i])), name)
        return graph

    def plot(self, axis=None, node_size=40, node_color="k", node_alpha=0.8, edge_alpha=0.5, edge_cmap="viridis_r",
             edge_linewidth=2, vary_line_width=True, colorbar=True):
        """The points and the tree's edges coloured by distance (matplotlib needed). Returns the
        axis. Points of other than 2 features are drawn by their first two principal components
        (the hdbscan library draws a t-SNE projection, which is random), 1 feature along x."""
        import matplotlib.pyplot as plt
        from matplotlib.collections import LineCollection
        if axis is None:
            axis = plt.gca()
        plane = _plane(self._data)
        segments = np.stack([plane[self._mst[:, 0].astype(int)], plane[self._mst[:, 1].astype(int)]], axis=1)
        lines = LineCollection(segments, array=self._mst[:, 2], cmap=edge_cmap, alpha=edge_alpha,
                               linewidths=edge_linewidth)
        axis.add_collection(lines)
        axis.scatter(plane[:, 0], plane[:, 1], s=node_size, c=node_color, alpha=node_alpha)
        axis.set_xticks([])
        axis.set_yticks([])
        if colorbar:
            plt.colorbar(lines, ax=axis).set_label("Mutual reachability distance")
        return axis


def _plane(data):
    """Points drawn in 2-D: as they are with 2 features, (x, 0) with 1, else their first two
    principal components."""
    if data.shape[1] == 2:
        return data
    if data.shape[1] == 1:
        return np.column_stack([data[:, 0], np.zeros(len(data))])
    centred = data - data.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    return centred @ axes[:2].T

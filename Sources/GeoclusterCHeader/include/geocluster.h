/*
 * geocluster's C API: HDBSCAN and DBSCAN of ClusterCore and the pin index of Pins
 * (Sources/GeoclusterCAPI, exported with @_cdecl) for callers in any language. This header is
 * the one declaration of the interface: the Swift exports are compiled against it (a
 * signature that differs from it does not build) and the Python package's ctypes table is
 * checked against it by python/tests/test_capi.py.
 *
 * Points (gc_points): n points of d coordinates each (1 <= d <= GC_MAX_DIMENSIONS, 64),
 * coordinate a of point i at data[i * row_stride + a * column_stride] (strides in doubles,
 * >= 1): a C-ordered (n, d) array of doubles has row_stride d and column_stride 1, a
 * Fortran-ordered one row_stride 1 and column_stride n, so neither is copied by the caller.
 * They are read once, into the core's own arrays, and never written. Their metric says what
 * they are: GC_METRIC_EUCLIDEAN, any d: Euclidean distances (eps, cluster_selection_epsilon,
 * lambda = 1 / distance) in the coordinates' unit (d = 2, planar x, y, is the fastest path);
 * GC_METRIC_HAVERSINE, d = 2 only, scikit-learn's metric="haversine": latitude, longitude in
 * radians, great-circle distances in radians (measured in metres on a sphere of radius
 * 6,371,008.8 m and divided by it). Prediction (GC_OUTPUT_PREDICTION) needs d = 2.
 *
 * Errors: every fitting function returns a GC_* code; on any code but GC_OK it writes a
 * NUL-terminated UTF-8 message of at most message_capacity bytes (including the NUL) to
 * message when message is not NULL, and leaves no result. Bad parameters are errors, never a
 * crash. The functions keep no global state: calls on different handles or points may run on
 * different threads at the same time.
 */
#ifndef GEOCLUSTER_CAPI_H
#define GEOCLUSTER_CAPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GC_OK 0
#define GC_INVALID_PARAMETER 1       /* a parameter out of range; the message names it */
#define GC_NON_FINITE_COORDINATE 2   /* NaN or infinity in a coordinate; the message names the row */
#define GC_TOO_FEW_POINTS 3          /* e.g. min_samples larger than n */
#define GC_INVALID_ARGUMENT 4        /* NULL pointer, negative n, a stride < 1, unknown enum */

/* What a gc_points' coordinates are (see the top of this file). */
#define GC_METRIC_EUCLIDEAN 0
#define GC_METRIC_HAVERSINE 1

/* The most coordinates a point may have (gc_points.dimensions). */
#define GC_MAX_DIMENSIONS 64

/* The points of a call: n points of `dimensions` coordinates in the caller's memory, and their
 * metric (see the top of this file). */
typedef struct gc_points {
    const double *data;              /* coordinate a of point i: data[i * row_stride + a * column_stride] */
    int64_t n;
    int64_t dimensions;              /* d, 1 ... GC_MAX_DIMENSIONS; 2 with GC_METRIC_HAVERSINE */
    int64_t row_stride;              /* in doubles, >= 1 */
    int64_t column_stride;           /* in doubles, >= 1 */
    int32_t metric;                  /* GC_METRIC_* */
} gc_points;

#define GC_SELECTION_EOM 0
#define GC_SELECTION_LEAF 1

/* How gc_hdbscan_fit condenses merges at one distance (its `ties`). */
#define GC_TIES_ALL_AT_ONCE 0        /* HDBSCAN*'s definition, the default */
#define GC_TIES_ONE_AT_A_TIME 1      /* scikit-learn's and hdbscan's dendrogram */

/* What gc_hdbscan_fit keeps besides labels, probabilities and outlier scores (a bit set). */
#define GC_OUTPUT_MST 1              /* the minimum spanning tree (gc_hdbscan_copy_mst) */
#define GC_OUTPUT_CONDENSED_TREE 2   /* the condensed tree and cluster persistence (kept
                                        without point rows: no cost to the fit; the copy
                                        writes them) */
#define GC_OUTPUT_PREDICTION 4       /* what gc_hdbscan_predict and the membership vectors
                                        need (implies the condensed tree; points of d = 2
                                        only); new points must have the fit's metric and d */
#define GC_OUTPUT_CORE_DISTANCES 8   /* each point's core distance
                                        (gc_hdbscan_copy_core_distances) */

/* One HDBSCAN result; owned by the caller until gc_hdbscan_free. */
typedef struct gc_hdbscan gc_hdbscan;

/*
 * HDBSCAN with scikit-learn's parameters and meanings (gc_hdbscan_defaults gives its
 * defaults): min_samples counts the point itself; min_samples < 0 means unset
 * (min_cluster_size), max_cluster_size < 0 means unlimited; selection_method: GC_SELECTION_*;
 * ties: GC_TIES_*; threads >= 1 (the result is identical for any value); outputs:
 * GC_OUTPUT_* bits, the trees to keep (each costs time and memory; without one, its counts
 * are 0).
 */
typedef struct gc_hdbscan_params {
    int64_t min_cluster_size;
    int64_t min_samples;
    double cluster_selection_epsilon;  /* in the points' distance unit */
    int64_t max_cluster_size;
    int32_t selection_method;
    int32_t allow_single_cluster;      /* 0 or 1 */
    int32_t ties;
    int32_t outputs;
    int64_t threads;
} gc_hdbscan_params;

/* scikit-learn's defaults: min_cluster_size 5, min_samples unset, epsilon 0, no maximum,
 * GC_SELECTION_EOM, no single cluster, GC_TIES_ALL_AT_ONCE, the condensed tree, 1 thread. */
gc_hdbscan_params gc_hdbscan_defaults(void);

/*
 * Fits HDBSCAN on the points; on GC_OK, *out holds the result. sample_weight: NULL, or n
 * contiguous weights, whole numbers >= 1, a point of weight w counting as w identical points
 * (fast_hdbscan's meaning; not with GC_OUTPUT_PREDICTION).
 */
int32_t gc_hdbscan_fit(const gc_points *points, const double *sample_weight, const gc_hdbscan_params *params,
                       gc_hdbscan **out, char *message, int64_t message_capacity);

/*
 * HDBSCAN's clusters over a mutual-reachability minimum spanning tree computed elsewhere (a
 * tree assembled from pieces, e.g. by the Spark and Dask engines): n - 1 edges a[i]-b[i] of
 * weight[i] (finite, >= 0, in the unit of cluster_selection_epsilon) joining points 0 .. n - 1
 * with no cycle. The result is gc_hdbscan_fit's on the points whose tree it is; any of their
 * minimum spanning trees gives the same labels with GC_TIES_ALL_AT_ONCE. params->min_samples is
 * not used (the weights hold the core distances) and outputs may hold GC_OUTPUT_MST and
 * GC_OUTPUT_CONDENSED_TREE only. GC_INVALID_PARAMETER names the first edge that is wrong.
 */
int32_t gc_hdbscan_fit_tree(int64_t n, const int64_t *a, const int64_t *b, const double *weight,
                            const gc_hdbscan_params *params, gc_hdbscan **out, char *message,
                            int64_t message_capacity);

/*
 * gc_hdbscan_fit_tree over locations: points sharing coordinates, which part from each other all
 * at once at the location's core distance (as gc_hdbscan_fit groups repeated coordinates).
 * Point i lies at location location_of[i] (0 .. location_count - 1, each holding a point);
 * inner[l] is location l's core distance (finite, >= 0 where it holds several points, not used
 * where it holds one); location_count - 1 edges a[i]-b[i] of weight[i] join the locations with
 * no cycle, no edge lighter than the inner of an end holding several points. The result is
 * gc_hdbscan_fit_tree's over the points' tree made of these edges and, in each location, its
 * points joined at inner, without core distances. params as gc_hdbscan_fit_tree's, outputs
 * GC_OUTPUT_CONDENSED_TREE only, GC_TIES_ALL_AT_ONCE only.
 */
int32_t gc_hdbscan_fit_located_tree(int64_t n, int64_t location_count, const int64_t *location_of,
                                    const double *inner, const int64_t *a, const int64_t *b, const double *weight,
                                    const gc_hdbscan_params *params, gc_hdbscan **out, char *message,
                                    int64_t message_capacity);

/*
 * The first stages of gc_hdbscan_fit alone, without its clusters: the points'
 * mutual-reachability minimum spanning tree (the fit's own with GC_OUTPUT_MST: n - 1 edges
 * a[i]-b[i] of weight[i], ascending weight; 0 edges for fewer than 2 points) and each point's
 * core distance (n values). min_samples >= 1 counts the point itself (scikit-learn's
 * meaning); threads >= 1 (the result is identical for any value). Distances in the points'
 * unit (radians with GC_METRIC_HAVERSINE). An output pointer may be NULL: it is not written.
 */
int32_t gc_mutual_reachability_mst(const gc_points *points, int64_t min_samples, int64_t threads, int64_t *a,
                                   int64_t *b, double *weight, double *core_distances, char *message,
                                   int64_t message_capacity);

/* Releases a result (NULL is ignored). */
void gc_hdbscan_free(gc_hdbscan *result);

/*
 * Distances between pairs of points as the library measures them: out[i] is the distance
 * between a's point i and b's point i (a->n == b->n; both 2-dimensional, of one metric):
 * Euclidean, or great-circle in radians with GC_METRIC_HAVERSINE. The same bits as the
 * distances inside gc_hdbscan_fit's core distances and MST weights.
 */
int32_t gc_distances(const gc_points *a, const gc_points *b, double *out, char *message, int64_t message_capacity);

/*
 * A spanning forest's joins as seen between some of its rows: Kruskal over the m edges
 * a[i]-b[i] (rows 0 .. n - 1) of weight <= limit, in ascending (weight, smaller end, larger
 * end) order; each time an edge joins two parts that each hold a row with kept[row] != 0, an
 * edge between such a row of each part, of the joining edge's weight, is written to out_a,
 * out_b, out_weight (room for m edges) and counted in *out_count. Two kept rows are then
 * joined by the written edges up to any weight t exactly when the forest joins them up to t.
 * A weight below 0 is an error; a NaN weight is not <= limit (the edge is left out).
 */
int32_t gc_bottleneck_forest(int64_t n, int64_t m, const int64_t *a, const int64_t *b, const double *weight,
                             double limit, const uint8_t *kept, int64_t *out_a, int64_t *out_b,
                             double *out_weight, int64_t *out_count, char *message, int64_t message_capacity);

/* Sizes of the arrays the copy functions write. Every accessor treats a NULL result as an
 * empty one (sizes 0, nothing written). */
int64_t gc_hdbscan_point_count(const gc_hdbscan *result);
int64_t gc_hdbscan_cluster_count(const gc_hdbscan *result);
int64_t gc_hdbscan_condensed_tree_row_count(const gc_hdbscan *result);
int64_t gc_hdbscan_mst_edge_count(const gc_hdbscan *result);

/*
 * Per point (point_count values each; a NULL destination is skipped): label (0 ..
 * cluster_count - 1, or -1 for noise; scikit-learn's numbering), membership probability
 * (scikit-learn's), GLOSH outlier score (the hdbscan library's).
 */
void gc_hdbscan_copy_labels(const gc_hdbscan *result, int32_t *labels, double *probabilities,
                            double *outlier_scores);

/* Per cluster (cluster_count values; with GC_OUTPUT_CONDENSED_TREE only): the hdbscan
 * library's cluster_persistence_. */
void gc_hdbscan_copy_cluster_persistence(const gc_hdbscan *result, double *persistence);

/*
 * The condensed tree (condensed_tree_row_count rows), the hdbscan library's row form: parent
 * cluster id, child (a point row < point_count, or a cluster id >= point_count; the root is
 * point_count), lambda at which the child leaves the parent, and child size. The cluster
 * rows come first (by child id), then one row per point (by point row).
 */
void gc_hdbscan_copy_condensed_tree(const gc_hdbscan *result, int64_t *parent, int64_t *child,
                                    double *lambda_val, int64_t *child_size);

/*
 * The mutual-reachability minimum spanning tree (mst_edge_count = point_count - 1 edges, none
 * for fewer than 2 points): endpoints as point rows with a < b, weight ascending.
 */
void gc_hdbscan_copy_mst(const gc_hdbscan *result, int64_t *a, int64_t *b, double *weight);

/* Per point (point_count values; with GC_OUTPUT_CORE_DISTANCES only, else nothing is
 * written): its core distance, the distance to its min_samples-th nearest point counting
 * itself, in the points' distance unit. */
void gc_hdbscan_copy_core_distances(const gc_hdbscan *result, double *core_distances);

/*
 * New points against a fit made with GC_OUTPUT_PREDICTION, by the hdbscan library's rules
 * (approximate_predict with its connecting points, approximate_predict_scores), m being the
 * fit's min_samples. The points' metric and dimensions (2) must be the fit's. Per new point its
 * label (the fit's numbering, -1 noise), probability, outlier score and the fitted row it joins
 * (a NULL destination is skipped).
 */
int32_t gc_hdbscan_predict(const gc_hdbscan *result, const gc_points *points, int64_t threads, int32_t *labels,
                           double *probabilities, double *outlier_scores, int64_t *connecting, char *message,
                           int64_t message_capacity);

/* hdbscan's membership_vector: n * cluster_count values, row-major, columns by label. */
int32_t gc_hdbscan_membership_vectors(const gc_hdbscan *result, const gc_points *points, int64_t threads,
                                      double *out, char *message, int64_t message_capacity);

/* hdbscan's all_points_membership_vectors: point_count * cluster_count values, row-major. */
int32_t gc_hdbscan_all_points_membership_vectors(const gc_hdbscan *result, int64_t threads, double *out,
                                                 char *message, int64_t message_capacity);

/*
 * DBSCAN exactly as scikit-learn computes it (eps inclusive, in the points' distance unit;
 * min_samples counting the point itself); threads >= 1.
 */
typedef struct gc_dbscan_params {
    double eps;
    int64_t min_samples;
    int64_t threads;
} gc_dbscan_params;

/* The library's defaults: eps 0 (give one: it has no default), scikit-learn's min_samples 5,
 * 1 thread. */
gc_dbscan_params gc_dbscan_defaults(void);

/*
 * Writes n labels (-1 noise) and n core flags (1 core, 0 not). sample_weight: NULL, or n
 * contiguous finite weights: a point is core when the weights within eps add up to
 * min_samples (scikit-learn's sample_weight).
 */
int32_t gc_dbscan_fit(const gc_points *points, const double *sample_weight, const gc_dbscan_params *params,
                      int32_t *labels, uint8_t *is_core, char *message, int64_t message_capacity);

/*
 * Map pins (the Pins module; docs/pins.md): an index over listings built once, queried per
 * viewport. Answers are JSON text (UTF-8) in a gc_text: gc_text_length bytes, copied with
 * gc_text_copy (no NUL), released with gc_text_free. Errors as above; the message starts
 * with the Python parameter it is about ("keys: ...", "zoom: ...").
 */
typedef struct gc_pins gc_pins;
typedef struct gc_text gc_text;

/*
 * The listings of a pin index: n true positions, lon and lat in degrees; ids (NULL: 0 ...
 * n-1, else unique); location keys as UTF-8 texts, key i being bytes key_offsets[i] ..
 * key_offsets[i+1] of key_bytes (both NULL: the true coordinate rounded to 1e-6 degrees; an
 * empty text is an error); per-listing category codes (255 none), area, deposit, monthly rent
 * (NaN none), each NULL when absent.
 */
typedef struct gc_listings {
    const double *lon;
    const double *lat;
    int64_t n;
    const int64_t *ids;
    const uint8_t *key_bytes;
    const int64_t *key_offsets;
    const uint8_t *categories;
    const double *areas;
    const double *deposits;
    const double *rents;
} gc_listings;

/*
 * How an index is built. secret: the mask's key, 32 random bytes (NULL: no privacy, true
 * positions shown); the mask shows every listing at a point shared by at least min_anonymity
 * locations (2 ... 1000) pairwise more than 60 m apart, each within anonymity_cap metres of
 * it (above 120, at most 5000); radius in pixels; min_samples: HDBSCAN's min_samples of the
 * hierarchy (1 and 2: single linkage); location_tolerance in metres; threads >= 1 (same index
 * for any value). mask: a mask store (the bytes of the CLI's mask file; mask_length 0: a new
 * store), only with a secret: stored locations keep their points, new ones are placed and
 * added, and the build's mask_out receives the store's new bytes (save them before publishing
 * anything); a store made with another key or rule is an error unless remask != 0. NULL: no
 * store.
 */
typedef struct gc_pins_params {
    const uint8_t *secret;
    int64_t secret_length;
    int64_t min_anonymity;
    double anonymity_cap;
    double radius;
    int64_t min_samples;
    double location_tolerance;
    int64_t threads;
    const uint8_t *mask;
    int64_t mask_length;
    int32_t remask;
} gc_pins_params;

/* The library's defaults (those of `geocluster pins` and `serve`): no secret (set one, or
 * min_anonymity 0 for no privacy), min_anonymity 5, anonymity_cap 1500 m, radius 12.5 px,
 * min_samples 2, location_tolerance 30 m, 1 thread, no mask store. */
gc_pins_params gc_pins_defaults(void);

/* Builds an index over the listings; on GC_OK, *out holds it (and *mask_out the store's
 * bytes when params->mask is given). */
int32_t gc_pins_build(const gc_listings *listings, const gc_pins_params *params, gc_text **mask_out, gc_pins **out,
                      char *message, int64_t message_capacity);
void gc_pins_free(gc_pins *index);
void gc_pins_counts(const gc_pins *index, int64_t *listings, int64_t *locations);
/* The listings the build left out, as JSON: {"conflicting": [ids], "held_back": [ids],
 * "merged_units": [[ids], ...]} (docs/pins.md). */
int32_t gc_pins_set_aside(const gc_pins *index, gc_text **out, char *message, int64_t message_capacity);

/*
 * One request on the index, the same requests `geocluster serve` answers (docs/serve.md):
 * `endpoint` is "pins", "pin", "children", "leaves" or "nearby"; `pin` the pin's id in decimal
 * (pin, children, leaves; NULL otherwise); `names` and `values` `count` query parameters as
 * text, as the server's query string gives them: zoom, bbox (min_lon,min_lat,max_lon,max_lat),
 * category (names, comma-separated), area / deposit / rent (MIN..MAX, either end open), limit,
 * cursor (the previous page's next), lat, lon, radius (metres). A parameter the endpoint does
 * not take, one given twice, or a malformed value is an error naming it. The answer, as JSON:
 * pins and children a GeoJSON FeatureCollection with the properties of `geocluster pins`
 * (docs/commands.md; pin: a collection of one feature, without zoom); leaves {"leaves": [{id,
 * lon, lat, category, area_m2, deposit, monthly_rent}], "next": cursor or null}; nearby
 * {"listings": [... with distance_m, by distance rounded to 100 m, then id], "total": n,
 * "next": cursor or null}.
 */
int32_t gc_pins_request(const gc_pins *index, const char *endpoint, const char *pin, const char *const *names,
                        const char *const *values, int64_t count, gc_text **out, char *message,
                        int64_t message_capacity);
/* The category names by code, comma-separated. */
void gc_pins_category_names(gc_text **out);

/*
 * Stable labels across refits (`geocluster cluster --previous`; docs/commands.md): today's
 * clusters renumbered after yesterday's where they share points, by one rule (ClusterMetrics'
 * StableLabels: pairs by descending shared points, a split keeps the label on its larger part,
 * a merge takes the label it shares most with, the rest get fresh labels from next_label up,
 * in order of their smallest order value). n points: labels[i] today's label (-1 noise,
 * clusters 0 ... k-1, none missing), previous[i] the same point's label yesterday (-1: noise
 * or absent), order[i] a rank of its id that does not depend on row order; previous_labels: p
 * labels of yesterday's run (repeats allowed), so that vanished clusters are reported. Writes
 * each point's stable label to stable (noise stays -1), the label the next run starts fresh
 * ones from to *next_out, and what changed to *changes_out as JSON: [{"change": "kept" |
 * "merged" | "split" | "appeared" | "vanished", "label": n or null, "previous_labels": [...],
 * "shared": n, "size": n}], today's clusters by stable label, then the vanished. Fresh labels
 * that would pass INT32_MAX are an error (GC_INVALID_PARAMETER), not wrapped.
 */
int32_t gc_stable_labels(int64_t n, const int32_t *labels, const int32_t *previous, const int64_t *order, int64_t p,
                         const int32_t *previous_labels, int32_t next_label, int32_t *stable, int32_t *next_out,
                         gc_text **changes_out, char *message, int64_t message_capacity);

int64_t gc_text_length(const gc_text *text);
void gc_text_copy(const gc_text *text, uint8_t *destination);
void gc_text_free(gc_text *text);

#ifdef __cplusplus
}
#endif

#endif

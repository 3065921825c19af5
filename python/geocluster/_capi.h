/*
 * geocluster's C API: HDBSCAN and DBSCAN of ClusterCore (Sources/GeoclusterCAPI, exported
 * with @_cdecl) for callers in any language; the Python package loads it with ctypes
 * (geocluster/_native.py declares the same signatures).
 *
 * Points are planar: n x values at x[0], x[stride], ..., x[(n-1)*stride] and n y values at
 * y[0], y[stride], ... (a C-ordered (n, 2) array of doubles: x = base, y = base + 1,
 * stride 2; a Fortran-ordered one: x = base, y = base + n, stride 1). They are read once, into
 * the core's own arrays, and never written. Distances (eps, cluster_selection_epsilon, lambda
 * = 1 / distance) are in the points' unit.
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
#define GC_NON_FINITE_COORDINATE 2   /* NaN or infinity in x or y; the message names the row */
#define GC_TOO_FEW_POINTS 3          /* e.g. min_samples larger than n */
#define GC_INVALID_ARGUMENT 4        /* NULL pointer, negative n, stride < 1, unknown enum */

#define GC_SELECTION_EOM 0
#define GC_SELECTION_LEAF 1

/* What gc_hdbscan_fit keeps besides labels, probabilities and outlier scores (a bit set). */
#define GC_OUTPUT_MST 1              /* the minimum spanning tree (gc_hdbscan_copy_mst) */
#define GC_OUTPUT_CONDENSED_TREE 2   /* the condensed tree and cluster persistence (kept
                                        without point rows: no cost to the fit; the copy
                                        writes them) */

/* One HDBSCAN result; owned by the caller until gc_hdbscan_free. */
typedef struct gc_hdbscan gc_hdbscan;

/*
 * HDBSCAN with scikit-learn's parameters and meanings: min_samples counts the point itself;
 * min_samples < 0 means unset (min_cluster_size), max_cluster_size < 0 means unlimited;
 * threads >= 1 (the result is identical for any value); outputs: GC_OUTPUT_* bits, the trees
 * to keep (each costs time and memory; without one, its counts are 0). On GC_OK, *out holds
 * the result.
 */
int32_t gc_hdbscan_fit(const double *x, const double *y, int64_t n, int64_t stride,
                       int64_t min_cluster_size, int64_t min_samples,
                       double cluster_selection_epsilon, int64_t max_cluster_size,
                       int32_t selection_method, int32_t allow_single_cluster, int64_t threads,
                       int32_t outputs, gc_hdbscan **out, char *message, int64_t message_capacity);

/* Releases a result (NULL is ignored). */
void gc_hdbscan_free(gc_hdbscan *result);

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

/*
 * DBSCAN exactly as scikit-learn computes it (eps inclusive, min_samples counting the point
 * itself). Writes n labels (-1 noise) and n core flags (1 core, 0 not).
 */
int32_t gc_dbscan_fit(const double *x, const double *y, int64_t n, int64_t stride, double eps,
                      int64_t min_samples, int64_t threads, int32_t *labels, uint8_t *is_core,
                      char *message, int64_t message_capacity);

#ifdef __cplusplus
}
#endif

#endif

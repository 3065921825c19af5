/* A C caller of geocluster.h (test_capi.py compiles and runs it): reads n, HDBSCAN's
 * min_cluster_size and min_samples, DBSCAN's eps and min_samples, then n points (x y) from
 * stdin; prints the HDBSCAN labels, the DBSCAN labels, then the code and message of a bad call. */
#include <stdio.h>
#include <stdlib.h>
#include "geocluster.h"

int main(void) {
    long n, min_cluster_size, min_samples, dbscan_min_samples;
    double eps;
    if (scanf("%ld %ld %ld %lf %ld", &n, &min_cluster_size, &min_samples, &eps, &dbscan_min_samples) != 5 || n < 0)
        return 2;
    double *points = malloc(sizeof(double) * 2 * (size_t)(n > 0 ? n : 1));
    for (long i = 0; i < 2 * n; i++) if (scanf("%lf", &points[i]) != 1) return 2;
    char message[256];
    gc_hdbscan *result = NULL;
    gc_points given = {points, n, 2, 2, 1, GC_METRIC_EUCLIDEAN};  /* C order: row stride d, column stride 1 */
    gc_hdbscan_params params = gc_hdbscan_defaults();
    params.min_cluster_size = min_cluster_size;
    params.min_samples = min_samples;
    params.outputs = GC_OUTPUT_MST | GC_OUTPUT_CONDENSED_TREE;
    int32_t code = gc_hdbscan_fit(&given, NULL, &params, &result, message, sizeof message);
    if (code != GC_OK) { printf("error %d %s\n", code, message); return 1; }
    int32_t *labels = malloc(sizeof(int32_t) * (size_t)n);
    gc_hdbscan_copy_labels(result, labels, NULL, NULL);
    for (long i = 0; i < n; i++) printf("%d ", labels[i]);
    printf("\n");
    gc_hdbscan_free(result);
    uint8_t *core = malloc((size_t)n);
    gc_dbscan_params dbscan = {eps, dbscan_min_samples, 1};
    code = gc_dbscan_fit(&given, NULL, &dbscan, labels, core, message, sizeof message);
    if (code != GC_OK) { printf("error %d %s\n", code, message); return 1; }
    for (long i = 0; i < n; i++) printf("%d ", labels[i]);
    printf("\n");
    params = gc_hdbscan_defaults();
    params.min_cluster_size = 1;
    code = gc_hdbscan_fit(&given, NULL, &params, &result, message, sizeof message);
    printf("%d %s\n", code, message);
    free(points); free(labels); free(core);
    return 0;
}

/* A C caller of _capi.h (test_capi.py compiles and runs it): reads n, HDBSCAN's
 * min_cluster_size and min_samples, DBSCAN's eps and min_samples, then n points (x y) from
 * stdin; prints the HDBSCAN labels, the DBSCAN labels, then the code and message of a bad call. */
#include <stdio.h>
#include <stdlib.h>
#include "_capi.h"

int main(void) {
    long n, min_cluster_size, min_samples, dbscan_min_samples;
    double eps;
    if (scanf("%ld %ld %ld %lf %ld", &n, &min_cluster_size, &min_samples, &eps, &dbscan_min_samples) != 5 || n < 0)
        return 2;
    double *points = malloc(sizeof(double) * 2 * (size_t)(n > 0 ? n : 1));
    for (long i = 0; i < 2 * n; i++) if (scanf("%lf", &points[i]) != 1) return 2;
    char message[256];
    gc_hdbscan *result = NULL;
    int32_t code = gc_hdbscan_fit(points, points + 1, n, 2, NULL, min_cluster_size, min_samples, 0.0, -1, GC_SELECTION_EOM, 0,
                                  GC_TIES_ALL_AT_ONCE, 1, GC_OUTPUT_MST | GC_OUTPUT_CONDENSED_TREE, &result, message, sizeof message);
    if (code != GC_OK) { printf("error %d %s\n", code, message); return 1; }
    int32_t *labels = malloc(sizeof(int32_t) * (size_t)n);
    gc_hdbscan_copy_labels(result, labels, NULL, NULL);
    for (long i = 0; i < n; i++) printf("%d ", labels[i]);
    printf("\n");
    gc_hdbscan_free(result);
    uint8_t *core = malloc((size_t)n);
    code = gc_dbscan_fit(points, points + 1, n, 2, NULL, eps, dbscan_min_samples, 1, labels, core, message, sizeof message);
    if (code != GC_OK) { printf("error %d %s\n", code, message); return 1; }
    for (long i = 0; i < n; i++) printf("%d ", labels[i]);
    printf("\n");
    code = gc_hdbscan_fit(points, points + 1, n, 2, NULL, 1, -1, 0.0, -1, GC_SELECTION_EOM, 0, GC_TIES_ALL_AT_ONCE, 1, 0, &result,
                          message, sizeof message);
    printf("%d %s\n", code, message);
    free(points); free(labels); free(core);
    return 0;
}

// The exports are the header's functions: each line below compiles only while the Swift
// export has exactly the type the header declares (a variable of the declared C function
// type takes the export: parameters, result and pointer kinds must all agree), so a
// signature changed on one side alone does not build. Never called.
import GeoclusterCHeader

private func exportsMatchTheHeader() {
    do { var f = GeoclusterCHeader.gc_dbscan_defaults; f = GeoclusterCAPI.gc_dbscan_defaults; _ = f }
    do { var f = GeoclusterCHeader.gc_dbscan_fit; f = GeoclusterCAPI.gc_dbscan_fit; _ = f }
    do { var f = GeoclusterCHeader.gc_bottleneck_forest; f = GeoclusterCAPI.gc_bottleneck_forest; _ = f }
    do { var f = GeoclusterCHeader.gc_distances; f = GeoclusterCAPI.gc_distances; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_all_points_membership_vectors; f = GeoclusterCAPI.gc_hdbscan_all_points_membership_vectors; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_cluster_count; f = GeoclusterCAPI.gc_hdbscan_cluster_count; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_condensed_tree_row_count; f = GeoclusterCAPI.gc_hdbscan_condensed_tree_row_count; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_copy_cluster_persistence; f = GeoclusterCAPI.gc_hdbscan_copy_cluster_persistence; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_copy_condensed_tree; f = GeoclusterCAPI.gc_hdbscan_copy_condensed_tree; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_copy_labels; f = GeoclusterCAPI.gc_hdbscan_copy_labels; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_copy_core_distances; f = GeoclusterCAPI.gc_hdbscan_copy_core_distances; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_copy_mst; f = GeoclusterCAPI.gc_hdbscan_copy_mst; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_defaults; f = GeoclusterCAPI.gc_hdbscan_defaults; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_fit; f = GeoclusterCAPI.gc_hdbscan_fit; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_fit_tree; f = GeoclusterCAPI.gc_hdbscan_fit_tree; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_fit_located_tree; f = GeoclusterCAPI.gc_hdbscan_fit_located_tree; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_free; f = GeoclusterCAPI.gc_hdbscan_free; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_membership_vectors; f = GeoclusterCAPI.gc_hdbscan_membership_vectors; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_mst_edge_count; f = GeoclusterCAPI.gc_hdbscan_mst_edge_count; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_point_count; f = GeoclusterCAPI.gc_hdbscan_point_count; _ = f }
    do { var f = GeoclusterCHeader.gc_hdbscan_predict; f = GeoclusterCAPI.gc_hdbscan_predict; _ = f }
    do { var f = GeoclusterCHeader.gc_mutual_reachability_mst; f = GeoclusterCAPI.gc_mutual_reachability_mst; _ = f }
    do { var f = GeoclusterCHeader.gc_pins_defaults; f = GeoclusterCAPI.gc_pins_defaults; _ = f }
    do { var f = GeoclusterCHeader.gc_pins_build; f = GeoclusterCAPI.gc_pins_build; _ = f }
    do { var f = GeoclusterCHeader.gc_pins_category_names; f = GeoclusterCAPI.gc_pins_category_names; _ = f }
    do { var f = GeoclusterCHeader.gc_pins_counts; f = GeoclusterCAPI.gc_pins_counts; _ = f }
    do { var f = GeoclusterCHeader.gc_pins_free; f = GeoclusterCAPI.gc_pins_free; _ = f }
    do { var f = GeoclusterCHeader.gc_pins_request; f = GeoclusterCAPI.gc_pins_request; _ = f }
    do { var f = GeoclusterCHeader.gc_pins_set_aside; f = GeoclusterCAPI.gc_pins_set_aside; _ = f }
    do { var f = GeoclusterCHeader.gc_stable_labels; f = GeoclusterCAPI.gc_stable_labels; _ = f }
    do { var f = GeoclusterCHeader.gc_text_copy; f = GeoclusterCAPI.gc_text_copy; _ = f }
    do { var f = GeoclusterCHeader.gc_text_free; f = GeoclusterCAPI.gc_text_free; _ = f }
    do { var f = GeoclusterCHeader.gc_text_length; f = GeoclusterCAPI.gc_text_length; _ = f }
}

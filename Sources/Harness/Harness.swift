// Harness: runs a clustering method on a dataset, times each stage from outside ClusterCore,
// measures memory, scores the result and returns run records. Its contents arrive with the
// benchmark-harness issue; until then the module is intentionally empty (no placeholder API).

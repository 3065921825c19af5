// Metrics: clustering-quality scores (contingency table, ARI, AMI/NMI, V-measure, DBCV).
// It takes label arrays and knows nothing else. Its contents arrive with the baselines and
// metrics issue; until then the module is intentionally empty (no placeholder API).

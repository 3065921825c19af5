// Metrics: how well a clustering agrees with the truth, and how well it separates dense
// regions. It takes label arrays (and, for the internal indices, coordinates or an MST as
// plain arrays) and knows nothing else: no dependency on ClusterCore or Datasets.
//
// External scores (two labelings of the same points), exactly as scikit-learn 1.9 computes
// them, including its special cases:
// - ContingencyTable: counts n_ij of points in truth class i and predicted cluster j, sparse;
//   NoiseMode says what label -1 means first (one more cluster, singletons, or left out).
// - adjustedRandIndex (Hubert & Arabie 1985), fowlkesMallows: pair counting.
// - mutualInformation, expectedMutualInformation, adjustedMutualInformation and
//   normalizedMutualInformation (arithmetic normalisation, scikit-learn's default),
//   homogeneity, completeness, vMeasure (Rosenberg & Hirschberg 2007; beta = 1).
// - ClusteringScores: all of them at once.
//
// Internal indices (one labeling and the points), exactly as the hdbscan library 0.8.44:
// - DBCV.validityIndex: density-based clustering validation (Moulavi et al. 2014),
//   `hdbscan.validity.validity_index` with Euclidean distances in two dimensions.
// - DBCV.relativeValidity: the library's fast approximation `relative_validity_`,
//   computed on a mutual-reachability minimum spanning tree.

/// The one error type of Metrics. Every message says what was wrong and what to do.
public enum MetricsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The arrays that describe the same points have different lengths.
    case mismatchedLengths(what: String, expected: Int, found: Int)
    /// A coordinate is NaN or infinite; `row` is 0-based.
    case nonFiniteCoordinate(row: Int)
    /// A label outside what the score accepts; `row` is 0-based.
    case invalidLabel(row: Int, value: Int32, requirement: String)
    /// DBCV cannot score a cluster of one point (the hdbscan library fails on it too).
    case clusterTooSmall(label: Int32, size: Int)
    /// An MST edge names a point that does not exist, or has a NaN or negative weight.
    case invalidEdge(index: Int, reason: String)
    /// Stable labels: the fresh labels, from `start`, would pass the largest label (2³¹ − 1).
    case labelsExhausted(start: Int, needed: Int)

    public var description: String {
        switch self {
        case let .mismatchedLengths(what, expected, found):
            return "\(what) has \(found) entries but \(expected) were expected; give one per point"
        case let .nonFiniteCoordinate(row):
            return "row \(row): coordinate is NaN or infinite; remove or fix that row"
        case let .invalidLabel(row, value, requirement):
            return "row \(row): label \(value) is invalid: \(requirement)"
        case let .clusterTooSmall(label, size):
            return "cluster \(label) has \(size) point; DBCV needs at least 2 points in every cluster (relabel it as noise, -1)"
        case let .invalidEdge(index, reason):
            return "MST edge \(index): \(reason)"
        case let .labelsExhausted(start, needed):
            return "\(needed) new cluster(s) need labels from \(start), past the largest label, \(Int32.max): "
                + "renumber the earlier labels (or the next label) lower"
        }
    }
}

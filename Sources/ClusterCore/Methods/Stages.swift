// The stages of each algorithm, as a caller sees them through a `StageObserver`. ClusterCore
// never reads a clock or prints; the Harness passes an observer that times each stage.

/// A named stage of a clustering pipeline; its raw value is the name reports print.
public protocol ClusteringStage: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// HDBSCAN's stages, in the order they run.
public enum HDBSCANStage: String, ClusteringStage {
    /// Co-located points grouped, the k-d tree built.
    case index
    /// Each point's core distance.
    case coreDistances = "core distances"
    /// The minimum spanning tree of the mutual-reachability graph.
    case mst = "MST"
    /// The single-linkage tree.
    case linkage
    /// The condensed tree.
    case condense
    /// Cluster selection.
    case select
    /// Labels, probabilities and outlier scores.
    case label
}

/// DBSCAN's stages, in the order they run.
public enum DBSCANStage: String, ClusteringStage {
    /// Points sorted into cells of side just under eps/√2.
    case grid
    /// Points with at least `minSamples` neighbours found.
    case corePoints = "core points"
    /// Core points joined into clusters.
    case clusters
    /// Non-core points given a neighbouring core point's cluster.
    case borderPoints = "border points"
}

/// Grid clustering's one stage.
public enum GridStage: String, ClusteringStage {
    /// Cells counted, dense cells found (and merged), labels assigned.
    case grid
}

/// Lets a caller wrap each stage, for example to time it. The stage's error type passes
/// through unchanged (typed throws), so a pipeline keeps its own error type end to end.
public protocol StageObserver {
    /// Runs `body`, the work of `stage`, and returns its result (or rethrows its error).
    func run<S: ClusteringStage, T, E: Error>(_ stage: S, _ body: () throws(E) -> T) throws(E) -> T
}

/// An observer that only runs each stage.
public struct NoStageObserver: StageObserver {
    /// The observer.
    public init() {}
    /// Runs `body`.
    @inlinable
    public func run<S: ClusteringStage, T, E: Error>(_ stage: S, _ body: () throws(E) -> T) throws(E) -> T {
        try body()
    }
}

import ClusterCore

/// A clustering method with its parameters: what one run, one benchmark cell or one gate row
/// clusters with. Every parameter is checked by the core's own `validate()` (see `validate`),
/// so the command line, the benchmark and the library share one set of rules.
public enum Method: Sendable, Equatable {
    case hdbscan(HDBSCANParameters)
    case dbscan(DBSCANParameters)
    case grid(GridParameters)

    /// `hdbscan`, `dbscan` or `grid`: the `--algorithm` and `--methods` names.
    public var name: String {
        switch self {
        case .hdbscan: return "hdbscan"
        case .dbscan: return "dbscan"
        case .grid: return "grid"
        }
    }

    /// Checks every parameter's range with the core's rules.
    public func validate() throws(ClusterCoreError) {
        switch self {
        case let .hdbscan(p): try p.validate()
        case let .dbscan(p): try p.validate()
        case let .grid(p): try p.validate()
        }
    }

    /// The parameters as `name=value` pairs joined by spaces, sorted by name: HDBSCAN's
    /// `min_cluster_size` and (effective) `min_samples` always, its other options only when they
    /// differ from the defaults; DBSCAN's `eps` (metres) and `min_samples`; grid's `cell_size`
    /// (metres), `min_points` and `merge`. Names are scikit-learn's where it has them. The
    /// benchmark keys cells and rows by this text, so it never changes for the same parameters.
    public var parameterText: String {
        var pairs: [(String, String)] = []
        switch self {
        case let .hdbscan(p):
            pairs.append(("min_cluster_size", "\(p.minClusterSize)"))
            pairs.append(("min_samples", "\(p.effectiveMinSamples)"))
            if p.minSamplesConvention != .sklearn { pairs.append(("min_samples_convention", p.minSamplesConvention.rawValue)) }
            let s = p.selection
            if s.method != .excessOfMass { pairs.append(("cluster_selection_method", s.method.rawValue)) }
            if s.epsilon != 0 { pairs.append(("cluster_selection_epsilon", Self.number(s.epsilon))) }
            if s.allowSingleCluster { pairs.append(("allow_single_cluster", "true")) }
            if let m = s.maxClusterSize { pairs.append(("max_cluster_size", "\(m)")) }
        case let .dbscan(p):
            pairs.append(("eps", Self.number(p.eps)))
            pairs.append(("min_samples", "\(p.minSamples)"))
        case let .grid(p):
            pairs.append(("cell_size", Self.number(p.cellSize)))
            pairs.append(("min_points", "\(p.minPoints)"))
            pairs.append(("merge", p.mergeAdjacent ? "true" : "false"))
        }
        return pairs.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }

    /// `100` for 100.0, else Swift's shortest round-trip form.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }
}

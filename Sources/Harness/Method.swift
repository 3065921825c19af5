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
            if p.ties != .allAtOnce { pairs.append(("ties", p.ties.rawValue)) }
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

extension Method {
    /// The method named `name` with the parameters of `parameterText` (as `parameterText`
    /// writes them; names not given take the core's defaults). The inverse of
    /// `name`/`parameterText`: a benchmark cell's process rebuilds its method from them.
    /// - Throws: `HarnessError.bench` for an unknown method, name or value.
    public init(name: String, parameterText: String) throws(HarnessError) {
        var values: [String: String] = [:]
        for pair in parameterText.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw .bench("parameter '\(pair)' is not name=value") }
            values[String(parts[0])] = String(parts[1])
        }
        func take(_ key: String) -> String? { values.removeValue(forKey: key) }
        func int(_ key: String) throws(HarnessError) -> Int? {
            guard let t = take(key) else { return nil }
            guard let v = Int(t) else { throw .bench("\(key)=\(t) is not an integer") }
            return v
        }
        func double(_ key: String) throws(HarnessError) -> Double? {
            guard let t = take(key) else { return nil }
            guard let v = Double(t) else { throw .bench("\(key)=\(t) is not a number") }
            return v
        }
        func bool(_ key: String) throws(HarnessError) -> Bool? {
            guard let t = take(key) else { return nil }
            guard t == "true" || t == "false" else { throw .bench("\(key)=\(t) is not true or false") }
            return t == "true"
        }
        switch name {
        case "hdbscan":
            var p = HDBSCANParameters()
            if let v = try int("min_cluster_size") { p.minClusterSize = v }
            p.minSamples = try int("min_samples")
            if let t = take("min_samples_convention") {
                guard let c = MinSamplesConvention(rawValue: t) else { throw .bench("min_samples_convention=\(t): sklearn or hdbscan") }
                p.minSamplesConvention = c
            }
            if let t = take("ties") {
                guard let r = TieRule(rawValue: t) else { throw .bench("ties=\(t): all-at-once or one-at-a-time") }
                p.ties = r
            }
            if let t = take("cluster_selection_method") {
                guard let m = SelectionMethod(rawValue: t) else { throw .bench("cluster_selection_method=\(t): eom or leaf") }
                p.selection.method = m
            }
            if let v = try double("cluster_selection_epsilon") { p.selection.epsilon = v }
            if let v = try bool("allow_single_cluster") { p.selection.allowSingleCluster = v }
            p.selection.maxClusterSize = try int("max_cluster_size")
            self = .hdbscan(p)
        case "dbscan":
            guard let eps = try double("eps") else { throw .bench("dbscan needs eps") }
            var p = DBSCANParameters(eps: eps)
            if let v = try int("min_samples") { p.minSamples = v }
            self = .dbscan(p)
        case "grid":
            guard let cell = try double("cell_size") else { throw .bench("grid needs cell_size") }
            var p = GridParameters(cellSize: cell)
            if let v = try int("min_points") { p.minPoints = v }
            if let v = try bool("merge") { p.mergeAdjacent = v }
            self = .grid(p)
        default:
            throw .bench("unknown method '\(name)': hdbscan, dbscan or grid")
        }
        if let extra = values.keys.sorted().first { throw .bench("\(name) has no parameter '\(extra)'") }
    }
}

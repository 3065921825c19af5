import ClusterCore
import Datasets

// The points `--features` clusters: each row's features (its position in metres, columns of
// its own) put on one scale, so that no feature outweighs the others by its unit alone.

/// How the features are scaled before distances are measured.
public enum FeatureScale: String, Sendable, CaseIterable {
    /// Centred on the mean, divided by the standard deviation (scikit-learn's
    /// `StandardScaler`).
    case standard
    /// Centred on the median, divided by the interquartile range (scikit-learn's
    /// `RobustScaler`): outliers (a penthouse's rent) do not squeeze everyone else together.
    case robust
    /// As read: positions in metres, other columns in their own units.
    case none
}

extension FeatureColumns {
    /// The rows' features as points: `x`, `y` the rows' planar coordinates (metres), each
    /// feature scaled by `scale`. The two coordinates of a position share one spread (the
    /// root mean square of their deviations, or the mean of their interquartile ranges), so
    /// that distances on the map stay distances, the same in every direction; a feature of
    /// spread 0 is only centred. Two features give planar points, more or fewer points in d
    /// dimensions.
    /// - Throws: `ClusterCoreError` for more features than `FeaturePoints.maximumDimensions`.
    public func points(x: [Double], y: [Double], scale: FeatureScale) throws(ClusterCoreError) -> Points {
        let k = columnCount
        var columns = sources.map { source -> [Double] in
            switch source {
            case .coordinate(0): return x
            case .coordinate: return y
            case let .column(i): return (0..<x.count).map { values[$0 * k + i] }
            }
        }
        if scale != .none { columns = scaled(columns, scale) }
        if columns.count == 2 { return .plane(try PointSet(xs: columns[0], ys: columns[1])) }
        return .features(try FeaturePoints(columns: columns))
    }

    /// Whether a feature is a coordinate (the position must then be in planar metres).
    public var hasCoordinates: Bool { sources.contains { if case .coordinate = $0 { true } else { false } } }

    private func scaled(_ columns: [[Double]], _ scale: FeatureScale) -> [[Double]] {
        let centreAndSpread = columns.map { FeatureColumns.centreAndSpread($0, scale) }
        let positions = sources.indices.filter { if case .coordinate = sources[$0] { true } else { false } }
        var shared: Double?
        if !positions.isEmpty {
            let spreads = positions.map { centreAndSpread[$0].spread }
            shared = scale == .standard
                ? (spreads.reduce(0) { $0 + $1 * $1 } / Double(spreads.count)).squareRoot()
                : spreads.reduce(0, +) / Double(spreads.count)
        }
        return columns.indices.map { i in
            let centre = centreAndSpread[i].centre
            var spread = positions.contains(i) ? shared! : centreAndSpread[i].spread
            if !(spread > 0) { spread = 1 }
            return columns[i].map { ($0 - centre) / spread }
        }
    }

    /// The mean and standard deviation (`.standard`) or the median and interquartile range
    /// (`.robust`, quantiles interpolated linearly, as numpy's default).
    static func centreAndSpread(_ v: [Double], _ scale: FeatureScale) -> (centre: Double, spread: Double) {
        guard !v.isEmpty else { return (0, 1) }
        if scale == .standard {
            let mean = v.reduce(0, +) / Double(v.count)
            return (mean, (v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(v.count)).squareRoot())
        }
        let n = v.count
        let at = [0.25, 0.5, 0.75].map { Double(n - 1) * $0 }
        let ranks = Array(Set(at.flatMap { [Int($0.rounded(.down)), Int($0.rounded(.up))] })).sorted()
        let found = Dictionary(uniqueKeysWithValues: zip(ranks, RankSelection.ranked(v, ranks)))
        let q = at.map { p -> Double in
            let lo = found[Int(p.rounded(.down))]!, hi = found[Int(p.rounded(.up))]!
            return lo + (hi - lo) * (p - p.rounded(.down))
        }
        return (q[1], q[2] - q[0])
    }
}

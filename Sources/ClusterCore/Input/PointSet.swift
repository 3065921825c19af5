/// Planar points as a struct of arrays: `xs[i]`, `ys[i]` are the coordinates of point `i`
/// in metres (or any planar unit; every distance parameter is in the same unit).
///
/// Construction validates that every coordinate is finite, so every later stage may assume it.
public struct PointSet: Sendable, Equatable {
    /// Easting (or x) of each point.
    public let xs: [Double]
    /// Northing (or y) of each point.
    public let ys: [Double]

    /// The number of points.
    public var count: Int { xs.count }

    /// Creates a point set, rejecting mismatched arrays and non-finite coordinates.
    /// - Throws: `ClusterCoreError.mismatchedCoordinateCounts`, or
    ///   `ClusterCoreError.nonFiniteCoordinate(row:)` naming the first offending row.
    /// - Complexity: O(n).
    public init(xs: [Double], ys: [Double]) throws(ClusterCoreError) {
        guard xs.count == ys.count else {
            throw .mismatchedCoordinateCounts(xs: xs.count, ys: ys.count)
        }
        for i in 0..<xs.count where !(xs[i].isFinite && ys[i].isFinite) {
            throw .nonFiniteCoordinate(row: i)
        }
        self.xs = xs
        self.ys = ys
    }

    /// No points (what a caller leaves behind after moving its points into a fit).
    public static var empty: PointSet { PointSet(checkedXs: [], ys: []) }

    private init(checkedXs: [Double], ys: [Double]) {
        self.xs = checkedXs
        self.ys = ys
    }

    /// Creates a point set from (x, y) pairs.
    public init(_ points: [(Double, Double)]) throws(ClusterCoreError) {
        try self.init(xs: points.map(\.0), ys: points.map(\.1))
    }
}

// Points with any number of coordinates (1 to `FeaturePoints.maximumDimensions`): embeddings,
// 3-D points, listings with their scaled features beside their position. Distances are
// Euclidean in the coordinates' units, as the planar points' are.

/// Points in d dimensions, row-major: row i is `values[i·d ..< (i+1)·d]`.
///
/// Construction validates the shape and that every coordinate is finite, so every later stage
/// may assume it.
public struct FeaturePoints: Sendable, Equatable {
    /// The most dimensions a point may have.
    public static let maximumDimensions = 64

    /// The coordinates, row after row.
    public let values: [Double]
    /// The number of coordinates of each point.
    public let dimensions: Int

    /// The number of points.
    public var count: Int { values.count / dimensions }

    /// Creates points from their coordinates, row after row.
    /// - Throws: `.invalidParameter` when `dimensions` is not in 1...`maximumDimensions` or
    ///   `values` is not a whole number of rows; `.nonFiniteCoordinate(row:)` naming the first
    ///   row with a NaN or infinite coordinate.
    /// - Complexity: O(n·d).
    public init(values: [Double], dimensions: Int) throws(ClusterCoreError) {
        guard (1...Self.maximumDimensions).contains(dimensions) else {
            throw .invalidParameter(name: "dimensions", value: "\(dimensions)",
                                    requirement: "must be between 1 and \(Self.maximumDimensions)")
        }
        guard values.count % dimensions == 0 else {
            throw .invalidParameter(name: "values", value: "\(values.count) coordinates",
                                    requirement: "must be a whole number of rows of \(dimensions)")
        }
        if let i = values.firstIndex(where: { !$0.isFinite }) { throw .nonFiniteCoordinate(row: i / dimensions) }
        self.values = values
        self.dimensions = dimensions
    }

    /// Creates points from their columns (one array per coordinate, each of n values).
    /// - Throws: as `init(values:dimensions:)`, and `.mismatchedCoordinateCounts` when two
    ///   columns differ in length.
    public init(columns: [[Double]]) throws(ClusterCoreError) {
        let n = columns.first?.count ?? 0
        if let other = columns.first(where: { $0.count != n }) {
            throw .mismatchedCoordinateCounts(xs: n, ys: other.count)
        }
        var values = [Double](repeating: 0, count: n * columns.count)
        for (a, column) in columns.enumerated() {
            for i in 0..<n { values[i * columns.count + a] = column[i] }
        }
        try self.init(values: values, dimensions: columns.count)
    }

    /// Coordinate `axis` of row `row`.
    @inline(__always) public subscript(row: Int, axis: Int) -> Double { values[row * dimensions + axis] }
}

extension FeaturePoints {
    /// The rows ordered by their coordinates alone (`CanonicalOrder`'s contract in d
    /// dimensions): by a hash of the coordinates' bits, then the bits where hashes are equal,
    /// identical rows in input order. -0 is taken as +0.
    /// - Complexity: O(n·d) plus a sort of each run of equal hashes.
    func canonicalOrder() -> [Int32] {
        let n = count, d = dimensions
        return values.withUnsafeBufferPointer { v in
            @inline(__always) func bits(_ row: Int, _ a: Int) -> UInt64 { (v[row * d + a] + 0.0).bitPattern }
            func hash(_ row: Int) -> UInt64 {
                var h: UInt64 = 0x243F_6A88_85A3_08D3
                for a in 0..<d { h = Locations.hash(h, bits(row, a)) }
                return h
            }
            var records = [(key: UInt32, row: Int32)](unsafeUninitializedCapacity: n) { out, initialized in
                for row in 0..<n { out[row] = (UInt32(truncatingIfNeeded: hash(row) >> 32), Int32(row)) }
                initialized = n
            }
            var scratch: [(key: UInt32, row: Int32)] = []
            RadixSort.sortRecords(&records, scratch: &scratch, bits: 16, width: 32, varying: .max) { UInt64($0.key) }
            func precedes(_ a: Int, _ b: Int) -> Bool {
                for axis in 0..<d {
                    let x = bits(a, axis), y = bits(b, axis)
                    if x != y { return x < y }
                }
                return a < b
            }
            var start = 0
            while start < n {
                var end = start + 1
                while end < n && records[end].key == records[start].key { end += 1 }
                if end - start > 1 { records[start..<end].sort { precedes(Int($0.row), Int($1.row)) } }
                start = end
            }
            return records.map(\.row)
        }
    }

    /// Whether rows a and b have the same coordinates (-0 equal to +0).
    @inline(__always) func sameCoordinates(_ a: Int, _ b: Int) -> Bool {
        for axis in 0..<dimensions where self[a, axis] != self[b, axis] { return false }
        return true
    }

    /// The distinct points in canonical order, grouping identical rows into weighted
    /// locations (see `Locations`): nil when every row has coordinates of its own and there
    /// are no sample weights (each row is then its own location, in `order`).
    func locations(order: [Int32], sampleWeight: [Int32]?) -> (points: FeaturePoints, locations: Locations)? {
        let n = count
        var start: [Int32] = [0]
        for i in 1..<max(n, 1) where !sameCoordinates(Int(order[i - 1]), Int(order[i])) { start.append(Int32(i)) }
        if n == 0 { return nil }
        start.append(Int32(n))
        let distinct = start.count - 1
        if distinct == n && sampleWeight == nil { return nil }
        var rows = [Int32](repeating: 0, count: n)
        var weight = [Int32](repeating: 0, count: distinct)
        var values = [Double](repeating: 0, count: distinct * dimensions)
        for l in 0..<distinct {
            let s = Int(start[l]), e = Int(start[l + 1])
            // Each location's rows ascending.
            let sorted = order[s..<e].sorted()
            for (j, row) in sorted.enumerated() {
                rows[s + j] = row
                weight[l] += sampleWeight?[Int(row)] ?? 1
            }
            let first = Int(sorted[0])
            for a in 0..<dimensions { values[l * dimensions + a] = self[first, a] + 0.0 }
        }
        let located = FeaturePoints(checked: values, dimensions: dimensions)
        return (located, Locations(points: .empty, weight: weight, start: start, rows: rows, rowWeight: sampleWeight))
    }

    /// Points already checked.
    init(checked values: [Double], dimensions: Int) {
        self.values = values
        self.dimensions = dimensions
    }
}

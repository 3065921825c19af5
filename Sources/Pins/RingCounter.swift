// The locations whose true position lies in a ring around a displayed point: what an attacker
// with a building registry computes, and what the anonymity rule and report count.

/// Counts the locations whose true position lies within a ring around a point: the
/// locations' anchors in a grid of cells about `cell` metres, distances measured as the mask
/// measures offsets (east and north metres at the location's latitude).
struct RingCounter: Sendable {
    /// Each location's (longitude, latitude, metres per degree of longitude, of latitude), in
    /// cell order.
    private let points: [SIMD4<Double>]
    /// Cell (row, column) → its locations' range in `points`: a dense table over the data's
    /// rows and columns when that is small (one city), a hash table otherwise.
    private let dense: [Int32]
    private let sparse: [Int64: Range<Int32>]
    private let row0: Int64, col0: Int64, rows: Int64, cols: Int64
    private let cellLon: Double, cellLat: Double, columns: Int64
    private let cellMetres: Double, polewardMetresPerDegree: Double

    init(longitudes: [Double], latitudes: [Double], cell metres: Double) {
        // Cells no wider than `metres` anywhere in the data: degrees at the most poleward
        // latitude (capped where a degree of longitude shrinks towards nothing).
        let poleward = min(latitudes.map(abs).max() ?? 0, 85)
        let cLat = metres / WebMercator.metresPerDegree(latitude: 0).latitude
        polewardMetresPerDegree = WebMercator.metresPerDegree(latitude: poleward).longitude
        cellMetres = metres
        let cLon = metres / polewardMetresPerDegree
        let allColumns = Int64((360 / cLon).rounded(.up))
        cellLat = cLat; cellLon = cLon; columns = allColumns
        let at = (0..<longitudes.count).map { Self.cell(longitudes[$0], latitudes[$0], cLon, cLat, allColumns) }
        let r0 = at.map(\.row).min() ?? 0, c0 = at.map(\.col).min() ?? 0
        let nr = (at.map(\.row).max() ?? 0) - r0 + 1, nc = (at.map(\.col).max() ?? 0) - c0 + 1
        row0 = r0; col0 = c0; rows = nr; cols = nc
        let useDense = nr * nc <= 8 * Int64(longitudes.count) + (1 << 20)
        let keys = at.map { useDense ? ($0.row - r0) * nc + ($0.col - c0) : $0.row * allColumns + $0.col }
        var byCell = Array(0..<Int32(longitudes.count))
        byCell.sort { (keys[Int($0)], $0) < (keys[Int($1)], $1) }
        points = byCell.map { l in
            let m = WebMercator.metresPerDegree(latitude: latitudes[Int(l)])
            return SIMD4(longitudes[Int(l)], latitudes[Int(l)], m.longitude, m.latitude)
        }
        var table = useDense ? [Int32](repeating: 0, count: Int(nr * nc) + 1) : []
        var hash: [Int64: Range<Int32>] = [:]
        var start = 0
        while start < byCell.count {
            let key = keys[Int(byCell[start])]
            var end = start + 1
            while end < byCell.count && keys[Int(byCell[end])] == key { end += 1 }
            if useDense { table[Int(key) + 1] = Int32(end - start) } else { hash[key] = Int32(start)..<Int32(end) }
            start = end
        }
        for k in table.indices.dropFirst() { table[k] += table[k - 1] }
        dense = table; sparse = hash
    }

    private static func cell(_ lon: Double, _ lat: Double, _ cellLon: Double, _ cellLat: Double,
                             _ columns: Int64) -> (row: Int64, col: Int64) {
        (Int64(((lat + 90) / cellLat).rounded(.down)), Int64(((lon + 180) / cellLon).rounded(.down)) % columns)
    }

    /// The locations of cell (`r`, `c`), `c` already wrapped into 0..<columns.
    @inline(__always)
    private func range(_ r: Int64, _ c: Int64) -> Range<Int32>? {
        guard !dense.isEmpty else { return sparse[r * columns + c] }
        let y = r - row0, x = c - col0
        guard y >= 0, y < rows, x >= 0, x < cols else { return nil }
        let k = Int(y * cols + x)
        return dense[k]..<dense[k + 1]
    }

    /// The offsets (east, north metres) from each location in the ring to the point, into
    /// `members` (emptied first).
    func members(longitude: Double, latitude: Double, inner: Double, outer: Double, into members: inout [SIMD2<Double>]) {
        members.removeAll(keepingCapacity: true)
        visit(longitude: longitude, latitude: latitude, inner: inner, outer: outer) { e, n in
            members.append(SIMD2(e, n)); return true
        }
    }

    /// Calls `body` with the offset (east, north metres) from each location in the ring
    /// `inner...outer` around the point to the point, until it returns false.
    @inline(__always)
    private func visit(longitude: Double, latitude: Double, inner: Double, outer: Double,
                       _ body: (Double, Double) -> Bool) {
        // Rows and columns that can hold a location within `outer` metres of the point: a cell
        // is at least `cellMetres` high everywhere, and `cellMetres` wide at the data's most
        // poleward latitude, wider nearer the equator.
        let dRows = Int64((outer / cellMetres - 1e-9).rounded(.up))
        let widest = min(abs(latitude) + outer / 100_000, 85)
        let stretch = polewardMetresPerDegree / WebMercator.metresPerDegree(latitude: widest).longitude
        let dCols = min(Int64((outer / cellMetres * max(stretch, 1) - 1e-9).rounded(.up)), (columns - 1) / 2)
        let row = Int64(((latitude + 90) / cellLat).rounded(.down))
        let col = Int64(((longitude + 180) / cellLon).rounded(.down))
        let i2 = inner * inner, o2 = outer * outer
        for r in (row - dRows)...(row + dRows) {
            for c in (col - dCols)...(col + dCols) {
                guard let range = range(r, ((c % columns) + columns) % columns) else { continue }
                for p in range {
                    let q = points[Int(p)]
                    var dl = longitude - q.x
                    if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
                    let e = dl * q.z, north = (latitude - q.y) * q.w
                    let d2 = e * e + north * north
                    if d2 >= i2 && d2 <= o2 && !body(e, north) { return }
                }
            }
        }
    }
}

/// The locations in one ring as an attacker sees them: how many, and how many of them the
/// likeliest spot holds (the most within `spot` metres of one of them, itself counted).
struct RingCensus: Equatable {
    var count: Int
    var largestSpot: Int

    /// Whether an attacker who names a spot is right for at most 1/`minimum` of the ring:
    /// at least `minimum` locations, and no spot holding more than count/`minimum` of them.
    static func isAnonymous(_ members: inout [SIMD2<Double>], minimum: Int, spot: Double) -> Bool {
        let limit = members.count / minimum
        return limit >= 1 && largestSpot(&members, spot: spot, stoppingAbove: limit) <= limit
    }

    /// The census of `members` (offsets in metres), exactly.
    static func of(_ members: inout [SIMD2<Double>], spot: Double) -> RingCensus {
        RingCensus(count: members.count, largestSpot: largestSpot(&members, spot: spot, stoppingAbove: .max))
    }

    /// The most members within `spot` metres of one member (itself counted) when `limit` is
    /// `Int.max`; otherwise a number above `limit` exactly when that most is above it (returned
    /// as soon as one is found). Reorders `members`.
    ///
    /// Members are put in square cells of side spot/√2 over their bounding box (a counting
    /// sort), whose diagonal is `spot`: the members of one cell all lie within `spot` of each
    /// other (a lower bound), and a member's spot lies within the 5 × 5 cells around its own (an
    /// upper bound). Only a cell whose block could beat the best found so far has its members'
    /// spots counted.
    /// - Complexity: O(n + cells), plus the distances within the blocks that could beat the best.
    static func largestSpot(_ members: inout [SIMD2<Double>], spot: Double, stoppingAbove limit: Int) -> Int {
        guard members.count > 1, spot > 0 else { return members.count }
        let side = spot / 2.0.squareRoot()
        var lo = members[0], hi = members[0]
        for p in members { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        let w = Int(((hi.x - lo.x) / side).rounded(.down)) + 1, h = Int(((hi.y - lo.y) / side).rounded(.down)) + 1
        @inline(__always) func cell(_ p: SIMD2<Double>) -> Int {
            min(Int(((p.y - lo.y) / side).rounded(.down)), h - 1) * w + min(Int(((p.x - lo.x) / side).rounded(.down)), w - 1)
        }
        var start = [Int32](repeating: 0, count: w * h + 1)
        for p in members { start[cell(p) + 1] += 1 }
        var best = 1
        for c in 0..<(w * h) { best = max(best, Int(start[c + 1])); start[c + 1] += start[c] }
        if best > limit { return best }
        var next = start, sorted = members
        for p in members { let c = cell(p); sorted[Int(next[c])] = p; next[c] += 1 }
        members = sorted
        let s2 = spot * spot
        for cy in 0..<h {
            for cx in 0..<w where start[cy * w + cx + 1] > start[cy * w + cx] {
                let ys = max(cy - 2, 0)...min(cy + 2, h - 1), xs = max(cx - 2, 0)...min(cx + 2, w - 1)
                var block = 0
                for y in ys { block += Int(start[y * w + xs.upperBound + 1] - start[y * w + xs.lowerBound]) }
                // Members of this cell have at most `block` in their spots: no better than the
                // best, or (when only whether one exceeds `limit` matters) not above `limit`.
                if block <= best || (limit != .max && block <= limit) { continue }
                for i in Int(start[cy * w + cx])..<Int(start[cy * w + cx + 1]) {
                    let p = members[i]
                    var n = 0
                    for y in ys {
                        for j in Int(start[y * w + xs.lowerBound])..<Int(start[y * w + xs.upperBound + 1]) {
                            let d = members[j] - p
                            if d.x * d.x + d.y * d.y <= s2 { n += 1 }
                        }
                    }
                    best = max(best, n)
                    if best > limit { return best }
                }
            }
        }
        return best
    }
}

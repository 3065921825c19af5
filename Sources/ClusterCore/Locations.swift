/// The distinct locations of a point set: points with identical coordinates (listings in one
/// building) grouped, each group standing once for all its points.
///
/// HDBSCAN sees co-located points exactly as one location of weight m: their distance is 0,
/// so the mutual-reachability distance between two of them is their shared core distance, and
/// every edge from one of them to another point weighs at least that much. So an MST of the
/// points is an MST of the locations (with each location's core distance computed over the
/// weighted points) plus, inside every location of m points, m - 1 edges of its core
/// distance. `HDBSCAN` builds the k-d tree, the core distances and the MST over the locations
/// and adds those edges: the MST weights are the same multiset as over the points, and the
/// condensed tree, which treats equal weights as one n-ary split (see `CondensedTree`),
/// depends on nothing else, so labels, probabilities and outlier scores are identical.
struct Locations {
    /// Coordinates of each location, in order of its first row.
    let points: PointSet
    /// Points at each location.
    let weight: [Int32]
    /// The rows of location l are `rows[start[l] ..< start[l + 1]]`, ascending.
    let start: [Int32]
    let rows: [Int32]

    var count: Int { weight.count }

    /// Groups the rows by coordinates (bit for bit, -0 equal to +0); nil when every point has
    /// coordinates of its own (then the grouping buys nothing).
    /// - Complexity: O(n) expected (open addressing on the coordinates' bits).
    static func group(_ points: PointSet) -> Locations? {
        let n = points.count
        if n < 2 { return nil }
        var capacity = 1
        while capacity < 2 * n { capacity <<= 1 }
        let mask = capacity - 1
        // slot -> location id + 1 (0 = empty)
        var table = [Int32](repeating: 0, count: capacity)
        var locationOf = [Int32](repeating: 0, count: n)
        var firstRow: [Int32] = []
        firstRow.reserveCapacity(n / 2)
        var count = 0
        points.xs.withUnsafeBufferPointer { xs in
        points.ys.withUnsafeBufferPointer { ys in
        table.withUnsafeMutableBufferPointer { table in
        locationOf.withUnsafeMutableBufferPointer { locationOf in
            for row in 0..<n {
                // `+ 0.0` turns -0.0 into +0.0, so both land in one location (they are equal).
                let bx = (xs[row] + 0.0).bitPattern, by = (ys[row] + 0.0).bitPattern
                var h = bx &* 0x9E37_79B9_7F4A_7C15 ^ (by &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
                h ^= h >> 31
                var slot = Int(truncatingIfNeeded: h) & mask
                while true {
                    let entry = Int(table[slot])
                    if entry == 0 {
                        table[slot] = Int32(count + 1)
                        locationOf[row] = Int32(count)
                        firstRow.append(Int32(row))
                        count += 1
                        break
                    }
                    let r = Int(firstRow[entry - 1])
                    if (xs[r] + 0.0).bitPattern == bx && (ys[r] + 0.0).bitPattern == by {
                        locationOf[row] = Int32(entry - 1)
                        break
                    }
                    slot = (slot + 1) & mask
                }
            }
        }}}}
        if count == n { return nil }
        table = []
        // Counting sort of the rows by location: each location's rows stay ascending.
        var weight = [Int32](repeating: 0, count: count)
        for row in 0..<n { weight[Int(locationOf[row])] += 1 }
        var start = [Int32](repeating: 0, count: count + 1)
        for l in 0..<count { start[l + 1] = start[l] + weight[l] }
        var next = Array(start.dropLast())
        var rows = [Int32](repeating: 0, count: n)
        for row in 0..<n {
            let l = Int(locationOf[row])
            rows[Int(next[l])] = Int32(row)
            next[l] += 1
        }
        let xs = firstRow.map { points.xs[Int($0)] }, ys = firstRow.map { points.ys[Int($0)] }
        // The first row's coordinates are finite (the point set checked them).
        let located = try! PointSet(xs: xs, ys: ys)
        return Locations(points: located, weight: weight, start: start, rows: rows)
    }
}

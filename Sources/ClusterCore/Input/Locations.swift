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
    /// Weight of each location: its number of points, or with sample weights the sum of its
    /// rows' weights (each row standing for that many co-located points).
    let weight: [Int32]
    /// The rows of location l are `rows[start[l] ..< start[l + 1]]`, ascending.
    let start: [Int32]
    let rows: [Int32]
    /// The sample weight of each row, when the rows have weights (nil: 1 each).
    var rowWeight: [Int32]? = nil
    /// The sum of the locations' weights.
    var totalWeight: Int { weight.reduce(0) { $0 + Int($1) } }

    var count: Int { weight.count }

    /// Rows at location l.
    @inline(__always) func rowCount(_ l: Int) -> Int32 { start[l + 1] - start[l] }

    /// Groups the rows by coordinates (bit for bit, -0 equal to +0); nil when every point has
    /// coordinates of its own (then the grouping buys nothing). Locations are numbered in order
    /// of their first row, so the result is the same for any `threads`.
    /// - Complexity: O(n) expected: open addressing on the coordinates' bits, the rows split
    ///   between two workers by one bit of their hash, each with a table of its own (at 10M
    ///   rows the table lookups are cache misses, and a worker's table is half the size).
    ///
    /// With `sampleWeight` (by row, each at least 1) the grouping is always made, even when
    /// every row has a location of its own, and each location weighs the sum of its rows'
    /// weights.
    static func group(_ points: PointSet, sampleWeight: [Int32]? = nil, threads: Int = 1) -> Locations? {
        let n = points.count
        if sampleWeight == nil && (n < 2 || !worthGrouping(points)) { return nil }
        let parts = threads >= 2 ? 2 : 1
        var locationOf = [Int32](repeating: 0, count: n)
        var found = [Part](repeating: Part(), count: parts)
        points.xs.withUnsafeBufferPointer { xs in
        points.ys.withUnsafeBufferPointer { ys in
        locationOf.withUnsafeMutableBufferPointer { locationOf in
        found.withUnsafeMutableBufferPointer { found in
            let out = SharedBuffer(base: locationOf.baseAddress!), results = SharedBuffer(base: found.baseAddress!)
            Parallel.forEachChunk(count: parts, grain: 1, threads: parts) { chunk, _ in
                for part in chunk {
                    results[part] = Part.scan(xs: xs, ys: ys, part: part, parts: parts, expected: n / parts, into: out)
                }
            }
        }}}}
        let count = found.reduce(0) { $0 + $1.firstRow.count }
        if count == n && sampleWeight == nil { return nil }
        // Global numbering by first row: merge the parts' ascending first rows.
        var globalOf = found.map { [Int32](repeating: 0, count: $0.firstRow.count) }
        var xs = [Double](), ys = [Double]()
        xs.reserveCapacity(count); ys.reserveCapacity(count)
        var next = [Int](repeating: 0, count: parts)
        for id in 0..<count {
            var best = -1
            for part in 0..<parts where next[part] < found[part].firstRow.count {
                if best < 0 || found[part].firstRow[next[part]] < found[best].firstRow[next[best]] { best = part }
            }
            let local = next[best]
            globalOf[best][local] = Int32(id)
            xs.append(found[best].xs[local]); ys.append(found[best].ys[local])
            next[best] += 1
        }
        found = []
        // Rows to global ids (a row's part is in its top bit), and the weights.
        locationOf.withUnsafeMutableBufferPointer { locationOf in
            let ids = SharedBuffer(base: locationOf.baseAddress!)
            Parallel.forEachChunk(count: n, grain: 1 << 16, threads: threads) { chunk, _ in
                for row in chunk {
                    let v = UInt32(bitPattern: ids[row])
                    ids[row] = globalOf[Int(v >> 31)][Int(v & 0x7FFF_FFFF)]
                }
            }
        }
        // Counting sort of the rows by location: each location's rows stay ascending.
        var rowCount = [Int32](repeating: 0, count: count)
        for row in 0..<n { rowCount[Int(locationOf[row])] += 1 }
        var start = [Int32](repeating: 0, count: count + 1)
        for l in 0..<count { start[l + 1] = start[l] + rowCount[l] }
        var weight = rowCount
        if let sampleWeight {
            weight = [Int32](repeating: 0, count: count)
            for row in 0..<n { weight[Int(locationOf[row])] += sampleWeight[row] }
        }
        var fill = Array(start.dropLast())
        var rows = [Int32](repeating: 0, count: n)
        for row in 0..<n {
            let l = Int(locationOf[row])
            rows[Int(fill[l])] = Int32(row)
            fill[l] += 1
        }
        // The first row's coordinates are finite (the point set checked them).
        let located = try! PointSet(xs: xs, ys: ys)
        return Locations(points: located, weight: weight, start: start, rows: rows, rowWeight: sampleWeight)
    }

    /// Whether enough rows share coordinates for the grouping to pay: the rows whose
    /// coordinates' hash falls in one sixteenth of its range are grouped (a sample chosen by the
    /// points, not by their order, so the choice is the same for any order of the rows), and
    /// it pays when at least 1 % of those share a location with another sampled row: the
    /// generator's listing scenarios are well above that and distinct points at zero (the
    /// shares: docs/performance.md). On distinct points grouping every row cost time and memory
    /// for nothing; the sample groups a sixteenth of the rows (every row is only hashed). On the
    /// plane the result is the same either way (only the speed differs); on the sphere the
    /// grouping changes which equal chords tie, which is why the sample must not depend on the
    /// order.
    static func worthGrouping(_ points: PointSet) -> Bool {
        let n = points.count
        if n < 4096 { return true }
        var xs: [Double] = [], ys: [Double] = []
        xs.reserveCapacity(n / 8); ys.reserveCapacity(n / 8)
        for row in 0..<n {
            let x = points.xs[row] + 0.0, y = points.ys[row] + 0.0
            if hash(x.bitPattern, y.bitPattern) >> 60 == 0 { xs.append(x); ys.append(y) }
        }
        var ids = [Int32](repeating: 0, count: xs.count)
        let found = xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                ids.withUnsafeMutableBufferPointer { ids in
                    Part.scan(xs: xs, ys: ys, part: 0, parts: 1, expected: xs.count,
                              into: SharedBuffer(base: ids.baseAddress!))
                }
            }
        }
        return 100 * (xs.count - found.firstRow.count) >= xs.count
    }

    /// A 64-bit hash of a point's coordinates (their bit patterns; -0 is the caller's to
    /// turn into +0 first).
    @inline(__always) static func hash(_ bx: UInt64, _ by: UInt64) -> UInt64 {
        var h = bx &* 0x9E37_79B9_7F4A_7C15 ^ (by &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return h
    }

    /// The locations one worker found: those whose hash falls in its part, numbered in order of
    /// their first row, with their coordinates.
    private struct Part {
        var firstRow: [Int32] = []
        var xs: [Double] = []
        var ys: [Double] = []

        @inline(__always) static func hash(_ bx: UInt64, _ by: UInt64) -> UInt64 { Locations.hash(bx, by) }

        /// Scans every row, keeps those of `part` (the hash's top bit, with two parts), and
        /// writes each kept row's local location id, tagged with the part in bit 31.
        static func scan(xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>, part: Int, parts: Int,
                         expected: Int, into out: SharedBuffer<Int32>) -> Part {
            var result = Part()
            // Slots hold (hash's upper 32 bits, local id + 1); 0 is empty. The table starts
            // at a quarter of the rows and doubles at half full.
            var capacity = 1 << 10
            while capacity < expected / 2 { capacity <<= 1 }
            var table = [UInt64](repeating: 0, count: capacity)
            var mask = capacity - 1
            let tag = Int32(bitPattern: UInt32(part) << 31)
            for row in 0..<xs.count {
                // `+ 0.0` turns -0.0 into +0.0, so both land in one location (they are equal).
                let x = xs[row] + 0.0, y = ys[row] + 0.0
                let bx = x.bitPattern, by = y.bitPattern
                let h = hash(bx, by)
                if parts == 2 && Int(h >> 63) != part { continue }
                let high = h >> 32
                var slot = Int(truncatingIfNeeded: h) & mask
                while true {
                    let entry = table[slot]
                    if entry == 0 {
                        let id = result.firstRow.count
                        table[slot] = high << 32 | UInt64(id + 1)
                        result.firstRow.append(Int32(row)); result.xs.append(x); result.ys.append(y)
                        out[row] = Int32(id) | tag
                        if 2 * (id + 1) > capacity {
                            capacity <<= 1; mask = capacity - 1
                            table = rehash(result, capacity: capacity)
                        }
                        break
                    }
                    if entry >> 32 == high {
                        let id = Int(entry & 0xFFFF_FFFF) - 1
                        if result.xs[id].bitPattern == bx && result.ys[id].bitPattern == by {
                            out[row] = Int32(id) | tag
                            break
                        }
                    }
                    slot = (slot + 1) & mask
                }
            }
            return result
        }

        private static func rehash(_ part: Part, capacity: Int) -> [UInt64] {
            var table = [UInt64](repeating: 0, count: capacity)
            let mask = capacity - 1
            for id in 0..<part.firstRow.count {
                let h = hash(part.xs[id].bitPattern, part.ys[id].bitPattern)
                var slot = Int(truncatingIfNeeded: h) & mask
                while table[slot] != 0 { slot = (slot + 1) & mask }
                table[slot] = (h >> 32) << 32 | UInt64(id + 1)
            }
            return table
        }
    }
}

// An order of points that depends on the points alone: the sphere tree is built from it, so
// that its positions, and every tie its searches break by position, are the same for any
// order of the input rows.

extension SpherePoints {
    /// The rows in ascending order of a hash of their coordinates, then of latitude and
    /// longitude (as bits) where hashes are equal: rows at distinct coordinates come in the
    /// same order whatever order they were given in (rows at identical coordinates, which no
    /// computation tells apart, in their input order). -0 is taken as +0.
    /// - Complexity: O(n): two 16-bit radix passes over (32-bit hash, row) records; runs of
    ///   equal hashes (about n²/2³³ pairs of distinct points) are sorted by comparison.
    func canonicalOrder() -> [Int32] {
        let n = count
        var records = [HashedRow](unsafeUninitializedCapacity: n) { out, initialized in
            for row in 0..<n {
                let lat = latitudes[row] + 0.0, lon = longitudes[row] + 0.0
                let h = Locations.hash(lat.bitPattern, lon.bitPattern)
                out[row] = HashedRow(key: UInt32(truncatingIfNeeded: h >> 32), row: Int32(row))
            }
            initialized = n
        }
        var scratch: [HashedRow] = []
        RadixSort.sortRecords(&records, scratch: &scratch, bits: 16, width: 32, varying: .max) { UInt64($0.key) }
        settleEqualHashes(&records)
        return records.map(\.row)
    }

    /// Puts runs of equal hashes (distinct points that collide, or identical points) in order
    /// of latitude and longitude, stably.
    private func settleEqualHashes(_ records: inout [HashedRow]) {
        var start = 0
        while start < records.count {
            var end = start + 1
            while end < records.count && records[end].key == records[start].key { end += 1 }
            if end - start > 1 {
                records[start..<end].sort { a, b in
                    let ka = bits(Int(a.row)), kb = bits(Int(b.row))
                    return ka != kb ? ka < kb : a.row < b.row
                }
            }
            start = end
        }
    }

    /// A row's (latitude, longitude) as bit patterns, -0 as +0: equal exactly when the
    /// coordinates are.
    private func bits(_ row: Int) -> (UInt64, UInt64) {
        ((latitudes[row] + 0.0).bitPattern, (longitudes[row] + 0.0).bitPattern)
    }
}

/// A row and the hash of its coordinates, sorted by the hash.
private struct HashedRow {
    var key: UInt32
    var row: Int32
}

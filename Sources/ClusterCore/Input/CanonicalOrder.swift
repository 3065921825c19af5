// An order of points that depends on the points alone: the sphere tree is always built from
// it, the planar k-d tree when ties are condensed one at a time, so that tree positions, and
// every tie broken by position, are the same for any order of the input rows.

/// Rows ordered by their coordinates alone.
enum CanonicalOrder {
    /// The rows in ascending order of a hash of their two coordinates, then of the coordinates
    /// (as bits) where hashes are equal: rows at distinct coordinates come in the same order
    /// whatever order they were given in (rows at identical coordinates, which no computation
    /// tells apart, in their input order). -0 is taken as +0.
    /// - Complexity: O(n): two 16-bit radix passes over (32-bit hash, row) records; runs of
    ///   equal hashes (about n²/2³³ pairs of distinct points) are sorted by comparison.
    static func rows(_ first: [Double], _ second: [Double]) -> [Int32] {
        let n = first.count
        @inline(__always) func bits(_ row: Int) -> (UInt64, UInt64) {
            ((first[row] + 0.0).bitPattern, (second[row] + 0.0).bitPattern)
        }
        var records = [HashedRow](unsafeUninitializedCapacity: n) { out, initialized in
            for row in 0..<n {
                let (a, b) = bits(row)
                out[row] = HashedRow(key: UInt32(truncatingIfNeeded: Locations.hash(a, b) >> 32), row: Int32(row))
            }
            initialized = n
        }
        var scratch: [HashedRow] = []
        RadixSort.sortRecords(&records, scratch: &scratch, bits: 16, width: 32, varying: .max) { UInt64($0.key) }
        // Runs of equal hashes (distinct points that collide, or identical points): by
        // coordinates, stably.
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
        return records.map(\.row)
    }
}

extension SpherePoints {
    /// The rows in `CanonicalOrder`, by (latitude, longitude).
    func canonicalOrder() -> [Int32] { CanonicalOrder.rows(latitudes, longitudes) }
}

/// A row and the hash of its coordinates, sorted by the hash.
private struct HashedRow {
    var key: UInt32
    var row: Int32
}

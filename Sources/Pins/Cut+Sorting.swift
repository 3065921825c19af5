// The sorts of the cut's records by a 64-bit key (discs by grid cell, locations by token),
// and the grid cells' keys.

@_spi(Sorting) import ClusterCore

/// A record sorted by a 64-bit key (`Cut.sortByKey`).
protocol KeyedRecord { var key: UInt64 { get }; var root: Int32 { get } }
extension Cut.Disc: KeyedRecord {}
struct TokenRoot: KeyedRecord { var key: UInt64; var root: Int32 }

extension Cut {
    /// Sorts by key, stably: least-significant-digit radix sort, 16-bit digits, skipping the
    /// digits that every key shares (a city's cells share their high bits). Below 4096 records
    /// a comparison sort on (key, root) in place instead (a root twice in a list is the same
    /// record twice): the 65,536 counters of a radix pass cost more than such a list, and the
    /// overlap rounds sort many short lists. The scratch buffer is the caller's, kept across
    /// calls and grown when needed (copying the records into it to size it cost more than a
    /// radix pass).
    static func sortByKey<T: KeyedRecord>(_ keys: inout [T], scratch: inout [T]) {
        let n = keys.count
        if n < 4096 {
            keys.sort { ($0.key, $0.root) < ($1.key, $1.root) }
            return
        }
        var varying: UInt64 = 0
        let first = keys[0].key
        for k in keys { varying |= k.key ^ first }
        RadixSort.sortRecords(&keys, scratch: &scratch, bits: 16, width: 64, varying: varying) { $0.key }
    }

    /// Sorts discs by cell, row by row (as `sortByKey`, stably), on the cell coordinates less
    /// their minimum packed into one 32-bit word when they fit: 11-bit digits then (2,048
    /// counters, which stay in cache while records are scattered; with 65,536 the scatter's
    /// writes missed) and usually three passes. Otherwise `sortByKey`.
    static func sortByCell(_ discs: inout [Disc], scratch: inout [Disc]) {
        let n = discs.count
        if n < 4096 { sortByKey(&discs, scratch: &scratch); return }
        var gx0 = UInt64.max, gy0 = UInt64.max, gx1: UInt64 = 0, gy1: UInt64 = 0
        for d in discs {
            let gx = d.key & 0xFFFF_FFFF, gy = d.key >> 32
            gx0 = min(gx0, gx); gx1 = max(gx1, gx); gy0 = min(gy0, gy); gy1 = max(gy1, gy)
        }
        let bitsX = UInt64(64 - (gx1 - gx0).leadingZeroBitCount), bitsY = UInt64(64 - (gy1 - gy0).leadingZeroBitCount)
        guard bitsX + bitsY <= 33 else { sortByKey(&discs, scratch: &scratch); return }
        @inline(__always) func compact(_ key: UInt64) -> UInt64 { ((key >> 32) - gy0) << bitsX | ((key & 0xFFFF_FFFF) - gx0) }
        RadixSort.sortRecords(&discs, scratch: &scratch, bits: 11, width: bitsX + bitsY, varying: .max) { compact($0.key) }
    }

    @inline(__always)
    static func pack(_ gx: Int64, _ gy: Int64) -> UInt64 { (UInt64(gy) << 32) | UInt64(gx) }

    @inline(__always)
    static func cellKey(_ x: Double, _ y: Double) -> UInt64 {
        pack(Int64(max(x, 0).rounded(.down)), Int64(max(y, 0).rounded(.down)))
    }

    /// The first position at or after `start` whose key is not below `key`: a gallop
    /// (steps 1, 2, 4, … from `start`), then a binary search in the last step.
    static func lowerBound<T: KeyedRecord>(_ keys: UnsafeBufferPointer<T>, _ key: UInt64, after start: Int) -> Int {
        var lo = start, step = 1
        var hi = start
        while hi < keys.count && keys[hi].key < key { lo = hi + 1; hi = start + step; step <<= 1 }
        hi = min(hi, keys.count)
        while lo < hi { let m = (lo + hi) / 2; if keys[m].key < key { lo = m + 1 } else { hi = m } }
        return lo
    }

    static func lowerBound<T: KeyedRecord>(_ keys: [T], _ key: UInt64, after start: Int) -> Int {
        keys.withUnsafeBufferPointer { lowerBound($0, key, after: start) }
    }
}


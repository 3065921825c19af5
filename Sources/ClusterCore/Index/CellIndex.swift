/// Points bucketed into square cells: the spatial index of `GridClustering` and `DBSCAN`.
///
/// Cell (i, j) holds the points with `i == floor((x − originX) / side)` and
/// `j == floor((y − originY) / side)`, both computed in `Double` arithmetic exactly as
/// written (so a point on a boundary belongs to the cell above or to the right). Only
/// occupied cells are stored, sorted row-major by `(j, i)`; inside a cell the points keep
/// their input order. A cell's key is `(j − minJ) · columnCount + (i − minI)`, so the cells of
/// one grid row with consecutive columns have consecutive keys.
///
/// - Complexity: building is O(n) time and memory: one counting pass when the grid's bounding
///   rectangle has at most about 2n cells, otherwise a radix sort of the keys (one pass per
///   key byte that is not the same in all keys). Nothing depends on a thread count.
struct CellIndex: Sendable {
    /// Side of a cell, in the points' unit (metres).
    let side: Double
    /// Input rows in cell order (a user that copies them out may empty this).
    var rows: [Int32]
    /// Coordinates in cell order (only when asked for at construction, else empty).
    var sortedXs: [Double]
    var sortedYs: [Double]
    /// `cellStart[c]..<cellStart[c + 1]` are the positions in `rows` of cell `c`'s points.
    let cellStart: [Int32]
    /// Key of each occupied cell, strictly ascending.
    let keys: [UInt64]
    /// Grid coordinates of the cell with relative coordinates (0, 0).
    let minI: Int64
    let minJ: Int64
    /// Relative columns and rows spanned by the points: `0..<columnCount`, `0..<rowCount`.
    let columnCount: Int64
    let rowCount: Int64

    /// The largest number of cells along one axis.
    static let maxCellsPerAxis: Double = 2_147_483_000

    var cellCount: Int { keys.count }

    /// Buckets the points.
    /// - Parameters:
    ///   - side: cell side, finite and > 0.
    ///   - originX, originY: the corner of cell (0, 0).
    ///   - parameterName: named in the error when the grid would be too fine.
    ///   - keepCoordinates: also fill `sortedXs`, `sortedYs`.
    /// - Throws: `ClusterCoreError.invalidParameter` when the points span more than 2³¹ cells
    ///   along an axis (`side` far too small for the extent of the data).
    init(xs: [Double], ys: [Double], side: Double, originX: Double, originY: Double,
         parameterName: String, keepCoordinates: Bool = false) throws(ClusterCoreError) {
        let n = xs.count
        self.side = side
        var lo = (Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity)
        for p in 0..<n {
            let a = ((xs[p] - originX) / side).rounded(.down), b = ((ys[p] - originY) / side).rounded(.down)
            lo = (min(lo.0, a), min(lo.1, b)); hi = (max(hi.0, a), max(hi.1, b))
        }
        guard n > 0 else {
            rows = []; sortedXs = []; sortedYs = []; cellStart = [0]; keys = []
            minI = 0; minJ = 0; columnCount = 0; rowCount = 0
            return
        }
        guard hi.0 - lo.0 < Self.maxCellsPerAxis, hi.1 - lo.1 < Self.maxCellsPerAxis else {
            throw .invalidParameter(
                name: parameterName, value: "\(side)",
                requirement: "the points span more than 2^31 cells of this size along one axis; use a larger value")
        }
        minI = Int64(lo.0); minJ = Int64(lo.1)
        let columns = Int64(hi.0 - lo.0) + 1, rowsSpanned = Int64(hi.1 - lo.1) + 1
        columnCount = columns; rowCount = rowsSpanned
        // The same expressions as above, so each point lands in the cell its range was taken from.
        let pointKeys = [UInt64](unsafeUninitializedCapacity: n) { b, c in
            for p in 0..<n {
                let a = ((xs[p] - originX) / side).rounded(.down) - lo.0
                let d = ((ys[p] - originY) / side).rounded(.down) - lo.1
                b[p] = UInt64(d) * UInt64(columns) + UInt64(a)
            }
            c = n
        }
        let (order, starts, cellKeys) = Self.bucket(consume pointKeys, cellsSpanned: columns * rowsSpanned)
        rows = order
        cellStart = starts
        keys = cellKeys
        if keepCoordinates {
            sortedXs = order.map { xs[Int($0)] }
            sortedYs = order.map { ys[Int($0)] }
        } else {
            sortedXs = []; sortedYs = []
        }
    }

    /// Buckets points by precomputed keys, `row · columnCount + column` with both relative
    /// (`0..<rowCount`, `0..<columnCount`): the same layout for a grid whose "rows" are not one
    /// axis (the sphere's, whose rows are pairs of layers). Coordinates are not kept.
    init(keys pointKeys: consuming [UInt64], columnCount: Int64, rowCount: Int64, side: Double) {
        self.side = side
        minI = 0; minJ = 0
        self.columnCount = columnCount; self.rowCount = rowCount
        (rows, cellStart, keys) = Self.bucket(consume pointKeys, cellsSpanned: columnCount * rowCount)
        sortedXs = []; sortedYs = []
    }

    /// The points' order by key (stable), each cell's first position (then n) and the
    /// occupied keys: a counting sort when the rectangle spans at most about 2n cells, else a
    /// radix sort.
    private static func bucket(_ pointKeys: consuming [UInt64], cellsSpanned: Int64)
        -> (order: [Int32], starts: [Int32], keys: [UInt64]) {
        let n = pointKeys.count
        let order: [Int32]
        var starts: [Int32] = [], cellKeys: [UInt64] = []
        if cellsSpanned <= 2 * Int64(n) + 1024 {
            // Counting sort over the dense rectangle: one histogram pass, one stable scatter.
            var next = [Int32](repeating: 0, count: Int(cellsSpanned) + 1)
            for p in 0..<n { next[Int(pointKeys[p]) + 1] += 1 }
            for k in 0..<Int(cellsSpanned) {
                let size = next[k + 1]
                if size > 0 { cellKeys.append(UInt64(k)); starts.append(next[k]) }
                next[k + 1] += next[k]
            }
            order = pointKeys.withUnsafeBufferPointer { pk in
                [Int32](unsafeUninitializedCapacity: n) { b, c in
                    next.withUnsafeMutableBufferPointer { nx in
                        for p in 0..<n {
                            let k = Int(pk[p])
                            b[Int(nx[k])] = Int32(p)
                            nx[k] += 1
                        }
                    }
                    c = n
                }
            }
        } else {
            let sorted: [UInt64]
            (order, sorted) = Self.stableSort(keys: consume pointKeys)
            for p in 0..<n where p == 0 || sorted[p] != sorted[p - 1] {
                starts.append(Int32(p))
                cellKeys.append(sorted[p])
            }
        }
        starts.append(Int32(n))
        return (order, starts, cellKeys)
    }

    /// Relative column of cell `c`.
    @inline(__always) func column(_ c: Int) -> Int64 { Int64(keys[c] % UInt64(columnCount)) }
    /// Relative row of cell `c`.
    @inline(__always) func row(_ c: Int) -> Int64 { Int64(keys[c] / UInt64(columnCount)) }
    /// Number of points in cell `c`.
    @inline(__always) func size(_ c: Int) -> Int { Int(cellStart[c + 1] - cellStart[c]) }

    /// The first cell whose key is >= `key`.
    func lowerBound(_ key: UInt64) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The occupied cells of relative row `j` with relative column in `i0...i1`, as a range of
    /// cell indices.
    ///
    /// `cursor` is where the search starts; it is left at the range's start. Asking for the
    /// same row offset from cells taken in ascending order only ever moves it forward, so a
    /// sweep over all cells costs O(cells) per row offset.
    @inline(__always)
    func cells(row j: Int64, columns i0: Int64, _ i1: Int64, cursor: inout Int) -> Range<Int> {
        guard j >= 0, j < rowCount, i1 >= 0, i0 < columnCount else { return cursor..<cursor }
        let base = UInt64(j) * UInt64(columnCount)
        let loKey = base + UInt64(max(i0, 0)), hiKey = base + UInt64(min(i1, columnCount - 1))
        return keys.withUnsafeBufferPointer { k in
            var c = cursor
            while c < k.count && k[c] < loKey { c += 1 }
            cursor = c
            var e = c
            while e < k.count && k[e] <= hiKey { e += 1 }
            return c..<e
        }
    }

    /// Cursors for `cells(row:columns:cursor:)`, one per row offset in `rowOffsets`, placed for
    /// a sweep that starts at cell `c` and asks for columns from `column − reach` on.
    func cursors(startingAt c: Int, rowOffsets: ClosedRange<Int64>, reach: Int64) -> [Int] {
        guard c < cellCount else { return [Int](repeating: cellCount, count: rowOffsets.count) }
        let i = column(c), j = row(c)
        return rowOffsets.map { dj in
            let r = j + dj
            if r < 0 { return 0 }
            if r >= rowCount { return cellCount }
            return lowerBound(UInt64(r) * UInt64(columnCount) + UInt64(max(i - reach, 0)))
        }
    }

    /// The permutation that sorts `keys` ascending, equal keys keeping their order, and the
    /// sorted keys: a least-significant-digit radix sort.
    /// - Complexity: O(n) time, one pass of 8 bits per key byte that is not the same in all keys.
    static func stableSort(keys: consuming [UInt64]) -> (order: [Int32], sorted: [UInt64]) {
        let n = keys.count
        var k1 = consume keys
        var o1 = [Int32](unsafeUninitializedCapacity: n) { b, c in
            for i in 0..<n { b[i] = Int32(i) }
            c = n
        }
        if n < 2 { return (o1, k1) }
        // Scratch, every slot written by the first pass that runs before it is read.
        var k2 = [UInt64](unsafeUninitializedCapacity: n) { _, c in c = n }
        var o2 = [Int32](unsafeUninitializedCapacity: n) { _, c in c = n }
        var counts = [Int](repeating: 0, count: 256)
        for shift in stride(from: UInt64(0), to: 64, by: 8) {
            for b in 0..<256 { counts[b] = 0 }
            for key in k1 { counts[Int((key >> shift) & 0xFF)] += 1 }
            if counts.contains(n) { continue }  // this byte is the same in every key
            var sum = 0
            for b in 0..<256 { let c = counts[b]; counts[b] = sum; sum += c }
            k1.withUnsafeBufferPointer { src in
            o1.withUnsafeBufferPointer { srcOrder in
            k2.withUnsafeMutableBufferPointer { dst in
            o2.withUnsafeMutableBufferPointer { dstOrder in
            counts.withUnsafeMutableBufferPointer { next in
                for i in 0..<n {
                    let b = Int((src[i] >> shift) & 0xFF)
                    let d = next[b]
                    next[b] = d + 1
                    dst[d] = src[i]
                    dstOrder[d] = srcOrder[i]
                }
            }}}}}
            swap(&k1, &k2)
            swap(&o1, &o2)
        }
        return (o1, k1)
    }
}

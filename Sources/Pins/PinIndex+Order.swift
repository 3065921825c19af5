// Step 4 of the build (PinIndex.swift's header): the depth-first order of the final forest,
// each node a range of it; node ids; the listings' columns in that order.

import ClusterCore

/// Each node's rows and zooms, and what its id and the runs are made from.
struct NodeRanges {
    /// The node's listings: rows start..<end of the depth-first order.
    var start: [Int32], end: [Int32]
    /// The lowest zoom that shows the node (one below its parent's highest).
    var low: [UInt8]
    /// The smallest token of the node's locations.
    var minToken: [UInt64]
    /// Locations before the node's first, in the depth-first order (its first run).
    var firstRun: [Int32]
}

/// The listings and the locations ("runs") in the depth-first order.
struct Rows {
    /// Each row's input index, and its location.
    var order: [Int32]
    var location: [Int32]
    /// Each run's last row + 1, its location and its Mercator position.
    var runEnd: [Int32], runLocation: [Int32]
    var runX: [Double], runY: [Double]
}

/// The listings' attribute columns in the depth-first order, and what queries derive from them.
struct Columns {
    var id: [Int64]
    var category: [UInt8]
    var area: [Double], deposit: [Double], rent: [Double]
    /// The caller's own columns.
    var properties: ListingProperties
    /// The categories present in each run, as bits (bit 16: no category).
    var runCategories: [UInt32]
    var depositQuantiles: RangeQuantiles, rentQuantiles: RangeQuantiles
    /// The categories present, and listings per category per node (see `PinIndex.categoryCounts`).
    var categoryCodes: [UInt8], categoryCounts: [UInt32]
}

extension PinIndex {
    /// Step 4a: takes the cut's final forest and the locations; returns each node's range of
    /// rows in the depth-first order, its lowest zoom, its smallest token and its first run.
    ///
    /// Children have lower node numbers than their parent, so sizes add up in ascending order
    /// and each node's children are laid out (in their sibling order) in descending order,
    /// roots first in ascending order: the depth-first order without a walk.
    /// - Complexity: O(nodes).
    static func nodeRanges(of cut: Cut, locations: MaskedLocations) -> NodeRanges {
        let nodes = cut.nodeCount, L = locations.count
        let locCount = locations.listingCount, locToken = locations.token
        var start = [Int32](repeating: 0, count: nodes), end = [Int32](repeating: 0, count: nodes)
        var low = [UInt8](repeating: 0, count: nodes)
        var minToken = [UInt64](repeating: .max, count: nodes)
        var firstRun = [Int32](repeating: 0, count: nodes)     // locations before the node's first
        start.withUnsafeMutableBufferPointer { start in
        end.withUnsafeMutableBufferPointer { size in                 // sizes first, ends last
        firstRun.withUnsafeMutableBufferPointer { firstRun in
        minToken.withUnsafeMutableBufferPointer { minToken in
        low.withUnsafeMutableBufferPointer { low in
        cut.parent.withUnsafeBufferPointer { parent in
        cut.firstChild.withUnsafeBufferPointer { firstChild in
        cut.nextSibling.withUnsafeBufferPointer { nextSibling in
        cut.high.withUnsafeBufferPointer { high in
            var leaves = [Int32](repeating: 0, count: nodes)
            leaves.withUnsafeMutableBufferPointer { leaves in
                for v in 0..<nodes {
                    if v < L { size[v] = locCount[v]; leaves[v] = 1; minToken[v] = locToken[v] }
                    let p = Int(parent[v])
                    if p >= 0 {
                        size[p] += size[v]; leaves[p] += leaves[v]
                        if minToken[v] < minToken[p] { minToken[p] = minToken[v] }
                    }
                }
                var s: Int32 = 0, f: Int32 = 0
                for r in cut.roots { start[Int(r)] = s; firstRun[Int(r)] = f; s += size[Int(r)]; f += leaves[Int(r)] }
                for v in stride(from: nodes - 1, through: L, by: -1) {
                    var s = start[v], f = firstRun[v]
                    var c = firstChild[v]
                    while c >= 0 {
                        start[Int(c)] = s; firstRun[Int(c)] = f
                        s += size[Int(c)]; f += leaves[Int(c)]
                        c = nextSibling[Int(c)]
                    }
                }
            }
            for v in 0..<nodes {
                size[v] += start[v]
                low[v] = parent[v] < 0 ? 0 : high[Int(parent[v])] + 1
            }
        }}}}}}}}}
        return NodeRanges(start: start, end: end, low: low, minToken: minToken, firstRun: firstRun)
    }

    /// Step 4b: takes the node ranges and the locations' rows; returns the listings and the
    /// runs in the depth-first order. Frees what nothing reads afterwards: the locations'
    /// rows, tokens and counts, and the first runs.
    /// - Complexity: O(n + locations).
    static func rows(ranges: inout NodeRanges, locations: inout MaskedLocations) -> Rows {
        let n = locations.order.count, L = locations.count
        let start = ranges.start, end = ranges.end, firstRun = ranges.firstRun
        let locFirstRow = locations.firstRow, lX = locations.x, lY = locations.y
        var rowOrder = [Int32](repeating: 0, count: n)          // input index of each row
        var rowLoc = [Int32](repeating: 0, count: n)
        var runs: (end: [Int32], location: [Int32], x: [Double], y: [Double])
            = ([Int32](repeating: 0, count: L), [Int32](repeating: 0, count: L), [Double](repeating: 0, count: L), [Double](repeating: 0, count: L))
        rowOrder.withUnsafeMutableBufferPointer { rowOrder in
        rowLoc.withUnsafeMutableBufferPointer { rowLoc in
        runs.end.withUnsafeMutableBufferPointer { runEnd in
        runs.location.withUnsafeMutableBufferPointer { runLocation in
        runs.x.withUnsafeMutableBufferPointer { runX in
        runs.y.withUnsafeMutableBufferPointer { runY in
        locations.order.withUnsafeBufferPointer { order in
            for l in 0..<L {
                var row = Int(start[l])
                for p in Int(locFirstRow[l])..<Int(locFirstRow[l + 1]) { rowOrder[row] = order[p]; rowLoc[row] = Int32(l); row += 1 }
                let k = Int(firstRun[l])
                runEnd[k] = end[l]; runLocation[k] = Int32(l); runX[k] = lX[l]; runY[k] = lY[l]
            }
        }}}}}}}
        locations.order = []; locations.firstRow = []; locations.token = []; locations.listingCount = []
        ranges.firstRun = []
        return Rows(order: rowOrder, location: rowLoc, runEnd: runs.end, runLocation: runs.location, runX: runs.x, runY: runs.y)
    }

    /// Step 4c: each node's id (the smallest location token and the count, through the keyed
    /// hash) and the open-addressing table from id to node (−1 empty). Frees the smallest
    /// tokens, which nothing reads afterwards.
    /// - Complexity: O(nodes) expected.
    static func nodeIDs(ranges: inout NodeRanges, hasher: SipHash24) -> (ids: [UInt64], table: [Int32]) {
        let minToken = ranges.minToken, start = ranges.start, end = ranges.end
        let nodes = minToken.count
        var ids = [UInt64](repeating: 0, count: nodes)
        var capacity = 1
        while capacity < 2 * nodes { capacity <<= 1 }
        var table = [Int32](repeating: -1, count: max(capacity, 1))
        for v in 0..<nodes {
            let id = hasher.hash(minToken[v], UInt64(end[v] - start[v]), tail: 3, tailCount: 1)
            ids[v] = id
            var slot = Int(id & UInt64(capacity - 1))
            while table[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            table[slot] = Int32(v)
        }
        ranges.minToken = []
        return (ids, table)
    }

    /// Step 4d: takes the listings' attribute columns (freeing each once it is gathered) and
    /// the rows' input order (freed too); returns the columns in the depth-first order, each
    /// run's categories, the medians' structures and the category counts per node.
    static func columns(of listings: inout PinListings, rows: inout Rows, ranges: NodeRanges, cut: Cut,
                        threads: Int) -> Columns {
        // Each listing column becomes the index's row column, then is freed (see init's doc).
        let id = gather(listings.ids, rows.order)
        listings.ids = []
        let categories = gather(listings.categories, rows.order)
        listings.categories = []
        let runCategories = runCategories(categories, runEnd: rows.runEnd)
        let deposits = gather(listings.deposits, rows.order)
        listings.deposits = []
        let rents = gather(listings.rents, rows.order)
        listings.rents = []
        let area = gather(listings.areas, rows.order)
        listings.areas = []
        let properties = listings.properties.gathered(rows.order)
        listings.properties = ListingProperties()
        rows.order = []
        // The two columns' order statistics, on two threads when allowed.
        var quantiles: (RangeQuantiles?, RangeQuantiles?) = (nil, nil)
        withUnsafeMutablePointer(to: &quantiles.0) { dq in
        withUnsafeMutablePointer(to: &quantiles.1) { rq in
            Parallel.both(threads: threads, { dq.pointee = RangeQuantiles(deposits) }, { rq.pointee = RangeQuantiles(rents) })
        }}
        let (codes, counts) = categoryCounts(categories, start: ranges.start, end: ranges.end, parent: cut.parent,
                                             locationCount: cut.L)
        return Columns(id: id, category: categories, area: area, deposit: deposits, rent: rents, properties: properties,
                       runCategories: runCategories,
                       depositQuantiles: quantiles.0!, rentQuantiles: quantiles.1!, categoryCodes: codes, categoryCounts: counts)
    }

    /// Each run's categories as bits (bit 16: no category), from the rows' categories.
    static func runCategories(_ categories: [UInt8], runEnd: [Int32]) -> [UInt32] {
        var runMask = [UInt32](repeating: 0, count: runEnd.count)
        runMask.withUnsafeMutableBufferPointer { runMask in
        categories.withUnsafeBufferPointer { categories in
            var row = 0
            for k in 0..<runEnd.count {
                let e = Int(runEnd[k])
                while row < e { runMask[k] |= 1 << UInt32(min(categories[row], 16)); row += 1 }
            }
        }}
        return runMask
    }

    /// The category codes present and the listings per present category, per node: a
    /// location's from its rows, a group's as the sum of its children's (children have lower
    /// node numbers than their parent).
    static func categoryCounts(_ categories: [UInt8], start: [Int32], end: [Int32], parent: [Int32],
                               locationCount L: Int) -> (codes: [UInt8], counts: [UInt32]) {
        let nodes = parent.count
        var present = [Bool](repeating: false, count: ListingCategory.codeCount)
        for c in categories where Int(c) < ListingCategory.codeCount { present[Int(c)] = true }
        let codes = (0..<UInt8(ListingCategory.codeCount)).filter { present[Int($0)] }
        var slotOfCode = [Int](repeating: -1, count: 256)
        for (k, c) in codes.enumerated() { slotOfCode[Int(c)] = k }
        let width = codes.count
        var perNode = [UInt32](repeating: 0, count: nodes * width)
        if width > 0 {
            perNode.withUnsafeMutableBufferPointer { perNode in
            categories.withUnsafeBufferPointer { categories in
            parent.withUnsafeBufferPointer { parent in
                for v in 0..<nodes {
                    if v < L {
                        for r in Int(start[v])..<Int(end[v]) {
                            let k = slotOfCode[Int(categories[r])]
                            if k >= 0 { perNode[v * width + k] += 1 }
                        }
                    }
                    let p = Int(parent[v])
                    if p >= 0 { for k in 0..<width { perNode[p * width + k] += perNode[v * width + k] } }
                }
            }}}
        }
        return (codes, perNode)
    }
}

/// `column[order[r]]` for every r.
@inline(__always)
func gather<T>(_ column: [T], _ order: [Int32]) -> [T] {
    column.withUnsafeBufferPointer { c in
        order.withUnsafeBufferPointer { o in
            [T](unsafeUninitializedCapacity: o.count) { b, k in
                for r in 0..<o.count { (b.baseAddress! + r).initialize(to: c[Int(o[r])]) }
                k = o.count
            }
        }
    }
}

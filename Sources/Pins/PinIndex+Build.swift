// Building a PinIndex: mask, hierarchy, cut per zoom, order (see PinIndex.swift's header).

import ClusterCore
import Dispatch

extension PinIndex {
    /// Builds the index in one call.
    /// - Throws: `PinError.invalidParameter` for an invalid option; `.invalidCoordinate`
    ///   for a non-finite coordinate, a longitude outside ±180° or a latitude beyond ±85°
    ///   (Web Mercator); `.invalidParameter` for a negative or non-finite attribute or a
    ///   category code above 15; `.duplicateListingID`.
    /// - Parameter listings: consumed: each column is freed as soon as the build has used it
    ///   (when the caller holds no other copy), so that the listings and the finished index
    ///   are not in memory at once (at 1M listings, 58 MB less at the peak).
    /// - Complexity: O(n log n) expected for n listings: dominated by the MST over the
    ///   distinct locations and by 23 passes of the cut over the current pins.
    public init(listings: consuming PinListings, options: PinOptions) throws(PinError) {
        try options.validate()
        let n = listings.count
        for i in 0..<n {
            let lon = listings.longitudes[i], lat = listings.latitudes[i]
            guard lon.isFinite, lat.isFinite else { throw .invalidCoordinate(row: i, reason: "a coordinate is NaN or infinite") }
            guard abs(lon) <= 180 else { throw .invalidCoordinate(row: i, reason: "the longitude is outside ±180°") }
            guard abs(lat) <= 85 else { throw .invalidCoordinate(row: i, reason: "the latitude is beyond ±85° (Web Mercator's limit)") }
            func check(_ name: String, _ v: Double) throws(PinError) {
                guard v.isNaN || (v.isFinite && v >= 0) else {
                    throw .invalidParameter(name: "\(name) of listing \(listings.ids[i])", value: "\(v)", requirement: "must be a finite number >= 0 or absent")
                }
            }
            try check("area", listings.areas[i]); try check("deposit", listings.deposits[i]); try check("monthlyRent", listings.rents[i])
            let c = listings.categories[i]
            guard c == ListingCategory.noneCode || Int(c) < ListingCategory.codeCount else {
                throw .invalidParameter(name: "category of listing \(listings.ids[i])", value: "\(c)", requirement: "must be a code 0...15")
            }
        }
        // Duplicate ids: none if they ascend (as a file's usually do), else sorted and compared.
        let ascending = listings.ids.withUnsafeBufferPointer { ids in
            var k = 1
            while k < ids.count && ids[k - 1] < ids[k] { k += 1 }
            return k >= ids.count
        }
        if !ascending {
            var sortedIDs = listings.ids
            sortedIDs.sort()
            for i in 1..<max(sortedIDs.count, 1) where sortedIDs[i] == sortedIDs[i - 1] { throw .duplicateListingID(sortedIDs[i]) }
        }

        // 1. Locations in canonical order: by token (keyed hash of the key), key, then id.
        let hasher: SipHash24
        let mask: PrivacyMask?
        switch options.privacy {
        case .disabled: hasher = SipHash24(k0: 0x7069_6e73_2d6f_7065, k1: 0x6e2d_6964_732d_3031); mask = nil
        case .displaced(let m): hasher = m.idHasher; mask = m
        }
        // Listings are grouped into locations by their key (a hash table, locations numbered
        // by first row), then the locations, not the listings, are put in the canonical order:
        // by token (keyed hash of the key) with a radix sort, equal tokens (a 64-bit collision)
        // by key. Within a location, listings go by id. (Sorting all 1M listings by token and
        // key, and hashing and masking per listing, was a fifth of the build.)
        var locOf = [Int32](repeating: 0, count: n)
        var kTag: [UInt64] = [], kValue: [UInt64] = []
        var firstRow: [Int32] = []          // each location's first row in input order
        kTag.reserveCapacity(n / 4 + 16); kValue.reserveCapacity(n / 4 + 16); firstRow.reserveCapacity(n / 4 + 16)
        do {
            // Each slot holds its key beside the location number, so a probe reads one cache
            // line (comparing against the key arrays was a second miss per listing).
            struct Slot { var value: UInt64; var tag: UInt32; var location: Int32 }
            var capacity = 1 << 12
            var t = UnsafeMutableBufferPointer<Slot>.allocate(capacity: capacity)
            t.initialize(repeating: Slot(value: 0, tag: 0, location: -1))
            defer { t.deallocate() }
            @inline(__always) func slot(_ t: UInt64, _ v: UInt64, _ mask: Int) -> Int {
                var h = v &+ t &* 0x9E37_79B9_7F4A_7C15
                h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
                h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
                return Int(truncatingIfNeeded: h ^ (h >> 33)) & mask
            }
            listings.keyTags.withUnsafeBufferPointer { tags in
            listings.keyValues.withUnsafeBufferPointer { values in
            listings.longitudes.withUnsafeBufferPointer { lons in
            listings.latitudes.withUnsafeBufferPointer { lats in
            locOf.withUnsafeMutableBufferPointer { locOf in
                for i in 0..<n {
                    let k = tags[i] == 0 ? LocationKey(longitude: lons[i], latitude: lats[i])
                        : LocationKey(tag: UInt64(tags[i]), value: values[i])
                    if 2 * kTag.count >= capacity {
                        capacity *= 2
                        t.deallocate()
                        t = .allocate(capacity: capacity)
                        t.initialize(repeating: Slot(value: 0, tag: 0, location: -1))
                        for l in 0..<kTag.count {
                            var s = slot(kTag[l], kValue[l], capacity - 1)
                            while t[s].location >= 0 { s = (s + 1) & (capacity - 1) }
                            t[s] = Slot(value: kValue[l], tag: UInt32(kTag[l]), location: Int32(l))
                        }
                    }
                    var s = slot(k.tag, k.value, capacity - 1)
                    let tag32 = UInt32(k.tag)
                    while true {
                        let e = t[s]
                        if e.location < 0 {
                            let l = Int32(kTag.count)
                            t[s] = Slot(value: k.value, tag: tag32, location: l)
                            kTag.append(k.tag); kValue.append(k.value); firstRow.append(Int32(i))
                            locOf[i] = l
                            break
                        }
                        if e.value == k.value && e.tag == tag32 { locOf[i] = e.location; break }
                        s = (s + 1) & (capacity - 1)
                    }
                }
            }}}}}
        }
        let L = kTag.count
        var byToken = [TokenRoot](unsafeUninitializedCapacity: L) { b, c in
            for l in 0..<L { b[l] = TokenRoot(key: hasher.hash(kTag[l], kValue[l]), root: Int32(l)) }
            c = L
        }
        var scratch: [TokenRoot] = []
        Cut.sortByKey(&byToken, scratch: &scratch)
        scratch = []
        do {
            var runStart = 0
            while runStart < L {
                var runEnd = runStart + 1
                while runEnd < L && byToken[runEnd].key == byToken[runStart].key { runEnd += 1 }
                if runEnd - runStart > 1 {
                    byToken[runStart..<runEnd].sort { a, b in
                        (kTag[Int(a.root)], kValue[Int(a.root)]) < (kTag[Int(b.root)], kValue[Int(b.root)])
                    }
                }
                runStart = runEnd
            }
        }
        // Rank of each location; its rows; listings placed in input order, then by id.
        var rankOf = [Int32](repeating: 0, count: L)
        var locFirstRow = [Int32](repeating: 0, count: L + 1)   // first position in `order` of each location
        var order = [Int32](repeating: 0, count: n)
        rankOf.withUnsafeMutableBufferPointer { rankOf in
        locFirstRow.withUnsafeMutableBufferPointer { first in
        order.withUnsafeMutableBufferPointer { order in
        locOf.withUnsafeBufferPointer { locOf in
        listings.ids.withUnsafeBufferPointer { ids in
            for r in 0..<L { rankOf[Int(byToken[r].root)] = Int32(r) }
            for i in 0..<n { first[Int(rankOf[Int(locOf[i])]) + 1] += 1 }
            for r in 0..<L { first[r + 1] += first[r] }
            var next = Array(first[0..<L])
            next.withUnsafeMutableBufferPointer { next in
                for i in 0..<n {
                    let r = Int(rankOf[Int(locOf[i])])
                    order[Int(next[r])] = Int32(i); next[r] += 1
                }
            }
            for r in 0..<L {
                let lo = Int(first[r]), hi = Int(first[r + 1])
                var sorted = true
                var p = lo + 1
                while p < hi { if ids[Int(order[p])] < ids[Int(order[p - 1])] { sorted = false; break }; p += 1 }
                if !sorted {
                    var slice = UnsafeMutableBufferPointer(rebasing: order[lo..<hi])
                    slice.sort { ids[Int($0)] < ids[Int($1)] }
                }
            }
        }}}}}
        rankOf = []
        // One token, displayed position and Mercator position per location (in canonical order),
        // placed by its first listing (smallest id). Worked out in the order locations were
        // numbered (first seen in the input), where their keys and first rows are read in
        // sequence, then put in canonical order in one gather of a record per location: in
        // canonical order, four reads a location landed at random (the key's two words and the
        // row's coordinates), and this step was a tenth of the build.
        if !ascending {
            // Each location's smallest id instead of its first row.
            listings.ids.withUnsafeBufferPointer { ids in
            firstRow.withUnsafeMutableBufferPointer { firstRow in
            locOf.withUnsafeBufferPointer { locOf in
                for i in 0..<n {
                    let l = Int(locOf[i])
                    if ids[i] < ids[Int(firstRow[l])] { firstRow[l] = Int32(i) }
                }
            }}}
        }
        locOf = []
        struct Placed { var lon: Double, lat: Double, x: Double, y: Double }
        var placed = [Placed](repeating: Placed(lon: 0, lat: 0, x: 0, y: 0), count: L)
        listings.longitudes.withUnsafeBufferPointer { lons in
        listings.latitudes.withUnsafeBufferPointer { lats in
        placed.withUnsafeMutableBufferPointer { placed in
        firstRow.withUnsafeBufferPointer { firstRow in
        kTag.withUnsafeBufferPointer { kTag in
        kValue.withUnsafeBufferPointer { kValue in
          // Each location on its own (disjoint slots), in parts on `threads` threads.
          let parts = L >= 1 << 14 ? options.threads : 1
          inParallel(parts, threads: options.threads) { part in
            for l in (L * part / parts)..<(L * (part + 1) / parts) {
                let i = Int(firstRow[l])
                var lon = lons[i], lat = lats[i]
                if let mask {
                    (lon, lat) = mask.displayedPosition(of: LocationKey(tag: kTag[l], value: kValue[l]), longitude: lon, latitude: lat)
                }
                placed[l] = Placed(lon: lon, lat: lat, x: WebMercator.x(longitude: lon), y: WebMercator.y(latitude: lat))
            }
          }
        }}}}}}
        firstRow = []
        var locToken = [UInt64](repeating: 0, count: L)
        var lLon = [Double](repeating: 0, count: L), lLat = [Double](repeating: 0, count: L)
        var lX = [Double](repeating: 0, count: L), lY = [Double](repeating: 0, count: L)
        locToken.withUnsafeMutableBufferPointer { locToken in
        lLon.withUnsafeMutableBufferPointer { lLon in
        lLat.withUnsafeMutableBufferPointer { lLat in
        lX.withUnsafeMutableBufferPointer { lX in
        lY.withUnsafeMutableBufferPointer { lY in
        byToken.withUnsafeBufferPointer { byToken in
        placed.withUnsafeBufferPointer { placed in
            for r in 0..<L {
                let p = placed[Int(byToken[r].root)]
                locToken[r] = byToken[r].key
                lLon[r] = p.lon; lLat[r] = p.lat; lX[r] = p.x; lY[r] = p.y
            }
        }}}}}}}
        placed = []
        byToken = []; kTag = []; kValue = []
        // True positions and keys are not read again.
        listings.longitudes = []; listings.latitudes = []; listings.keyTags = []; listings.keyValues = []
        let locCount = (0..<L).map { Int32(locFirstRow[$0 + 1] - locFirstRow[$0]) }

        // 2. The hierarchy's MST over the displayed locations.
        let mst: MinimumSpanningTree
        do {
            if options.minSamples == 1 {
                // Plain single linkage: the Euclidean MST, from the Delaunay triangulation.
                mst = try MinimumSpanningTree.euclidean(xs: lX, ys: lY, threads: options.threads)
            } else {
                mst = try HDBSCAN.minimumSpanningTree(try PointSet(xs: lX, ys: lY), minSamples: min(options.minSamples, max(L, 1)),
                                                      threads: options.threads).mst
            }
        } catch {
            throw .invalidParameter(name: "minSamples", value: "\(options.minSamples)", requirement: "\(error)")
        }

        // 3. The cut.
        var cut = Cut(locationCount: L, counts: locCount, xs: lX, ys: lY, options: options)
        cut.run(mst: mst)
        cut.dropWorkingState()

        // 4. Depth-first order of the final forest; rows and node ranges. Children have lower
        // node numbers than their parent, so sizes add up in ascending order and each node's
        // children are laid out (in their sibling order) in descending order, roots first in
        // ascending order: the depth-first order without a walk.
        let nodes = cut.nodeCount
        var start = [Int32](repeating: 0, count: nodes), end = [Int32](repeating: 0, count: nodes)
        var low = [UInt8](repeating: 0, count: nodes)
        var minToken = [UInt64](repeating: .max, count: nodes)
        var firstRun = [Int32](repeating: 0, count: nodes)     // locations before the node's first
        var rowOrder = [Int32](repeating: 0, count: n)          // input index of each row
        var rowLoc = [Int32](repeating: 0, count: n)
        var runs: (end: [Int32], location: [Int32], x: [Double], y: [Double])
            = ([Int32](repeating: 0, count: L), [Int32](repeating: 0, count: L), [Double](repeating: 0, count: L), [Double](repeating: 0, count: L))
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
        rowOrder.withUnsafeMutableBufferPointer { rowOrder in
        rowLoc.withUnsafeMutableBufferPointer { rowLoc in
        runs.end.withUnsafeMutableBufferPointer { runEnd in
        runs.location.withUnsafeMutableBufferPointer { runLocation in
        runs.x.withUnsafeMutableBufferPointer { runX in
        runs.y.withUnsafeMutableBufferPointer { runY in
        order.withUnsafeBufferPointer { order in
            for l in 0..<L {
                var row = Int(start[l])
                for p in Int(locFirstRow[l])..<Int(locFirstRow[l + 1]) { rowOrder[row] = order[p]; rowLoc[row] = Int32(l); row += 1 }
                let k = Int(firstRun[l])
                runEnd[k] = end[l]; runLocation[k] = Int32(l); runX[k] = lX[l]; runY[k] = lY[l]
            }
        }}}}}}}
        order = []; firstRun = []
        // Ids: the smallest location token and the count, through the keyed hash.
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

        self.options = options
        locLon = lLon; locLat = lLat; locX = lX; locY = lY
        parent = cut.parent; firstChild = cut.firstChild; nextSibling = cut.nextSibling
        self.low = low; high = cut.high
        self.start = start; self.end = end
        cx = cut.nodeCX; cy = cut.nodeCY
        minX = cut.nodeMinX; maxX = cut.nodeMaxX; minY = cut.nodeMinY; maxY = cut.nodeMaxY
        nodeID = ids
        roots = cut.roots
        idTable = table
        runEnd = runs.end; runLocation = runs.location; runX = runs.x; runY = runs.y
        // Each listing column becomes the index's row column, then is freed (see init's doc).
        rowID = gather(listings.ids, rowOrder)
        listings.ids = []
        rowLocation = rowLoc
        let categories = gather(listings.categories, rowOrder)
        listings.categories = []
        // Each run's categories as bits (bit 16: no category).
        var runMask = [UInt32](repeating: 0, count: runs.end.count)
        runMask.withUnsafeMutableBufferPointer { runMask in
        categories.withUnsafeBufferPointer { categories in
            var row = 0
            for k in 0..<runs.end.count {
                let e = Int(runs.end[k])
                while row < e { runMask[k] |= 1 << UInt32(min(categories[row], 16)); row += 1 }
            }
        }}
        runCategories = runMask
        let deposits = gather(listings.deposits, rowOrder)
        listings.deposits = []
        let rents = gather(listings.rents, rowOrder)
        listings.rents = []
        rowCategory = categories
        rowArea = gather(listings.areas, rowOrder)
        listings.areas = []
        rowOrder = []
        rowDeposit = deposits
        rowRent = rents
        // The two columns' order statistics, on two threads when allowed.
        var quantiles: (RangeQuantiles?, RangeQuantiles?) = (nil, nil)
        withUnsafeMutablePointer(to: &quantiles.0) { dq in
        withUnsafeMutablePointer(to: &quantiles.1) { rq in
            inParallel(2, threads: options.threads) { part in
                if part == 0 { dq.pointee = RangeQuantiles(deposits) } else { rq.pointee = RangeQuantiles(rents) }
            }
        }}
        depositQuantiles = quantiles.0!
        rentQuantiles = quantiles.1!
        // Listings per category present, per node: a location's from its rows, a group's as
        // the sum of its children's (children have lower node numbers than their parent).
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
            cut.parent.withUnsafeBufferPointer { parent in
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
        categoryCodes = codes
        categoryCounts = perNode
    }
}

/// Calls `body(part)` for every part in `0..<parts`, on up to `threads` threads (inline when
/// `threads` is 1). Parts must write disjoint memory, so results do not depend on `threads`.
func inParallel(_ parts: Int, threads: Int, _ body: (Int) -> Void) {
    if threads <= 1 || parts <= 1 {
        for part in 0..<parts { body(part) }
        return
    }
    withoutActuallyEscaping(body) { body in
        // `concurrentPerform` returns only after every part is done.
        nonisolated(unsafe) let work = body
        DispatchQueue.concurrentPerform(iterations: parts) { work($0) }
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

/// A record sorted by a 64-bit key (`Cut.sortByKey`).
protocol KeyedRecord { var key: UInt64 { get }; var root: Int32 { get } }
extension Cut.Disc: KeyedRecord {}
struct TokenRoot: KeyedRecord { var key: UInt64; var root: Int32 }

/// The per-zoom cut over a union-find of locations (step 3 of PinIndex.swift's header).
struct Cut {
    let L: Int
    let options: PinOptions
    /// Each location's union-find entry and, at a root, its group (listings, weighted
    /// coordinate sums, box) and child list: 64 bytes, one cache line each (see `GroupTable`).
    /// Merges follow the MST's weight order, at random places, and a merge reads and writes
    /// all of this at both roots: in separate arrays (the union-find, the groups, the node of
    /// each root, the head and tail of its child list) one merge touched about a dozen cache
    /// lines, and the cut was bound by those misses.
    struct Group {
        var sx: Double, sy: Double
        var bx0: Double, bx1: Double, by0: Double, by1: Double
        /// Listings in the group (at a root).
        var count: Int32
        /// Union-find parent (itself at a root); union by `size`, path halving.
        var parent: Int32
        /// Locations in the set (at a root).
        var size: Int32
        /// At a root: the node standing for its group as of the end of the last zoom, or, once
        /// the root has merged at this zoom (`mergedAt`), the tail of the child list it gathers,
        /// kept circular through `nextSibling` (the tail's next is the head) until its node is made.
        var link: Int32
    }
    /// The records, cache-line aligned.
    final class GroupTable {
        let base: UnsafeMutablePointer<Group>
        let count: Int
        init(count: Int) {
            self.count = count
            base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Group>.stride, alignment: 64)
                .bindMemory(to: Group.self, capacity: max(count, 1))
        }
        deinit { base.deinitialize(count: count); base.deallocate() }
    }
    var table: GroupTable
    /// The zoom at which a root last took part in a merge (−1: never).
    var mergedAt: [Int8]
    /// Whether a location has stopped being a root (its set merged into another): the pin
    /// lists are filtered by this byte rather than by `find`, which read a whole record per pin
    /// (at 225k pins, 14 MB a pass, several passes a zoom).
    var state: [UInt8]
    static let absorbedBit: UInt8 = 1, dirtyBit: UInt8 = 2
    @inline(__always) func isAbsorbed(_ r: Int) -> Bool { state[r] & Self.absorbedBit != 0 }
    /// The discs of the last zoom's pins, sorted by cell, carried to the next zoom (see
    /// `resolveOverlaps`), and the roots whose group changed since (merged: their disc moved).
    var discBuffers: DiscBuffers
    var discsCarried = false
    /// Where the touched records' loads go (see `run`), so that they are not optimised away.
    var touchSink: Int32 = 0
    var dirtyList: [Int32] = []
    /// The zoom at which an overlap merge last moved a root (−1: never; see `resolveOverlaps`).
    var movedAt: [Int8]
    var touched: [Int32] = []
    /// The current pins (union-find roots).
    var current: [Int32]

    // Nodes.
    var parent: [Int32] = [], firstChild: [Int32] = [], nextSibling: [Int32] = []
    var high: [UInt8] = []
    var nodeCX: [Double] = [], nodeCY: [Double] = []
    var nodeMinX: [Double] = [], nodeMaxX: [Double] = [], nodeMinY: [Double] = [], nodeMaxY: [Double] = []
    var roots: [Int32] = []
    var nodeCount: Int { parent.count }

    init(locationCount: Int, counts: [Int32], xs: [Double], ys: [Double], options: PinOptions) {
        L = locationCount
        self.options = options
        precondition(MemoryLayout<Group>.stride == 64, "a group record is one cache line")
        table = GroupTable(count: L)
        for l in 0..<L {
            (table.base + l).initialize(to: Group(
                sx: xs[l] * Double(counts[l]), sy: ys[l] * Double(counts[l]),
                bx0: xs[l], bx1: xs[l], by0: ys[l], by1: ys[l],
                count: counts[l], parent: Int32(l), size: 1, link: Int32(l)))
        }
        mergedAt = [Int8](repeating: -1, count: L)
        state = [UInt8](repeating: 0, count: L)
        discBuffers = DiscBuffers(capacity: L)
        movedAt = [Int8](repeating: -1, count: L)
        current = (0..<L).map { Int32($0) }
        // Location nodes: shown down from maxZoom + 1.
        parent = [Int32](repeating: -1, count: L)
        firstChild = [Int32](repeating: -1, count: L)
        nextSibling = [Int32](repeating: -1, count: L)
        high = [UInt8](repeating: UInt8(PinOptions.maxZoom + 1), count: L)
        nodeCX = xs; nodeCY = ys
        nodeMinX = xs; nodeMaxX = xs; nodeMinY = ys; nodeMaxY = ys
    }

    /// Frees the per-location working arrays once `run` is done (the nodes stay): about 100
    /// bytes a location.
    mutating func dropWorkingState() {
        table = GroupTable(count: 0)
        mergedAt = []; state = []; movedAt = []; touched = []; current = []
        discBuffers = DiscBuffers(capacity: 0); dirtyList = []
    }

    /// The root of location x's set.
    @inline(__always)
    func find(_ x: Int) -> Int {
        let g = table.base
        var x = x
        while Int(g[x].parent) != x {
            // Path halving: point x at its grandparent, then step there.
            let p = g[Int(g[x].parent)].parent
            g[x].parent = p
            x = Int(p)
        }
        return x
    }

    /// A root's group.
    @inline(__always)
    func group(_ r: Int) -> Group { table.base[r] }

    /// Merges the groups of roots `a` and `b` at `zoom`; returns the new root.
    @discardableResult
    mutating func merge(_ a: Int, _ b: Int, zoom: Int) -> Int {
        let g = table.base
        // Each side's contribution to the new node's children, as the tail of a circular list:
        // its node from the zoom above (a list of one), or the children it already gathered at
        // this zoom. The new list is a's followed by b's.
        let tb = nextSibling.withUnsafeMutableBufferPointer { next in
            func tail(_ r: Int) -> Int {
                let t = Int(g[r].link)
                if Int(mergedAt[r]) != zoom { next[t] = Int32(t) }
                return t
            }
            let ta = tail(a), tb = tail(b)
            let ha = next[ta], hb = next[tb]
            next[ta] = hb; next[tb] = ha
            return tb
        }
        var r = a, o = b
        if g[r].size < g[o].size { swap(&r, &o) }
        var x = g[r]
        let h = g[o]
        g[o].parent = Int32(r)
        state[o] |= Self.absorbedBit
        if state[r] & Self.dirtyBit == 0 { state[r] |= Self.dirtyBit; dirtyList.append(Int32(r)) }
        x.size += h.size
        x.count += h.count; x.sx += h.sx; x.sy += h.sy
        x.bx0 = min(x.bx0, h.bx0); x.bx1 = max(x.bx1, h.bx1)
        x.by0 = min(x.by0, h.by0); x.by1 = max(x.by1, h.by1)
        x.link = Int32(tb)
        g[r] = x
        if Int(mergedAt[r]) != zoom { touched.append(Int32(r)) }
        mergedAt[r] = Int8(zoom)
        mergedAt[o] = Int8(zoom)
        return r
    }

    mutating func run(mst: MinimumSpanningTree) {
        var pending: [Int32] = []          // edges waiting for a lower zoom, ascending
        var nextEdge = 0
        for zoom in stride(from: PinOptions.maxZoom, through: 0, by: -1) {
            let world = options.tileSize * WebMercator.exp2(Double(zoom))
            let t = options.radius(atZoom: zoom) / world
            let cap2 = (options.maxSpread / world) * (options.maxSpread / world)
            // a. Threshold merges: waiting edges first (all shorter than the new ones).
            var waiting: [Int32] = []
            func tryEdge(_ e: Int, _ cut: inout Cut) -> Bool {
                let ra = cut.find(Int(mst.a[e])), rb = cut.find(Int(mst.b[e]))
                if ra == rb { return true }
                let ga = cut.group(ra), gb = cut.group(rb)
                let w = max(ga.bx1, gb.bx1) - min(ga.bx0, gb.bx0)
                let h = max(ga.by1, gb.by1) - min(ga.by0, gb.by0)
                if w * w + h * h > cap2 { return false }
                cut.merge(ra, rb, zoom: zoom)
                return true
            }
            for e in pending where !tryEdge(Int(e), &self) { waiting.append(e) }
            while nextEdge < mst.count && mst.weight[nextEdge] <= t {
                if nextEdge & 7 == 0 {
                    // Touch the next batch's records first: their loads are independent, so
                    // they overlap instead of each stalling the merge that needs it.
                    var sink: Int32 = 0
                    let g = table.base
                    for k in min(nextEdge + 8, mst.count)..<min(nextEdge + 16, mst.count) {
                        sink &+= g[Int(mst.a[k])].parent &+ g[Int(mst.b[k])].parent
                    }
                    touchSink &+= sink
                }
                if !tryEdge(nextEdge, &self) { waiting.append(Int32(nextEdge)) }
                nextEdge += 1
            }
            pending = waiting
            current = current.filter { !isAbsorbed(Int($0)) }
            // b. Overlap merges, in rounds.
            resolveOverlaps(zoom: zoom, world: world)
            // New nodes for the groups that changed.
            for r32 in touched {
                let r = Int(r32)
                guard !isAbsorbed(r), Int(mergedAt[r]) == zoom else { continue }
                let g = group(r)
                let v = Int32(parent.count)
                // Break the circular child list after its tail.
                let tail = Int(g.link)
                let head = nextSibling[tail]
                nextSibling[tail] = -1
                parent.append(-1)
                firstChild.append(head)
                nextSibling.append(-1)
                high.append(UInt8(zoom))
                let c = Double(g.count)
                nodeCX.append(g.sx / c); nodeCY.append(g.sy / c)
                nodeMinX.append(g.bx0); nodeMaxX.append(g.bx1); nodeMinY.append(g.by0); nodeMaxY.append(g.by1)
                var k = head
                while k >= 0 { parent[Int(k)] = v; k = nextSibling[Int(k)] }
                table.base[r].link = v
                mergedAt[r] = -1                   // the group is a node again: its list starts afresh
            }
            touched.removeAll(keepingCapacity: true)
        }
        roots = current.map { table.base[Int($0)].link }.sorted()
    }

    /// A pin's drawn disc at one zoom: its grid cell's key, centre (pixels), diameter, root.
    struct Disc {
        var key: UInt64
        var x: Double, y: Double, d: Double
        var root: Int32
    }

    /// Two buffers of discs, one pin list each (the last zoom's, the one being made), allocated
    /// once: the lists are rebuilt at every zoom, and fresh arrays of that size (9 MB at 225k
    /// pins) came back from the kernel page by page, zeroed, every time.
    final class DiscBuffers {
        var last: UnsafeMutablePointer<Disc>, next: UnsafeMutablePointer<Disc>
        var lastCount = 0
        init(capacity: Int) {
            last = .allocate(capacity: max(capacity, 1)); next = .allocate(capacity: max(capacity, 1))
        }
        deinit { last.deallocate(); next.deallocate() }
        /// The list just written to `next` (`count` discs) becomes the last one.
        func swap(count: Int) { (last, next) = (next, last); lastCount = count }
        var lastList: UnsafeBufferPointer<Disc> { UnsafeBufferPointer(start: last, count: lastCount) }
    }

    /// Merges pins at `zoom` until no two drawn discs overlap.
    ///
    /// Discs are found through a grid of `maxDiameter`-pixel cells (two discs overlap only if
    /// their centres are in neighbouring cells): the discs sorted by cell, row by row. The first
    /// round tests each pair once, looking from every disc only forwards in that order (the rest
    /// of its own cell, the next cell of its row, the three cells of the next row). A later
    /// round tests only the pins the previous round's merges made ("changed") against the pins
    /// no overlap merge has moved (from the first round's sorted list) and against every moved
    /// pin, in the 3 × 3 cells around each. Two pins that did not move since they were last
    /// tested do not overlap, so the rounds find the same pairs as testing every pin each time
    /// (at 1M listings, 225k locations, re-sorting every pin in every round was a fifth of the
    /// build).
    ///
    /// Each disc is computed once per list, in one pass over the pins in root order (`current`
    /// ascends, so the group records are read nearly in sequence), and carried through the
    /// sort: reading the records again at random in cell order cost more than the probes.
    mutating func resolveOverlaps(zoom: Int, world: Double) {
        let cell = options.maxDiameter
        var pairs: [(depth: Double, a: Int32, b: Int32)] = []
        var scratch: [Disc] = []
        func discs(_ roots: [Int32]) -> [Disc] {
            let groups = table.base
            return roots.map { r in
                let g = groups[Int(r)]
                let c = Double(g.count)
                let x = g.sx / c * world, y = g.sy / c * world
                return Disc(key: Self.cellKey(x / cell, y / cell), x: x, y: y, d: options.diameter(count: Int(g.count)), root: r)
            }
        }
        let buffers = discBuffers
        if !discsCarried {
            var first = discs(current)
            Self.sortByCell(&first, scratch: &scratch)
            first.withUnsafeBufferPointer { first in buffers.next.update(from: first.baseAddress!, count: first.count) }
            buffers.swap(count: first.count)
            discsCarried = true
        } else {
            // The pins that merged since the last zoom, afresh.
            var freshRoots: [Int32] = []
            for r in dirtyList where !isAbsorbed(Int(r)) { freshRoots.append(r) }
            var fresh = discs(freshRoots)
            Self.sortByCell(&fresh, scratch: &scratch)
            // The last zoom's sorted discs of the others, coarsened: a pin that has not merged
            // since keeps its centroid, so its centre in pixels halves exactly (a power-of-two
            // scale) and its cell is (gx >> 1, gy >> 1) (⌊q/2⌋ = ⌊⌊q⌋/2⌋, and q/2 is exact). In
            // row-major order the two fine rows of a coarse row are each sorted by gx, so
            // merging the two restores the order, and the fresh discs are merged in on the way:
            // one pass instead of recomputing and re-sorting every pin at every zoom.
            let out = buffers.next
            var written = 0
            fresh.withUnsafeBufferPointer { fresh in
            state.withUnsafeBufferPointer { state in
                let last = buffers.lastList
                let n = last.count
                var f = 0
                var k = 0
                while k < n {
                    let row = (last[k].key >> 32) >> 1
                    var split = k
                    while split < n && last[split].key >> 32 == row << 1 { split += 1 }
                    var end = split
                    while end < n && last[end].key >> 32 == (row << 1) | 1 { end += 1 }
                    // Merge [k, split) (fine row 2r) and [split, end) (2r + 1) by the coarse gx.
                    var i = k, j = split
                    while i < split || j < end {
                        let t: Int
                        if i < split && (j >= end || (last[i].key & 0xFFFF_FFFF) >> 1 <= (last[j].key & 0xFFFF_FFFF) >> 1) {
                            t = i; i += 1
                        } else {
                            t = j; j += 1
                        }
                        let d = last[t]
                        let r = Int(d.root)
                        if state[r] != 0 { continue }       // absorbed, or merged since
                        let x = d.x * 0.5, y = d.y * 0.5
                        let key = Self.cellKey(x / cell, y / cell)
                        assert(key == Self.pack(Int64(d.key & 0xFFFF_FFFF) >> 1, Int64(d.key >> 32) >> 1), "a halved centre's cell")
                        while f < fresh.count && fresh[f].key < key { (out + written).initialize(to: fresh[f]); written += 1; f += 1 }
                        (out + written).initialize(to: Disc(key: key, x: x, y: y, d: d.d, root: d.root))
                        written += 1
                    }
                    k = end
                }
                while f < fresh.count { (out + written).initialize(to: fresh[f]); written += 1; f += 1 }
            }}
            buffers.swap(count: written)
            assert(written == current.count, "every pin once")
        }
        // Marks made from here on (this zoom's overlap merges) apply to the next zoom's list.
        for r in dirtyList { state[Int(r)] &= ~Self.dirtyBit }
        dirtyList.removeAll(keepingCapacity: true)
        let everyone = buffers.lastList
        var changed: [Disc] = []
        var movedList: [Int32] = [], moved: [Disc] = []
        @inline(__always) func test(_ a: Disc, _ b: Disc, into pairs: inout [(depth: Double, a: Int32, b: Int32)]) {
            let dx = a.x - b.x, dy = a.y - b.y
            let need = (a.d + b.d) / 2
            let d2 = dx * dx + dy * dy
            if d2 < need * need { pairs.append((d2.squareRoot() / need, min(a.root, b.root), max(a.root, b.root))) }
        }
        // Round 0: every pair once, each disc looking forwards in cell order.
        do {
            let all = everyone
            var next = 0                            // cursor into the next row, moving forwards
            for q in 0..<all.count {
                let a = all[q]
                let (gx, gy) = (Int64(a.key & 0xFFFF_FFFF), Int64(a.key >> 32))
                let sameRowEnd = Self.pack(gx + 1, gy)
                var k = q + 1
                while k < all.count && all[k].key <= sameRowEnd { test(a, all[k], into: &pairs); k += 1 }
                let from = Self.pack(max(gx - 1, 0), gy + 1), to = Self.pack(gx + 1, gy + 1)
                next = Self.lowerBound(all, from, after: max(next, k))
                k = next
                while k < all.count && all[k].key <= to { test(a, all[k], into: &pairs); k += 1 }
            }
        }
        var round = 0
        while !pairs.isEmpty {
            pairs.sort { ($0.depth, $0.a, $0.b) < ($1.depth, $1.a, $1.b) }
            // Every overlapping pair merges, most overlapping first (a chain of overlaps joins
            // in one round); the merged discs are tested again in the next round.
            var fresh: [Int32] = []
            for p in pairs {
                let ra = find(Int(p.a)), rb = find(Int(p.b))
                if ra != rb { fresh.append(Int32(merge(ra, rb, zoom: zoom))) }
            }
            var changedRoots: [Int32] = []
            for r in fresh where !isAbsorbed(Int(r)) && movedAt[Int(r)] != Int8(zoom) - 64 {
                movedAt[Int(r)] = Int8(zoom) - 64          // marks "in `changed` already" for this round
                changedRoots.append(r)
            }
            for r in changedRoots { movedAt[Int(r)] = Int8(zoom); movedList.append(r) }
            changed = discs(changedRoots)
            Self.sortByCell(&changed, scratch: &scratch)
            movedList = movedList.filter { !isAbsorbed(Int($0)) }
            moved = discs(movedList)
            Self.sortByCell(&moved, scratch: &scratch)
            round += 1

            // Later rounds: the changed pins against the unmoved pins, then against the moved ones.
            pairs.removeAll(keepingCapacity: true)
            var cursors = [Int](repeating: 0, count: 6)
            moved.withUnsafeBufferPointer { movedDiscs in
            for a in changed {
                let (gx, gy) = (Int64(a.key & 0xFFFF_FFFF), Int64(a.key >> 32))
                for source in 0..<2 {
                    let list = source == 0 ? everyone : movedDiscs
                    for dy in -1...1 {
                        let row = gy + Int64(dy)
                        guard row >= 0 else { continue }
                        let from = Self.pack(max(gx - 1, 0), row), hiKey = Self.pack(gx + 1, row)
                        // Probes come in key order, so each (source, row) search starts where the
                        // last one ended: a gallop from that cursor instead of a binary search of all.
                        let c = source * 3 + Int(dy + 1)
                        var k = Self.lowerBound(list, from, after: cursors[c])
                        cursors[c] = k
                        while k < list.count {
                            let b = list[k]
                            if b.key > hiKey { break }
                            k += 1
                            let rj = Int(b.root)
                            if rj == Int(a.root) { continue }
                            if source == 0 && (movedAt[rj] == Int8(zoom) || isAbsorbed(rj)) { continue }
                            test(a, b, into: &pairs)
                        }
                    }
                }
            }
            }
        }
        if round > 0 { current = current.filter { !isAbsorbed(Int($0)) } }
    }

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
        let shifts = stride(from: UInt64(0), to: 64, by: 16).filter { (varying >> $0) & 0xFFFF != 0 }
        radixPasses(&keys, scratch: &scratch, bits: 16, shifts: shifts) { $0.key }
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
        radixPasses(&discs, scratch: &scratch, bits: 11, shifts: Array(stride(from: UInt64(0), to: bitsX + bitsY, by: 11))) {
            compact($0.key)
        }
    }

    /// The passes of a stable least-significant-digit radix sort of `keys` by `key(record)`:
    /// one pass per shift in `shifts`, on the `bits`-bit digit there, through `scratch` (the
    /// caller's, grown when needed), ending in `keys`.
    @inline(__always)
    private static func radixPasses<T>(_ keys: inout [T], scratch: inout [T], bits: Int, shifts: [UInt64],
                                       key: (T) -> UInt64) {
        let n = keys.count
        if scratch.count < n { scratch = keys }
        let mask = UInt64(1 << bits - 1)
        var inScratch = false
        var counts = [Int](repeating: 0, count: 1 << bits)
        keys.withUnsafeMutableBufferPointer { keys in
        scratch.withUnsafeMutableBufferPointer { scratch in
        counts.withUnsafeMutableBufferPointer { counts in
            for shift in shifts {
                let src = inScratch ? UnsafeMutableBufferPointer(rebasing: scratch[0..<n]) : keys
                let dst = inScratch ? keys : UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
                for d in 0..<counts.count { counts[d] = 0 }
                for k in src { counts[Int((key(k) >> shift) & mask)] += 1 }
                var sum = 0
                for d in 0..<counts.count { let c = counts[d]; counts[d] = sum; sum += c }
                for k in src {
                    let d = Int((key(k) >> shift) & mask)
                    dst[counts[d]] = k
                    counts[d] += 1
                }
                inScratch.toggle()
            }
            if inScratch { for i in 0..<n { keys[i] = scratch[i] } }
        }}}
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

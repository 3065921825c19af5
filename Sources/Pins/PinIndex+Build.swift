// Building a PinIndex: mask, hierarchy, cut per zoom, order (see PinIndex.swift's header).

import ClusterCore

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
            guard c == PinCategory.none || Int(c) < PinCategory.count else {
                throw .invalidParameter(name: "category of listing \(listings.ids[i])", value: "\(c)", requirement: "must be a code 0...15")
            }
        }
        var sortedIDs = listings.ids
        sortedIDs.sort()
        for i in 1..<max(sortedIDs.count, 1) where sortedIDs[i] == sortedIDs[i - 1] { throw .duplicateListingID(sortedIDs[i]) }
        sortedIDs = []

        // 1. Locations in canonical order: by token (keyed hash of the key), key, then id.
        let hasher: SipHash24
        let mask: PrivacyMask?
        switch options.privacy {
        case .disabled: hasher = SipHash24(k0: 0x7069_6e73_2d6f_7065, k1: 0x6e2d_6964_732d_3031); mask = nil
        case .displaced(let m): hasher = SipHash24(k0: m.seed.0 ^ 0x746f_6b65_6e73_2121, k1: m.seed.1); mask = m
        }
        // Keys are recomputed from the listings where needed (`key(_:)`, a few instructions)
        // rather than held as a 16-byte-a-listing column.
        var tokens = [UInt64](); tokens.reserveCapacity(n)
        for i in 0..<n {
            let k = listings.key(i)
            tokens.append(hasher.hash(k.tag, k.value))
        }
        // By token with a radix sort, then runs of equal tokens (one key, or a 64-bit
        // collision) by key and id: a comparison sort of all 1M listings took 0.15 s.
        var byToken = (0..<n).map { (key: tokens[$0], root: Int32($0)) }
        var scratch: [(key: UInt64, root: Int32)] = []
        Cut.sortByKey(&byToken, scratch: &scratch)
        scratch = []
        var order = byToken.map(\.root)
        byToken = []
        var runStart = 0
        while runStart < n {
            var runEnd = runStart + 1
            while runEnd < n && tokens[Int(order[runEnd])] == tokens[Int(order[runStart])] { runEnd += 1 }
            if runEnd - runStart > 1 {
                order[runStart..<runEnd].sort { a, b in
                    let i = Int(a), j = Int(b)
                    let ki = listings.key(i), kj = listings.key(j)
                    if ki != kj { return ki < kj }
                    return listings.ids[i] < listings.ids[j]
                }
            }
            runStart = runEnd
        }
        tokens = []
        // Runs of one key are one location; its first listing (smallest id) places it.
        var locFirstRow: [Int32] = []           // first position in `order` of each location
        var locToken: [UInt64] = []
        var lLon: [Double] = [], lLat: [Double] = [], lX: [Double] = [], lY: [Double] = []
        for p in 0..<n {
            let i = Int(order[p])
            let key = listings.key(i)
            if p > 0 && listings.key(Int(order[p - 1])) == key { continue }
            locFirstRow.append(Int32(p))
            locToken.append(hasher.hash(key.tag, key.value))
            var lon = listings.longitudes[i], lat = listings.latitudes[i]
            if let mask { (lon, lat) = mask.displayedPosition(of: key, longitude: lon, latitude: lat) }
            lLon.append(lon); lLat.append(lat)
            lX.append(WebMercator.x(longitude: lon)); lY.append(WebMercator.y(latitude: lat))
        }
        // True positions and keys are not read again.
        listings.longitudes = []; listings.latitudes = []; listings.keyTags = []; listings.keyValues = []
        let L = lLon.count
        locFirstRow.append(Int32(n))
        let locCount = (0..<L).map { Int32(locFirstRow[$0 + 1] - locFirstRow[$0]) }

        // 2. The hierarchy's MST over the displayed locations.
        let mst: MinimumSpanningTree
        do {
            mst = try HDBSCAN.minimumSpanningTree(try PointSet(xs: lX, ys: lY), minSamples: min(options.minSamples, max(L, 1)),
                                                  threads: options.threads).mst
        } catch {
            throw .invalidParameter(name: "minSamples", value: "\(options.minSamples)", requirement: "\(error)")
        }

        // 3. The cut.
        var cut = Cut(locationCount: L, counts: locCount, xs: lX, ys: lY, options: options)
        cut.run(mst: mst)
        cut.dropWorkingState()

        // 4. Depth-first order of the final forest; rows and node ranges.
        let nodes = cut.nodeCount
        var start = [Int32](repeating: 0, count: nodes), end = [Int32](repeating: 0, count: nodes)
        var low = [UInt8](repeating: 0, count: nodes)
        var rowOrder = [Int32](); rowOrder.reserveCapacity(n)   // input index of each row
        var rowLoc = [Int32](); rowLoc.reserveCapacity(n)
        var minToken = [UInt64](repeating: .max, count: nodes)
        var runs: (end: [Int32], location: [Int32], x: [Double], y: [Double]) = ([], [], [], [])
        runs.end.reserveCapacity(L); runs.location.reserveCapacity(L); runs.x.reserveCapacity(L); runs.y.reserveCapacity(L)
        var stack: [(Int32, Bool)] = cut.roots.reversed().map { ($0, false) }
        while let item = stack.popLast() {
            let (v, done) = item
            let node = Int(v)
            if done {
                end[node] = Int32(rowOrder.count)
                if cut.parent[node] >= 0 {
                    let p = Int(cut.parent[node])
                    minToken[p] = min(minToken[p], minToken[node])
                }
                continue
            }
            start[node] = Int32(rowOrder.count)
            low[node] = cut.parent[node] < 0 ? 0 : cut.high[Int(cut.parent[node])] + 1
            stack.append((v, true))
            if node < L {
                for p in Int(locFirstRow[node])..<Int(locFirstRow[node + 1]) { rowOrder.append(order[p]); rowLoc.append(Int32(node)) }
                minToken[node] = locToken[node]
                runs.end.append(Int32(rowOrder.count)); runs.location.append(Int32(node))
                runs.x.append(lX[node]); runs.y.append(lY[node])
            } else {
                // Children pushed, then put in reverse so that the first is visited first.
                let mark = stack.count
                var c = cut.firstChild[node]
                while c >= 0 { stack.append((c, false)); c = cut.nextSibling[Int(c)] }
                stack[mark...].reverse()
            }
        }
        order = []
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
        rowID = rowOrder.map { listings.ids[Int($0)] }
        listings.ids = []
        rowLocation = rowLoc
        let categories = rowOrder.map { listings.categories[Int($0)] }
        listings.categories = []
        // Each run's categories as bits (bit 16: no category).
        var runMask = [UInt32](repeating: 0, count: runs.end.count)
        var row = 0
        for k in 0..<runs.end.count {
            while row < Int(runs.end[k]) { runMask[k] |= 1 << UInt32(min(categories[row], 16)); row += 1 }
        }
        runCategories = runMask
        let deposits = rowOrder.map { listings.deposits[Int($0)] }
        listings.deposits = []
        let rents = rowOrder.map { listings.rents[Int($0)] }
        listings.rents = []
        rowCategory = categories
        rowArea = rowOrder.map { listings.areas[Int($0)] }
        listings.areas = []
        rowOrder = []
        rowDeposit = deposits
        rowRent = rents
        depositQuantiles = RangeQuantiles(deposits)
        rentQuantiles = RangeQuantiles(rents)
        // Listings per category present, per node: a location's from its rows, a group's as
        // the sum of its children's (children have lower node numbers than their parent).
        var present = [Bool](repeating: false, count: PinCategory.count)
        for c in categories where Int(c) < PinCategory.count { present[Int(c)] = true }
        let codes = (0..<UInt8(PinCategory.count)).filter { present[Int($0)] }
        var slotOfCode = [Int](repeating: -1, count: 256)
        for (k, c) in codes.enumerated() { slotOfCode[Int(c)] = k }
        let width = codes.count
        var perNode = [UInt32](repeating: 0, count: nodes * width)
        if width > 0 {
            for v in 0..<nodes {
                if v < L {
                    for r in Int(start[v])..<Int(end[v]) where slotOfCode[Int(categories[r])] >= 0 {
                        perNode[v * width + slotOfCode[Int(categories[r])]] += 1
                    }
                }
                let p = Int(cut.parent[v])
                if p >= 0 { for k in 0..<width { perNode[p * width + k] += perNode[v * width + k] } }
            }
        }
        categoryCodes = codes
        categoryCounts = perNode
    }
}

/// The per-zoom cut over a union-find of locations (step 3 of PinIndex.swift's header).
struct Cut {
    let L: Int
    let options: PinOptions
    // Union-find over locations, with each root's group: listings, weighted coordinate sums, box.
    var uf: UnionFind
    var count: [Int]
    var sx: [Double], sy: [Double]
    var bx0: [Double], bx1: [Double], by0: [Double], by1: [Double]
    /// The node standing for each root's group, as of the end of the last zoom.
    var nodeOf: [Int32]
    /// The zoom at which a root last took part in a merge (−1: never), and the child list of
    /// the node it will become (head and tail, linked through `nextSibling`).
    var mergedAt: [Int8]
    var headOf: [Int32], tailOf: [Int32]
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
        uf = UnionFind(count: L)
        count = counts.map { Int($0) }
        sx = (0..<L).map { xs[$0] * Double(counts[$0]) }
        sy = (0..<L).map { ys[$0] * Double(counts[$0]) }
        bx0 = xs; bx1 = xs; by0 = ys; by1 = ys
        nodeOf = (0..<L).map { Int32($0) }
        mergedAt = [Int8](repeating: -1, count: L)
        movedAt = [Int8](repeating: -1, count: L)
        headOf = [Int32](repeating: -1, count: L)
        tailOf = [Int32](repeating: -1, count: L)
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
        uf = UnionFind(count: 0)
        count = []; sx = []; sy = []; bx0 = []; bx1 = []; by0 = []; by1 = []
        nodeOf = []; mergedAt = []; headOf = []; tailOf = []; movedAt = []; touched = []; current = []
    }

    /// Merges the groups of roots `a` and `b` at `zoom`; returns the new root.
    @discardableResult
    mutating func merge(_ a: Int, _ b: Int, zoom: Int) -> Int {
        // Each side's contribution to the new node's children: its node from the zoom above,
        // or the children it already gathered at this zoom.
        func list(_ r: Int) -> (Int32, Int32) {
            if Int(mergedAt[r]) == zoom { return (headOf[r], tailOf[r]) }
            let v = nodeOf[r]
            nextSibling[Int(v)] = -1
            return (v, v)
        }
        let (ha, ta) = list(a), (hb, tb) = list(b)
        nextSibling[Int(ta)] = hb
        let r = uf.withRawAccess { $0.unionRoots(a, b) }
        let o = r == a ? b : a
        count[r] += count[o]; sx[r] += sx[o]; sy[r] += sy[o]
        bx0[r] = min(bx0[r], bx0[o]); bx1[r] = max(bx1[r], bx1[o])
        by0[r] = min(by0[r], by0[o]); by1[r] = max(by1[r], by1[o])
        headOf[r] = ha; tailOf[r] = tb
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
                let ra = cut.uf.find(Int(mst.a[e])), rb = cut.uf.find(Int(mst.b[e]))
                if ra == rb { return true }
                let w = max(cut.bx1[ra], cut.bx1[rb]) - min(cut.bx0[ra], cut.bx0[rb])
                let h = max(cut.by1[ra], cut.by1[rb]) - min(cut.by0[ra], cut.by0[rb])
                if w * w + h * h > cap2 { return false }
                cut.merge(ra, rb, zoom: zoom)
                return true
            }
            for e in pending where !tryEdge(Int(e), &self) { waiting.append(e) }
            while nextEdge < mst.count && mst.weight[nextEdge] <= t {
                if !tryEdge(nextEdge, &self) { waiting.append(Int32(nextEdge)) }
                nextEdge += 1
            }
            pending = waiting
            current = current.filter { uf.find(Int($0)) == Int($0) }
            // b. Overlap merges, in rounds.
            resolveOverlaps(zoom: zoom, world: world)
            // New nodes for the groups that changed.
            for r32 in touched {
                let r = Int(r32)
                guard uf.find(r) == r, Int(mergedAt[r]) == zoom else { continue }
                let v = Int32(parent.count)
                parent.append(-1)
                firstChild.append(headOf[r])
                nextSibling.append(-1)
                high.append(UInt8(zoom))
                let c = Double(count[r])
                nodeCX.append(sx[r] / c); nodeCY.append(sy[r] / c)
                nodeMinX.append(bx0[r]); nodeMaxX.append(bx1[r]); nodeMinY.append(by0[r]); nodeMaxY.append(by1[r])
                var k = headOf[r]
                while k >= 0 { parent[Int(k)] = v; k = nextSibling[Int(k)] }
                nodeOf[r] = v
                mergedAt[r] = -1                   // the group is a node again: list(_:) starts afresh
            }
            touched.removeAll(keepingCapacity: true)
        }
        roots = current.map { nodeOf[Int($0)] }.sorted()
    }

    /// Merges pins at `zoom` until no two drawn discs overlap.
    ///
    /// Discs are found through a grid of `maxDiameter`-pixel cells (two discs overlap only if
    /// their centres are in neighbouring cells): the pins sorted by cell, and each looks at the
    /// 3 × 3 cells around its own. The first round tests every pin against every pin; a later
    /// round only the pins the previous round's merges made ("changed"), against the pins no
    /// overlap merge has moved (from the first round's sorted list) and against every moved
    /// pin. Two pins that did not move since they were last tested do not overlap, so the
    /// rounds find the same pairs as testing every pin each time (at 1M listings, 225k
    /// locations, that re-sorting of every pin in every round was a fifth of the build).
    mutating func resolveOverlaps(zoom: Int, world: Double) {
        let cell = options.maxDiameter
        var pairs: [(depth: Double, a: Int32, b: Int32)] = []
        var scratch: [(key: UInt64, root: Int32)] = []
        func keyed(_ r: Int32) -> (key: UInt64, root: Int32) {
            let c = Double(count[Int(r)])
            return (Self.cellKey(sx[Int(r)] / c * world / cell, sy[Int(r)] / c * world / cell), r)
        }
        var everyone = current.map(keyed)
        Self.sortByKey(&everyone, scratch: &scratch)
        var changed = everyone
        var movedList: [Int32] = [], moved: [(key: UInt64, root: Int32)] = []
        var round = 0
        while true {
            pairs.removeAll(keepingCapacity: true)
            var cursors = [Int](repeating: 0, count: 6)
            for (key, r) in changed {
                let ri = Int(r)
                let ci = Double(count[ri])
                let xi = sx[ri] / ci * world, yi = sy[ri] / ci * world
                let di = options.diameter(count: count[ri])
                let (gx, gy) = (Int64(key & 0xFFFF_FFFF), Int64(key >> 32))
                // Round 0: each pair once (rj > ri). Later: the unmoved pins, then the moved ones.
                for source in 0..<(round == 0 ? 1 : 2) {
                    let unmovedOnly = round > 0 && source == 0
                    let n = source == 0 ? everyone.count : moved.count
                    for dy in -1...1 {
                        let row = gy + Int64(dy)
                        guard row >= 0 else { continue }
                        let from = Self.pack(max(gx - 1, 0), row), hiKey = Self.pack(gx + 1, row)
                        // Probes come in key order, so each (source, row) search starts where the
                // last one ended: a gallop from that cursor instead of a binary search of all.
                let c = source * 3 + Int(dy + 1)
                var k = source == 0 ? Self.lowerBound(everyone, from, after: cursors[c]) : Self.lowerBound(moved, from, after: cursors[c])
                cursors[c] = k
                        while k < n {
                            let (kk, rj32) = source == 0 ? everyone[k] : moved[k]
                            if kk > hiKey { break }
                            let rj = Int(rj32)
                            k += 1
                            if round == 0 ? rj <= ri : rj == ri { continue }
                            if unmovedOnly && (movedAt[rj] == Int8(zoom) || uf.find(rj) != rj) { continue }
                            let cj = Double(count[rj])
                            let xj = sx[rj] / cj * world, yj = sy[rj] / cj * world
                            let dj = options.diameter(count: count[rj])
                            let dx = xi - xj, dy = yi - yj
                            let need = (di + dj) / 2
                            let d2 = dx * dx + dy * dy
                            if d2 < need * need { pairs.append((d2.squareRoot() / need, Int32(min(ri, rj)), Int32(max(ri, rj)))) }
                        }
                    }
                }
            }
            if pairs.isEmpty { break }
            pairs.sort { ($0.depth, $0.a, $0.b) < ($1.depth, $1.a, $1.b) }
            // Every overlapping pair merges, most overlapping first (a chain of overlaps joins
            // in one round); the merged discs are tested again in the next round.
            var fresh: [Int32] = []
            for p in pairs {
                let ra = uf.find(Int(p.a)), rb = uf.find(Int(p.b))
                if ra != rb { fresh.append(Int32(merge(ra, rb, zoom: zoom))) }
            }
            changed.removeAll(keepingCapacity: true)
            for r in fresh where uf.find(Int(r)) == Int(r) && movedAt[Int(r)] != Int8(zoom) - 64 {
                movedAt[Int(r)] = Int8(zoom) - 64          // marks "in `changed` already" for this round
                changed.append(keyed(r))
            }
            for c in changed { movedAt[Int(c.root)] = Int8(zoom); movedList.append(c.root) }
            Self.sortByKey(&changed, scratch: &scratch)
            movedList = movedList.filter { uf.find(Int($0)) == Int($0) }
            moved = movedList.map(keyed)
            Self.sortByKey(&moved, scratch: &scratch)
            round += 1
        }
        if round > 0 { current = current.filter { uf.find(Int($0)) == Int($0) } }
    }

    /// Sorts by key, stably: least-significant-digit radix sort, 16-bit digits, skipping the
    /// digits that every key shares (a city's cells share their high bits).
    static func sortByKey(_ keys: inout [(key: UInt64, root: Int32)], scratch: inout [(key: UInt64, root: Int32)]) {
        let n = keys.count
        if n < 256 { keys.sort { $0.key < $1.key }; return }
        var varying: UInt64 = 0
        let first = keys[0].key
        for k in keys { varying |= k.key ^ first }
        scratch = keys
        var counts = [Int](repeating: 0, count: 1 << 16)
        for shift in stride(from: UInt64(0), to: 64, by: 16) where (varying >> shift) & 0xFFFF != 0 {
            for d in 0..<counts.count { counts[d] = 0 }
            for k in keys { counts[Int((k.key >> shift) & 0xFFFF)] += 1 }
            var sum = 0
            for d in 0..<counts.count { let c = counts[d]; counts[d] = sum; sum += c }
            for k in keys {
                let d = Int((k.key >> shift) & 0xFFFF)
                scratch[counts[d]] = k
                counts[d] += 1
            }
            swap(&keys, &scratch)
        }
    }

    @inline(__always)
    static func pack(_ gx: Int64, _ gy: Int64) -> UInt64 { (UInt64(gy) << 32) | UInt64(gx) }

    @inline(__always)
    static func cellKey(_ x: Double, _ y: Double) -> UInt64 {
        pack(Int64(max(x, 0).rounded(.down)), Int64(max(y, 0).rounded(.down)))
    }

    /// The first position at or after `start` whose key is not below `key`: a gallop
    /// (steps 1, 2, 4, … from `start`), then a binary search in the last step.
    static func lowerBound(_ keys: [(key: UInt64, root: Int32)], _ key: UInt64, after start: Int) -> Int {
        var lo = start, step = 1
        var hi = start
        while hi < keys.count && keys[hi].key < key { lo = hi + 1; hi = start + step; step <<= 1 }
        hi = min(hi, keys.count)
        while lo < hi { let m = (lo + hi) / 2; if keys[m].key < key { lo = m + 1 } else { hi = m } }
        return lo
    }
}

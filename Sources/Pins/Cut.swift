// Step 3 of the build (PinIndex.swift's header): the cut, zoom by zoom, over a union-find of
// the locations. Overlap merges are in Cut+Overlaps.swift, the sorts by cell in Cut+Sorting.swift.

import ClusterCore

extension PinIndex {
    /// Step 3, cut: takes the locations (in canonical order, with their listing counts and
    /// Mercator positions) and the hierarchy's MST; returns the cut with its working state
    /// dropped: the forest of nodes (locations first, then the groups in creation order) and
    /// its roots, the pins of zoom 0.
    static func cut(_ locations: MaskedLocations, mst: MinimumSpanningTree, options: PinOptions) -> Cut {
        var cut = Cut(locationCount: locations.count, counts: locations.listingCount, xs: locations.x, ys: locations.y,
                      options: options)
        cut.run(mst: mst)
        cut.dropWorkingState()
        return cut
    }
}

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
    /// lists are filtered by this byte rather than by `find`, which read a whole record per pin,
    /// several passes a zoom.
    var state: [UInt8]
    /// `pairedBit`: the root has merged in the current overlap round (`mergeOverlapping`).
    static let absorbedBit: UInt8 = 1, dirtyBit: UInt8 = 2, pairedBit: UInt8 = 4
    @inline(__always) func isAbsorbed(_ r: Int) -> Bool { state[r] & Self.absorbedBit != 0 }
    /// The discs of the last zoom's pins, sorted by cell, carried to the next zoom (see
    /// `carryDiscs`), and the roots whose group changed since (merged: their disc moved).
    var discBuffers: DiscBuffers
    var discsCarried = false
    /// Where the touched records' loads go (see `thresholdMerges`), so that they are not optimised away.
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

    /// Cuts the hierarchy at every zoom from `maxZoom` down to 0: threshold merges along the
    /// MST's edges (ascending), then overlap merges; each group that changed at a zoom
    /// becomes a node. Leaves the forest in the node arrays and its top in `roots`.
    mutating func run(mst: MinimumSpanningTree) {
        var pending: [Int32] = []          // edges waiting for a lower zoom, ascending
        var nextEdge = 0
        for zoom in stride(from: PinOptions.maxZoom, through: 0, by: -1) {
            let world = options.tileSize * WebMercator.exp2(Double(zoom))
            // a. Threshold merges: waiting edges first (all shorter than the new ones).
            thresholdMerges(mst, zoom: zoom, world: world, pending: &pending, nextEdge: &nextEdge)
            current = current.filter { !isAbsorbed(Int($0)) }
            // b. Overlap merges, in rounds.
            resolveOverlaps(zoom: zoom, world: world)
            makeNodes(zoom: zoom)
        }
        roots = current.map { table.base[Int($0)].link }.sorted()
    }

    /// Step 3a at `zoom`: merges along the edges in `pending` (which waited for a lower
    /// zoom), then along the MST's edges from `nextEdge` no longer than the zoom's threshold,
    /// unless the merged group would spread wider than `maxSpread`; such edges are left in
    /// `pending` for the next zoom.
    @inline(__always)
    mutating func thresholdMerges(_ mst: MinimumSpanningTree, zoom: Int, world: Double, pending: inout [Int32],
                                  nextEdge: inout Int) {
        let t = options.radius(atZoom: zoom) / world
        let cap2 = (options.maxSpread / world) * (options.maxSpread / world)
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
    }

    /// A new node for every group that merged at `zoom` (its children: the nodes it gathered),
    /// which stands for the group from then on.
    @inline(__always)
    mutating func makeNodes(zoom: Int) {
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
}

// The overlap merges of the cut (step 3b of PinIndex.swift's header): pins whose drawn discs
// overlap merge, in rounds, until none do.

extension Cut {
    /// A pin's drawn disc at one zoom: its grid cell's key, centre (pixels), diameter, root.
    struct Disc {
        var key: UInt64
        var x: Double, y: Double, d: Double
        var root: Int32
    }

    /// Two buffers of discs, one pin list each (the last zoom's, the one being made), allocated
    /// once: the lists are rebuilt at every zoom, and fresh arrays of that size came back from
    /// the kernel page by page, zeroed, every time.
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

    /// Merges pins at `zoom` until no two drawn discs overlap, each pin at most once a round
    /// (`mergeOverlapping`).
    ///
    /// Discs are found through a grid of `maxDiameter`-pixel cells (two discs overlap only if
    /// their centres are in neighbouring cells): the discs sorted by cell, row by row. The first
    /// round tests each pair once, looking from every disc only forwards in that order (the rest
    /// of its own cell, the next cell of its row, the three cells of the next row). A later
    /// round tests only the pins the previous round's merges made ("changed") against the pins
    /// no overlap merge has moved (from the first round's sorted list) and against every moved
    /// pin, in the 3 × 3 cells around each. Two pins that did not move since they were last
    /// tested do not overlap, so the rounds find the same pairs as testing every pin each time
    /// (re-sorting every pin in every round was a fifth of the build).
    ///
    /// Each disc is computed once per list, in one pass over the pins in root order (`current`
    /// ascends, so the group records are read nearly in sequence), and carried through the
    /// sort: reading the records again at random in cell order cost more than the probes.
    mutating func resolveOverlaps(zoom: Int, world: Double) {
        let cell = options.maxDiameter
        var pairs: [OverlapPair] = []
        var scratch: [Disc] = []
        carryDiscs(world: world, cell: cell, scratch: &scratch)
        // Marks made from here on (this zoom's overlap merges) apply to the next zoom's list.
        for r in dirtyList { state[Int(r)] &= ~Self.dirtyBit }
        dirtyList.removeAll(keepingCapacity: true)
        let everyone = discBuffers.lastList
        var changed: [Disc] = [], moved: [Disc] = []
        // Round 0: every pair once, each disc looking forwards in cell order.
        Self.firstRoundPairs(everyone, into: &pairs)
        var round = 0
        while !pairs.isEmpty {
            let changedRoots = mergeOverlapping(&pairs, zoom: zoom)
            changed = discs(changedRoots, world: world, cell: cell)
            Self.sortByCell(&changed, scratch: &scratch)
            moved = movedDiscs(moved, changed: changed, zoom: zoom)
            for r in changedRoots { movedAt[Int(r)] = Int8(zoom) }
            round += 1
            // Later rounds: the changed pins against the unmoved pins, then against the moved ones.
            pairs.removeAll(keepingCapacity: true)
            laterRoundPairs(changed, everyone: everyone, moved: moved, zoom: zoom, into: &pairs)
        }
        if round > 0 { current = current.filter { !isAbsorbed(Int($0)) } }
    }

    /// The discs of every pin an overlap merge has moved at `zoom`, sorted by cell: the last
    /// round's list less the pins absorbed or changed in this round (`mergeOverlapping` marks
    /// them), merged with the `changed` discs (sorted by cell). A moved pin's disc changes only
    /// when it merges again, so the list is carried from round to round instead of being
    /// recomputed: overlap merges take a pin once a round, so a zoom can take many rounds.
    @inline(__always)
    func movedDiscs(_ last: [Disc], changed: [Disc], zoom: Int) -> [Disc] {
        var out: [Disc] = []
        out.reserveCapacity(last.count + changed.count)
        let mark = Int8(zoom) - 64
        var j = 0
        for d in last {
            let r = Int(d.root)
            if isAbsorbed(r) || movedAt[r] == mark { continue }
            while j < changed.count && changed[j].key < d.key { out.append(changed[j]); j += 1 }
            out.append(d)
        }
        out.append(contentsOf: changed[j...])
        return out
    }

    /// Two overlapping discs: how deep the overlap is (centre distance over the sum of the
    /// radii) and their roots, the smaller first.
    typealias OverlapPair = (depth: Double, a: Int32, b: Int32)

    /// The discs of the pins `roots` at this zoom (`world` pixels a Mercator unit, cells of
    /// `cell` pixels), in the order of `roots`.
    @inline(__always)
    func discs(_ roots: [Int32], world: Double, cell: Double) -> [Disc] {
        let groups = table.base
        return roots.map { r in
            let g = groups[Int(r)]
            let c = Double(g.count)
            let x = g.sx / c * world, y = g.sy / c * world
            return Disc(key: Self.cellKey(x / cell, y / cell), x: x, y: y, d: options.diameter(count: Int(g.count)), root: r)
        }
    }

    /// Makes this zoom's sorted discs of every current pin the last list of `discBuffers`.
    ///
    /// At the first zoom, all of them afresh. Afterwards, the pins that merged since the last
    /// zoom afresh, and the last zoom's sorted discs of the others, coarsened: a pin that has
    /// not merged since keeps its centroid, so its centre in pixels halves exactly (a
    /// power-of-two scale) and its cell is (gx >> 1, gy >> 1) (⌊q/2⌋ = ⌊⌊q⌋/2⌋, and q/2 is
    /// exact). In row-major order the two fine rows of a coarse row are each sorted by gx, so
    /// merging the two restores the order, and the fresh discs are merged in on the way: one
    /// pass instead of recomputing and re-sorting every pin at every zoom.
    @inline(__always)
    mutating func carryDiscs(world: Double, cell: Double, scratch: inout [Disc]) {
        let buffers = discBuffers
        if !discsCarried {
            var first = discs(current, world: world, cell: cell)
            Self.sortByCell(&first, scratch: &scratch)
            first.withUnsafeBufferPointer { first in buffers.next.update(from: first.baseAddress!, count: first.count) }
            buffers.swap(count: first.count)
            discsCarried = true
            return
        }
        var freshRoots: [Int32] = []
        for r in dirtyList where !isAbsorbed(Int(r)) { freshRoots.append(r) }
        var fresh = discs(freshRoots, world: world, cell: cell)
        Self.sortByCell(&fresh, scratch: &scratch)
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

    /// Whether discs `a` and `b` overlap; if so, appends the pair.
    @inline(__always)
    static func test(_ a: Disc, _ b: Disc, into pairs: inout [OverlapPair]) {
        let dx = a.x - b.x, dy = a.y - b.y
        let need = (a.d + b.d) / 2
        let d2 = dx * dx + dy * dy
        if d2 < need * need { pairs.append((d2.squareRoot() / need, min(a.root, b.root), max(a.root, b.root))) }
    }

    /// Round 0: every overlapping pair of `all` (sorted by cell) once, each disc looking
    /// forwards in cell order.
    @inline(__always)
    static func firstRoundPairs(_ all: UnsafeBufferPointer<Disc>, into pairs: inout [OverlapPair]) {
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

    /// Merges overlapping pairs (sorting `pairs`), most overlapping first, each pin at most
    /// once a round: a pair whose pin has merged already in this round is skipped (the merged
    /// pin is tested again in the next round, with its new disc), so a chain of overlaps does
    /// not join at once. The first pair always merges, so every round makes progress. Returns
    /// the roots of the merged pins still current, each once: the discs to test again.
    @inline(__always)
    mutating func mergeOverlapping(_ pairs: inout [OverlapPair], zoom: Int) -> [Int32] {
        pairs.sort { ($0.depth, $0.a, $0.b) < ($1.depth, $1.a, $1.b) }
        var fresh: [Int32] = []
        for p in pairs {
            let ra = find(Int(p.a)), rb = find(Int(p.b))
            if ra == rb || (state[ra] | state[rb]) & Self.pairedBit != 0 { continue }
            let r = merge(ra, rb, zoom: zoom)
            state[r] |= Self.pairedBit
            fresh.append(Int32(r))
        }
        for r in fresh { state[Int(r)] &= ~Self.pairedBit }
        var changedRoots: [Int32] = []
        for r in fresh where !isAbsorbed(Int(r)) && movedAt[Int(r)] != Int8(zoom) - 64 {
            movedAt[Int(r)] = Int8(zoom) - 64          // marks "in `changed` already" for this round
            changedRoots.append(r)
        }
        return changedRoots
    }

    /// A later round's overlapping pairs: each of the `changed` discs against the discs in
    /// the 3 × 3 cells around it, in `everyone` (the pins no overlap merge has moved at
    /// `zoom`) and in `moved` (every moved pin); both sorted by cell.
    @inline(__always)
    func laterRoundPairs(_ changed: [Disc], everyone: UnsafeBufferPointer<Disc>, moved: [Disc], zoom: Int,
                         into pairs: inout [OverlapPair]) {
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
                        Self.test(a, b, into: &pairs)
                    }
                }
            }
        }
        }
    }
}

// The exact mutual-reachability minimum spanning tree on the sphere tree, by Borůvka's
// algorithm in squared chords.

/// Borůvka's rounds over a `SphereTree`: each round finds every component's lightest outgoing
/// edge under the total order (weight, smaller position, larger position) — distinct keys, so
/// every pick belongs to the one MST — and joins the components along their picks. (A
/// component holding more than half the points picks nothing: the others join it.)
///
/// Work avoided: the first round takes most points' best edges from their neighbour lists;
/// each point remembers its best edge (its argmin over the points outside its component stays
/// the argmin while the other end stays outside: that set only shrinks) or a lower bound on
/// it; a round first bounds every component from the remembered edges (pass A), then searches
/// only from points whose bound could beat their component's (pass B), with that as the
/// search's starting bound. A leaf lists the leaves within reach once for its points to check;
/// otherwise a search climbs from the point's leaf and skips nodes inside the component and
/// nodes whose bound max(core(p), min core in node, box distance) exceeds the best so far.
struct SphereBoruvka: @unchecked Sendable {
    let view: SphereView
    let core2: UnsafePointer<Double>
    let comp: UnsafeMutablePointer<Int32>
    let memQ: UnsafeMutablePointer<Int32>
    let memW: UnsafeMutablePointer<Double>
    let nodeComp: UnsafeMutablePointer<Int32>
    let nodeCore: UnsafeMutablePointer<Double>
    /// Each component's best edge (by component id, a position); set after the first round,
    /// which needs none of them, so they are not allocated while the lists still are.
    var bestW: UnsafeMutablePointer<Double>
    var bestKey: UnsafeMutablePointer<UInt64>
    let threads: Int
    /// The component holding more than half the points, or -1. It neither searches nor
    /// picks: every other component's pick is an edge of the MST all the same, and they join
    /// the rest to it. (Proving that no point of it has a lighter edge out was most of the
    /// last rounds' work, the bound being long and the giant everywhere.)
    var giant: Int32 = -1

    /// The MST's edges as tree-position pairs, in the order they were joined. `lists` (each
    /// position's `listLength` nearest positions, nearest first, the first `withinCore` of them
    /// no farther than its core distance; emptied once read) settle most of the first round.
    static func edges(tree: SphereTree, core2: [Double], lists: inout [Int32], listLength: Int, withinCore: Int,
                      threads: Int) -> (a: [Int32], b: [Int32]) {
        let n = tree.count
        var a: [Int32] = [], b: [Int32] = []
        guard n > 1 else { return (a, b) }
        var comp = (0..<n).map { Int32($0) }, memQ = [Int32](repeating: -1, count: n)
        var memW = [Double](repeating: 0, count: n), nodeComp = [Int32](repeating: -1, count: tree.nodeCount)
        var nodeCore = [Double](repeating: 0, count: tree.nodeCount)
        // The first round's peak (the lists) passes before the later rounds' buffers exist.
        let noBestW = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        let noBestKey = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        noBestW.initialize(to: .infinity); noBestKey.initialize(to: .max)
        defer { noBestW.deallocate(); noBestKey.deallocate() }
        tree.withView { view in
        core2.withUnsafeBufferPointer { core2 in
        comp.withUnsafeMutableBufferPointer { comp in
        memQ.withUnsafeMutableBufferPointer { memQ in
        memW.withUnsafeMutableBufferPointer { memW in
        nodeComp.withUnsafeMutableBufferPointer { nodeComp in
        nodeCore.withUnsafeMutableBufferPointer { nodeCore in
            var s = SphereBoruvka(view: view, core2: core2.baseAddress!, comp: comp.baseAddress!,
                                  memQ: memQ.baseAddress!, memW: memW.baseAddress!, nodeComp: nodeComp.baseAddress!,
                                  nodeCore: nodeCore.baseAddress!, bestW: noBestW, bestKey: noBestKey,
                                  threads: threads)
            s.labelNodeCores()
            if !lists.isEmpty {
                lists.withUnsafeBufferPointer {
                    s.firstRound(lists: $0.baseAddress!, length: listLength, withinCore: withinCore)
                }
                lists = []
            }
            a.reserveCapacity(n - 1); b.reserveCapacity(n - 1)
            var bestW = [Double](repeating: .infinity, count: n), bestKey = [UInt64](repeating: .max, count: n)
            var uf = UnionFind(count: n)
            bestW.withUnsafeMutableBufferPointer { bestW in
            bestKey.withUnsafeMutableBufferPointer { bestKey in
                s.bestW = bestW.baseAddress!; s.bestKey = bestKey.baseAddress!
                var components = n
                while components > 1 {
                    s.labelNodes()
                    s.boundComponents()
                    s.searchRepresentatives()
                    s.search()
                    s.pickBest()
                    components -= s.join(&uf, &a, &b)
                    s.giant = -1
                    for p in 0..<n where s.comp[p] == Int32(p) && 2 * uf.setSize(ofRoot: p) > n { s.giant = Int32(p); break }
                }
            }}
        }}}}}}}
        return (a, b)
    }

    @inline(__always) static func pairKey(_ p: Int, _ q: Int) -> UInt64 {
        p < q ? UInt64(p) << 32 | UInt64(q) : UInt64(q) << 32 | UInt64(p)
    }

    /// The least core distance in each node.
    private func labelNodeCores() {
        let v = view
        for leaf in v.firstLeaf..<v.nodeCount {
            var m = Double.infinity
            for p in Int(v.start[leaf])..<Int(v.end[leaf]) { m = min(m, core2[p]) }
            nodeCore[leaf] = m
        }
        for node in stride(from: v.firstLeaf - 1, through: 0, by: -1) {
            let (l, r) = KDTree.children(of: node)
            nodeCore[node] = min(nodeCore[l], nodeCore[r])
        }
    }

    /// Round one's searches, from the neighbour lists: every point is its own component, and
    /// its listed best edge is its exact best when lighter than the farthest listed distance
    /// (nothing unlisted comes as near); else a search that starts from the listed edge
    /// finds the exact best. Every point leaves with its best edge remembered.
    private func firstRound(lists: UnsafePointer<Int32>, length: Int, withinCore: Int) {
        let v = view
        // Every point listed: no point lies beyond the list.
        let complete = length == v.count
        Parallel.forEachChunk(count: v.count, grain: 4096, threads: threads) { chunk, _ in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * KDTree.depth(ofNodeCount: v.nodeCount) + 4) { stack in
                for p in chunk {
                    let (w, q, far2) = listBest(p, lists + p * length, length, withinCore)
                    if q >= 0 && (w < far2 || complete) { memQ[p] = Int32(q); memW[p] = w; continue }
                    searchFrom(p, leaf: v.leaf(containing: p), c: Int32(p), stack.baseAddress!,
                               start: (w, q >= 0 ? SphereBoruvka.pairKey(p, q) : .max))
                    if memQ[p] < 0 && q >= 0 { memQ[p] = Int32(q); memW[p] = w }
                }
            }
        }
    }

    /// p's lightest listed edge to another component (-1: none) and the farthest listed
    /// squared chord, past which every unlisted point lies.
    @inline(__always)
    private func listBest(_ p: Int, _ list: UnsafePointer<Int32>, _ length: Int,
                          _ withinCore: Int) -> (w: Double, q: Int, far2: Double) {
        let c = comp[p], cp = core2[p]
        var bw = Double.infinity, bq = -1, bkey = UInt64.max, far2 = 0.0
        for j in 0..<length {
            let q = Int(list[j])
            // Within the core distance the chord never decides the weight, so it is not measured.
            var d2 = 0.0
            if j >= withinCore { d2 = view.distance2(p, q); far2 = Swift.max(far2, d2) }
            if comp[q] == c { continue }
            let w = Swift.max(Swift.max(cp, core2[q]), d2)
            if w > bw { continue }
            let key = SphereBoruvka.pairKey(p, q)
            if w < bw || key < bkey { bw = w; bq = q; bkey = key }
        }
        return (bw, bq, far2)
    }

    /// Each node's component when all its points share one, else -1.
    private func labelNodes() {
        let v = view
        for leaf in v.firstLeaf..<v.nodeCount {
            let s = Int(v.start[leaf]), e = Int(v.end[leaf])
            var c: Int32 = s < e ? comp[s] : -1
            for p in s..<e where comp[p] != c { c = -1; break }
            nodeComp[leaf] = c
        }
        for node in stride(from: v.firstLeaf - 1, through: 0, by: -1) {
            let (l, r) = KDTree.children(of: node)
            nodeComp[node] = nodeComp[l] == nodeComp[r] ? nodeComp[l] : -1
        }
    }

    /// Pass A: every component's best edge among its points' remembered edges that still leave it.
    private func boundComponents() {
        for c in 0..<view.count { bestW[c] = .infinity; bestKey[c] = .max }
        for p in 0..<view.count {
            let q = Int(memQ[p])
            guard q >= 0 else { continue }
            let c = Int(comp[p])
            if comp[q] == comp[p] { memQ[p] = -1; continue }  // its weight stays a lower bound
            offer(memW[p], SphereBoruvka.pairKey(p, q), to: c)
        }
    }

    @inline(__always) private func offer(_ w: Double, _ key: UInt64, to c: Int) {
        if w < bestW[c] || (w == bestW[c] && key < bestKey[c]) { bestW[c] = w; bestKey[c] = key }
    }

    /// Pass B's first half: from each component, the point without a remembered edge whose
    /// lower bound is least (the lowest position on a tie) searches first, so the rest of the
    /// component starts from the bound it finds.
    private func searchRepresentatives() {
        var representative = [Int32](repeating: -1, count: view.count)
        for p in 0..<view.count where memQ[p] < 0 && comp[p] != giant {
            let c = Int(comp[p]), r = Int(representative[c])
            if r < 0 || memW[p] < memW[r] { representative[c] = Int32(p) }
        }
        let chosen = representative.filter { $0 >= 0 && memW[Int($0)] <= bestW[Int(comp[Int($0)])] }
        let v = view
        Parallel.forEachChunk(count: chosen.count, grain: 64, threads: threads) { chunk, _ in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * KDTree.depth(ofNodeCount: v.nodeCount) + 4) { stack in
                for i in chunk {
                    let p = Int(chosen[i])
                    if core2[p] > bestW[Int(comp[p])] { continue }
                    searchFrom(p, leaf: v.leaf(containing: p), c: comp[p], stack.baseAddress!)
                }
            }
        }
        for r in chosen where memQ[Int(r)] >= 0 {
            let p = Int(r)
            offer(memW[p], SphereBoruvka.pairKey(p, Int(memQ[p])), to: Int(comp[p]))
        }
    }

    /// Pass B: searches from every point without a remembered edge whose lower bound could
    /// still beat its component's bound; the bounds are read only (pass A's), so the result
    /// is the same for any thread count. Each leaf lists the leaves within reach of it once
    /// (of the largest bound among its searching points), and its points check those alone
    /// instead of each searching the tree; a leaf with more in reach searches point by point.
    private func search() {
        let v = view
        let leaves = v.nodeCount - v.firstLeaf
        Parallel.forEachChunk(count: leaves, grain: 64, threads: threads) { chunk, _ in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * KDTree.depth(ofNodeCount: v.nodeCount) + 4) { stack in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: SphereBoruvka.reachCapacity) { reach in
                let stack = stack.baseAddress!, reach = reach.baseAddress!
                for leaf in chunk.lowerBound + v.firstLeaf..<chunk.upperBound + v.firstLeaf {
                    let whole = nodeComp[leaf]
                    if whole >= 0 {
                        searchWhole(leaf, c: whole, stack, reach)
                    } else {
                        searchMixed(leaf, stack, reach)
                    }
                }
            }}
        }
    }

    /// Whether p searches this round: no remembered edge, and its lower bound and core
    /// distance could still beat its component's bound.
    @inline(__always) private func searches(_ p: Int) -> Bool {
        let c = Int(comp[p])
        return memQ[p] < 0 && memW[p] <= bestW[c] && core2[p] <= bestW[c] && Int32(c) != giant
    }

    /// Pass B over a leaf wholly inside component `c`: the leaves within reach are those not
    /// wholly inside `c`.
    private func searchWhole(_ leaf: Int, c: Int32, _ stack: UnsafeMutablePointer<Int32>,
                             _ reach: UnsafeMutablePointer<Int32>) {
        if c == giant { return }
        let v = view, bound = bestW[Int(c)]
        let (listed, beyond) = bound.isFinite ? leavesInReach(leaf, outside: c, within: bound, stack, into: reach)
                                              : (-1, 0)
        for p in Int(v.start[leaf])..<Int(v.end[leaf]) where memQ[p] < 0 {
            if listed == 0 {
                // Nothing outside the component is within the bound of any point here.
                memW[p] = Swift.max(memW[p], bound, Swift.max(core2[p], beyond))
            } else if searches(p) {
                if listed > 0 { check(p, c: c, leaves: reach, count: listed, own: -1, beyond: beyond) }
                else { searchFrom(p, leaf: leaf, c: c, stack) }
            }
        }
    }

    /// Pass B over a leaf of several components: the leaves within reach of the largest
    /// bound among its searching points, each point checking them and its own leaf.
    private func searchMixed(_ leaf: Int, _ stack: UnsafeMutablePointer<Int32>, _ reach: UnsafeMutablePointer<Int32>) {
        let v = view
        var bound = -Double.infinity
        for p in Int(v.start[leaf])..<Int(v.end[leaf]) where searches(p) {
            bound = Swift.max(bound, bestW[Int(comp[p])])
        }
        if bound == -.infinity { return }
        // (No node is labelled Int32.min: every node counts as outside.)
        let (listed, beyond) = bound.isFinite ? leavesInReach(leaf, outside: .min, within: bound, stack, into: reach)
                                              : (-1, 0)
        for p in Int(v.start[leaf])..<Int(v.end[leaf]) where searches(p) {
            if listed >= 0 { check(p, c: comp[p], leaves: reach, count: listed, own: leaf, beyond: beyond) }
            else { searchFrom(p, leaf: leaf, c: comp[p], stack) }
        }
    }

    /// The most leaves a leaf's points are checked against directly; a leaf with more within
    /// reach searches point by point.
    static let reachCapacity = 48

    /// The leaves other than `leaf` and not wholly inside component `c` that could hold a
    /// point whose weight to a point of `leaf` is at most `bound`, by box-to-box distance and
    /// least core distances, into `out`: their number, or -1 when there are more than
    /// `reachCapacity`; and a lower bound on the weight from a point of the leaf to any point
    /// outside `c` and the listed leaves (what the walk passed over). The climb stops once every point outside the current node lies beyond
    /// the bound (the leaf's box lies inside the node's cell, every outside point beyond one
    /// of its faces).
    private func leavesInReach(_ leaf: Int, outside c: Int32, within bound: Double,
                               _ stack: UnsafeMutablePointer<Int32>,
                               into out: UnsafeMutablePointer<Int32>) -> (count: Int, floor: Double) {
        if nodeCore[leaf] > bound { return (0, nodeCore[leaf]) }
        let v = view, g = v.box + 6 * leaf
        var count = 0, floor = Double.infinity
        var node = leaf
        while node > 0 {
            let cell = v.cell + 6 * node
            let gap = Swift.min(Swift.min(Swift.min(g[0] - cell[0], cell[1] - g[1]), Swift.min(g[2] - cell[2], cell[3] - g[3])),
                                Swift.min(g[4] - cell[4], cell[5] - g[5]))
            if gap > 0 && gap * gap > bound { floor = Swift.min(floor, gap * gap); break }
            let sibling = KDTree.sibling(of: node)
            node = KDTree.parent(of: node)
            var sp = 1
            stack[0] = Int32(sibling)
            while sp > 0 {
                sp -= 1
                let m = Int(stack[sp])
                if nodeComp[m] == c { continue }
                let lb = Swift.max(v.boxBoxDistance2(leaf, m), nodeCore[m])
                if lb > bound { floor = Swift.min(floor, lb); continue }
                if m >= v.firstLeaf {
                    if count == SphereBoruvka.reachCapacity { return (-1, floor) }
                    out[count] = Int32(m); count += 1
                    continue
                }
                let (l, r) = KDTree.children(of: m)
                stack[sp] = Int32(l); stack[sp + 1] = Int32(r); sp += 2
            }
        }
        return (count, floor)
    }

    /// `searchFrom` over the leaves within reach of p's leaf (`leaves`, listed against a bound
    /// at least p's component's, where the search starts) and, when not -1, p's own leaf
    /// `own`: every other point outside `c` lies beyond the bound, at least `beyond` away in
    /// weight (the listing's lower bound).
    private func check(_ p: Int, c: Int32, leaves: UnsafePointer<Int32>, count: Int, own: Int, beyond: Double) {
        var w = bestW[Int(c)], key = bestKey[Int(c)], found: Int32 = -1
        let cp = core2[p]
        var floor = Swift.max(cp, beyond)
        @inline(__always) func scan(_ t: Int) {
            for q in Int(view.start[t])..<Int(view.end[t]) where comp[q] != c {
                let d = Swift.max(Swift.max(cp, core2[q]), view.distance2(p, q))
                floor = Swift.min(floor, d)
                if d > w { continue }
                let k = SphereBoruvka.pairKey(p, q)
                if d < w || k < key { w = d; key = k; found = Int32(q) }
            }
        }
        if own >= 0 { scan(own) }
        for i in 0..<count {
            let t = Int(leaves[i])
            if nodeComp[t] == c { continue }
            let lb = Swift.max(Swift.max(cp, nodeCore[t]), view.boxDistance2(t, p))
            if lb > w { floor = Swift.min(floor, lb); continue }
            scan(t)
        }
        remember(p, found, w, floor: floor)
    }

    /// The best edge from p to another component, if it beats `start` (by default the
    /// component's bound): then remembered; else the search's lower bound becomes p's.
    private func searchFrom(_ p: Int, leaf: Int, c: Int32, _ stack: UnsafeMutablePointer<Int32>,
                            start: (w: Double, key: UInt64)? = nil) {
        var (w, key) = start ?? (bestW[Int(c)], bestKey[Int(c)])
        var found: Int32 = -1
        // A lower bound on every edge from p out of its component: the weights met and the
        // bounds of what was passed over.
        var floor = Double.infinity
        let cp = core2[p]
        @inline(__always) func scan(_ node: Int) {
            for q in Int(view.start[node])..<Int(view.end[node]) where comp[q] != c {
                let d = Swift.max(Swift.max(cp, core2[q]), view.distance2(p, q))
                floor = Swift.min(floor, d)
                if d > w { continue }
                let k = SphereBoruvka.pairKey(p, q)
                if d < w || k < key { w = d; key = k; found = Int32(q) }
            }
        }
        scan(leaf)
        var node = leaf
        while node > 0 {
            let clearance = view.insideClearance2(node, p)
            if clearance > w { floor = Swift.min(floor, Swift.max(cp, clearance)); break }
            let sibling = KDTree.sibling(of: node)
            var sp = 1
            stack[0] = Int32(sibling)
            while sp > 0 {
                sp -= 1
                let m = Int(stack[sp])
                if nodeComp[m] == c { continue }
                let lb = Swift.max(view.boxDistance2(m, p), nodeCore[m])
                if lb > w { floor = Swift.min(floor, Swift.max(cp, lb)); continue }
                if m >= view.firstLeaf { scan(m); continue }
                let (l, r) = KDTree.children(of: m)
                if view.boxDistance2(l, p) <= view.boxDistance2(r, p) {
                    stack[sp] = Int32(r); stack[sp + 1] = Int32(l)
                } else {
                    stack[sp] = Int32(l); stack[sp + 1] = Int32(r)
                }
                sp += 2
            }
            node = KDTree.parent(of: node)
        }
        remember(p, found, w, floor: floor)
    }

    /// Records a search's outcome for p: the edge found, or else the search's lower bound,
    /// at least the bound it started from, which later rounds skip p below.
    @inline(__always) private func remember(_ p: Int, _ found: Int32, _ w: Double, floor: Double) {
        if found >= 0 { memQ[p] = found; memW[p] = w } else { memW[p] = Swift.max(memW[p], w, floor) }
    }

    /// Every component's best edge over its points' remembered edges (pass B added some).
    private func pickBest() {
        for c in 0..<view.count { bestW[c] = .infinity; bestKey[c] = .max }
        for p in 0..<view.count {
            let q = Int(memQ[p])
            if q >= 0 { offer(memW[p], SphereBoruvka.pairKey(p, q), to: Int(comp[p])) }
        }
        // The giant's remembered edges need not hold its lightest: it picks nothing.
        if giant >= 0 { bestW[Int(giant)] = .infinity; bestKey[Int(giant)] = .max }
    }

    /// Joins the components along their picks (in component order); returns how many joins.
    private func join(_ uf: inout UnionFind, _ a: inout [Int32], _ b: inout [Int32]) -> Int {
        var joins = 0
        for c in 0..<view.count where bestKey[c] != .max {
            let p = Int(bestKey[c] >> 32), q = Int(bestKey[c] & 0xFFFF_FFFF)
            if uf.union(p, q) != nil { a.append(Int32(p)); b.append(Int32(q)); joins += 1 }
        }
        for p in 0..<view.count { comp[p] = Int32(uf.find(p)) }
        return joins
    }
}

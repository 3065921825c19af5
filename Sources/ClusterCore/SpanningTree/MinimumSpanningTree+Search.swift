// One Borůvka round's search for every component's lightest outgoing edge: the points'
// memories, their neighbour lists, the leaves within reach of a leaf, and the climbing search.

/// The leaves within reach of one leaf (see `BoruvkaTree.leavesInReach`); `count == 0`: none
/// listed, search point by point.
private struct Reach {
    let leaves: UnsafePointer<Int32>
    let count: Int
    let floor: Double
    static var none: Reach { Reach(leaves: UnsafePointer(bitPattern: 8)!, count: 0, floor: 0) }
}

/// One Borůvka round's nearest-other-component search, over raw pointers.
///
/// Besides the per-component best, each point keeps what earlier rounds learnt about its own
/// best edge to another component: `floor2[p]`, a lower bound on that edge's squared weight,
/// and `cand[p]`, the other end of the edge when it is known exactly (-1 otherwise).
/// Components only grow, so a point's best edge only gets heavier: the bound stays valid, and
/// a known edge stays the best as long as its other end is still outside the component.
///
/// The round's buffers belong to `BoruvkaWorkspace`, which makes one search per round (below)
/// and keeps the buffers alive while it runs.
private struct BoruvkaSearch<Tree: BoruvkaTree>: @unchecked Sendable {
    let core2: UnsafePointer<Double>
    let nodeMinCore2: UnsafePointer<Double>
    let comp: UnsafePointer<Int32>
    let nodeComp: UnsafePointer<Int32>
    let bestW: UnsafeMutablePointer<Double>
    let bestKey: UnsafeMutablePointer<UInt64>
    let floor2: UnsafeMutablePointer<Double>
    let cand: UnsafeMutablePointer<Int32>
    /// Points whose listed neighbours all lie inside their component.
    let spent: UnsafeMutablePointer<Bool>
    let stacks: UnsafeMutablePointer<Int32>
    /// The squared box distances of the nodes on `stacks`, slot for slot.
    let boxStacks: UnsafeMutablePointer<Double>
    let stackSize: Int
    /// Per worker, the leaves within reach of the leaf being worked on
    /// (`BoruvkaWorkspace<Tree>.reachStride` slots).
    let reachLists: UnsafeMutablePointer<Int32>
    /// Slots per worker in `bestW`/`bestKey`: the number of components.
    let componentCount: Int
    /// Each position's `listLength` nearest positions, or nil without lists.
    let lists: UnsafePointer<Int32>?
    let listLength: Int
    /// How many entries of each neighbour list lie within the point's core distance.
    let coreNeighbourCount: Int

    /// A search over `workspace`'s buffers and this round's best-edge slots (`componentCount`
    /// per worker).
    init(_ workspace: BoruvkaWorkspace<Tree>, componentCount: Int,
         bestW: UnsafeMutablePointer<Double>, bestKey: UnsafeMutablePointer<UInt64>) {
        let w = workspace
        core2 = w.core2; nodeMinCore2 = UnsafePointer(w.nodeMinCore2)
        comp = UnsafePointer(w.comp); nodeComp = UnsafePointer(w.nodeComp)
        self.bestW = bestW; self.bestKey = bestKey
        floor2 = w.floor2; cand = w.cand; spent = w.spent
        stacks = w.stacks; boxStacks = w.boxStacks; stackSize = w.stackSize; reachLists = w.reachLists
        self.componentCount = componentCount
        lists = w.lists; listLength = w.listLength; coreNeighbourCount = w.coreNeighbourCount
    }

    @inline(__always) static func pairKey(_ p: Int, _ q: Int) -> UInt64 {
        p < q ? (UInt64(p) << 32 | UInt64(q)) : (UInt64(q) << 32 | UInt64(p))
    }

    /// Best edge from p among its listed nearest neighbours outside component `c`, and the
    /// squared distance of the farthest listed neighbour (every unlisted point is at least
    /// that far, so a listed edge lighter than it is p's exact best).
    @inline(__always)
    private func listBest(_ v: Tree, p: Int, c: Int32, cp: Double,
                          neighbours: UnsafePointer<Int32>, listLength: Int) -> (w: Double, q: Int, far2: Double) {
        let at = v.point(p)
        var bw = Double.infinity, bq = -1, bkey = UInt64.max
        var far2 = 0.0
        for j in 0..<listLength {
            let q = Int(neighbours[p * listLength + j])
            // The first `coreNeighbourCount` entries are no farther than the core distance, which then
            // dominates their weight: max(cp, core2[q], d2) is max(cp, core2[q]) bit for bit,
            // and so is it with d2 = 0. Only the entries past it need their distance (and the
            // last, the farthest, gives far2).
            var d2 = 0.0
            if j >= coreNeighbourCount {
                d2 = v.distance2(q, at)
                if d2 > far2 { far2 = d2 }
            }
            if comp[q] == c { continue }
            let w = max(cp, core2[q], d2)
            if w <= bw {
                let key = BoruvkaSearch.pairKey(p, q)
                if w < bw || key < bkey { bw = w; bq = q; bkey = key }
            }
        }
        return (bw, bq, far2)
    }

    /// Offers edge (p, q) of squared weight w to component c's best.
    @inline(__always)
    private func offer(_ w: Double, _ p: Int, _ q: Int, _ c: Int,
                       _ bw: UnsafeMutablePointer<Double>, _ bk: UnsafeMutablePointer<UInt64>) {
        if w <= bw[c] {
            let key = BoruvkaSearch.pairKey(p, q)
            if w < bw[c] || key < bk[c] { bw[c] = w; bk[c] = key }
        }
    }

    /// Works out point p's contribution to its component's best edge this round.
    ///
    /// The lists come in as arguments rather than from `self`: the compiler weighs inlining
    /// this function into `run` by cost and benefit, despite the attribute, and the arguments
    /// tip it; read from `self`, the call stayed and the MST was slower.
    @inline(__always)
    private func visit(_ v: Tree, p: Int, leaf: Int, reach: Reach, lists: UnsafePointer<Int32>?, listLength: Int,
                       bw: UnsafeMutablePointer<Double>, bk: UnsafeMutablePointer<UInt64>,
                       stack: UnsafeMutablePointer<Int32>) {
        let c = Int(comp[p])
        let c32 = Int32(c)
        if floor2[p] > bw[c] { return }          // p cannot beat the component's best
        let known = Int(cand[p])
        if known >= 0 && comp[known] != c32 {    // p's exact best from an earlier round
            offer(floor2[p], p, known, c, bw, bk)
            return
        }
        let cp = core2[p]
        var startW = bw[c], startKey = bk[c]
        if let nb = lists, !spent[p] {
            let (lw, lq, far2) = listBest(v, p: p, c: c32, cp: cp, neighbours: nb, listLength: listLength)
            if lq < 0 { spent[p] = true }
            if lq >= 0 && lw < far2 {            // exact: nothing unlisted can be as light
                cand[p] = Int32(lq); floor2[p] = lw
                offer(lw, p, lq, c, bw, bk)
                return
            }
            if far2 > bw[c] {                    // unlisted points cannot beat the component
                cand[p] = -1; floor2[p] = max(floor2[p], min(far2, lw))
                if lq >= 0 { offer(lw, p, lq, c, bw, bk) }
                return
            }
            if lq >= 0 {
                let key = BoruvkaSearch.pairKey(p, lq)
                if lw < startW || (lw == startW && key < startKey) { startW = lw; startKey = key }
            }
        }
        let (w, key, floor) = reach.count > 0
            ? check(v, p: p, reach: reach, c32: c32, cp: cp, startW: startW, startKey: startKey)
            : search(v, p: p, leaf: leaf, c: c, cp: cp, startW: startW, startKey: startKey, stack: stack)
        if key != .max && (key != startKey || startKey != bk[c]) {
            // Either the search found an edge lighter than where it started, or it started from
            // p's own listed edge and found nothing lighter: in both cases this is p's exact best.
            let q = Int(key >> 32) == p ? Int(key & 0xFFFF_FFFF) : Int(key >> 32)
            cand[p] = Int32(q); floor2[p] = w
            offer(w, p, q, c, bw, bk)
            return
        }
        // Nothing lighter than the component's best: p's own best is at least that heavy, and
        // at least the search's floor (which is never below the component's best here).
        cand[p] = -1
        floor2[p] = max(floor2[p], bw[c], floor)
    }

    /// Pass A of a later round: offers each point's still-valid best edge, or its best listed
    /// edge into another component (recording it as exact when provably so), as upper bounds.
    func seed(_ v: Tree, points: Range<Int>, worker: Int) {
        let bw = bestW + worker * componentCount, bk = bestKey + worker * componentCount
        for p in points {
            let c = Int(comp[p])
            let c32 = Int32(c)
            if floor2[p] > bw[c] { continue }
            let known = Int(cand[p])
            if known >= 0 {
                if comp[known] != c32 { offer(floor2[p], p, known, c, bw, bk); continue }
                cand[p] = -1
            }
            guard let nb = lists, !spent[p] else { continue }
            let (lw, lq, far2) = listBest(v, p: p, c: c32, cp: core2[p], neighbours: nb, listLength: listLength)
            if lq < 0 {
                // Every point outside the component is unlisted, so at least far2 away.
                spent[p] = true; floor2[p] = max(floor2[p], far2)
                continue
            }
            if lw < far2 { cand[p] = Int32(lq); floor2[p] = lw }
            offer(lw, p, lq, c, bw, bk)
        }
    }

    /// Round one with every point its own component: each point's exact best edge is found
    /// (from its neighbour list when provably best, else by a search) and recorded in
    /// `cand`/`floor2`, which is also the component's pick. Needs the neighbour lists.
    func firstRound(_ v: Tree, points: Range<Int>, worker: Int) {
        let neighbours = lists!
        let stack = stacks + worker * stackSize
        for p in points {
            let cp = core2[p]
            let (lw, lq, far2) = listBest(v, p: p, c: Int32(p), cp: cp, neighbours: neighbours, listLength: listLength)
            if lq >= 0 && lw < far2 {
                cand[p] = Int32(lq); floor2[p] = lw
                continue
            }
            let startKey = lq >= 0 ? BoruvkaSearch.pairKey(p, lq) : UInt64.max
            let (w, key, _) = search(v, p: p, leaf: v.leaf(containing: p), c: p, cp: cp,
                                  startW: lw, startKey: startKey, stack: stack)
            if key == .max { cand[p] = -1; continue }  // a single point: no other component
            cand[p] = Int32(Int(key >> 32) == p ? Int(key & 0xFFFF_FFFF) : Int(key >> 32))
            floor2[p] = w
        }
    }

    /// A later round over one group node: skipped whole when it lies inside one component and
    /// nothing outside can beat that component's best; otherwise leaf by leaf, point by point.
    func run(_ v: Tree, group: Int, worker: Int) {
        let bw = bestW + worker * componentCount, bk = bestKey + worker * componentCount
        let stack = stacks + worker * stackSize
        let list = reachLists + worker * BoruvkaWorkspace<Tree>.reachStride
        let gc = Int(nodeComp[group])
        if gc >= 0 {
            if nodeMinCore2[group] > bw[gc] { return }
            if bw[gc] < .infinity && !hasCandidate(v, group: group, c: gc, bound: bw[gc], stack: stack) { return }
        }
        for leaf in v.leaves(under: group) {
            let lc = Int(nodeComp[leaf])
            // A leaf wholly inside one component whose every core distance already exceeds
            // that component's best edge cannot improve it.
            if lc >= 0 && nodeMinCore2[leaf] > bw[lc] { continue }
            // A leaf inside one component with no node outside it within reach is skipped
            // with one box-to-box walk instead of a search per point.
            var reach = Reach.none
            if lc >= 0 && bw[lc] < .infinity {
                // The same walk lists the leaves within reach; the leaf's points are then
                // checked against those leaves alone instead of each searching the tree.
                let found = v.leavesInReach(of: leaf, component: Int32(lc), bound: bw[lc], nodeComp: nodeComp,
                                            nodeMinCore2: nodeMinCore2, stack: stack, into: list,
                                            capacity: BoruvkaWorkspace<Tree>.reachCapacity)
                if found.count == 0 { continue }
                if found.count > 0 { reach = Reach(leaves: list, count: found.count, floor: found.floor) }
                if found.count < 0 {
                    visitLeaf(v, leaf: leaf, c: lc, lists: lists, listLength: listLength, bw: bw, bk: bk, stack: stack)
                    continue
                }
            }
            for p in Int(v.start[leaf])..<Int(v.end[leaf]) {
                visit(v, p: p, leaf: leaf, reach: reach, lists: lists, listLength: listLength, bw: bw, bk: bk, stack: stack)
            }
        }
    }

    /// A later round over a leaf wholly inside component c with too many leaves in reach to
    /// list: the points that earlier rounds or their neighbour lists settle are settled as in
    /// `visit`, and the rest share one search from the leaf (`leafSearch`) instead of one
    /// search each. The point the shared search finds the lightest edge from knows its exact
    /// best; every other one learns that its best is at least as heavy.
    private func visitLeaf(_ v: Tree, leaf: Int, c: Int, lists: UnsafePointer<Int32>?, listLength: Int,
                           bw: UnsafeMutablePointer<Double>, bk: UnsafeMutablePointer<UInt64>,
                           stack: UnsafeMutablePointer<Int32>) {
        let s = Int(v.start[leaf]), m = Int(v.end[leaf]) - s
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: m) { open in
            let open = open.baseAddress!
            var count = 0
            for p in s..<s + m where !settle(v, p: p, c: c, lists: lists, listLength: listLength, bw: bw, bk: bk) {
                open[count] = Int32(p); count += 1
            }
            if count == 0 { return }
            if count == 1 {
                visit(v, p: Int(open[0]), leaf: leaf, reach: .none, lists: lists, listLength: listLength,
                      bw: bw, bk: bk, stack: stack)
                return
            }
            let (w, key, floor) = leafSearch(v, leaf: leaf, points: open, count: count, c32: Int32(c),
                                             startW: bw[c], startKey: bk[c], stack: stack)
            var from = -1
            if key != bk[c] || w != bw[c] {
                let a = Int(key >> 32), b = Int(key & 0xFFFF_FFFF)
                from = comp[a] == Int32(c) ? a : b
                cand[from] = Int32(from == a ? b : a); floor2[from] = w
                offer(w, a, b, c, bw, bk)
            }
            for i in 0..<count where Int(open[i]) != from {
                let p = Int(open[i])
                cand[p] = -1
                floor2[p] = max(floor2[p], floor)
            }
        }
    }

    /// `visit` up to its search: whether point p (in component c) is settled without one — it
    /// cannot beat the component's best, its remembered best edge still holds, or its
    /// neighbour list proves its best or bounds it above the component's best. An edge the
    /// list gives that is not proved best is still offered: every edge bounds the component's.
    @inline(__always)
    private func settle(_ v: Tree, p: Int, c: Int, lists: UnsafePointer<Int32>?, listLength: Int,
                        bw: UnsafeMutablePointer<Double>, bk: UnsafeMutablePointer<UInt64>) -> Bool {
        let c32 = Int32(c)
        if floor2[p] > bw[c] { return true }
        let known = Int(cand[p])
        if known >= 0 && comp[known] != c32 { offer(floor2[p], p, known, c, bw, bk); return true }
        guard let nb = lists, !spent[p] else { return false }
        let (lw, lq, far2) = listBest(v, p: p, c: c32, cp: core2[p], neighbours: nb, listLength: listLength)
        if lq < 0 { spent[p] = true; return false }
        if lw < far2 { cand[p] = Int32(lq); floor2[p] = lw; offer(lw, p, lq, c, bw, bk); return true }
        offer(lw, p, lq, c, bw, bk)
        if far2 > bw[c] { cand[p] = -1; floor2[p] = max(floor2[p], min(far2, lw)); return true }
        return false
    }

    /// The lightest edge, under the total order, from any of `points` (tree positions in
    /// `leaf`, which lies inside component c32) to another component that is lighter than
    /// (startW, startKey), found by one climb from the leaf as `search` climbs from a point,
    /// with the leaf's box standing for its points: a node is pruned when
    /// `max(least core of the points, least core in the node, box-to-box distance²)` exceeds
    /// the best so far. Returns the start values when nothing lighter exists, and `floor`: a
    /// lower bound on every edge from the points to another component, never below the
    /// returned weight.
    private func leafSearch(_ v: Tree, leaf: Int, points: UnsafePointer<Int32>, count: Int, c32: Int32,
                            startW: Double, startKey: UInt64,
                            stack: UnsafeMutablePointer<Int32>) -> (w: Double, key: UInt64, floor: Double) {
        let boxes = boxStacks + (stack - stacks)
        var bestW = startW, bestKey = startKey, floor = Double.infinity
        var least = Double.infinity
        for i in 0..<count { least = min(least, core2[Int(points[i])]) }
        let leafStart = UInt64(v.start[leaf])
        @inline(__always) func prune(_ node: Int, _ box: Double) -> Bool {
            let lb = max(least, nodeMinCore2[node], box)
            if lb > bestW { floor = min(floor, lb); return true }
            // An equal-weight edge wins only with a smaller pair key, whose smaller end is at
            // least the smaller of the two first positions.
            if lb == bestW && min(leafStart, UInt64(v.start[node])) << 32 >= bestKey { floor = min(floor, lb); return true }
            return false
        }
        var node = leaf
        while node > 0 {
            let gap = v.gap(of: leaf, inside: node)
            if gap > 0 && gap * gap > bestW { floor = min(floor, max(least, gap * gap)); break }
            let sibling = v.sibling(of: node)
            node = v.parent(of: node)
            if nodeComp[sibling] == c32 { continue }
            var sp = 1
            stack[0] = Int32(sibling); boxes[0] = v.boxBoxDistance2(leaf, sibling)
            while sp > 0 {
                sp -= 1
                let t = Int(stack[sp])
                if prune(t, boxes[sp]) { continue }
                if t >= v.firstLeaf {
                    scanPairs(v, points: points, count: count, leaf: t, c32: c32, bestW: &bestW, bestKey: &bestKey, floor: &floor)
                    continue
                }
                let (l, r) = v.children(of: t)
                let lOut = nodeComp[l] != c32, rOut = nodeComp[r] != c32
                let bl = lOut ? v.boxBoxDistance2(leaf, l) : .infinity, br = rOut ? v.boxBoxDistance2(leaf, r) : .infinity
                // The nearer child on top of the stack, so that it is searched first.
                if bl <= br {
                    if rOut { stack[sp] = Int32(r); boxes[sp] = br; sp += 1 }
                    if lOut { stack[sp] = Int32(l); boxes[sp] = bl; sp += 1 }
                } else {
                    if lOut { stack[sp] = Int32(l); boxes[sp] = bl; sp += 1 }
                    if rOut { stack[sp] = Int32(r); boxes[sp] = br; sp += 1 }
                }
            }
        }
        return (bestW, bestKey, max(floor, bestW))
    }

    /// Every pair of one of `points` and a point of `leaf` outside component c32, as
    /// `scanPoints` offers them to one point.
    @inline(__always)
    private func scanPairs(_ v: Tree, points: UnsafePointer<Int32>, count: Int, leaf: Int, c32: Int32,
                           bestW: inout Double, bestKey: inout UInt64, floor: inout Double) {
        for i in 0..<count {
            let p = Int(points[i]), cp = core2[p]
            if cp > bestW { floor = min(floor, cp); continue }
            scanPoints(v, leaf, p: p, at: v.point(p), c32: c32, cp: cp, bestW: &bestW, bestKey: &bestKey, floor: &floor)
        }
    }

    /// Whether any node outside component `c` could hold an edge from `group` of weight at most
    /// `bound` (see `BoruvkaTree.hasCandidate`).
    private func hasCandidate(_ v: Tree, group g: Int, c: Int, bound: Double,
                              stack: UnsafeMutablePointer<Int32>) -> Bool {
        v.hasCandidate(group: g, component: Int32(c), bound: bound, nodeComp: nodeComp,
                       nodeMinCore2: nodeMinCore2, stack: stack)
    }

    /// `search` for a point whose leaf lies inside its component, over the leaves within reach
    /// of that leaf (`reach`, listed with a bound at least `startW`): the same best edge and a
    /// valid, if looser, floor — every point outside the listed leaves is at least
    /// `reach.floor` away in weight, and a listed leaf out of reach of p adds its own bound.
    @inline(__always)
    private func check(_ v: Tree, p: Int, reach: Reach, c32: Int32, cp: Double,
                       startW: Double, startKey: UInt64) -> (w: Double, key: UInt64, floor: Double) {
        let at = v.point(p)
        var bestW = startW, bestKey = startKey
        var floor = max(cp, reach.floor)
        for i in 0..<reach.count {
            let t = Int(reach.leaves[i])
            let lb = max(cp, nodeMinCore2[t], v.boxDistance2(t, at))
            if lb > bestW { floor = min(floor, lb); continue }
            scanPoints(v, t, p: p, at: at, c32: c32, cp: cp, bestW: &bestW, bestKey: &bestKey, floor: &floor)
        }
        return (bestW, bestKey, floor)
    }

    /// Offers p (at `at`, core distance² cp) every point of `node` outside its component
    /// c32: the lightest weight lowers `floor`, and a lighter edge than the best, or one as
    /// light with a smaller pair key, becomes the best.
    @inline(__always)
    private func scanPoints(_ v: Tree, _ node: Int, p: Int, at: Tree.Point, c32: Int32, cp: Double,
                            bestW: inout Double, bestKey: inout UInt64, floor: inout Double) {
        for q in Int(v.start[node])..<Int(v.end[node]) where comp[q] != c32 {
            let cq = core2[q]
            if cq > bestW { floor = min(floor, max(cp, cq)); continue }
            let w = max(cp, cq, v.distance2(q, at))
            floor = min(floor, w)
            if w <= bestW {
                let key = BoruvkaSearch.pairKey(p, q)
                if w < bestW || key < bestKey { bestW = w; bestKey = key }
            }
        }
    }

    /// Finds p's best edge to another component lighter than (startW, startKey), starting at
    /// p's leaf (`leaf`, which the callers already know) and climbing: at each level the sibling
    /// subtree is searched top-down (skipping nodes inside p's component and nodes whose lower
    /// bound cannot win), and the climb stops once every point outside the current node is
    /// strictly farther than the best so far. Returns the start values when nothing lighter exists,
    /// and `floor`: a lower bound on every edge from p to another component (the lightest weight
    /// seen, node bound pruned, or distance beyond where the climb stopped). When nothing lighter
    /// exists, that bound is what p remembers: it is often well above the component's best, and
    /// later rounds skip p until their bound reaches it.
    @inline(__always)
    private func search(
        _ v: Tree, p: Int, leaf: Int, c: Int, cp: Double, startW: Double, startKey: UInt64,
        stack: UnsafeMutablePointer<Int32>
    ) -> (w: Double, key: UInt64, floor: Double) {
        let boxes = boxStacks + (stack - stacks)
        let at = v.point(p)
        var bestW = startW, bestKey = startKey
        var floor = Double.infinity
        let c32 = Int32(c)

        @inline(__always) func scan(_ node: Int) {
            scanPoints(v, node, p: p, at: at, c32: c32, cp: cp, bestW: &bestW, bestKey: &bestKey, floor: &floor)
        }
        // `box` is the node's squared box distance, computed once by whoever queued the node;
        // nodes inside p's component are never queued.
        @inline(__always) func prune(_ node: Int, _ box: Double) -> Bool {
            let lb = max(cp, nodeMinCore2[node], box)
            if lb > bestW { floor = min(floor, lb); return true }
            if lb == bestW {
                // Only an equal-weight edge with a smaller pair key could still win.
                let lo = Int(v.start[node])
                let keyBound = p < lo ? (UInt64(p) << 32 | UInt64(lo)) : (UInt64(lo) << 32)
                if keyBound >= bestKey { floor = min(floor, lb); return true }
            }
            return false
        }

        var node = leaf
        if nodeComp[node] != c32 { scan(node) }
        while node > 0 {
            // Every point outside the node is at least its clearance away.
            let clearance = v.insideClearance2(node, at)
            if clearance > bestW { floor = min(floor, max(cp, clearance)); break }
            let sibling = v.sibling(of: node)
            node = v.parent(of: node)
            if nodeComp[sibling] == c32 { continue }
            var sp = 1
            stack[0] = Int32(sibling); boxes[0] = v.boxDistance2(sibling, at)
            while sp > 0 {
                sp -= 1
                var t = Int(stack[sp]), box = boxes[sp]
                while true {
                    if prune(t, box) { break }
                    if t >= v.firstLeaf { scan(t); break }
                    // Visit the nearer child next, keep the farther one on the stack; a child
                    // inside p's component is dropped without measuring it.
                    let (l, r) = v.children(of: t)
                    let lOut = nodeComp[l] != c32, rOut = nodeComp[r] != c32
                    if lOut && rOut {
                        let bl = v.boxDistance2(l, at), br = v.boxDistance2(r, at)
                        if bl <= br {
                            stack[sp] = Int32(r); boxes[sp] = br; sp += 1; t = l; box = bl
                        } else {
                            stack[sp] = Int32(l); boxes[sp] = bl; sp += 1; t = r; box = br
                        }
                    } else if lOut {
                        t = l; box = v.boxDistance2(l, at)
                    } else if rOut {
                        t = r; box = v.boxDistance2(r, at)
                    } else {
                        break
                    }
                }
            }
        }
        return (bestW, bestKey, floor)
    }
}

extension BoruvkaWorkspace {
    /// One round's searches into the workers' best-edge slots (`componentCount` each; see
    /// `BoruvkaSearch`).
    func search(componentCount: Int, bestW: UnsafeMutablePointer<Double>, bestKey: UnsafeMutablePointer<UInt64>,
                firstFromLists: Bool) {
        let search = BoruvkaSearch(self, componentCount: componentCount, bestW: bestW, bestKey: bestKey)
        let v = self.v, workers = self.workers, groups = self.groups
        if firstFromLists {
            Parallel.forEachChunk(count: n, grain: 4096, threads: workers) { chunk, w in
                search.firstRound(v, points: chunk, worker: w)
            }
            return
        }
        // Pass A: cheap upper bounds for every component from what the points already know (a
        // still-valid best edge, or a listed neighbour in another component), so that pass B's
        // searches start tight.
        Parallel.forEachChunk(count: n, grain: 8192, threads: workers) { chunk, w in
            search.seed(v, points: chunk, worker: w)
        }
        if workers > 1 {
            // Every worker's slots start pass B from the best of all of them.
            for c in 0..<componentCount {
                var w2 = bestW[c], key = bestKey[c]
                for w in 1..<workers {
                    let cw = bestW[w * componentCount + c], ck = bestKey[w * componentCount + c]
                    if cw < w2 || (cw == w2 && ck < key) { w2 = cw; key = ck }
                }
                for w in 0..<workers { bestW[w * componentCount + c] = w2; bestKey[w * componentCount + c] = key }
            }
        }
        // Pass B: searches where nothing cheaper settles the point.
        Parallel.forEachChunk(count: groups.count, grain: 16, threads: workers) { chunk, w in
            for g in chunk {
                search.run(v, group: Int(groups[g]), worker: w)
            }
        }
    }
}

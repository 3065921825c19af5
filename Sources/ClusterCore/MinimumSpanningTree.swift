/// The minimum spanning tree of the mutual-reachability graph, as parallel edge arrays.
///
/// `mutualReachability(a, b) = max(coreDistance(a), coreDistance(b), distance(a, b))`.
/// Edges are sorted by weight ascending (equal weights in a fixed order) with `a < b` in every
/// edge, so the edge list is a pure function of the input rows and the core distances: the
/// same for any thread count. Reordering the rows can swap edges of equal weight, never the
/// sorted weights (every MST of a graph has the same ones).
public struct MinimumSpanningTree: Sendable, Equatable {
    /// Smaller endpoint (input row) of each edge.
    public var a: [Int32]
    /// Larger endpoint (input row) of each edge.
    public var b: [Int32]
    /// Mutual-reachability weight of each edge, in metres, ascending.
    public var weight: [Double]

    /// Number of edges (`n - 1` for `n >= 1` points).
    public var count: Int { weight.count }

    /// Total weight, a cheap fingerprint for comparing runs and implementations.
    public var totalWeight: Double { weight.reduce(0, +) }

    public init(a: [Int32], b: [Int32], weight: [Double]) {
        self.a = a
        self.b = b
        self.weight = weight
    }
}

/// For tests: called after each Borůvka round's searches, before its picks are joined, with
/// every position's component and what the point then knows of its own best edge to another
/// component (`floor2`, a lower bound on its squared weight; `cand`, its other end when known
/// exactly, else -1).
typealias RoundInspector = (_ comp: [Int32], _ floor2: [Double], _ cand: [Int32]) -> Void

extension MinimumSpanningTree {
    /// Computes the exact mutual-reachability MST with Borůvka's algorithm on the k-d tree.
    ///
    /// Each round finds, for every component, its lightest outgoing edge under the total order
    /// (weight, smaller tree position, larger tree position) — with distinct keys the MST is
    /// unique and every pick belongs to it — then joins the components along their picks (a
    /// forest whose roots are mutual picks; see `joinPicks`). The number of components at
    /// least halves each round.
    ///
    /// Most of the work is avoided rather than done fast:
    /// - the first round takes each point's best edge from its k+1 nearest neighbours (found
    ///   with the core distances) when that is provably its best, searching only otherwise;
    /// - each point remembers its own best edge (valid while the other end stays outside its
    ///   component) or a lower bound on it — raised by every search that finds nothing, to the
    ///   lightest weight or node bound that search saw — so later rounds skip points that
    ///   cannot win; a point whose listed neighbours have all joined its component stops
    ///   reading its list;
    /// - a later round first bounds every component from those memories (pass A), then
    ///   searches only where the bound can still be beaten (pass B); leaves and 64-point
    ///   groups inside one component with nothing outside in reach are skipped whole;
    /// - a search starts at the point's leaf and climbs, skipping nodes inside the component
    ///   and nodes whose lower bound `max(core(p), min core in node, box distance)` cannot
    ///   beat the best so far.
    ///
    /// - Parameters:
    ///   - tree: the k-d tree of the points.
    ///   - coreDistances: core distance of each point, indexed by tree position.
    ///   - threads: worker threads; the result is identical for any value.
    /// - Complexity: O(n log n) per round on 2-D data in practice, O(log n) rounds.
    public static func boruvka(tree: KDTree, coreDistances: [Double], threads: Int = 1) -> MinimumSpanningTree {
        boruvka(tree: tree, squaredCoreDistances: coreDistances.map { $0 * $0 },
                neighbours: [], neighbourCount: 0, coreNeighbourCount: 0, threads: threads).mst
    }

    /// Borůvka as above, from squared core distances; `neighbours` (when not empty) holds each
    /// position's `neighbourCount` nearest positions (itself included), nearest first, with
    /// `neighbourCount` at least one more than `coreNeighbourCount`, the core distances' own
    /// count: `core2[p]` is the squared distance of p's entry `coreNeighbourCount - 1`, so the
    /// entries before it are within it (their weights need no distance). The first
    /// round then takes each point's best edge from that list whenever it is provably the best
    /// under the total order (its weight is below the squared distance of the farthest listed
    /// neighbour), and searches the tree only for the rest.
    ///
    /// Besides the tree, returns the tree positions of every edge's ends (`positionA[i]` is
    /// the position of `a[i]`): the single-linkage stage works on positions, whose memory
    /// order follows space (see `SingleLinkageTree.init(mst:positionA:positionB:rowOf:threads:)`).
    static func boruvka(
        tree: KDTree, squaredCoreDistances core2: [Double], neighbours: consuming [Int32],
        neighbourCount kk: Int, coreNeighbourCount: Int, threads: Int, inspect: RoundInspector? = nil
    ) -> (mst: MinimumSpanningTree, positionA: [Int32], positionB: [Int32]) {
        precondition(neighbours.isEmpty || (coreNeighbourCount >= 1 && coreNeighbourCount < kk),
                     "the lists go at least one neighbour past the core distance")
        let n = tree.count
        precondition(core2.count == n, "one core distance per point")
        if n <= 1 { return (MinimumSpanningTree(a: [], b: [], weight: []), [], []) }
        let lists = neighbours
        let (ea, eb) = rounds(tree: tree, core2: core2, neighbours: lists, kk: kk, inCore: coreNeighbourCount,
                              threads: threads, inspect: inspect)
        // The lists are the largest input; free them before the sort below allocates.
        _ = consume lists
        _ = consume neighbours

        // Sort by weight and map to input rows (a < b). The edges arrive in a fixed order
        // (round by round, component by component), and the sort is stable, so the list is
        // the same for any thread count. Both passes over the edges run on all workers: with
        // one thread this phase took a fifth of the MST stage at 1M points.
        let m = ea.count
        let weights = tree.withNodeArrays { v in
            [Double].filled(count: m, threads: threads) { i in
                // The very expression the search compared, so bit for bit the same.
                let p = Int(ea[i]), q = Int(eb[i])
                let dx = v.x[q] - v.x[p], dy = v.y[q] - v.y[p]
                return max(core2[p], core2[q], dx * dx + dy * dy).squareRoot()
            }
        }
        let order = RadixSort.stableOrder(of: weights, threads: threads)
        // Each array is written whole by the parallel loop below (m >= 1 here).
        var b: [Int32] = [], pa: [Int32] = [], pb: [Int32] = [], sorted: [Double] = []
        let index = tree.index
        let a = [Int32].initialized(count: m) { ab in
        b = .initialized(count: m) { bb in
        pa = .initialized(count: m) { pab in
        pb = .initialized(count: m) { pbb in
        sorted = .initialized(count: m) { sb in
            let sa = SharedBuffer(base: ab), sbb = SharedBuffer(base: bb)
            let spa = SharedBuffer(base: pab), spb = SharedBuffer(base: pbb)
            let ss = SharedBuffer(base: sb)
            Parallel.forEachChunk(count: m, grain: 1 << 15, threads: threads) { chunk, _ in
                for i in chunk {
                    let o = Int(order[i])
                    let p = ea[o], q = eb[o]
                    let x = index[Int(p)], y = index[Int(q)]
                    if x < y {
                        sa[i] = x; sbb[i] = y; spa[i] = p; spb[i] = q
                    } else {
                        sa[i] = y; sbb[i] = x; spa[i] = q; spb[i] = p
                    }
                    ss[i] = weights[o]
                }
            }
        }}}}}
        return (MinimumSpanningTree(a: a, b: b, weight: sorted), pa, pb)
    }

    /// The Borůvka rounds; returns the edges as pairs of tree positions. All round
    /// state lives (and dies) here, before the caller's final sort needs memory.
    private static func rounds(
        tree: KDTree, core2: [Double], neighbours: [Int32], kk: Int, inCore: Int, threads: Int,
        inspect: RoundInspector?
    ) -> (a: [Int32], b: [Int32]) {
        let n = tree.count
        let workers = max(1, threads)
        let nodeCount = tree.nodeCount
        let firstLeaf = tree.firstLeaf

        // Minimum squared core distance per node, bottom-up (inf for empty leaves); the leaves
        // on all workers.
        var nodeMinCore2 = [Double](repeating: .infinity, count: nodeCount)
        nodeMinCore2.withUnsafeMutableBufferPointer { out in
            let shared = SharedBuffer(base: out.baseAddress!)
            Parallel.forEachChunk(count: nodeCount - firstLeaf, grain: 4096, threads: workers) { chunk, _ in
                for leaf in (firstLeaf + chunk.lowerBound)..<(firstLeaf + chunk.upperBound) {
                    var m = Double.infinity
                    for p in tree.range(ofNode: leaf) where core2[p] < m { m = core2[p] }
                    shared[leaf] = m
                }
            }
        }
        if firstLeaf > 0 {
            for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
                nodeMinCore2[node] = min(nodeMinCore2[2 * node + 1], nodeMinCore2[2 * node + 2])
            }
        }

        // Components carry compact ids 0..<k, renumbered after every round, so the per-worker
        // best-edge arrays need only k slots each (k is about n/10 after the first round).
        var k = n
        var comp = [Int32].filled(count: n, threads: workers) { Int32($0) }  // compact component id of each position
        var nodeComp = [Int32](repeating: -1, count: nodeCount)  // -1: mixed or empty
        // What each point knows of its own best edge (see BoruvkaSearch).
        var floor2 = [Double].filled(count: n, threads: workers) { core2[$0] }
        var cand = [Int32].filled(count: n, threads: workers) { _ in -1 }
        // Whether all of a point's listed neighbours are inside its component: components only
        // grow, so the list can never give it an edge again and later rounds skip reading it.
        // (At 1M points, re-reading such lists cost pass A about 7 ms in every late round.)
        var spent = [Bool].filled(count: neighbours.isEmpty ? 1 : n, threads: workers) { _ in false }

        // Edge ends only: the weights are recomputed by the caller from the same formula.
        var ea = [Int32](), eb = [Int32]()
        // (With neighbour lists the first round allocates them whole; see below.)
        if neighbours.isEmpty { ea.reserveCapacity(n - 1); eb.reserveCapacity(n - 1) }

        // Groups of about 64 points (three levels above the leaves): a group wholly inside one
        // component is skipped when no node outside the component can beat its best edge.
        let groupLevelFirst = max(0, (firstLeaf + 1) / 8 - 1)
        let groupCount = groupLevelFirst == 0 ? 1 : groupLevelFirst + 1
        var round = 0
        // Per-worker stacks, padded apart so the workers never share a cache line.
        let stackSize = (2 * (KDTree.depth(ofNodeCount: nodeCount) + 2) + 31) / 32 * 32 + 32
        let stacks = UnsafeMutablePointer<Int32>.allocate(capacity: workers * stackSize)
        let boxStacks = UnsafeMutablePointer<Double>.allocate(capacity: workers * stackSize)
        // Per-worker lists of the leaves within reach of one leaf (see BoruvkaSearch.run).
        let reachLists = UnsafeMutablePointer<Int32>.allocate(capacity: workers * BoruvkaSearch.reachStride)
        defer { stacks.deallocate(); boxStacks.deallocate(); reachLists.deallocate() }

        while ea.count < n - 1 {
            Self.labelNodes(tree: tree, comp: comp, nodeComp: &nodeComp, threads: workers)
            // In the neighbour-list first round every point is its own component and its pick is
            // its own exact best edge, which the round records in `cand`/`floor2` anyway: no
            // per-component arrays are needed (they would be the round's largest).
            let firstFromLists = round == 0 && !neighbours.isEmpty
            let sets = firstFromLists ? 0 : workers
            var bestW = [Double](repeating: .infinity, count: max(sets * k, 1))
            var bestKey = [UInt64](repeating: .max, count: max(sets * k, 1))

            core2.withUnsafeBufferPointer { core2 in
            nodeMinCore2.withUnsafeBufferPointer { nodeMin in
            comp.withUnsafeBufferPointer { comp in
            nodeComp.withUnsafeBufferPointer { nodeComp in
            bestW.withUnsafeMutableBufferPointer { bestW in
            bestKey.withUnsafeMutableBufferPointer { bestKey in
            floor2.withUnsafeMutableBufferPointer { floor2 in
            cand.withUnsafeMutableBufferPointer { cand in
            spent.withUnsafeMutableBufferPointer { spent in
                let search = BoruvkaSearch(
                    core2: core2.baseAddress!, nodeMinCore2: nodeMin.baseAddress!,
                    comp: comp.baseAddress!, nodeComp: nodeComp.baseAddress!,
                    bestW: bestW.baseAddress!, bestKey: bestKey.baseAddress!,
                    floor2: floor2.baseAddress!, cand: cand.baseAddress!, spent: spent.baseAddress!,
                    stacks: stacks, boxStacks: boxStacks, stackSize: stackSize,
                    reachLists: reachLists, stride: k, inCore: inCore)
                tree.withNodeArrays { v in
                    if firstFromLists {
                        neighbours.withUnsafeBufferPointer { nb in
                            let nbp = nb.baseAddress!
                            Parallel.forEachChunk(count: n, grain: 4096, threads: workers) { chunk, w in
                                search.firstRound(v, points: chunk, neighbours: nbp, kk: kk, worker: w)
                            }
                        }
                    } else {
                        neighbours.withUnsafeBufferPointer { nb in
                            let nbp = nb.isEmpty ? nil : nb.baseAddress
                            // Pass A: cheap upper bounds for every component from what the points
                            // already know (a still-valid best edge, or a listed neighbour in
                            // another component), so that pass B's searches start tight.
                            Parallel.forEachChunk(count: n, grain: 8192, threads: workers) { chunk, w in
                                search.seed(v, points: chunk, neighbours: nbp, kk: kk, worker: w)
                            }
                            if workers > 1 {
                                for c in 0..<k {
                                    var w2 = bestW[c], key = bestKey[c]
                                    for w in 1..<workers {
                                        let cw = bestW[w * k + c], ck = bestKey[w * k + c]
                                        if cw < w2 || (cw == w2 && ck < key) { w2 = cw; key = ck }
                                    }
                                    for w in 0..<workers { bestW[w * k + c] = w2; bestKey[w * k + c] = key }
                                }
                            }
                            // Pass B: searches where nothing cheaper settles the point.
                            Parallel.forEachChunk(count: groupCount, grain: 16, threads: workers) { chunk, w in
                                for g in chunk {
                                    search.run(v, group: groupLevelFirst + g, neighbours: nbp, kk: kk, worker: w)
                                }
                            }
                        }
                    }
                }
            }}}}}}}}}

            inspect?(comp, floor2, cand)

            // Every component's pick is its lightest outgoing edge under the total order, an
            // edge of the unique MST. Reduce the workers' picks per component in a fixed order;
            // then join them all at once (see joinPicks): the edges are added in component order,
            // an edge picked from both of its sides once, so the list is the same for any
            // thread count.
            // The component each pick reaches, and the pick's ends. In the first round the
            // components are the points and `cand` is exactly that, so no copies are made: this
            // join is the MST stage's peak of memory.
            var target: [Int32]
            var pickA: [Int32] = [], pickB: [Int32] = []
            if firstFromLists {
                target = cand
            } else {
                target = [Int32](repeating: 0, count: k)
                pickA = [Int32](repeating: 0, count: k); pickB = [Int32](repeating: 0, count: k)
                for c in 0..<k {
                    var w2 = Double.infinity, key = UInt64.max
                    for w in 0..<sets {
                        let cw = bestW[w * k + c], ck = bestKey[w * k + c]
                        if cw < w2 || (cw == w2 && ck < key) { w2 = cw; key = ck }
                    }
                    precondition(key != .max, "Borůvka round found no edge: the graph is disconnected")
                    let p = Int32(key >> 32), q = Int32(key & 0xFFFF_FFFF)
                    pickA[c] = p; pickB[c] = q
                    target[c] = comp[Int(p)] == Int32(c) ? comp[Int(q)] : comp[Int(p)]
                }
            }
            bestW = []; bestKey = []
            if firstFromLists {
                // Nearly n edges: written through the buffers (appending them one by one took
                // 10 ms at 1M points), then cut to length; the capacity stays for later rounds.
                precondition(ea.isEmpty && eb.isEmpty)
                // Compacted on all workers: each chunk counts its edges, then writes them after
                // the earlier chunks' (the same order as one pass would give).
                ea = [Int32].filled(count: n - 1, threads: workers) { _ in 0 }
                eb = [Int32].filled(count: n - 1, threads: workers) { _ in 0 }
                let grain = 1 << 16
                let chunks = (k + grain - 1) / grain
                var offsets = [Int](repeating: 0, count: chunks + 1)
                var m = 0
                target.withUnsafeBufferPointer { target in
                offsets.withUnsafeMutableBufferPointer { offsets in
                ea.withUnsafeMutableBufferPointer { ea in
                eb.withUnsafeMutableBufferPointer { eb in
                    let counts = SharedBuffer(base: offsets.baseAddress!)
                    @inline(__always) func kept(_ c: Int) -> Int? {
                        let t = Int(target[c])
                        precondition(t >= 0 && t != c, "Borůvka round found no edge: the graph is disconnected")
                        return Int(target[t]) == c && t < c ? nil : t  // nil: the same edge, taken at t
                    }
                    Parallel.forEachChunk(count: k, grain: grain, threads: workers) { chunk, _ in
                        var count = 0
                        for c in chunk where kept(c) != nil { count += 1 }
                        counts[chunk.lowerBound / grain + 1] = count
                    }
                    for i in 0..<chunks { offsets[i + 1] += offsets[i] }
                    m = offsets[chunks]
                    precondition(m <= n - 1, "a spanning forest has fewer than n edges")
                    let sa = SharedBuffer(base: ea.baseAddress!), sb = SharedBuffer(base: eb.baseAddress!)
                    Parallel.forEachChunk(count: k, grain: grain, threads: workers) { chunk, _ in
                        var at = counts[chunk.lowerBound / grain]
                        for c in chunk {
                            guard let t = kept(c) else { continue }
                            sa[at] = Int32(min(c, t)); sb[at] = Int32(max(c, t))
                            at += 1
                        }
                    }
                }}}}
                ea.removeLast(n - 1 - m); eb.removeLast(n - 1 - m)
            } else {
                for c in 0..<k {
                    let t = Int(target[c])
                    precondition(t >= 0 && t != c, "Borůvka round found no edge: the graph is disconnected")
                    if Int(target[t]) == c && t < c { continue }   // the same edge, taken at t
                    ea.append(pickA[c]); eb.append(pickB[c])
                }
            }
            pickA = []; pickB = []
            let (newID, newCount) = Self.joinPicks(target: target, threads: workers)
            target = []
            comp.withUnsafeMutableBufferPointer { c in
            newID.withUnsafeBufferPointer { m in
                let cs = SharedBuffer(base: c.baseAddress!), ms = m.baseAddress!
                Parallel.forEachChunk(count: n, grain: 1 << 16, threads: workers) { chunk, _ in
                    for p in chunk { cs[p] = ms[Int(cs[p])] }
                }
            }}
            k = newCount
            round += 1
        }
        return (ea, eb)
    }

    /// Joins components along their picks: `target[c]` is the component that component c's
    /// pick reaches. Returns each old component's new id (new ids in order of each new
    /// component's smallest old id) and the number of new components.
    ///
    /// Under a strict total order on edges the picks form a forest of in-trees, each rooted
    /// at a mutual pair (c picks t and t picks c, the same edge): following picks from any
    /// component reaches its pair, and the smaller of the two names the new component. The
    /// roots are found by pointer jumping on all workers (every pass replaces each pointer by
    /// its pointer's pointer, so a chain of length d takes log2(d) passes), then numbered in
    /// one ordered pass. First round at 1M estate points: a union-find join took 43 ms, a
    /// walk memoised on one thread 19 ms, a separate walk from every component on two threads
    /// 15 ms (the chains are long), this about 10 ms (6 passes).
    private static func joinPicks(target: [Int32], threads: Int) -> (newID: [Int32], count: Int) {
        let k = target.count
        // Each component's pointer: its pick's target, or for the two ends of a mutual pair
        // the smaller of them (which points to itself: the root).
        var root = target.withUnsafeBufferPointer { t in
            [Int32].filled(count: k, threads: threads) { c in
                let y = Int(t[c])
                precondition(y != c, "a component's pick must leave it")
                return Int(t[y]) == c ? Int32(min(c, y)) : Int32(y)
            }
        }
        var next = [Int32](unsafeUninitializedCapacity: k) { _, n in n = k }
        let workers = max(1, threads)
        // One flag per worker, each on its own cache line: whether its pointers still moved.
        let moved = UnsafeMutablePointer<Bool>.allocate(capacity: workers * 64)
        defer { moved.deallocate() }
        var passes = 0
        while true {
            // Double-buffered, so that every pass reads only the previous one's pointers.
            for w in 0..<workers { moved[w * 64] = false }
            root.withUnsafeBufferPointer { cur in
            next.withUnsafeMutableBufferPointer { nxt in
                let out = SharedBuffer(base: nxt.baseAddress!), read = SharedBuffer(base: UnsafeMutablePointer(mutating: cur.baseAddress!))
                let flags = SharedBuffer(base: moved)
                Parallel.forEachChunk(count: k, grain: 1 << 15, threads: workers) { chunk, w in
                    var any = false
                    for c in chunk {
                        let a = read[c], b = read[Int(a)]
                        out[c] = b
                        any = any || a != b
                    }
                    if any { flags[w * 64] = true }  // a worker may take several chunks
                }
            }}
            swap(&root, &next)
            if !(0..<workers).contains(where: { moved[$0 * 64] }) { break }
            passes += 1
            precondition(passes <= 64, "Borůvka picks must not form a cycle")
        }
        // New ids in order of each component's smallest member: a component's id is set at its
        // root when the component is first met.
        var count = 0
        var newID = [Int32](repeating: -1, count: k)
        root.withUnsafeBufferPointer { root in
        newID.withUnsafeMutableBufferPointer { newID in
            for c in 0..<k {
                let r = Int(root[c])
                if newID[r] < 0 { newID[r] = Int32(count); count += 1 }
                newID[c] = newID[r]
            }
        }}
        return (newID, count)
    }

    /// Marks each node with its component root when all its points share one, else -1. The
    /// leaves (at 1M points, about 1 ms a round on one thread) on all workers.
    private static func labelNodes(tree: KDTree, comp: [Int32], nodeComp: inout [Int32], threads: Int) {
        let firstLeaf = tree.firstLeaf
        comp.withUnsafeBufferPointer { comp in
        nodeComp.withUnsafeMutableBufferPointer { out in
            let shared = SharedBuffer(base: out.baseAddress!)
            Parallel.forEachChunk(count: tree.nodeCount - firstLeaf, grain: 4096, threads: threads) { chunk, _ in
                for leaf in (firstLeaf + chunk.lowerBound)..<(firstLeaf + chunk.upperBound) {
                    let r = tree.range(ofNode: leaf)
                    if r.isEmpty { shared[leaf] = -1; continue }
                    let c = comp[r.lowerBound]
                    var same = true
                    for p in r where comp[p] != c { same = false; break }
                    shared[leaf] = same ? c : -1
                }
            }
        }}
        if firstLeaf > 0 {
            for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
                let l = nodeComp[2 * node + 1], r = nodeComp[2 * node + 2]
                nodeComp[node] = (l == r) ? l : -1
            }
        }
    }
}

/// The leaves within reach of one leaf (see `TreeView.leavesInReach`); `count == 0`: none
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
private struct BoruvkaSearch: @unchecked Sendable {
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
    /// Per worker, the leaves within reach of the leaf being worked on (`reachStride` slots).
    let reachLists: UnsafeMutablePointer<Int32>
    /// Slots per worker in `reachLists`: the most leaves a leaf's points are checked against
    /// directly; a leaf with more within reach searches point by point.
    static let reachCapacity = 48
    static let reachStride = 64
    /// Slots per worker in `bestW`/`bestKey`: the number of components.
    let stride: Int
    /// How many entries of each neighbour list lie within the point's core distance.
    let inCore: Int

    @inline(__always) static func pairKey(_ p: Int, _ q: Int) -> UInt64 {
        p < q ? (UInt64(p) << 32 | UInt64(q)) : (UInt64(q) << 32 | UInt64(p))
    }

    /// Best edge from p among its listed nearest neighbours outside component `c`, and the
    /// squared distance of the farthest listed neighbour (every unlisted point is at least
    /// that far, so a listed edge lighter than it is p's exact best).
    @inline(__always)
    private func listBest(_ v: TreeView, p: Int, c: Int32, cp: Double,
                          neighbours: UnsafePointer<Int32>, kk: Int) -> (w: Double, q: Int, far2: Double) {
        let qx = v.x[p], qy = v.y[p]
        var bw = Double.infinity, bq = -1, bkey = UInt64.max
        var far2 = 0.0
        for j in 0..<kk {
            let q = Int(neighbours[p * kk + j])
            // The first `inCore` entries are no farther than the core distance, which then
            // dominates their weight: max(cp, core2[q], d2) is max(cp, core2[q]) bit for bit,
            // and so is it with d2 = 0. Only the entries past it need their distance (and the
            // last, the farthest, gives far2).
            var d2 = 0.0
            if j >= inCore {
                let dx = v.x[q] - qx, dy = v.y[q] - qy
                d2 = dx * dx + dy * dy
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
    @inline(__always)
    private func visit(_ v: TreeView, p: Int, leaf: Int, reach: Reach, neighbours: UnsafePointer<Int32>?, kk: Int,
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
        if let nb = neighbours, !spent[p] {
            let (lw, lq, far2) = listBest(v, p: p, c: c32, cp: cp, neighbours: nb, kk: kk)
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
    func seed(_ v: TreeView, points: Range<Int>, neighbours: UnsafePointer<Int32>?, kk: Int, worker: Int) {
        let bw = bestW + worker * stride, bk = bestKey + worker * stride
        for p in points {
            let c = Int(comp[p])
            let c32 = Int32(c)
            if floor2[p] > bw[c] { continue }
            let known = Int(cand[p])
            if known >= 0 {
                if comp[known] != c32 { offer(floor2[p], p, known, c, bw, bk); continue }
                cand[p] = -1
            }
            guard let nb = neighbours, !spent[p] else { continue }
            let (lw, lq, far2) = listBest(v, p: p, c: c32, cp: core2[p], neighbours: nb, kk: kk)
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
    /// `cand`/`floor2`, which is also the component's pick.
    func firstRound(_ v: TreeView, points: Range<Int>, neighbours: UnsafePointer<Int32>, kk: Int, worker: Int) {
        let stack = stacks + worker * stackSize
        for p in points {
            let cp = core2[p]
            let (lw, lq, far2) = listBest(v, p: p, c: Int32(p), cp: cp, neighbours: neighbours, kk: kk)
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
    func run(_ v: TreeView, group: Int, neighbours: UnsafePointer<Int32>?, kk: Int, worker: Int) {
        let bw = bestW + worker * stride, bk = bestKey + worker * stride
        let stack = stacks + worker * stackSize
        let list = reachLists + worker * Self.reachStride
        let gc = Int(nodeComp[group])
        if gc >= 0 {
            if nodeMinCore2[group] > bw[gc] { return }
            if bw[gc] < .infinity && !hasCandidate(v, group: group, c: gc, bound: bw[gc], stack: stack) { return }
        }
        // The leaves under `group`: a contiguous run of heap indices at the leaf level.
        var lo = group, hi = group
        while lo < v.firstLeaf { lo = 2 * lo + 1; hi = 2 * hi + 2 }
        for leaf in lo...hi {
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
                                            capacity: Self.reachCapacity)
                if found.count == 0 { continue }
                if found.count > 0 { reach = Reach(leaves: list, count: found.count, floor: found.floor) }
            }
            for p in Int(v.start[leaf])..<Int(v.end[leaf]) {
                visit(v, p: p, leaf: leaf, reach: reach, neighbours: neighbours, kk: kk, bw: bw, bk: bk, stack: stack)
            }
        }
    }

    /// `search` for a point whose leaf lies inside its component, over the leaves within reach
    /// of that leaf (`reach`, listed with a bound at least `startW`): the same best edge and a
    /// valid, if looser, floor — every point outside the listed leaves is at least
    /// `reach.floor` away in weight, and a listed leaf out of reach of p adds its own bound.
    @inline(__always)
    private func check(_ v: TreeView, p: Int, reach: Reach, c32: Int32, cp: Double,
                       startW: Double, startKey: UInt64) -> (w: Double, key: UInt64, floor: Double) {
        let qx = v.x[p], qy = v.y[p]
        var bestW = startW, bestKey = startKey
        var floor = max(cp, reach.floor)
        for i in 0..<reach.count {
            let t = Int(reach.leaves[i])
            let lb = max(cp, nodeMinCore2[t], v.boxDistance2(t, qx, qy))
            if lb > bestW { floor = min(floor, lb); continue }
            for q in Int(v.start[t])..<Int(v.end[t]) where comp[q] != c32 {
                let dx = v.x[q] - qx, dy = v.y[q] - qy
                let w = max(cp, core2[q], dx * dx + dy * dy)
                floor = min(floor, w)
                if w <= bestW {
                    let key = BoruvkaSearch.pairKey(p, q)
                    if w < bestW || key < bestKey { bestW = w; bestKey = key }
                }
            }
        }
        return (bestW, bestKey, floor)
    }

    /// Whether any node outside component `c` could hold an edge from `group` of weight at most
    /// `bound` (see `TreeView.hasCandidate`).
    private func hasCandidate(_ v: TreeView, group g: Int, c: Int, bound: Double,
                              stack: UnsafeMutablePointer<Int32>) -> Bool {
        v.hasCandidate(group: g, component: Int32(c), bound: bound, nodeComp: nodeComp,
                       nodeMinCore2: nodeMinCore2, stack: stack)
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
        _ v: TreeView, p: Int, leaf: Int, c: Int, cp: Double, startW: Double, startKey: UInt64,
        stack: UnsafeMutablePointer<Int32>
    ) -> (w: Double, key: UInt64, floor: Double) {
        let boxes = boxStacks + (stack - stacks)
        let qx = v.x[p], qy = v.y[p]
        var bestW = startW, bestKey = startKey
        var floor = Double.infinity
        let c32 = Int32(c)

        @inline(__always) func scan(_ node: Int) {
            for q in Int(v.start[node])..<Int(v.end[node]) where comp[q] != c32 {
                let dx = v.x[q] - qx, dy = v.y[q] - qy
                let w = max(cp, core2[q], dx * dx + dy * dy)
                floor = min(floor, w)
                if w <= bestW {
                    let key = BoruvkaSearch.pairKey(p, q)
                    if w < bestW || key < bestKey { bestW = w; bestKey = key }
                }
            }
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
            let clearance = v.insideClearance2(node, qx, qy)
            if clearance > bestW { floor = min(floor, max(cp, clearance)); break }
            let sibling = (node & 1) == 1 ? node + 1 : node - 1
            node = (node - 1) / 2
            if nodeComp[sibling] == c32 { continue }
            var sp = 1
            stack[0] = Int32(sibling); boxes[0] = v.boxDistance2(sibling, qx, qy)
            while sp > 0 {
                sp -= 1
                var n = Int(stack[sp]), box = boxes[sp]
                while true {
                    if prune(n, box) { break }
                    if n >= v.firstLeaf { scan(n); break }
                    // Visit the nearer child next, keep the farther one on the stack; a child
                    // inside p's component is dropped without measuring it.
                    let l = 2 * n + 1, r = l + 1
                    let lOut = nodeComp[l] != c32, rOut = nodeComp[r] != c32
                    if lOut && rOut {
                        let bl = v.boxDistance2(l, qx, qy), br = v.boxDistance2(r, qx, qy)
                        if bl <= br {
                            stack[sp] = Int32(r); boxes[sp] = br; sp += 1; n = l; box = bl
                        } else {
                            stack[sp] = Int32(l); boxes[sp] = bl; sp += 1; n = r; box = br
                        }
                    } else if lOut {
                        n = l; box = v.boxDistance2(l, qx, qy)
                    } else if rOut {
                        n = r; box = v.boxDistance2(r, qx, qy)
                    } else {
                        break
                    }
                }
            }
        }
        return (bestW, bestKey, floor)
    }
}

extension TreeView {
    /// The leaves that `hasCandidate` looks for, all of them: every leaf not wholly inside
    /// component `c` with `max(min core in group, min core in leaf, box-to-box distance²)` at
    /// most `bound`, written to `out`. Returns their number (-1 when there are more than
    /// `capacity`) and `floor`, a lower bound on the squared weight of every edge from the
    /// group to a point outside c and outside the listed leaves (the bounds of the nodes the
    /// walk set aside, and of everything beyond where its climb stopped).
    func leavesInReach(of g: Int, component c32: Int32, bound: Double, nodeComp: UnsafePointer<Int32>,
                       nodeMinCore2: UnsafePointer<Double>, stack: UnsafeMutablePointer<Int32>,
                       into out: UnsafeMutablePointer<Int32>, capacity: Int) -> (count: Int, floor: Double) {
        let gMin = nodeMinCore2[g]
        let gx0 = minX[g], gx1 = maxX[g], gy0 = minY[g], gy1 = maxY[g]
        var floor = Double.infinity
        var count = 0
        var node = g
        while node > 0 {
            let gap = min(gx0 - minX[node], maxX[node] - gx1, gy0 - minY[node], maxY[node] - gy1)
            if gap > 0 {
                let beyond = max(gMin, gap * gap)
                if beyond > bound { floor = min(floor, beyond); break }
            }
            let sibling = (node & 1) == 1 ? node + 1 : node - 1
            node = (node - 1) / 2
            if nodeComp[sibling] == c32 { continue }
            var sp = 1
            stack[0] = Int32(sibling)
            while sp > 0 {
                sp -= 1
                let t = Int(stack[sp])
                if nodeComp[t] == c32 { continue }
                let dx = max(0, minX[t] - gx1, gx0 - maxX[t])
                let dy = max(0, minY[t] - gy1, gy0 - maxY[t])
                let lb = max(gMin, nodeMinCore2[t], dx * dx + dy * dy)
                if lb > bound { floor = min(floor, lb); continue }
                if t >= firstLeaf {
                    if count == capacity { return (-1, floor) }
                    out[count] = Int32(t); count += 1
                    continue
                }
                stack[sp] = Int32(2 * t + 1); stack[sp + 1] = Int32(2 * t + 2); sp += 2
            }
        }
        return (count, floor)
    }

    /// Whether a leaf outside component `c` could hold an edge of weight at most `bound` from the
    /// node `group` (whose points all belong to c): a leaf not wholly inside c (`nodeComp`, -1
    /// for mixed nodes) with `max(min core in group, min core in leaf, box-to-box distance²)`
    /// at most `bound`, squared distances throughout.
    ///
    /// Climbs from the group like `BoruvkaSearch.search` climbs from a point: the sibling
    /// subtree of each ancestor is walked top-down, and the climb stops once every point outside
    /// the current ancestor is farther from the group's box than the bound allows (the gap
    /// between the group's box and the ancestor's: a point outside a node lies outside its box
    /// or on its edge, since the box lies within the node's cell). Walking from the root instead visited about 27 nodes per call in the later rounds
    /// at 100k points, mostly on the way down to the group's own neighbourhood; climbing made
    /// the MST about 4 % faster at 100k and 1M points.
    /// - Parameter stack: scratch for at least `2 * (depth + 2)` node indices.
    func hasCandidate(group g: Int, component c32: Int32, bound: Double, nodeComp: UnsafePointer<Int32>,
                      nodeMinCore2: UnsafePointer<Double>, stack: UnsafeMutablePointer<Int32>) -> Bool {
        // `leavesInReach` with room for no leaf: it stops at the first one (-1) or finds none.
        var unused: Int32 = 0
        return leavesInReach(of: g, component: c32, bound: bound, nodeComp: nodeComp, nodeMinCore2: nodeMinCore2,
                             stack: stack, into: &unused, capacity: 0).count != 0
    }
}

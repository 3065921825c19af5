/// The minimum spanning tree of the mutual-reachability graph, as parallel edge arrays.
///
/// `mutualReachability(a, b) = max(coreDistance(a), coreDistance(b), distance(a, b))`.
/// Edges are sorted by weight ascending, ties by (a, b) ascending, with `a < b` in every edge,
/// so the edge list is a pure function of the input rows and the core distances.
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

extension MinimumSpanningTree {
    /// Computes the exact mutual-reachability MST with Borůvka's algorithm on the k-d tree.
    ///
    /// Each round finds, for every component, its lightest outgoing edge under the total order
    /// (weight, smaller tree position, larger tree position) — with distinct keys the MST is
    /// unique and every pick belongs to it — then joins the picks with the union-find.
    /// A round's search for point `p` skips tree nodes that lie wholly inside `p`'s component
    /// and nodes whose lower bound `max(core(p), min core in node, box distance)` cannot beat
    /// the component's best so far; points whose own core distance already exceeds that best
    /// are skipped outright. The number of components at least halves each round.
    ///
    /// - Parameters:
    ///   - tree: the k-d tree of the points.
    ///   - coreDistances: core distance of each point, indexed by tree position.
    ///   - threads: worker threads; the result is identical for any value.
    /// - Complexity: O(n log n) per round on 2-D data in practice, O(log n) rounds.
    public static func boruvka(tree: KDTree, coreDistances: [Double], threads: Int = 1) -> MinimumSpanningTree {
        let n = tree.count
        precondition(coreDistances.count == n, "one core distance per point")
        if n <= 1 { return MinimumSpanningTree(a: [], b: [], weight: []) }
        let workers = max(1, threads)
        let nodeCount = tree.nodeCount
        let firstLeaf = tree.firstLeaf

        let core2 = coreDistances.map { $0 * $0 }
        // Minimum squared core distance per node, bottom-up (inf for empty leaves).
        var nodeMinCore2 = [Double](repeating: .infinity, count: nodeCount)
        for leaf in firstLeaf..<nodeCount {
            var m = Double.infinity
            for p in tree.range(ofNode: leaf) where core2[p] < m { m = core2[p] }
            nodeMinCore2[leaf] = m
        }
        if firstLeaf > 0 {
            for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
                nodeMinCore2[node] = min(nodeMinCore2[2 * node + 1], nodeMinCore2[2 * node + 2])
            }
        }

        var uf = UnionFind(count: n)
        var comp = (0..<Int32(n)).map { $0 }          // component root of each tree position
        var nodeComp = [Int32](repeating: -1, count: nodeCount)  // -1: mixed or empty
        // Per-worker best edge per component root: squared weight and pair key.
        var bestW = [Double](repeating: .infinity, count: workers * n)
        var bestKey = [UInt64](repeating: .max, count: workers * n)
        var roots = (0..<Int32(n)).map { $0 }

        var ea = [Int32](), eb = [Int32](), ew2 = [Double]()
        ea.reserveCapacity(n - 1); eb.reserveCapacity(n - 1); ew2.reserveCapacity(n - 1)

        let leafCount = nodeCount - firstLeaf
        let stackSize = 2 * (KDTree.depth(ofNodeCount: nodeCount) + 2)
        let stacks = UnsafeMutablePointer<Int32>.allocate(capacity: workers * stackSize)
        defer { stacks.deallocate() }

        while ea.count < n - 1 {
            Self.labelNodes(tree: tree, comp: comp, nodeComp: &nodeComp)
            for r in roots { for w in 0..<workers { bestW[w * n + Int(r)] = .infinity; bestKey[w * n + Int(r)] = .max } }

            core2.withUnsafeBufferPointer { core2 in
            nodeMinCore2.withUnsafeBufferPointer { nodeMin in
            comp.withUnsafeBufferPointer { comp in
            nodeComp.withUnsafeBufferPointer { nodeComp in
            bestW.withUnsafeMutableBufferPointer { bestW in
            bestKey.withUnsafeMutableBufferPointer { bestKey in
                let search = BoruvkaSearch(
                    core2: core2.baseAddress!, nodeMinCore2: nodeMin.baseAddress!,
                    comp: comp.baseAddress!, nodeComp: nodeComp.baseAddress!,
                    bestW: bestW.baseAddress!, bestKey: bestKey.baseAddress!,
                    stacks: stacks, stackSize: stackSize, n: n)
                tree.withNodeArrays { v in
                    Parallel.forEachChunk(count: leafCount, grain: 256, threads: workers) { chunk, w in
                        search.run(v, leaves: chunk.lowerBound + firstLeaf..<chunk.upperBound + firstLeaf, worker: w)
                    }
                }
            }}}}}}

            // Reduce the workers' picks per component in a fixed order, then join.
            var picks: [(w2: Double, key: UInt64)] = []
            picks.reserveCapacity(roots.count)
            for r in roots {
                var w2 = Double.infinity, key = UInt64.max
                for w in 0..<workers {
                    let cw = bestW[w * n + Int(r)], ck = bestKey[w * n + Int(r)]
                    if cw < w2 || (cw == w2 && ck < key) { w2 = cw; key = ck }
                }
                picks.append((w2, key))
            }
            // Join in key order so the union-find (and hence nothing observable) depends
            // only on the picks themselves.
            picks.sort { $0.w2 < $1.w2 || ($0.w2 == $1.w2 && $0.key < $1.key) }
            var joined = 0
            for (w2, key) in picks where key != .max {
                let p = Int(key >> 32), q = Int(key & 0xFFFF_FFFF)
                if uf.union(p, q) != nil {
                    ea.append(Int32(p)); eb.append(Int32(q)); ew2.append(w2)
                    joined += 1
                }
            }
            precondition(joined > 0, "Borůvka round joined nothing: the graph is disconnected")
            for p in 0..<n { comp[p] = Int32(uf.find(p)) }
            roots = roots.filter { comp[Int($0)] == $0 }
        }

        // Map to input rows (a < b) and sort by (weight, a, b).
        let index = tree.index
        let m = ea.count
        var order = [Int32](unsafeUninitializedCapacity: m) { buf, c in
            for i in 0..<m { buf[i] = Int32(i) }
            c = m
        }
        var ra = [Int32](repeating: 0, count: m), rb = [Int32](repeating: 0, count: m)
        for i in 0..<m {
            let x = index[Int(ea[i])], y = index[Int(eb[i])]
            ra[i] = min(x, y); rb[i] = max(x, y)
        }
        let weights = ew2.map { $0.squareRoot() }
        order.sort { i, j in
            let wi = weights[Int(i)], wj = weights[Int(j)]
            if wi != wj { return wi < wj }
            if ra[Int(i)] != ra[Int(j)] { return ra[Int(i)] < ra[Int(j)] }
            return rb[Int(i)] < rb[Int(j)]
        }
        return MinimumSpanningTree(
            a: order.map { ra[Int($0)] },
            b: order.map { rb[Int($0)] },
            weight: order.map { weights[Int($0)] })
    }

    /// Marks each node with its component root when all its points share one, else -1.
    private static func labelNodes(tree: KDTree, comp: [Int32], nodeComp: inout [Int32]) {
        let firstLeaf = tree.firstLeaf
        for leaf in firstLeaf..<tree.nodeCount {
            let r = tree.range(ofNode: leaf)
            if r.isEmpty { nodeComp[leaf] = -1; continue }
            let c = comp[r.lowerBound]
            var same = true
            for p in r where comp[p] != c { same = false; break }
            nodeComp[leaf] = same ? c : -1
        }
        if firstLeaf > 0 {
            for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
                let l = nodeComp[2 * node + 1], r = nodeComp[2 * node + 2]
                nodeComp[node] = (l == r) ? l : -1
            }
        }
    }
}

/// One Borůvka round's nearest-other-component search, over raw pointers.
private struct BoruvkaSearch: @unchecked Sendable {
    let core2: UnsafePointer<Double>
    let nodeMinCore2: UnsafePointer<Double>
    let comp: UnsafePointer<Int32>
    let nodeComp: UnsafePointer<Int32>
    let bestW: UnsafeMutablePointer<Double>
    let bestKey: UnsafeMutablePointer<UInt64>
    let stacks: UnsafeMutablePointer<Int32>
    let stackSize: Int
    let n: Int

    @inline(__always) static func pairKey(_ p: Int, _ q: Int) -> UInt64 {
        p < q ? (UInt64(p) << 32 | UInt64(q)) : (UInt64(q) << 32 | UInt64(p))
    }

    func run(_ v: TreeView, leaves: Range<Int>, worker: Int) {
        let bw = bestW + worker * n, bk = bestKey + worker * n
        let stack = stacks + worker * stackSize
        for leaf in leaves {
            let lc = Int(nodeComp[leaf])
            // A leaf wholly inside one component whose every core distance already exceeds
            // that component's best edge cannot improve it.
            if lc >= 0 && nodeMinCore2[leaf] > bw[lc] { continue }
            for p in Int(v.start[leaf])..<Int(v.end[leaf]) {
                let c = Int(comp[p])
                let cp = core2[p]
                if cp > bw[c] { continue }
                search(v, p: p, c: c, cp: cp, bw: bw, bk: bk, stack: stack)
            }
        }
    }

    @inline(__always)
    private func search(
        _ v: TreeView, p: Int, c: Int, cp: Double,
        bw: UnsafeMutablePointer<Double>, bk: UnsafeMutablePointer<UInt64>,
        stack: UnsafeMutablePointer<Int32>
    ) {
        let qx = v.x[p], qy = v.y[p]
        var bestW = bw[c], bestKey = bk[c]
        let c32 = Int32(c)
        var sp = 1
        stack[0] = 0
        while sp > 0 {
            sp -= 1
            var node = Int(stack[sp])
            while true {
                if nodeComp[node] == c32 { break }
                let lb = max(cp, nodeMinCore2[node], v.boxDistance2(node, qx, qy))
                if lb > bestW { break }
                if lb == bestW {
                    // Only an equal-weight edge with a smaller pair key could still win.
                    let lo = Int(v.start[node])
                    let keyBound = p < lo ? (UInt64(p) << 32 | UInt64(lo)) : (UInt64(lo) << 32)
                    if keyBound >= bestKey { break }
                }
                if node >= v.firstLeaf {
                    for q in Int(v.start[node])..<Int(v.end[node]) where comp[q] != c32 {
                        let dx = v.x[q] - qx, dy = v.y[q] - qy
                        let w = max(cp, core2[q], dx * dx + dy * dy)
                        if w <= bestW {
                            let key = BoruvkaSearch.pairKey(p, q)
                            if w < bestW || key < bestKey { bestW = w; bestKey = key }
                        }
                    }
                    break
                }
                // Visit the nearer child next, keep the farther one on the stack.
                let l = 2 * node + 1, r = l + 1
                if v.boxDistance2(l, qx, qy) <= v.boxDistance2(r, qx, qy) {
                    stack[sp] = Int32(r); sp += 1; node = l
                } else {
                    stack[sp] = Int32(l); sp += 1; node = r
                }
            }
        }
        bw[c] = bestW
        bk[c] = bestKey
    }
}

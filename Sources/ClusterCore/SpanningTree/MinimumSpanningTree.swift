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

    /// A tree from its edges: edge `i` joins rows `a[i]` and `b[i]` with `weight[i]`.
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
                neighbours: [], listLength: 0, coreNeighbourCount: 0, threads: threads).mst
    }

    /// Borůvka as above, from squared core distances; `neighbours` (when not empty) holds each
    /// position's `listLength` nearest positions (itself included), nearest first, with
    /// `listLength` at least one more than `coreNeighbourCount`, the core distances' own
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
        listLength: Int, coreNeighbourCount: Int, threads: Int, inspect: RoundInspector? = nil
    ) -> (mst: MinimumSpanningTree, positionA: [Int32], positionB: [Int32]) {
        precondition(neighbours.isEmpty || (coreNeighbourCount >= 1 && coreNeighbourCount < listLength),
                     "the lists go at least one neighbour past the core distance")
        let n = tree.count
        precondition(core2.count == n, "one core distance per point")
        if n <= 1 { return (MinimumSpanningTree(a: [], b: [], weight: []), [], []) }
        let lists = neighbours
        let (ea, eb) = rounds(tree: tree, core2: core2, lists: lists, listLength: listLength,
                              coreNeighbourCount: coreNeighbourCount, threads: threads, inspect: inspect)
        // The lists are the largest input; free them before the sort below allocates.
        _ = consume lists
        _ = consume neighbours

        // Sort by weight and map to input rows (a < b). The edges arrive in a fixed order
        // (round by round, component by component), and the sort is stable, so the list is
        // the same for any thread count. Both passes over the edges run on all workers: on one
        // thread this phase was a sizeable share of the MST stage.
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
}

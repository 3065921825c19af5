// The Borůvka rounds: label the nodes, search (see MinimumSpanningTree+Search.swift), reduce
// the workers' picks, append the new edges, join the components along their picks.

extension MinimumSpanningTree {
    /// The Borůvka rounds; returns the edges as pairs of tree positions. All round
    /// state lives (and dies) here, before the caller's final sort needs memory.
    static func rounds(
        tree: KDTree, core2: [Double], lists: [Int32], listLength: Int, coreNeighbourCount: Int, threads: Int,
        inspect: RoundInspector?
    ) -> (a: [Int32], b: [Int32]) {
        // The inputs and the tree are read through one scope for the whole run (n >= 2 here);
        // everything the rounds write belongs to the workspace.
        core2.withUnsafeBufferPointer { core2 in
        lists.withUnsafeBufferPointer { lists in
        tree.withNodeArrays { v in
            rounds(view: v, core2: core2.baseAddress!, lists: lists.isEmpty ? nil : lists.baseAddress,
                   listLength: listLength, coreNeighbourCount: coreNeighbourCount, threads: threads, inspect: inspect)
        }}}
    }

    /// The Borůvka rounds over any tree that `BoruvkaTree` describes (n >= 2 points), with
    /// squared core distances and neighbour lists by tree position, as above.
    static func rounds<Tree: BoruvkaTree>(
        view: Tree, core2: UnsafePointer<Double>, lists: UnsafePointer<Int32>?, listLength: Int,
        coreNeighbourCount: Int, threads: Int, inspect: RoundInspector?
    ) -> (a: [Int32], b: [Int32]) {
        BoruvkaWorkspace(tree: view, core2: core2, lists: lists, listLength: listLength,
                         coreNeighbourCount: coreNeighbourCount, threads: threads)
            .run(inspect: inspect)
    }
}

/// The working buffers of one Borůvka run, indexed by tree position or by node: allocated when
/// the run starts and freed together when it ends (as `DBSCANWorkspace` does). Raw buffers
/// shared by the workers, each of which writes only the slots of its own points, leaves or
/// worker. The rounds run as methods, so the buffers outlive every pointer handed out.
final class BoruvkaWorkspace<Tree: BoruvkaTree> {
    let v: Tree
    let n: Int
    let workers: Int
    /// Squared core distance of each position (the caller's storage).
    let core2: UnsafePointer<Double>
    /// Each position's `listLength` nearest positions (the caller's storage), or nil.
    let lists: UnsafePointer<Int32>?
    let listLength: Int
    /// How many entries of each list lie within the point's core distance.
    let coreNeighbourCount: Int

    /// Minimum squared core distance per node (inf for empty leaves).
    let nodeMinCore2: UnsafeMutablePointer<Double>
    /// Compact component id of each position. Components carry ids 0..<componentCount,
    /// renumbered after every round, so the per-worker best-edge slots need only
    /// `componentCount` each (about n/10 after the first round).
    let comp: UnsafeMutablePointer<Int32>
    /// Each node's component when all its points share one, else -1 (mixed or empty).
    let nodeComp: UnsafeMutablePointer<Int32>
    /// What each point knows of its own best edge (see `BoruvkaSearch`).
    let floor2: UnsafeMutablePointer<Double>
    let cand: UnsafeMutablePointer<Int32>
    /// Whether all of a point's listed neighbours are inside its component: components only
    /// grow, so the list can never give it an edge again and later rounds skip reading it.
    /// (Re-reading such lists cost pass A time in every late round.)
    /// One slot without lists.
    let spent: UnsafeMutablePointer<Bool>

    /// Per-worker stacks, padded apart so the workers never share a cache line.
    let stackSize: Int
    let stacks: UnsafeMutablePointer<Int32>
    let boxStacks: UnsafeMutablePointer<Double>
    /// Per-worker lists of the leaves within reach of one leaf (see `BoruvkaSearch.run`),
    /// `reachStride` slots each.
    let reachLists: UnsafeMutablePointer<Int32>
    /// The most leaves a leaf's points are checked against directly; a leaf with more within
    /// reach searches point by point.
    static var reachCapacity: Int { 48 }
    static var reachStride: Int { 64 }

    /// Groups of about 64 points (`BoruvkaTree.groups`): a group wholly inside one component
    /// is skipped when no node outside the component can beat its best edge.
    let groups: [Int32]

    init(tree v: Tree, core2: UnsafePointer<Double>, lists: UnsafePointer<Int32>?, listLength: Int,
         coreNeighbourCount: Int, threads: Int) {
        let n = v.count, workers = Parallel.workers(threads)
        self.v = v
        self.n = n
        self.workers = workers
        self.core2 = core2
        self.lists = lists
        self.listLength = listLength
        self.coreNeighbourCount = coreNeighbourCount
        let nodeCount = v.nodeCount, firstLeaf = v.firstLeaf

        // The leaves on all workers, then bottom-up.
        nodeMinCore2 = .allocate(capacity: nodeCount)
        nodeMinCore2.initialize(repeating: .infinity, count: nodeCount)
        let shared = SharedBuffer(base: nodeMinCore2)
        Parallel.forEachChunk(count: nodeCount - firstLeaf, grain: 4096, threads: workers) { chunk, _ in
            for leaf in (firstLeaf + chunk.lowerBound)..<(firstLeaf + chunk.upperBound) {
                var m = Double.infinity
                for p in Int(v.start[leaf])..<Int(v.end[leaf]) where core2[p] < m { m = core2[p] }
                shared[leaf] = m
            }
        }
        if firstLeaf > 0 {
            for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
                let (l, r) = v.children(of: node)
                shared[node] = min(shared[l], shared[r])
            }
        }

        comp = Self.filled(n, threads: workers) { Int32($0) }
        nodeComp = .allocate(capacity: nodeCount)
        nodeComp.initialize(repeating: -1, count: nodeCount)
        floor2 = Self.filled(n, threads: workers) { core2[$0] }
        cand = Self.filled(n, threads: workers) { _ in -1 }
        spent = Self.filled(lists == nil ? 1 : n, threads: workers) { _ in false }

        groups = v.groups()
        stackSize = (2 * (v.depth + 2) + 31) / 32 * 32 + 32
        stacks = .allocate(capacity: workers * stackSize)
        boxStacks = .allocate(capacity: workers * stackSize)
        reachLists = .allocate(capacity: workers * Self.reachStride)
    }

    deinit {
        nodeMinCore2.deallocate(); comp.deallocate(); nodeComp.deallocate()
        floor2.deallocate(); cand.deallocate(); spent.deallocate()
        stacks.deallocate(); boxStacks.deallocate(); reachLists.deallocate()
    }

    /// `count` new elements, `value(i)` at i, written by all workers (see `Array.filled`: the
    /// pages are faulted in by the workers that write them).
    private static func filled<T>(_ count: Int, threads: Int, _ value: (Int) -> T) -> UnsafeMutablePointer<T> {
        let base = UnsafeMutablePointer<T>.allocate(capacity: count)
        let out = SharedBuffer(base: base)
        Parallel.forEachChunk(count: count, grain: 1 << 16, threads: threads) { chunk, _ in
            for i in chunk { (out.base + i).initialize(to: value(i)) }
        }
        return base
    }

    /// Runs the rounds until the forest spans the points; returns its edges as pairs of tree
    /// positions, in a fixed order (round by round, component by component).
    func run(inspect: RoundInspector?) -> (a: [Int32], b: [Int32]) {
        // Edge ends only: the weights are recomputed by the caller from the same formula.
        var ea = [Int32](), eb = [Int32]()
        // (With neighbour lists the first round allocates them whole; see below.)
        if lists == nil { ea.reserveCapacity(n - 1); eb.reserveCapacity(n - 1) }
        var round = 0
        var componentCount = n
        while ea.count < n - 1 {
            labelNodes()
            // In the neighbour-list first round every point is its own component and its pick is
            // its own exact best edge, which the round records in `cand`/`floor2` anyway: no
            // per-component slots are needed (they would be the round's largest).
            let firstFromLists = round == 0 && lists != nil
            let sets = firstFromLists ? 0 : workers
            let slots = max(sets * componentCount, 1)
            let bestW = UnsafeMutablePointer<Double>.allocate(capacity: slots)
            let bestKey = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
            bestW.initialize(repeating: .infinity, count: slots)
            bestKey.initialize(repeating: .max, count: slots)
            search(componentCount: componentCount, bestW: bestW, bestKey: bestKey, firstFromLists: firstFromLists)

            if let inspect {
                func copy<T>(_ p: UnsafeMutablePointer<T>) -> [T] { Array(UnsafeBufferPointer(start: p, count: n)) }
                inspect(copy(comp), copy(floor2), copy(cand))
            }

            // Every component's pick is its lightest outgoing edge under the total order, an
            // edge of the unique MST. Reduce the workers' picks per component in a fixed order;
            // then join them all at once (see joinPicks): the edges are added in component order,
            // an edge picked from both of its sides once, so the list is the same for any
            // thread count.
            // The component each pick reaches. In the first round the components are the points
            // and `cand` is exactly that, so no copy is made: this join is the MST stage's peak
            // of memory.
            let joined: (newID: [Int32], count: Int)
            if firstFromLists {
                bestW.deallocate(); bestKey.deallocate()
                appendFirstRoundEdges(target: cand, count: componentCount, a: &ea, b: &eb)
                joined = Self.joinPicks(target: cand, count: componentCount, threads: workers)
            } else {
                let target = UnsafeMutablePointer<Int32>.allocate(capacity: componentCount)
                var pickA = [Int32](repeating: 0, count: componentCount)
                var pickB = [Int32](repeating: 0, count: componentCount)
                for c in 0..<componentCount {
                    var w2 = Double.infinity, key = UInt64.max
                    for w in 0..<sets {
                        let cw = bestW[w * componentCount + c], ck = bestKey[w * componentCount + c]
                        if cw < w2 || (cw == w2 && ck < key) { w2 = cw; key = ck }
                    }
                    precondition(key != .max, "Borůvka round found no edge: the graph is disconnected")
                    let p = Int32(key >> 32), q = Int32(key & 0xFFFF_FFFF)
                    pickA[c] = p; pickB[c] = q
                    target[c] = comp[Int(p)] == Int32(c) ? comp[Int(q)] : comp[Int(p)]
                }
                bestW.deallocate(); bestKey.deallocate()
                for c in 0..<componentCount {
                    let t = Int(target[c])
                    precondition(t >= 0 && t != c, "Borůvka round found no edge: the graph is disconnected")
                    if Int(target[t]) == c && t < c { continue }   // the same edge, taken at t
                    ea.append(pickA[c]); eb.append(pickB[c])
                }
                pickA = []; pickB = []
                joined = Self.joinPicks(target: target, count: componentCount, threads: workers)
                target.deallocate()
            }
            renumber(newID: joined.newID)
            componentCount = joined.count
            round += 1
        }
        return (ea, eb)
    }

    /// Marks each node with its component when all its points share one, else -1. The leaves
    /// (the bulk of the work, every round) on all workers.
    private func labelNodes() {
        let v = self.v, comp = self.comp, firstLeaf = v.firstLeaf
        let shared = SharedBuffer(base: nodeComp)
        Parallel.forEachChunk(count: v.nodeCount - firstLeaf, grain: 4096, threads: workers) { chunk, _ in
            for leaf in (firstLeaf + chunk.lowerBound)..<(firstLeaf + chunk.upperBound) {
                let r = Int(v.start[leaf])..<Int(v.end[leaf])
                if r.isEmpty { shared[leaf] = -1; continue }
                let c = comp[r.lowerBound]
                var same = true
                for p in r where comp[p] != c { same = false; break }
                shared[leaf] = same ? c : -1
            }
        }
        if firstLeaf > 0 {
            for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
                let (l, r) = v.children(of: node)
                nodeComp[node] = nodeComp[l] == nodeComp[r] ? nodeComp[l] : -1
            }
        }
    }

    /// Nearly n edges from the first round's picks (`target`, for each of the `count` points
    /// its best edge's other end), each edge picked from both of its sides once: written through the buffers
    /// (appending them one by one was measurably slower), then cut to length; the capacity
    /// stays for later rounds.
    private func appendFirstRoundEdges(target: UnsafePointer<Int32>, count: Int, a ea: inout [Int32], b eb: inout [Int32]) {
        precondition(ea.isEmpty && eb.isEmpty)
        let workers = self.workers
        // Compacted on all workers: each chunk counts its edges, then writes them after the
        // earlier chunks' (the same order as one pass would give).
        ea = [Int32].filled(count: n - 1, threads: workers) { _ in 0 }
        eb = [Int32].filled(count: n - 1, threads: workers) { _ in 0 }
        let grain = 1 << 16
        let chunks = (count + grain - 1) / grain
        let offsets = UnsafeMutablePointer<Int>.allocate(capacity: chunks + 1)
        defer { offsets.deallocate() }
        offsets.initialize(repeating: 0, count: chunks + 1)
        let counts = SharedBuffer(base: offsets)
        @inline(__always) func kept(_ c: Int) -> Int? {
            let t = Int(target[c])
            precondition(t >= 0 && t != c, "Borůvka round found no edge: the graph is disconnected")
            return Int(target[t]) == c && t < c ? nil : t  // nil: the same edge, taken at t
        }
        Parallel.forEachChunk(count: count, grain: grain, threads: workers) { chunk, _ in
            var found = 0
            for c in chunk where kept(c) != nil { found += 1 }
            counts[chunk.lowerBound / grain + 1] = found
        }
        for i in 0..<chunks { offsets[i + 1] += offsets[i] }
        let m = offsets[chunks]
        precondition(m <= n - 1, "a spanning forest has fewer than n edges")
        ea.withUnsafeMutableBufferPointer { ea in
        eb.withUnsafeMutableBufferPointer { eb in
            let sa = SharedBuffer(base: ea.baseAddress!), sb = SharedBuffer(base: eb.baseAddress!)
            Parallel.forEachChunk(count: count, grain: grain, threads: workers) { chunk, _ in
                var at = counts[chunk.lowerBound / grain]
                for c in chunk {
                    guard let t = kept(c) else { continue }
                    sa[at] = Int32(min(c, t)); sb[at] = Int32(max(c, t))
                    at += 1
                }
            }
        }}
        ea.removeLast(n - 1 - m); eb.removeLast(n - 1 - m)
    }

    /// Replaces every position's component by its new id.
    private func renumber(newID: [Int32]) {
        let comp = SharedBuffer(base: comp)
        newID.withUnsafeBufferPointer { m in
            let ms = m.baseAddress!
            Parallel.forEachChunk(count: n, grain: 1 << 16, threads: workers) { chunk, _ in
                for p in chunk { comp[p] = ms[Int(comp[p])] }
            }
        }
    }

    /// Joins the `count` components along their picks: `target[c]` is the component that
    /// component c's pick reaches. Returns each old component's new id (new ids in order of each new
    /// component's smallest old id) and the number of new components.
    ///
    /// Under a strict total order on edges the picks form a forest of in-trees, each rooted
    /// at a mutual pair (c picks t and t picks c, the same edge): following picks from any
    /// component reaches its pair, and the smaller of the two names the new component. The
    /// roots are found by pointer jumping on all workers (every pass replaces each pointer by
    /// its pointer's pointer, so a chain of length d takes log2(d) passes), then numbered in
    /// one ordered pass. The chains are long: this beat a union-find join, a walk memoised on
    /// one thread and a separate walk from every component (docs/performance.md).
    private static func joinPicks(target t: UnsafePointer<Int32>, count componentCount: Int,
                                  threads: Int) -> (newID: [Int32], count: Int) {
        // Each component's pointer: its pick's target, or for the two ends of a mutual pair
        // the smaller of them (which points to itself: the root).
        var root = [Int32].filled(count: componentCount, threads: threads) { c in
            let y = Int(t[c])
            precondition(y != c, "a component's pick must leave it")
            return Int(t[y]) == c ? Int32(min(c, y)) : Int32(y)
        }
        var next = [Int32](unsafeUninitializedCapacity: componentCount) { _, n in n = componentCount }
        let workers = Parallel.workers(threads)
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
                Parallel.forEachChunk(count: componentCount, grain: 1 << 15, threads: workers) { chunk, w in
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
        var newID = [Int32](repeating: -1, count: componentCount)
        root.withUnsafeBufferPointer { root in
        newID.withUnsafeMutableBufferPointer { newID in
            for c in 0..<componentCount {
                let r = Int(root[c])
                if newID[r] < 0 { newID[r] = Int32(count); count += 1 }
                newID[c] = newID[r]
            }
        }}
        return (newID, count)
    }
}

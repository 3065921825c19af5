// The condensing walk of `CondensedTree`, in its steps: pack the merges, order the leaves, walk
// the clusters top-down, renumber them (when scanning) and write where each leaf falls out.

/// One condensing walk over a single-linkage tree, writing rows and clusters into `out`. Its
/// state lives in one struct so that the steps are functions of their own and the walk's
/// counters stay in registers (every helper the loop calls is inlined into it).
struct CondenseWalk {
    /// `n` counts the linkage's leaves (node ids below it are leaves), `points` the points
    /// (cluster ids start there). They differ only over locations.
    let n: Int
    let points: Int
    let minClusterSize: Int
    let threads: Int
    let located: LeafView?
    let out: RowBuffers
    /// Whether the walk scans the merges downwards instead of going breadth-first (see `run`).
    let scan: Bool
    var rowCount = 0, clusterCount = 0, dropCount = 0

    /// Without point rows, where points fall out is noted as one event per leaf or per part
    /// too small to be a cluster, in walk order, and written by leaf after the walk, on all
    /// workers: the walk's own writes by leaf landed at random in memory, one thread waiting
    /// on each.
    let drops: UnsafeMutablePointer<Drop>?
    /// The walk visits merges in tree order, not memory order, so it is bound by memory
    /// latency: each merge is packed into one 32-byte record that also carries its children's
    /// sizes and whether each child merges at the same distance, so a step of the walk reads
    /// one record instead of three.
    let merges: UnsafeMutablePointer<Merge>
    /// Smallest input row below each internal node, to order sibling clusters; computed in
    /// the same pass that packs the merges (children come before their parents).
    let minRow: UnsafeMutablePointer<Int32>
    /// Leaves under each internal node (over locations; over points that is its size).
    let leafCount: UnsafeMutablePointer<Int32>?
    /// The leaves in left-to-right order of the tree (`leafOrder`) and where each internal
    /// node's leaves start in it (`leafStart`): a subtree's leaves, in the order a depth-first
    /// walk meets them, are one contiguous run.
    let leafOrder: UnsafeMutablePointer<Int32>
    let leafStart: UnsafeMutablePointer<Int32>

    // The walk's own buffers: with point rows a queue of (node, cluster id) pairs (at most one
    // entry per node; over locations a leaf can carry a cluster); when scanning, by merge the
    // (provisional) cluster it carries, or -1, and its depth in the walk, which the renumbering
    // needs, and by provisional cluster the depth of the node where it splits (-1 if it does
    // not) and its first child cluster (its children are numbered in a row).
    var queueNode: UnsafeMutablePointer<Int32>? = nil
    var queueCluster: UnsafeMutablePointer<Int32>? = nil
    var carried: UnsafeMutablePointer<Carried>? = nil
    var splitDepth: UnsafeMutablePointer<Int32>? = nil
    var firstChild: UnsafeMutablePointer<Int32>? = nil
    /// A node's parts and their sizes, those big enough to be clusters, and the stack that
    /// collects them: never more than n + 1 each.
    let stack: UnsafeMutablePointer<Int32>
    let parts: UnsafeMutablePointer<Int32>
    let partSize: UnsafeMutablePointer<Int32>
    let big: UnsafeMutablePointer<Int32>
    var head = 0, tail = 1, next = 0
    /// Provisional cluster index -> final, when scanning (see `renumberBreadthFirst`).
    var final: [Int32] = []

    /// Packs the merges and orders the leaves (the walk's inputs).
    init(_ linkage: SingleLinkageTree, located: LeafView?, minClusterSize: Int, ties: TieRule, threads: Int,
         into out: RowBuffers) {
        n = linkage.pointCount
        points = located?.pointCount ?? n
        self.minClusterSize = minClusterSize
        self.threads = threads
        self.located = located
        self.out = out
        scan = out.byLeaf
        drops = out.byLeaf ? UnsafeMutablePointer<Drop>.allocate(capacity: n) : nil
        merges = UnsafeMutablePointer<Merge>.allocate(capacity: n - 1)
        minRow = UnsafeMutablePointer<Int32>.allocate(capacity: n - 1)
        leafCount = located == nil ? nil : UnsafeMutablePointer<Int32>.allocate(capacity: n - 1)
        Self.packMerges(linkage, located: located, ties: ties, threads: threads, into: merges, minRow: minRow,
                        leafCount: leafCount)
        leafOrder = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        leafStart = UnsafeMutablePointer<Int32>.allocate(capacity: n - 1)
        Self.orderLeaves(n: n, merges: merges, leafCount: leafCount, leafOrder: leafOrder, leafStart: leafStart)
        stack = .allocate(capacity: n + 1)
        parts = .allocate(capacity: n + 1)
        partSize = .allocate(capacity: n + 1)
        big = .allocate(capacity: n + 1)
    }

    /// Frees what the leaf outputs still read (the walk's own buffers go at the walk's end).
    func deallocate() {
        drops?.deallocate(); leafCount?.deallocate(); leafOrder.deallocate(); leafStart.deallocate()
    }

    @inline(__always) mutating func addCluster(parent: Int32, birth: Double, size: Int) -> Int32 {
        out.clusterParent[clusterCount] = parent; out.clusterBirth[clusterCount] = birth
        out.clusterSize[clusterCount] = Int32(size); out.stability[clusterCount] = 0
        out.maxLambda[clusterCount] = 0
        clusterCount += 1
        return Int32(points + clusterCount - 1)
    }

    @inline(__always) mutating func addRow(parent p: Int32, child c: Int32, lambda l: Double, size: Int32) {
        if Int(c) < points { out.rowOfPoint[Int(c)] = Int32(rowCount) }
        out.parent[rowCount] = p; out.child[rowCount] = c; out.lambda[rowCount] = l; out.childSize[rowCount] = size
        rowCount += 1
    }

    /// A leaf's points: the point itself, or a location's rows (ascending).
    @inline(__always) func leafRows(_ leaf: Int) -> Range<Int> {
        guard let located else { return leaf..<(leaf + 1) }
        return Int(located.rowStart[leaf])..<Int(located.rowStart[leaf + 1])
    }
    @inline(__always) func leafRow(_ k: Int) -> Int32 { located.map { $0.rows[k] } ?? Int32(k) }
    @inline(__always) func leafWeight(_ leaf: Int32) -> Int32 { located.map { $0.weight[Int(leaf)] } ?? 1 }

    /// Points of a leaf fall out of cluster `cid` at `lam`.
    @inline(__always) mutating func dropLeaf(_ leaf: Int32, from cid: Int32, at lam: Double) {
        if let drops {
            drops[dropCount] = Drop(lambda: lam, node: leaf, cluster: cid)
            dropCount += 1
            return
        }
        for k in leafRows(Int(leaf)) {
            let row = leafRow(k)
            addRow(parent: cid, child: row, lambda: lam, size: located?.rowWeight.map { $0[Int(row)] } ?? 1)
        }
    }

    @inline(__always) func minRowOf(_ id: Int32) -> Int32 {
        Int(id) < n ? (located.map { $0.rows[Int($0.rowStart[Int(id)])] } ?? id) : minRow[Int(id) - n]
    }

    /// A location of at least minClusterSize points carries a cluster on: at its core
    /// distance its points part from each other, all at once.
    @inline(__always) mutating func leafEvent(_ node: Int32, _ cid: Int32) {
        let inner = located!.inner[Int(node)]
        let lam = inner > 0 ? 1.0 / inner : Double.infinity
        dropLeaf(node, from: cid, at: lam)
        let c0 = Int(cid) - points
        out.stability[c0] += (lam - out.clusterBirth[c0]) * Double(leafWeight(node))
        if lam > out.maxLambda[c0] { out.maxLambda[c0] = lam }
    }

    /// Packs every merge into its record, and fills `minRow` (and `leafCount`). One at a time,
    /// no merge is marked as sharing its child's distance, so each is a split of its own.
    private static func packMerges(
        _ linkage: SingleLinkageTree, located: LeafView?, ties: TieRule, threads: Int, into merges: UnsafeMutablePointer<Merge>,
        minRow: UnsafeMutablePointer<Int32>, leafCount: UnsafeMutablePointer<Int32>?
    ) {
        let n = linkage.pointCount, joint = ties == .allAtOnce
        linkage.distance.withUnsafeBufferPointer { distance in
        linkage.left.withUnsafeBufferPointer { left in
        linkage.right.withUnsafeBufferPointer { right in
        linkage.size.withUnsafeBufferPointer { size in
            // Records are independent of each other (the children's fields come from the
            // linkage's own arrays), so they are packed on all workers.
            let shared = SharedBuffer(base: merges)
            Parallel.forEachChunk(count: n - 1, grain: 1 << 14, threads: threads) { chunk, _ in
                for i in chunk {
                    let l = left[i], r = right[i], d = distance[i]
                    var m = Merge(distance: d, left: l, right: r, size: size[i], leftSize: 1, rightSize: 1, same: 0)
                    if Int(l) >= n {
                        m.leftSize = size[Int(l) - n]
                        if joint && distance[Int(l) - n] == d { m.same |= 1 }
                    } else if let located {
                        m.leftSize = located.weight[Int(l)]
                        if located.inner[Int(l)] == d { m.same |= 4 }
                    }
                    if Int(r) >= n {
                        m.rightSize = size[Int(r) - n]
                        if joint && distance[Int(r) - n] == d { m.same |= 2 }
                    } else if let located {
                        m.rightSize = located.weight[Int(r)]
                        if located.inner[Int(r)] == d { m.same |= 8 }
                    }
                    shared[i] = m
                }
            }
            @inline(__always) func leafMinRow(_ leaf: Int32) -> Int32 {
                located.map { $0.rows[Int($0.rowStart[Int(leaf)])] } ?? leaf
            }
            for i in 0..<(n - 1) {
                let l = left[i], r = right[i]
                minRow[i] = min(Int(l) < n ? leafMinRow(l) : minRow[Int(l) - n], Int(r) < n ? leafMinRow(r) : minRow[Int(r) - n])
                if let leafCount {
                    leafCount[i] = (Int(l) < n ? 1 : leafCount[Int(l) - n]) + (Int(r) < n ? 1 : leafCount[Int(r) - n])
                }
            }
        }}}}
    }

    /// Fills `leafOrder` and `leafStart` top-down in one pass (parents come after their children).
    private static func orderLeaves(
        n: Int, merges: UnsafeMutablePointer<Merge>, leafCount: UnsafeMutablePointer<Int32>?,
        leafOrder: UnsafeMutablePointer<Int32>, leafStart: UnsafeMutablePointer<Int32>
    ) {
        leafStart[n - 2] = 0
        for i in stride(from: n - 2, through: 0, by: -1) {
            let m = merges[i], lo = leafStart[i]
            if Int(m.left) < n { leafOrder[Int(lo)] = m.left } else { leafStart[Int(m.left) - n] = lo }
            let ro = lo + (leafCount.map { Int(m.left) < n ? 1 : $0[Int(m.left) - n] } ?? m.leftSize)
            if Int(m.right) < n { leafOrder[Int(ro)] = m.right } else { leafStart[Int(m.right) - n] = ro }
        }
    }
}

extension CondenseWalk {
    /// Walks every node that carries a cluster, parents before children, numbering clusters
    /// breadth-first. With point rows it goes breadth-first itself, over a queue, so rows come
    /// in that order. Without them it scans the merges downwards instead: a child merge has a
    /// smaller index than its parent, so parents still come first, and every merge it reads is
    /// next in memory, where the queue's order jumped across the records. A cluster's own
    /// nodes form one chain, met top-down either way, so each cluster's stability is summed in
    /// the same order. Clusters then get provisional ids, renumbered breadth-first at the end
    /// (`renumberBreadthFirst`).
    mutating func run(rootNode: Int) {
        _ = addCluster(parent: -1, birth: 0, size: located?.totalWeight ?? points)
        allocateWalk(rootNode: rootNode)
        while let (node, cid, depth) = nextNode() {
            let top = merges[Int(node) - n]
            let d = top.distance
            let lam = d > 0 ? 1.0 / d : Double.infinity
            let partCount = collectParts(node, top)
            var bigCount = 0
            var leaving = 0
            for j in 0..<partCount where Int(partSize[j]) >= minClusterSize { big[bigCount] = parts[j]; bigCount += 1 }
            let c0 = Int(cid) - points
            // Two or more big parts become child clusters of `cid` born at `lam`; one carries
            // `cid` on.
            if bigCount >= 2 {
                sortSiblings(bigCount)
                if let splitDepth { splitDepth[c0] = depth; firstChild![c0] = Int32(clusterCount) }
                for i in 0..<bigCount {
                    let b = big[i]
                    let size = Int(b) < n ? Int(leafWeight(b)) : Int(merges[Int(b) - n].size)
                    let newID = addCluster(parent: cid, birth: lam, size: size)
                    if let splitDepth { splitDepth[Int(newID) - points] = -1 }
                    // (Scanning, the clusters' rows are written after the renumbering.)
                    if !scan { addRow(parent: cid, child: newID, lambda: lam, size: Int32(size)) }
                    leaving += size
                    push(b, newID, depth: depth)
                }
            } else if bigCount == 1 {
                push(big[0], cid, depth: depth)
            }
            // Points of the parts too small to be clusters fall out here, in depth-first
            // order: a run of `leafOrder`.
            for j in 0..<partCount {
                let c = parts[j]
                let size = Int(partSize[j])
                if size >= minClusterSize { continue }
                leaving += abs(size)
                if Int(c) < n || scan {
                    // (An internal node stands for its leaves: see `drops`.)
                    dropLeaf(c, from: cid, at: lam)
                } else if let leafCount {
                    let lo = Int(leafStart[Int(c) - n])
                    for k in lo..<(lo + Int(leafCount[Int(c) - n])) { dropLeaf(leafOrder[k], from: cid, at: lam) }
                } else {
                    let lo = Int(leafStart[Int(c) - n])
                    for k in lo..<(lo + size) { addRow(parent: cid, child: leafOrder[k], lambda: lam, size: 1) }
                }
            }
            if leaving > 0 {
                out.stability[c0] += (lam - out.clusterBirth[c0]) * Double(leaving)
                if lam > out.maxLambda[c0] { out.maxLambda[c0] = lam }
            }
            if scan {
                for i in 0..<bigCount where Int(big[i]) < n {
                    leafEvent(big[i], bigCount == 1 ? cid : Int32(clusterCount - bigCount + i + points))
                }
            }
        }
        if let splitDepth {
            final = Self.renumberBreadthFirst(clusterCount: clusterCount, points: points, splitDepth: splitDepth,
                                              firstChild: firstChild!, out: out)
            rowCount = clusterCount - 1
        }
        deallocateWalk()
    }

    private mutating func allocateWalk(rootNode: Int) {
        if scan {
            carried = .allocate(capacity: n - 1)
            splitDepth = .allocate(capacity: out.clusterCapacity)
            firstChild = .allocate(capacity: out.clusterCapacity)
        } else {
            queueNode = .allocate(capacity: 2 * n)
            queueCluster = .allocate(capacity: 2 * n)
        }
        splitDepth?[0] = -1
        if let carried {
            let shared = SharedBuffer(base: carried)
            Parallel.forEachChunk(count: n - 1, grain: 1 << 16, threads: threads) { chunk, _ in
                for i in chunk { shared[i] = Carried(cluster: -1, depth: 0) }
            }
            carried[rootNode - n] = Carried(cluster: Int32(points), depth: 0)
        } else {
            queueNode![0] = Int32(rootNode); queueCluster![0] = Int32(points)
        }
        head = 0; tail = 1
        next = rootNode - n
    }

    /// Frees the walk's buffers and the merges: the leaf outputs are made without them, so
    /// this stage's memory peaks at the end of the walk.
    private func deallocateWalk() {
        queueNode?.deallocate(); queueCluster?.deallocate(); carried?.deallocate()
        splitDepth?.deallocate(); firstChild?.deallocate()
        stack.deallocate(); parts.deallocate(); partSize.deallocate(); big.deallocate()
        merges.deallocate(); minRow.deallocate()
    }

    /// The next node carrying a cluster, with that cluster and its depth; nil when done. (The
    /// queue hands leaves on too: their events are taken here.)
    @inline(__always) private mutating func nextNode() -> (node: Int32, cluster: Int32, depth: Int32)? {
        if let carried {
            while next >= 0 && carried[next].cluster < 0 { next -= 1 }
            if next < 0 { return nil }
            let node = (Int32(n + next), carried[next].cluster, carried[next].depth)
            next -= 1
            return node
        }
        while head != tail {
            let node = queueNode![head], cid = queueCluster![head]
            head += 1
            if Int(node) < n { leafEvent(node, cid); continue }
            return (node, cid, 0)
        }
        return nil
    }

    /// Collects the parts this cluster splits into when every edge of weight d goes (with
    /// their sizes, from the records already read) into `parts` and `partSize`; returns how
    /// many. A location whose core distance is d parts into single points here: its size is
    /// negated so it falls out whatever its weight (see `Merge.same`).
    @inline(__always) private func collectParts(_ node: Int32, _ top: Merge) -> Int {
        if top.same == 0 {
            parts[0] = top.left; partSize[0] = top.leftSize
            parts[1] = top.right; partSize[1] = top.rightSize
            return 2
        }
        var partCount = 0
        var sp = 1
        stack[0] = node
        while sp > 0 {
            sp -= 1
            let m = merges[Int(stack[sp]) - n]
            if m.same & 1 != 0 { stack[sp] = m.left; sp += 1 } else {
                parts[partCount] = m.left; partSize[partCount] = m.same & 4 != 0 ? -m.leftSize : m.leftSize
                partCount += 1
            }
            if m.same & 2 != 0 { stack[sp] = m.right; sp += 1 } else {
                parts[partCount] = m.right; partSize[partCount] = m.same & 8 != 0 ? -m.rightSize : m.rightSize
                partCount += 1
            }
        }
        return partCount
    }

    /// Hands a part on to the walk, carrying cluster `id`.
    @inline(__always) private mutating func push(_ part: Int32, _ id: Int32, depth: Int32) {
        if let carried {
            // A leaf's event waits until this node's own is summed, as in the queue.
            if Int(part) >= n { carried[Int(part) - n] = Carried(cluster: id, depth: depth + 1) }
        } else {
            queueNode![tail] = part; queueCluster![tail] = id; tail += 1
        }
    }

    /// Sibling clusters in order of their smallest input row (distinct rows).
    @inline(__always) private func sortSiblings(_ bigCount: Int) {
        for i in 1..<bigCount {
            let b = big[i], key = minRowOf(b)
            var j = i
            while j > 0 && minRowOf(big[j - 1]) > key { big[j] = big[j - 1]; j -= 1 }
            big[j] = b
        }
    }

    /// Gives the clusters of a scanning walk (provisional ids in the order the scan made them)
    /// the ids the breadth-first walk gives, and writes their rows; returns each provisional
    /// cluster's final index (id - `points`). The queue meets nodes level by level, and within
    /// a level left to right (children in the order they were pushed), so its splits come in
    /// order of (depth of the splitting node, the splitting cluster's preorder rank in the
    /// cluster tree), each numbering its children in a row.
    private static func renumberBreadthFirst(
        clusterCount c: Int, points: Int, splitDepth: UnsafeMutablePointer<Int32>,
        firstChild: UnsafeMutablePointer<Int32>, out: RowBuffers
    ) -> [Int32] {
        var childCount = [Int32](repeating: 0, count: c)
        for k in 1..<max(c, 1) { childCount[Int(out.clusterParent[k]) - points] += 1 }
        @inline(__always) func children(_ k: Int) -> Range<Int> {
            splitDepth[k] < 0 ? 0..<0 : Int(firstChild[k])..<(Int(firstChild[k]) + Int(childCount[k]))
        }
        var splits: [(key: UInt64, cluster: Int32)] = []
        var stack: [Int32] = [0], rank: UInt64 = 0
        while let k = stack.popLast() {
            if splitDepth[Int(k)] >= 0 { splits.append(((UInt64(splitDepth[Int(k)]) << 32) | rank, k)) }
            rank += 1
            for child in children(Int(k)).reversed() { stack.append(Int32(child)) }
        }
        splits.sort { $0.key < $1.key }
        var final = [Int32](repeating: -1, count: c)
        final[0] = 0
        var next: Int32 = 1
        for split in splits {
            for child in children(Int(split.cluster)) { final[child] = next; next += 1 }
        }
        precondition(Int(next) == c, "every cluster but the root is the child of one split")

        let parent = Array(UnsafeBufferPointer(start: out.clusterParent, count: c))
        let birth = Array(UnsafeBufferPointer(start: out.clusterBirth, count: c))
        let size = Array(UnsafeBufferPointer(start: out.clusterSize, count: c))
        let stability = Array(UnsafeBufferPointer(start: out.stability, count: c))
        let maxLambda = Array(UnsafeBufferPointer(start: out.maxLambda, count: c))
        for k in 0..<c {
            let f = Int(final[k])
            out.clusterParent[f] = k == 0 ? -1 : Int32(points) + final[Int(parent[k]) - points]
            out.clusterBirth[f] = birth[k]; out.clusterSize[f] = size[k]
            out.stability[f] = stability[k]; out.maxLambda[f] = maxLambda[k]
        }
        // The clusters' rows, in id order as the queue writes them.
        for k in 1..<max(c, 1) {
            out.parent[k - 1] = out.clusterParent[k]; out.child[k - 1] = Int32(points + k)
            out.lambda[k - 1] = out.clusterBirth[k]; out.childSize[k - 1] = out.clusterSize[k]
        }
        return final
    }

    /// Where each leaf's points fall out (its cluster and lambda), written from the walk's
    /// events on all workers; empty without events (with point rows). Every leaf falls out
    /// once, so the events write every element, each once.
    func leafOutputs(_ linkage: SingleLinkageTree) -> (cluster: [Int32], lambda: [Double]) {
        guard let drops else { return ([], []) }
        let n = n, points = points, dropCount = dropCount, final = final
        let leafStart = leafStart, leafOrder = leafOrder, leafCount = leafCount
        var leafLambda = [Double]()
        let leafCluster = [Int32].initialized(count: n) { cluster in
        leafLambda = [Double].initialized(count: n) { lambda in
            let clusters = SharedBuffer(base: cluster), lambdas = SharedBuffer(base: lambda)
            linkage.size.withUnsafeBufferPointer { size in
            final.withUnsafeBufferPointer { final in
                Parallel.forEachChunk(count: dropCount, grain: 1 << 12, threads: threads) { chunk, _ in
                    for e in chunk {
                        let drop = drops[e]
                        let cid = Int32(points) + final[Int(drop.cluster) - points], lam = drop.lambda
                        let c = Int(drop.node)
                        if c < n { clusters[c] = cid; lambdas[c] = lam; continue }
                        let lo = Int(leafStart[c - n])
                        let leaves = Int(leafCount.map { $0[c - n] } ?? size[c - n])
                        for k in lo..<(lo + leaves) {
                            let leaf = Int(leafOrder[k])
                            clusters[leaf] = cid; lambdas[leaf] = lam
                        }
                    }
                }
            }}
        }}
        return (leafCluster, leafLambda)
    }
}

/// The condensed cluster tree of HDBSCAN (Campello, Moulavi & Sander 2013), in the row form
/// scikit-learn and the hdbscan library use, plus per-cluster summaries.
///
/// Rows: `(parent, child, lambda, childSize)`. `parent` is a cluster id; `child` is an input
/// row (`< pointCount`, `childSize == 1`: the point falls out of `parent` at `lambda`) or a
/// cluster id (`>= pointCount`: a child cluster born at `lambda`). Cluster ids start at
/// `pointCount` (the root, holding every point) and every child's id is larger than its
/// parent's. `lambda = 1 / distance`, infinite at distance 0.
///
/// **Ties.** Mutual-reachability weights tie often. Following HDBSCAN*'s definition (remove
/// *all* edges of the current weight at once), a run of single-linkage merges at one equal
/// distance is condensed as a single n-ary split: every part that reaches `minClusterSize`
/// becomes a child cluster when at least two do, the smaller parts' points fall out at that
/// lambda. The components at every distance are the same for every MST of the graph, so this
/// tree depends only on the set of points and the parameters, not on their order or on which
/// of several equal edges the MST holds. Where no ties matter it is the tree scikit-learn
/// builds. Sibling clusters get ids in order of the smallest input row they contain.
public struct CondensedTree: Sendable, Equatable {
    /// Number of input points.
    public let pointCount: Int
    public private(set) var parent: [Int32] = []
    public private(set) var child: [Int32] = []
    public private(set) var lambda: [Double] = []
    public private(set) var childSize: [Int32] = []

    /// Per cluster (index `id - pointCount`): parent cluster id (-1 for the root), lambda at
    /// birth (0 for the root), number of points, and stability
    /// `Σ_points (lambda_leave - lambda_birth)`, summed event by event in ascending lambda so
    /// the value does not depend on input order.
    public private(set) var clusterParent: [Int32] = []
    public private(set) var clusterBirth: [Double] = []
    public private(set) var clusterSize: [Int32] = []
    public private(set) var stability: [Double] = []
    /// Largest lambda among a cluster's own rows (its "death"); 0 for a cluster without rows.
    public private(set) var maxLambda: [Double] = []
    /// For each input row, the index of the row in which it falls out.
    public private(set) var rowOfPoint: [Int32] = []
    /// Without point rows (see `init(linkage:minClusterSize:pointRows:threads:)` and
    /// `init(locatedLinkage:…)`): by leaf (a point, or a location), the cluster its points fall
    /// out of and the lambda at which they do; empty otherwise.
    private(set) var leafCluster: [Int32] = []
    private(set) var leafLambda: [Double] = []

    /// Number of clusters in the tree, the root included.
    public var clusterCount: Int { clusterParent.count }
    /// The root cluster's id.
    public var root: Int { pointCount }

    /// Condenses a single-linkage tree.
    /// - Parameters:
    ///   - minClusterSize: the smallest part that counts as a cluster (at least 2).
    ///   - threads: workers that allocate the output arrays (the walk itself is sequential);
    ///     the result is the same for any value.
    /// - Complexity: O(n) time and memory beyond the input.
    public init(linkage: SingleLinkageTree, minClusterSize: Int, threads: Int = 1) {
        self.init(linkage: linkage, leaves: nil, minClusterSize: minClusterSize, pointRows: true, threads: threads)
    }

    /// The same tree, optionally without its point rows: then where each point falls out is
    /// kept by point (`leafCluster`, `leafLambda`), which is all the labelling needs. Labelling
    /// from the rows reads two rows at random per point (`rowOfPoint`, then `parent` and
    /// `lambda`); by point it reads in order.
    init(linkage: SingleLinkageTree, minClusterSize: Int, pointRows: Bool, threads: Int) {
        self.init(linkage: linkage, leaves: nil, minClusterSize: minClusterSize, pointRows: pointRows, threads: threads)
    }

    /// Condenses a single-linkage tree over weighted locations (see `LocatedLeaves`): the tree
    /// a linkage over every point would condense to, its rows naming points. Without
    /// `pointRows` the rows hold the child clusters only, and where each leaf's points fall
    /// out is kept by leaf (`leafCluster`, `leafLambda`: all the points of a location fall out
    /// together), which is all the labelling needs: at 10M points writing a row per point
    /// and reading it back cost seconds.
    init(locatedLinkage linkage: SingleLinkageTree, leaves: LocatedLeaves, minClusterSize: Int, pointRows: Bool,
         threads: Int = 1) {
        self.init(linkage: linkage, leaves: leaves, minClusterSize: minClusterSize, pointRows: pointRows,
                  threads: threads)
    }

    private init(linkage: SingleLinkageTree, leaves: LocatedLeaves?, minClusterSize: Int, pointRows: Bool, threads: Int) {
        let n = leaves?.pointCount ?? linkage.pointCount
        pointCount = n
        precondition(minClusterSize >= 2, "minClusterSize must be at least 2")
        guard let rootNode = linkage.root, n >= 2 else {
            // Zero or one point: just the root; one point gets a row at lambda 0 so every
            // point has one.
            clusterParent = [-1]; clusterBirth = [0]; clusterSize = [Int32(n)]
            stability = [0]; maxLambda = [0]
            rowOfPoint = n == 1 ? [0] : []
            if n == 1 { parent = [Int32(n)]; child = [0]; lambda = [0]; childSize = [1] }
            return
        }
        // Every split makes at least two clusters of at least minClusterSize points, so there
        // are at most 2n/minClusterSize clusters besides the root; every point and every
        // non-root cluster has one row. The hot loop writes through raw buffers of those
        // sizes (array appends spent much of this stage's time in uniqueness checks).
        let maxClusters = 2 * (n / minClusterSize) + 1
        // The per-row arrays (and rowOfPoint) are the final arrays, written through their
        // buffers and cut to length at the end: copying them out of scratch buffers took 13 ms
        // and 24 MB more peak memory at 1M points.
        let rowCapacity = (pointRows ? n : 0) + maxClusters
        var rowParent = [Int32].filled(count: rowCapacity, threads: threads) { _ in 0 }
        var rowChild = [Int32].filled(count: rowCapacity, threads: threads) { _ in 0 }
        var rowLambda = [Double].filled(count: rowCapacity, threads: threads) { _ in 0 }
        var rowChildSize = [Int32].filled(count: rowCapacity, threads: threads) { _ in 0 }
        var pointRow = [Int32].filled(count: pointRows ? n : 1, threads: threads) { _ in 0 }
        var leafCluster = [Int32](), leafLambda = [Double]()
        var rowCount = 0, clusterCount = 0
        let clusterBuffers = ClusterBuffers(clusters: maxClusters)
        rowParent.withUnsafeMutableBufferPointer { bParent in
        rowChild.withUnsafeMutableBufferPointer { bChild in
        rowLambda.withUnsafeMutableBufferPointer { bLambda in
        rowChildSize.withUnsafeMutableBufferPointer { bChildSize in
        pointRow.withUnsafeMutableBufferPointer { bPointRow in
            let out = RowBuffers(parent: bParent.baseAddress!, child: bChild.baseAddress!, lambda: bLambda.baseAddress!,
                                 childSize: bChildSize.baseAddress!, rowOfPoint: bPointRow.baseAddress!,
                                 byLeaf: !pointRows,
                                 clusters: clusterBuffers)

            if let leaves {
                leaves.weight.withUnsafeBufferPointer { weight in
                leaves.inner.withUnsafeBufferPointer { inner in
                leaves.rowStart.withUnsafeBufferPointer { rowStart in
                leaves.rows.withUnsafeBufferPointer { rows in
                    let view = LeafView(pointCount: leaves.pointCount, weight: weight.baseAddress!, inner: inner.baseAddress!,
                                        rowStart: rowStart.baseAddress!, rows: rows.baseAddress!)
                    (rowCount, clusterCount, leafCluster, leafLambda) = Self.condense(linkage, leaves: view, rootNode: rootNode,
                                                             minClusterSize: minClusterSize, threads: threads, into: out)
                }}}}
            } else {
                (rowCount, clusterCount, leafCluster, leafLambda) = Self.condense(linkage, leaves: nil, rootNode: rootNode,
                                                         minClusterSize: minClusterSize, threads: threads, into: out)
            }
        }}}}}

        rowParent.removeLast(rowCapacity - rowCount); rowChild.removeLast(rowCapacity - rowCount)
        rowLambda.removeLast(rowCapacity - rowCount); rowChildSize.removeLast(rowCapacity - rowCount)
        parent = rowParent; child = rowChild; lambda = rowLambda; childSize = rowChildSize
        rowOfPoint = pointRows ? pointRow : []
        self.leafCluster = leafCluster
        self.leafLambda = leafLambda
        func take<T>(_ buffer: UnsafeMutablePointer<T>, _ count: Int) -> [T] {
            defer { buffer.deallocate() }
            return Array(UnsafeBufferPointer(start: buffer, count: count))
        }
        clusterParent = take(clusterBuffers.clusterParent, clusterCount)
        clusterBirth = take(clusterBuffers.clusterBirth, clusterCount)
        clusterSize = take(clusterBuffers.clusterSize, clusterCount)
        stability = take(clusterBuffers.stability, clusterCount)
        maxLambda = take(clusterBuffers.maxLambda, clusterCount)
    }

    /// The condensing walk (see `init`), writing rows and clusters into `out`; returns how many
    /// of each it wrote. A function of its own so that its counters stay in registers.
    private static func condense(
        _ linkage: SingleLinkageTree, leaves located: LeafView?, rootNode: Int, minClusterSize: Int, threads: Int,
        into out: RowBuffers
    ) -> (rows: Int, clusters: Int, leafCluster: [Int32], leafLambda: [Double]) {
        // `n` counts the linkage's leaves (node ids below it are leaves), `points` the points
        // (cluster ids start there). They differ only over locations.
        let n = linkage.pointCount
        let points = located?.pointCount ?? n
        var rowCount = 0, clusterCount = 0
        @inline(__always) func addCluster(parent: Int32, birth: Double, size: Int) -> Int32 {
            out.clusterParent[clusterCount] = parent; out.clusterBirth[clusterCount] = birth
            out.clusterSize[clusterCount] = Int32(size); out.stability[clusterCount] = 0
            out.maxLambda[clusterCount] = 0
            clusterCount += 1
            return Int32(points + clusterCount - 1)
        }
        @inline(__always) func addRow(parent p: Int32, child c: Int32, lambda l: Double, size: Int32) {
            if Int(c) < points { out.rowOfPoint[Int(c)] = Int32(rowCount) }
            out.parent[rowCount] = p; out.child[rowCount] = c; out.lambda[rowCount] = l; out.childSize[rowCount] = size
            rowCount += 1
        }
        _ = addCluster(parent: -1, birth: 0, size: points)
        // A leaf's points: the point itself, or a location's rows (ascending).
        @inline(__always) func leafRows(_ leaf: Int) -> Range<Int> {
            guard let located else { return leaf..<(leaf + 1) }
            return Int(located.rowStart[leaf])..<Int(located.rowStart[leaf + 1])
        }
        @inline(__always) func leafRow(_ k: Int) -> Int32 { located.map { $0.rows[k] } ?? Int32(k) }
        @inline(__always) func leafWeight(_ leaf: Int32) -> Int32 { located.map { $0.weight[Int(leaf)] } ?? 1 }
        // Without point rows, where points fall out is noted as one event per leaf or per part
        // too small to be a cluster, in walk order, and written by leaf after the walk, on all
        // workers: the walk's own writes by leaf landed at random in memory, one thread waiting
        // on each (40 % of this stage at 1M points).
        let drops = out.byLeaf ? UnsafeMutablePointer<Drop>.allocate(capacity: n) : nil
        defer { drops?.deallocate() }
        var dropCount = 0
        // Points of a leaf fall out of cluster `cid` at `lam`.
        @inline(__always) func dropLeaf(_ leaf: Int32, from cid: Int32, at lam: Double) {
            if let drops {
                drops[dropCount] = Drop(lambda: lam, node: leaf, cluster: cid)
                dropCount += 1
                return
            }
            for k in leafRows(Int(leaf)) { addRow(parent: cid, child: leafRow(k), lambda: lam, size: 1) }
        }

        // The walk below visits merges in tree order, not memory order, so it is bound by
        // memory latency: each merge is packed into one 32-byte record that also carries its
        // children's sizes and whether each child merges at the same distance, so a step of the
        // walk reads one record instead of three. (Packing the fields at all took this stage
        // from 0.12 s to 0.08 s at 1M points; the child fields from 0.08 s to the figure in
        // README.)
        let merges = UnsafeMutablePointer<Merge>.allocate(capacity: n - 1)
        // (`merges` and `minRow` are freed with the walk's buffers, before `leafCluster` is made.)
        // Smallest input row below each internal node, to order sibling clusters; computed in
        // the same pass that packs the merges (children come before their parents).
        let minRow = UnsafeMutablePointer<Int32>.allocate(capacity: n - 1)
        // Leaves under each internal node; over points that is its size.
        let leafCount = located == nil ? nil : UnsafeMutablePointer<Int32>.allocate(capacity: n - 1)
        defer { leafCount?.deallocate() }
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
                        if distance[Int(l) - n] == d { m.same |= 1 }
                    } else if let located {
                        m.leftSize = located.weight[Int(l)]
                        if located.inner[Int(l)] == d { m.same |= 4 }
                    }
                    if Int(r) >= n {
                        m.rightSize = size[Int(r) - n]
                        if distance[Int(r) - n] == d { m.same |= 2 }
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
        // The points in left-to-right order of the tree (`leafOrder`) and where each internal
        // node's points start in it (`leafStart`): a subtree's points, in the order a
        // depth-first walk meets them, are one contiguous run. Filled top-down in one pass
        // (parents come after their children).
        let leafOrder = UnsafeMutablePointer<Int32>.allocate(capacity: n)
        let leafStart = UnsafeMutablePointer<Int32>.allocate(capacity: n - 1)
        defer { leafOrder.deallocate(); leafStart.deallocate() }
        leafStart[n - 2] = 0
        for i in stride(from: n - 2, through: 0, by: -1) {
            let m = merges[i], lo = leafStart[i]
            if Int(m.left) < n { leafOrder[Int(lo)] = m.left } else { leafStart[Int(m.left) - n] = lo }
            let ro = lo + (leafCount.map { Int(m.left) < n ? 1 : $0[Int(m.left) - n] } ?? m.leftSize)
            if Int(m.right) < n { leafOrder[Int(ro)] = m.right } else { leafStart[Int(m.right) - n] = ro }
        }
        // Provisional cluster index -> final, when scanning (see `renumberBreadthFirst`).
        var final: [Int32] = []
        do {
            @inline(__always) func minRowOf(_ id: Int32) -> Int32 {
                Int(id) < n ? (located.map { $0.rows[Int($0.rowStart[Int(id)])] } ?? id) : minRow[Int(id) - n]
            }
            // A location of at least minClusterSize points carries a cluster on: at its core
            // distance its points part from each other, all at once.
            @inline(__always) func leafEvent(_ node: Int32, _ cid: Int32) {
                let inner = located!.inner[Int(node)]
                let lam = inner > 0 ? 1.0 / inner : Double.infinity
                dropLeaf(node, from: cid, at: lam)
                let c0 = Int(cid) - points
                out.stability[c0] += (lam - out.clusterBirth[c0]) * Double(leafWeight(node))
                if lam > out.maxLambda[c0] { out.maxLambda[c0] = lam }
            }

            // The walk visits every node that carries a cluster, parents before children, and
            // numbers clusters breadth-first. With point rows it goes breadth-first itself, over
            // a queue of (node, cluster id) pairs (at most one entry per node; over locations a
            // leaf can carry a cluster), so rows come in that order. Without them it scans the
            // merges downwards instead: a child merge has a smaller index than its parent, so
            // parents still come first, and every merge it reads is next in memory, where the
            // queue's order jumped across the records (the breadth-first reads were 40 % of this
            // stage at 1M points). A cluster's own nodes form one chain, met top-down either
            // way, so each cluster's stability is summed in the same order. Clusters then get
            // provisional ids, renumbered breadth-first at the end (`renumberBreadthFirst`).
            let scan = out.byLeaf
            let queueNode = scan ? nil : UnsafeMutablePointer<Int32>.allocate(capacity: 2 * n)
            let queueCluster = scan ? nil : UnsafeMutablePointer<Int32>.allocate(capacity: 2 * n)
            // By merge, when scanning: the (provisional) cluster it carries, or -1, and its depth
            // in the walk, which the renumbering needs.
            let carried = scan ? UnsafeMutablePointer<Carried>.allocate(capacity: n - 1) : nil
            // By provisional cluster, when scanning: the depth of the node where it splits (-1 if
            // it does not) and its first child cluster (its children are numbered in a row).
            let splitDepth = scan ? UnsafeMutablePointer<Int32>.allocate(capacity: out.clusterCapacity) : nil
            let firstChild = scan ? UnsafeMutablePointer<Int32>.allocate(capacity: out.clusterCapacity) : nil
            // `stack` and `parts` never hold more than n + 1.
            let stack = UnsafeMutablePointer<Int32>.allocate(capacity: n + 1)
            let parts = UnsafeMutablePointer<Int32>.allocate(capacity: n + 1)
            let partSize = UnsafeMutablePointer<Int32>.allocate(capacity: n + 1)
            let big = UnsafeMutablePointer<Int32>.allocate(capacity: n + 1)
            defer {
                queueNode?.deallocate(); queueCluster?.deallocate(); carried?.deallocate()
                splitDepth?.deallocate(); firstChild?.deallocate()
                stack.deallocate(); parts.deallocate(); partSize.deallocate(); big.deallocate()
                merges.deallocate(); minRow.deallocate()
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
            var head = 0, tail = 1
            var next = rootNode - n
            while true {
                let node: Int32, cid: Int32, depth: Int32
                if let carried {
                    while next >= 0 && carried[next].cluster < 0 { next -= 1 }
                    if next < 0 { break }
                    node = Int32(n + next); cid = carried[next].cluster; depth = carried[next].depth
                    next -= 1
                } else {
                    if head == tail { break }
                    node = queueNode![head]; cid = queueCluster![head]; depth = 0
                    head += 1
                    if Int(node) < n { leafEvent(node, cid); continue }
                }
                let top = merges[Int(node) - n]
                let d = top.distance
                let lam = d > 0 ? 1.0 / d : Double.infinity

                // Collect the parts this cluster splits into when every edge of weight d goes
                // (with their sizes, from the records already read).
                // A location whose core distance is d parts into single points here: its size is
                // negated so it falls out whatever its weight (see `Merge.same`).
                var partCount = 0
                if top.same == 0 {
                    parts[0] = top.left; partSize[0] = top.leftSize
                    parts[1] = top.right; partSize[1] = top.rightSize
                    partCount = 2
                } else {
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
                }
                var bigCount = 0
                var leaving = 0
                for j in 0..<partCount where Int(partSize[j]) >= minClusterSize { big[bigCount] = parts[j]; bigCount += 1 }

                // Hands a part on to the walk, carrying cluster `id`.
                @inline(__always) func push(_ part: Int32, _ id: Int32) {
                    if let carried {
                        // A leaf's event waits until this node's own is summed, as in the queue.
                        if Int(part) >= n { carried[Int(part) - n] = Carried(cluster: id, depth: depth + 1) }
                    } else {
                        queueNode![tail] = part; queueCluster![tail] = id; tail += 1
                    }
                }
                let c0 = Int(cid) - points
                if bigCount >= 2 {
                    // Sibling clusters in order of their smallest input row (distinct rows).
                    for i in 1..<bigCount {
                        let b = big[i], key = minRowOf(b)
                        var j = i
                        while j > 0 && minRowOf(big[j - 1]) > key { big[j] = big[j - 1]; j -= 1 }
                        big[j] = b
                    }
                    if let splitDepth { splitDepth[c0] = depth; firstChild![c0] = Int32(clusterCount) }
                    for i in 0..<bigCount {
                        let b = big[i]
                        let size = Int(b) < n ? Int(leafWeight(b)) : Int(merges[Int(b) - n].size)
                        let newID = addCluster(parent: cid, birth: lam, size: size)
                        if let splitDepth { splitDepth[Int(newID) - points] = -1 }
                        // (Scanning, the clusters' rows are written after the renumbering.)
                        if !scan { addRow(parent: cid, child: newID, lambda: lam, size: Int32(size)) }
                        leaving += size
                        push(b, newID)
                    }
                } else if bigCount == 1 {
                    push(big[0], cid)
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
                final = renumberBreadthFirst(clusterCount: clusterCount, points: points, splitDepth: splitDepth,
                                             firstChild: firstChild!, out: out)
                rowCount = clusterCount - 1
            }
        }
        guard let drops else { return (rowCount, clusterCount, [], []) }
        // Made only now, with the walk's buffers (the merges above all) freed: this stage's
        // memory peaks at the end of the walk, and these need not be alive then.
        // Every leaf falls out once, so the events write every element, each once.
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
        return (rowCount, clusterCount, leafCluster, leafLambda)
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

    /// Child cluster ids of every cluster (index `id - pointCount`), in id order.
    public func clusterChildren() -> [[Int32]] {
        var result = [[Int32]](repeating: [], count: clusterCount)
        for k in 1..<max(clusterCount, 1) {
            result[Int(clusterParent[k]) - pointCount].append(Int32(pointCount + k))
        }
        return result
    }
}

/// One single-linkage merge, packed for the condensing walk (32 bytes).
private struct Merge {
    var distance: Double
    var left: Int32
    var right: Int32
    var size: Int32
    /// Points under the left and right child (1 for a point).
    var leftSize: Int32
    var rightSize: Int32
    /// Bit 0: the left child is a merge at this same distance; bit 1: the right child is.
    /// Over locations, bit 2: the left child is a location whose core distance is this
    /// distance (its points part here); bit 3: the right child is.
    var same: Int32
}

/// Points falling out of a cluster in the scanning walk: a leaf's, or those of every leaf under
/// an internal node (`node >= n`), at `lambda`, out of (provisional) `cluster`.
private struct Drop {
    var lambda: Double
    var node: Int32
    var cluster: Int32
}

/// A merge's place in the scanning walk: the (provisional) cluster it carries, -1 for none,
/// and its depth in the walk.
private struct Carried {
    var cluster: Int32
    var depth: Int32
}

/// The leaves of a single-linkage tree over distinct locations (`Locations`), numbered as
/// the linkage numbers them: each leaf's weight (points), core distance (the distance at which
/// its points part), and its rows, ascending, at `rows[rowStart[leaf] ..< rowStart[leaf + 1]]`.
struct LocatedLeaves {
    let pointCount: Int
    let weight: [Int32]
    let inner: [Double]
    let rowStart: [Int32]
    let rows: [Int32]
}

/// `LocatedLeaves` through pointers, for the condensing walk (no reference counting there).
private struct LeafView {
    let pointCount: Int
    let weight: UnsafePointer<Int32>
    let inner: UnsafePointer<Double>
    let rowStart: UnsafePointer<Int32>
    let rows: UnsafePointer<Int32>
}

/// Raw per-cluster output buffers of the condensing loop, sized by the bound in
/// `CondensedTree.init` (small: at most 2n/minClusterSize + 1 clusters).
private struct ClusterBuffers {
    let clusterParent: UnsafeMutablePointer<Int32>
    let clusterBirth: UnsafeMutablePointer<Double>
    let clusterSize: UnsafeMutablePointer<Int32>
    let stability: UnsafeMutablePointer<Double>
    let maxLambda: UnsafeMutablePointer<Double>
    let capacity: Int

    init(clusters: Int) {
        capacity = clusters
        clusterParent = .allocate(capacity: clusters); clusterBirth = .allocate(capacity: clusters)
        clusterSize = .allocate(capacity: clusters); stability = .allocate(capacity: clusters)
        maxLambda = .allocate(capacity: clusters)
    }
}

/// Where the condensing loop writes: the row arrays' buffers and the cluster buffers.
private struct RowBuffers {
    let parent: UnsafeMutablePointer<Int32>
    let child: UnsafeMutablePointer<Int32>
    let lambda: UnsafeMutablePointer<Double>
    let childSize: UnsafeMutablePointer<Int32>
    let rowOfPoint: UnsafeMutablePointer<Int32>
    /// Whether no point rows are written: where each leaf's points fall out is returned by leaf.
    let byLeaf: Bool
    let clusterParent: UnsafeMutablePointer<Int32>
    let clusterBirth: UnsafeMutablePointer<Double>
    let clusterSize: UnsafeMutablePointer<Int32>
    let stability: UnsafeMutablePointer<Double>
    let maxLambda: UnsafeMutablePointer<Double>
    let clusterCapacity: Int

    init(parent: UnsafeMutablePointer<Int32>, child: UnsafeMutablePointer<Int32>, lambda: UnsafeMutablePointer<Double>,
         childSize: UnsafeMutablePointer<Int32>, rowOfPoint: UnsafeMutablePointer<Int32>,
         byLeaf: Bool, clusters: ClusterBuffers) {
        self.parent = parent; self.child = child; self.lambda = lambda; self.childSize = childSize
        self.rowOfPoint = rowOfPoint; self.byLeaf = byLeaf
        clusterParent = clusters.clusterParent; clusterBirth = clusters.clusterBirth
        clusterSize = clusters.clusterSize; stability = clusters.stability; maxLambda = clusters.maxLambda
        clusterCapacity = clusters.capacity
    }
}

// k-nearest-neighbour queries on the sphere tree, and the core distances built on them.
//
// A k-NN list here holds the k least points by (squared chord, tree position): ties are broken
// by position, so a list is a function of the points alone, whatever order a walk visits
// them in (the leaf-shared walk and the per-point search give the same lists). Pruning is
// therefore strict: a node or a point at exactly the k-th distance may still enter a list.

/// A k-NN list being filled: `dist`/`pos` (capacity k) sorted by (distance, position), and
/// `scratch` for a leaf's distances (`SphereKNNList.scratchCapacity`).
struct SphereKNNList {
    static let scratchCapacity = 64
    /// The doubles of a scratch buffer for `SphereView.ownNearest`: a leaf's distances (with
    /// padding for whole vector steps) and the ranked distances.
    static let scratchSize = 2 * scratchCapacity + 4
    let dist: UnsafeMutablePointer<Double>
    let pos: UnsafeMutablePointer<Int32>
    let scratch: UnsafeMutablePointer<Double>
    let k: Int
    var found = 0
    /// The k-th squared chord once the list is full, else infinity.
    var worst = Double.infinity

    init(dist: UnsafeMutablePointer<Double>, pos: UnsafeMutablePointer<Int32>, k: Int,
         scratch: UnsafeMutablePointer<Double>) {
        self.dist = dist; self.pos = pos; self.k = k; self.scratch = scratch
    }

    /// Takes over a list already filled to `found` entries.
    init(dist: UnsafeMutablePointer<Double>, pos: UnsafeMutablePointer<Int32>, k: Int,
         scratch: UnsafeMutablePointer<Double>, found: Int) {
        self.init(dist: dist, pos: pos, k: k, scratch: scratch)
        self.found = found
        if found == k { worst = dist[k - 1] }
    }

    /// Offers position q at squared chord d2 (q not listed yet) to the list `dist`/`pos` of
    /// capacity k holding `found` entries. On the list's fields in place the compiler reloaded
    /// the pointers at every step of the shift (a store through them might change the list):
    /// the callers pass copies held in registers.
    @inline(__always)
    static func insert(_ d2: Double, _ q: Int, _ k: Int, _ found: inout Int, _ worst: inout Double,
                       _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>) {
        let q32 = Int32(q)
        if found == k {
            if d2 > worst || (d2 == worst && q32 > pos[k - 1]) { return }
        }
        var j = found < k ? found : k - 1
        while j > 0 && (dist[j - 1] > d2 || (dist[j - 1] == d2 && pos[j - 1] > q32)) {
            dist[j] = dist[j - 1]; pos[j] = pos[j - 1]; j -= 1
        }
        dist[j] = d2; pos[j] = q32
        if found < k { found += 1 }
        if found == k { worst = dist[k - 1] }
    }
}

extension SphereView {
    /// The k nearest tree positions of position p (itself included) into `list`, searching up
    /// from p's leaf `leaf`: a sibling is searched only while it could hold a nearer point,
    /// and the climb stops once the k-th distance ball lies inside the current node.
    func nearest(_ p: Int, leaf: Int, _ list: inout SphereKNNList, _ stack: UnsafeMutablePointer<Int32>) {
        scan(leaf, p, &list)
        var node = leaf
        while node > 0 {
            if list.found == list.k && insideClearance2(node, p) > list.worst { break }
            searchSubtree(KDTree.sibling(of: node), p, &list, stack)
            node = KDTree.parent(of: node)
        }
    }

    private func searchSubtree(_ root: Int, _ p: Int, _ list: inout SphereKNNList, _ stack: UnsafeMutablePointer<Int32>) {
        searchSubtree(root, point(p), &list, stack)
    }

    /// Offers every point under `root` that can enter the list to the list of the point at
    /// `q` (a unit vector, a tree point's or any other).
    func searchSubtree(_ root: Int, _ q: (x: Double, y: Double, z: Double), _ list: inout SphereKNNList,
                       _ stack: UnsafeMutablePointer<Int32>) {
        var sp = 1
        stack[0] = Int32(root)
        while sp > 0 {
            sp -= 1
            let node = Int(stack[sp])
            if list.found == list.k && boxDistance2(node, q) > list.worst { continue }
            if node >= firstLeaf { scan(node, q, &list); continue }
            let (l, r) = KDTree.children(of: node)
            // The nearer child is popped first.
            if boxDistance2(l, q) <= boxDistance2(r, q) {
                stack[sp] = Int32(r); stack[sp + 1] = Int32(l)
            } else {
                stack[sp] = Int32(l); stack[sp + 1] = Int32(r)
            }
            sp += 2
        }
    }

    /// Offers every point of `leaf` to p's list: first all the squared chords, in a loop the
    /// compiler vectorises, then the offers, most of which one comparison rejects.
    @inline(__always)
    func scan(_ leaf: Int, _ p: Int, _ list: inout SphereKNNList) {
        scan(leaf, point(p), &list)
    }

    /// `scan` for the point at unit vector q.
    @inline(__always)
    func scan(_ leaf: Int, _ q: (x: Double, y: Double, z: Double), _ list: inout SphereKNNList) {
        let s = Int(start[leaf]), m = Int(end[leaf]) - s
        let (px, py, pz) = q
        let dist = list.dist, pos = list.pos, k = list.k
        var found = list.found, worst = list.worst
        defer { list.found = found; list.worst = worst }
        if m > SphereKNNList.scratchCapacity {
            for q in s..<s + m {
                let dx = x[q] - px, dy = y[q] - py, dz = z[q] - pz
                SphereKNNList.insert(dx * dx + dy * dy + dz * dz, q, k, &found, &worst, dist, pos)
            }
            return
        }
        let d = list.scratch, xs = x + s, ys = y + s, zs = z + s
        for j in 0..<m {
            let dx = xs[j] - px, dy = ys[j] - py, dz = zs[j] - pz
            d[j] = dx * dx + dy * dy + dz * dz
        }
        for j in 0..<m where d[j] <= worst { SphereKNNList.insert(d[j], s + j, k, &found, &worst, dist, pos) }
    }

    /// The k nearest positions of every point of `leaf` (point j of the leaf into
    /// `dist`/`pos` at `j * k`), sharing one tree walk among the leaf's points: each point
    /// first lists its k nearest within the smallest node above the leaf that holds k points
    /// (the leaf itself, or with a leaf size near k its parent), the largest of those k-th
    /// distances bounds how far any of them can need to look, and the leaves outside that
    /// node whose boxes come that close to the leaf's box are listed once; each point then
    /// scans the listed leaves its own k-th distance still reaches. A leaf with more than
    /// `nearCapacity` leaves in reach searches point by point. The listed leaves are scanned
    /// nearest box first (`keys`: their box distances), so a point stops at the first leaf
    /// its k-th distance no longer reaches.
    func leafNeighbours(leaf: Int, _ k: Int, _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
                        scratch: UnsafeMutablePointer<Double>, order: UnsafeMutablePointer<Int32>,
                        near: UnsafeMutablePointer<Int32>, keys: UnsafeMutablePointer<Double>, nearCapacity: Int,
                        stack: UnsafeMutablePointer<Int32>) {
        let s = Int(start[leaf]), m = Int(end[leaf]) - s
        func onePerPoint() {
            for j in 0..<m {
                var list = SphereKNNList(dist: dist + j * k, pos: pos + j * k, k: k, scratch: scratch)
                nearest(s + j, leaf: leaf, &list, stack)
            }
        }
        var home = leaf
        while home > 0 && Int(end[home] - start[home]) < k { home = KDTree.parent(of: home) }
        if Int(end[home] - start[home]) < k { onePerPoint(); return }
        // The leaves under `home`: a contiguous run of heap indices at the leaf level.
        var lo = home, hi = home
        while lo < firstLeaf { lo = KDTree.children(of: lo).left; hi = KDTree.children(of: hi).right }
        var reach = 0.0
        if home == leaf && m <= SphereKNNList.scratchCapacity {
            for j in 0..<m {
                ownNearest(leaf, j, k, dist + j * k, pos + j * k, scratch: scratch, order: order)
                reach = Swift.max(reach, dist[j * k + k - 1])
            }
        } else {
            for j in 0..<m {
                var list = SphereKNNList(dist: dist + j * k, pos: pos + j * k, k: k, scratch: scratch)
                for t in lo...hi { scan(t, s + j, &list) }
                reach = Swift.max(reach, list.worst)
            }
        }
        let count = leavesNear(leaf, outside: home, within: reach, into: near, capacity: nearCapacity, stack: stack)
        if count < 0 { onePerPoint(); return }
        sortByDistance(near, count, from: leaf, keys: keys)
        for j in 0..<m {
            var list = SphereKNNList(dist: dist + j * k, pos: pos + j * k, k: k, scratch: scratch, found: k)
            for i in 0..<count {
                // The box of a leaf is no nearer to a point of `leaf` than to its box.
                if keys[i] > list.worst { break }
                let t = Int(near[i])
                if boxDistance2(t, s + j) > list.worst { continue }
                scan(t, s + j, &list)
            }
        }
    }

    /// The k nearest points of `leaf` (which holds k to `SphereKNNList.scratchCapacity`
    /// points) to its j-th point, into `dist`/`pos`: the k first by (distance, position) in
    /// the leaf, which is the list the offers of the leaf's points to an empty list give.
    /// Each point's rank is the count of the leaf's points nearer than it, counted in vector
    /// steps without a branch, and the point is stored at its rank (`scratch`'s second part,
    /// `order`): inserting into an empty list, nearly every offer is taken and the end of its
    /// shift mispredicted. The ranks are a permutation, their sum m(m−1)/2, unless distances
    /// tie; then they are counted again with ties ranked by position.
    @inline(__always)
    private func ownNearest(_ leaf: Int, _ j: Int, _ k: Int, _ dist: UnsafeMutablePointer<Double>,
                            _ pos: UnsafeMutablePointer<Int32>, scratch: UnsafeMutablePointer<Double>,
                            order: UnsafeMutablePointer<Int32>) {
        let s = Int(start[leaf]), m = Int(end[leaf]) - s
        let p = s + j, px = x[p], py = y[p], pz = z[p]
        let d = scratch, ranked = scratch + SphereKNNList.scratchCapacity + 4
        let xs = x + s, ys = y + s, zs = z + s
        for i in 0..<m {
            let dx = xs[i] - px, dy = ys[i] - py, dz = zs[i] - pz
            d[i] = dx * dx + dy * dy + dz * dz
        }
        // Padding never counted as nearer: the vector steps read up to 3 past the end.
        d[m] = .infinity; d[m + 1] = .infinity; d[m + 2] = .infinity
        let raw = UnsafeRawPointer(d)
        var total = 0
        for i in 0..<m {
            let di = d[i], dv = SIMD2<Double>(repeating: di)
            // A true lane of a mask is −1.
            var b0 = SIMD2<Int64>(), b1 = SIMD2<Int64>()
            var t = 0
            while t < m {
                b0 &-= unsafeBitCast(raw.loadUnaligned(fromByteOffset: 8 * t, as: SIMD2<Double>.self) .< dv,
                                     to: SIMD2<Int64>.self)
                b1 &-= unsafeBitCast(raw.loadUnaligned(fromByteOffset: 8 * t + 16, as: SIMD2<Double>.self) .< dv,
                                     to: SIMD2<Int64>.self)
                t &+= 4
            }
            let b = b0 &+ b1, r = Int(b[0] &+ b[1])
            total &+= r
            ranked[r] = di; order[r] = Int32(truncatingIfNeeded: s &+ i)
        }
        if total != m * (m - 1) / 2 {
            for i in 0..<m {
                let di = d[i]
                var r = 0
                for t in 0..<m where d[t] < di || (d[t] == di && t < i) { r += 1 }
                ranked[r] = di; order[r] = Int32(truncatingIfNeeded: s &+ i)
            }
        }
        for r in 0..<k { dist[r] = ranked[r]; pos[r] = order[r] }
    }

    /// Orders the `count` leaves of `near` by the distance of their boxes to `leaf`'s
    /// (`keys`: scratch for as many distances), so that the points scan the nearer leaves
    /// first: their lists then tighten sooner, and fewer offers are taken or leaves reached.
    private func sortByDistance(_ near: UnsafeMutablePointer<Int32>, _ count: Int, from leaf: Int,
                                keys: UnsafeMutablePointer<Double>) {
        for i in 0..<count {
            let t = near[i], key = boxBoxDistance2(leaf, Int(t))
            var j = i
            while j > 0 && keys[j - 1] > key { keys[j] = keys[j - 1]; near[j] = near[j - 1]; j -= 1 }
            keys[j] = key; near[j] = t
        }
    }
}

/// The k-NN stage's output, by tree position: each position's k-th nearest position (itself
/// counted; with weights, where the weights first add up to k) and the squared chord to it,
/// and each position's `listLength` nearest positions (row-major, nearest first), which let
/// Borůvka's first round skip most searches.
struct SphereNeighbours {
    let chord2: [Double]
    let neighbour: [Int32]
    let lists: [Int32]
    let listLength: Int
}

extension SphereTree {
    /// The leaf size of HDBSCAN's tree: leaves at least as large as the usual neighbour
    /// lists let a leaf's own points fill them, so fewer leaves come within reach and fewer
    /// points search on their own (twice that size was no faster; see docs/performance.md).
    static let hdbscanLeafSize = 32

    /// The most leaves a leaf's points are checked against directly (see `leafNeighbours`).
    static let nearCapacity = 64

    /// Each tree position's k-th nearest position and lists of `listed + extra` nearest
    /// positions, `listed` being k, or min(k, count) with `weights` (points at each position,
    /// by position: the core distance is then reached where the listed weights add up to k).
    /// - Complexity: O(n (log n + k)) expected; identical for any thread count.
    func nearestNeighbours(_ k: Int, extra: Int, weights: [Int32]? = nil, threads: Int) -> SphereNeighbours {
        let listed = weights == nil ? k : Swift.min(k, count)
        let length = Swift.min(listed + extra, count)
        var chord2 = [Double](repeating: 0, count: count)
        var neighbour = [Int32](repeating: 0, count: count)
        var lists = [Int32](repeating: 0, count: count * length)
        let leaves = nodeCount - firstLeaf
        let leafCap = (firstLeaf..<nodeCount).reduce(0) { Swift.max($0, Int(end[$1] - start[$1])) }
        chord2.withUnsafeMutableBufferPointer { c in
        neighbour.withUnsafeMutableBufferPointer { nb in
        lists.withUnsafeMutableBufferPointer { ls in
            let c = SharedBuffer(base: c.baseAddress!), nb = SharedBuffer(base: nb.baseAddress!)
            let ls = SharedBuffer(base: ls.baseAddress!)
            withView { v in
                Parallel.forEachChunk(count: leaves, grain: 256, threads: threads) { chunk, _ in
                    let depth = KDTree.depth(ofNodeCount: nodeCount)
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: leafCap * length) { dist in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: leafCap * length) { pos in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: SphereKNNList.scratchSize) { scratch in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: SphereKNNList.scratchCapacity) { order in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: SphereTree.nearCapacity) { near in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: SphereTree.nearCapacity) { keys in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * depth + 4) { stack in
                        let dist = dist.baseAddress!, pos = pos.baseAddress!
                        for leaf in chunk.lowerBound + firstLeaf..<chunk.upperBound + firstLeaf {
                            let s = Int(v.start[leaf]), m = Int(v.end[leaf]) - s
                            v.leafNeighbours(leaf: leaf, length, dist, pos, scratch: scratch.baseAddress!,
                                             order: order.baseAddress!, near: near.baseAddress!, keys: keys.baseAddress!,
                                             nearCapacity: SphereTree.nearCapacity, stack: stack.baseAddress!)
                            for j in 0..<m {
                                let d = dist + j * length, q = pos + j * length
                                let i = CoreDistances.coreEntry(q, listed: listed, k: k, weights: weights)
                                c[s + j] = d[i]
                                nb[s + j] = q[i]
                                for i in 0..<length { ls[(s + j) * length + i] = q[i] }
                            }
                        }
                    }}}}}}}
                }
            }
        }}}
        return SphereNeighbours(chord2: chord2, neighbour: neighbour, lists: lists, listLength: length)
    }
}

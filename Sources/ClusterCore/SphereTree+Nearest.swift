// k-nearest-neighbour queries on the sphere tree, and the core distances built on them.

extension SphereView {
    /// The k nearest tree positions of position p (itself included), nearest first, into
    /// `dist`/`pos` (capacity k, k ≤ count), searching up from p's leaf `leaf`: a sibling is
    /// searched only while it could hold a nearer point, and the climb stops once the k-th
    /// distance ball lies inside the current node. Returns the k-th squared chord.
    func nearest(_ p: Int, leaf: Int, _ k: Int, _ dist: UnsafeMutablePointer<Double>,
                 _ pos: UnsafeMutablePointer<Int32>, _ stack: UnsafeMutablePointer<Int32>) -> Double {
        var found = 0, worst = Double.infinity
        scan(leaf, p, k, &found, &worst, dist, pos)
        var node = leaf
        while node > 0 {
            if found == k && insideClearance2(node, p) >= worst { break }
            searchSubtree(KDTree.sibling(of: node), p, k, &found, &worst, dist, pos, stack)
            node = KDTree.parent(of: node)
        }
        return worst
    }

    private func searchSubtree(_ root: Int, _ p: Int, _ k: Int, _ found: inout Int, _ worst: inout Double,
                               _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
                               _ stack: UnsafeMutablePointer<Int32>) {
        var sp = 1
        stack[0] = Int32(root)
        while sp > 0 {
            sp -= 1
            let node = Int(stack[sp])
            if found == k && boxDistance2(node, p) >= worst { continue }
            if node >= firstLeaf { scan(node, p, k, &found, &worst, dist, pos); continue }
            let (l, r) = KDTree.children(of: node)
            // The nearer child is popped first.
            if boxDistance2(l, p) <= boxDistance2(r, p) {
                stack[sp] = Int32(r); stack[sp + 1] = Int32(l)
            } else {
                stack[sp] = Int32(l); stack[sp + 1] = Int32(r)
            }
            sp += 2
        }
    }

    @inline(__always)
    private func scan(_ leaf: Int, _ p: Int, _ k: Int, _ found: inout Int, _ worst: inout Double,
                      _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>) {
        for q in Int(start[leaf])..<Int(end[leaf]) {
            let d2 = distance2(p, q)
            if found == k && d2 >= worst { continue }
            var j = found < k ? found : k - 1
            while j > 0 && dist[j - 1] > d2 { dist[j] = dist[j - 1]; pos[j] = pos[j - 1]; j -= 1 }
            dist[j] = d2; pos[j] = Int32(q)
            if found < k { found += 1 }
            if found == k { worst = dist[k - 1] }
        }
    }
}

extension SphereTree {
    /// Each tree position's k-th nearest position (itself counted) and the squared chord to it;
    /// with `weights` (points at each position, by position) the position at which the nearest
    /// positions' weights first add up to k.
    /// - Complexity: O(n (log n + k)) expected; identical for any thread count.
    func kthNearest(_ k: Int, weights: [Int32]? = nil, threads: Int) -> (chord2: [Double], neighbour: [Int32]) {
        let listed = weights == nil ? k : Swift.min(k, count)
        var chord2 = [Double](repeating: 0, count: count)
        var neighbour = [Int32](repeating: 0, count: count)
        let leaves = nodeCount - firstLeaf
        chord2.withUnsafeMutableBufferPointer { c in
        neighbour.withUnsafeMutableBufferPointer { nb in
            let c = SharedBuffer(base: c.baseAddress!), nb = SharedBuffer(base: nb.baseAddress!)
            withView { v in
                Parallel.forEachChunk(count: leaves, grain: 256, threads: threads) { chunk, _ in
                    let depth = KDTree.depth(ofNodeCount: nodeCount)
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: listed) { dist in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: listed) { pos in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * depth + 4) { stack in
                        for leaf in chunk.lowerBound + firstLeaf..<chunk.upperBound + firstLeaf {
                            for p in Int(v.start[leaf])..<Int(v.end[leaf]) {
                                c[p] = v.nearest(p, leaf: leaf, listed, dist.baseAddress!, pos.baseAddress!,
                                                 stack.baseAddress!)
                                var j = listed - 1
                                if let weights {
                                    var total = 0
                                    j = 0
                                    while true {
                                        total += Int(weights[Int(pos[j])])
                                        if total >= k || j == listed - 1 { break }
                                        j += 1
                                    }
                                    c[p] = dist[j]
                                }
                                nb[p] = pos[j]
                            }
                        }
                    }}}
                }
            }
        }}
        return (chord2, neighbour)
    }
}

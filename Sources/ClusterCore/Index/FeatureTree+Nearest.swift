// k-nearest-neighbour queries on the d-dimensional tree, and the core distances built on
// them. As on the sphere (SphereTree+Nearest.swift), a list holds the k least points by
// (squared distance, tree position), so it is a function of the points alone.

extension FeatureView {
    /// The k nearest tree positions of position p (itself included) into `dist`/`pos`
    /// (capacity k, filled in order), searching up from p's leaf: a sibling is searched only
    /// while it could hold a nearer point, and the climb stops once the k-th distance ball
    /// lies inside the current node.
    func nearest(_ p: Int, _ k: Int, _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
                 _ stack: UnsafeMutablePointer<Int32>) {
        let at = point(p)
        var found = 0, worst = Double.infinity
        var node = leaf(containing: p)
        scan(node, at, k, &found, &worst, dist, pos)
        while node > 0 {
            if found == k && insideClearance2(node, at) > worst { break }
            search(KDTree.sibling(of: node), at, k, &found, &worst, dist, pos, stack)
            node = KDTree.parent(of: node)
        }
    }

    /// Offers every point under `root` that can enter the list, nearer child first.
    private func search(_ root: Int, _ at: UnsafePointer<Double>, _ k: Int, _ found: inout Int, _ worst: inout Double,
                        _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
                        _ stack: UnsafeMutablePointer<Int32>) {
        var sp = 1
        stack[0] = Int32(root)
        while sp > 0 {
            sp -= 1
            let node = Int(stack[sp])
            if found == k && boxDistance2(node, at) > worst { continue }
            if node >= firstLeaf { scan(node, at, k, &found, &worst, dist, pos); continue }
            let (l, r) = KDTree.children(of: node)
            if boxDistance2(l, at) <= boxDistance2(r, at) {
                stack[sp] = Int32(r); stack[sp + 1] = Int32(l)
            } else {
                stack[sp] = Int32(l); stack[sp + 1] = Int32(r)
            }
            sp += 2
        }
    }

    @inline(__always)
    private func scan(_ leaf: Int, _ at: UnsafePointer<Double>, _ k: Int, _ found: inout Int, _ worst: inout Double,
                      _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>) {
        for q in Int(start[leaf])..<Int(end[leaf]) {
            let d2 = distance2(q, at)
            if found == k && d2 > worst { continue }
            SphereKNNList.insert(d2, q, k, &found, &worst, dist, pos)
        }
    }
}

/// The k-NN stage's output in d dimensions, by tree position (as `SphereNeighbours`): the
/// squared core distance, and each position's `listLength` nearest positions (row-major,
/// nearest first) for Borůvka's first round.
struct FeatureNeighbours {
    let core2: [Double]
    let lists: [Int32]
    let listLength: Int
}

extension FeatureTree {
    /// Each tree position's squared core distance (its k-th nearest position's, itself
    /// counted; with `weights`, points at each position, where the listed weights first add up
    /// to k) and its `min(k, count) + extra` nearest positions.
    /// - Complexity: O(n (log n + k)) expected at low d; identical for any thread count.
    func nearestNeighbours(_ k: Int, extra: Int, weights: [Int32]? = nil, threads: Int) -> FeatureNeighbours {
        let listed = Swift.min(k, count)
        let length = Swift.min(listed + extra, count)
        var core2 = [Double](repeating: 0, count: count)
        var lists = [Int32](repeating: 0, count: count * length)
        core2.withUnsafeMutableBufferPointer { c in
        lists.withUnsafeMutableBufferPointer { ls in
            let c = SharedBuffer(base: c.baseAddress!), ls = SharedBuffer(base: ls.baseAddress!)
            withView { v in
                Parallel.forEachChunk(count: count, grain: 1024, threads: threads) { chunk, _ in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: length) { dist in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: length) { pos in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * KDTree.depth(ofNodeCount: nodeCount) + 4) { stack in
                        let dist = dist.baseAddress!, pos = pos.baseAddress!
                        for p in chunk {
                            v.nearest(p, length, dist, pos, stack.baseAddress!)
                            var i = listed - 1
                            if let weights {
                                var total = 0
                                i = 0
                                while true {
                                    total += Int(weights[Int(pos[i])])
                                    if total >= k || i == listed - 1 { break }
                                    i += 1
                                }
                            }
                            c[p] = dist[i]
                            for j in 0..<length { ls[p * length + j] = pos[j] }
                        }
                    }}}
                }
            }
        }}
        return FeatureNeighbours(core2: core2, lists: lists, listLength: length)
    }
}

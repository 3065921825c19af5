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
            search(sibling(of: node), at, k, &found, &worst, dist, pos, stack)
            node = parent(of: node)
        }
    }

    /// Completes the full list `dist`/`pos` of position p (the k nearest within `home`, an
    /// ancestor of p's leaf) as `nearest`'s climb does, from `home` up.
    private func climb(_ p: Int, from home: Int, _ k: Int, _ dist: UnsafeMutablePointer<Double>,
                       _ pos: UnsafeMutablePointer<Int32>, _ stack: UnsafeMutablePointer<Int32>) {
        let at = point(p)
        var found = k, worst = dist[k - 1]
        var node = home
        while node > 0 {
            if insideClearance2(node, at) > worst { break }
            search(sibling(of: node), at, k, &found, &worst, dist, pos, stack)
            node = parent(of: node)
        }
    }

    /// Offers every point under `root` that can enter the list, nearer child first.
    private func search(_ root: Int, _ at: UnsafePointer<Double>, _ k: Int, _ found: inout Int, _ worst: inout Double,
                        _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
                        _ stack: UnsafeMutablePointer<Int32>) {
        // Each stacked node with its box distance, computed once.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * depth + 4) { bound in
            var sp = 1
            stack[0] = Int32(root)
            bound[0] = boxDistance2(root, at)
            while sp > 0 {
                sp -= 1
                let node = Int(stack[sp])
                if found == k && bound[sp] > worst { continue }
                if node >= firstLeaf { scan(node, at, k, &found, &worst, dist, pos); continue }
                let (l, r) = children(of: node)
                let dl = boxDistance2(l, at), dr = boxDistance2(r, at)
                if dl <= dr {
                    stack[sp] = Int32(r); bound[sp] = dr; stack[sp + 1] = Int32(l); bound[sp + 1] = dl
                } else {
                    stack[sp] = Int32(l); bound[sp] = dl; stack[sp + 1] = Int32(r); bound[sp + 1] = dr
                }
                sp += 2
            }
        }
    }

    @inline(__always)
    fileprivate func scan(_ leaf: Int, _ at: UnsafePointer<Double>, _ k: Int, _ found: inout Int, _ worst: inout Double,
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
    /// The most leaves a leaf's points are checked against directly (see `leafNeighbours`).
    static let nearCapacity = 64

    /// Each tree position's squared core distance (its k-th nearest position's, itself
    /// counted; with `weights`, points at each position, where the listed weights first add up
    /// to k) and its `min(k, count) + extra` nearest positions.
    /// - Complexity: O(n (log n + k)) expected at low d; identical for any thread count.
    func nearestNeighbours(_ k: Int, extra: Int, weights: [Int32]? = nil, threads: Int) -> FeatureNeighbours {
        read(NearestReader(k: k, listed: Swift.min(k, count), length: Swift.min(Swift.min(k, count) + extra, count),
                           weights: weights, threads: threads))
    }
}

/// The k-NN pass over a view of any width.
private struct NearestReader: FeatureViewReader {
    let k: Int, listed: Int, length: Int
    let weights: [Int32]?
    let threads: Int

    func read<W: FeatureWidth>(_ v: FeatureView<W>) -> FeatureNeighbours {
        let count = v.count, listed = listed, length = length, k = k, weights = weights
        var core2 = [Double](repeating: 0, count: count)
        var lists = [Int32](repeating: 0, count: count * length)
        core2.withUnsafeMutableBufferPointer { c in
        lists.withUnsafeMutableBufferPointer { ls in
            let c = SharedBuffer(base: c.baseAddress!), ls = SharedBuffer(base: ls.baseAddress!)
            let leaves = v.nodeCount - v.firstLeaf
            let leafCap = (v.firstLeaf..<v.nodeCount).reduce(0) { Swift.max($0, Int(v.end[$1] - v.start[$1])) }
            Parallel.forEachChunk(count: leaves, grain: 64, threads: threads) { chunk, _ in
                withUnsafeTemporaryAllocation(of: Double.self, capacity: leafCap * length) { dist in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: leafCap * length) { pos in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: FeatureTree.nearCapacity) { near in
                withUnsafeTemporaryAllocation(of: Double.self, capacity: FeatureTree.nearCapacity) { keys in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * v.depth + 4) { stack in
                    let dist = dist.baseAddress!, pos = pos.baseAddress!
                    for leaf in chunk.lowerBound + v.firstLeaf..<chunk.upperBound + v.firstLeaf {
                        let s = Int(v.start[leaf]), m = Int(v.end[leaf]) - s
                        v.leafNeighbours(leaf: leaf, length, dist, pos, near: near.baseAddress!, keys: keys.baseAddress!,
                                         nearCapacity: FeatureTree.nearCapacity, stack: stack.baseAddress!)
                        for j in 0..<m {
                            let d = dist + j * length, q = pos + j * length
                            let i = CoreDistances.coreEntry(q, listed: listed, k: k, weights: weights)
                            c[s + j] = d[i]
                            for r in 0..<length { ls[(s + j) * length + r] = q[r] }
                        }
                    }
                }}}}}
            }
        }}
        return FeatureNeighbours(core2: core2, lists: lists, listLength: length)
    }
}

extension FeatureView {
    /// The k nearest positions of every point of `leaf` (point j of the leaf into
    /// `dist`/`pos` at `j * k`), sharing one walk among the leaf's points, as the sphere tree's
    /// `leafNeighbours` does: each point first lists its k nearest within the smallest node
    /// above the leaf that holds k points; the largest of those k-th distances bounds how far
    /// any of them can need to look; the leaves outside that node whose boxes come that close
    /// to the leaf's box are listed once, nearest first, and each point scans those its own
    /// k-th distance still reaches. A leaf with more than `nearCapacity` leaves in reach
    /// searches point by point.
    func leafNeighbours(leaf: Int, _ k: Int, _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
                        near: UnsafeMutablePointer<Int32>, keys: UnsafeMutablePointer<Double>, nearCapacity: Int,
                        stack: UnsafeMutablePointer<Int32>) {
        let s = Int(start[leaf]), m = Int(end[leaf]) - s
        var home = leaf
        while home > 0 && Int(end[home] - start[home]) < k { home = parent(of: home) }
        guard Int(end[home] - start[home]) >= k else {
            for j in 0..<m { nearest(s + j, k, dist + j * k, pos + j * k, stack) }
            return
        }
        let under = leaves(under: home)
        var reach = 0.0
        for j in 0..<m {
            var found = 0, worst = Double.infinity
            for t in under { scan(t, point(s + j), k, &found, &worst, dist + j * k, pos + j * k) }
            reach = Swift.max(reach, worst)
        }
        let count = leavesNear(leaf, outside: home, within: reach, into: near, capacity: nearCapacity, stack: stack)
        guard count >= 0 else {
            for j in 0..<m { climb(s + j, from: home, k, dist + j * k, pos + j * k, stack) }
            return
        }
        for i in 0..<count {
            let t = near[i], key = boxBoxDistance2(leaf, Int(t))
            var r = i
            while r > 0 && keys[r - 1] > key { keys[r] = keys[r - 1]; near[r] = near[r - 1]; r -= 1 }
            keys[r] = key; near[r] = t
        }
        for j in 0..<m {
            var found = k, worst = dist[j * k + k - 1]
            let at = point(s + j)
            for i in 0..<count {
                // The box of a leaf is no nearer to a point of `leaf` than to its box.
                if keys[i] > worst { break }
                let t = Int(near[i])
                if boxDistance2(t, at) > worst { continue }
                scan(t, at, k, &found, &worst, dist + j * k, pos + j * k)
            }
        }
    }
}

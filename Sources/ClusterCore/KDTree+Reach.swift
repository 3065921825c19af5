// Walks that list the leaves within reach of one leaf or group: climb from it, at each level
// walk the sibling subtree top-down, drop what lies beyond the reach, stop climbing once every
// point outside the current node lies beyond it. The core distances reach by the k-th
// distance (`leafNeighbours`); the MST's later Borůvka rounds by mutual reachability against
// a component's best edge (`BoruvkaTree.leavesInReach`, over the box geometry given here).

extension TreeView {
    /// The k nearest points (itself included) of every point of `leaf`, into `dist`/`pos`
    /// (point j of the leaf at `j * k`, nearest first), sharing one tree walk per leaf: each
    /// point first takes its k nearest within the leaf, the largest of those k-th distances
    /// bounds how far any of them can need to look, and the leaves whose boxes come closer
    /// than that to the leaf's box are listed once; each point then scans the listed leaves
    /// its own k-th distance still reaches. Leaves with fewer than k points, or with more
    /// than `nearCapacity` leaves listed, search point by point (`kthDistance2`).
    ///
    /// A point scans only a few listed leaves besides its own, so core distances cost less than
    /// searching point by point (docs/performance.md). (Visiting the listed leaves nearest first
    /// was slower.)
    @inline(__always)
    func leafNeighbours(leaf: Int, _ k: Int, _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
                        worstScratch: UnsafeMutablePointer<Double>, near: UnsafeMutablePointer<Int32>,
                        nearCapacity: Int, stack: UnsafeMutablePointer<Int32>, boxes: UnsafeMutablePointer<Double>) {
        let s = Int(start[leaf]), m = Int(end[leaf]) - s
        func onePerPoint() {
            for j in 0..<m { _ = kthDistance2(ofPosition: s + j, inLeaf: leaf, k, dist + j * k, pos + j * k, stack, boxes) }
        }
        if m < k { onePerPoint(); return }
        var reach = 0.0
        for j in 0..<m {
            var found = 0, worst = Double.infinity
            scanLeaf(leaf, x[s + j], y[s + j], k, &found, &worst, dist + j * k, pos + j * k)
            worstScratch[j] = worst
            reach = max(reach, worst)
        }
        // Leaves whose box is closer than `reach` (squared) to this leaf's box: only their
        // points can be nearer than some point's k-th distance within the leaf.
        let gx0 = minX[leaf], gx1 = maxX[leaf], gy0 = minY[leaf], gy1 = maxY[leaf]
        var count = 0
        var node = leaf
        climb: while node > 0 {
            // Points outside `node` are at least `gap` from the leaf's box.
            let gap = min(gx0 - minX[node], maxX[node] - gx1, gy0 - minY[node], maxY[node] - gy1)
            if gap > 0 && gap * gap >= reach { break }
            let sibling = KDTree.sibling(of: node)
            node = KDTree.parent(of: node)
            var sp = 1
            stack[0] = Int32(sibling)
            while sp > 0 {
                sp -= 1
                let t = Int(stack[sp])
                let dx = max(0, minX[t] - gx1, gx0 - maxX[t])
                let dy = max(0, minY[t] - gy1, gy0 - maxY[t])
                if dx * dx + dy * dy >= reach { continue }
                if t >= firstLeaf {
                    if count == nearCapacity { count = -1; break climb }
                    near[count] = Int32(t)
                    count += 1
                    continue
                }
                let (l, r) = KDTree.children(of: t)
                stack[sp] = Int32(l); stack[sp + 1] = Int32(r); sp += 2
            }
        }
        if count < 0 { onePerPoint(); return }
        for j in 0..<m {
            let qx = x[s + j], qy = y[s + j]
            var found = k, worst = worstScratch[j]
            for i in 0..<count {
                let t = Int(near[i])
                if boxDistance2(t, qx, qy) >= worst { continue }
                scanLeaf(t, qx, qy, k, &found, &worst, dist + j * k, pos + j * k)
            }
        }
    }

    /// Squared distance between the boxes of nodes a and b (0 when they meet).
    @inline(__always) func boxBoxDistance2(_ a: Int, _ b: Int) -> Double {
        let dx = max(0, minX[b] - maxX[a], minX[a] - maxX[b])
        let dy = max(0, minY[b] - maxY[a], minY[a] - maxY[b])
        return dx * dx + dy * dy
    }

    /// The gap between g's box and `node`'s: a point outside a node lies outside its box or
    /// on its edge, since the box lies within the node's cell.
    @inline(__always) func gap(of g: Int, inside node: Int) -> Double {
        min(minX[g] - minX[node], maxX[node] - maxX[g], minY[g] - minY[node], maxY[node] - maxY[g])
    }
}

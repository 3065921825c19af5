// Walks that list the leaves within reach of one leaf or group: climb from it, at each level
// walk the sibling subtree top-down, drop what lies beyond the reach, stop climbing once every
// point outside the current node lies beyond it. The core distances reach by the k-th
// distance (`leafNeighbours`); the MST's later Borůvka rounds by mutual reachability against
// a component's best edge (`leavesInReach`, `hasCandidate`).

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

    /// See `BoruvkaTree.leavesInReach`. The floor gathers the bounds of the nodes the walk
    /// set aside and of everything beyond where its climb stopped. The climb goes up from the
    /// group like a point's search: the sibling subtree of each ancestor is walked top-down,
    /// and the climb stops once every point outside the current ancestor is farther from the
    /// group's box than the bound allows (the gap between the group's box and the ancestor's:
    /// a point outside a node lies outside its box or on its edge, since the box lies within
    /// the node's cell). Walking from the root instead spent most of its visits on the way down
    /// to the group's own neighbourhood (docs/performance.md).
    func leavesInReach(of g: Int, component c32: Int32, bound: Double, nodeComp: UnsafePointer<Int32>,
                       nodeMinCore2: UnsafePointer<Double>, stack: UnsafeMutablePointer<Int32>,
                       into out: UnsafeMutablePointer<Int32>, capacity: Int) -> (count: Int, floor: Double) {
        let gMin = nodeMinCore2[g]
        let gx0 = minX[g], gx1 = maxX[g], gy0 = minY[g], gy1 = maxY[g]
        var floor = Double.infinity
        var count = 0
        var node = g
        while node > 0 {
            let gap = min(gx0 - minX[node], maxX[node] - gx1, gy0 - minY[node], maxY[node] - gy1)
            if gap > 0 {
                let beyond = max(gMin, gap * gap)
                if beyond > bound { floor = min(floor, beyond); break }
            }
            let sibling = KDTree.sibling(of: node)
            node = KDTree.parent(of: node)
            if nodeComp[sibling] == c32 { continue }
            var sp = 1
            stack[0] = Int32(sibling)
            while sp > 0 {
                sp -= 1
                let t = Int(stack[sp])
                if nodeComp[t] == c32 { continue }
                let dx = max(0, minX[t] - gx1, gx0 - maxX[t])
                let dy = max(0, minY[t] - gy1, gy0 - maxY[t])
                let lb = max(gMin, nodeMinCore2[t], dx * dx + dy * dy)
                if lb > bound { floor = min(floor, lb); continue }
                if t >= firstLeaf {
                    if count == capacity { return (-1, floor) }
                    out[count] = Int32(t); count += 1
                    continue
                }
                let (l, r) = KDTree.children(of: t)
                stack[sp] = Int32(l); stack[sp + 1] = Int32(r); sp += 2
            }
        }
        return (count, floor)
    }
}

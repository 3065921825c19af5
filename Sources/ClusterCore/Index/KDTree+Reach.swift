// The planar core distances' search per leaf, and the box geometry the tree walks of
// BoruvkaTree.swift read: the leaves within reach of one leaf (`leavesNear`, shared with the
// sphere's k-NN) and, in the MST's later Borůvka rounds, by mutual reachability against a
// component's best edge (`leavesInReach`).

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
        // Leaves whose box comes within `reach` (squared) of this leaf's box: only their
        // points can be nearer than some point's k-th distance within the leaf.
        let count = leavesNear(leaf, outside: leaf, within: reach, into: near, capacity: nearCapacity, stack: stack)
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

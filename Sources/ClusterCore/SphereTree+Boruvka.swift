// The sphere tree as Borůvka's rounds search it (see BoruvkaTree.swift): the exact
// mutual-reachability MST on the sphere is the planar rounds' work in squared chords.

extension SphereView: BoruvkaTree {
    @inline(__always) func point(_ p: Int) -> (x: Double, y: Double, z: Double) { (x[p], y[p], z[p]) }

    @inline(__always) func distance2(_ q: Int, _ at: (x: Double, y: Double, z: Double)) -> Double {
        let dx = x[q] - at.x, dy = y[q] - at.y, dz = z[q] - at.z
        return dx * dx + dy * dy + dz * dz
    }

    @inline(__always) func boxDistance2(_ node: Int, _ at: (x: Double, y: Double, z: Double)) -> Double {
        let b = box + 6 * node
        let dx = Swift.max(Swift.max(b[0] - at.x, at.x - b[1]), 0)
        let dy = Swift.max(Swift.max(b[2] - at.y, at.y - b[3]), 0)
        let dz = Swift.max(Swift.max(b[4] - at.z, at.z - b[5]), 0)
        return dx * dx + dy * dy + dz * dz
    }

    /// The distance to the nearest face of the node's cell (not its tight box: the points lie
    /// on a surface that the boxes hug, so a box's nearest face would be about 0 away).
    @inline(__always) func insideClearance2(_ node: Int, _ at: (x: Double, y: Double, z: Double)) -> Double {
        let b = cell + 6 * node
        let m = Swift.min(Swift.min(Swift.min(at.x - b[0], b[1] - at.x), Swift.min(at.y - b[2], b[3] - at.y)),
                          Swift.min(at.z - b[4], b[5] - at.z))
        return m > 0 ? m * m : 0
    }

    /// See `BoruvkaTree.leavesInReach`. The climb stops once every point outside the current
    /// node lies beyond the bound: g's box lies inside the node's cell, and every point outside
    /// the node beyond one of the cell's faces.
    func leavesInReach(of g: Int, component c: Int32, bound: Double, nodeComp: UnsafePointer<Int32>,
                       nodeMinCore2: UnsafePointer<Double>, stack: UnsafeMutablePointer<Int32>,
                       into out: UnsafeMutablePointer<Int32>, capacity: Int) -> (count: Int, floor: Double) {
        let gMin = nodeMinCore2[g]
        if gMin > bound { return (0, gMin) }
        let gb = box + 6 * g
        var count = 0, floor = Double.infinity
        var node = g
        while node > 0 {
            let cb = cell + 6 * node
            let gap = Swift.min(Swift.min(Swift.min(gb[0] - cb[0], cb[1] - gb[1]), Swift.min(gb[2] - cb[2], cb[3] - gb[3])),
                                Swift.min(gb[4] - cb[4], cb[5] - gb[5]))
            if gap > 0 && gap * gap > bound { floor = Swift.min(floor, Swift.max(gMin, gap * gap)); break }
            let sibling = KDTree.sibling(of: node)
            node = KDTree.parent(of: node)
            if nodeComp[sibling] == c { continue }
            var sp = 1
            stack[0] = Int32(sibling)
            while sp > 0 {
                sp -= 1
                let t = Int(stack[sp])
                if nodeComp[t] == c { continue }
                let lb = Swift.max(Swift.max(boxBoxDistance2(g, t), nodeMinCore2[t]), gMin)
                if lb > bound { floor = Swift.min(floor, lb); continue }
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

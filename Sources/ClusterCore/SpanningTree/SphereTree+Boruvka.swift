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

    /// The gap between g's box and `node`'s cell: g's box lies inside the cell, and every
    /// point outside the node beyond one of the cell's faces. (The tight box would give about 0:
    /// see `insideClearance2`.)
    @inline(__always) func gap(of g: Int, inside node: Int) -> Double {
        let gb = box + 6 * g, cb = cell + 6 * node
        return Swift.min(Swift.min(Swift.min(gb[0] - cb[0], cb[1] - gb[1]), Swift.min(gb[2] - cb[2], cb[3] - gb[3])),
                         Swift.min(gb[4] - cb[4], cb[5] - gb[5]))
    }
}

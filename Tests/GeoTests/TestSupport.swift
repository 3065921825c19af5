import Geo

/// Even-odd ray casting over all rings (shell and holes), the brute-force reference for
/// point-in-polygon: a horizontal ray from the point to +∞ crosses the boundary an odd
/// number of times iff the point is inside. Points exactly on an edge are unspecified, so
/// callers use random points, which hit an edge with probability zero.
func rayCastingInside(x px: Double, y py: Double, rings: [Coordinates]) -> Bool {
    var inside = false
    for ring in rings {
        let n = ring.count
        var j = n - 1
        for i in 0..<n {
            let (xi, yi, xj, yj) = (ring.x[i], ring.y[i], ring.x[j], ring.y[j])
            // The edge straddles the ray's line, and the crossing lies right of the point.
            if (yi > py) != (yj > py), px < (xj - xi) * (py - yi) / (yj - yi) + xi {
                inside.toggle()
            }
            j = i
        }
    }
    return inside
}

extension Double {
    /// True when `self` and `other` differ by at most `tolerance` (absolute).
    func isClose(to other: Double, within tolerance: Double) -> Bool {
        abs(self - other) <= tolerance
    }
}

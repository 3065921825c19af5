import Geo

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny seeded generator, so every run of the
/// randomized tests sees the same points.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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

// Exact-sign orientation and in-circle tests for the Delaunay triangulation (Delaunay.swift).
//
// Each test first evaluates the determinant in floating point with an error bound (Shewchuk,
// "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997:
// the bounds `ccwerrboundA` and `iccerrboundA`); only when the result is within the bound of
// zero is it recomputed exactly, as a floating-point expansion (a sum of non-overlapping
// doubles). The exact path is short rather than fast: it runs for nearly degenerate input
// (collinear or cocircular points, as on a regular grid) and nowhere else.

enum Predicates {
    private static let epsilon = 0x1p-53
    private static let orientBound = (3.0 + 16.0 * epsilon) * epsilon
    private static let incircleBound = (10.0 + 96.0 * epsilon) * epsilon

    /// Positive when a, b, c turn counter-clockwise (in axes where y grows upwards), negative
    /// when clockwise, zero when collinear; exact.
    @inline(__always)
    static func orient(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
        let left = (ax - cx) * (by - cy)
        let right = (ay - cy) * (bx - cx)
        let det = left - right
        if abs(det) > orientBound * (abs(left) + abs(right)) { return det }
        return orientExact(ax, ay, bx, by, cx, cy)
    }

    /// Positive when d lies inside the circle through a, b, c (counter-clockwise), negative
    /// outside, zero on it; exact.
    @inline(__always)
    static func incircle(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                         _ cx: Double, _ cy: Double, _ dx: Double, _ dy: Double) -> Double {
        let adx = ax - dx, ady = ay - dy, bdx = bx - dx, bdy = by - dy, cdx = cx - dx, cdy = cy - dy
        let bdxcdy = bdx * cdy, cdxbdy = cdx * bdy, alift = adx * adx + ady * ady
        let cdxady = cdx * ady, adxcdy = adx * cdy, blift = bdx * bdx + bdy * bdy
        let adxbdy = adx * bdy, bdxady = bdx * ady, clift = cdx * cdx + cdy * cdy
        let det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady)
        let permanent = (abs(bdxcdy) + abs(cdxbdy)) * alift + (abs(cdxady) + abs(adxcdy)) * blift
            + (abs(adxbdy) + abs(bdxady)) * clift
        if abs(det) > incircleBound * permanent { return det }
        return incircleExact(ax, ay, bx, by, cx, cy, dx, dy)
    }

    static func orientExact(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
        let acx = difference(ax, cx), bcy = difference(by, cy), acy = difference(ay, cy), bcx = difference(bx, cx)
        return sign(sum(product(acx, bcy), negated(product(acy, bcx))))
    }

    static func incircleExact(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                              _ cx: Double, _ cy: Double, _ dx: Double, _ dy: Double) -> Double {
        let adx = difference(ax, dx), ady = difference(ay, dy)
        let bdx = difference(bx, dx), bdy = difference(by, dy)
        let cdx = difference(cx, dx), cdy = difference(cy, dy)
        let alift = sum(product(adx, adx), product(ady, ady))
        let blift = sum(product(bdx, bdx), product(bdy, bdy))
        let clift = sum(product(cdx, cdx), product(cdy, cdy))
        let bc = sum(product(bdx, cdy), negated(product(cdx, bdy)))
        let ca = sum(product(cdx, ady), negated(product(adx, cdy)))
        let ab = sum(product(adx, bdy), negated(product(bdx, ady)))
        return sign(sum(sum(product(alift, bc), product(blift, ca)), product(clift, ab)))
    }

    // Expansions: arrays of non-overlapping doubles in increasing magnitude, zeros dropped;
    // their exact sum is the value.

    @inline(__always)
    static func twoSum(_ a: Double, _ b: Double) -> (sum: Double, error: Double) {
        let x = a + b
        let bv = x - a, av = x - bv
        return (x, (a - av) + (b - bv))
    }

    @inline(__always)
    static func twoProduct(_ a: Double, _ b: Double) -> (product: Double, error: Double) {
        let x = a * b
        return (x, (-x).addingProduct(a, b))   // a·b − x with one rounding: exact
    }

    /// a − b exactly.
    static func difference(_ a: Double, _ b: Double) -> [Double] {
        let x = a - b
        let bv = a - x, av = x + bv
        let error = (a - av) + (bv - b)
        return [error, x].filter { $0 != 0 }
    }

    /// e + b (Shewchuk's Grow-Expansion).
    static func grow(_ e: [Double], _ b: Double) -> [Double] {
        var q = b
        var h: [Double] = []
        h.reserveCapacity(e.count + 1)
        for x in e {
            let (s, err) = twoSum(q, x)
            if err != 0 { h.append(err) }
            q = s
        }
        if q != 0 { h.append(q) }
        return h
    }

    /// e + f.
    static func sum(_ e: [Double], _ f: [Double]) -> [Double] {
        var h = e
        for x in f { h = grow(h, x) }
        return h
    }

    /// e · b (Shewchuk's Scale-Expansion).
    static func scaled(_ e: [Double], _ b: Double) -> [Double] {
        guard let first = e.first else { return [] }
        var h: [Double] = []
        h.reserveCapacity(2 * e.count)
        var (q, err) = twoProduct(first, b)
        if err != 0 { h.append(err) }
        for x in e.dropFirst() {
            let (hi, lo) = twoProduct(x, b)
            let (s1, e1) = twoSum(q, lo)
            if e1 != 0 { h.append(e1) }
            let (s2, e2) = twoSum(hi, s1)
            if e2 != 0 { h.append(e2) }
            q = s2
        }
        if q != 0 { h.append(q) }
        return h
    }

    /// e · f.
    static func product(_ e: [Double], _ f: [Double]) -> [Double] {
        var h: [Double] = []
        for x in f { h = sum(h, scaled(e, x)) }
        return h
    }

    static func negated(_ e: [Double]) -> [Double] { e.map { -$0 } }

    /// The sign of an expansion's value: that of its largest component.
    static func sign(_ e: [Double]) -> Double {
        guard let top = e.last else { return 0 }
        return top > 0 ? 1 : -1
    }
}

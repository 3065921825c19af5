// The few elementary functions the pure-Swift modules need (ClusterCore's great-circle
// distances, Pins' Web Mercator and privacy offsets).
//
// ClusterCore and Pins import neither Foundation nor a C library (so an app embeds them
// anywhere), and the Swift standard library has no sin, log or atan. These are short argument
// reductions plus Taylor polynomials, accurate to a few ulps over the ranges used (checked
// against the C library in PinsTests and ClusterCoreTests); they are not meant as a general
// maths library.

/// sin, cos, asin, log, exp and atan from IEEE basic operations (see the file's header).
package enum ElementaryMath {
    // π/2 split in two (Cody & Waite) so that x − k·π/2 is exact for the |k| used here.
    private static let halfPiHi = 1.570_796_326_734_125_614_17   // 33 significant bits
    private static let halfPiLo = 6.077_100_506_506_192_249_8e-11
    private static let ln2Hi = 6.931_471_803_691_238_164_90e-01
    private static let ln2Lo = 1.908_214_929_270_587_700_02e-10

    /// 1/k! for k = 2...17: the correctly rounded quotients 1/k! (k! is exact in a double up
    /// to 17!), written out as literals so that the polynomials below read constants rather
    /// than a lazily made array (that array's access and retain were a third of the mask's time).
    private static let f2 = 0.5, f3 = 0.16666666666666666, f4 = 0.041666666666666664
    private static let f5 = 0.008333333333333333, f6 = 0.001388888888888889, f7 = 0.0001984126984126984
    private static let f8 = 2.48015873015873e-05, f9 = 2.7557319223985893e-06, f10 = 2.755731922398589e-07
    private static let f11 = 2.505210838544172e-08, f12 = 2.08767569878681e-09, f13 = 1.6059043836821613e-10
    private static let f14 = 1.1470745597729725e-11, f15 = 7.647163731819816e-13, f16 = 4.779477332387385e-14
    private static let f17 = 2.8114572543455206e-15

    /// sin and cos of r with |r| <= π/4 by their Taylor series to r^17 and r^16 (the first
    /// omitted terms are below 1e-16), by Horner's rule.
    @inline(__always)
    private static func kernel(_ r: Double) -> (sin: Double, cos: Double) {
        let r2 = r * r
        var s = -f17
        s = -f15 + r2 * s; s = f13 + r2 * s; s = -f11 + r2 * s; s = f9 + r2 * s
        s = -f7 + r2 * s; s = f5 + r2 * s; s = -f3 + r2 * s
        var c = f16
        c = -f14 + r2 * c; c = f12 + r2 * c; c = -f10 + r2 * c; c = f8 + r2 * c
        c = -f6 + r2 * c; c = f4 + r2 * c; c = -f2 + r2 * c
        return (r + r * r2 * s, 1 + r2 * c)
    }

    /// Reduces x to r in [−π/4, π/4] with x = r + q·π/2; returns r and q mod 4.
    @inline(__always)
    private static func reduce(_ x: Double) -> (Double, Int) {
        let q = (x / (Double.pi / 2)).rounded(.toNearestOrEven)
        let r = (x - q * halfPiHi) - q * halfPiLo
        return (r, Int(q) & 3)
    }

    /// The sine of `x` (radians); meant for |x| up to a few thousand.
    package static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, q) = reduce(x)
        let k = kernel(r)
        switch q {
        case 0: return k.sin
        case 1: return k.cos
        case 2: return -k.sin
        default: return -k.cos
        }
    }

    /// The cosine of `x` (radians); meant for |x| up to a few thousand.
    package static func cos(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let (r, q) = reduce(x)
        let k = kernel(r)
        switch q {
        case 0: return k.cos
        case 1: return -k.sin
        case 2: return -k.cos
        default: return k.sin
        }
    }

    /// `(sin(x), cos(x))`, the same values as the two functions, from one reduction and one
    /// kernel evaluation.
    @inline(__always)
    package static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        let (r, q) = reduce(x)
        let k = kernel(r)
        switch q {
        case 0: return (k.sin, k.cos)
        case 1: return (k.cos, -k.sin)
        case 2: return (-k.sin, -k.cos)
        default: return (-k.cos, k.sin)
        }
    }

    /// The natural logarithm: −∞ for 0, NaN below 0.
    package static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        // x = m · 2^e with m in [√½, √2).
        var m = x.significand                       // [1, 2)
        var e = Double(x.exponent)
        if m > 1.414_213_562_373_095_048_8 { m *= 0.5; e += 1 }
        // log m = 2·atanh(s), s = (m − 1)/(m + 1), |s| <= 0.1716.
        let s = (m - 1) / (m + 1), s2 = s * s
        // Σ s^(2j)/(2j+1) by Horner's rule, from 1/23 down to 1/3 (each the rounded quotient).
        var t = 0.043478260869565216
        t = 0.047619047619047616 + s2 * t; t = 0.05263157894736842 + s2 * t; t = 0.058823529411764705 + s2 * t
        t = 0.06666666666666667 + s2 * t; t = 0.07692307692307693 + s2 * t; t = 0.09090909090909091 + s2 * t
        t = 0.1111111111111111 + s2 * t; t = 0.14285714285714285 + s2 * t; t = 0.2 + s2 * t
        t = 0.3333333333333333 + s2 * t
        let logM = 2 * s + 2 * s * s2 * t
        return e * ln2Hi + (logM + e * ln2Lo)
    }

    /// e raised to `x`.
    package static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.78 { return .infinity }
        if x < -745.1 { return 0 }
        let k = (x / 0.693_147_180_559_945_309_42).rounded(.toNearestOrEven)
        let r = (x - k * ln2Hi) - k * ln2Lo          // |r| <= ln2/2
        var p = f14                                   // Taylor to r^14/14!; the rest is below 1e-17
        p = f13 + r * p; p = f12 + r * p; p = f11 + r * p; p = f10 + r * p; p = f9 + r * p
        p = f8 + r * p; p = f7 + r * p; p = f6 + r * p; p = f5 + r * p; p = f4 + r * p
        p = f3 + r * p; p = f2 + r * p; p = 1 + r * p
        let er = 1 + r * p
        let ki = Int(k)
        if ki > 1000 { return er * Double(sign: .plus, exponent: 1000, significand: 1) * Double(sign: .plus, exponent: ki - 1000, significand: 1) }
        if ki < -1000 { return er * Double(sign: .plus, exponent: -1000, significand: 1) * Double(sign: .plus, exponent: ki + 1000, significand: 1) }
        return er * Double(sign: .plus, exponent: ki, significand: 1)
    }

    /// The arctangent of `x`, in (−π/2, π/2).
    package static func atan(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x.isInfinite { return x > 0 ? Double.pi / 2 : -Double.pi / 2 }
        var v = abs(x)
        var offset = 0.0, sign = 1.0
        if v > 1 { v = 1 / v; offset = Double.pi / 2; sign = -1 }
        // Two halvings: atan(v) = 2·atan(v / (1 + √(1 + v²))), leaving |v| <= tan(π/16) ≈ 0.199.
        v = v / (1 + (1 + v * v).squareRoot())
        v = v / (1 + (1 + v * v).squareRoot())
        // atan v = v − v³/3 + v⁵/5 − …, summed until the terms vanish (about 12 at most).
        let v2 = v * v
        var term = v, sum = v, n = 1.0
        while abs(term) > 1e-18 * abs(sum) {
            term *= -v2
            n += 2
            sum += term / n
        }
        let a = 4 * sum
        let r = offset + sign * a
        return x < 0 ? -r : r
    }

    /// The arcsine of `x` in [−1, 1], in [−π/2, π/2]: 2·atan(x / (1 + √(1 − x²))), which keeps
    /// full relative precision near 0 and near ±1.
    package static func asin(_ x: Double) -> Double {
        if x.isNaN || abs(x) > 1 { return .nan }
        return 2 * atan(x / (1 + ((1 - x) * (1 + x)).squareRoot()))
    }
}

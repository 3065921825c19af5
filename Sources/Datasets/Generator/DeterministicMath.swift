/// `log` and `exp` computed with IEEE basic operations only, so that they return the same
/// bits on every platform.
///
/// The C library's `log` and `exp` are not required to be correctly rounded, and glibc,
/// Apple's libm and musl do differ in the last bit for some arguments. The generator draws
/// every random number through these two functions (normal deviates, log-normal and
/// Pareto variables), so a one-ulp difference could change a generated file. These are
/// Swift transcriptions of fdlibm's `__ieee754_log` and `__ieee754_exp` (Sun Microsystems,
/// 1993, freely distributable): argument reduction and a fixed polynomial in `+ - * /`,
/// which IEEE 754 rounds identically everywhere (Swift does not contract `a * b + c`
/// into a fused multiply-add). Their error is below 1 ulp.
public enum DeterministicMath {
    private static let ln2Hi = 6.93147180369123816490e-01   // 0x3FE62E42 FEE00000
    private static let ln2Lo = 1.90821492927058770002e-10   // 0x3DEA39EF 35793C76
    private static let two54 = 1.80143985094819840000e+16   // 0x43500000 00000000
    private static let lg1 = 6.666666666666735130e-01       // 0x3FE55555 55555593
    private static let lg2 = 3.999999999940941908e-01       // 0x3FD99999 9997FA04
    private static let lg3 = 2.857142874366239149e-01       // 0x3FD24924 94229359
    private static let lg4 = 2.222219843214978396e-01       // 0x3FCC71C5 1D8E78AF
    private static let lg5 = 1.818357216161805012e-01       // 0x3FC74664 96CB03DE
    private static let lg6 = 1.531383769920937332e-01       // 0x3FC39A09 D078C69F
    private static let lg7 = 1.479819860511658591e-01       // 0x3FC2F112 DF3E5244

    private static let oThreshold = 7.09782712893383973096e+02   // 0x40862E42 FEFA39EF
    private static let uThreshold = -7.45133219101941108420e+02  // 0xC0874910 D52D3051
    private static let invLn2 = 1.44269504088896338700e+00       // 0x3FF71547 652B82FE
    private static let twoM1000 = 9.33263618503218878990e-302    // 2^-1000
    private static let p1 = 1.66666666666666019037e-01   // 0x3FC55555 5555553E
    private static let p2 = -2.77777777770155933842e-03  // 0xBF66C16C 16BEBD93
    private static let p3 = 6.61375632143793436117e-05   // 0x3F11566A AF25DE2C
    private static let p4 = -1.65339022054652515390e-06  // 0xBEBBBD41 C5D26BF1
    private static let p5 = 4.13813679705723846039e-08   // 0x3E663769 72BEA4D0

    /// The high 32 bits of `x`, as C's `__HI`.
    @inline(__always) private static func high(_ x: Double) -> Int32 {
        Int32(bitPattern: UInt32(truncatingIfNeeded: x.bitPattern >> 32))
    }

    /// `x` with its high 32 bits replaced.
    @inline(__always) private static func withHigh(_ x: Double, _ hi: Int32) -> Double {
        Double(bitPattern: (UInt64(UInt32(bitPattern: hi)) << 32) | (x.bitPattern & 0xFFFF_FFFF))
    }

    /// The natural logarithm: `-infinity` for 0, NaN for negative numbers and NaN.
    /// - Complexity: O(1), about 20 floating-point operations.
    public static func log(_ value: Double) -> Double {
        var x = value
        var hx = high(x)
        let lx = UInt32(truncatingIfNeeded: x.bitPattern)
        var k: Int32 = 0
        if hx < 0x0010_0000 {                       // x < 2^-1022
            if (hx & 0x7FFF_FFFF) == 0 && lx == 0 { return -.infinity }
            if hx < 0 { return .nan }
            k -= 54; x *= two54                     // subnormal: scale up
            hx = high(x)
        }
        if hx >= 0x7FF0_0000 { return x + x }
        k += (hx >> 20) - 1023
        hx &= 0x000F_FFFF
        var i = (hx &+ 0x95F64) & 0x10_0000
        x = withHigh(x, hx | (i ^ 0x3FF0_0000))     // normalise x or x/2
        k += i >> 20
        let f = x - 1.0
        if (0x000F_FFFF & (2 &+ hx)) < 3 {          // |f| < 2^-20
            if f == 0 {
                if k == 0 { return 0 }
                let dk = Double(k)
                return dk * ln2Hi + dk * ln2Lo
            }
            let r = f * f * (0.5 - 0.33333333333333333 * f)
            if k == 0 { return f - r }
            let dk = Double(k)
            return dk * ln2Hi - ((r - dk * ln2Lo) - f)
        }
        let s = f / (2.0 + f)
        let dk = Double(k)
        let z = s * s
        i = hx &- 0x6147A
        let w = z * z
        let j = 0x6B851 &- hx
        let t1 = w * (lg2 + w * (lg4 + w * lg6))
        let t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)))
        i |= j
        let r = t2 + t1
        if i > 0 {
            let hfsq = 0.5 * f * f
            if k == 0 { return f - (hfsq - s * (hfsq + r)) }
            return dk * ln2Hi - ((hfsq - (s * (hfsq + r) + dk * ln2Lo)) - f)
        }
        if k == 0 { return f - s * (f - r) }
        return dk * ln2Hi - ((s * (f - r) - dk * ln2Lo) - f)
    }

    /// e raised to `value`: `infinity` above about 709.78, 0 below about -745.13.
    /// - Complexity: O(1), about 20 floating-point operations.
    public static func exp(_ value: Double) -> Double {
        var x = value
        var hx = UInt32(truncatingIfNeeded: x.bitPattern >> 32)
        let negative = (hx >> 31) != 0
        hx &= 0x7FFF_FFFF
        if hx >= 0x4086_2E42 {                      // |x| >= 709.78...
            if hx >= 0x7FF0_0000 {
                if (hx & 0xF_FFFF) != 0 || UInt32(truncatingIfNeeded: x.bitPattern) != 0 { return x + x }  // NaN
                return negative ? 0 : x             // exp(±inf) = inf, 0
            }
            if x > oThreshold { return .infinity }
            if x < uThreshold { return 0 }
        }
        var hi = 0.0, lo = 0.0
        var k: Int32 = 0
        if hx > 0x3FD6_2E42 {                       // |x| > 0.5 ln 2
            if hx < 0x3FF0_A2B2 {                   // and |x| < 1.5 ln 2
                hi = negative ? x + ln2Hi : x - ln2Hi
                lo = negative ? -ln2Lo : ln2Lo
                k = negative ? -1 : 1
            } else {
                // C's (int) conversion truncates toward zero, as Int32(_:) does.
                k = Int32(invLn2 * x + (negative ? -0.5 : 0.5))
                let t = Double(k)
                hi = x - t * ln2Hi                  // exact: t * ln2Hi has spare low bits
                lo = t * ln2Lo
            }
            x = hi - lo
        } else if hx < 0x3E30_0000 {                // |x| < 2^-28
            return 1 + x
        }
        let t = x * x
        let c = x - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))))
        if k == 0 { return 1 - ((x * c) / (c - 2.0) - x) }
        let y = 1 - ((lo - (x * c) / (2.0 - c)) - hi)
        if k >= -1021 {
            return withHigh(y, high(y) &+ (k << 20))          // add k to the exponent
        }
        return withHigh(y, high(y) &+ ((k + 1000) << 20)) * twoM1000
    }
}

extension DeterministicMath {
    // fdlibm's __kernel_sin and __kernel_cos coefficients (k_sin.c, k_cos.c).
    private static let s1 = -1.66666666666666324348e-01  // 0xBFC55555 55555549
    private static let s2 = 8.33333333332248946124e-03   // 0x3F811111 1110F8A6
    private static let s3 = -1.98412698298579493134e-04  // 0xBF2A01A0 19C161D5
    private static let s4 = 2.75573137070700676789e-06   // 0x3EC71DE3 57B1FE7D
    private static let s5 = -2.50507602534068634195e-08  // 0xBE5AE5E6 8A2B9CEB
    private static let s6 = 1.58969099521155010221e-10   // 0x3DE5D93A 5ACFD57C
    private static let c1 = 4.16666666666666019037e-02   // 0x3FA55555 5555554C
    private static let c2 = -1.38888888888741095749e-03  // 0xBF56C16C 16C15177
    private static let c3 = 2.48015872894767294178e-05   // 0x3EFA01A0 19CB1590
    private static let c4 = -2.75573143513906633035e-07  // 0xBE927E4F 809C52AD
    private static let c5 = 2.08757232129817482790e-09   // 0x3E21EE9E BDB4B1C4
    private static let c6 = -1.13596475577881948265e-11  // 0xBDA8FAE9 BE8838D4
    /// π/2 in 33-bit parts with tails, as fdlibm's e_rem_pio2.c splits it.
    private static let pio2_1 = 1.57079632673412561417e+00   // 0x3FF921FB 54400000
    private static let pio2_1t = 6.07710050650619224932e-11  // 0x3DD0B461 1A626331
    private static let pio2_2 = 6.07710050630396597660e-11   // 0x3DD0B461 1A600000
    private static let pio2_2t = 2.02226624879595063154e-21  // 0x3BA3198A 2E037073
    private static let pio2_3 = 2.02226624871116645580e-21   // 0x3BA3198A 2E000000
    private static let pio2_3t = 8.47842766036889956997e-32  // 0x397B839A 252049C1
    private static let pio4 = 0x1.921FB54442D18p-1

    /// The cosine of `x` radians, for |x| ≤ π/2 (a latitude): fdlibm's `__kernel_cos`, or
    /// `__kernel_sin` of π/2 − |x| (π/2 carried in two parts) above π/4. IEEE basic
    /// operations only, so the same bits on every platform; error below 1 ulp.
    /// - Precondition: |x| ≤ π/2 + 1e-9 (a little slack for a latitude of ±90° in radians).
    public static func cos(_ x: Double) -> Double {
        let a = abs(x)
        precondition(a <= 1.5707963277948966, "DeterministicMath.cos takes |x| ≤ π/2")
        if a <= pio4 { return kernelCos(a, 0) }
        let (head, tail) = complement(a)
        return kernelSin(head, tail)
    }

    /// The sine of `x` radians, for |x| ≤ π/2, by the same kernels as ``cos(_:)``.
    /// - Precondition: |x| ≤ π/2 + 1e-9.
    public static func sin(_ x: Double) -> Double {
        let a = abs(x)
        precondition(a <= 1.5707963277948966, "DeterministicMath.sin takes |x| ≤ π/2")
        let s: Double
        if a <= pio4 {
            s = kernelSin(a, 0)
        } else {
            let (head, tail) = complement(a)
            s = kernelCos(head, tail)
        }
        return x < 0 ? -s : s
    }

    /// π/2 − a as head + tail, for π/4 < a ≤ π/2 (+ slack): fdlibm's medium-size reduction
    /// with n = 1 (e_rem_pio2.c): `a - pio2_1` is exact, and where the difference cancels
    /// (its exponent 16 or 49 below a's) the next 33 bits of π/2 are taken in, so the result
    /// keeps its relative accuracy next to π/2 too.
    private static func complement(_ a: Double) -> (Double, Double) {
        func exponent(_ v: Double) -> Int { Int((v.bitPattern >> 52) & 0x7FF) }
        var r = a - pio2_1
        var w = pio2_1t
        var head = r - w
        if exponent(a) - exponent(head) > 16 {
            var t = r
            w = pio2_2
            r = t - w
            w = pio2_2t - ((t - r) - w)
            head = r - w
            if exponent(a) - exponent(head) > 49 {
                t = r
                w = pio2_3
                r = t - w
                w = pio2_3t - ((t - r) - w)
                head = r - w
            }
        }
        let tail = (r - head) - w
        return (-head, -tail)
    }

    /// fdlibm's `__kernel_sin(x, y, 1)`: sin(x + y) for |x| ≤ π/4, y the tail of x.
    private static func kernelSin(_ x: Double, _ y: Double) -> Double {
        if abs(x) < 0x1p-27 { return x }
        let z = x * x
        let v = z * x
        let r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))
        return x - ((z * (0.5 * y - v * r) - y) - v * s1)
    }

    /// fdlibm's `__kernel_cos(x, y)`: cos(x + y) for |x| ≤ π/4, y the tail of x.
    private static func kernelCos(_ x: Double, _ y: Double) -> Double {
        let ax = abs(x)
        if ax < 0x1p-27 { return 1 }
        let z = x * x
        let r = z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))))
        if ax < 0.3 { return 1 - (0.5 * z - (z * r - x * y)) }
        // qx: |x|/4 with the low word cleared (C: __HI(qx) = ix - 0x00200000), or 0.28125
        // above 0.78125.
        let high = ax.bitPattern >> 32
        let qx = high > 0x3FE9_0000 ? 0.28125 : Double(bitPattern: (high - 0x0020_0000) << 32)
        let hz = 0.5 * z - qx
        let a = 1 - qx
        return a - (hz - (z * r - x * y))
    }
}

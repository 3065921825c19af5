#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses a decimal number from field bytes without creating a String; nil when the text is
/// not a number. Spaces around the number are ignored; anything `strtod` accepts is
/// accepted (so `NaN` and `inf` parse, and callers reject them as non-finite).
///
/// A plain decimal such as `37.551234`, `-1.5e3` or `126.97796919000001` with at most 19
/// significant digits is converted by `decimalToDouble` (Clinger's exact fast path, else
/// Eisel–Lemire); everything else, and the rare values those two leave open, goes to `strtod`
/// (correctly rounded in glibc and Apple's libc), so the result is always `strtod`'s.
///
/// The fast path nearly halves the reading of a numeric file against `strtod` for every
/// number, which also needs a copy to a NUL-terminated buffer (measured: docs/performance.md).
///
/// - Complexity: O(field length).
@inline(__always)
func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var lo = 0, hi = bytes.count
    while lo < hi && bytes[lo] == 0x20 { lo += 1 }
    while hi > lo && bytes[hi - 1] == 0x20 { hi -= 1 }
    if lo == hi { return nil }
    if let v = fastDecimal(bytes, lo, hi) { return v }
    return strtodField(bytes, lo, hi)
}

/// `parseDouble`, also reading a decimal comma (`37,5` as 37.5) when `decimalComma` is set.
/// The comma is tried only after the plain parse fails, so a file with decimal points costs
/// the same as without the option.
/// - Complexity: O(field length).
@inline(__always)
func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Double? {
    if let v = parseDouble(bytes) { return v }
    return decimalComma ? parseDecimalComma(bytes) : nil
}

/// A number written with one decimal comma and no point, parsed as `parseDouble` parses it
/// with a point in the comma's place; nil for anything else.
@inline(never)
func parseDecimalComma(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var comma = -1
    for (k, b) in bytes.enumerated() {
        if b == UInt8(ascii: ".") { return nil }
        if b == UInt8(ascii: ",") {
            if comma >= 0 { return nil }
            comma = k
        }
    }
    guard comma >= 0 else { return nil }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { copy in
        _ = copy.initialize(from: bytes)
        copy[comma] = UInt8(ascii: ".")
        return parseDouble(UnsafeBufferPointer(copy))
    }
}

/// The fast path of `parseDouble`, or nil when the text needs `strtod` (or is no number).
@inline(__always)
private func fastDecimal(_ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Double? {
    var i = lo
    var negative = false
    if b[i] == 0x2D { negative = true; i += 1 } else if b[i] == 0x2B { i += 1 }
    var mantissa: UInt64 = 0
    var significant = 0     // digits from the first non-zero one on
    var digits = 0          // all mantissa digits seen
    var exponent = 0
    while i < hi {
        let d = b[i] &- 0x30
        if d > 9 { break }
        mantissa = mantissa &* 10 &+ UInt64(d)
        if significant > 0 || d != 0 { significant += 1 }
        digits += 1; i += 1
    }
    if i < hi && b[i] == 0x2E {
        i += 1
        while i < hi {
            let d = b[i] &- 0x30
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            if significant > 0 || d != 0 { significant += 1 }
            digits += 1; exponent -= 1; i += 1
        }
    }
    if digits == 0 { return nil }
    if i < hi && (b[i] == 0x65 || b[i] == 0x45) {
        i += 1
        var expNegative = false
        if i < hi && b[i] == 0x2D { expNegative = true; i += 1 } else if i < hi && b[i] == 0x2B { i += 1 }
        var e = 0, expDigits = 0
        while i < hi {
            let d = b[i] &- 0x30
            if d > 9 { break }
            if e < 10_000 { e = e * 10 + Int(d) }
            expDigits += 1; i += 1
        }
        if expDigits == 0 { return nil }
        exponent += expNegative ? -e : e
    }
    // Trailing garbage or too many digits for an exact 64-bit mantissa.
    guard i == hi, significant <= 19 else { return nil }
    return decimalToDouble(mantissa, exponent, negative: negative)
}

/// A plain decimal field scanned in place: `[+-]digits[.digits][(e|E)[+-]digits]` starting at
/// `start`, with at most 19 digits in all and at least one before the exponent. Returns the
/// value and the index after the number, or nil when the text is anything else or the value
/// needs `strtod`; the caller then checks that the number ends the field (no spaces, quotes
/// or other bytes after it) and otherwise hands the whole field to `parseDouble`. Whenever it
/// returns a value, that value is `parseDouble`'s for the same field.
///
/// This is the CSV reader's number path: it reads each digit once, while finding where the
/// field ends, instead of finding the end first and parsing the bytes again.
/// - Complexity: O(number length).
@inline(__always)
func scanDecimal(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (value: Double, next: Int)? {
    var i = start
    var negative = false
    if i < end {
        if b[i] == 0x2D { negative = true; i += 1 } else if b[i] == 0x2B { i += 1 }
    }
    var mantissa: UInt64 = 0
    let first = i
    while i < end {
        let d = b[i] &- 0x30
        if d > 9 { break }
        mantissa = mantissa &* 10 &+ UInt64(d)
        i += 1
    }
    var digits = i - first
    var exponent = 0
    if i < end && b[i] == 0x2E {
        i += 1
        let fraction = i
        while i < end {
            let d = b[i] &- 0x30
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
        }
        exponent = fraction - i
        digits += i - fraction
    }
    // 19 digits always fit in 64 bits; longer mantissas (leading zeros included) go the long way.
    guard digits > 0, digits <= 19 else { return nil }
    if i < end && (b[i] | 0x20) == 0x65 {
        i += 1
        var expNegative = false
        if i < end && b[i] == 0x2D { expNegative = true; i += 1 } else if i < end && b[i] == 0x2B { i += 1 }
        var e = 0
        let expStart = i
        while i < end {
            let d = b[i] &- 0x30
            if d > 9 { break }
            if e < 10_000 { e = e * 10 + Int(d) }
            i += 1
        }
        if i == expStart { return nil }
        exponent += expNegative ? -e : e
    }
    // Clinger's case inline (see `decimalToDouble`): the CSV reader's numbers nearly all are.
    if mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
        let m = Double(mantissa)
        let v = exponent < 0 ? m / exactPowerOfTen(-exponent) : m * exactPowerOfTen(exponent)
        return (negative ? -v : v, i)
    }
    guard let v = eiselLemire(mantissa, exponent) else { return nil }
    return (negative ? -v : v, i)
}

/// The double nearest to ±`mantissa` × 10^`exponent` (ties to even), or nil when neither fast
/// method settles it (the caller then asks `strtod`).
///
/// Clinger (1990): when m ≤ 2^53 and |e| ≤ 22, `Double(m) * 10^e` or `Double(m) / 10^-e` is one
/// IEEE operation on two exact doubles, so it rounds correctly. Otherwise Eisel–Lemire
/// (Lemire 2021): m × 5^e from a 128-bit table, exact for every 64-bit m (Mushtak & Lemire
/// 2023 prove the 128-bit product always suffices); results that would be subnormal or
/// infinite are left to `strtod`.
@inline(__always)
func decimalToDouble(_ mantissa: UInt64, _ exponent: Int, negative: Bool) -> Double? {
    if mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
        let m = Double(mantissa)
        let v = exponent < 0 ? m / exactPowerOfTen(-exponent) : m * exactPowerOfTen(exponent)
        return negative ? -v : v
    }
    guard let v = eiselLemire(mantissa, exponent) else { return nil }
    return negative ? -v : v
}

/// Eisel–Lemire: the double nearest to `w` × 10^`q` for w > 0, or nil for zero, a result
/// outside the normal range (subnormal or overflowing), or q outside the table.
/// The steps and constants are those of Lemire's paper (section 5) and the fast_float library.
@inline(never)
func eiselLemire(_ w0: UInt64, _ q: Int) -> Double? {
    guard w0 != 0, q >= -342, q <= 308 else { return nil }
    let lz = w0.leadingZeroBitCount
    let w = w0 << UInt64(lz)
    let index = 2 * (q + 342)
    // The top 64 bits of w × 5^q (its 128-bit approximation); the low half of the table entry
    // is needed only when the bits below the 55 kept ones are all ones (a carry may reach them).
    var (hi, lo) = w.multipliedFullWidth(by: powersOfFive128[index])
    let precisionMask = UInt64.max >> 55
    if hi & precisionMask == precisionMask {
        let (hi2, _) = w.multipliedFullWidth(by: powersOfFive128[index + 1])
        let (sum, carry) = lo.addingReportingOverflow(hi2)
        lo = sum
        if carry { hi &+= 1 }
    }
    let upperBit = Int(hi >> 63)
    let shift = UInt64(upperBit + 64 - 52 - 3)
    var m = hi >> shift
    // Biased binary exponent: floor(q log2 10) + 63 from the fixed-point product 217706/2^16.
    var power2 = ((217_706 * q) >> 16) + 63 + upperBit - lz + 1023
    guard power2 > 0 else { return nil }
    // Exactly halfway between two doubles (possible only for small q): round to even.
    if lo <= 1 && q >= -4 && q <= 23 && m & 3 == 1 && (m << shift) == hi {
        m &= ~1
    }
    m += m & 1
    m >>= 1
    if m >= 2 << 52 {
        m = 1 << 52
        power2 += 1
    }
    m &= ~(1 << 52)
    guard power2 < 0x7FF else { return nil }
    return Double(bitPattern: UInt64(power2) << 52 | m)
}

/// 10^e for 0 ≤ e ≤ 22, every one exactly representable as a Double (5^22 < 2^53).
/// A switch rather than a global array: no lazy-initialisation check in the hot loop.
@inline(__always)
private func exactPowerOfTen(_ e: Int) -> Double {
    switch e {
    case 0: return 1e0
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    default: return 1e22
    }
}

/// `strtod` over the trimmed bytes `lo..<hi`; nil unless it consumes them all.
private func strtodField(_ bytes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Double? {
    let len = hi - lo
    // strtod needs a NUL-terminated copy: on the stack for ordinary fields.
    if len > 63 {
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[lo..<hi]), as: UTF8.self))
    }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { tmp -> Double? in
        for i in 0..<len { tmp[i] = CChar(bitPattern: bytes[lo + i]) }
        tmp[len] = 0
        var end: UnsafeMutablePointer<CChar>? = nil
        let v = strtod(tmp.baseAddress!, &end)
        guard let e = end, e - tmp.baseAddress! == len else { return nil }
        return v
    }
}

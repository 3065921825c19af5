// Numbers as the report prints them. Written here rather than with `String(format:)`, which
// needs Foundation (left out of the CLI for start-up time), and so that the page's bytes do not
// depend on a locale: the same records give the same text everywhere.
import Datasets
import Harness

/// Text for the numbers in tables, axes and legends: three significant digits for measured
/// values, fixed decimals for scores, compact counts (`10k`, `3.2M`) for sizes.
public enum ReportFormat {
    /// `value` with `digits` significant digits, trailing zeros kept (`1.50`), never in
    /// exponent notation; digits left of the decimal point are never rounded away
    /// (`1234.5` → `1235` at 3 digits). Non-finite values give `–`.
    public static func significant(_ value: Double, digits: Int = 3) -> String {
        precondition(digits >= 1, "significant(_:digits:) needs at least one digit")
        guard value.isFinite else { return "–" }
        if value == 0 { return "0" }
        let magnitude = abs(value)
        var decimals = max(0, digits - 1 - decimalExponent(magnitude))
        var scaled = (magnitude * power10(decimals)).rounded()
        // Rounding up to the next power of ten (9.996 → 10.00) would add a digit.
        if decimals > 0, scaled >= power10(digits) {
            decimals -= 1
            scaled = (magnitude * power10(decimals)).rounded()
        }
        // Beyond Int64's exact range the report has no such numbers; fall back to Swift's text.
        guard scaled < 9e15 else { return value.description }
        return (value < 0 ? "-" : "") + placeDecimalPoint(Int64(scaled), decimals: decimals)
    }

    /// `value` with exactly `decimals` decimals (`0.870`, `-0.012`): for scores in [-1, 1].
    public static func fixed(_ value: Double, decimals: Int = 3) -> String {
        guard value.isFinite else { return "–" }
        let scaled = (abs(value) * power10(decimals)).rounded()
        guard scaled < 9e15 else { return value.description }
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return sign + placeDecimalPoint(Int64(scaled), decimals: decimals)
    }

    /// A duration in seconds as `1.23 s`, `45.6 ms` or `789 µs` (3 significant digits).
    public static func seconds(_ value: Double) -> String {
        let (scale, unit) = timeUnit(value)
        return significant(value * scale) + " " + unit
    }

    /// A spread of seconds as `1.23 s [1.20–1.31]`: the median, then the minimum and maximum
    /// in the median's unit.
    public static func seconds(_ spread: Spread) -> String {
        let median = seconds(spread.median)
        if spread.min == spread.max { return median }
        return median + " [" + secondsRange(spread) + "]"
    }

    /// The fastest and slowest of a spread in the median's unit, `20.8–22.5` (the unit is the
    /// median's, printed beside it).
    public static func secondsRange(_ spread: Spread) -> String {
        let (scale, _) = timeUnit(spread.median)
        return significant(spread.min * scale) + "–" + significant(spread.max * scale)
    }

    /// A count with thousands separated by commas: `100,000`.
    public static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// A size in points as `950`, `10k`, `1.5M`, `3.2G`: two significant digits, trailing
    /// zeros dropped, for axes and the time-budget table.
    public static func compactCount(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let magnitude = abs(value)
        let (scale, suffix): (Double, String) =
            magnitude >= 999.5e6 ? (1e-9, "G") : magnitude >= 999.5e3 ? (1e-6, "M") : magnitude >= 999.5 ? (1e-3, "k") : (1, "")
        var text = significant(value * scale, digits: 2)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text + suffix
    }

    /// A fraction as a percentage, `12.3 %` (3 significant digits).
    public static func percent(_ fraction: Double) -> String {
        significant(fraction * 100) + " %"
    }

    /// The multiplier and unit that put `seconds` in [1, 1000) of its unit, choosing the larger
    /// unit where rounding to 3 digits would print `1000`.
    private static func timeUnit(_ seconds: Double) -> (Double, String) {
        let magnitude = abs(seconds)
        if magnitude >= 0.9995 || magnitude == 0 || !magnitude.isFinite { return (1, "s") }
        if magnitude >= 0.9995e-3 { return (1e3, "ms") }
        return (1e6, "µs")
    }

    /// ⌊log10 magnitude⌋ for a positive finite magnitude, by comparison with exact powers of
    /// ten rather than `log10`, whose rounding near powers of ten differs between C libraries.
    static func decimalExponent(_ magnitude: Double) -> Int {
        var e = Int((DeterministicMath.log(magnitude) / ln10).rounded(.down))
        while power10(e) > magnitude { e -= 1 }
        while power10(e + 1) <= magnitude { e += 1 }
        return e
    }

    /// 10^e by repeated multiplication (exact up to 10^22, then correctly ordered).
    static func power10(_ e: Int) -> Double {
        var p = 1.0
        for _ in 0..<e.magnitude { p *= 10 }
        return e < 0 ? 1 / p : p
    }

    static let ln10 = DeterministicMath.log(10)

    /// `digits` with a decimal point `decimals` places from the right, zero-padded (`123`, 4 →
    /// `0.0123`).
    private static func placeDecimalPoint(_ digits: Int64, decimals: Int) -> String {
        var text = String(digits)
        guard decimals > 0 else { return text }
        if text.count <= decimals { text = String(repeating: "0", count: decimals + 1 - text.count) + text }
        let split = text.index(text.endIndex, offsetBy: -decimals)
        return text[..<split] + "." + text[split...]
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers formatted by the C library's `printf` (`%d`, `%.3f`, `%9.1f`, `%e` …), with its
/// rounding: what `String(format:)` gives, without Foundation, which the command line leaves
/// out for start-up time. The map-pin outputs, the console tables and the reports use it, so
/// every number reads the same as in earlier releases.
public enum FormatNumber {
    /// `v` with exactly `decimals` places (`%.{decimals}f`).
    /// `1,234,567`: thousands separated by commas.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// The shortest text that reads back as `v` (Swift's own), without `.0` on whole numbers:
    /// `1500`, `0.1`, `1e-05`. Valid JSON and CSV for a finite `v`.
    public static func shortest(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }

    public static func fixed(_ v: Double, decimals: Int) -> String { printf("%.\(decimals)f", v) }

    /// `v` rounded to `decimals` places, trailing zeros (and a trailing point) dropped.
    public static func trimmed(_ v: Double, decimals: Int) -> String {
        var text = fixed(v, decimals: decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// `printf`'s rendering of `arguments` by `format`.
    public static func printf(_ format: String, _ arguments: CVarArg...) -> String {
        printf(format, arguments)
    }

    /// `printf`'s rendering of `arguments` by `format`.
    public static func printf(_ format: String, _ arguments: [CVarArg]) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            if needed >= buffer.count {
                buffer = [CChar](repeating: 0, count: needed + 1)
                _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
            }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ReportFormat {
    /// `printf`-style formatting of numbers (C's `vsnprintf`: `%d`, `%.3f`, `%9.1f`, `%e` …) with
    /// the C library's rounding, for the console tables: what `String(format:)` gives, without
    /// Foundation, which the command line leaves out for start-up time.
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

    /// `text` padded with spaces, or cut, to `width` characters: a column of a console table.
    public static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}

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

/// A JSON value as GeoJSON input needs it: numbers kept as their text (so `50000` is carried
/// through as `50000`, never `50000.0`, and coordinates are parsed once, exactly), object
/// members in file order (so carried-through properties keep their order).
///
/// Written for this module instead of `JSONSerialization`, which loses member order and
/// the integer/decimal distinction, and on Linux (Swift 6.3) is not correctly rounded:
/// of 400,000 random longitudes written with 17 and with 6 significant decimals it read
/// 121,411 one ulp or more away from `strtod`. `JSONDecoder` read all of them exactly but
/// needs a fixed schema; properties are free-form.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's text, valid RFC 8259 number syntax.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The member `key` of an object (the first, if repeated); nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The kind, for messages: "an object", "a number", …
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Compact JSON text (numbers as read, strings escaped), for carrying nested values
    /// through as one field.
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let text): return text
        case .string(let s): return JSONText.quoted(s)
        case .array(let items): return "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONText.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }
}

/// One member of a JSON object.
public struct JSONMember: Equatable, Sendable {
    /// The member's name and value.
    public var key: String
    public var value: JSONValue

    /// A member named `key` with `value`.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// JSON text helpers shared by the readers and writers, and the one JSON string escaper of
/// the project (the command line's JSON output uses it too).
public enum JSONText {
    /// `s` as a JSON string literal (RFC 8259 §7): quotes and backslashes escaped, line feed,
    /// carriage return and tab as `\n`, `\r`, `\t`, other control characters (below U+0020)
    /// as `\u00XX` with lowercase hex; everything else, non-ASCII included, as it is.
    /// - Complexity: O(length of `s`).
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// Whether `bytes` are exactly one JSON number (RFC 8259 §6):
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        func digits() -> Int {
            let start = i
            while i < n && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
            return i - start
        }
        if i < n && bytes[i] == 0x2D { i += 1 }
        guard i < n else { return false }
        if bytes[i] == 0x30 { i += 1 } else if digits() == 0 { return false }
        if i < n && bytes[i] == 0x2E { i += 1; if digits() == 0 { return false } }
        if i < n && (bytes[i] == 0x65 || bytes[i] == 0x45) {
            i += 1
            if i < n && (bytes[i] == 0x2B || bytes[i] == 0x2D) { i += 1 }
            if digits() == 0 { return false }
        }
        return i == n
    }

    public static func isNumber(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { isNumber($0) }
    }

    /// The largest integer every JSON reader holds exactly: 2^53 − 1 (JavaScript's
    /// `Number.MAX_SAFE_INTEGER`; 2^53 + 1 already reads as 2^53).
    public static let maxSafeInteger: Int64 = (1 << 53) - 1

    /// Whether an id's text is written as a JSON number: only a plain integer (an optional
    /// minus, then `0` or digits without a leading zero; no decimal point, no exponent, not
    /// `-0`) within ±``maxSafeInteger``. Any reader then reads the number back as the same
    /// text; every other id (`1e3`, `007`, `12345678901234567890123`) is written as a string.
    public static func isSafeInteger(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { b in
            let negative = b.first == 0x2D
            let digits = UnsafeBufferPointer(rebasing: b[(negative ? 1 : 0)...])
            guard (1...16).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
            guard digits[0] != 0x30 || (digits.count == 1 && !negative) else { return false }
            let value = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
            return value <= maxSafeInteger
        }
    }

    /// Whether a (non-id) field's text is written as a JSON number: a JSON number whose value
    /// a reader holding doubles keeps, that is, the text has the same decimal value as the
    /// shortest text of the double nearest to it (`12.50`, `1e3`, `0.1`, `-0` qualify;
    /// `12345678901234567890123`, `9007199254740993`, `0.30000000000000000001` and `1e999`
    /// do not and are written as strings, as they are).
    public static func keepsValue(_ s: String) -> Bool {
        guard isNumber(s), let d = Double(s), d.isFinite,
              let given = decimalValue(s), let kept = decimalValue(d.description) else { return false }
        return given == kept
    }

    /// A decimal number's text as (sign, significant digits without leading or trailing
    /// zeros, exponent) with the value 0.digits × 10^exponent; zero is `(false, "", 0)`.
    /// Accepts JSON numbers and Swift's `Double.description` (`1.5e+22`, `1000.0`).
    static func decimalValue(_ s: String) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
        var negative = false, mantissa: [UInt8] = [], point: Int? = nil, exponent = 0
        var bytes = Substring(s).utf8[...]
        if bytes.first == 0x2D { negative = true; bytes = bytes.dropFirst() }
        while let c = bytes.first, c != 0x65, c != 0x45 {
            if c == 0x2E { point = mantissa.count } else if c >= 0x30 && c <= 0x39 { mantissa.append(c) } else { return nil }
            bytes = bytes.dropFirst()
        }
        if !bytes.isEmpty {
            guard let e = Int(Substring(bytes.dropFirst())) else { return nil }
            exponent = e
        }
        var whole = point ?? mantissa.count
        let leading = mantissa.prefix { $0 == 0x30 }.count
        mantissa.removeFirst(leading)
        whole -= leading
        while mantissa.last == 0x30 { mantissa.removeLast() }
        if mantissa.isEmpty { return (false, [], 0) }
        let (sum, overflow) = whole.addingReportingOverflow(exponent)
        return overflow ? nil : (negative, mantissa, sum)
    }
}

/// A recursive-descent JSON parser (RFC 8259) over bytes in memory. Besides whole values it
/// can walk the members of the top-level object one at a time, so a FeatureCollection is
/// read feature by feature without building the whole document. Syntax errors are
/// `DatasetError.invalidJSON` with the 1-based line and byte column.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The file, for messages.
    let path: String
    var i = 0
    /// Nesting deeper than this is rejected rather than risking the stack.
    static let maxDepth = 256

    init(_ bytes: UnsafeBufferPointer<UInt8>, path: String) {
        self.bytes = bytes
        self.path = path
    }

    /// 1-based line and column (in bytes) of `offset`.
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for k in 0..<min(offset, bytes.count) where bytes[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The syntax error `reason` at the current position (or at `offset`).
    func fail(_ reason: String, at offset: Int? = nil) -> DatasetError {
        let (line, column) = Self.position(of: offset ?? i, in: bytes)
        return .invalidJSON(path: path, line: line, column: column, reason: reason)
    }

    mutating func skipWhitespace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { break }
        }
    }

    /// Whether only whitespace is left.
    mutating func atEnd() -> Bool {
        skipWhitespace()
        return i == bytes.count
    }

    /// The next non-whitespace byte, not consumed; nil at the end.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return i < bytes.count ? bytes[i] : nil
    }

    /// Consumes `byte` (after whitespace) or fails naming what was expected.
    mutating func expect(_ byte: UInt8, _ what: String) throws(DatasetError) {
        guard peek() == byte else { throw fail("expected \(what), found \(found())") }
        i += 1
    }

    /// The token at the current position, for messages.
    func found() -> String {
        guard i < bytes.count else { return "the end of the file" }
        let b = bytes[i]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16)
    }

    mutating func parseValue(depth: Int = 0) throws(DatasetError) -> JSONValue {
        guard depth < Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        guard let b = peek() else { throw fail("expected a value, found the end of the file") }
        switch b {
        case UInt8(ascii: "{"):
            i += 1
            var members: [JSONMember] = []
            if peek() == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                let key = try parseKey()
                members.append(JSONMember(key: key, value: try parseValue(depth: depth + 1)))
                guard let next = peek() else { throw fail("expected ',' or '}', found the end of the file") }
                i += 1
                if next == UInt8(ascii: "}") { return .object(members) }
                if next != UInt8(ascii: ",") { i -= 1; throw fail("expected ',' or '}', found \(found())") }
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            if peek() == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                items.append(try parseValue(depth: depth + 1))
                guard let next = peek() else { throw fail("expected ',' or ']', found the end of the file") }
                i += 1
                if next == UInt8(ascii: "]") { return .array(items) }
                if next != UInt8(ascii: ",") { i -= 1; throw fail("expected ',' or ']', found \(found())") }
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            if b == UInt8(ascii: "-") || (b >= 0x30 && b <= 0x39) { return .number(try parseNumber()) }
            throw fail("expected a value, found \(found())")
        }
    }

    /// An object key and the colon after it.
    mutating func parseKey() throws(DatasetError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a member name in double quotes, found \(found())") }
        let key = try parseString()
        try expect(UInt8(ascii: ":"), "':' after the member name")
        return key
    }

    private mutating func literal(_ word: StaticString) throws(DatasetError) {
        let n = word.utf8CodeUnitCount
        let start = i
        guard i + n <= bytes.count else { throw fail("expected a value, found \(found())") }
        for k in 0..<n where bytes[start + k] != word.utf8Start[k] {
            throw fail("expected a value, found \(found())")
        }
        i += n
    }

    private mutating func parseNumber() throws(DatasetError) -> String {
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            if (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2B || b == 0x2E || b == 0x65 || b == 0x45 { i += 1 } else { break }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<i])
        guard JSONText.isNumber(text) else {
            let bad = String(decoding: text, as: UTF8.self)
            i = start
            throw fail("'\(bad)' is not a JSON number")
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A string literal (the opening quote is next).
    mutating func parseString() throws(DatasetError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw fail("a control character (byte 0x\(String(b, radix: 16))) inside a string; escape it") }
            i += 1
        }
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<i]))
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw fail("a control character (byte 0x\(String(b, radix: 16))) inside a string; escape it") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // A high surrogate must be followed by \u and a low one.
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone UTF-16 surrogate in a \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw fail("a lone UTF-16 surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw fail("a lone UTF-16 surrogate in a \\u escape")
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            default:
                i -= 1
                throw fail("'\\\(Character(Unicode.Scalar(e)))' is not a JSON escape")
            }
        }
        throw fail("a string is never closed; add the closing \"", at: start - 1)
    }

    private mutating func hex4() throws(DatasetError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("a \\u escape needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw fail("a \\u escape needs four hex digits")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }
}

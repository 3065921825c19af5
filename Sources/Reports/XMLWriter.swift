// A small streaming writer for SVG and HTML: elements, attributes and text, every value
// escaped. Why not a library: Plot and swift-mustache (the HTML libraries on this machine) both
// import Foundation, which the CLI leaves out for start-up time, and Plot writes attribute
// values as given, so a title containing `"` would break out of its attribute.

/// Builds XML (SVG) or HTML text. Every attribute value and text run is escaped; only `raw`
/// inserts markup as given (for embedding one finished document in another).
public struct XMLWriter: Sendable {
    /// The text written so far.
    public private(set) var text = ""
    private var open: [String] = []

    public init() {}

    /// Escapes `&`, `<`, `>`, `"` and `'`, and drops characters XML 1.0 forbids (C0 controls
    /// other than tab, line feed and carriage return), so any input text gives valid XML.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private mutating func startTag(_ name: String, _ attributes: KeyValuePairs<String, String>) {
        text += "<" + name
        for (key, value) in attributes { text += " " + key + "=\"" + Self.escape(value) + "\"" }
    }

    /// Opens `<name …>`; close it with `close()`.
    public mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        startTag(name, attributes)
        text += ">"
        open.append(name)
    }

    /// Closes the innermost open element.
    public mutating func close() {
        guard let name = open.popLast() else { preconditionFailure("close() without an open element") }
        text += "</" + name + ">"
    }

    /// `<name …/>` (SVG) — for HTML void elements use `void`.
    public mutating func empty(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        startTag(name, attributes)
        text += "/>"
    }

    /// `<name …>` with no end tag (HTML void elements such as `meta`).
    public mutating func void(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        startTag(name, attributes)
        text += ">"
    }

    /// `<name …>text</name>`.
    public mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text content: String) {
        startTag(name, attributes)
        text += ">" + Self.escape(content) + "</" + name + ">"
    }

    /// Escaped text.
    public mutating func text(_ content: String) { text += Self.escape(content) }

    /// Markup inserted as given: only for documents this module wrote (an SVG inside HTML).
    public mutating func raw(_ markup: String) { text += markup }

    /// The finished text. - Precondition: every element is closed.
    public func finish() -> String {
        precondition(open.isEmpty, "unclosed elements: \(open)")
        return text
    }
}

/// A number for an SVG coordinate or length: at most `decimals` decimals, trailing zeros
/// dropped, never exponent notation (which some renderers reject in path data).
public func svgNumber(_ value: Double, decimals: Int = 2) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    if scaled == 0 { return "0" }
    let whole = (scaled / scale).rounded(.down)
    var out = (value < 0 ? "-" : "") + String(Int64(whole))
    var frac = Int64(scaled - whole * scale)
    if frac > 0 {
        var digits = String(frac)
        digits = String(repeating: "0", count: decimals - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        out += "." + digits
        frac = 0
    }
    return out
}

// A small JSON writer for the pin queries' answers (the C API hands them over as UTF-8 text,
// which a map back end serves as it is or parses into dicts). No Foundation.

/// JSON text built member by member; numbers in Swift's shortest round-trip form.
struct JSONBuilder {
    private(set) var text = ""
    /// Whether the container being written needs a comma before its next element.
    private var needsComma = [false]

    mutating func open(_ bracket: String) {
        separate()
        text += bracket
        needsComma.append(false)
    }

    mutating func close(_ bracket: String) {
        text += bracket
        needsComma.removeLast()
    }

    /// Starts an object member (its value follows).
    mutating func key(_ name: String) {
        separate()
        string(name, separated: false)
        text += ":"
        needsComma[needsComma.count - 1] = false
    }

    mutating func string(_ value: String, separated: Bool = true) {
        if separated { separate() }
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case _ where scalar.value < 0x20: text += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// A finite number, or null for nil, NaN or an infinity.
    mutating func number(_ value: Double?) {
        separate()
        guard let value, value.isFinite else { text += "null"; return }
        text += value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    mutating func integer(_ value: Int64?) {
        separate()
        text += value.map { String($0) } ?? "null"
    }

    mutating func bool(_ value: Bool) {
        separate()
        text += value ? "true" : "false"
    }

    mutating func null() {
        separate()
        text += "null"
    }

    mutating func member(_ name: String, _ value: Double?) { key(name); number(value) }
    mutating func member(_ name: String, integer value: Int64?) { key(name); integer(value) }
    mutating func member(_ name: String, string value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }
}

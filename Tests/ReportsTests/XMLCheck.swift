/// A strict XML 1.0 well-formedness check, written for the report tests so they need no
/// `xmllint` (not installed everywhere) and no Foundation XML parser (FoundationXML is not on
/// every platform). It accepts a doctype, processing instructions, comments and CDATA; it
/// rejects unbalanced or mismatched tags, unquoted or duplicate attributes, `<` in attribute
/// values, unknown entities, bare `&`, and anything but whitespace outside the root element.
/// On success it returns every element in document order, so tests can query the structure.
struct XMLCheck {
    struct Element {
        var name: String
        var attributes: [String: String]
        /// Index of the parent element in `elements`, nil for the root.
        var parent: Int?
        /// Text directly inside the element (entities decoded), concatenated.
        var text: String
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var offset: Int
        var description: String { "not well-formed XML at byte \(offset): \(message)" }
    }

    private(set) var elements: [Element] = []

    /// Parses `document`; throws the first well-formedness error.
    init(_ document: String) throws {
        let s = Array(document.utf8)
        var i = 0
        var stack: [Int] = []
        var rootSeen = false

        func fail(_ message: String) -> Failure { Failure(message: message, offset: i) }
        func starts(_ prefix: String) -> Bool {
            let p = Array(prefix.utf8)
            return i + p.count <= s.count && Array(s[i..<(i + p.count)]) == p
        }
        func skip(past terminator: String) throws {
            let t = Array(terminator.utf8)
            while i + t.count <= s.count {
                if Array(s[i..<(i + t.count)]) == t { i += t.count; return }
                i += 1
            }
            throw fail("unterminated construct, expected \(terminator)")
        }
        func isNameStart(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 || c == 58 || c >= 0x80 }
        func isName(_ c: UInt8) -> Bool { isNameStart(c) || (c >= 48 && c <= 57) || c == 45 || c == 46 }
        func name() throws -> String {
            guard i < s.count, isNameStart(s[i]) else { throw fail("expected a name") }
            let start = i
            while i < s.count, isName(s[i]) { i += 1 }
            return String(decoding: s[start..<i], as: UTF8.self)
        }
        func spaces() { while i < s.count, s[i] == 32 || s[i] == 9 || s[i] == 10 || s[i] == 13 { i += 1 } }
        /// Decodes character data up to (not including) a byte in `stops`, checking entities. Text
        /// runs stop at `<`, so meeting one here means an attribute value holds it.
        func characters(until stops: Set<UInt8>) throws -> String {
            var out = [UInt8]()
            while i < s.count, !stops.contains(s[i]) {
                if s[i] == UInt8(ascii: "<") { throw fail("'<' in an attribute value") }
                if s[i] == UInt8(ascii: "&") {
                    guard let semicolon = s[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { throw fail("bare '&'") }
                    let entity = String(decoding: s[(i + 1)..<semicolon], as: UTF8.self)
                    let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
                    if let value = named[entity] {
                        out += Array(value.utf8)
                    } else if entity.hasPrefix("#x"), let v = UInt32(entity.dropFirst(2), radix: 16), let u = Unicode.Scalar(v) {
                        out += Array(String(Character(u)).utf8)
                    } else if entity.hasPrefix("#"), let v = UInt32(entity.dropFirst()), let u = Unicode.Scalar(v) {
                        out += Array(String(Character(u)).utf8)
                    } else {
                        throw fail("unknown entity &\(entity);")
                    }
                    i = semicolon + 1
                } else {
                    if s[i] < 0x20 && s[i] != 9 && s[i] != 10 && s[i] != 13 { throw fail("control character \(s[i])") }
                    out.append(s[i])
                    i += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        while i < s.count {
            if starts("<!--") {
                try skip(past: "-->")
            } else if starts("<?") {
                try skip(past: "?>")
            } else if starts("<!DOCTYPE") || starts("<!doctype") {
                guard !rootSeen, stack.isEmpty else { throw fail("doctype after the root element") }
                try skip(past: ">")
            } else if starts("<![CDATA[") {
                guard let top = stack.last else { throw fail("CDATA outside the root element") }
                let start = i + 9
                try skip(past: "]]>")
                elements[top].text += String(decoding: s[start..<(i - 3)], as: UTF8.self)
            } else if starts("</") {
                i += 2
                let closing = try name()
                spaces()
                guard i < s.count, s[i] == UInt8(ascii: ">") else { throw fail("expected '>' after </\(closing)") }
                i += 1
                guard let top = stack.popLast() else { throw fail("</\(closing)> without an open element") }
                guard elements[top].name == closing else { throw fail("</\(closing)> closes <\(elements[top].name)>") }
            } else if s[i] == UInt8(ascii: "<") {
                i += 1
                guard stack.isEmpty ? !rootSeen : true else { throw fail("a second root element") }
                let tag = try name()
                var attributes: [String: String] = [:]
                while true {
                    let before = i
                    spaces()
                    guard i < s.count else { throw fail("unterminated <\(tag)") }
                    if s[i] == UInt8(ascii: ">") || starts("/>") { break }
                    guard i > before else { throw fail("expected a space before an attribute in <\(tag)") }
                    let key = try name()
                    spaces()
                    guard i < s.count, s[i] == UInt8(ascii: "=") else { throw fail("attribute \(key) without a value") }
                    i += 1
                    spaces()
                    guard i < s.count, s[i] == UInt8(ascii: "\"") || s[i] == UInt8(ascii: "'") else {
                        throw fail("unquoted value of \(key)")
                    }
                    let quote = s[i]
                    i += 1
                    let value = try characters(until: [quote])
                    guard i < s.count else { throw fail("unterminated value of \(key)") }
                    i += 1
                    guard attributes[key] == nil else { throw fail("duplicate attribute \(key) in <\(tag)>") }
                    attributes[key] = value
                }
                rootSeen = true
                elements.append(Element(name: tag, attributes: attributes, parent: stack.last, text: ""))
                if starts("/>") {
                    i += 2
                } else {
                    i += 1
                    stack.append(elements.count - 1)
                }
            } else {
                let text = try characters(until: [UInt8(ascii: "<")])
                if let top = stack.last {
                    elements[top].text += text
                } else if !text.allSatisfy(\.isWhitespace) {
                    throw fail("text outside the root element")
                }
            }
        }
        guard rootSeen else { throw Failure(message: "no root element", offset: 0) }
        guard stack.isEmpty else { throw Failure(message: "unclosed <\(elements[stack.last!].name)>", offset: s.count) }
    }

    /// Whether element `index` lies inside element `ancestor`.
    func isInside(_ index: Int, _ ancestor: Int) -> Bool {
        var p = elements[index].parent
        while let q = p {
            if q == ancestor { return true }
            p = elements[q].parent
        }
        return false
    }

    /// All text inside element `index`, its descendants' included, in document order.
    func allText(_ index: Int) -> String {
        elements.indices.filter { $0 == index || isInside($0, index) }.map { elements[$0].text }.joined()
    }
}

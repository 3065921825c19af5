/// Why a value cannot be used: the value as given, the reason, and, when the value's own code
/// knows it, the field it was given for (a box's `minLatitude`, a property's name). Values
/// parsed from text leave the name to the caller, which knows the option (`--area`) or the
/// query parameter (`area`) the text came in.
public struct InvalidValue: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field, when known where the value was checked.
    public var name: String?
    /// The value as given (text, or a number written out).
    public var value: String
    /// What is wrong and what to change.
    public var reason: String

    /// A value refused for `reason`; the caller names the field.
    public init(value: String, reason: String) {
        self.value = value
        self.reason = reason
    }

    /// A value of field `name` refused for `reason`.
    public init(name: String, value: String, reason: String) {
        self.name = name
        self.value = value
        self.reason = reason
    }

    public var description: String {
        if let name { return "\(name) = \(value) is invalid: \(reason)" }
        return "\(value): \(reason)"
    }
}

// The values that filters and viewports are written in, parsed once for the command line,
// the server and the C API (whose callers all pass text): ranges, boxes, category lists and
// conditions on own columns.

extension ValueRange {
    /// Parses `MIN..MAX` with either end optional (`..50`, `100..`), both ends included.
    /// - Throws: `InvalidValue` for a missing `..`, a non-numeric or non-finite end, no
    ///   end at all, or an inverted range (min > max).
    public init(parsing text: String) throws(InvalidValue) {
        let parts = text.split(separator: "..", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw InvalidValue(value: text, reason: "write a range as MIN..MAX, ..MAX or MIN..") }
        func end(_ s: Substring, _ which: String) throws(InvalidValue) -> Double? {
            let t = trimmed(s)
            if t.isEmpty { return nil }
            guard let v = Double(t), v.isFinite else {
                throw InvalidValue(value: text, reason: "the \(which) '\(t)' is not a finite number")
            }
            return v
        }
        let lower = try end(parts[0], "minimum"), upper = try end(parts[1], "maximum")
        guard lower != nil || upper != nil else { throw InvalidValue(value: text, reason: "give at least one end, e.g. 100.. or ..50") }
        if let l = lower, let u = upper, l > u {
            throw InvalidValue(value: text, reason: "the minimum \(l) is above the maximum \(u); swap them")
        }
        self.init(lower: lower, upper: upper)
    }
}

extension BoundingBox {
    /// Parses `minLon,minLat,maxLon,maxLat` (degrees, the GeoJSON `bbox` order, RFC 7946
    /// §5.2): west, south, east, north. West greater than east is a box across the
    /// antimeridian (`170,-25,-170,-10` spans 20° of longitude around ±180°).
    /// - Throws: `InvalidValue` unless there are four finite numbers, longitudes within
    ///   ±180, latitudes within ±90, and minLat ≤ maxLat.
    public init(parsing text: String) throws(InvalidValue) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
        guard parts.count == 4 else { throw InvalidValue(value: text, reason: "give four numbers: minLon,minLat,maxLon,maxLat") }
        var v: [Double] = []
        for (k, name) in ["minLon", "minLat", "maxLon", "maxLat"].enumerated() {
            guard let x = Double(parts[k]), x.isFinite else {
                throw InvalidValue(value: text, reason: "\(name) '\(parts[k])' is not a finite number")
            }
            let limit = k % 2 == 0 ? 180.0 : 90.0
            guard abs(x) <= limit else { throw InvalidValue(value: text, reason: "\(name) \(x) is outside ±\(Int(limit)) degrees") }
            v.append(x)
        }
        guard v[1] <= v[3] else {
            throw InvalidValue(value: text, reason: "minLat \(v[1]) is greater than maxLat \(v[3]); swap them")
        }
        self.init(minLongitude: v[0], minLatitude: v[1], maxLongitude: v[2], maxLatitude: v[3])
    }
}

extension CategorySet {
    /// Parses a comma-separated category list such as `apartment,officetel` (case and spaces
    /// around a name ignored).
    /// - Throws: `InvalidValue` naming an unknown category and listing the known ones.
    public init(parsing text: String) throws(InvalidValue) {
        self.init(mask: 0)
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = trimmed(part).lowercased()
            guard let c = ListingCategory(rawValue: name) else {
                throw InvalidValue(value: text, reason: "unknown category '\(name)'; choose from \(ListingCategory.names)")
            }
            insert(c)
        }
    }
}

extension PropertyCondition {
    /// Parses a condition on one of the user's own columns: `NAME=MIN..MAX` (numbers, either
    /// end open) is a range, any other `NAME=a,b` a set of texts.
    /// - Throws: `InvalidValue` without a name before `=` or values after it.
    public init(parsing text: String) throws(InvalidValue) {
        let form = "write NAME=a,b (texts) or NAME=MIN..MAX (numbers)"
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { throw InvalidValue(value: text, reason: form) }
        let name = trimmed(text[..<equals]), value = String(text[text.index(after: equals)...])
        guard !name.isEmpty else { throw InvalidValue(value: text, reason: form) }
        guard !value.isEmpty else { throw InvalidValue(value: text, reason: "give the values to keep after '='") }
        if value.contains(".."), let range = try? ValueRange(parsing: value) {
            self.init(name, .range(range))
        } else {
            self.init(name, .oneOf(Set(value.split(separator: ",").map(String.init))))
        }
    }
}

/// `text` without the white space around it (not newlines), as the command line trims values.
func trimmed(_ text: Substring) -> String {
    func isSpace(_ c: Character) -> Bool { c.isWhitespace && !c.isNewline }
    guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
    return String(text[first...last])
}

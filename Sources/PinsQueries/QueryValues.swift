import Pins

/// Why a value of an option or a query parameter cannot be used: the text given and the
/// reason, for the caller to name the option (`--area`) or the parameter (`area`) it came in.
public struct QueryValueError: Error, Sendable, Equatable {
    public var value: String
    public var reason: String

    public init(value: String, reason: String) {
        self.value = value
        self.reason = reason
    }
}

// The values that filters and viewports are written in, parsed once for the command line,
// the server and the C API (whose callers all pass text): ranges, boxes, category lists and
// conditions on own columns.

extension ValueRange {
    /// Parses `MIN..MAX` with either end optional (`..50`, `100..`), both ends included.
    /// - Throws: `QueryValueError` for a missing `..`, a non-numeric or non-finite end, no
    ///   end at all, or an inverted range (min > max).
    public init(parsing text: String) throws(QueryValueError) {
        let parts = text.split(separator: "..", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw QueryValueError(value: text, reason: "write a range as MIN..MAX, ..MAX or MIN..") }
        func end(_ s: Substring, _ which: String) throws(QueryValueError) -> Double? {
            let t = trimmed(s)
            if t.isEmpty { return nil }
            guard let v = Double(t), v.isFinite else {
                throw QueryValueError(value: text, reason: "the \(which) '\(t)' is not a finite number")
            }
            return v
        }
        let lower = try end(parts[0], "minimum"), upper = try end(parts[1], "maximum")
        guard lower != nil || upper != nil else { throw QueryValueError(value: text, reason: "give at least one end, e.g. 100.. or ..50") }
        if let l = lower, let u = upper, l > u {
            throw QueryValueError(value: text, reason: "the minimum \(l) is above the maximum \(u); swap them")
        }
        self.init(lower: lower, upper: upper)
    }
}

extension BoundingBox {
    /// Parses `minLon,minLat,maxLon,maxLat` (degrees, the GeoJSON `bbox` order, RFC 7946
    /// §5.2): west, south, east, north. West greater than east is a box across the
    /// antimeridian (`170,-25,-170,-10` spans 20° of longitude around ±180°).
    /// - Throws: `QueryValueError` unless there are four finite numbers, longitudes within
    ///   ±180, latitudes within ±90, and minLat ≤ maxLat.
    public init(parsing text: String) throws(QueryValueError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
        guard parts.count == 4 else { throw QueryValueError(value: text, reason: "give four numbers: minLon,minLat,maxLon,maxLat") }
        var v: [Double] = []
        for (k, name) in ["minLon", "minLat", "maxLon", "maxLat"].enumerated() {
            guard let x = Double(parts[k]), x.isFinite else {
                throw QueryValueError(value: text, reason: "\(name) '\(parts[k])' is not a finite number")
            }
            let limit = k % 2 == 0 ? 180.0 : 90.0
            guard abs(x) <= limit else { throw QueryValueError(value: text, reason: "\(name) \(x) is outside ±\(Int(limit)) degrees") }
            v.append(x)
        }
        guard v[1] <= v[3] else {
            throw QueryValueError(value: text, reason: "minLat \(v[1]) is greater than maxLat \(v[3]); swap them")
        }
        self.init(minLongitude: v[0], minLatitude: v[1], maxLongitude: v[2], maxLatitude: v[3])
    }
}

extension CategorySet {
    /// Parses a comma-separated category list such as `apartment,officetel` (case and spaces
    /// around a name ignored).
    /// - Throws: `QueryValueError` naming an unknown category and listing the known ones.
    public init(parsing text: String) throws(QueryValueError) {
        self.init(mask: 0)
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = trimmed(part).lowercased()
            guard let c = ListingCategory(rawValue: name) else {
                throw QueryValueError(value: text, reason: "unknown category '\(name)'; choose from \(ListingCategory.names)")
            }
            insert(c)
        }
    }
}

extension PropertyCondition {
    /// Parses a condition on one of the user's own columns: `NAME=MIN..MAX` (numbers, either
    /// end open) is a range, any other `NAME=a,b` a set of texts.
    /// - Throws: `QueryValueError` without a name before `=` or values after it.
    public init(parsing text: String) throws(QueryValueError) {
        let form = "write NAME=a,b (texts) or NAME=MIN..MAX (numbers)"
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { throw QueryValueError(value: text, reason: form) }
        let name = trimmed(text[..<equals]), value = String(text[text.index(after: equals)...])
        guard !name.isEmpty else { throw QueryValueError(value: text, reason: form) }
        guard !value.isEmpty else { throw QueryValueError(value: text, reason: "give the values to keep after '='") }
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

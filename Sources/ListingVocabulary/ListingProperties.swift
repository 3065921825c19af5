// The caller's own columns of listings (a store's name, brand, opening hours, a price): carried
// to every leaf and nearby answer, and tested at query time by `PropertyCondition`s. The
// Korean rental fields (category, area, deposit, rent) keep their own fast columns; these are
// the rest of a user's file.

/// A listing's value in one of the caller's own columns.
public enum PropertyValue: Sendable, Hashable {
    /// A value of a column of numbers.
    case number(Double)
    /// A value of a column of texts.
    case text(String)
}

/// The caller's own columns of the listings, column by column. Each column holds numbers or
/// texts, and any value may be missing; texts are stored as codes into the column's distinct
/// values, so a brand repeated over 100,000 stores is one string.
public struct ListingProperties: Sendable {
    /// One column's values, one per listing.
    package enum Column: Sendable {
        /// NaN: missing.
        case numbers([Double])
        /// `ListingProperties.missing`: missing.
        case texts(codes: [UInt32], values: [String])
    }

    /// The code of a missing text.
    package static let missing = UInt32.max

    /// Column names, in the order leaves list their values.
    public private(set) var names: [String] = []
    package private(set) var columns: [Column] = []
    /// Listings per column (nil before the first column).
    package private(set) var rows: Int?

    /// No columns.
    public init() {}

    /// Adds a column of numbers, one per listing (nil or NaN: missing).
    /// - Throws: `InvalidValue` for an empty or repeated name, a count other than the
    ///   other columns', or an infinite value.
    public mutating func add(_ name: String, numbers: [Double?]) throws(InvalidValue) {
        try admit(name, count: numbers.count)
        var column = [Double](repeating: .nan, count: numbers.count)
        for (i, v) in numbers.enumerated() {
            guard let v, !v.isNaN else { continue }
            guard v.isFinite else {
                throw InvalidValue(name: "property \(name) of row \(i)", value: "\(v)", reason: "must be finite or missing")
            }
            column[i] = v
        }
        names.append(name)
        columns.append(.numbers(column))
    }

    /// Adds a column of texts, one per listing (nil: missing).
    /// - Throws: `InvalidValue` for an empty or repeated name or a count other than the
    ///   other columns'.
    public mutating func add(_ name: String, texts: [String?]) throws(InvalidValue) {
        try admit(name, count: texts.count)
        var slot: [String: UInt32] = [:]
        var values: [String] = []
        let codes = texts.map { text -> UInt32 in
            guard let text else { return Self.missing }
            if let code = slot[text] { return code }
            slot[text] = UInt32(values.count)
            values.append(text)
            return UInt32(values.count - 1)
        }
        names.append(name)
        columns.append(.texts(codes: codes, values: values))
    }

    private mutating func admit(_ name: String, count: Int) throws(InvalidValue) {
        guard !name.isEmpty, !names.contains(name) else {
            throw InvalidValue(name: "property name", value: "'\(name)'", reason: "must be non-empty and unique")
        }
        guard rows == nil || rows == count else {
            throw InvalidValue(name: "property \(name)", value: "\(count) values",
                               reason: "must have one value per listing, as the other properties (\(rows!))")
        }
        rows = count
    }

    /// Whether column `name` holds numbers (nil: no such column).
    public func isNumeric(_ name: String) -> Bool? {
        names.firstIndex(of: name).map { if case .numbers = columns[$0] { true } else { false } }
    }

    /// Row `r`'s value in column `c`, nil when missing.
    package func value(column c: Int, row r: Int) -> PropertyValue? {
        switch columns[c] {
        case .numbers(let v): return v[r].isNaN ? nil : .number(v[r])
        case let .texts(codes, values): return codes[r] == Self.missing ? nil : .text(values[Int(codes[r])])
        }
    }

    /// The rows in the order `order` lists them (row `i` of the result is row `order[i]`).
    package func gathered(_ order: [Int32]) -> ListingProperties {
        var out = self
        out.columns = columns.map { column in
            switch column {
            case .numbers(let v): return .numbers(order.map { v[Int($0)] })
            case let .texts(codes, values): return .texts(codes: order.map { codes[Int($0)] }, values: values)
            }
        }
        out.rows = rows.map { _ in order.count }
        return out
    }
}

/// A condition on one of the caller's own columns, for `AttributeFilter.properties`: a range
/// for a column of numbers, a set of texts for a column of texts. A listing whose value is
/// missing fails it.
public struct PropertyCondition: Sendable, Hashable, CustomStringConvertible {
    /// What the column's value must satisfy.
    public enum Test: Sendable, Hashable {
        /// The number lies in the range (ends included).
        case range(ValueRange)
        /// The text is one of these (exactly, case included).
        case oneOf(Set<String>)
    }

    /// The column's name, as in `ListingProperties.names`.
    public var name: String
    /// What its value must satisfy.
    public var test: Test

    /// The condition that column `name` passes `test`.
    public init(_ name: String, _ test: Test) { self.name = name; self.test = test }

    public var description: String {
        switch test {
        case .range(let r): return "\(name)=\(r)"
        case .oneOf(let s): return "\(name)=\(s.sorted().joined(separator: ","))"
        }
    }
}

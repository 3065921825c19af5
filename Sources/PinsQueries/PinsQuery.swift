import ListingVocabulary
import Pins

/// A query on a pin index as a client writes it in a URL's query string: the viewport, the
/// zoom, the filters (with the names and syntax of `geocluster pins`'s options: `category`,
/// `area`, `deposit`, `rent`, `where`), a page's size and cursor, a point and radius. The
/// server parses every request's parameters here, once, before any index is touched.
public struct PinsQuery: Sendable, Equatable {
    /// A parameter a query may carry.
    public enum Parameter: String, Sendable, CaseIterable {
        case zoom, bbox, category, area, deposit, rent, `where`, limit, cursor, lat, lon, radius
    }

    /// The filter parameters, which every pin endpoint takes.
    public static let filters: Set<Parameter> = [.category, .area, .deposit, .rent, .where]

    public var zoom: Double?
    public var bbox: BoundingBox?
    /// The listings to count; nil: all.
    public var filter: AttributeFilter?
    public var limit: Int?
    public var cursor: PinCursor?
    public var latitude: Double?
    public var longitude: Double?
    /// Metres.
    public var radius: Double?
    /// The parameters as given, sorted by name then value and joined as a query string: two
    /// queries that mean the same have the same text (a cache key).
    public private(set) var normalized = ""

    public init() {}

    /// The largest page a client may ask for (`limit`).
    public static let largestLimit = 10_000

    /// Parses `pairs` (name, value, percent-decoded), accepting only the `allowed` parameters.
    /// - Throws: `PinsQueryError` naming the first parameter that is unknown, not allowed
    ///   here, given twice (all but `where`, which repeats), or malformed.
    public static func parse(_ pairs: [(String, String)], allowed: Set<Parameter>) throws(PinsQueryError) -> PinsQuery {
        var query = PinsQuery()
        var seen = Set<Parameter>()
        var attributes = AttributeFilter()
        for (name, value) in pairs {
            guard let parameter = Parameter(rawValue: name), allowed.contains(parameter) else {
                let known = allowed.map(\.rawValue).sorted().joined(separator: ", ")
                throw PinsQueryError(parameter: name, message: "unknown parameter here; this endpoint takes \(known.isEmpty ? "none" : known)")
            }
            guard parameter == .where || seen.insert(parameter).inserted else {
                throw PinsQueryError(parameter: name, message: "given twice; give it once")
            }
            try query.set(parameter, value, filter: &attributes)
        }
        query.filter = attributes.isEmpty ? nil : attributes
        query.normalized = pairs.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return query
    }

    private mutating func set(_ parameter: Parameter, _ value: String, filter: inout AttributeFilter) throws(PinsQueryError) {
        let name = parameter.rawValue
        func parsing<T>(_ body: () throws(InvalidValue) -> T) throws(PinsQueryError) -> T {
            do { return try body() } catch { throw PinsQueryError(parameter: name, message: "'\(value)': \(error.reason)") }
        }
        switch parameter {
        case .zoom: zoom = try Self.number(value, name, within: 0...Double(PinOptions.maxZoom) + 0.999_999)
        case .bbox: bbox = try parsing { () throws(InvalidValue) in try BoundingBox(parsing: value) }
        case .category: filter.categories = try parsing { () throws(InvalidValue) in try CategorySet(parsing: value) }
        case .area: filter.area = try parsing { () throws(InvalidValue) in try ValueRange(parsing: value) }
        case .deposit: filter.deposit = try parsing { () throws(InvalidValue) in try ValueRange(parsing: value) }
        case .rent: filter.monthlyRent = try parsing { () throws(InvalidValue) in try ValueRange(parsing: value) }
        case .where: filter.properties.append(try parsing { () throws(InvalidValue) in try PropertyCondition(parsing: value) })
        case .limit:
            guard let n = Int(value), (1...Self.largestLimit).contains(n) else {
                throw PinsQueryError(parameter: name, message: "'\(value)' must be a whole number 1...\(Self.largestLimit)")
            }
            limit = n
        case .cursor:
            guard let c = PinCursor(token: value) else {
                throw PinsQueryError(parameter: name, message: "'\(value)' is not a cursor: pass the `next` of the previous page as it is (none for the first page)")
            }
            cursor = c
        case .lat: latitude = try Self.number(value, name, within: -85...85)
        case .lon: longitude = try Self.number(value, name, within: -180...180)
        case .radius: radius = try Self.number(value, name, within: 1...1_000_000)
        }
    }

    private static func number(_ text: String, _ name: String, within range: ClosedRange<Double>) throws(PinsQueryError) -> Double {
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            let hi = range.upperBound == range.upperBound.rounded() ? "\(Int(range.upperBound))" : "below \(Int(range.upperBound.rounded(.up)))"
            throw PinsQueryError(parameter: name, message: "'\(text)' must be a number \(Int(range.lowerBound))...\(hi)")
        }
        return v
    }

    /// The parameter a required value is missing from.
    /// - Throws: `PinsQueryError` naming it.
    public static func required<T>(_ value: T?, _ parameter: Parameter, _ what: String) throws(PinsQueryError) -> T {
        guard let value else { throw PinsQueryError(parameter: parameter.rawValue, message: "missing: give \(what)") }
        return value
    }
}

/// A query parameter that cannot be used: which, and why (a client's mistake, HTTP 400).
public struct PinsQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The parameter's name as the client wrote it.
    public var parameter: String
    public var message: String

    public init(parameter: String, message: String) {
        self.parameter = parameter
        self.message = message
    }

    public var description: String { "\(parameter): \(message)" }
}

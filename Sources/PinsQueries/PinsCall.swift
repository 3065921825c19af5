import ListingVocabulary
import Pins

/// The one place a parsed request becomes a call of the pin index, for every caller that
/// answers requests: the server's endpoints, `geocluster pins`, and the C API behind the
/// Python package. Each caller parses its text into a `PinsQuery` (`PinsQuery.parse`, with
/// `allowed` of the endpoint), calls `answer`, and writes the answer in its own format.
public enum PinsCall {
    /// What is asked: pins in a viewport, one pin, its children, a page of its listings, or
    /// listings near a point. A pin is named by its id as the answers write it (decimal).
    public enum Endpoint: Sendable, Equatable {
        case pins
        case pin(String)
        case children(String)
        case leaves(String)
        case nearby

        /// The query parameters the endpoint takes.
        public var allowed: Set<PinsQuery.Parameter> {
            switch self {
            case .pins: PinsQuery.filters.union([.zoom, .bbox])
            case .pin, .children: []
            case .leaves: PinsQuery.filters.union([.limit, .cursor])
            case .nearby: PinsQuery.filters.union([.lat, .lon, .radius, .limit, .cursor])
            }
        }
    }

    /// The index's answer, before any format: every position in it is a displayed one.
    public enum Answer: Sendable {
        /// The pins shown at `zoom` (the floor of the query's zoom).
        case pins([Pin], zoom: Int)
        /// One pin.
        case pin(Pin)
        /// The pins a pin splits into at its expansion zoom (empty for a building or listing).
        case children([Pin])
        case leaves(PinLeavesPage)
        case nearby(NearbyPage)
    }

    /// A request that cannot be answered: the client's mistake (a bad or missing parameter)
    /// or a pin id the index does not know.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case badQuery(PinsQueryError)
        case unknownPin(String)

        public var description: String {
            switch self {
            case .badQuery(let e): e.description
            case .unknownPin(let id): "no pin has id \(id) in this index (ids change when the data is rebuilt)"
            }
        }
    }

    /// The default page sizes and radius, when the query gives none.
    public static let defaultLeavesLimit = 100, defaultNearbyLimit = 20
    public static let defaultNearbyRadius = 5000.0

    /// The query `pairs` (name, value, percent-decoded) make at `endpoint`.
    /// - Throws: `Failure.badQuery` naming the first parameter that is unknown there, repeated
    ///   or malformed.
    public static func query(_ pairs: [(String, String)], for endpoint: Endpoint) throws(Failure) -> PinsQuery {
        do { return try PinsQuery.parse(pairs, allowed: endpoint.allowed) } catch { throw .badQuery(error) }
    }

    /// Answers `query` at `endpoint` from `index` (the server's and the C API's entry).
    /// - Throws: `Failure` for a missing or unusable parameter, or an unknown pin.
    public static func answer(_ endpoint: Endpoint, _ query: PinsQuery, index: PinIndex) throws(Failure) -> Answer {
        switch endpoint {
        case .pins: _ = try required(query.zoom, .zoom, "the zoom level, zoom=0…22")
        case .nearby:
            _ = try required(query.latitude, .lat, "the point's latitude, lat=…")
            _ = try required(query.longitude, .lon, "the point's longitude, lon=…")
        case .pin, .children, .leaves: break
        }
        return try run { () throws(PinError) in try call(endpoint, query, index: index) }
    }

    /// The index call behind `endpoint` with `query`'s values (the command line's entry: its
    /// options set the query's values, and it reports the index's errors by its flags).
    /// - Throws: `PinError` from the index; `.invalidParameter` for a value the endpoint needs
    ///   and the query lacks (the zoom of `pins`, the point of `nearby`).
    public static func call(_ endpoint: Endpoint, _ query: PinsQuery, index: PinIndex) throws(PinError) -> Answer {
        func needed(_ value: Double?, _ name: String) throws(PinError) -> Double {
            guard let value else { throw .invalidParameter(name: name, value: "none", requirement: "must be given") }
            return value
        }
        switch endpoint {
        case .pins:
            let zoom = try needed(query.zoom, "zoom")
            return .pins(try index.pins(zoom: zoom, bbox: query.bbox, filter: query.filter), zoom: Int(zoom.rounded(.down)))
        case .pin(let id):
            return .pin(try index.pin(id: try pinID(id)))
        case .children(let id):
            return .children(try index.children(of: try pinID(id)))
        case .leaves(let id):
            return .leaves(try index.leaves(of: try pinID(id), limit: query.limit ?? defaultLeavesLimit, cursor: query.cursor, filter: query.filter))
        case .nearby:
            return .nearby(try index.nearby(longitude: try needed(query.longitude, "longitude/latitude"),
                                            latitude: try needed(query.latitude, "longitude/latitude"),
                                            radius: query.radius ?? defaultNearbyRadius, filter: query.filter,
                                            limit: query.limit ?? defaultNearbyLimit, cursor: query.cursor))
        }
    }

    /// A pin id as the answers write it (a decimal 64-bit integer).
    public static func pinID(_ text: String) throws(PinError) -> PinID {
        guard let raw = UInt64(text) else { throw .invalidParameter(name: "id", value: text, requirement: "must be a pin id (a decimal integer)") }
        return PinID(rawValue: raw)
    }

    private static func required<T>(_ value: T?, _ parameter: PinsQuery.Parameter, _ what: String) throws(Failure) -> T {
        do { return try PinsQuery.required(value, parameter, what) } catch { throw .badQuery(error) }
    }

    /// The query parameter behind an index parameter's name, where they differ.
    private static let queryName = ["property filter": "where", "longitude/latitude": "lat", "minLatitude": "bbox"]

    /// Runs an index call, turning its errors into the answer's.
    public static func run<T>(_ body: () throws(PinError) -> T) throws(Failure) -> T {
        do {
            return try body()
        } catch {
            switch error {
            case .unknownPin(let id): throw .unknownPin(id.description)
            case .invalidCursor: throw .badQuery(PinsQueryError(parameter: "cursor", message: error.description))
            case let .invalidParameter(name, value, requirement):
                throw .badQuery(PinsQueryError(parameter: queryName[name] ?? name, message: "'\(value)' \(requirement)"))
            default: throw .badQuery(PinsQueryError(parameter: "query", message: error.description))
            }
        }
    }
}

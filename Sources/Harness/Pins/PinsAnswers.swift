import Datasets
import Pins

/// The answers to pin queries as GeoJSON bytes: pins in a viewport, one pin, its children, a
/// page of its listings, listings near a point. Each turns a parsed `PinsQuery` into one index
/// call; the server sends what they return, and `geocluster pins` writes the same features.
/// Every position is a displayed one (the index holds no other).
public enum PinsAnswers {
    /// A failed answer: the client's mistake (a bad or missing parameter, a filter on a
    /// column the listings lack) or a pin id the index does not know.
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

    /// The pins shown at `query.zoom` in `query.bbox` (the world when absent), filtered.
    public static func pins(_ data: PinsDataset, _ query: PinsQuery) throws(Failure) -> [UInt8] {
        let zoom = try required(query.zoom, .zoom, "the zoom level, zoom=0…22")
        let filter = try checked(query.filter, data)
        let pins = try run { () throws(PinError) in try data.index.pins(zoom: zoom, bbox: query.bbox, filter: filter) }
        var w = GeoJSONWriter()
        for pin in pins { try write(pin, zoom: Int(zoom), data, filter: filter, to: &w) }
        return w.finish()
    }

    /// One pin, by id, as a GeoJSON Feature (its `zoom` the first zoom it is shown at).
    public static func pin(_ data: PinsDataset, id: String) throws(Failure) -> [UInt8] {
        let pin = try run { () throws(PinError) in try data.index.pin(id: try pinID(id)) }
        var w = GeoJSONWriter()
        try write(pin, zoom: pin.zooms.lowerBound, data, filter: nil, to: &w)
        return w.finishFeature()
    }

    /// The pins a pin splits into at its expansion zoom (empty for a building or listing).
    public static func children(_ data: PinsDataset, id: String) throws(Failure) -> [UInt8] {
        let children = try run { () throws(PinError) in try data.index.children(of: try pinID(id)) }
        var w = GeoJSONWriter()
        for pin in children { try write(pin, zoom: pin.zooms.lowerBound, data, filter: nil, to: &w) }
        return w.finish()
    }

    /// A page of a pin's listings that pass the filter, each a Point at its displayed
    /// position; the collection's `next` is the cursor of the following page (null after the last).
    public static func leaves(_ data: PinsDataset, id: String, _ query: PinsQuery) throws(Failure) -> [UInt8] {
        let filter = try checked(query.filter, data)
        let page = try run { () throws(PinError) in
            try data.index.leaves(of: try pinID(id), limit: query.limit ?? 100, cursor: query.cursor, filter: filter)
        }
        var w = GeoJSONWriter()
        for leaf in page.leaves { try listing(leaf, data, to: &w) { _ in } }
        return w.finish(members: [JSONMember(key: "next", value: page.next.map { .string($0.token) } ?? .null)])
    }

    /// The listings nearest `query.lat`, `query.lon` within `query.radius` metres (default
    /// 5,000), nearest first, distances rounded to 100 m; `total` counts all within the radius.
    public static func nearby(_ data: PinsDataset, _ query: PinsQuery) throws(Failure) -> [UInt8] {
        let lat = try required(query.latitude, .lat, "the point's latitude, lat=…")
        let lon = try required(query.longitude, .lon, "the point's longitude, lon=…")
        let filter = try checked(query.filter, data)
        let page = try run { () throws(PinError) in
            try data.index.nearby(longitude: lon, latitude: lat, radius: query.radius ?? 5000, filter: filter,
                                  limit: query.limit ?? 20, cursor: query.cursor)
        }
        var w = GeoJSONWriter()
        for near in page.listings { try listing(near.leaf, data, to: &w) { $0.property("distance_m", Int(near.distance)) } }
        return w.finish(members: [JSONMember(key: "total", value: .number(String(page.total))),
                                  JSONMember(key: "next", value: page.next.map { .string($0.token) } ?? .null)])
    }

    private static func write(_ pin: Pin, zoom: Int, _ data: PinsDataset, filter: AttributeFilter?, to w: inout GeoJSONWriter) throws(Failure) {
        try run { () throws(PinError) in
            do {
                try PinFeature.write(pin, zoom: zoom, index: data.index, names: data.propertyNames, source: data.source,
                                     filter: filter, leaves: false, to: &w)
            } catch let e as PinError {
                throw e
            } catch {
                // In memory, nothing is written to a file: the writer cannot fail.
                preconditionFailure("writing GeoJSON in memory failed: \(error)")
            }
        }
    }

    private static func listing(_ leaf: PinLeaf, _ data: PinsDataset, to w: inout GeoJSONWriter,
                                extra: (inout GeoJSONWriter) -> Void) throws(Failure) {
        w.beginFeature(lon: leaf.longitude, lat: leaf.latitude, decimals: 7)
        PinFeature.writeListing(leaf, names: data.propertyNames, source: data.source, to: &w)
        extra(&w)
        do { try w.endFeature() } catch { preconditionFailure("writing GeoJSON in memory failed: \(error)") }
    }

    /// A pin id as the answers write it (a decimal 64-bit integer).
    public static func pinID(_ text: String) throws(PinError) -> PinID {
        guard let raw = UInt64(text) else { throw .invalidParameter(name: "id", value: text, requirement: "must be a pin id (a decimal integer)") }
        return PinID(rawValue: raw)
    }

    /// `filter`, unless it tests an attribute the listings have no column for (it would match nothing).
    public static func checked(_ filter: AttributeFilter?, _ data: PinsDataset) throws(Failure) -> AttributeFilter? {
        if let missing = data.missingAttribute(of: filter) {
            let name = PinsQuery.parameter(for: missing).rawValue
            throw .badQuery(PinsQueryError(parameter: name, message: "the listings have no \(missing.rawValue) column to filter on"))
        }
        return filter
    }

    private static func required<T>(_ value: T?, _ parameter: PinsQuery.Parameter, _ what: String) throws(Failure) -> T {
        do { return try PinsQuery.required(value, parameter, what) } catch { throw .badQuery(error) }
    }

    /// The query parameter behind an index parameter's name, where they differ.
    private static let queryName = ["property filter": "where", "longitude/latitude": "lat", "minLatitude": "bbox"]

    /// Runs an index call, turning its errors into the answer's.
    private static func run<T>(_ body: () throws(PinError) -> T) throws(Failure) -> T {
        do {
            return try body()
        } catch {
            switch error {
            case .unknownPin(let id): throw .unknownPin(id.description)
            case let .invalidParameter(name, value, requirement):
                throw .badQuery(PinsQueryError(parameter: queryName[name] ?? name, message: "'\(value)' \(requirement)"))
            default: throw .badQuery(PinsQueryError(parameter: "query", message: error.description))
            }
        }
    }
}

extension PinsQuery {
    /// The filter parameter that tests `attribute`.
    static func parameter(for attribute: ListingAttribute) -> Parameter {
        switch attribute {
        case .category: .category
        case .area: .area
        case .deposit: .deposit
        case .monthlyRent: .rent
        }
    }
}

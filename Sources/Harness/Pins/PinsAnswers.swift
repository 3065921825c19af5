import Datasets
import Pins
import PinsQueries

/// The answers to pin queries as GeoJSON bytes: pins in a viewport, one pin, its children, a
/// page of its listings, listings near a point. Each checks the query against the dataset's
/// columns, lets `PinsCall` make the index call, and writes the answer with the features
/// `geocluster pins` writes. Every position is a displayed one (the index holds no other).
public enum PinsAnswers {
    /// A failed answer: the client's mistake or a pin id the index does not know.
    public typealias Failure = PinsCall.Failure

    /// The answer of `endpoint` to `query` on `data`, as GeoJSON bytes.
    public static func answer(_ endpoint: PinsCall.Endpoint, _ data: PinsDataset, _ query: PinsQuery) throws(Failure) -> [UInt8] {
        _ = try checked(query.filter, data)
        var w = GeoJSONWriter()
        switch try PinsCall.answer(endpoint, query, index: data.index) {
        case let .pins(pins, zoom):
            for pin in pins { try write(pin, zoom: zoom, data, filter: query.filter, to: &w) }
            return w.finish()
        case .pin(let pin):
            try write(pin, zoom: pin.zooms.lowerBound, data, filter: nil, to: &w)
            return w.finishFeature()
        case .children(let children):
            for pin in children { try write(pin, zoom: pin.zooms.lowerBound, data, filter: nil, to: &w) }
            return w.finish()
        case .leaves(let page):
            for leaf in page.leaves { try listing(leaf, data, to: &w) { _ in } }
            return w.finish(members: [JSONMember(key: "next", value: page.next.map { .string($0.token) } ?? .null)])
        case .nearby(let page):
            for near in page.listings { try listing(near.leaf, data, to: &w) { $0.property("distance_m", Int(near.distance)) } }
            return w.finish(members: [JSONMember(key: "total", value: .number(String(page.total))),
                                      JSONMember(key: "next", value: page.next.map { .string($0.token) } ?? .null)])
        }
    }

    private static func write(_ pin: Pin, zoom: Int, _ data: PinsDataset, filter: AttributeFilter?, to w: inout GeoJSONWriter) throws(Failure) {
        try PinsCall.run { () throws(PinError) in
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

    /// `filter`, unless it tests an attribute the listings have no column for (it would match nothing).
    public static func checked(_ filter: AttributeFilter?, _ data: PinsDataset) throws(Failure) -> AttributeFilter? {
        if let missing = data.missingAttribute(of: filter) {
            let name = PinsQuery.parameter(for: missing).rawValue
            throw .badQuery(PinsQueryError(parameter: name, message: "the listings have no \(missing.rawValue) column to filter on"))
        }
        return filter
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

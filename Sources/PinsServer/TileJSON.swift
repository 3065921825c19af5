import Datasets
import Harness
import Pins
import PinsQueries

/// The TileJSON 3.0.0 document of the tiles (`GET /tiles.json`): their URL (with the request's
/// filters, so a map source can be given a filtered URL), zooms, the bounds and centre of the
/// displayed positions, and the `pins` layer's fields.
enum TileJSON {
    static func document(for data: PinsDataset, host: String?, query: PinsQuery) -> [UInt8] {
        let base = "http://" + (host ?? "127.0.0.1")
        let suffix = query.normalized.isEmpty ? "" : "?" + query.normalized
        let b = bounds(data)
        let center: [JSONValue] = [number((b.minLongitude + b.maxLongitude) / 2), number((b.minLatitude + b.maxLatitude) / 2), .number("10")]
        let layer = JSONValue.object([
            JSONMember(key: "id", value: .string(VectorTileEncoder.layerName)),
            JSONMember(key: "description", value: .string("Map pins: clusters, buildings and listings at their displayed positions")),
            JSONMember(key: "minzoom", value: .number("0")),
            JSONMember(key: "maxzoom", value: .number(String(PinOptions.maxZoom))),
            JSONMember(key: "fields", value: .object(fields(data).map { JSONMember(key: $0.0, value: .string($0.1)) })),
        ])
        let doc = JSONValue.object([
            JSONMember(key: "tilejson", value: .string("3.0.0")),
            JSONMember(key: "name", value: .string("geocluster pins")),
            JSONMember(key: "scheme", value: .string("xyz")),
            JSONMember(key: "tiles", value: .array([.string(base + "/tiles/{z}/{x}/{y}.mvt" + suffix)])),
            JSONMember(key: "minzoom", value: .number("0")),
            JSONMember(key: "maxzoom", value: .number(String(PinOptions.maxZoom))),
            JSONMember(key: "bounds", value: .array([b.minLongitude, b.minLatitude, b.maxLongitude, b.maxLatitude].map(number))),
            JSONMember(key: "center", value: .array(center)),
            JSONMember(key: "vector_layers", value: .array([layer])),
        ])
        return Array((doc.jsonText + "\n").utf8)
    }

    /// The box of every displayed position: the union of zoom 0's pin boxes (the world's
    /// longitudes when one crosses the antimeridian), the world when there are none.
    static func bounds(_ data: PinsDataset) -> BoundingBox {
        guard let pins = try? data.index.pins(zoom: 0), !pins.isEmpty else { return .world }
        var box = pins[0].bbox
        for pin in pins {
            let b = pin.bbox
            box.minLongitude = min(box.minLongitude, b.minLongitude); box.maxLongitude = max(box.maxLongitude, b.maxLongitude)
            box.minLatitude = min(box.minLatitude, b.minLatitude); box.maxLatitude = max(box.maxLatitude, b.maxLatitude)
        }
        if pins.contains(where: { $0.bbox.minLongitude > $0.bbox.maxLongitude }) { box.minLongitude = -180; box.maxLongitude = 180 }
        return box
    }

    /// The layer's fields and their types, as TileJSON names them: every key a tile may carry
    /// (category keys only for the named categories).
    static func fields(_ data: PinsDataset) -> [(String, String)] {
        TileKeys(propertyNames: data.propertyNames).typed.filter { !$0.0.hasPrefix("category_") || ListingCategory(rawValue: String($0.0.dropFirst(9))) != nil }
    }

    private static func number(_ v: Double) -> JSONValue { .number(FormatNumber.trimmed(v, decimals: 6)) }
}

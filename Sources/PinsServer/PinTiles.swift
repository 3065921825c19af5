import Datasets
import Harness
import Pins
import PinsQueries

/// The vector tiles of a pin index: tile `z/x/y` holds the pins of zoom z that its buffered
/// box shows, each at its displayed position; the pins it owns (`TileAddress.owner`) lie inside
/// it, the others in its buffer. Over all tiles of a zoom, every pin of that zoom is inside
/// exactly one tile: no seams, no duplicates.
public enum PinTiles {
    /// The tile side in pixels the served index's zoom levels count: 512, as MapLibre, Mapbox
    /// GL and OpenLayers draw vector tiles (tile z is drawn at zoom z, 512 pixels a side).
    public static let tileSize: Double = 512

    /// The tile's bytes (Mapbox Vector Tile 2.1, uncompressed).
    /// - Throws: `PinsAnswers.Failure` for a filter the listings cannot answer.
    /// - Parameter keys: the dataset's tile keys (made from it when not given).
    static func tile(_ data: PinsDataset, _ address: TileAddress, filter: AttributeFilter?, keys: TileKeys? = nil) throws(PinsAnswers.Failure) -> [UInt8] {
        let filter = try PinsAnswers.checked(filter, data)
        let pins: [Pin]
        do {
            pins = try data.index.pins(zoom: Double(address.z), bbox: address.queryBox, filter: filter)
        } catch {
            throw .badQuery(PinsQueryError(parameter: "tile", message: "\(error)"))
        }
        let keys = keys ?? TileKeys(propertyNames: data.propertyNames)
        var encoder = VectorTileEncoder(keys: keys)
        for pin in pins {
            let p = address.local(longitude: pin.longitude, latitude: pin.latitude)
            guard TileAddress.inBuffer(p) else { continue }
            encoder.beginFeature(id: pin.id.rawValue, at: p)
            write(pin, data, keys, to: &encoder)
            encoder.endFeature()
        }
        return encoder.serialized()
    }

    /// A pin's feature properties (`VectorTileEncoder` says which). Numbers are as the index
    /// holds them (the GeoJSON answers round them for text).
    static func write(_ pin: Pin, _ data: PinsDataset, _ keys: TileKeys, to out: inout VectorTileEncoder) {
        out.property(TileKeys.cluster, .bool(pin.kind == .cluster))
        if pin.count > 1 {
            out.property(TileKeys.pointCount, .integer(Int64(pin.count)))
            out.property(TileKeys.pointCountAbbreviated, .string(abbreviated(pin.count)))
        }
        out.property(TileKeys.count, .integer(Int64(pin.count)))
        out.property(TileKeys.kind, .kind(pin.kind))
        out.property(TileKeys.diameter, .double((pin.diameter * 10).rounded() / 10))
        if let z = pin.expansionZoom { out.property(TileKeys.expansionZoom, .integer(Int64(z))) }
        let b = pin.bbox
        out.property(TileKeys.bboxWest, .double(b.minLongitude))
        out.property(TileKeys.bboxSouth, .double(b.minLatitude))
        out.property(TileKeys.bboxEast, .double(b.maxLongitude))
        out.property(TileKeys.bboxNorth, .double(b.maxLatitude))
        if let d = pin.medianDeposit { out.property(TileKeys.medianDeposit, .double(d)) }
        if let r = pin.medianMonthlyRent { out.property(TileKeys.medianMonthlyRent, .double(r)) }
        for code in 0..<ListingCategory.codeCount {
            let n = pin.categoryCounts[UInt8(code)]
            if n > 0 { out.property(TileKeys.firstCategory + code, .integer(Int64(n))) }
        }
        writeSummaries(pin, keys, to: &out)
        if pin.listingID != nil, let leaf = try? data.index.listing(of: pin) { writeListing(leaf, data, keys, to: &out) }
    }

    /// supercluster's abbreviation of a count: 950, 1.2k, 12k.
    static func abbreviated(_ count: Int) -> String {
        if count >= 10_000 { return "\(Int((Double(count) / 1000).rounded()))k" }
        if count >= 1000 {
            let tenths = Int((Double(count) / 100).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k"
        }
        return String(count)
    }

    private static func writeSummaries(_ pin: Pin, _ keys: TileKeys, to out: inout VectorTileEncoder) {
        for (k, summary) in pin.properties.enumerated() {
            switch summary {
            case let .numbers(lo, median, hi):
                out.property(keys.own(k, 0), .double(lo))
                out.property(keys.own(k, 1), .double(median))
                out.property(keys.own(k, 2), .double(hi))
            case .counts(let counts):
                let members = counts.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: .number(String($0.value))) }
                out.property(keys.own(k, 3), .string(JSONValue.object(members).jsonText))
            case .none:
                continue
            }
        }
    }

    private static func writeListing(_ leaf: PinLeaf, _ data: PinsDataset, _ keys: TileKeys, to out: inout VectorTileEncoder) {
        let id = data.source.idText(leaf.id)
        out.property(TileKeys.listingID, JSONText.isSafeInteger(id) ? .integer(Int64(id)!) : .string(id))
        if let c = leaf.category.flatMap(ListingCategory.init(code:)) { out.property(TileKeys.category, .string(c.rawValue)) }
        if let a = leaf.area { out.property(TileKeys.area, .double(a)) }
        if let d = leaf.deposit { out.property(TileKeys.deposit, .double(d)) }
        if let r = leaf.monthlyRent { out.property(TileKeys.monthlyRent, .double(r)) }
        for (k, value) in leaf.properties.enumerated() {
            switch value {
            case .number(let v)?: out.property(keys.own(k, 4), .double(v))
            case .text(let t)?: out.property(keys.own(k, 4), .string(t))
            case nil: continue
            }
        }
    }
}

import Datasets
import Harness
import Pins

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
        var properties: [(key: Int, value: TileValue)] = []
        for pin in pins {
            let p = address.local(longitude: pin.longitude, latitude: pin.latitude)
            guard TileAddress.inBuffer(p) else { continue }
            properties.removeAll(keepingCapacity: true)
            append(pin, data, keys, to: &properties)
            encoder.add(id: pin.id.rawValue, at: p, properties: properties)
        }
        return encoder.serialized()
    }

    /// A pin's feature properties (`VectorTileEncoder` says which), appended to `out`. Numbers
    /// are as the index holds them (the GeoJSON answers round them for text).
    static func append(_ pin: Pin, _ data: PinsDataset, _ keys: TileKeys, to out: inout [(key: Int, value: TileValue)]) {
        out.append((TileKeys.cluster, .bool(pin.kind == .cluster)))
        if pin.count > 1 {
            out.append((TileKeys.pointCount, .integer(Int64(pin.count))))
            out.append((TileKeys.pointCountAbbreviated, .string(abbreviated(pin.count))))
        }
        out.append((TileKeys.count, .integer(Int64(pin.count))))
        out.append((TileKeys.kind, .string(pin.kind.rawValue)))
        out.append((TileKeys.diameter, .double((pin.diameter * 10).rounded() / 10)))
        if let z = pin.expansionZoom { out.append((TileKeys.expansionZoom, .integer(Int64(z)))) }
        let b = pin.bbox
        out.append((TileKeys.bboxWest, .double(b.minLongitude)))
        out.append((TileKeys.bboxSouth, .double(b.minLatitude)))
        out.append((TileKeys.bboxEast, .double(b.maxLongitude)))
        out.append((TileKeys.bboxNorth, .double(b.maxLatitude)))
        if let d = pin.medianDeposit { out.append((TileKeys.medianDeposit, .double(d))) }
        if let r = pin.medianMonthlyRent { out.append((TileKeys.medianMonthlyRent, .double(r))) }
        for (code, count) in pin.categoryCounts.nonZero { out.append((TileKeys.firstCategory + Int(code), .integer(Int64(count)))) }
        appendSummaries(pin, keys, to: &out)
        if pin.listingID != nil, let leaf = try? data.index.listing(of: pin) { appendListing(leaf, data, keys, to: &out) }
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

    private static func appendSummaries(_ pin: Pin, _ keys: TileKeys, to out: inout [(key: Int, value: TileValue)]) {
        for (k, summary) in pin.properties.enumerated() {
            switch summary {
            case let .numbers(lo, median, hi):
                out += [(keys.own(k, 0), .double(lo)), (keys.own(k, 1), .double(median)), (keys.own(k, 2), .double(hi))]
            case .counts(let counts):
                let members = counts.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: .number(String($0.value))) }
                out.append((keys.own(k, 3), .string(JSONValue.object(members).jsonText)))
            case .none:
                continue
            }
        }
    }

    private static func appendListing(_ leaf: PinLeaf, _ data: PinsDataset, _ keys: TileKeys, to out: inout [(key: Int, value: TileValue)]) {
        let id = data.source.idText(leaf.id)
        out.append((TileKeys.listingID, JSONText.isSafeInteger(id) ? .integer(Int64(id)!) : .string(id)))
        if let c = leaf.category.flatMap(ListingCategory.init(code:)) { out.append((TileKeys.category, .string(c.rawValue))) }
        if let a = leaf.area { out.append((TileKeys.area, .double(a))) }
        if let d = leaf.deposit { out.append((TileKeys.deposit, .double(d))) }
        if let r = leaf.monthlyRent { out.append((TileKeys.monthlyRent, .double(r))) }
        for (k, value) in leaf.properties.enumerated() {
            switch value {
            case .number(let v)?: out.append((keys.own(k, 4), .double(v)))
            case .text(let t)?: out.append((keys.own(k, 4), .string(t)))
            case nil: continue
            }
        }
    }
}

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
    public static func tile(_ data: PinsDataset, _ address: TileAddress, filter: AttributeFilter?) throws(PinsAnswers.Failure) -> [UInt8] {
        let filter = try PinsAnswers.checked(filter, data)
        let pins: [Pin]
        do {
            pins = try data.index.pins(zoom: Double(address.z), bbox: address.queryBox, filter: filter)
        } catch {
            throw .badQuery(PinsQueryError(parameter: "tile", message: "\(error)"))
        }
        var encoder = VectorTileEncoder()
        for pin in pins {
            let p = address.local(longitude: pin.longitude, latitude: pin.latitude)
            guard TileAddress.inBuffer(p) else { continue }
            encoder.add(id: pin.id.rawValue, at: p, properties: properties(of: pin, data))
        }
        do {
            return try encoder.serialized()
        } catch {
            preconditionFailure("a vector tile could not be serialised: \(error)")
        }
    }

    /// A pin's feature properties (`VectorTileEncoder` lists them).
    static func properties(of pin: Pin, _ data: PinsDataset) -> [(String, TileValue)] {
        var out: [(String, TileValue)] = [("cluster", .bool(pin.kind == .cluster))]
        if pin.count > 1 {
            out.append(("point_count", .integer(Int64(pin.count))))
            out.append(("point_count_abbreviated", .string(abbreviated(pin.count))))
        }
        out.append(("count", .integer(Int64(pin.count))))
        out.append(("kind", .string(pin.kind.rawValue)))
        out.append(("diameter", rounded(pin.diameter, 1)))
        if let z = pin.expansionZoom { out.append(("expansion_zoom", .integer(Int64(z)))) }
        let b = pin.bbox
        out += [("bbox_west", rounded(b.minLongitude, 7)), ("bbox_south", rounded(b.minLatitude, 7)),
                ("bbox_east", rounded(b.maxLongitude, 7)), ("bbox_north", rounded(b.maxLatitude, 7))]
        if let d = pin.medianDeposit { out.append(("median_deposit", rounded(d, 2))) }
        if let r = pin.medianMonthlyRent { out.append(("median_monthly_rent", rounded(r, 2))) }
        for (code, count) in pin.categoryCounts.nonZero {
            if let category = ListingCategory(code: code) { out.append(("category_" + category.rawValue, .integer(Int64(count)))) }
        }
        out += summaries(pin, names: data.propertyNames)
        if pin.listingID != nil, let leaf = try? data.index.listing(of: pin) { out += listing(leaf, data) }
        return out
    }

    /// A number as `geocluster pins` writes it, `decimals` places, read back: a tile and the
    /// GeoJSON answers give a client the same values.
    static func rounded(_ v: Double, _ decimals: Int) -> TileValue { .double(Double(FormatNumber.trimmed(v, decimals: decimals)) ?? v) }

    /// supercluster's abbreviation of a count: 950, 1.2k, 12k.
    static func abbreviated(_ count: Int) -> String {
        if count >= 10_000 { return "\(Int((Double(count) / 1000).rounded()))k" }
        if count >= 1000 { return FormatNumber.trimmed((Double(count) / 100).rounded() / 10, decimals: 1) + "k" }
        return String(count)
    }

    private static func summaries(_ pin: Pin, names: [String]) -> [(String, TileValue)] {
        var out: [(String, TileValue)] = []
        for (name, summary) in zip(names, pin.properties) {
            switch summary {
            case let .numbers(lo, median, hi):
                out += [(name + "_min", .double(lo)), (name + "_median", .double(median)), (name + "_max", .double(hi))]
            case .counts(let counts):
                let members = counts.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: .number(String($0.value))) }
                out.append((name + "_counts", .string(JSONValue.object(members).jsonText)))
            case .none:
                continue
            }
        }
        return out
    }

    private static func listing(_ leaf: PinLeaf, _ data: PinsDataset) -> [(String, TileValue)] {
        let id = data.source.idText(leaf.id)
        var out: [(String, TileValue)] = [("listing_id", JSONText.isSafeInteger(id) ? .integer(Int64(id)!) : .string(id))]
        if let c = leaf.category.flatMap(ListingCategory.init(code:)) { out.append(("category", .string(c.rawValue))) }
        if let a = leaf.area { out.append(("area_m2", rounded(a, 2))) }
        if let d = leaf.deposit { out.append(("deposit", rounded(d, 2))) }
        if let r = leaf.monthlyRent { out.append(("monthly_rent", rounded(r, 2))) }
        for (name, value) in zip(data.propertyNames, leaf.properties) {
            switch value {
            case .number(let v)?: out.append((name, .double(v)))
            case .text(let t)?: out.append((name, .string(t)))
            case nil: continue
            }
        }
        return out
    }
}

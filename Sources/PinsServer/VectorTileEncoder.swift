import Pins
import SwiftProtobuf

/// The pins of one tile as a Mapbox Vector Tile 2.1 (one point layer, `pins`), through
/// swift-protobuf's generated message (vector_tile.pb.swift).
///
/// Each feature's id is the pin's id and its properties use supercluster's and Tippecanoe's
/// names where they have one, so existing MapLibre styles work: `cluster` (true for a pin that
/// splits when zoomed), `point_count` and `point_count_abbreviated` (for a pin of more than one
/// listing), then `count`, `kind`, `diameter` (pt), `expansion_zoom`, `bbox_west`, `bbox_south`,
/// `bbox_east`, `bbox_north`, `median_deposit`, `median_monthly_rent`, `category_NAME` (listings
/// per category), the user's own columns' `NAME_min`, `NAME_median`, `NAME_max` and `NAME_counts`
/// (a JSON object as text: a tile value cannot nest), and on a listing pin `listing_id`,
/// `category`, `area_m2`, `deposit`, `monthly_rent` and its own columns. A property whose value
/// is unknown is left out (a tile value cannot be null).
struct VectorTileEncoder {
    /// The layer's name.
    static let layerName = "pins"

    private var layer = VectorTile_Tile.Layer()
    private var keyIndex: [String: UInt32] = [:]
    private var valueIndex: [TileValue: UInt32] = [:]

    init() {
        layer.version = 2
        layer.name = Self.layerName
        layer.extent = UInt32(TileAddress.extent)
    }

    /// Adds a point feature at tile coordinates `at` with `properties` in order.
    mutating func add(id: UInt64, at p: (u: Int, v: Int), properties: [(String, TileValue)]) {
        var feature = VectorTile_Tile.Feature()
        feature.id = id
        feature.type = .point
        feature.geometry = [Self.command(id: 1, count: 1), Self.zigzag(p.u), Self.zigzag(p.v)]
        feature.tags.reserveCapacity(properties.count * 2)
        for (key, value) in properties {
            feature.tags.append(index(ofKey: key))
            feature.tags.append(index(of: value))
        }
        layer.features.append(feature)
    }

    /// The tile's bytes (an empty tile, no layer, when no feature was added).
    func serialized() throws -> [UInt8] {
        var tile = VectorTile_Tile()
        if !layer.features.isEmpty { tile.layers = [layer] }
        return try tile.serializedBytes()
    }

    private mutating func index(ofKey key: String) -> UInt32 {
        if let k = keyIndex[key] { return k }
        let k = UInt32(layer.keys.count)
        layer.keys.append(key)
        keyIndex[key] = k
        return k
    }

    private mutating func index(of value: TileValue) -> UInt32 {
        if let k = valueIndex[value] { return k }
        let k = UInt32(layer.values.count)
        layer.values.append(value.message)
        valueIndex[value] = k
        return k
    }

    /// A geometry command integer: the command id in the low 3 bits, the count above.
    static func command(id: UInt32, count: UInt32) -> UInt32 { (id & 0x7) | (count << 3) }

    /// A parameter integer, zigzag-encoded.
    static func zigzag(_ n: Int) -> UInt32 { UInt32(truncatingIfNeeded: (n << 1) ^ (n >> 63)) }
}

/// A feature property's value as the tile stores it.
enum TileValue: Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)

    var message: VectorTile_Tile.Value {
        var v = VectorTile_Tile.Value()
        switch self {
        case .string(let s): v.stringValue = s
        case .integer(let i) where i >= 0: v.uintValue = UInt64(i)
        case .integer(let i): v.sintValue = i
        case .double(let d): v.doubleValue = d
        case .bool(let b): v.boolValue = b
        }
        return v
    }
}

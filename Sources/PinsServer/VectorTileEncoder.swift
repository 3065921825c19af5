import Pins

/// The pins of one tile as a Mapbox Vector Tile 2.1: one point layer, `pins`, written straight
/// into protocol buffer wire format. Written here rather than through swift-protobuf's generated
/// message: serialising that message (its size pass, required-field and extension checks, one
/// object per feature and value) took 37 % of the server's CPU under load on seoul 1M tiles,
/// more than finding the pins; the tests decode every tile with swift-protobuf's message and
/// PyPI's mapbox-vector-tile (docs/performance.md, "Serving pins").
///
/// Each feature's id is the pin's id and its properties use supercluster's and Tippecanoe's
/// names where they have one, so existing MapLibre styles work (`TileKeys` lists them; the
/// layer carries the keys its features use). A property whose value is unknown is left out (a
/// tile value cannot be null). Texts and integers are stored once a tile; a tile's numbers
/// (boxes, medians) rarely repeat, so each is stored as it comes.
struct VectorTileEncoder {
    /// The layer's name.
    static let layerName = "pins"

    private let keys: TileKeys
    /// For each key of `keys`, its index in the layer's keys (−1: not used yet).
    private var keyIndex: [Int32]
    private var keyCount: UInt32 = 0
    private var valueCount: UInt32 = 0
    private var textIndex: [String: UInt32] = [:]
    private var integerIndex: [Int64: UInt32] = [:]
    private var boolIndex: [Int32] = [-1, -1]
    /// The layer's features, keys and values, each field already written.
    private var features = ProtoWriter(), keyFields = ProtoWriter(), valueFields = ProtoWriter()
    /// One feature's tags, then its body.
    private var tags: [UInt32] = [], body = ProtoWriter()
    private(set) var featureCount = 0

    init(keys: TileKeys) {
        self.keys = keys
        keyIndex = [Int32](repeating: -1, count: keys.names.count)
    }

    /// Adds a point feature at tile coordinates `p` with `properties` (key numbers of `keys`).
    mutating func add(id: UInt64, at p: (u: Int, v: Int), properties: [(key: Int, value: TileValue)]) {
        tags.removeAll(keepingCapacity: true)
        for (key, value) in properties {
            tags.append(index(ofKey: key))
            tags.append(index(of: value))
        }
        body.removeAll()
        body.varintField(1, id)
        body.packedField(2, tags)
        body.varintField(3, 1)                                   // GeomType.POINT
        body.packedField(4, [Self.command(id: 1, count: 1), Self.zigzag(p.u), Self.zigzag(p.v)])
        features.bytesField(2, body.bytes)
        featureCount += 1
    }

    /// The tile's bytes (an empty tile, no layer, when no feature was added).
    func serialized() -> [UInt8] {
        guard featureCount > 0 else { return [] }
        var layer = ProtoWriter()
        layer.varintField(15, 2)                                 // version
        layer.bytesField(1, Array(Self.layerName.utf8))          // name
        layer.append(features.bytes)
        layer.append(keyFields.bytes)
        layer.append(valueFields.bytes)
        layer.varintField(5, UInt64(TileAddress.extent))
        var tile = ProtoWriter()
        tile.bytesField(3, layer.bytes)                          // Tile.layers
        return tile.bytes
    }

    private mutating func index(ofKey key: Int) -> UInt32 {
        if keyIndex[key] >= 0 { return UInt32(keyIndex[key]) }
        keyIndex[key] = Int32(keyCount)
        keyFields.bytesField(3, Array(keys.names[key].utf8))
        keyCount += 1
        return keyCount - 1
    }

    private mutating func index(of value: TileValue) -> UInt32 {
        switch value {
        case .string(let s):
            if let k = textIndex[s] { return k }
            let k = append(value); textIndex[s] = k; return k
        case .integer(let i):
            if let k = integerIndex[i] { return k }
            let k = append(value); integerIndex[i] = k; return k
        case .bool(let b):
            let slot = b ? 1 : 0
            if boolIndex[slot] >= 0 { return UInt32(boolIndex[slot]) }
            let k = append(value); boolIndex[slot] = Int32(k); return k
        case .double:
            return append(value)
        }
    }

    /// Writes a Value message into the layer's values (field 4), its size worked out first so
    /// that it goes straight into place.
    private mutating func append(_ value: TileValue) -> UInt32 {
        switch value {
        case .string(let s):
            let n = s.utf8.count
            valueFields.lengthPrefix(4, 1 + ProtoWriter.varintSize(UInt64(n)) + n)
            valueFields.bytesField(1, Array(s.utf8))
        case .double(let d):
            valueFields.lengthPrefix(4, 9)
            valueFields.fixed64Field(3, d.bitPattern)
        case .integer(let i):
            let (field, v) = i >= 0 ? (UInt64(5), UInt64(i)) : (UInt64(6), UInt64(bitPattern: (i << 1) ^ (i >> 63)))
            valueFields.lengthPrefix(4, 1 + ProtoWriter.varintSize(v))
            valueFields.varintField(field, v)
        case .bool(let b):
            valueFields.lengthPrefix(4, 2)
            valueFields.varintField(7, b ? 1 : 0)
        }
        valueCount += 1
        return valueCount - 1
    }

    /// A geometry command integer: the command id in the low 3 bits, the count above.
    static func command(id: UInt32, count: UInt32) -> UInt32 { (id & 0x7) | (count << 3) }

    /// A parameter integer, zigzag-encoded.
    static func zigzag(_ n: Int) -> UInt32 { UInt32(truncatingIfNeeded: (n << 1) ^ (n >> 63)) }
}

/// Protocol buffer fields in wire format (varints, fixed 64-bit, length-delimited, packed).
struct ProtoWriter {
    private(set) var bytes: [UInt8] = []

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func append(_ other: [UInt8]) { bytes += other }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(truncatingIfNeeded: v) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    mutating func varintField(_ field: UInt64, _ value: UInt64) { varint(field << 3); varint(value) }

    mutating func fixed64Field(_ field: UInt64, _ value: UInt64) {
        varint(field << 3 | 1)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The key and length of a length-delimited field whose `size` bytes follow.
    mutating func lengthPrefix(_ field: UInt64, _ size: Int) {
        varint(field << 3 | 2)
        varint(UInt64(size))
    }

    /// Bytes a varint of `v` takes.
    static func varintSize(_ v: UInt64) -> Int {
        var n = 1, x = v
        while x >= 0x80 { x >>= 7; n += 1 }
        return n
    }

    mutating func bytesField(_ field: UInt64, _ payload: [UInt8]) {
        varint(field << 3 | 2)
        varint(UInt64(payload.count))
        bytes += payload
    }

    mutating func packedField(_ field: UInt64, _ values: [UInt32]) {
        var size = 0
        for v in values { size += Self.varintSize(UInt64(v)) }
        lengthPrefix(field, size)
        for v in values { varint(UInt64(v)) }
    }
}

/// A feature property's value as the tile stores it.
enum TileValue: Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
}

/// The property names a dataset's tiles may carry, numbered: the fixed ones, one per listing
/// category, then five per own column (`NAME_min`, `NAME_median`, `NAME_max`, `NAME_counts`,
/// and `NAME` on a listing pin).
struct TileKeys: Sendable {
    let names: [String]

    static let cluster = 0, pointCount = 1, pointCountAbbreviated = 2, count = 3, kind = 4, diameter = 5,
               expansionZoom = 6, bboxWest = 7, bboxSouth = 8, bboxEast = 9, bboxNorth = 10, medianDeposit = 11,
               medianMonthlyRent = 12, listingID = 13, category = 14, area = 15, deposit = 16, monthlyRent = 17
    static let fixed = ["cluster", "point_count", "point_count_abbreviated", "count", "kind", "diameter", "expansion_zoom",
                        "bbox_west", "bbox_south", "bbox_east", "bbox_north", "median_deposit", "median_monthly_rent",
                        "listing_id", "category", "area_m2", "deposit", "monthly_rent"]
    /// The TileJSON types of the fixed keys, in their order.
    static let fixedTypes = ["Boolean", "Number", "String", "Number", "String", "Number", "Number", "Number", "Number", "Number",
                             "Number", "Number", "Number", "Number", "String", "Number", "Number", "Number"]
    /// The first category key; category code c is `firstCategory + c`.
    static let firstCategory = fixed.count

    /// The first key of the own columns.
    let firstOwn: Int

    init(propertyNames: [String]) {
        var names = Self.fixed
        names += (0..<ListingCategory.codeCount).map { code in "category_" + (ListingCategory(code: UInt8(code))?.rawValue ?? "\(code)") }
        firstOwn = names.count
        for name in propertyNames { names += [name + "_min", name + "_median", name + "_max", name + "_counts", name] }
        self.names = names
    }

    /// Every key with its TileJSON type (an own column's listing value: String, whatever it holds).
    var typed: [(String, String)] {
        names.enumerated().map { k, name in
            (name, k < Self.fixed.count ? Self.fixedTypes[k] : k < firstOwn ? "Number" : (k - firstOwn) % 5 >= 3 ? "String" : "Number")
        }
    }

    /// The key of own column `k`'s variant `v` (0 min, 1 median, 2 max, 3 counts, 4 the listing's value).
    func own(_ k: Int, _ v: Int) -> Int { firstOwn + 5 * k + v }
}

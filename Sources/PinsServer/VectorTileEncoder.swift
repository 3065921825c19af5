import Pins

/// The pins of one tile as a Mapbox Vector Tile 2.1: one point layer, `pins`, written straight
/// into protocol buffer wire format. Written here rather than through swift-protobuf's generated
/// message: serialising that message (its size pass, required-field and extension checks, one
/// object per feature and value) was the largest cost of a tile under load, more than finding
/// the pins (docs/performance.md, "Serving pins"); the tests decode every tile with
/// swift-protobuf's message and PyPI's mapbox-vector-tile.
///
/// Each feature's id is the pin's id and its properties use supercluster's and Tippecanoe's
/// names where they have one, so existing MapLibre styles work (`TileKeys` lists them; the
/// layer carries the keys its features use). A property whose value is unknown is left out (a
/// tile value cannot be null).
struct VectorTileEncoder {
    /// The layer's name.
    static let layerName = "pins"

    private let keys: TileKeys
    /// For each key of `keys`, its index in the layer's keys (−1: not used yet).
    private var keyIndex: [Int32]
    private var keyCount: UInt32 = 0
    private var valueCount: UInt32 = 0
    /// The values stored once a tile: false, true, then each pin kind (−1: not yet).
    private var sharedValues: [Int32] = [-1, -1, -1, -1, -1]
    /// The numbers stored so far: an open-addressing table of bit patterns and their value
    /// index (medians, diameters and counts repeat within a tile; a hashed dictionary cost more
    /// than it saved).
    private var numberBits: [UInt64], numberIndex: [Int32]
    /// The layer's features, keys and values, each field already written.
    private var features = ProtoWriter(), keyFields = ProtoWriter(), valueFields = ProtoWriter()
    /// The feature being written: its tags, then its body.
    private var tags: [UInt32] = [], body = ProtoWriter()
    private var featureID: UInt64 = 0, point: (u: Int, v: Int) = (0, 0)
    private(set) var featureCount = 0

    init(keys: TileKeys) {
        self.keys = keys
        keyIndex = [Int32](repeating: -1, count: keys.names.count)
        tags.reserveCapacity(64)
        numberBits = [UInt64](repeating: 0, count: 1024)
        numberIndex = [Int32](repeating: -1, count: 1024)
    }

    /// Starts a point feature at tile coordinates `p`; its properties follow, then `endFeature()`.
    mutating func beginFeature(id: UInt64, at p: (u: Int, v: Int)) {
        tags.removeAll(keepingCapacity: true)
        featureID = id
        point = p
    }

    /// A property of the current feature (`key`, a number of `keys`).
    mutating func property(_ key: Int, _ value: TileValue) {
        tags.append(index(ofKey: key))
        tags.append(index(of: value))
    }

    /// Writes the current feature.
    mutating func endFeature() {
        body.removeAll()
        body.varintField(1, featureID)
        body.packedField(2, tags)
        body.varintField(3, 1)                                   // GeomType.POINT
        let geometry = [Self.command(id: 1, count: 1), Self.zigzag(point.u), Self.zigzag(point.v)]
        body.packedField(4, geometry)
        features.lengthPrefix(2, body.bytes.count)
        features.append(body.bytes)
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

    /// A value's index: booleans, pin kinds, numbers and integers are stored once a tile (the
    /// first 1,024 distinct numbers and integers; later ones as they come), texts as they come
    /// (the format allows repeats).
    private mutating func index(of value: TileValue) -> UInt32 {
        let slot: Int
        switch value {
        case .bool(let b): slot = b ? 1 : 0
        case .kind(let k): slot = 2 + (k == .cluster ? 0 : k == .building ? 1 : 2)
        case .double(let d): return number(d.bitPattern, value)
        case .integer(let i): return number(UInt64(bitPattern: i) ^ 0x5555_5555_5555_5555, value)
        case .string: return append(value)
        }
        if sharedValues[slot] >= 0 { return UInt32(sharedValues[slot]) }
        let k = append(value)
        sharedValues[slot] = Int32(k)
        return k
    }

    /// The index of a number or integer (`bits` tells them apart), stored the first time.
    private mutating func number(_ bits: UInt64, _ value: TileValue) -> UInt32 {
        let mask = numberBits.count - 1
        var slot = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 54) & mask
        for _ in 0..<8 {
            if numberIndex[slot] < 0 {
                let k = append(value)
                numberBits[slot] = bits
                numberIndex[slot] = Int32(k)
                return k
            }
            if numberBits[slot] == bits { return UInt32(numberIndex[slot]) }
            slot = (slot + 1) & mask
        }
        return append(value)
    }

    /// Writes a Value message into the layer's values (field 4), its size worked out first so
    /// that it goes straight into place.
    private mutating func append(_ value: TileValue) -> UInt32 {
        switch value {
        case .string(let s): appendText(s)
        case .kind(let k): appendText(k.rawValue)
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

    private mutating func appendText(_ s: String) {
        let n = s.utf8.count
        valueFields.lengthPrefix(4, 1 + ProtoWriter.varintSize(UInt64(n)) + n)
        valueFields.bytesField(1, Array(s.utf8))
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
enum TileValue {
    case string(String)
    case kind(PinKind)
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

import Geo

/// Streams a GeoJSON FeatureCollection to a file, one feature per line,
/// written whole or not at all (a temporary file renamed into place on `commit()`, removed
/// if the writer is dropped first):
///
///     {"type":"FeatureCollection","features":[
///     {"type":"Feature","geometry":{"type":"Point","coordinates":[126.978,37.566]},"properties":{"id":0,"category":"apartment"}},
///     …
///     ]}
///
/// Call `beginFeature`, any number of `property` calls, then `endFeature`, for each feature;
/// then `commit()`. Points have their own `beginFeature` calls; other geometries (lines,
/// polygons) go through ``beginFeature(_:)``. Memory stays at the 1 MiB buffer (or the
/// largest single feature) whatever the number of features.
public struct GeoJSONWriter: ~Copyable {
    private var output: AtomicOutput
    private var features = 0
    private var propertiesInFeature = 0

    /// The destination, as given.
    public var path: String { output.path }

    /// Number of features ended so far.
    public var featureCount: Int { features }

    /// Opens the temporary file and writes the collection's opening.
    /// - Throws: `.outputFolderMissing`, `.writeFailed`.
    public init(path: String) throws(DatasetError) {
        output = try AtomicOutput(path: path)
        output.append(#"{"type":"FeatureCollection","features":["#)
    }

    /// A collection built in memory, for an answer rather than a file: ``finish()`` gives its
    /// bytes; ``commit()`` is not to be called.
    public init() {
        output = AtomicOutput(inMemoryCapacity: 1 << 16)
        output.append(#"{"type":"FeatureCollection","features":["#)
    }

    /// Closes an in-memory collection (``init()``) and returns its bytes.
    /// - Parameter members: members of the collection after `features` (RFC 7946 §6.1's
    ///   foreign members: a page's cursor, a total).
    public mutating func finish(members: [JSONMember] = []) -> [UInt8] {
        output.append("\n]")
        for m in members {
            output.append(",")
            output.append(JSONValue.string(m.key).jsonText)
            output.append(":")
            output.append(m.value.jsonText)
        }
        output.append("}\n")
        return Array(output.bytes)
    }

    /// The one feature of an in-memory collection, as a GeoJSON Feature object on its own.
    public mutating func finishFeature() -> [UInt8] {
        precondition(features == 1, "finishFeature() needs exactly one feature")
        let header = #"{"type":"FeatureCollection","features":["#.utf8.count + 1   // and the newline before the feature
        return Array(output.bytes[header...]) + [0x0A]
    }

    /// Starts a feature at (`lon`, `lat`) degrees, each written rounded to `decimals` places
    /// (nil: the shortest text that reads back exactly).
    public mutating func beginFeature(lon: Double, lat: Double, decimals: Int? = nil) {
        openFeature()
        output.append(#""geometry":{"type":"Point","coordinates":["#)
        if let d = decimals { output.appendFixed(lon, decimals: d) } else { output.appendShortest(lon) }
        output.append(0x2C)
        if let d = decimals { output.appendFixed(lat, decimals: d) } else { output.appendShortest(lat) }
        closeGeometry()
    }

    /// Starts a feature whose coordinates are echoed as given when they are JSON numbers
    /// (so values read from a file are written unchanged), else written from `lon`, `lat`.
    public mutating func beginFeature(lonText: String, latText: String, lon: Double, lat: Double) {
        openFeature()
        output.append(#""geometry":{"type":"Point","coordinates":["#)
        if JSONText.isNumber(lonText) { output.append(lonText) } else { output.appendShortest(lon) }
        output.append(0x2C)
        if JSONText.isNumber(latText) { output.append(latText) } else { output.appendShortest(lat) }
        closeGeometry()
    }

    /// Decimals of the positions of ``beginFeature(_:)``: 7 (about 1 cm), more than any
    /// listing's position carries, so a coordinate computed by a projection's inverse is
    /// written `126.88025`, not `126.88025000000002` (RFC 7946 §11.2 asks for no more
    /// precision than the data has).
    public static let geometryDecimals = Geometry.writtenDecimals

    /// Starts a feature with `geometry`, its coordinates rounded to ``geometryDecimals``
    /// places and written in the shortest text that reads back as the rounded value. Polygon
    /// rings are written in RFC 7946's orientation, exterior rings counterclockwise and holes
    /// clockwise (judged on the rounded vertices): a ring given the other way round is
    /// written from its last vertex to its first (a ring of zero area as given).
    /// With `bbox` (west, south, east, north in degrees; west > east across ±180°, RFC 7946
    /// §5.2) the feature gets a `bbox` member, rounded as the positions are.
    /// - Complexity: O(vertices).
    public mutating func beginFeature(_ geometry: GeoJSONGeometry,
                                      bbox: (west: Double, south: Double, east: Double, north: Double)? = nil) {
        openFeature()
        if let b = bbox {
            // Rounded as the positions are, so the box still contains every written vertex.
            output.reserve(128)
            output.append(#""bbox":["#)
            for (k, v) in [b.west, b.south, b.east, b.north].enumerated() {
                if k > 0 { output.append(0x2C) }
                output.appendShortest(GeoJSONGeometry.rounded(v, toDecimals: Self.geometryDecimals))
            }
            output.append(#"],"geometry":"#)
        } else {
            output.append(#""geometry":"#)
        }
        output.append(#"{"type":""#)
        output.append(geometry.typeName)
        output.append(#"","coordinates":"#)
        switch geometry.rounded(toDecimals: Self.geometryDecimals) {
        case .point(let lon, let lat):
            output.append(0x5B)
            appendPosition(lon, lat)
            output.append(0x5D)
        case .lineString(let line):
            appendPositions(line, reversed: false)
        case .multiLineString(let lines):
            output.append(0x5B)
            for (k, line) in lines.enumerated() {
                if k > 0 { output.append(0x2C) }
                appendPositions(line, reversed: false)
            }
            output.append(0x5D)
        case .polygon(let rings):
            appendRings(rings)
        case .multiPolygon(let polygons):
            output.append(0x5B)
            for (k, rings) in polygons.enumerated() {
                if k > 0 { output.append(0x2C) }
                appendRings(rings)
            }
            output.append(0x5D)
        }
        output.append(#"},"properties":{"#)
    }

    /// A string property.
    public mutating func property(_ name: String, _ value: String) {
        key(name)
        appendString(value)
    }

    /// An integer property.
    public mutating func property(_ name: String, _ value: Int) {
        key(name)
        output.appendInt(value)
    }

    /// A number property rounded to `decimals` places (see `CSVWriter.field(_:decimals:)`).
    public mutating func property(_ name: String, _ value: Double, decimals: Int) {
        key(name)
        if value.isFinite { output.appendFixed(value, decimals: decimals) } else { output.append("null") }
    }

    /// A property given as JSON: written as it is.
    public mutating func property(_ name: String, json value: JSONValue) {
        key(name)
        output.append(value.jsonText)
    }

    /// A property from a text field: empty as `null`, a number as a JSON number when a reader
    /// keeps its value (``JSONText/keepsValue(_:)``: `12.50` and `1e3` are numbers,
    /// `12345678901234567890123` a string), anything else as a string.
    public mutating func property(_ name: String, inferring text: String) {
        key(name)
        if text.isEmpty {
            output.append("null")
        } else if JSONText.keepsValue(text) {
            output.append(text)
        } else {
            appendString(text)
        }
    }

    /// An id from a text field: empty as `null`, a plain integer within ±(2^53 − 1) as a
    /// JSON number (``JSONText/isSafeInteger(_:)``), anything else (`1e3`, `007`, 23 digits)
    /// as a string, so every reader gets the id back as the same text.
    public mutating func property(_ name: String, id text: String) {
        key(name)
        if text.isEmpty {
            output.append("null")
        } else if JSONText.isSafeInteger(text) {
            output.append(text)
        } else {
            appendString(text)
        }
    }

    /// Ends the current feature.
    public mutating func endFeature() throws(DatasetError) {
        output.append("}}")
        features += 1
        try output.flushIfFull()
    }

    /// Closes the collection, flushes and renames the file into place.
    public mutating func commit() throws(DatasetError) {
        output.append("\n]}\n")
        try output.commit()
    }

    private mutating func openFeature() {
        output.append(features == 0 ? "\n" : ",\n")
        output.append(#"{"type":"Feature","#)
        propertiesInFeature = 0
    }

    /// `lon,lat`. Reserves room for the two numbers and the punctuation around them, which
    /// is appended byte by byte: one long ring can pass the buffer's slack within a feature.
    private mutating func appendPosition(_ lon: Double, _ lat: Double) {
        output.reserve(64)
        output.appendShortest(lon)
        output.append(0x2C)
        output.appendShortest(lat)
    }

    /// `[[lon,lat],…]`, last vertex first when `reversed`.
    private mutating func appendPositions(_ c: Coordinates, reversed: Bool) {
        output.reserve(16)
        output.append(0x5B)
        for k in 0..<c.count {
            let i = reversed ? c.count - 1 - k : k
            if k > 0 { output.append(0x2C) }
            output.append(0x5B)
            appendPosition(c.x[i], c.y[i])
            output.append(0x5D)
        }
        output.append(0x5D)
    }

    /// One polygon's rings: the first (exterior) counterclockwise, the rest (holes) clockwise.
    private mutating func appendRings(_ rings: [Coordinates]) {
        output.reserve(16)
        output.append(0x5B)
        for (k, ring) in rings.enumerated() {
            if k > 0 { output.append(0x2C) }
            let area = GeoJSONGeometry.doubledSignedArea(ring)
            appendPositions(ring, reversed: k == 0 ? area < 0 : area > 0)
        }
        output.append(0x5D)
    }

    private mutating func closeGeometry() {
        output.append(#"]},"properties":{"#)
    }

    private mutating func key(_ name: String) {
        if propertiesInFeature > 0 { output.append(0x2C) }
        propertiesInFeature += 1
        appendString(name)
        output.append(0x3A)
    }

    /// `s` as a JSON string. Text without quotes, backslashes or control characters (all
    /// generated keys and values) is copied as it is, without building an escaped string,
    /// which more than halved the time `generate` spends writing GeoJSON (measured:
    /// docs/performance.md).
    private mutating func appendString(_ s: String) {
        var s = s
        let plain = s.withUTF8 { bytes in
            !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
        }
        guard plain else { output.append(JSONText.quoted(s)); return }
        output.append(0x22)
        s.withUTF8 { output.append($0) }
        output.append(0x22)
    }
}

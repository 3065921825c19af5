import Geo
import ListingVocabulary

/// The land under a geographic map: Natural Earth's land at 1:110m (public domain), dissolved
/// from its countries and simplified by `scripts/data/make_land.py`, which writes `LandData`.
/// Drawn only on maps wide enough for that scale to be true to the points (``shows(in:)``).
enum LandLayer {
    /// The rings in degrees (x = longitude in −180…180, y = latitude within Web Mercator's
    /// ±85.05°): exteriors counter-clockwise, holes (the Caspian Sea) clockwise, each closed
    /// implicitly. Draw them together with `fill-rule="evenodd"`.
    static let rings: [Coordinates] = decode(LandData.encoded)

    /// How far a coast may lie from the truth, degrees: the simplification's tolerance (the
    /// 0.01° grid adds a little).
    static let tolerance = 0.1

    /// The layer is drawn when the map is at least this many degrees of longitude wide: a
    /// coast is then within about 1 % of the width of where it truly runs.
    static let smallestSpan = 12.0

    /// Whether a map laid out as `layout` gets the layer.
    static func shows(in layout: MapLayout) -> Bool {
        layout.mapWidth / layout.scale >= WebMercator.easting(longitude: smallestSpan)
    }

    /// The rings of `LandData.encoded`: see `scripts/data/make_land.py` for the format (rings
    /// split by `|`; per vertex, longitude then latitude in hundredths of a degree, the first
    /// absolute and the rest as differences, each a zigzag integer in 5-bit groups, least
    /// significant first, the groups but the last marked with 32, written in base64url).
    static func decode(_ text: String) -> [Coordinates] {
        text.utf8.split(separator: UInt8(ascii: "|")).map { ring in
            var values: [Int] = []
            var (value, shift) = (0, 0)
            for byte in ring {
                let digit = Self.digit(byte)
                value |= (digit & 31) << shift
                shift += 5
                if digit < 32 {
                    values.append(value & 1 == 0 ? value >> 1 : -((value + 1) >> 1))
                    (value, shift) = (0, 0)
                }
            }
            var (lon, lat) = (0, 0)
            var out = Coordinates(x: [], y: [])
            for pair in stride(from: 0, to: values.count - 1, by: 2) {
                lon += values[pair]
                lat += values[pair + 1]
                out.x.append(Double(lon) / 100)
                out.y.append(Double(lat) / 100)
            }
            return out
        }
    }

    /// The value of one base64url character.
    private static func digit(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): return 62
        default: return 63
        }
    }

    /// The SVG path of the land the map shows: each ring drawn where it falls in the map's
    /// window (once more a turn east or west when the window cuts it), rings wholly outside the
    /// map left out, vertices that land within 0.5 pt of the one before dropped.
    static func path(_ layout: MapLayout) -> String {
        let half = layout.mapWidth / 2 / layout.scale
        let (left, right) = (layout.centreX - half, layout.centreX + half)
        var d = ""
        for ring in rings {
            guard let lo = ring.x.min(), let hi = ring.x.max() else { continue }
            for turn in [-360.0, 0, 360] {
                let (west, east) = (WebMercator.easting(longitude: lo + turn), WebMercator.easting(longitude: hi + turn))
                guard east >= left, west <= right else { continue }
                d += ringPath(ring, turn: turn, layout)
            }
        }
        return d
    }

    private static func ringPath(_ ring: Coordinates, turn: Double, _ layout: MapLayout) -> String {
        var d = "", last = (x: Double.nan, y: Double.nan)
        for i in ring.x.indices {
            let p = layout.point(x: WebMercator.easting(longitude: ring.x[i] + turn), y: WebMercator.northing(latitude: ring.y[i]))
            if i > 0 && abs(p.x - last.x) < 0.5 && abs(p.y - last.y) < 0.5 { continue }
            d += (i == 0 ? "M" : "L") + svgNumber(p.x, decimals: 1) + " " + svgNumber(p.y, decimals: 1)
            last = p
        }
        return d + "Z"
    }
}

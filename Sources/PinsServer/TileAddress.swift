import Pins

/// A tile of the Web Mercator grid, `z/x/y` (x east from the antimeridian, y south from the
/// top): tile `z/x/y` holds the pins of zoom z (`PinTiles`). Each pin belongs to exactly one tile, the one holding its displayed position
/// (bounds half-open: a pin on a tile's west or north edge is that tile's, on its east or south
/// edge the next one's); longitude 180° is −180°, and positions beyond Mercator's latitude
/// limit belong to the top or bottom row.
public struct TileAddress: Sendable, Hashable, CustomStringConvertible {
    public let z: Int
    public let x: Int
    public let y: Int

    /// Coordinate units across a tile (Mapbox Vector Tile's default).
    public static let extent = 4096
    /// How far past its edges, in tile units, a tile repeats the pins of its neighbours, so
    /// that discs and labels near an edge are drawn whole (each copy carries the pin's id).
    public static let buffer = 256

    /// - Returns: nil unless 0 ≤ z ≤ 22 and 0 ≤ x, y < 2^z.
    public init?(z: Int, x: Int, y: Int) {
        guard (0...PinOptions.maxZoom).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return nil }
        self.z = z; self.x = x; self.y = y
    }

    public var description: String { "\(z)/\(x)/\(y)" }

    /// Tiles across the world at this zoom.
    var side: Int { 1 << z }

    /// The tile at zoom `z` that owns a displayed position.
    public static func owner(longitude: Double, latitude: Double, zoom z: Int) -> TileAddress {
        let n = 1 << z
        let (mx, my) = mercator(longitude: longitude, latitude: latitude)
        let tx = Int((mx * Double(n)).rounded(.down)) & (n - 1)        // x = 1 (180°) wraps to tile 0
        let ty = Int((my * Double(n)).rounded(.down))
        return TileAddress(z: z, x: tx, y: ty)!
    }

    /// Whether this tile owns the position (see `owner`).
    public func owns(longitude: Double, latitude: Double) -> Bool {
        Self.owner(longitude: longitude, latitude: latitude, zoom: z) == self
    }

    /// A position in this tile's coordinates (0 ≤ u, v < 4096 inside the tile), the copy of it
    /// that lies nearest the tile (one turn east or west across the antimeridian).
    public func local(longitude: Double, latitude: Double) -> (u: Int, v: Int) {
        let (mx, my) = mercator(longitude: longitude, latitude: latitude)
        let n = Double(side), e = Double(Self.extent)
        var u = (mx * n - Double(x)) * e
        let turn = n * e, centre = e / 2
        if u >= centre + turn / 2 { u -= turn } else if u < centre - turn / 2 { u += turn }
        let v = (my * n - Double(y)) * e
        return (Int(u.rounded(.down)), Int(v.rounded(.down)))
    }

    /// Whether local coordinates fall within the tile or its buffer.
    public static func inBuffer(_ p: (u: Int, v: Int)) -> Bool {
        (-buffer..<(extent + buffer)).contains(p.u) && (-buffer..<(extent + buffer)).contains(p.v)
    }

    /// The box in degrees that the tile and its buffer cover (the index query's viewport):
    /// across the antimeridian when the buffer is, the whole width at zoom 0, to the poles in
    /// the top and bottom rows.
    public var queryBox: BoundingBox {
        let n = Double(side), margin = Double(Self.buffer) / Double(Self.extent)
        let west = (Double(x) - margin) / n, east = (Double(x) + 1 + margin) / n
        let north = y == 0 ? 90 : WebMercator.latitude(y: (Double(y) - margin) / n)
        let south = y == side - 1 ? -90 : WebMercator.latitude(y: (Double(y) + 1 + margin) / n)
        guard east - west < 1 else { return BoundingBox(minLongitude: -180, minLatitude: south, maxLongitude: 180, maxLatitude: north) }
        func lon(_ mx: Double) -> Double {
            var l = WebMercator.longitude(x: mx)
            if l < -180 { l += 360 } else if l > 180 { l -= 360 }
            return l
        }
        return BoundingBox(minLongitude: lon(west), minLatitude: south, maxLongitude: lon(east), maxLatitude: north)
    }

    /// Mercator x in [0, 1] (1 at 180°) and y in [0, 1) (0 at the top; a latitude beyond the
    /// limit as the limit, the southern limit just inside the bottom row).
    static func mercator(longitude: Double, latitude: Double) -> (Double, Double) {
        let lat = min(max(latitude, -WebMercator.maxLatitude), WebMercator.maxLatitude)
        return (WebMercator.x(longitude: longitude), min(max(WebMercator.y(latitude: lat), 0), Double(1).nextDown))
    }

    private func mercator(longitude: Double, latitude: Double) -> (Double, Double) {
        Self.mercator(longitude: longitude, latitude: latitude)
    }
}

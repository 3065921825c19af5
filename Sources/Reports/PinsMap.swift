import ListingVocabulary

/// The frame of `geocluster map --zoom`: the map pins of one zoom at their drawn sizes
/// (25–50 pt), on a map at that zoom's scale (1 pt = 1 pixel of 256-pixel tiles).
public enum PinsMap {
    /// The largest map side drawn, pt.
    public static let maxSide = 4000.0

    /// The frame at zoom `z`: `bbox`, or the extent of the pins' boxes (`extents`) plus half the
    /// largest disc all round, taken in `window` (the listings' window), so pins on both sides
    /// of the antimeridian are framed together; such a frame has `minLongitude > maxLongitude`.
    public static func frame(extents: [BoundingBox], zoom z: Int, bbox: BoundingBox?, window: LongitudeWindow = .standard) -> MapFrame {
        if let bbox {
            return MapFrame.zoom(Double(z), minLongitude: bbox.minLongitude, minLatitude: bbox.minLatitude,
                                 maxLongitude: bbox.maxLongitude, maxLatitude: bbox.maxLatitude)
        }
        let west = extents.map { window.unwrap($0.minLongitude) }.min()!
        let east = extents.map { window.unwrap($0.maxLongitude) }.max()!
        let south = extents.map { $0.minLatitude }.min()!, north = extents.map { $0.maxLatitude }.max()!
        let scale = MapFrame.zoom(Double(z), minLongitude: west, minLatitude: south, maxLongitude: east, maxLatitude: north)
        // In the unit square the world is 1 wide and y grows southwards.
        let pad = 25 / (256 * Double(1 << z))
        return MapFrame(minLongitude: LongitudeWindow.normalized(WebMercator.longitude(x: WebMercator.x(longitude: west) - pad)),
                        minLatitude: WebMercator.latitude(y: WebMercator.y(latitude: south) + pad),
                        maxLongitude: LongitudeWindow.normalized(WebMercator.longitude(x: WebMercator.x(longitude: east) + pad)),
                        maxLatitude: WebMercator.latitude(y: WebMercator.y(latitude: north) - pad),
                        pointsPerMetre: scale.pointsPerMetre)
    }
}

/// The one error type of Reports: a figure that cannot be drawn as asked. Messages say what to
/// change.
public enum ReportsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No pin at the zoom (in the box, when one was given).
    case noPins(zoom: Int, inBox: Bool)
    /// The pins span more than `PinsMap.maxSide` pt on a side at the zoom.
    case mapTooLarge(zoom: Int, width: Int, height: Int)

    public var description: String {
        switch self {
        case let .noPins(zoom, inBox):
            return "no pins at zoom \(zoom)" + (inBox ? " in --bbox; widen it" : "")
        case let .mapTooLarge(zoom, width, height):
            return "at zoom \(zoom) the pins span \(width) × \(height) pt; give --bbox to draw part of them (at most 4000 pt a side)"
        }
    }
}

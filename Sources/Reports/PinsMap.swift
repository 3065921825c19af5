import Datasets
import Harness
import Pins

/// `geocluster map --zoom`: the map pins of one zoom at their drawn sizes (25–50 pt), on a map
/// at that zoom's scale (1 pt = 1 pixel of 256-pixel tiles), each listing at its displayed
/// position in its pin's colour.
public enum PinsMap {
    /// The largest map side drawn, pt.
    public static let maxSide = 4000.0

    /// Builds the index, draws the zoom's pins and writes the SVG.
    /// - Throws: `DatasetError` (reading, writing), `PinError` (listings, options),
    ///   `ReportsError` (no pins to draw, or a map too large).
    public static func draw(_ request: PinsMapRequest) throws -> PinsMapSummary {
        try AtomicFile.checkDestination(request.output)
        var data = try request.source.read(request.input)
        let options = request.source.options(privacy: try request.source.policy(for: data.listings), radius: request.radius)
        let index = try PinIndex(listings: data.takeListings(), options: options)
        request.source.report(index.setAside, source: data, input: request.input)
        let z = Int(request.zoom.rounded(.down))
        let pins = try index.pins(zoom: Double(z), bbox: request.bbox)
        guard !pins.isEmpty else { throw ReportsError.noPins(zoom: z, inBox: request.bbox != nil) }
        let leaves = try index.leafPositions(of: pins)
        let frame = self.frame(pins: pins, zoom: z, bbox: request.bbox, window: LongitudeWindow(containing: leaves.longitudes))
        let size = frame.size
        guard size.width <= maxSide, size.height <= maxSide else {
            throw ReportsError.mapTooLarge(zoom: z, width: Int(size.width), height: Int(size.height))
        }
        let privacy = request.source.key == nil ? "true positions (--no-privacy)" : "displayed (privacy-masked) positions"
        let subtitle = "zoom \(z) · \(pins.count) pins over \(leaves.longitudes.count) listings at \(privacy) · radius \(FormatNumber.trimmed(request.radius, decimals: 1)) px"
        let mapPins = pins.enumerated().map { k, p in
            MapPin(longitude: p.longitude, latitude: p.latitude, count: p.count, diameter: p.diameter, label: Int32(k))
        }
        let map = MapData(longitudes: leaves.longitudes, latitudes: leaves.latitudes, labels: leaves.labels,
                          title: request.title ?? "Map pins at zoom \(z)", subtitle: subtitle, pins: mapPins)
        var mapOptions = MapOptions()
        mapOptions.frame = frame
        let svg = ClusterMap.render(map, options: mapOptions)
        try AtomicFile.write(svg, to: request.output)
        return PinsMapSummary(zoom: z, pins: pins.count, listings: leaves.longitudes.count, bytes: svg.utf8.count)
    }

    /// The frame at zoom `z`: `bbox`, or the pins' extent plus half the largest disc all round,
    /// taken in `window` (the listings' window), so pins on both sides of the antimeridian are
    /// framed together; such a frame has `minLongitude > maxLongitude`.
    static func frame(pins: [Pin], zoom z: Int, bbox: BoundingBox?, window: LongitudeWindow = .standard) -> MapFrame {
        if let bbox {
            return MapFrame.zoom(Double(z), minLongitude: bbox.minLongitude, minLatitude: bbox.minLatitude,
                                 maxLongitude: bbox.maxLongitude, maxLatitude: bbox.maxLatitude)
        }
        let west = pins.map { window.unwrap($0.bbox.minLongitude) }.min()!
        let east = pins.map { window.unwrap($0.bbox.maxLongitude) }.max()!
        let south = pins.map { $0.bbox.minLatitude }.min()!, north = pins.map { $0.bbox.maxLatitude }.max()!
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

/// What `PinsMap.draw` draws: the `geocluster map --zoom` options.
public struct PinsMapRequest {
    public var input: String
    public var source: PinSourceSettings
    /// The zoom (fractions floor).
    public var zoom: Double
    /// The part shown; nil: the pins' extent plus half the largest disc all round.
    public var bbox: BoundingBox?
    /// The pins' merge threshold in pixels.
    public var radius: Double
    /// The map's title (default: "Map pins at zoom Z").
    public var title: String?
    /// The SVG file (written whole or not at all).
    public var output: String

    public init(input: String, source: PinSourceSettings, zoom: Double, bbox: BoundingBox? = nil, radius: Double = PinOptions.defaultRadius,
                title: String? = nil, output: String) {
        self.input = input; self.source = source; self.zoom = zoom; self.bbox = bbox; self.radius = radius
        self.title = title; self.output = output
    }
}

/// What `PinsMap.draw` drew.
public struct PinsMapSummary: Sendable, Equatable {
    public var zoom: Int
    public var pins: Int
    public var listings: Int
    /// The SVG's size in bytes.
    public var bytes: Int

    /// What `geocluster map --zoom` prints.
    public func report(output: String) -> String {
        "\(pins) pins at zoom \(zoom) over \(listings) listings; map written to \(output) (\(bytes / 1024) KiB)"
    }
}

import Datasets
import Harness
import Pins
import Reports

/// What `map --zoom` draws: the `geocluster map --zoom` options.
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

/// What `PinsMapRequest.draw` drew.
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

extension PinsMapRequest {
    /// Builds the index, draws the zoom's pins and writes the SVG.
    /// - Throws: `DatasetError` (reading, writing), `PinError` (listings, options),
    ///   `ReportsError` (no pins to draw, or a map too large).
    public func draw() throws -> PinsMapSummary {
        let request = self
        try AtomicFile.checkDestination(request.output)
        var data = try request.source.read(request.input)
        let options = request.source.options(privacy: try request.source.policy(for: data.listings), radius: request.radius)
        let index = try PinIndex(listings: data.takeListings(), options: options)
        request.source.report(index.setAside, source: data, input: request.input)
        let z = Int(request.zoom.rounded(.down))
        let pins = try index.pins(zoom: Double(z), bbox: request.bbox)
        guard !pins.isEmpty else { throw ReportsError.noPins(zoom: z, inBox: request.bbox != nil) }
        let leaves = try index.leafPositions(of: pins)
        let frame = PinsMap.frame(extents: pins.map(\.bbox), zoom: z, bbox: request.bbox, window: LongitudeWindow(containing: leaves.longitudes))
        let size = frame.size
        guard size.width <= PinsMap.maxSide, size.height <= PinsMap.maxSide else {
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
}

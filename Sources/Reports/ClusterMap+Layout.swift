import ListingVocabulary

/// Where everything goes on the page, and the affine map from Web Mercator metres to pt.
struct MapLayout {
    static let margin = 16.0
    static let legendWidth = 210.0
    /// Room inside the map frame around the points, pt: half the largest pin and a little.
    static let inset = 30.0
    /// The smallest extent shown, ground metres, so one building does not fill the map.
    static let minimumSpan = 300.0

    let width: Double
    let height: Double
    let mapX: Double, mapY: Double, mapWidth: Double, mapHeight: Double
    let legendX: Double
    let subtitleLines: [String]
    /// pt per projected metre.
    let scale: Double
    /// The map's centre, projected metres (its easting in the window's longitudes).
    let centreX: Double, centreY: Double
    /// The longitudes the map is drawn in: every longitude goes through `window.unwrap`.
    let window: LongitudeWindow
    /// A map spanning more than this many degrees of latitude gets no scale bar.
    static let maxScaleBarLatitudeSpan = 60.0

    var margin: Double { Self.margin }
    var legendWidth: Double { Self.legendWidth }

    /// - Parameters:
    ///   - extent: the box to frame, Web Mercator metres (ignored with a `frame`).
    ///   - minimumHeight: what the legend needs below the heading, pt.
    ///   - frame: a fixed box and scale; nil fits `extent` to `width`.
    init(extent: (lo: (x: Double, y: Double), hi: (x: Double, y: Double)), subtitle: String, width: Double,
         minimumHeight: Double, frame: MapFrame? = nil, window: LongitudeWindow = .standard) {
        self.window = window
        // Each line of the subtitle wrapped to the page (its 12 pt text), so none runs off it.
        let page = frame.map { $0.size.width + 2 * Self.margin + Self.legendWidth + 16 } ?? width
        subtitleLines = subtitle.split(separator: "\n", omittingEmptySubsequences: true)
            .flatMap { ClusterMap.wrapped(String($0), width: page - 2 * Self.margin, size: 12) }
        mapX = Self.margin
        mapY = 42 + 17 * Double(subtitleLines.count)
        if let frame {
            let size = frame.size
            mapWidth = size.width
            self.width = mapWidth + 2 * Self.margin + Self.legendWidth + 16
            legendX = mapX + mapWidth + 16
            centreX = (WebMercator.easting(longitude: window.unwrap(frame.minLongitude))
                       + WebMercator.easting(longitude: window.unwrap(frame.maxLongitude))) / 2
            centreY = (WebMercator.northing(latitude: frame.minLatitude) + WebMercator.northing(latitude: frame.maxLatitude)) / 2
            scale = frame.pointsPerMetre
            mapHeight = max(size.height, minimumHeight)
            height = mapY + mapHeight + Self.margin
            return
        }
        self.width = width
        mapWidth = max(200, width - 2 * Self.margin - Self.legendWidth - 16)
        legendX = mapX + mapWidth + 16
        let (lo, hi) = extent
        centreX = (lo.x + hi.x) / 2
        centreY = (lo.y + hi.y) / 2
        let minimumProjected = Self.minimumSpan / WebMercator.groundScale(latitude: WebMercator.latitude(northing: centreY))
        let dx = max(hi.x - lo.x, minimumProjected), dy = max(hi.y - lo.y, minimumProjected)
        let innerWidth = mapWidth - 2 * Self.inset
        // The frame follows the data's shape between landscape 1 : 0.55 and portrait 1 : 1.2.
        let innerHeight = min(max(innerWidth * dy / dx, 0.55 * innerWidth), 1.2 * innerWidth)
        scale = min(innerWidth / dx, innerHeight / dy)
        mapHeight = max(innerHeight + 2 * Self.inset, minimumHeight)
        height = mapY + mapHeight + Self.margin
    }

    /// Ground metres per pt at the map's centre latitude: projected metres per pt times
    /// cos(latitude), Mercator's scale factor there.
    var groundMetresPerPoint: Double {
        WebMercator.groundScale(latitude: WebMercator.latitude(northing: centreY)) / scale
    }

    /// Ground metres per pt at `latitude` (degrees).
    func groundMetresPerPoint(latitude: Double) -> Double { WebMercator.groundScale(latitude: latitude) / scale }

    /// The latitudes (degrees, top of the map first) where scale bars are drawn when one bar
    /// would be off by more than 10 % somewhere on the map: three round latitudes (multiples
    /// of 5° when the map is that tall) from near its top edge to near its bottom edge; none
    /// where one bar, true at the centre, is right within 10 % everywhere, or where the map
    /// spans so much latitude that it gets no bar (``scaleVaries``).
    var scaleBarLatitudes: [Double] {
        guard !scaleVaries else { return [] }
        let half = mapHeight / 2 / scale
        let top = WebMercator.latitude(northing: centreY + half), bottom = WebMercator.latitude(northing: centreY - half)
        let nearest = bottom <= 0 && top >= 0 ? 0 : min(abs(top), abs(bottom)), farthest = max(abs(top), abs(bottom))
        let spread = WebMercator.groundScale(latitude: nearest) / WebMercator.groundScale(latitude: farthest)
        guard spread > 1.1 else { return [] }
        let step = top - bottom >= 15 ? 5.0 : 1.0
        let wanted = [top - (top - bottom) / 8, (top + bottom) / 2, bottom + (top - bottom) / 8]
        var out: [Double] = []
        for latitude in wanted.map({ ($0 / step).rounded() * step }) where !out.contains(latitude) { out.append(latitude) }
        return out
    }

    /// Whether the map spans more than `maxScaleBarLatitudeSpan` degrees of latitude, where
    /// one scale bar would be off by more than a factor of about 1.5 somewhere on it.
    var scaleVaries: Bool {
        let half = mapHeight / 2 / scale
        let top = WebMercator.latitude(northing: centreY + half), bottom = WebMercator.latitude(northing: centreY - half)
        return top - bottom > Self.maxScaleBarLatitudeSpan
    }

    /// Page position (pt) of a point in projected metres; y grows downwards.
    @inline(__always)
    func point(x: Double, y: Double) -> (x: Double, y: Double) {
        (mapX + mapWidth / 2 + (x - centreX) * scale, mapY + mapHeight / 2 - (y - centreY) * scale)
    }

    /// Page position (pt) of a point in degrees.
    func point(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
        point(x: WebMercator.easting(longitude: window.unwrap(longitude)), y: WebMercator.northing(latitude: latitude))
    }

    var mapRectangle: KeyValuePairs<String, String> {
        ["x": svgNumber(mapX), "y": svgNumber(mapY), "width": svgNumber(mapWidth), "height": svgNumber(mapHeight)]
    }
}

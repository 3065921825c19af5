import Geo
import Harness
import ListingVocabulary
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a cluster map shows: the points with their labels, optional cluster outlines, and
/// the caller's title lines (the dataset, method, parameters and scores, formatted by the
/// caller).
public struct MapData: Sendable {
    /// Degrees (WGS 84), one per point.
    public var longitudes: [Double]
    /// Degrees (WGS 84), one per point.
    public var latitudes: [Double]
    /// One per point; -1 (any negative label) is noise.
    public var labels: [Int32]
    /// Outlines by cluster label, each a list of rings in longitude/latitude (x = longitude,
    /// y = latitude, degrees): a ring whose last vertex equals its first is drawn closed and
    /// filled, any other as a line. `ClusterHull.rings()` gives them.
    public var outlines: [Int32: [Coordinates]]
    /// The first line of the heading.
    public var title: String
    /// Smaller lines under the title; a line break starts a new line.
    public var subtitle: String
    /// Pins to draw as given (map pins of one zoom, `geocluster map --zoom`), each coloured
    /// as its `label`'s points; nil: one pin per cluster at the mean of its points, sized over
    /// the clusters' counts.
    public var pins: [MapPin]?

    public init(longitudes: [Double], latitudes: [Double], labels: [Int32],
                outlines: [Int32: [Coordinates]] = [:], title: String, subtitle: String = "", pins: [MapPin]? = nil) {
        self.longitudes = longitudes; self.latitudes = latitudes; self.labels = labels
        self.outlines = outlines; self.title = title; self.subtitle = subtitle; self.pins = pins
    }
}

/// A pin drawn as given: its position (degrees), the count written in it, its diameter (pt)
/// and the label whose colour it takes.
public struct MapPin: Sendable, Equatable {
    public var longitude: Double
    public var latitude: Double
    public var count: Int
    public var diameter: Double
    public var label: Int32

    public init(longitude: Double, latitude: Double, count: Int, diameter: Double, label: Int32) {
        self.longitude = longitude; self.latitude = latitude; self.count = count
        self.diameter = diameter; self.label = label
    }
}

/// A fixed map frame: the box shown (degrees) at a fixed scale, e.g. a viewport at a zoom
/// level (`pointsPerMetre` = 256 · 2^z / 40,075,016.69 for 256-pt tiles), so that pins drawn
/// at their sizes look as on a phone at that zoom.
public struct MapFrame: Sendable, Equatable {
    public var minLongitude: Double
    public var minLatitude: Double
    public var maxLongitude: Double
    public var maxLatitude: Double
    /// pt per Web Mercator metre.
    public var pointsPerMetre: Double

    public init(minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double, pointsPerMetre: Double) {
        self.minLongitude = minLongitude; self.minLatitude = minLatitude
        self.maxLongitude = maxLongitude; self.maxLatitude = maxLatitude
        self.pointsPerMetre = pointsPerMetre
    }

    /// The frame of a viewport at zoom `zoom` on `tileSize`-pt tiles.
    public static func zoom(_ zoom: Double, tileSize: Double = 256, minLongitude: Double, minLatitude: Double,
                            maxLongitude: Double, maxLatitude: Double) -> MapFrame {
        MapFrame(minLongitude: minLongitude, minLatitude: minLatitude, maxLongitude: maxLongitude, maxLatitude: maxLatitude,
                 pointsPerMetre: tileSize * pow(2, zoom) / (2 * .pi * WebMercator.radius))
    }

    /// The window of longitudes the frame is drawn in: the usual one, or for a frame across
    /// the antimeridian (`minLongitude > maxLongitude`) the one centred on the frame.
    public var window: LongitudeWindow { BoundingBox.window(minLongitude: minLongitude, maxLongitude: maxLongitude) }

    /// The frame's width and height in pt.
    public var size: (width: Double, height: Double) {
        ((WebMercator.easting(longitude: window.unwrap(maxLongitude)) - WebMercator.easting(longitude: minLongitude)) * pointsPerMetre,
         (WebMercator.northing(latitude: maxLatitude) - WebMercator.northing(latitude: minLatitude)) * pointsPerMetre)
    }
}

/// How a cluster map is drawn. Lengths are in points (pt): the SVG's user unit is 1 pt.
public struct MapOptions: Sendable {
    /// The point budget: up to this many points each point is drawn as a dot; above it the
    /// map shows a density raster instead (see ``rasterCell``), so that the file stays small
    /// for any input and renders quickly (sizes: docs/performance.md).
    public static let defaultPointBudget = 50_000

    /// Pins and outlines are drawn for at most this many clusters, the largest: the cap keeps
    /// the file small whatever the cluster count (a pin is about 250 bytes; an outline about 14
    /// bytes a vertex, at most one vertex per 0.1 pt of its perimeter). Every cluster keeps its
    /// colour on the points; pins that would cover a larger one's are left out anyway
    /// (`PinPlacement`).
    public static let defaultMaxPins = 2_000

    /// Width of the whole picture, pt (the map takes what the legend leaves).
    public var width: Double = 1000
    /// See ``defaultPointBudget``.
    public var pointBudget: Int = MapOptions.defaultPointBudget
    /// Side of a density raster cell, pt. Each cell takes the colour of the cluster with the
    /// most points in it (noise grey only where there is no cluster point) and an opacity
    /// that grows with the log of its point count.
    public var rasterCell: Double = 3
    /// How many of the largest clusters the legend lists by name.
    public var legendEntries: Int = 12
    /// Pins for at most this many of the largest clusters (0: no pins). See ``defaultMaxPins``.
    public var maxPins: Int = MapOptions.defaultMaxPins
    /// Outlines for at most this many of the largest clusters. See ``defaultMaxPins``.
    public var maxOutlines: Int = MapOptions.defaultMaxPins
    /// The part shown (degrees); points outside it are left out. Nil: the points' extent
    /// without lone outliers (the rule: `MapExtent`). Ignored with a ``frame``.
    public var bbox: BoundingBox?
    /// Colours by label; nil: ``ClusterPalette/colours(labels:longitudes:latitudes:)``.
    /// Give the same map to the map and the tree plot of one run.
    public var colours: [Int32: String]?
    /// A fixed frame and scale (nil: the points' extent, fitted to `width`).
    public var frame: MapFrame?
    /// The longitude at the middle of the map's window, degrees (nil: ``MapPoints``' rule).
    /// Ignored with a ``frame`` or a ``bbox``, which bring their own.
    public var centreLongitude: Double?

    public init(width: Double = 1000, pointBudget: Int = MapOptions.defaultPointBudget, rasterCell: Double = 3,
                legendEntries: Int = 12, maxPins: Int = MapOptions.defaultMaxPins, maxOutlines: Int = MapOptions.defaultMaxPins,
                bbox: BoundingBox? = nil, colours: [Int32: String]? = nil, centreLongitude: Double? = nil) {
        self.width = width; self.pointBudget = pointBudget; self.rasterCell = rasterCell
        self.legendEntries = legendEntries; self.maxPins = maxPins; self.maxOutlines = maxOutlines
        self.bbox = bbox; self.colours = colours; self.centreLongitude = centreLongitude
    }
}

/// An SVG map of one clustering: points in Web Mercator coloured by cluster (noise light
/// grey), cluster outlines, a pin per cluster at the mean position of its points with the
/// point count inside (largest first, none covering another: `PinPlacement`), a scale bar true
/// at the map's centre latitude, a legend and a title. The map frames the points without lone
/// outliers, or a given box (`MapExtent`); the legend counts the points left out.
///
/// Pure: a value in, the SVG text out, no files and no clock. Every text from the input goes
/// through `XMLWriter`, so any title gives well-formed XML. Fonts are named as a list ending
/// in `sans-serif`, so browsers and `rsvg-convert` pick the same family where DejaVu Sans or
/// Helvetica exists.
public enum ClusterMap {
    /// The smallest and largest pin diameter, pt.
    public static let pinDiameterRange: ClosedRange<Double> = 25...50

    /// The diameter of a cluster's pin, pt: 25 + 25 · √((count − min) / (max − min)) over the
    /// clusters on the map, so that pin area grows about linearly with the point count; 25
    /// for every pin when all clusters have the same size.
    /// - Parameters:
    ///   - count: points in this cluster.
    ///   - minCount: points in the smallest cluster on the map.
    ///   - maxCount: points in the largest cluster on the map.
    /// - Complexity: O(1).
    public static func pinDiameter(count: Int, minCount: Int, maxCount: Int) -> Double {
        let lo = pinDiameterRange.lowerBound, span = pinDiameterRange.upperBound - lo
        guard maxCount > minCount else { return lo }
        let t = Double(min(max(count, minCount), maxCount) - minCount) / Double(maxCount - minCount)
        return lo + span * t.squareRoot()
    }

    /// The longest round length (1, 2 or 5 × 10^k metres) that fits in `maxLength` pt.
    /// - Parameter metresPerPoint: ground metres per pt at the map's centre latitude.
    /// - Returns: the length in metres: 1, 2 or 5 times a power of ten (below 1 m only when
    ///   `maxLength` pt span less than a metre on the ground).
    /// - Complexity: O(1).
    public static func scaleBarMetres(metresPerPoint: Double, maxLength: Double) -> Double {
        precondition(metresPerPoint > 0 && maxLength > 0, "scale and length must be positive")
        let limit = metresPerPoint * maxLength
        let decade = pow(10, (log10(limit)).rounded(.down))
        for step in [5.0, 2.0, 1.0] where step * decade <= limit { return step * decade }
        return decade
    }

    /// The SVG document (UTF-8 text, starting with the XML declaration).
    /// - Complexity: O(n log n + size of the outlines) for n points; above the point budget
    ///   the output size no longer grows with n.
    /// - Parameter shown: the points as placed for these `options` (``MapPoints``), when the
    ///   caller made them already to choose the outlines worth computing.
    public static func render(_ data: MapData, options: MapOptions = MapOptions(), shown: MapPoints? = nil) -> String {
        precondition(data.labels.count == data.longitudes.count && data.labels.count == data.latitudes.count,
                     "one longitude and latitude per label")
        let shown = shown ?? MapPoints(longitudes: data.longitudes, latitudes: data.latitudes, labels: data.labels, options: options)
        // Neighbours as the map shows them: in its window, its metres.
        let colours = options.colours ?? ClusterPalette.colours(labels: data.labels, x: shown.x, y: shown.y)
        let (window, extent, clusters) = (shown.window, shown.extent, shown.clusters)
        let (x, y, labels) = (extent.shown(shown.x), extent.shown(shown.y), extent.shown(data.labels))
        // The legend's rows (see `legend`): heading (two lines for long counts), entries, "more",
        // noise, the pin note, what was left out, how the points were drawn, projection (a
        // second line when the scale varies).
        let legendRows = Double(min(max(0, options.legendEntries), clusters.labels.count))
        let legendHeight = 22 + 18 * (legendRows + 3) + 8 + 5 * 14 + 18 + 2 * 14 + 45 + 17 + 20
        var layout = MapLayout(extent: (extent.lo, extent.hi), subtitle: data.subtitle, width: options.width,
                               minimumHeight: legendHeight, frame: options.frame, window: window)
        if layout.scaleVaries {
            // A taller map spans more latitude: the scale still varies.
            layout = MapLayout(extent: (extent.lo, extent.hi), subtitle: data.subtitle, width: options.width,
                               minimumHeight: legendHeight + 14, frame: options.frame, window: window)
        }
        var w = XMLWriter()
        open(&w, data, layout)
        w.open("g", ["clip-path": "url(#map-area)"])
        land(&w, layout)
        antimeridian(&w, layout)
        let drawn = PointLayer.draw(&w, x: x, y: y, labels: labels, layout: layout, colours: colours, options: options)
        outlines(&w, data.outlines, shown.outlined(options), layout, colours)
        let note: PinNote, drawnPins: [MapPin]
        if let given = data.pins {
            // Largest first, so a small pin is drawn over a large neighbour's.
            drawnPins = given.indices.sorted { (given[$0].count, $1) > (given[$1].count, $0) }.map { given[$0] }
            note = .given(given.count)
        } else {
            (drawnPins, note) = clusterPins(clusters, maxPins: options.maxPins, layout: layout)
        }
        pins(&w, drawnPins, layout, colours)
        w.close()
        if !layout.scaleVaries { scaleBar(&w, layout, corner: scaleBarCorner(layout, pins: drawnPins)) }
        legend(&w, clusters, colours, layout, options, drawn, pins: note, extent: extent)
        w.close()
        return w.finish()
    }

    /// What the legend says about the pins.
    enum PinNote {
        /// Pins given by the caller (map pins of one zoom).
        case given(Int)
        /// Cluster pins: how many were drawn, of how many candidates (the largest clusters up to
        /// the cap) and clusters, and the counts at 25 and 50 pt.
        case clusters(drawn: Int, candidates: Int, clusters: Int, smallest: Int, largest: Int)
        case none
    }

    /// One pin per cluster, the largest up to `maxPins`, sized over their counts, without
    /// the pins that would cover a larger one's.
    private static func clusterPins(_ clusters: ClusterSummary, maxPins: Int, layout: MapLayout) -> (pins: [MapPin], note: PinNote) {
        let candidates = Array(clusters.bySize.prefix(max(0, maxPins)))
        guard let first = candidates.first, let last = candidates.last else { return ([], .none) }
        let (smallest, largest) = (clusters.counts[last], clusters.counts[first])
        let all = candidates.map { c in
            MapPin(longitude: clusters.meanLongitude[c], latitude: clusters.meanLatitude[c], count: clusters.counts[c],
                   diameter: pinDiameter(count: clusters.counts[c], minCount: smallest, maxCount: largest),
                   label: clusters.labels[c])
        }
        let kept = PinPlacement.nonOverlapping(all) { layout.point(longitude: $0.longitude, latitude: $0.latitude) }
        return (kept.map { all[$0] }, .clusters(drawn: kept.count, candidates: candidates.count,
                                                clusters: clusters.labels.count, smallest: smallest, largest: largest))
    }

    /// The document's start: the root element, title, background, heading, the map area and
    /// its clip path.
    private static func open(_ w: inout XMLWriter, _ data: MapData, _ layout: MapLayout) {
        w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        w.open("svg", [
            "xmlns": "http://www.w3.org/2000/svg",
            "width": svgNumber(layout.width) + "pt", "height": svgNumber(layout.height) + "pt",
            "viewBox": "0 0 \(svgNumber(layout.width)) \(svgNumber(layout.height))",
            "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif",
        ])
        w.element("title", text: data.title)
        w.empty("rect", ["width": "100%", "height": "100%", "fill": "#ffffff"])
        heading(&w, data, layout)
        w.open("defs")
        w.open("clipPath", ["id": "map-area"])
        w.empty("rect", layout.mapRectangle)
        w.close()
        w.close()
        w.empty("rect", ["x": svgNumber(layout.mapX), "y": svgNumber(layout.mapY), "width": svgNumber(layout.mapWidth),
                         "height": svgNumber(layout.mapHeight), "fill": "#f7f7f5", "stroke": "#d0d0d0"])
    }

    private static func heading(_ w: inout XMLWriter, _ data: MapData, _ layout: MapLayout) {
        w.element("text", ["x": svgNumber(layout.margin), "y": "30", "font-size": "19", "font-weight": "bold",
                           "fill": "#1a1a1a"], text: data.title)
        for (i, line) in layout.subtitleLines.enumerated() {
            w.element("text", ["x": svgNumber(layout.margin), "y": svgNumber(50 + 17 * Double(i)), "font-size": "12",
                               "fill": "#555555"], text: line)
        }
    }

    private static func outlines(_ w: inout XMLWriter, _ outlines: [Int32: [Coordinates]], _ shown: Set<Int32>,
                                 _ layout: MapLayout, _ colours: [Int32: String]) {
        for (label, rings) in outlines.sorted(by: { $0.key < $1.key }) where shown.contains(label) {
            var d = "", closed = false
            for ring in rings where ring.count >= 2 {
                var last = ""
                // Unwrapped into the window: each vertex within 180° of the one before it, so
                // no edge runs the long way round the world.
                var lon = layout.window.unwrap(ring.x[0])
                for i in 0..<ring.count {
                    if i > 0 { lon += LongitudeWindow.east(from: ring.x[i - 1], to: ring.x[i]) }
                    let (x, y) = layout.point(x: WebMercator.easting(longitude: lon), y: WebMercator.northing(latitude: ring.y[i]))
                    let vertex = svgNumber(x, decimals: 1) + " " + svgNumber(y, decimals: 1)
                    // Vertices that land on the same 0.1 pt as the previous one add nothing.
                    if vertex == last { continue }
                    d += (i == 0 ? "M" : "L") + vertex
                    last = vertex
                }
                if ring.x[0] == ring.x[ring.count - 1] && ring.y[0] == ring.y[ring.count - 1] { d += "Z"; closed = true }
            }
            guard !d.isEmpty else { continue }
            let colour = colours[label] ?? ClusterPalette.noise
            w.empty("path", ["d": d, "fill": closed ? colour : "none", "fill-opacity": "0.1", "fill-rule": "evenodd",
                             "stroke": colour, "stroke-width": "1.6", "stroke-linejoin": "round"])
        }
    }

    /// - Parameter pins: in drawing order (the last on top).
    private static func pins(_ w: inout XMLWriter, _ pins: [MapPin], _ layout: MapLayout, _ colours: [Int32: String]) {
        guard !pins.isEmpty else { return }
        w.open("g", ["text-anchor": "middle", "font-weight": "bold"])
        for pin in pins {
            let d = pin.diameter
            let (x, y) = layout.point(longitude: pin.longitude, latitude: pin.latitude)
            let colour = colours[pin.label] ?? ClusterPalette.noise
            let text = compactCount(pin.count)
            // Bold digits are about 0.7 em wide (DejaVu Sans Bold; Helvetica's are narrower):
            // the text fills at most 75% of the pin, and is never above 40% of its diameter.
            let size = min(d * 0.4, d * 0.75 / (0.7 * Double(text.count)))
            w.empty("circle", ["cx": svgNumber(x, decimals: 1), "cy": svgNumber(y, decimals: 1),
                               "r": svgNumber(d / 2, decimals: 1), "fill": colour,
                               "stroke": "#ffffff", "stroke-width": "2"])
            // The baseline sits 0.36 em below the centre, which centres digits vertically
            // without `dominant-baseline` (which rsvg and browsers treat differently).
            w.element("text", ["x": svgNumber(x, decimals: 1), "y": svgNumber(y + 0.36 * size, decimals: 1),
                               "font-size": svgNumber(size, decimals: 1), "fill": textColour(on: colour)], text: text)
        }
        w.close()
    }

    /// A corner of the map frame.
    enum Corner: CaseIterable { case bottomLeft, bottomRight, topLeft, topRight }

    /// The scale bars' length (metres), each bar's latitude and length (pt), and their white box
    /// in `corner` of the map: one bar, true at the map's centre, where the scale varies by at
    /// most 10 % over the map; else one bar per latitude of ``MapLayout/scaleBarLatitudes``,
    /// each true there and labelled with it.
    static func scaleBarGeometry(_ layout: MapLayout, corner: Corner) -> (metres: Double, bars: [(latitude: Double?, length: Double)], box: PageBox) {
        let latitudes = layout.scaleBarLatitudes
        let perPoint = latitudes.map { layout.groundMetresPerPoint(latitude: $0) }
        let metres = scaleBarMetres(metresPerPoint: perPoint.min() ?? layout.groundMetresPerPoint, maxLength: 130)
        let bars: [(latitude: Double?, length: Double)] = latitudes.isEmpty
            ? [(nil, metres / layout.groundMetresPerPoint)]
            : zip(latitudes, perPoint).map { ($0, metres / $1) }
        let width = max(bars.map(\.length).max() ?? 0, latitudes.isEmpty ? 0 : 96) + 16
        let height = 32 + 24 * Double(bars.count - 1)
        let left = corner == .bottomLeft || corner == .topLeft, bottom = corner == .bottomLeft || corner == .bottomRight
        let x = left ? layout.mapX + 6 : layout.mapX + layout.mapWidth - 6 - width
        let y = bottom ? layout.mapY + layout.mapHeight - 6 - height : layout.mapY + 6
        return (metres, bars, PageBox(x: x, y: y, width: width, height: height))
    }

    /// The corner whose scale bar covers the fewest pins (bottom left on a tie).
    static func scaleBarCorner(_ layout: MapLayout, pins: [MapPin]) -> Corner {
        let centres = pins.map { (layout.point(longitude: $0.longitude, latitude: $0.latitude), $0.diameter) }
        return Corner.allCases.min { a, b in
            let boxes = (scaleBarGeometry(layout, corner: a).box, scaleBarGeometry(layout, corner: b).box)
            let covered = { (box: PageBox) in centres.filter { box.overlaps(cx: $0.0.x, cy: $0.0.y, diameter: $0.1) }.count }
            return covered(boxes.0) < covered(boxes.1)
        } ?? .bottomLeft
    }

    /// The land under the points, on a map wide enough for it (``LandLayer``): sea blue, land
    /// the usual paper colour.
    private static func land(_ w: inout XMLWriter, _ layout: MapLayout) {
        guard LandLayer.shows(in: layout) else { return }
        w.empty("rect", ["x": svgNumber(layout.mapX), "y": svgNumber(layout.mapY), "width": svgNumber(layout.mapWidth),
                         "height": svgNumber(layout.mapHeight), "fill": "#dde8f0"])
        w.empty("path", ["d": LandLayer.path(layout), "fill": "#f4f2ec", "fill-rule": "evenodd", "stroke": "#b9b4a8",
                         "stroke-width": "0.5", "class": "land"])
    }

    /// A map whose window opens away from ±180° shows where the line runs: a dashed meridian
    /// labelled 180°, under everything else.
    private static func antimeridian(_ w: inout XMLWriter, _ layout: MapLayout) {
        guard layout.window != .standard else { return }
        let x = layout.point(longitude: 180, latitude: 0).x
        guard x > layout.mapX && x < layout.mapX + layout.mapWidth else { return }
        let top = layout.mapY, bottom = layout.mapY + layout.mapHeight
        w.empty("path", ["d": "M\(svgNumber(x)) \(svgNumber(top))V\(svgNumber(bottom))", "fill": "none",
                         "stroke": "#9a9a9a", "stroke-width": "1", "stroke-dasharray": "6 4", "class": "antimeridian"])
        w.element("text", ["x": svgNumber(x + 4), "y": svgNumber(top + 14), "font-size": "11", "fill": "#777777"], text: "180°")
    }

    private static func scaleBar(_ w: inout XMLWriter, _ layout: MapLayout, corner: Corner) {
        let (metres, bars, box) = scaleBarGeometry(layout, corner: corner)
        w.empty("rect", ["x": svgNumber(box.x), "y": svgNumber(box.y), "width": svgNumber(box.width), "height": svgNumber(box.height),
                         "rx": "3", "fill": "#ffffff", "fill-opacity": "0.85"])
        for (k, bar) in bars.enumerated() {
            let x = box.x + 8, y = box.y + 22 + 24 * Double(k)
            w.empty("path", ["d": "M\(svgNumber(x)) \(svgNumber(y - 5))V\(svgNumber(y))H\(svgNumber(x + bar.length))V\(svgNumber(y - 5))",
                             "fill": "none", "stroke": "#222222", "stroke-width": "1.5"])
            if let latitude = bar.latitude {
                w.element("text", ["x": svgNumber(x), "y": svgNumber(y - 8), "font-size": "11", "fill": "#222222", "class": "scale-bar"],
                          text: "\(distance(metres)) at \(latitudeText(latitude))")
            } else {
                w.element("text", ["x": svgNumber(x + bar.length / 2), "y": svgNumber(y - 8), "font-size": "11",
                                   "text-anchor": "middle", "fill": "#222222", "class": "scale-bar"], text: distance(metres))
            }
        }
    }

    /// `40°N`, `0°`, `35°S`.
    static func latitudeText(_ latitude: Double) -> String {
        let whole = Int(abs(latitude).rounded())
        return whole == 0 ? "0°" : "\(whole)°\(latitude > 0 ? "N" : "S")"
    }

    private static func legend(_ w: inout XMLWriter, _ clusters: ClusterSummary, _ colours: [Int32: String],
                               _ layout: MapLayout, _ options: MapOptions, _ drawn: PointLayer.Drawn, pins: PinNote,
                               extent: MapExtent) {
        let x = layout.legendX
        var y = layout.mapY + 14
        func line(_ text: String, size: Double = 11, colour: String = "#333333", bold: Bool = false, step: Double = 17) {
            w.element("text", ["x": svgNumber(x), "y": svgNumber(y), "font-size": svgNumber(size), "fill": colour,
                               "font-weight": bold ? "bold" : "normal"], text: text)
            y += step
        }
        func note(_ lines: [String]) {
            for (i, text) in lines.enumerated() { line(text, colour: "#666666", step: i == lines.count - 1 ? 18 : 14) }
        }
        func entry(_ colour: String, _ name: String, _ count: Int) {
            w.empty("circle", ["cx": svgNumber(x + 6), "cy": svgNumber(y - 4), "r": "6", "fill": colour])
            w.element("text", ["x": svgNumber(x + 18), "y": svgNumber(y), "font-size": "11", "fill": "#333333"], text: name)
            w.element("text", ["x": svgNumber(x + layout.legendWidth - 12), "y": svgNumber(y), "font-size": "11",
                               "fill": "#333333", "text-anchor": "end"], text: grouped(count))
            y += 18
        }
        let n = clusters.counts.reduce(0, +) + clusters.noise
        // Given pins (map pins of one zoom) are groups of listings, not clusters.
        let given: Bool
        if case .given = pins { given = true } else { given = false }
        let (group, points) = given ? ("pin", "listings") : ("cluster", "points")
        let heading = ["\(grouped(clusters.labels.count)) \(group)s", "\(grouped(n)) \(points)"]
        if fits(heading.joined(separator: " · "), in: layout.legendWidth - 8, size: 12, bold: true) {
            line(heading.joined(separator: " · "), size: 12, bold: true, step: 22)
        } else {
            line(heading[0], size: 12, bold: true, step: 16)
            line(heading[1], size: 12, bold: true, step: 22)
        }
        for c in clusters.bySize.prefix(max(0, options.legendEntries)) {
            entry(colours[clusters.labels[c]] ?? ClusterPalette.noise, "\(group) \(clusters.labels[c])", clusters.counts[c])
        }
        let rest = clusters.bySize.dropFirst(max(0, options.legendEntries))
        if !rest.isEmpty {
            let more = ["+ \(grouped(rest.count)) more,", "\(grouped(rest.reduce(0) { $0 + clusters.counts[$1] })) \(points)"]
            let one = more.joined(separator: " ")
            note(fits(one, in: layout.legendWidth - 4, size: 11, bold: false) ? [one] : more)
        }
        if !given { entry(ClusterPalette.noise, "noise", clusters.noise) }
        y += 8
        let width = layout.legendWidth - 8
        note(pinText(pins).flatMap { wrapped($0, width: width) })
        if extent.leftOut > 0 {
            let what = extent.reason == .outsideBox ? "outside the box shown" : "lone outliers far from the rest"
            note(wrapped("\(grouped(extent.leftOut)) of \(grouped(extent.total)) points left out: \(what).", width: width))
        }
        switch drawn {
        case .dots:
            line("Every point drawn", colour: "#666666")
        case let .raster(cell):
            note(["Density: \(svgNumber(cell)) pt cells, colour of the", "largest cluster in each (over the",
                  "\(grouped(options.pointBudget))-point budget)"])
        }
        if layout.scaleVaries {
            note(["Web Mercator: the scale varies with", "latitude, so no scale bar"])
        } else if !layout.scaleBarLatitudes.isEmpty {
            note(["Web Mercator: the scale varies with", "latitude; each bar is true at its own"])
        } else {
            line("Web Mercator", colour: "#666666")
        }
        line(LandLayer.shows(in: layout) ? "Land: Natural Earth 1:110m" : "No basemap: 1:110m too coarse here", colour: "#666666")
    }

    /// The legend's text on the pins, to be wrapped.
    static func pinText(_ pins: PinNote) -> [String] {
        switch pins {
        case let .given(count):
            return ["\(grouped(count)) pins drawn at their size (25–50 pt by count, as on a phone)"]
        case .none:
            return ["No pins"]
        case let .clusters(drawn, candidates, clusters, smallest, largest):
            var text = drawn == clusters ? "Pin for each cluster: its points."
                : "Pins: \(grouped(drawn)) of \(grouped(clusters)) clusters, largest first"
            if candidates < clusters { text += " (the \(grouped(candidates)) largest at most)" }
            if drawn < candidates { text += "; a pin that would cover one drawn is left out (its points keep their colour)" }
            return [text + ".", "25 pt = \(grouped(smallest)), 50 pt = \(grouped(largest)) points"]
        }
    }

    /// `text` in lines of at most `width` pt at 11 pt, broken at spaces.
    static func wrapped(_ text: String, width: Double, size: Double = 11) -> [String] {
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if current.isEmpty || fits(candidate, in: width, size: size, bold: false) {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        return current.isEmpty ? lines : lines + [current]
    }

    /// Whether `text` fits `width` pt at `size` (DejaVu Sans: about 0.62 em a character, 0.7
    /// in bold; Helvetica's are narrower).
    static func fits(_ text: String, in width: Double, size: Double, bold: Bool) -> Bool {
        Double(text.count) * size * (bold ? 0.7 : 0.62) <= width
    }

    /// `1,234,567`.
    static func grouped(_ n: Int) -> String { FormatNumber.grouped(n) }

    /// A count that fits in a pin: `987`, `9876`, `98.8k`, `988k`, `1.2M`.
    static func compactCount(_ n: Int) -> String {
        func scaled(_ v: Double, _ unit: String) -> String {
            v < 100 ? svgNumber(v, decimals: 1) + unit : String(Int(v.rounded())) + unit
        }
        if n < 10_000 { return String(n) }
        if n < 999_500 { return scaled(Double(n) / 1000, "k") }
        return scaled(Double(n) / 1_000_000, "M")
    }

    /// `500 m`, `2 km`, `0.5 m`.
    static func distance(_ metres: Double) -> String {
        metres >= 1000 ? svgNumber(metres / 1000, decimals: 3) + " km" : svgNumber(metres, decimals: 3) + " m"
    }

    /// The text colour on the fill `hex` (`#rrggbb`): near-black on light fills (relative
    /// luminance above 0.3: yellow, orange, pink, teal), white on the rest, where both would
    /// be legible but white reads as the usual map-pin style.
    static func textColour(on hex: String) -> String {
        let v = Array(hex.utf8)
        guard v.count == 7 else { return "#ffffff" }
        func channel(_ i: Int) -> Double {
            let c = Double(Int(String(decoding: v[i..<i + 2], as: UTF8.self), radix: 16) ?? 0) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
        return luminance > 0.3 ? "#1a1a1a" : "#ffffff"
    }
}

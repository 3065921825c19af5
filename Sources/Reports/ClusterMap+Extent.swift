import ClusterCore
import ListingVocabulary

/// The part of the plane a cluster map frames, and the points it leaves out.
///
/// With a box (`MapOptions.bbox`) the map shows the box and leaves out the points outside it.
/// Otherwise it frames the points without their lone outliers: the core box spans the 1st to
/// the 99th percentile of the points' Web Mercator x and of their y; a point farther outside
/// the core box than half its larger side (at least `MapLayout.minimumSpan` on the ground) is
/// left out, and the map frames the rest. Data without such outliers (a city's listings, a
/// country's airports) is framed whole; an island 7,000 km from the rest is not allowed to
/// shrink the rest to a corner. With fewer than about 100 points every point is its own
/// percentile, so nothing is left out (`--bbox` frames such a file). The legend counts what was
/// left out.
struct MapExtent {
    /// Why points were left out.
    enum Reason: Equatable { case outliers, outsideBox }

    /// The box framed, Web Mercator metres.
    var lo: (x: Double, y: Double)
    var hi: (x: Double, y: Double)
    /// The indices of the points shown, ascending; nil when every point is shown.
    var kept: [Int]?
    var leftOut: Int { total - (kept?.count ?? total) }
    var total: Int
    var reason: Reason

    /// Every one of `count` points, framed by a fixed `MapFrame` (the box is not used).
    static func whole(count: Int) -> MapExtent {
        MapExtent(lo: (0, 0), hi: (0, 0), kept: nil, total: count, reason: .outliers)
    }

    /// The points' extent without lone outliers (see the type's documentation).
    /// - Complexity: O(n log n) for the percentiles.
    static func withoutOutliers(x: [Double], y: [Double]) -> MapExtent {
        let n = x.count
        guard n > 0 else { return MapExtent(lo: (0, 0), hi: (0, 0), kept: nil, total: 0, reason: .outliers) }
        let (a, b) = (Int((0.01 * Double(n - 1)).rounded(.down)), Int((0.99 * Double(n - 1)).rounded(.up)))
        // The smallest, the 1st and 99th percentiles and the largest: [0, a, b, n - 1].
        let (qx, qy) = (RankSelection.ranked(x, [0, a, b, n - 1]), RankSelection.ranked(y, [0, a, b, n - 1]))
        let centreLatitude = WebMercator.latitude(northing: (qy[1] + qy[2]) / 2)
        let minimum = MapLayout.minimumSpan / WebMercator.groundScale(latitude: centreLatitude)
        let margin = max(qx[2] - qx[1], qy[2] - qy[1], minimum) / 2
        let (loX, hiX, loY, hiY) = (qx[1] - margin, qx[2] + margin, qy[1] - margin, qy[2] + margin)
        if qx[0] >= loX && qx[3] <= hiX && qy[0] >= loY && qy[3] <= hiY {
            return MapExtent(lo: (qx[0], qy[0]), hi: (qx[3], qy[3]), kept: nil, total: n, reason: .outliers)
        }
        return keeping(x: x, y: y, reason: .outliers) { x, y in x >= loX && x <= hiX && y >= loY && y <= hiY }
    }

    /// The box `box` (degrees; across the antimeridian when `minLongitude > maxLongitude`),
    /// the points outside it left out; `x` are eastings in `window` (the box's `window`).
    static func box(_ box: BoundingBox, window: LongitudeWindow, x: [Double], y: [Double]) -> MapExtent {
        let (loX, hiX) = (WebMercator.easting(longitude: window.unwrap(box.minLongitude)),
                          WebMercator.easting(longitude: window.unwrap(box.maxLongitude)))
        let (loY, hiY) = (WebMercator.northing(latitude: box.minLatitude), WebMercator.northing(latitude: box.maxLatitude))
        var extent = keeping(x: x, y: y, reason: .outsideBox) { x, y in x >= loX && x <= hiX && y >= loY && y <= hiY }
        (extent.lo, extent.hi) = ((loX, loY), (hiX, hiY))
        return extent
    }

    /// The points `inside` keeps, framed by their own extent.
    private static func keeping(x: [Double], y: [Double], reason: Reason,
                                _ inside: (Double, Double) -> Bool) -> MapExtent {
        var kept: [Int] = []
        var lo = (x: Double.infinity, y: Double.infinity), hi = (x: -Double.infinity, y: -Double.infinity)
        for i in x.indices where inside(x[i], y[i]) {
            kept.append(i)
            lo = (min(lo.x, x[i]), min(lo.y, y[i]))
            hi = (max(hi.x, x[i]), max(hi.y, y[i]))
        }
        if kept.isEmpty { (lo, hi) = ((0, 0), (0, 0)) }
        return MapExtent(lo: lo, hi: hi, kept: kept.count == x.count ? nil : kept, total: x.count, reason: reason)
    }

    /// `values` at the kept indices (all of them when nothing was left out).
    func shown<T>(_ values: [T]) -> [T] {
        kept.map { $0.map { values[$0] } } ?? values
    }
}

extension BoundingBox {
    /// The window a map of this box is drawn in: the usual one, or for a box across the
    /// antimeridian the one centred on the box (its seam opposite the box's centre).
    var window: LongitudeWindow { Self.window(minLongitude: minLongitude, maxLongitude: maxLongitude) }

    static func window(minLongitude: Double, maxLongitude: Double) -> LongitudeWindow {
        minLongitude <= maxLongitude ? .standard : LongitudeWindow(west: (minLongitude + maxLongitude) / 2)
    }
}

/// Pins that do not cover one another: the rule a reader can check in the legend.
enum PinPlacement {
    /// Room between two pins' edges, pt.
    static let gap = 2.0

    /// The indices of `pins` drawn: in order (largest first), a pin is drawn unless its disc
    /// comes within `gap` of a pin already drawn; a pin left out keeps its points' colour and
    /// outline, and its count is in the legend's total. Deterministic: depends only on the
    /// order and the positions.
    /// - Parameter position: a pin's page position, pt.
    /// - Complexity: O(k) for k pins (a hash grid of cells as wide as the largest pin).
    static func nonOverlapping(_ pins: [MapPin], position: (MapPin) -> (x: Double, y: Double)) -> [Int] {
        let cell = (pins.map(\.diameter).max() ?? 1) + gap
        var grid: [Int64: [Int]] = [:]
        var drawn: [Int] = []
        var at: [(x: Double, y: Double)] = []
        func key(_ cx: Int, _ cy: Int) -> Int64 { Int64(cx) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: cy))) }
        for (i, pin) in pins.enumerated() {
            let p = position(pin)
            at.append(p)
            let (cx, cy) = (Int((p.x / cell).rounded(.down)), Int((p.y / cell).rounded(.down)))
            var clear = true
            search: for dx in -1...1 {
                for dy in -1...1 {
                    for j in grid[key(cx + dx, cy + dy)] ?? [] {
                        let (ex, ey) = (at[j].x - p.x, at[j].y - p.y)
                        let reach = (pins[j].diameter + pin.diameter) / 2 + gap
                        if ex * ex + ey * ey < reach * reach { clear = false; break search }
                    }
                }
            }
            guard clear else { continue }
            grid[key(cx, cy), default: []].append(i)
            drawn.append(i)
        }
        return drawn
    }
}

/// A rectangle on the page, pt.
struct PageBox {
    var x: Double, y: Double, width: Double, height: Double

    /// Whether a disc of `diameter` centred at (`cx`, `cy`) overlaps the box.
    func overlaps(cx: Double, cy: Double, diameter: Double) -> Bool {
        let (nx, ny) = (min(max(cx, x), x + width), min(max(cy, y), y + height))
        return (nx - cx) * (nx - cx) + (ny - cy) * (ny - cy) < diameter * diameter / 4
    }
}

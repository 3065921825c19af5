import ListingVocabulary
#if canImport(Glibc)
import Glibc  // sin, cos, atan2 (FoundationEssentials does not re-export them)
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a map's points fall and which of them it shows: the longitude window, the points in
/// Web Mercator, the extent shown and the clusters within it; and so which clusters get
/// outlines (``outlined(_:)``), the only ones worth computing.
public struct MapPoints {
    let window: LongitudeWindow
    let x: [Double], y: [Double]
    let extent: MapExtent
    let clusters: ClusterSummary

    /// The points placed as ``ClusterMap/render(_:options:shown:)`` places them with `options`.
    /// - Complexity: O(n) for n points.
    public init(longitudes: [Double], latitudes: [Double], labels: [Int32], options: MapOptions) {
        // The window: the frame's or the box's, else just after the widest empty stretch of
        // longitude (the usual −180°…180° unless the data straddles the antimeridian).
        window = options.frame?.window ?? options.bbox.map { $0.window }
            ?? options.centreLongitude.map { LongitudeWindow(west: $0 - 180) } ?? Self.window(longitudes)
        x = longitudes.map { [window] in WebMercator.easting(longitude: window.unwrap($0)) }
        y = latitudes.map { WebMercator.northing(latitude: $0) }
        extent = options.frame != nil ? MapExtent.whole(count: x.count)
            : options.bbox.map { [window, x, y] in MapExtent.box($0, window: window, x: x, y: y) } ?? MapExtent.withoutOutliers(x: x, y: y)
        clusters = ClusterSummary(labels: extent.shown(labels), longitudes: extent.shown(longitudes), latitudes: extent.shown(latitudes))
    }

    /// The window a map of `longitudes` is drawn in unless told otherwise: data within half a
    /// turn of longitude is cut open in its widest empty stretch (the usual −180°…180° unless
    /// it straddles ±180°, so Fiji or the Aleutians are drawn whole, centred on the Pacific);
    /// data spread wider is drawn as world maps usually are, centred on Greenwich.
    static func window(_ longitudes: [Double]) -> LongitudeWindow {
        let window = LongitudeWindow(containing: longitudes)
        guard window != .standard else { return window }
        let lo = longitudes.lazy.map { window.unwrap($0) }.min() ?? window.west
        let hi = longitudes.lazy.map { window.unwrap($0) }.max() ?? window.west
        return hi - lo <= 180 ? window : .standard
    }

    /// The labels of the clusters that get outlines: the largest `options.maxOutlines` within
    /// the part shown.
    public func outlined(_ options: MapOptions) -> Set<Int32> {
        Set(clusters.bySize.prefix(max(0, options.maxOutlines)).map { clusters.labels[$0] })
    }
}

struct ClusterSummary {
    /// Distinct non-negative labels, ascending.
    var labels: [Int32] = []
    var counts: [Int] = []
    /// The spherical centroid of each cluster's points, degrees.
    var meanLongitude: [Double] = []
    var meanLatitude: [Double] = []
    var noise = 0
    /// Cluster indices by decreasing size, then increasing label.
    var bySize: [Int] = []

    /// The centre is the spherical centroid: the direction of the mean of the points' unit
    /// vectors, which never averages longitudes, so a cluster on both sides of the
    /// antimeridian has its centre among its points, not on the far side of the world. (A
    /// cluster whose vectors cancel, points spread evenly round the globe, takes its first point.)
    init(labels pointLabels: [Int32], longitudes: [Double], latitudes: [Double]) {
        var slot: [Int32: Int] = [:]
        var sum: [(x: Double, y: Double, z: Double)] = [], first: [Int] = []
        for i in 0..<pointLabels.count {
            let l = pointLabels[i]
            guard l >= 0 else { noise += 1; continue }
            let s: Int
            if let found = slot[l] { s = found } else {
                s = labels.count
                slot[l] = s
                labels.append(l); counts.append(0); sum.append((0, 0, 0)); first.append(i)
            }
            let (lambda, phi) = (longitudes[i] * .pi / 180, latitudes[i] * .pi / 180)
            counts[s] += 1
            sum[s].x += cos(phi) * cos(lambda); sum[s].y += cos(phi) * sin(lambda); sum[s].z += sin(phi)
        }
        // Every slot has at least one point.
        let order = labels.indices.sorted { labels[$0] < labels[$1] }
        let centres = order.map { s -> (Double, Double) in
            let v = sum[s], horizontal = (v.x * v.x + v.y * v.y).squareRoot()
            guard (horizontal * horizontal + v.z * v.z).squareRoot() > 1e-9 * Double(counts[s]) else {
                return (longitudes[first[s]], latitudes[first[s]])
            }
            return (horizontal > 0 ? atan2(v.y, v.x) * 180 / .pi : longitudes[first[s]], atan2(v.z, horizontal) * 180 / .pi)
        }
        meanLongitude = centres.map(\.0)
        meanLatitude = centres.map(\.1)
        labels = order.map { labels[$0] }
        counts = order.map { counts[$0] }
        bySize = labels.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : labels[$0] < labels[$1] }
    }
}

import ListingVocabulary
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colours for clusters such that neighbouring clusters never share one, however many
/// clusters there are. The map and the condensed-tree plot both take their colours from
/// ``colours(labels:longitudes:latitudes:)``, so a cluster has one colour in every picture.
///
/// **Neighbours.** Each cluster's bounding box is taken in Web Mercator (the map's plane).
/// Two clusters are neighbours when their boxes are at most ``neighbourMargin`` × the larger
/// side of the box of all points (noise included: the map's extent) apart along both axes —
/// that is, when they overlap or nearly touch on the map. Interleaved clusters overlap and so
/// are always neighbours.
///
/// **Colouring.** Greedy, in order of decreasing neighbour count (then increasing label):
/// each cluster takes, of the ``base`` colours that none of its already coloured neighbours
/// has, the one used least so far (then the first), so the base colours are spread evenly
/// over the map. Only when its neighbours hold every base colour does a cluster take the
/// first free colour past the base set (``colour(index:)``), so there is always one. The result depends only on the input: same points, same colours.
public enum ClusterPalette {
    /// The first colours handed out: Tableau 10 without its grey (kept for noise), then three
    /// more of similar weight. All are dark enough to read against white and distinct from
    /// ``noise``.
    public static let base: [String] = [
        "#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1", "#edc948", "#76b7b2", "#9c755f",
        "#ff9da7", "#17becf", "#8f6fd1", "#a5b82e",
    ]

    /// Noise (label -1 and any negative label): light grey.
    public static let noise = "#c2c2c2"

    /// How close two clusters' boxes may come, as a fraction of the map extent's larger side,
    /// before they count as neighbours (3%: about 24 pt on a 800 pt wide map).
    public static let neighbourMargin = 0.03

    /// Colour number `index` as `#rrggbb`: ``base`` first, then hues stepping by the golden
    /// angle (137.5°) at three lightness levels in turn, never repeating an earlier colour.
    /// - Complexity: O(index) for an index past the base set (the earlier ones are checked
    ///   for repeats); O(1) otherwise.
    public static func colour(index: Int) -> String {
        precondition(index >= 0, "colour index must be at least 0")
        if index < base.count { return base[index] }
        return extended(upTo: index)[index - base.count]
    }

    /// The generated colours for indices `base.count…index`.
    private static func extended(upTo index: Int) -> [String] {
        var seen = Set(base + [noise])
        var out: [String] = []
        var k = 0
        while out.count <= index - base.count {
            let hue = (Double(k) * 137.507_764).truncatingRemainder(dividingBy: 360)
            let lightness = [0.42, 0.56, 0.32][k % 3]
            let hex = hexColour(hue: hue, saturation: 0.62, lightness: lightness)
            if seen.insert(hex).inserted { out.append(hex) }
            k += 1
        }
        return out
    }

    /// Colours for labels with no positions to compare (points in x,y only): each label gets
    /// the colour of its number, so at least the tree plot and the legend agree.
    public static func colours(labels: [Int32]) -> [Int32: String] {
        Dictionary(uniqueKeysWithValues: Set(labels.filter { $0 >= 0 }).map { ($0, colour(index: Int($0))) })
    }

    /// A colour for every cluster label in `labels` (negative labels are noise and get
    /// none; use ``noise``).
    ///
    /// - Parameters:
    ///   - labels: one label per point.
    ///   - longitudes: degrees, one per point.
    ///   - latitudes: degrees, one per point.
    /// - Returns: label → `#rrggbb`, such that no two neighbours (see the type's
    ///   documentation) share a colour.
    /// - Complexity: O(n) for the boxes, O(k log k + e) to find the e neighbour pairs among
    ///   k clusters and O(k · b + e) to colour them (b = ``base`` count).
    public static func colours(labels: [Int32], longitudes: [Double], latitudes: [Double]) -> [Int32: String] {
        precondition(labels.count == longitudes.count && labels.count == latitudes.count,
                     "one longitude and latitude per label")
        // In the map's window, so that clusters beside each other across ±180° are neighbours.
        let window = LongitudeWindow(containing: longitudes)
        return colours(labels: labels, x: longitudes.map { WebMercator.easting(longitude: window.unwrap($0)) },
                       y: latitudes.map { WebMercator.northing(latitude: $0) })
    }

    /// ``colours(labels:longitudes:latitudes:)`` of points already in Web Mercator metres, their
    /// eastings in one window of longitudes (the map's).
    static func colours(labels: [Int32], x: [Double], y: [Double]) -> [Int32: String] {
        let boxes = ClusterBoxes(labels: labels, x: x, y: y)
        let adjacency = boxes.neighbours(margin: neighbourMargin * boxes.extentSide)
        let k = boxes.labels.count
        let degree = (0..<k).map(adjacency.degree)
        let order = (0..<k).sorted { (a: Int, b: Int) -> Bool in
            degree[a] != degree[b] ? degree[a] > degree[b] : boxes.labels[a] < boxes.labels[b]
        }
        var assigned = [Int](repeating: -1, count: k)
        var uses = [Int](repeating: 0, count: base.count)
        var taken = [Bool]()
        for c in order {
            taken.removeAll(keepingCapacity: true)
            taken.append(contentsOf: repeatElement(false, count: base.count + adjacency.degree(c) + 1))
            for n in adjacency[c] where assigned[Int(n)] >= 0 && assigned[Int(n)] < taken.count { taken[assigned[Int(n)]] = true }
            // Among the free base colours the least used so far (then the first): every base
            // colour appears about equally often, instead of the first few everywhere.
            var pick = -1
            for i in 0..<base.count where !taken[i] && (pick < 0 || uses[i] < uses[pick]) { pick = i }
            // All base colours taken by neighbours: the first free extended one. There are at
            // most `count` neighbours, so one of the first base.count + count + 1 is free.
            if pick < 0 { pick = taken.firstIndex(of: false)! } else { uses[pick] += 1 }
            assigned[c] = pick
        }
        let generated = extended(upTo: max(assigned.max() ?? 0, base.count))
        var out: [Int32: String] = [:]
        out.reserveCapacity(k)
        for c in 0..<k {
            let i = assigned[c]
            out[boxes.labels[c]] = i < base.count ? base[i] : generated[i - base.count]
        }
        return out
    }

    /// `#rrggbb` of an HSL colour (hue in degrees, saturation and lightness in 0…1).
    static func hexColour(hue: Double, saturation s: Double, lightness l: Double) -> String {
        let c = (1 - abs(2 * l - 1)) * s
        let h = hue / 60
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch h {
        case ..<1: (r, g, b) = (c, x, 0)
        case ..<2: (r, g, b) = (x, c, 0)
        case ..<3: (r, g, b) = (0, c, x)
        case ..<4: (r, g, b) = (0, x, c)
        case ..<5: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        let m = l - c / 2
        return "#" + [r, g, b].map { v in
            let byte = Int(((v + m) * 255).rounded())
            let hex = String(min(max(byte, 0), 255), radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}

/// Each cluster's bounding box in Web Mercator metres, and the extent of all points.
struct ClusterBoxes {
    /// Distinct non-negative labels, ascending.
    var labels: [Int32] = []
    var minX: [Double] = [], maxX: [Double] = [], minY: [Double] = [], maxY: [Double] = []
    /// The larger side of the box of every point (noise included), projected metres.
    var extentSide = 0.0

    init(labels pointLabels: [Int32], x px: [Double], y py: [Double]) {
        var slot: [Int32: Int] = [:]
        var lo = (x: Double.infinity, y: Double.infinity), hi = (x: -Double.infinity, y: -Double.infinity)
        for i in 0..<pointLabels.count {
            let (x, y) = (px[i], py[i])
            lo = (min(lo.x, x), min(lo.y, y))
            hi = (max(hi.x, x), max(hi.y, y))
            let l = pointLabels[i]
            guard l >= 0 else { continue }
            if let s = slot[l] {
                minX[s] = min(minX[s], x); maxX[s] = max(maxX[s], x)
                minY[s] = min(minY[s], y); maxY[s] = max(maxY[s], y)
            } else {
                slot[l] = labels.count
                labels.append(l); minX.append(x); maxX.append(x); minY.append(y); maxY.append(y)
            }
        }
        extentSide = pointLabels.isEmpty ? 0 : max(hi.x - lo.x, hi.y - lo.y)
        // Ascending labels, so everything after depends on the clusters, not the row order.
        let order = labels.indices.sorted { labels[$0] < labels[$1] }
        labels = order.map { labels[$0] }
        minX = order.map { minX[$0] }; maxX = order.map { maxX[$0] }
        minY = order.map { minY[$0] }; maxY = order.map { maxY[$0] }
    }

    /// For each cluster, the clusters whose boxes are at most `margin` apart along both axes,
    /// found by a sweep over the boxes in order of their left edge, run twice: once to count
    /// each cluster's neighbours, once to write them into one flat array, so that the pairs of
    /// a map of many clusters are each written once, with no list per cluster to grow.
    /// - Complexity: O(k log k + pairs whose x ranges come within `margin`).
    func neighbours(margin: Double) -> Adjacency {
        let k = labels.count
        let byLeft = (0..<k).sorted { (minX[$0], labels[$0]) < (minX[$1], labels[$1]) }
        func forEachPair(_ body: (Int, Int) -> Void) {
            for (p, a) in byLeft.enumerated() {
                for b in byLeft[(p + 1)...] {
                    if minX[b] - maxX[a] > margin { break }
                    if minY[b] - maxY[a] <= margin && minY[a] - maxY[b] <= margin { body(a, b) }
                }
            }
        }
        var offsets = [Int](repeating: 0, count: k + 1)
        forEachPair { a, b in offsets[a + 1] += 1; offsets[b + 1] += 1 }
        for c in 0..<k { offsets[c + 1] += offsets[c] }
        var next = offsets
        var targets = [Int32](repeating: 0, count: offsets[k])
        forEachPair { a, b in
            targets[next[a]] = Int32(b); next[a] += 1
            targets[next[b]] = Int32(a); next[b] += 1
        }
        return Adjacency(offsets: offsets, targets: targets)
    }
}

/// Who neighbours whom, for k clusters: the neighbours of cluster c are
/// `targets[offsets[c]..<offsets[c + 1]]`.
struct Adjacency {
    let offsets: [Int]
    let targets: [Int32]

    func degree(_ c: Int) -> Int { offsets[c + 1] - offsets[c] }
    subscript(c: Int) -> ArraySlice<Int32> { targets[offsets[c]..<offsets[c + 1]] }
}

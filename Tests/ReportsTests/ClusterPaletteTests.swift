import Datasets
import Foundation
import Reports
import Testing

@Suite("Cluster palette")
struct ClusterPaletteTests {
    /// Neighbour pairs by the documented rule, brute force: Web Mercator bounding boxes at
    /// most `neighbourMargin` × the larger side of all points' box apart along both axes.
    static func neighbourPairs(labels: [Int32], lon: [Double], lat: [Double]) -> [(Int32, Int32)] {
        func x(_ l: Double) -> Double { 6_378_137 * l * .pi / 180 }
        func y(_ p: Double) -> Double { 6_378_137 * log(tan(.pi / 4 + p * .pi / 360)) }
        var box: [Int32: (x0: Double, x1: Double, y0: Double, y1: Double)] = [:]
        let xs = lon.map(x), ys = lat.map(y)
        for i in labels.indices where labels[i] >= 0 {
            let b = box[labels[i]] ?? (xs[i], xs[i], ys[i], ys[i])
            box[labels[i]] = (min(b.x0, xs[i]), max(b.x1, xs[i]), min(b.y0, ys[i]), max(b.y1, ys[i]))
        }
        let margin = ClusterPalette.neighbourMargin * max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        let keys = box.keys.sorted()
        var pairs: [(Int32, Int32)] = []
        for (i, a) in keys.enumerated() {
            for b in keys[(i + 1)...] {
                let p = box[a]!, q = box[b]!
                if max(p.x0 - q.x1, q.x0 - p.x1) <= margin && max(p.y0 - q.y1, q.y0 - p.y1) <= margin { pairs.append((a, b)) }
            }
        }
        return pairs
    }

    @Test("random layouts of hundreds of clusters: no two neighbours share a colour", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func neighboursDiffer(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let clusters = 200 + rng.nextInt(below: 300)
        var lon = [Double](), lat = [Double](), labels = [Int32]()
        for c in 0..<clusters {
            let (cx, cy) = (rng.nextDouble(in: 126.8, 127.2), rng.nextDouble(in: 37.4, 37.7))
            let spread = rng.nextLogUniform(0.0003, 0.01)
            for _ in 0..<(3 + rng.nextInt(below: 30)) {
                lon.append(cx + spread * rng.nextNormal()); lat.append(cy + spread * rng.nextNormal())
                labels.append(Int32(c * 3))  // sparse label numbers
            }
        }
        for _ in 0..<500 {
            lon.append(rng.nextDouble(in: 126.8, 127.2)); lat.append(rng.nextDouble(in: 37.4, 37.7)); labels.append(-1)
        }
        let colours = ClusterPalette.colours(labels: labels, longitudes: lon, latitudes: lat)
        #expect(Set(colours.keys) == Set(labels.filter { $0 >= 0 }))
        let pairs = Self.neighbourPairs(labels: labels, lon: lon, lat: lat)
        #expect(pairs.count > clusters, "the layout is dense enough to test something")
        let clashes = pairs.filter { colours[$0.0] == colours[$0.1] }
        #expect(clashes.isEmpty, "\(clashes.count) neighbour pairs share a colour, e.g. \(clashes.prefix(3))")
        #expect(!colours.values.contains(ClusterPalette.noise))

        // Row order does not matter.
        var order = Array(labels.indices)
        order.shuffle(using: &rng)
        let shuffled = ClusterPalette.colours(labels: order.map { labels[$0] }, longitudes: order.map { lon[$0] },
                                              latitudes: order.map { lat[$0] })
        #expect(shuffled == colours)
    }

    @Test("forty clusters on one spot get forty distinct colours: the palette extends past its base set")
    func extendsPastBase() {
        var rng = SplitMix64(seed: 11)
        var lon = [Double](), lat = [Double](), labels = [Int32]()
        for c in 0..<40 {
            for _ in 0..<10 {
                lon.append(127 + 0.001 * rng.nextNormal()); lat.append(37.5 + 0.001 * rng.nextNormal()); labels.append(Int32(c))
            }
        }
        let colours = ClusterPalette.colours(labels: labels, longitudes: lon, latitudes: lat)
        #expect(Set(colours.values).count == 40)
        #expect(Set(ClusterPalette.base).isSubset(of: Set(colours.values)))
        #expect(colours.values.allSatisfy { $0.wholeMatch(of: /#[0-9a-f]{6}/) != nil })
        #expect(!colours.values.contains(ClusterPalette.noise))
        #expect((0..<200).map(ClusterPalette.colour(index:)).count == Set((0..<200).map(ClusterPalette.colour(index:))).count)
    }

    @Test("clusters far apart share colours: a hundred sparse clusters use the base set, evenly")
    func farApartReuse() {
        // 100 clusters on a 10 × 10 grid, each a row of points 0.02° wide: in each grid row
        // consecutive clusters are 0.005° apart (neighbours), the rows 0.02° apart (not).
        var lon = [Double](), lat = [Double](), labels = [Int32]()
        for c in 0..<100 {
            for k in 0..<5 {
                lon.append(127 + 0.025 * Double(c % 10) + 0.005 * Double(k))
                lat.append(37.5 + 0.02 * Double(c / 10)); labels.append(Int32(c))
            }
        }
        let colours = ClusterPalette.colours(labels: labels, longitudes: lon, latitudes: lat)
        let pairs = Self.neighbourPairs(labels: labels, lon: lon, lat: lat)
        #expect(pairs.count == 90)
        #expect(pairs.allSatisfy { colours[$0.0] != colours[$0.1] })
        // Each cluster has at most two neighbours, so the base colours always suffice, and
        // the least-used choice spreads them: 100 clusters over 12 colours, 8 or 9 each.
        var uses: [String: Int] = [:]
        for c in colours.values { uses[c, default: 0] += 1 }
        #expect(Set(uses.keys) == Set(ClusterPalette.base))
        #expect(uses.values.allSatisfy { (8...9).contains($0) }, "\(uses)")
    }
}

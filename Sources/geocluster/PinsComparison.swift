import Datasets
import Dispatch
import Harness
import Metrics
import Pins

/// `bench --pins-zooms A-B`: map pins per zoom on one dataset, three ways — a PinIndex (privacy
/// mask first), the supercluster baseline (its defaults: radius 40 px of 512-px tiles, true
/// positions) and a grid of 40-pixel cells (one pin per occupied cell at its centroid) — with
/// the numbers issue 13 asks for: pins per phone viewport (390 × 844 pt), ARI of the zoom's
/// grouping against the truth column, overlap rate of the discs drawn at 25–50 pt (the
/// PinIndex's size rule for all three), build time and viewport query times.
///
/// In the bench process, not a cell of its own: the three share one reading of the file.
enum PinsComparison {
    struct Row {
        var dataset: String
        var implementation: String
        var zoom: Int
        var pins: Int
        var pinsPerViewport: Double
        var ari: Double?
        var overlap: Double
        /// The whole index (PinIndex, supercluster: every zoom at once) or this zoom's binning (grid).
        var buildSeconds: Double
        var queryP50: Double?
        var queryP99: Double?
        var peakMegabytes: Double?
    }

    static let viewportCount = 200

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The comparison on the listing file `path` at `zooms`.
    static func run(path: String, dataset: String, zooms: ClosedRange<Int>, seed: UInt64) throws -> [Row] {
        let source = PinSource(file: try ListingFile.read(path: path, locationColumn: "building_id", required: false))
        let truth: [Int32]? = (try? LabelFile.read(path: path, columns: ["truth"], option: "--pins-zooms"))?.labels
        let file = source.file
        let n = file.count
        let sizes = PinOptions(privacy: .disabled)

        var t0 = now()
        let index = try PinIndex(listings: source.listings, options: PinOptions(privacy: .displaced(try PrivacyMask(seed: seed))))
        let pinBuild = now() - t0
        let pinPeak = StageClock.peakResidentMegabytes()
        t0 = now()
        let baseline = try Supercluster(longitudes: file.longitudes, latitudes: file.latitudes)
        let baselineBuild = now() - t0

        var g = SplitMix64(seed: seed)
        var rows: [Row] = []
        func ari(_ labels: [Int32]) -> Double? {
            guard let truth, truth.count == labels.count else { return nil }
            return try? ContingencyTable(truth: truth, predicted: labels).adjustedRandIndex()
        }
        func percentile(_ v: [Double], _ p: Double) -> Double {
            let s = v.sorted()
            return s[min(s.count - 1, Int(Double(s.count) * p))]
        }
        for z in zooms {
            let boxes = (0..<viewportCount).map { _ -> PinBoundingBox in
                let i = Int(g.next() % UInt64(n))
                let lat = file.latitudes[i], lon = file.longitudes[i]
                let mpp = WebMercator.metresPerPixel(zoom: Double(z), latitude: lat)
                let m = WebMercator.metresPerDegree(latitude: lat)
                let w = min(195 * mpp / m.longitude, 179), h = 422 * mpp / m.latitude
                return PinBoundingBox(minLongitude: max(lon - w, -180), minLatitude: max(lat - h, -85),
                                      maxLongitude: min(lon + w, 180), maxLatitude: min(lat + h, 85))
            }
            // PinIndex: each listing's pin through the leaves.
            let pins = try index.pins(zoom: Double(z))
            var labels = [Int32](repeating: -1, count: n)
            for (k, pin) in pins.enumerated() {
                var cursor: PinCursor? = nil
                repeat {
                    let page = try index.leaves(of: pin.id, limit: 4096, cursor: cursor)
                    for leaf in page.leaves { labels[Int(source.rowOfID[leaf.id]!)] = Int32(k) }
                    cursor = page.next
                } while cursor != nil
            }
            var times: [Double] = [], seen = 0
            var out: [Pin] = []
            for box in boxes {
                let t = now()
                try index.pins(zoom: Double(z), bbox: box, filter: nil, into: &out)
                times.append(now() - t)
                seen += out.count
            }
            rows.append(Row(dataset: dataset, implementation: "pinindex", zoom: z, pins: pins.count,
                            pinsPerViewport: Double(seen) / Double(boxes.count), ari: ari(labels),
                            overlap: try index.overlapRate(zoom: z), buildSeconds: pinBuild,
                            queryP50: percentile(times, 0.5), queryP99: percentile(times, 0.99), peakMegabytes: pinPeak))

            // The supercluster baseline.
            let items = baseline.clusters(zoom: z)
            times = []; seen = 0
            for box in boxes {
                let t = now()
                let found = baseline.clusters(bbox: box, zoom: z)
                times.append(now() - t)
                seen += found.count
            }
            rows.append(Row(dataset: dataset, implementation: "supercluster", zoom: z, pins: items.count,
                            pinsPerViewport: Double(seen) / Double(boxes.count), ari: ari(baseline.assignment(zoom: z)),
                            overlap: PinOverlap.rate(longitudes: items.map(\.longitude), latitudes: items.map(\.latitude),
                                                     diameters: items.map { sizes.diameter(count: $0.count) }, zoom: z),
                            buildSeconds: baselineBuild, queryP50: percentile(times, 0.5), queryP99: percentile(times, 0.99),
                            peakMegabytes: nil))

            // A grid of 40-pixel cells at this zoom, on true positions.
            t0 = now()
            let world = 256 * Double(1 << z)
            var cellOf: [UInt64: Int32] = [:]
            var sumX: [Double] = [], sumY: [Double] = [], count: [Int] = []
            var gridLabels = [Int32](repeating: 0, count: n)
            for i in 0..<n {
                let x = WebMercator.x(longitude: file.longitudes[i]) * world, y = WebMercator.y(latitude: file.latitudes[i]) * world
                let key = (UInt64(x / 40) << 32) | UInt64(y / 40)
                let c: Int32
                if let found = cellOf[key] { c = found } else {
                    c = Int32(count.count); cellOf[key] = c
                    sumX.append(0); sumY.append(0); count.append(0)
                }
                sumX[Int(c)] += x; sumY[Int(c)] += y; count[Int(c)] += 1
                gridLabels[i] = c
            }
            let gridBuild = now() - t0
            let lon = (0..<count.count).map { WebMercator.longitude(x: sumX[$0] / Double(count[$0]) / world) }
            let lat = (0..<count.count).map { WebMercator.latitude(y: sumY[$0] / Double(count[$0]) / world) }
            seen = 0
            for box in boxes { seen += lon.indices.filter { box.contains(longitude: lon[$0], latitude: lat[$0]) }.count }
            rows.append(Row(dataset: dataset, implementation: "grid", zoom: z, pins: count.count,
                            pinsPerViewport: Double(seen) / Double(boxes.count), ari: ari(gridLabels),
                            overlap: PinOverlap.rate(longitudes: lon, latitudes: lat, diameters: count.map { sizes.diameter(count: $0) }, zoom: z),
                            buildSeconds: gridBuild, queryP50: nil, queryP99: nil, peakMegabytes: nil))
        }
        return rows
    }

    static let header = ["dataset", "implementation", "zoom", "pins", "pins_per_viewport", "ari", "overlap_rate",
                         "build_s", "query_p50_ms", "query_p99_ms", "peak_mb"]

    /// The rows as CSV (the columns of `header`).
    static func csv(_ rows: [Row]) -> String {
        func f(_ v: Double?, _ format: String) -> String { v.map { cFormat(format, $0) } ?? "" }
        return CSV.format(header: header, rows: rows.map { r in
            [r.dataset, r.implementation, String(r.zoom), String(r.pins), f(r.pinsPerViewport, "%.1f"), f(r.ari, "%.4f"),
             f(r.overlap, "%.4f"), f(r.buildSeconds, "%.4f"), f(r.queryP50.map { $0 * 1e3 }, "%.3f"),
             f(r.queryP99.map { $0 * 1e3 }, "%.3f"), f(r.peakMegabytes, "%.0f")]
        })
    }
}

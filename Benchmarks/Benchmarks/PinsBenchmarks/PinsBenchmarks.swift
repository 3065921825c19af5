// Map-pin benchmarks: building a PinIndex from 1M seoul listings beside one HDBSCAN fit of
// the same points and the supercluster baseline, and phone-viewport queries.
//
// The targets they are read against (the build as a multiple of the fit, peak memory, query
// p99s) are in docs/performance.md; compare the build's and the fit's p50s of one run, as the
// machine is shared and noisy. `Benchmarks/PinsBench` (a plain program) prints the same
// comparison per round and the queries per zoom.
//
// Run with `make bench` or, from Benchmarks/,
//   swift package --disable-sandbox benchmark --target PinsBenchmarks
import Benchmark
import ClusterCore
import Datasets
import Pins

/// 1M listings of the seoul scenario (seed 1) as an app holds them, and their projected
/// points for HDBSCAN.
func seoulListings(_ count: Int) -> (listings: PinListings, lon: [Double], lat: [Double], points: PointSet) {
    let g = try! GeneratedListings.generate(model: ScenarioModel(scenario: .seoul, count: count, seed: 1))
    var listings = PinListings(capacity: g.count)
    for i in 0..<g.count {
        listings.append(id: Int64(g.ids[i]), longitude: g.lon[i], latitude: g.lat[i],
                        locationKey: LocationKey(explicit: UInt64(g.buildingID[i])),
                        category: UInt8(ListingCategory.allCases.firstIndex(of: g.category[i])!), area: g.area[i],
                        deposit: Double(g.deposit[i]), monthlyRent: Double(g.rent[i]))
    }
    return (listings, g.lon, g.lat, try! PointSet(xs: g.x, ys: g.y))
}

/// Phone viewports (390 × 844 pt) at `zoom`, centred on listings picked by a fixed sequence.
func viewports(zoom: Int, lon: [Double], lat: [Double], count: Int) -> [BoundingBox] {
    var state: UInt64 = 12_345
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let i = Int((state >> 33) % UInt64(lon.count))
        let mpp = WebMercator.metresPerPixel(zoom: Double(zoom), latitude: lat[i])
        let m = WebMercator.metresPerDegree(latitude: lat[i])
        let w = 195 * mpp / m.longitude, h = 422 * mpp / m.latitude
        return BoundingBox(minLongitude: lon[i] - w, minLatitude: lat[i] - h, maxLongitude: lon[i] + w, maxLatitude: lat[i] + h)
    }
}

let benchmarks: @Sendable () -> Void = {
    let data = seoulListings(1_000_000)
    // The default mask (shared points, K = 5), first publication (no mask store yet): the build
    // a new deployment runs. A fixed, insecure test key: the same groups in every run.
    let options = PinOptions(privacy: .displaced(PrivacyMask(key: .insecureTestKey(seed: 7))))
    let build = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .milliseconds, warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 5,
        thresholds: [
            // Against the committed static thresholds (p90; Benchmarks/Thresholds/), with the
            // tolerances of ClusterCoreBenchmarks (see there why).
            .wallClock: .init(relative: [.p90: 100.0]),
            .mallocCountTotal: .init(relative: [.p90: 10.0]),
        ])

    Benchmark("PinIndex-build-1M-seoul", configuration: build) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try PinIndex(listings: data.listings, options: options)) }
    }
    Benchmark("HDBSCAN.fit-1M-same-listings-mcs15", configuration: build) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try HDBSCAN.fit(data.points, parameters: HDBSCANParameters(minClusterSize: 15), keeping: []))
        }
    }
    Benchmark("Supercluster-baseline-1M-zooms-0-16", configuration: build) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try Supercluster(longitudes: data.lon, latitudes: data.lat)) }
    }

    // Queries: each iteration is 100 viewports; the percentiles are over iterations.
    let index = try! PinIndex(listings: data.listings, options: options)
    let filter = AttributeFilter(categories: [0, 2], deposit: ValueRange(lower: 1000, upper: 40000))
    let queries = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds, warmupIterations: 2,
        maxDuration: .seconds(10), maxIterations: 20,
        thresholds: [.wallClock: .init(relative: [.p90: 100.0]), .mallocCountTotal: .init(relative: [.p90: 10.0])])
    for zoom in [10, 14, 17] {
        let boxes = viewports(zoom: zoom, lon: data.lon, lat: data.lat, count: 100)
        Benchmark("pins-zoom-\(zoom)-100-phone-viewports", configuration: queries) { benchmark in
            var out: [Pin] = []
            for _ in benchmark.scaledIterations {
                for box in boxes { try index.pins(zoom: Double(zoom), bbox: box, filter: nil, into: &out) }
                blackHole(out)
            }
        }
        Benchmark("pins-zoom-\(zoom)-100-phone-viewports-filtered", configuration: queries) { benchmark in
            var out: [Pin] = []
            for _ in benchmark.scaledIterations {
                for box in boxes { try index.pins(zoom: Double(zoom), bbox: box, filter: filter, into: &out) }
                blackHole(out)
            }
        }
    }
}

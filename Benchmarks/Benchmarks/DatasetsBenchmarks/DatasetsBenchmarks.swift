// Datasets benchmarks: reading point files and generating listings, in release builds.
//
// Reading must not dominate a run (the target in rows per second: docs/performance.md). The
// input, an id,lat,lon,x,y,truth file of 1M rows, is made once per run from the seoul
// scenario (seed 1) into the temporary folder.
//
// Run with `make bench` or, from Benchmarks/,
//   swift package --disable-sandbox benchmark --target DatasetsBenchmarks
import Benchmark
import Datasets
import Foundation
import Pins

/// Writes (once) the reading benchmark's input: `rows` rows of id,lat,lon,x,y,truth with
/// degrees to 6 decimals and metres to 2, as `geocluster generate` writes them.
func readingInput(rows: Int) -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("geocluster-bench-seoul-\(rows)-id-lat-lon-x-y-truth.csv").path
    if FileManager.default.fileExists(atPath: path) { return path }
    do {
        let listings = try GeneratedListings.generate(model: ScenarioModel(scenario: .seoul, count: rows, seed: 1))
        var out = try CSVWriter(path: path)
        try out.header(["id", "lat", "lon", "x", "y", "truth"])
        for i in 0..<listings.count {
            out.field(listings.ids[i])
            out.field(listings.lat[i], decimals: 6); out.field(listings.lon[i], decimals: 6)
            out.field(listings.x[i], decimals: 2); out.field(listings.y[i], decimals: 2)
            out.field(Int(listings.truth[i]))
            try out.endRow()
        }
        try out.commit()
    } catch {
        fatalError("cannot write the benchmark input \(path): \(error)")
    }
    return path
}

let benchmarks: @Sendable () -> Void = {
    let rows = 1_000_000
    let path = readingInput(rows: rows)
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 10,
        thresholds: [
            // Against the committed static thresholds (p90; Benchmarks/Thresholds/), as in
            // ClusterCoreBenchmarks (see there why), but allocations 30 %: the parallel CSV
            // reader's count varies with how its two threads split the file.
            .wallClock: .init(relative: [.p90: 100.0]), .mallocCountTotal: .init(relative: [.p90: 30.0]),
        ])

    Benchmark("PointFile.read-1M-rows-id,lat,lon,x,y,truth", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations {
            let file = try PointFile.read(path: path)
            precondition(file.count == rows)
            blackHole(file)
        }
    }

    // The same file with a --bbox filter: latitude and longitude parsed as well as x,y.
    let box = BoundingBox(minLongitude: 126.9, minLatitude: 37.45, maxLongitude: 127.1, maxLatitude: 37.65)
    Benchmark("PointFile.read-1M-rows-with-bbox-filter", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PointFile.read(path: path, filter: ListingFilter(bbox: box)))
        }
    }

    // The full seoul file as `geocluster generate` writes it (12 columns), read for x,y (and
    // the id) as `cluster` reads it, then with the filter columns too: category, area_m2,
    // deposit and monthly_rent parsed in every row, by filters that keep every row. The
    // target: no slower than pandas.read_csv(f, usecols=["x","y"]) on the same file
    // (scripts/bench/reading.py runs that comparison).
    let seoul = FileManager.default.temporaryDirectory.appendingPathComponent("geocluster-bench-seoul-\(rows)-listings.csv").path
    if !FileManager.default.fileExists(atPath: seoul) {
        do {
            _ = try GeneratedListings.write(model: ScenarioModel(scenario: .seoul, count: rows, seed: 1), to: seoul, format: .csv)
        } catch {
            fatalError("cannot write the benchmark input \(seoul): \(error)")
        }
    }
    Benchmark("PointFile.read-1M-seoul-listings-x,y", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations {
            let file = try PointFile.read(path: seoul)
            precondition(file.count == rows)
            blackHole(file)
        }
    }
    let everyRow = ListingFilter(attributes: AttributeFilter(
        categories: CategorySet(ListingCategory.allCases), area: ValueRange(lower: 0, upper: nil),
        deposit: ValueRange(lower: 0, upper: nil), monthlyRent: ValueRange(lower: 0, upper: nil)))
    Benchmark("PointFile.read-1M-seoul-listings-with-filter-columns", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations {
            let file = try PointFile.read(path: seoul, filter: everyRow)
            precondition(file.count == rows)
            blackHole(file)
        }
    }

    // Generation: model, 1M listings, projection and CSV writing, streamed in 64k chunks.
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("geocluster-bench-generate-1m.csv").path
    Benchmark("generate-seoul-1M-to-CSV", configuration: config) { benchmark in
        for _ in benchmark.scaledIterations {
            let model = ScenarioModel(scenario: .seoul, count: rows, seed: 1)
            blackHole(try GeneratedListings.write(model: model, to: output, format: .csv))
        }
    }
}

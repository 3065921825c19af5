// pins-bench: PinIndex build time against one HDBSCAN fit and the supercluster baseline on
// the same listings, peak memory, and viewport query times per zoom (the targets:
// docs/performance.md).
//
//   geocluster generate --count 1000000 --seed 1 -o seoul-1m.csv
//   swift build -c release --product pins-bench
//   .build/release/pins-bench seoul-1m.csv                 # build ratios (3 interleaved rounds) and queries
//                                                          # (with pysupercluster's build when python3 has it)
//   .build/release/pins-bench seoul-1m.csv --only build    # the PinIndex alone, for its peak memory
//   .build/release/pins-bench seoul-1m.csv --threads 2     # PinIndex and HDBSCAN.fit on 2 threads each
//
// The machine is shared and noisy: the three builds are timed in interleaved rounds and
// reported as medians and as per-round ratios, which stay comparable when the load changes.
import ClusterCore
import Datasets
import Harness
import Pins
#if canImport(Glibc)
import Glibc
#endif

// The clock and the peak-memory reading are Harness's, as every other timing in geocluster.
func now() -> Double { StageClock.now() }
/// VmHWM of this process, MB (0 where /proc does not report it).
func peakMB() -> Double { StageClock.peakResidentMegabytes() ?? 0 }

func median(_ v: [Double]) -> Double { let s = v.sorted(); return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2 }
func ms(_ s: Double) -> String { String(Int((s * 1e4).rounded())) .withDecimal(1) }
extension String { func withDecimal(_ d: Int) -> String { let p = count > d ? dropLast(d) : "0"; return "\(p).\(suffix(d))" } }
func fmt(_ v: Double, _ decimals: Int = 3) -> String {
    var m = 1.0; for _ in 0..<decimals { m *= 10 }
    let r = (v * m).rounded() / m
    return "\(r)"
}

let args = Array(CommandLine.arguments.dropFirst())
guard let path = args.first else { print("usage: pins-bench FILE.csv [--only build|hdbscan|supercluster] [--rounds 3] [--threads 1]"); exit(2) }
func option(_ name: String, in args: [String]) -> String? { args.firstIndex(of: name).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil } }
let only = option("--only", in: args)
let rounds = Int(option("--rounds", in: args) ?? "3")!
/// Worker threads of the PinIndex build and of HDBSCAN.fit alike (default 1; the results are
/// the same for any count).
let threads = Int(option("--threads", in: args) ?? "1")!

/// The listings of the file as an app would hold them (`PinListings`, the file's numeric
/// columns taken over without a copy), plus their true positions for the viewport centres and
/// the supercluster baseline. The CSV reader's other columns are freed on return.
func loadListings(_ path: String) throws -> (listings: PinListings, longitudes: [Double], latitudes: [Double]) {
    let file = try ListingFile.read(path: path, locationColumn: "building_id", required: false)
    let listings = PinListings(ids: file.ids.map { Int64($0)! }, longitudes: file.longitudes, latitudes: file.latitudes,
                               locationKeys: file.locations.map { $0.map(LocationKey.init(string:)) },
                               categories: file.categories.map { $0?.code ?? ListingCategory.noneCode },
                               areas: file.areas, deposits: file.deposits, monthlyRents: file.rents)
    return (listings, file.longitudes, file.latitudes)
}
// The default mask (shared points), first publication, with a fixed, insecure test key: the
// same displayed positions (and digest) in every run.
let options = PinOptions(privacy: .displaced(PrivacyMask(key: .insecureTestKey(seed: 7))), threads: threads)

if only == "build" {
    // The listings handed over to the build (nothing else holds them), as `geocluster pins`
    // does: each column is freed once the build has used it.
    func buildOnly() throws {
        // Destructured: `try loadListings(path).listings` here draws a false "no calls to
        // throwing functions occur within 'try'" warning from the Swift 6.3 compiler.
        let (listings, _, _) = try loadListings(path)
        let t0 = now()
        let index = try PinIndex(listings: consume listings, options: options)
        print("PinIndex build \(fmt(now() - t0)) s, \(index.locationCount) locations, \(index.nodeCount) nodes, peak \(Int(peakMB())) MB (whole process, input included)")
    }
    try buildOnly()
    exit(0)
}
let (listings, longitudes, latitudes) = try loadListings(path)
print("\(path): \(listings.count) listings; peak while reading \(Int(peakMB())) MB")
if only == "digest" {
    // A fingerprint of the pins at every zoom (ids and counts), to check that a faster build
    // gives the same index.
    // Pins are taken in id order (the order a query returns them in is not part of the
    // contract): id, count, position, box, expansion zoom and medians.
    let index = try PinIndex(listings: listings, options: options)
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for z in 0...22 {
        for p in try index.pins(zoom: Double(z)).sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
            let words = [p.id.rawValue, UInt64(p.count), UInt64(z), p.longitude.bitPattern, p.latitude.bitPattern,
                         p.bbox.minLongitude.bitPattern, p.bbox.maxLatitude.bitPattern, UInt64(bitPattern: Int64(p.expansionZoom ?? -1)),
                         (p.medianDeposit ?? -1).bitPattern, (p.medianMonthlyRent ?? -1).bitPattern]
            for w in words { h = (h ^ w) &* 0x100_0000_01b3 }
        }
    }
    print("digest \(String(h, radix: 16)), nodes \(index.nodeCount)")
    exit(0)
}
if only == "filtered" {
    // The filtered query of the whole city at zoom 8, repeated (for a profiler).
    let index = try PinIndex(listings: listings, options: options)
    let filter = AttributeFilter(categories: [0, 2], deposit: ValueRange(lower: 1000, upper: 40000))
    var times: [Double] = []
    for _ in 0..<40 { let t0 = now(); _ = try index.pins(zoom: 8, bbox: nil, filter: filter); times.append(now() - t0) }
    print("filtered zoom 8, whole city: median \(ms(median(times))) ms, min \(ms(times.min()!)) ms")
    exit(0)
}
let xy = try PointFile.read(path: path, prefer: .xy)
let points = try PointSet(xs: xy.coordinates.xOrLongitude, ys: xy.coordinates.yOrLatitude)
if only == "hdbscan" {
    let t0 = now()
    let r = try HDBSCAN.fit(points, parameters: HDBSCANParameters(minClusterSize: 15), threads: threads, keeping: [])
    print("HDBSCAN.fit \(fmt(now() - t0)) s, \(r.selectedClusters.count) clusters, peak \(Int(peakMB())) MB")
    exit(0)
}

/// pysupercluster (pip package pysupercluster-problematy, C++ from Python) building its index
/// of the same points, zooms 0–16 with supercluster's defaults, in a Python process of its own
/// (reading excluded): the build time it prints, or why it could not (not installed).
let pythonScript = """
    import sys, time
    try:
        import numpy as np, pysupercluster
    except ImportError as error:
        print(f"unavailable: {error}; pip install wheel && pip install --no-build-isolation pysupercluster-problematy"); sys.exit(0)
    header = [h.strip().lower() for h in open(sys.argv[1]).readline().split(",")]
    points = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=[header.index("lon"), header.index("lat")])
    start = time.perf_counter()
    pysupercluster.SuperCluster(points, min_zoom=0, max_zoom=16, radius=40, extent=512)
    print(f"build {time.perf_counter() - start:.6f}")
    """
func pysuperclusterBuild(_ path: String) -> (seconds: Double?, message: String) {
    let script = "/tmp/pins-bench-pysupercluster-\(getpid()).py"
    guard let f = fopen(script, "w") else { return (nil, "cannot write \(script)") }
    fputs(pythonScript, f); fclose(f)
    defer { unlink(script) }
    guard let pipe = popen("python3 \(script) '\(path)' 2>&1", "r") else { return (nil, "cannot start python3") }
    var output = ""
    var line = [CChar](repeating: 0, count: 4096)
    while fgets(&line, 4096, pipe) != nil { output += String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    pclose(pipe)
    let last = output.split(separator: "\n").last.map(String.init) ?? "no output from python3"
    return last.hasPrefix("build ") ? (Double(last.dropFirst(6)), last) : (nil, last)
}

var build: [Double] = [], fit: [Double] = [], sc: [Double] = [], py: [Double] = []
var pyMessage = ""
var index: PinIndex? = nil
for round in 0..<rounds {
    var t0 = now()
    index = nil
    index = try PinIndex(listings: listings, options: options)
    build.append(now() - t0)
    t0 = now()
    _ = try HDBSCAN.fit(points, parameters: HDBSCANParameters(minClusterSize: 15), threads: threads, keeping: [])
    fit.append(now() - t0)
    t0 = now()
    _ = try Supercluster(longitudes: longitudes, latitudes: latitudes)
    sc.append(now() - t0)
    let p = pysuperclusterBuild(path)
    if let seconds = p.seconds { py.append(seconds) } else { pyMessage = p.message }
    print("round \(round + 1): PinIndex \(fmt(build[round])) s, HDBSCAN.fit \(fmt(fit[round])) s, supercluster \(fmt(sc[round])) s, "
          + "pysupercluster \(p.seconds.map { fmt($0) + " s" } ?? p.message); PinIndex/HDBSCAN \(fmt(build[round] / fit[round], 2))"
          + (p.seconds.map { ", supercluster/pysupercluster \(fmt(sc[round] / $0, 2))" } ?? ""))
}
print("median: PinIndex build \(fmt(median(build))) s, HDBSCAN.fit (min_cluster_size 15) \(fmt(median(fit))) s, supercluster (zooms 0-16) \(fmt(median(sc))) s, "
      + "pysupercluster (zooms 0-16) \(py.isEmpty ? pyMessage : fmt(median(py)) + " s"); ratio of medians PinIndex/HDBSCAN \(fmt(median(build) / median(fit), 2)), "
      + "median of per-round ratios \(fmt(median(zip(build, fit).map { $0 / $1 }), 2))"
      + (py.count == rounds ? ", PinIndex/pysupercluster \(fmt(median(zip(build, py).map { $0 / $1 }), 2)), supercluster/pysupercluster \(fmt(median(zip(sc, py).map { $0 / $1 }), 2))" : ""))

// Queries: phone viewports (390 × 844 pt) centred on random listings, per zoom.
let pins = index!
var g = SplitMix64(seed: 1)
var out: [Pin] = []
let filter = AttributeFilter(categories: [0, 2], deposit: ValueRange(lower: 1000, upper: 40000))
print("zoom  pins/viewport  p50 ms  p99 ms  filtered p50 ms  p99 ms  overlap")
for z in [8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 22] {
    var times: [Double] = [], filtered: [Double] = [], count = 0
    let n = 400
    for _ in 0..<n {
        let i = Int(g.next() % UInt64(listings.count))
        let lat = latitudes[i], lon = longitudes[i]
        let mpp = WebMercator.metresPerPixel(zoom: Double(z), latitude: lat)
        let m = WebMercator.metresPerDegree(latitude: lat)
        let halfW = 195 * mpp / m.longitude, halfH = 422 * mpp / m.latitude
        let box = BoundingBox(minLongitude: lon - halfW, minLatitude: lat - halfH, maxLongitude: lon + halfW, maxLatitude: lat + halfH)
        var t = now(); try pins.pins(zoom: Double(z), bbox: box, filter: nil, into: &out); times.append(now() - t); count += out.count
        t = now(); try pins.pins(zoom: Double(z), bbox: box, filter: filter, into: &out); filtered.append(now() - t)
    }
    times.sort(); filtered.sort()
    let p99 = n * 99 / 100
    print("\(z)".padding(6) + "\(count / n)".padding(15) + ms(times[n / 2]).padding(8) + ms(times[p99]).padding(8)
          + ms(filtered[n / 2]).padding(17) + ms(filtered[p99]).padding(8) + fmt(try pins.overlapRate(zoom: z), 4))
}

struct SplitMix64 { var s: UInt64; init(seed: UInt64) { s = seed }
    mutating func next() -> UInt64 { s &+= 0x9E37_79B9_7F4A_7C15; var z = s; z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9; z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB; return z ^ (z >> 31) } }
extension String { func padding(_ w: Int) -> String { count >= w ? self + " " : self + String(repeating: " ", count: w - count) } }

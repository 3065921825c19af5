import ArgumentParser
import Datasets
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Harness
import Pins

/// What one implementation's process of the pin comparison reports (`pins-cell`, and
/// scripts/peers/peer_cell.py with `--pins-zooms`): the same JSON from both.
struct PinsCellReport: Codable {
    struct Zoom: Codable {
        var zoom: Int
        /// Pins at the zoom over the whole dataset (as many rows as the pins file has there).
        var pins: Int?
        /// Pins returned by all the zoom's viewport queries together.
        var viewport_pins: Int
        /// Each viewport query's time, seconds (empty: the implementation has no query).
        var query_seconds: [Double]
        /// This zoom's own build time (grid), seconds.
        var build_seconds: Double?
    }

    var status: String
    var error: String?
    var version: String?
    var settings: String?
    var points: Int?
    var read_seconds: Double?
    /// The whole index, every zoom at once (nil for grid: per zoom).
    var build_seconds: Double?
    /// VmHWM after reading, building and the viewport queries, MB.
    var peak_mb: Double?
    var zooms: [Zoom]?
}

/// `geocluster pins-cell`: one implementation of `bench --pins-zooms` in a process of its own,
/// so its build time, query times and peak memory are its own. Reads the listing file and the
/// viewports, builds, queries every viewport of every zoom (each timed), reads its peak memory,
/// then writes every pin of every zoom (`--pins`: zoom,longitude,latitude,count) and each
/// row's pin number per zoom (`--labels`: little-endian Int32, one block of n per zoom in zoom
/// order) for the parent to score, and the report (`--report`, JSON, `PinsCellReport`).
/// Not for users: hidden from help.
struct PinsCellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pins-cell",
        abstract: "Run one implementation of the map-pin comparison (used by `geocluster bench --pins-zooms`).",
        shouldDisplay: false
    )

    @Argument var input: String
    @Option var implementation: String
    @Option(transform: ZoomRange.parse) var zooms: ZoomRange
    @Option var viewports: String
    @Option var seed: UInt64
    @Option var pins: String
    @Option var labels: String
    @Option var report: String

    static let implementations = ["pinindex", "supercluster", "grid"]

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func run() throws {
        Geocluster.keepFreedMemoryForPins()
        var r = PinsCellReport(status: "ok", version: Geocluster.version)
        var failure: String?
        do {
            try measure(&r)
        } catch let e as PinError {
            failure = "\(e)"
        } catch let e as DatasetError {
            failure = "\(e)"
        } catch {
            failure = "\(error)"
        }
        if let failure { r.status = "error"; r.error = failure }
        if r.peak_mb == nil { r.peak_mb = StageClock.peakResidentMegabytes() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(r), as: UTF8.self)
        do { try AtomicFile.write(json + "\n", to: report) } catch { throw fail(error) }
        if failure != nil { throw ExitCode(1) }
    }

    private func measure(_ r: inout PinsCellReport) throws {
        guard Self.implementations.contains(implementation) else {
            throw ValidationError("--implementation must be one of \(Self.implementations.joined(separator: ", "))")
        }
        var t0 = Self.now()
        var file = try ListingFile.read(path: input, locationColumn: "building_id", required: false)
        r.read_seconds = Self.now() - t0
        let n = file.count
        r.points = n
        let boxes = try PinsComparison.readViewports(viewports)
        var entries: [PinsCellReport.Zoom] = []
        // Written after the peak is read: (zoom, pins as longitude, latitude, count; each row's pin).
        var output: [(zoom: Int, write: () throws -> ([(Double, Double, Int)], [Int32]))] = []

        switch implementation {
        case "pinindex":
            r.settings = "PinIndex: privacy mask (seed \(seed)), then pins cut from one single-linkage hierarchy; radius 40 px, discs 25–50 pt"
            var source = PinSource(file: consume file, idsAreRows: true)
            t0 = Self.now()
            let index = try PinIndex(listings: source.takeListings(), options: PinOptions(privacy: .displaced(try PrivacyMask(seed: seed))))
            r.build_seconds = Self.now() - t0
            var out: [Pin] = []
            for z in zooms.zooms {
                var times: [Double] = [], seen = 0
                for box in boxes[z] ?? [] {
                    let t = Self.now()
                    try index.pins(zoom: Double(z), bbox: box, filter: nil, into: &out)
                    times.append(Self.now() - t)
                    seen += out.count
                }
                entries.append(.init(zoom: z, viewport_pins: seen, query_seconds: times))
                output.append((z, {
                    let all = try index.pins(zoom: Double(z))
                    var labels = [Int32](repeating: -1, count: n)
                    for (k, pin) in all.enumerated() {
                        var cursor: PinCursor? = nil
                        repeat {
                            let page = try index.leaves(of: pin.id, limit: 4096, cursor: cursor)
                            for leaf in page.leaves { labels[Int(leaf.id)] = Int32(k) }
                            cursor = page.next
                        } while cursor != nil
                    }
                    return (all.map { ($0.longitude, $0.latitude, $0.count) }, labels)
                }))
            }
        case "supercluster":
            let options = SuperclusterOptions()
            r.settings = "supercluster baseline (Pins, Swift): radius \(Int(options.radius)) px of \(Int(options.extent))-px tiles, zooms \(options.minZoom)-\(options.maxZoom), true positions"
            let longitudes = file.longitudes, latitudes = file.latitudes
            file.release()
            t0 = Self.now()
            let index = try Supercluster(longitudes: longitudes, latitudes: latitudes, options: options)
            r.build_seconds = Self.now() - t0
            for z in zooms.zooms {
                var times: [Double] = [], seen = 0
                for box in boxes[z] ?? [] {
                    let t = Self.now()
                    let found = index.clusters(bbox: box, zoom: z)
                    times.append(Self.now() - t)
                    seen += found.count
                }
                entries.append(.init(zoom: z, viewport_pins: seen, query_seconds: times))
                output.append((z, { (index.clusters(zoom: z).map { ($0.longitude, $0.latitude, $0.count) }, index.assignment(zoom: z)) }))
            }
        default:  // grid
            r.settings = "grid: one pin per occupied 40-pixel cell (256-px tiles) at its centroid, true positions; no query index"
            let longitudes = file.longitudes, latitudes = file.latitudes
            file.release()
            for z in zooms.zooms {
                t0 = Self.now()
                let world = 256 * Double(1 << z)
                var cellOf: [UInt64: Int32] = [:]
                var sumX: [Double] = [], sumY: [Double] = [], count: [Int] = []
                var labels = [Int32](repeating: 0, count: n)
                for i in 0..<n {
                    let x = WebMercator.x(longitude: longitudes[i]) * world, y = WebMercator.y(latitude: latitudes[i]) * world
                    let key = (UInt64(x / 40) << 32) | UInt64(y / 40)
                    let c: Int32
                    if let found = cellOf[key] { c = found } else {
                        c = Int32(count.count); cellOf[key] = c
                        sumX.append(0); sumY.append(0); count.append(0)
                    }
                    sumX[Int(c)] += x; sumY[Int(c)] += y; count[Int(c)] += 1
                    labels[i] = c
                }
                let build = Self.now() - t0
                let pins = (0..<count.count).map { k in
                    (WebMercator.longitude(x: sumX[k] / Double(count[k]) / world), WebMercator.latitude(y: sumY[k] / Double(count[k]) / world), count[k])
                }
                var seen = 0
                for box in boxes[z] ?? [] { seen += pins.filter { box.contains(longitude: $0.0, latitude: $0.1) }.count }
                entries.append(.init(zoom: z, viewport_pins: seen, query_seconds: [], build_seconds: build))
                output.append((z, { (pins, labels) }))
            }
        }
        r.peak_mb = StageClock.peakResidentMegabytes()

        guard let pinsFile = fopen(pins, "w"), let labelsFile = fopen(labels, "w") else {
            throw ValidationError("cannot write \(pins) or \(labels)")
        }
        defer { fclose(pinsFile); fclose(labelsFile) }
        fputs("zoom,longitude,latitude,count\n", pinsFile)
        for (k, item) in output.enumerated() {
            let (pinRows, rowLabels) = try item.write()
            var text = ""
            for p in pinRows { text += "\(item.zoom),\(cFormat("%.9f", p.0)),\(cFormat("%.9f", p.1)),\(p.2)\n" }
            fputs(text, pinsFile)
            rowLabels.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, labelsFile) }
            entries[k].pins = pinRows.count
        }
        r.zooms = entries
    }
}

extension ListingFile {
    /// Drops every column (the caller has taken the ones it needs).
    mutating func release() {
        ids = []; longitudes = []; latitudes = []; categories = []; areas = []; deposits = []; rents = []; locations = nil
    }
}

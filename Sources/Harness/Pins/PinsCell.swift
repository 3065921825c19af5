#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Datasets
import Pins

/// One implementation of the map-pin comparison in a process of its own (`geocluster
/// pins-cell`), so that its build time, query times and peak memory are its own. Reads the
/// listing file and the viewports, builds, queries every viewport of every zoom (each timed),
/// reads its peak memory, then writes every pin of every zoom (`pins`: zoom,longitude,latitude,
/// count) and each row's pin number per zoom (`labels`: little-endian Int32, one block of n
/// per zoom in zoom order) for the parent to score, and the report (JSON, `PinsCellReport`).
public enum PinsCell {
    /// The implementations a pins cell runs (the comparison adds pysupercluster, run by Python).
    public static let implementations = ["pinindex", "supercluster", "grid"]


    /// A zoom's pins (longitude, latitude, count) and each row's pin, made after the peak is read.
    typealias Output = (zoom: Int, make: () throws -> ([(Double, Double, Int)], [Int32]))

    /// Runs the cell and writes its report; a failure is written into the report (status
    /// `error`) rather than thrown.
    /// - Returns: the report written.
    /// - Throws: only when the report itself cannot be written (`DatasetError`).
    @discardableResult
    public static func run(_ request: PinsCellRequest) throws -> PinsCellReport {
        let r = measure(request)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(r), as: UTF8.self)
        try AtomicFile.write(json + "\n", to: request.report)
        return r
    }

    /// The cell's work and its report, failures included (status `error`).
    public static func measure(_ request: PinsCellRequest) -> PinsCellReport {
        var r = PinsCellReport(status: "ok", version: request.version)
        do {
            try measure(request, into: &r)
        } catch {
            r.status = "error"
            r.error = "\(error)"
        }
        if r.peak_mb == nil { r.peak_mb = StageClock.peakResidentMegabytes() }
        return r
    }

    static func measure(_ q: PinsCellRequest, into r: inout PinsCellReport) throws {
        guard implementations.contains(q.implementation) else {
            throw HarnessError.bench("--implementation must be one of \(implementations.joined(separator: ", "))")
        }
        let t0 = StageClock.now()
        let file = try ListingFile.read(path: q.input, locationColumn: "building_id", required: false)
        r.read_seconds = StageClock.now() - t0
        r.points = file.count
        let boxes = try PinsComparison.readViewports(q.viewports)
        var entries: [PinsCellReport.Zoom] = []
        let output: [Output]
        switch q.implementation {
        case "pinindex": output = try pinIndex(consume file, q, boxes, &r, &entries)
        case "supercluster": output = try supercluster(consume file, q, boxes, &r, &entries)
        default: output = grid(consume file, q, boxes, &r, &entries)
        }
        r.peak_mb = StageClock.peakResidentMegabytes()
        try write(output, pins: q.pins, labels: q.labels, entries: &entries)
        r.zooms = entries
    }

    /// The PinIndex: privacy mask, one hierarchy, viewport queries per zoom.
    static func pinIndex(_ file: consuming ListingFile, _ q: PinsCellRequest, _ boxes: [Int: [BoundingBox]],
                         _ r: inout PinsCellReport, _ entries: inout [PinsCellReport.Zoom]) throws -> [Output] {
        guard let key = q.key else { throw HarnessError.bench("the PinIndex cell masks the listings: give it the key (--key-file FILE or GEOCLUSTER_PINS_KEY)") }
        let mask = try PrivacyMask.benchAnnulus(key: key)
        let options = PinOptions(privacy: .displaced(mask), discSizing: q.discSizing)
        r.settings = "PinIndex: privacy mask (\(FormatNumber.trimmed(mask.minDistance, decimals: 1))–\(FormatNumber.trimmed(mask.maxDistance, decimals: 1)) m), then pins cut from one single-linkage hierarchy; radius \(FormatNumber.trimmed(options.radius, decimals: 1)) px, discs \(FormatNumber.trimmed(options.minDiameter, decimals: 1))–\(FormatNumber.trimmed(options.maxDiameter, decimals: 1)) pt sized by \(options.discSizing.rawValue)"
        let n = file.count
        var source = PinSource(file: consume file, idsAreRows: true)
        let t0 = StageClock.now()
        let index = try PinIndex(listings: source.takeListings(), options: options)
        r.build_seconds = StageClock.now() - t0
        var out: [Pin] = [], output: [Output] = []
        for z in q.zooms {
            var times: [Double] = [], seen = 0
            for box in boxes[z] ?? [] {
                let t = StageClock.now()
                try index.pins(zoom: Double(z), bbox: box, filter: nil, into: &out)
                times.append(StageClock.now() - t)
                seen += out.count
            }
            entries.append(.init(zoom: z, viewport_pins: seen, query_seconds: times))
            output.append((z, {
                let (all, labels) = try index.rowLabels(zoom: z, count: n)
                return (all.map { ($0.longitude, $0.latitude, $0.count) }, labels)
            }))
        }
        return output
    }

    /// The supercluster baseline in Pins, on the positions of its input (displayed ones, in a benchmark).
    static func supercluster(_ file: consuming ListingFile, _ q: PinsCellRequest, _ boxes: [Int: [BoundingBox]],
                             _ r: inout PinsCellReport, _ entries: inout [PinsCellReport.Zoom]) throws -> [Output] {
        let options = SuperclusterOptions()
        r.settings = "supercluster baseline (Pins, Swift): radius \(Int(options.radius)) px of \(Int(options.extent))-px tiles, zooms \(options.minZoom)-\(options.maxZoom), displayed positions"
        let longitudes = file.longitudes, latitudes = file.latitudes
        file.release()
        let t0 = StageClock.now()
        let index = try Supercluster(longitudes: longitudes, latitudes: latitudes, options: options)
        r.build_seconds = StageClock.now() - t0
        var output: [Output] = []
        for z in q.zooms {
            var times: [Double] = [], seen = 0
            for box in boxes[z] ?? [] {
                let t = StageClock.now()
                let found = index.clusters(bbox: box, zoom: z)
                times.append(StageClock.now() - t)
                seen += found.count
            }
            entries.append(.init(zoom: z, viewport_pins: seen, query_seconds: times))
            output.append((z, { (index.clusters(zoom: z).map { ($0.longitude, $0.latitude, $0.count) }, index.assignment(zoom: z)) }))
        }
        return output
    }

    /// One pin per occupied 40-pixel cell at its centroid, per zoom, on the positions of its input.
    static func grid(_ file: consuming ListingFile, _ q: PinsCellRequest, _ boxes: [Int: [BoundingBox]],
                     _ r: inout PinsCellReport, _ entries: inout [PinsCellReport.Zoom]) -> [Output] {
        r.settings = "grid: one pin per occupied 40-pixel cell (256-px tiles) at its centroid, displayed positions; no query index"
        let n = file.count
        let longitudes = file.longitudes, latitudes = file.latitudes
        file.release()
        var output: [Output] = []
        for z in q.zooms {
            let t0 = StageClock.now()
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
            let build = StageClock.now() - t0
            let pins = (0..<count.count).map { k in
                (WebMercator.longitude(x: sumX[k] / Double(count[k]) / world), WebMercator.latitude(y: sumY[k] / Double(count[k]) / world), count[k])
            }
            var seen = 0
            for box in boxes[z] ?? [] { seen += pins.filter { box.contains(longitude: $0.0, latitude: $0.1) }.count }
            entries.append(.init(zoom: z, viewport_pins: seen, query_seconds: [], build_seconds: build))
            output.append((z, { (pins, labels) }))
        }
        return output
    }

    /// Writes every zoom's pins and each row's pin, and each zoom's pin count into `entries`.
    static func write(_ output: [Output], pins: String, labels: String, entries: inout [PinsCellReport.Zoom]) throws {
        guard let pinsFile = fopen(pins, "w"), let labelsFile = fopen(labels, "w") else {
            throw HarnessError.bench("cannot write \(pins) or \(labels)")
        }
        defer { fclose(pinsFile); fclose(labelsFile) }
        fputs("zoom,longitude,latitude,count\n", pinsFile)
        for (k, item) in output.enumerated() {
            let (pinRows, rowLabels) = try item.make()
            var text = ""
            for p in pinRows {
                text += "\(item.zoom),\(FormatNumber.fixed(p.0, decimals: 9)),\(FormatNumber.fixed(p.1, decimals: 9)),\(p.2)\n"
            }
            fputs(text, pinsFile)
            rowLabels.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, labelsFile) }
            entries[k].pins = pinRows.count
        }
    }
}

/// One pins cell's inputs and output files (`PinsCell.run`; the `geocluster pins-cell` options).
public struct PinsCellRequest: Sendable {
    public var input: String
    public var implementation: String
    public var zooms: ClosedRange<Int>
    /// The viewports file (`PinsComparison.viewportsCSV`).
    public var viewports: String
    /// The privacy mask's secret key (PinIndex; the baselines get none); never written into any output.
    public var key: PinsKey?
    public var pins: String
    public var labels: String
    public var report: String
    /// The version the report names.
    public var version: String
    /// How the PinIndex cuts for the discs (the baselines ignore it).
    public var discSizing: DiscSizing = .count

    public init(input: String, implementation: String, zooms: ClosedRange<Int>, viewports: String, key: PinsKey?,
                pins: String, labels: String, report: String, version: String) {
        self.input = input; self.implementation = implementation; self.zooms = zooms; self.viewports = viewports
        self.key = key; self.pins = pins; self.labels = labels; self.report = report; self.version = version
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Datasets
import ClusterMetrics
import Pins

/// `bench --pins-zooms`: map pins per zoom on one dataset, four ways — a PinIndex (privacy
/// mask first), the supercluster baseline in Pins (its defaults: radius 40 px of 512-px tiles),
/// a grid of 40-pixel cells (one pin per occupied cell at its centroid) and the
/// pysupercluster package (C++ from Python, the same defaults) — scored the same way: pins per
/// phone viewport (390 × 844 pt), ARI of the zoom's grouping against the truth column and
/// against the supercluster baseline's grouping at the zoom, overlap
/// rate of the discs drawn at 25–50 pt (the PinIndex's size rule for all), build time, viewport
/// query times and peak memory.
///
/// Each implementation runs in a process of its own through `CellProcess`, as the benchmark's
/// clustering cells do (`geocluster pins-cell`, `PinsCell`; or scripts/peers/peer_cell.py
/// `--pins-zooms` for pysupercluster), so its time and memory are its own; all get the same
/// viewports (written here, centred on random listings' displayed positions, SplitMix64 with
/// the bench seed) and the same displayed positions: no implementation sees, and no file
/// holds, a true coordinate. This process scores what they write, the same way for all.
public enum PinsComparison {
    /// Where the processes are and what they may take.
    public struct Setup: Sendable {
        /// The geocluster executable that runs `pins-cell`.
        public var executable: String
        public var python: String
        public var peerScript: String
        /// Seconds before a cell is killed.
        public var timeout: Double
        /// The seed of the viewports' generator.
        public var seed: UInt64
        /// The privacy mask's key (the displayed positions every implementation sees).
        public var key: PinsKey
        /// The pins key file the PinIndex cell reads; nil: the cell inherits the key in
        /// `GEOCLUSTER_PINS_KEY`. The key itself never goes on a command line.
        public var keyFile: String?

        public init(executable: String, python: String, peerScript: String, timeout: Double, seed: UInt64,
                    key: PinsKey, keyFile: String?) {
            self.executable = executable; self.python = python; self.peerScript = peerScript
            self.timeout = timeout; self.seed = seed; self.key = key; self.keyFile = keyFile
        }
    }

    /// What a benchmark asks of the comparison (`bench --pins-zooms`).
    public struct Request: Sendable {
        /// The zooms compared.
        public var zooms: ClosedRange<Int>
        /// The privacy mask's key; `keyFile` as in `Setup`.
        public var key: PinsKey
        public var keyFile: String?

        public init(zooms: ClosedRange<Int>, key: PinsKey, keyFile: String?) {
            self.zooms = zooms; self.key = key; self.keyFile = keyFile
        }
    }

    public static let implementations = PinsCell.implementations + ["pysupercluster"]

    /// The comparison on every dataset of a benchmark's `plan`, into the plan's work folder
    /// (`cells/DATASET/pins/`); `note` receives one line per dataset.
    public static func run(plan: BenchPlan, request: Request, timeout: Double, seed: UInt64,
                           note: (String) -> Void) throws -> [PinsRow] {
        let setup = Setup(executable: plan.executable, python: plan.python, peerScript: plan.peerScript, timeout: timeout,
                          seed: seed, key: request.key, keyFile: request.keyFile)
        let zooms = request.zooms
        var rows: [PinsRow] = []
        for d in plan.datasets {
            note("bench: map pins at zooms \(zooms.lowerBound)-\(zooms.upperBound) on \(d.name): \(implementations.joined(separator: ", ")), each in its own process")
            rows += try run(path: d.path, dataset: d.name, zooms: zooms, setup: setup, folder: plan.work + "/cells/\(d.name)/pins")
        }
        return rows
    }

    /// The comparison on the listing file `path` at `zooms`; the cells' files go to `folder`.
    /// Nothing written holds a true coordinate: the viewports are centred on displayed
    /// positions, and the baselines (supercluster, grid, pysupercluster) read
    /// `folder/displayed.csv`, every listing at its displayed position (the PinIndex cell
    /// masks the listing file itself, with the same key).
    public static func run(path: String, dataset: String, zooms: ClosedRange<Int>, setup: Setup, folder: String) throws -> [PinsRow] {
        let file = try ListingFile.read(path: path, locationColumn: "building_id", required: false)
        let count = file.count
        let truth: [Int32]? = (try? LabelFile.read(path: path, columns: ["truth"], option: "--pins-zooms"))?.labels
        let mask = try PrivacyMask.benchAnnulus(key: setup.key)
        let shown = mask.displayedPositions(of: PinSource(file: consume file, idsAreRows: true).listings)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let viewports = folder + "/viewports.csv", displayed = folder + "/displayed.csv"
        try AtomicFile.write(viewportsCSV(longitudes: shown.longitudes, latitudes: shown.latitudes, zooms: zooms, seed: setup.seed), to: viewports)
        try AtomicFile.write(displayedCSV(shown), to: displayed)
        var rows: [PinsRow] = []
        for implementation in implementations {
            let cell = ImplementationRun(dataset: dataset, implementation: implementation, zooms: zooms,
                                         folder: folder + "/" + implementation, count: count, truth: truth)
            try FileManager.default.createDirectory(atPath: cell.folder, withIntermediateDirectories: true)
            rows += cell.run(path: implementation == "pinindex" ? path : displayed, viewports: viewports, setup: setup)
        }
        scoreAgainstSupercluster(&rows, folder: folder, count: count)
        return rows
    }

    /// The implementation whose grouping `ariVsSupercluster` compares against.
    static let reference = "supercluster"

    /// Fills every finished row's `ariVsSupercluster` from the cells' labels files in `folder`
    /// (`IMPLEMENTATION/labels.i32`, one block of `count` per finished zoom, in the rows'
    /// order), reading the baseline's file once and the others' one at a time.
    static func scoreAgainstSupercluster(_ rows: inout [PinsRow], folder: String, count: Int) {
        func labels(_ implementation: String) -> [Int: [Int32]]? {
            let zooms = rows.filter { $0.implementation == implementation && $0.status == .ok }.map(\.zoom)
            guard !zooms.isEmpty,
                  let all = try? readLabels(folder + "/" + implementation + "/labels.i32", count: count, blocks: zooms.count)
            else { return nil }
            var byZoom: [Int: [Int32]] = [:]
            for (k, z) in zooms.enumerated() { byZoom[z] = Array(all[(k * count)..<((k + 1) * count)]) }
            return byZoom
        }
        guard let reference = labels(Self.reference) else { return }
        for implementation in Set(rows.map(\.implementation)).sorted() {
            guard let own = implementation == Self.reference ? reference : labels(implementation) else { continue }
            agreement(&rows, implementation: implementation, labels: own, reference: reference)
        }
    }

    /// Sets `ariVsSupercluster` of `implementation`'s finished rows: the ARI of its labels at the
    /// row's zoom against `reference`'s at the same zoom (exactly 1 for the reference itself);
    /// left nil where either has no labels for the zoom.
    static func agreement(_ rows: inout [PinsRow], implementation: String, labels: [Int: [Int32]], reference: [Int: [Int32]]) {
        for i in rows.indices where rows[i].implementation == implementation && rows[i].status == .ok {
            guard let own = labels[rows[i].zoom], let base = reference[rows[i].zoom] else { continue }
            rows[i].ariVsSupercluster = implementation == Self.reference
                ? 1 : try? ContingencyTable(truth: base, predicted: own).adjustedRandIndex()
        }
    }

    /// Every listing at its displayed position, as CSV `id,lat,lon` (id: the row).
    static func displayedCSV(_ shown: (longitudes: [Double], latitudes: [Double])) -> String {
        var text = "id,lat,lon\n"
        for i in 0..<shown.longitudes.count {
            text += "\(i),\(FormatNumber.fixed(shown.latitudes[i], decimals: 9)),\(FormatNumber.fixed(shown.longitudes[i], decimals: 9))\n"
        }
        return text
    }

    /// One implementation's cell: its process, then its rows.
    struct ImplementationRun {
        var dataset: String, implementation: String, zooms: ClosedRange<Int>, folder: String
        /// Listings in the file, and its truth column if it has one.
        var count: Int, truth: [Int32]?
        var report: String { folder + "/report.json" }
        var pins: String { folder + "/pins.csv" }
        var labels: String { folder + "/labels.i32" }

        /// Every zoom's row with the same status and error.
        func failed(_ status: RunStatus, _ error: String) -> [PinsRow] {
            zooms.map { PinsRow(dataset: dataset, implementation: implementation, zoom: $0, status: status, error: error) }
        }

        /// The process's executable and arguments (nil: the peer script is missing).
        func command(path: String, viewports: String, setup: Setup) -> (String, [String])? {
            let zoomText = "\(zooms.lowerBound)-\(zooms.upperBound)"
            guard implementation == "pysupercluster" else {
                return (setup.executable, ["pins-cell", path, "--implementation", implementation, "--zooms", zoomText,
                                           "--viewports", viewports, "--pins", pins, "--labels", labels, "--report", report]
                                          + (implementation == "pinindex" ? setup.keyFile.map { ["--key-file", $0] } ?? [] : []))
            }
            guard FileManager.default.fileExists(atPath: setup.peerScript) else { return nil }
            return (setup.python, [setup.peerScript, "--peer", "supercluster", "--input", path, "--pins-zooms", zoomText,
                                   "--viewports", viewports, "--pins", pins, "--labels", labels, "--report", report])
        }

        /// Runs the cell's process and scores what it wrote.
        func run(path: String, viewports: String, setup: Setup) -> [PinsRow] {
            guard let (executable, arguments) = command(path: path, viewports: viewports, setup: setup) else {
                return failed(.unavailable, "\(setup.peerScript) not found: run from the geocluster checkout or give --peer-script")
            }
            // Only the PinIndex cell gets the key (its file's path, or the inherited variable):
            // the baselines see displayed positions and run without it.
            let environment = implementation == "pinindex" ? [:] : [PinsKeyFile.environmentVariable: ""]
            let outcome = CellProcess.run(executable: Bench.resolve(executable), arguments: arguments, timeout: setup.timeout,
                                          stdoutPath: folder + "/stdout.txt", stderrPath: folder + "/stderr.txt",
                                          environment: environment)
            let lastLine = outcome.stderrTail.split(separator: "\n").last.map(String.init) ?? ""
            switch outcome.exit {
            case .timedOut: return failed(.timeout, "killed after the \(FormatNumber.printf("%g", setup.timeout)) s timeout")
            case let .signalled(signal):
                return failed(.crashed, "ended by signal \(signal)" + (signal == 9 ? " (SIGKILL: out of memory?)" : ""))
            case let .notStarted(reason):
                return failed(implementation == "pysupercluster" ? .unavailable : .error, "could not start: \(reason)")
            case .exited: break
            }
            guard let data = FileManager.default.contents(atPath: report),
                  let r = try? JSONDecoder().decode(PinsCellReport.self, from: data) else {
                return failed(.error, "no report" + (lastLine.isEmpty ? "" : ": \(lastLine)"))
            }
            guard r.status == "ok", let entries = r.zooms else {
                return failed(RunStatus(rawValue: r.status) ?? .error, r.error ?? "status \(r.status)")
            }
            do {
                return try score(r, entries)
            } catch {
                return failed(.error, "\(error)")
            }
        }

        /// The rows of a finished cell, scored from its pins and labels files.
        func score(_ r: PinsCellReport, _ entries: [PinsCellReport.Zoom]) throws -> [PinsRow] {
            let pinsByZoom = try readPins(pins)
            let labels = try readLabels(self.labels, count: count, blocks: entries.count)
            let n = count
            var rows: [PinsRow] = []
            for (k, e) in entries.enumerated() {
                var row = PinsRow(dataset: dataset, implementation: implementation, version: r.version ?? "", zoom: e.zoom)
                let drawn = pinsByZoom[e.zoom] ?? ([], [], [])
                row.pins = drawn.0.count
                row.pinsPerViewport = Double(e.viewport_pins) / Double(PinsRow.viewportsPerZoom)
                if let truth, truth.count == n {
                    row.ari = try? ContingencyTable(truth: truth, predicted: Array(labels[(k * n)..<((k + 1) * n)])).adjustedRandIndex()
                }
                let sizes = PinOptions(privacy: .disabled)
                row.overlap = PinOverlap.rate(longitudes: drawn.0, latitudes: drawn.1, diameters: drawn.2.map { sizes.diameter(count: $0) }, zoom: e.zoom)
                row.buildSeconds = e.build_seconds ?? r.build_seconds
                if !e.query_seconds.isEmpty {
                    row.queryP50 = percentile(e.query_seconds, 0.5)
                    row.queryP99 = percentile(e.query_seconds, 0.99)
                }
                row.peakMegabytes = r.peak_mb
                rows.append(row)
            }
            return rows
        }
    }

    /// `percentile` of `values` (nearest rank, as the benchmark's other percentiles).
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let s = values.sorted()
        return s[min(s.count - 1, Int(Double(s.count) * p))]
    }

    /// Phone viewports (390 × 844 pt at the zoom) centred on listings drawn by SplitMix64(seed),
    /// `PinsRow.viewportsPerZoom` per zoom, as CSV `zoom,min_lon,min_lat,max_lon,max_lat`.
    public static func viewportsCSV(longitudes: [Double], latitudes: [Double], zooms: ClosedRange<Int>, seed: UInt64) -> String {
        var g = SplitMix64(seed: seed)
        var text = "zoom,min_lon,min_lat,max_lon,max_lat\n"
        func f(_ v: Double) -> String { FormatNumber.fixed(v, decimals: 9) }
        for z in zooms {
            for _ in 0..<PinsRow.viewportsPerZoom {
                let i = Int(g.next() % UInt64(longitudes.count))
                let lat = latitudes[i], lon = longitudes[i]
                let mpp = WebMercator.metresPerPixel(zoom: Double(z), latitude: lat)
                let m = WebMercator.metresPerDegree(latitude: lat)
                let w = min(195 * mpp / m.longitude, 179), h = 422 * mpp / m.latitude
                text += "\(z),\(f(max(lon - w, -180))),\(f(max(lat - h, -85))),\(f(min(lon + w, 180))),\(f(min(lat + h, 85)))\n"
            }
        }
        return text
    }

    /// The viewports of `viewportsCSV`, by zoom.
    public static func readViewports(_ path: String) throws -> [Int: [BoundingBox]] {
        var out: [Int: [BoundingBox]] = [:]
        for fields in try lines(path) {
            guard fields.count == 5, let z = Int(fields[0]), let a = Double(fields[1]), let b = Double(fields[2]),
                  let c = Double(fields[3]), let d = Double(fields[4]) else {
                throw HarnessError.bench("\(path): a line is not zoom,min_lon,min_lat,max_lon,max_lat")
            }
            out[z, default: []].append(BoundingBox(minLongitude: a, minLatitude: b, maxLongitude: c, maxLatitude: d))
        }
        return out
    }

    /// A cell's pins file, by zoom: longitudes, latitudes, counts.
    static func readPins(_ path: String) throws -> [Int: ([Double], [Double], [Int])] {
        var out: [Int: ([Double], [Double], [Int])] = [:]
        for fields in try lines(path) {
            guard fields.count == 4, let z = Int(fields[0]), let lon = Double(fields[1]), let lat = Double(fields[2]),
                  let c = Double(fields[3]) else { throw HarnessError.bench("\(path): a line is not zoom,longitude,latitude,count") }
            out[z, default: ([], [], [])].0.append(lon)
            out[z]!.1.append(lat)
            out[z]!.2.append(Int(c))
        }
        return out
    }

    /// A cell's labels file: `blocks` × `count` little-endian Int32.
    static func readLabels(_ path: String, count: Int, blocks: Int) throws -> [Int32] {
        guard let data = FileManager.default.contents(atPath: path), data.count == count * blocks * 4 else {
            throw HarnessError.bench("\(path): expected \(blocks) blocks of \(count) Int32 labels")
        }
        return data.withUnsafeBytes { raw in (0..<(count * blocks)).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self)) } }
    }

    /// The comma-separated fields of every line after the header.
    static func lines(_ path: String) throws -> [[Substring]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw HarnessError.bench("\(path): cannot read it") }
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    }
}

extension PrivacyMask {
    /// The mask of the bench's pins comparison: the plain 30–80 m annulus, which shows every
    /// listing, so that every implementation clusters the same listings. A bench report is the
    /// operator's own (its clustering maps draw true positions); what a publication gets is
    /// the shared-point default of `geocluster pins`.
    static func benchAnnulus(key: PinsKey) throws -> PrivacyMask {
        try PrivacyMask.weakAnnulus(key: key)
    }
}

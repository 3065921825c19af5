import ClusterCore
import Datasets
import Harness

/// One column of a benchmark table: its name, unit, which direction is better, what it means,
/// and how a row fills it. The CSV header, `reports/README.md` and the reader used by
/// `--resume` all come from these lists, so a column never changes meaning between them.
public struct TableColumn<Row>: Sendable {
    public enum Better: String, Sendable { case higher, lower, none = "–" }
    public var name: String
    public var unit: String
    public var better: Better
    public var meaning: String
    let value: @Sendable (Row) -> Cell

    /// A cell's content: text (neutralised for spreadsheets), a number, or empty.
    public enum Cell: Equatable, Sendable {
        case text(String)
        case number(Double, decimals: Int?)
        case integer(Int)
        case empty
    }

    init(_ name: String, _ unit: String, _ better: Better, _ meaning: String, _ value: @escaping @Sendable (Row) -> Cell) {
        self.name = name; self.unit = unit; self.better = better; self.meaning = meaning; self.value = value
    }
}

/// The benchmark's CSV tables: `runs.csv` (one row per repeat) and `summary.csv` (one row per
/// dataset × implementation × method × parameters).
public enum BenchTables {
    typealias RunColumn = TableColumn<RunRow>
    typealias SummaryColumn = TableColumn<SummaryRow>

    static func number(_ v: Double?, _ decimals: Int? = nil) -> TableColumn<RunRow>.Cell {
        v.map { .number($0, decimals: decimals) } ?? .empty
    }
    static func integer(_ v: Int?) -> TableColumn<RunRow>.Cell { v.map { .integer($0) } ?? .empty }
    static func summaryNumber(_ v: Double?, _ decimals: Int? = nil) -> TableColumn<SummaryRow>.Cell {
        v.map { .number($0, decimals: decimals) } ?? .empty
    }

    /// Every stage a run can report, in pipeline order, with its column name.
    public static let stages: [(stage: String, column: String)] = {
        var names = [RunStage.reading.rawValue, RunStage.projecting.rawValue]
        names += HDBSCANStage.allCases.map(\.rawValue)
        for s in DBSCANStage.allCases.map(\.rawValue) + GridStage.allCases.map(\.rawValue) where !names.contains(s) {
            names.append(s)
        }
        names.append(RunStage.writing.rawValue)
        return names.map { ($0, $0.lowercased().replacing(" ", with: "_") + "_s") }
    }()

    static let stageMeaning: [String: String] = [
        "reading": "reading (and filtering) the input file",
        "projecting": "projecting longitude/latitude with PROJ (0 for x,y input)",
        "index": "HDBSCAN: grouping co-located points into locations (when enough share coordinates) and building the k-d tree",
        "core distances": "HDBSCAN: each point's core distance (k nearest neighbours)",
        "MST": "HDBSCAN: the mutual-reachability minimum spanning tree (Borůvka)",
        "linkage": "HDBSCAN: the single-linkage tree (Kruskal with union-find)",
        "condense": "HDBSCAN: the condensed tree",
        "select": "HDBSCAN: cluster selection (excess of mass or leaf)",
        "label": "HDBSCAN: labels, probabilities and outlier scores",
        "grid": "DBSCAN: sorting points into cells of side eps/√2; grid clustering: the whole clustering",
        "core points": "DBSCAN: finding core points",
        "clusters": "DBSCAN: joining core points into clusters",
        "border points": "DBSCAN: assigning border points",
        "writing": "writing the labels file",
    ]

    /// The columns of `runs.csv`, in order.
    public static let runColumns: [TableColumn<RunRow>] = {
        var c: [RunColumn] = [
            .init("dataset", "", .none, "dataset name: SCENARIO-SIZE for a generated scenario, the file name for --input", { .text($0.dataset) }),
            .init("scenario", "", .none, "the generated scenario the dataset is one size of (seoul, or seoul-filtered with filters); empty for an --input file. The scaling plot and the time-budget table fit a line only across the sizes of one scenario", { .text($0.scenario) }),
            .init("points", "points", .none, "points clustered", { .integer($0.points) }),
            .init("dataset_hash", "", .none, "SHA-256 of the dataset file's bytes (first 16 hex digits)", { .text($0.datasetHash) }),
            .init("has_truth", "", .none, "1 when the dataset has a truth column (the score columns are empty without one)", { .integer($0.hasTruth ? 1 : 0) }),
            .init("implementation", "", .none, "geocluster, or a peer: sklearn, hdbscan, fast_hdbscan, hdbscan_rs, sklearn_dbscan, supercluster, quitefastmst (the MST only: see fit_scope)", { .text($0.implementation) }),
            .init("implementation_version", "", .none, "the implementation's version (a peer's library version)", { .text($0.implementationVersion) }),
            .init("method", "", .none, "hdbscan, dbscan, grid or supercluster", { .text($0.method) }),
            .init("parameters", "", .none, "name=value pairs, sorted by name; HDBSCAN's min_samples in scikit-learn's convention (the point counts itself)", { .text($0.parameters) }),
            .init("metric", "", .none, "planar (x,y metres) or geodesic (lon/lat, great-circle metres on the sphere of radius 6371008.8 m): how the cell measured distance; peers get lon/lat on geodesic cells (scikit-learn with metric=haversine, quitefastmst on 3-D unit vectors) and the planar-only ones are skipped there; empty when the cell did not say", { .text($0.metric) }),
            .init("fit_scope", "", .none, "what fit_s covers: clustering (index to labels; a peer's whole fit()) or mst (the mutual-reachability MST alone, quitefastmst: no labels, compared with geocluster's index + core distances + MST stages, not its fit_s)", { .text($0.fitScope.rawValue) }),
            .init("repeat", "", .none, "repeat number, from 1", { .integer($0.repeatIndex) }),
            .init("status", "", .none, "ok, error, timeout, crashed (ended by a signal, e.g. out of memory), skipped, unavailable (peer not installed)", { .text($0.status.rawValue) }),
            .init("error", "", .none, "why the cell did not finish (empty when ok)", { .text($0.error) }),
        ]
        for (stage, column) in stages {
            c.append(.init(column, "s", .lower, "wall time: " + (stageMeaning[stage] ?? stage), { number($0.stages[stage]) }))
        }
        c += [
            .init("fit_s", "s", .lower, "the clustering alone: geocluster's stages from index to labels; a peer's fit()", { number($0.fitSeconds) }),
            .init("process_s", "s", .lower, "the cell's whole process from start to exit, as the parent measured it (start-up, reading and writing included)", { number($0.processSeconds) }),
            .init("peak_mb", "MB", .lower, "the cell process's own peak resident memory (VmHWM; 1 MB = 2^20 bytes)", { number($0.peakMegabytes, 1) }),
            .init("clusters", "clusters", .none, "clusters found", { integer($0.clusters) }),
            .init("noise_fraction", "", .none, "share of points labelled noise (-1)", { number($0.noiseFraction) }),
            .init("mst_weight", "m", .none, "total weight of the mutual-reachability MST the implementation built (HDBSCAN; equal for exact implementations)", { number($0.mstWeight) }),
            .init("partition_hash", "", .none, "SHA-256 of the partition, independent of label numbering (16 hex digits)", { $0.partitionHash.map { .text($0) } ?? .empty }),
            .init("ari_noise_as_cluster", "", .higher, "adjusted Rand index against truth; noise (-1) counted as one more cluster on both sides", { number($0.ari) }),
            .init("ami_noise_as_cluster", "", .higher, "adjusted mutual information against truth (arithmetic normalisation); noise as one more cluster", { number($0.ami) }),
            .init("v_measure_noise_as_cluster", "", .higher, "V-measure against truth; noise as one more cluster", { number($0.vMeasure) }),
            .init("noise_precision", "", .higher, "of the points labelled noise, the share that is truth noise", { number($0.noisePrecision) }),
            .init("noise_recall", "", .higher, "of the truth noise points, the share labelled noise", { number($0.noiseRecall) }),
            .init("ari_vs_geocluster", "", .higher, "peers: adjusted Rand index against geocluster's labels for the same dataset, method and parameters", { number($0.ariVsGeocluster) }),
            .init("relative_validity", "", .higher, "datasets without truth, geocluster's HDBSCAN: the hdbscan library's relative_validity_ (a DBCV-like score from the MST; -1 to 1)", { number($0.relativeValidity) }),
            .init("dbcv", "", .higher, "datasets without truth, geocluster's DBSCAN and grid: the DBCV index (Moulavi et al. 2014, as hdbscan.validity.validity_index; -1 to 1) on a subsample of at most \(Bench.dbcvSampleLimit) points drawn by SplitMix64 with seed \(Bench.dbcvSampleSeed) (the same points for every setting; a cluster with one sampled point counts as noise there)", { number($0.dbcv) }),
            .init("geocluster_version", "", .none, "geocluster's version", { .text($0.geoclusterVersion) }),
            .init("commit", "", .none, "geocluster's git commit (unknown outside a checkout)", { .text($0.commit) }),
            .init("binary", "", .none, "SHA-256 of the geocluster executable (16 hex digits): --resume reruns geocluster's cells when it changes", { .text($0.binary) }),
            .init("machine", "", .none, "CPU model; cores; OS; architecture", { .text($0.machine) }),
        ]
        return c
    }()

    /// The columns of `summary.csv`, in order.
    public static let summaryColumns: [TableColumn<SummaryRow>] = {
        typealias C = SummaryColumn
        func spread(_ name: String, _ unit: String, _ what: String, _ decimals: Int?, _ get: @escaping @Sendable (SummaryRow) -> Spread?) -> [C] {
            [.init(name + "_median", unit, .lower, "median over the ok repeats: " + what, { summaryNumber(get($0)?.median, decimals) }),
             .init(name + "_min", unit, .lower, "minimum over the ok repeats: " + what, { summaryNumber(get($0)?.min, decimals) }),
             .init(name + "_max", unit, .lower, "maximum over the ok repeats: " + what, { summaryNumber(get($0)?.max, decimals) })]
        }
        var c: [C] = [
            .init("dataset", "", .none, "as in runs.csv", { .text($0.dataset) }),
            .init("scenario", "", .none, "as in runs.csv", { .text($0.scenario) }),
            .init("points", "points", .none, "points clustered", { .integer($0.points) }),
            .init("dataset_hash", "", .none, "as in runs.csv", { .text($0.datasetHash) }),
            .init("implementation", "", .none, "as in runs.csv", { .text($0.implementation) }),
            .init("implementation_version", "", .none, "as in runs.csv", { .text($0.implementationVersion) }),
            .init("method", "", .none, "as in runs.csv", { .text($0.method) }),
            .init("parameters", "", .none, "as in runs.csv", { .text($0.parameters) }),
            .init("metric", "", .none, "as in runs.csv (first ok repeat)", { .text($0.metric) }),
            .init("fit_scope", "", .none, "as in runs.csv: mst rows time the MST alone, and their speed ratio is against geocluster's mst_stages_s", { .text($0.fitScope.rawValue) }),
            .init("ok_repeats", "", .higher, "repeats that finished", { .integer($0.okRepeats) }),
            .init("repeats", "", .none, "repeats run", { .integer($0.repeats) }),
            .init("status", "", .none, "ok when every repeat finished, else the first other status", { .text($0.status.rawValue) }),
            .init("error", "", .none, "the first error, timeout or crash message", { .text($0.error) }),
        ]
        c += spread("fit_s", "s", "the clustering alone (runs.csv fit_s)", nil, { $0.fitSeconds })
        c += spread("mst_stages_s", "s", "HDBSCAN's index + core distances + MST stages (runs.csv index_s + core_distances_s + mst_s; geocluster's rows): what an MST-only peer's fit_s is compared with", nil, { $0.mstStageSeconds })
        c += spread("process_s", "s", "the whole cell process (runs.csv process_s)", nil, { $0.processSeconds })
        c += spread("peak_mb", "MB", "the cell process's peak resident memory", 1, { $0.peakMegabytes })
        c += [
            .init("clusters", "clusters", .none, "clusters found (first ok repeat)", { $0.clusters.map { .integer($0) } ?? .empty }),
            .init("noise_fraction", "", .none, "share of points labelled noise", { summaryNumber($0.noiseFraction) }),
            .init("mst_weight", "m", .none, "as in runs.csv", { summaryNumber($0.mstWeight) }),
            .init("mst_equals_geocluster", "", .none, "peers with an MST: 1 when its total weight equals geocluster's within 1e-9 relative (an exact MST), 0 when not", { $0.mstMatchesGeocluster.map { .integer($0 ? 1 : 0) } ?? .empty }),
            .init("partition_hash", "", .none, "as in runs.csv", { $0.partitionHash.map { .text($0) } ?? .empty }),
            .init("ari_noise_as_cluster", "", .higher, "as in runs.csv", { summaryNumber($0.ari) }),
            .init("ami_noise_as_cluster", "", .higher, "as in runs.csv", { summaryNumber($0.ami) }),
            .init("v_measure_noise_as_cluster", "", .higher, "as in runs.csv", { summaryNumber($0.vMeasure) }),
            .init("noise_precision", "", .higher, "as in runs.csv", { summaryNumber($0.noisePrecision) }),
            .init("noise_recall", "", .higher, "as in runs.csv", { summaryNumber($0.noiseRecall) }),
            .init("speed_ratio_vs_geocluster", "×", .lower, "peers: median fit_s over geocluster's median fit_s for the same dataset, method and parameters (above 1: slower than geocluster); for fit_scope mst, over geocluster's median mst_stages_s instead", { summaryNumber($0.speedRatio) }),
            .init("ari_vs_geocluster", "", .higher, "as in runs.csv", { summaryNumber($0.ariVsGeocluster) }),
            .init("relative_validity", "", .higher, "as in runs.csv; what best_in_sweep goes by for HDBSCAN when there is no truth", { summaryNumber($0.relativeValidity) }),
            .init("dbcv", "", .higher, "as in runs.csv; what best_in_sweep goes by for DBSCAN and grid when there is no truth", { summaryNumber($0.dbcv) }),
            .init("best_in_sweep", "", .none, "1 on the parameter setting with the highest ari_noise_as_cluster among a dataset × implementation × method's settings, or without truth the highest relative_validity (HDBSCAN) or dbcv (DBSCAN, grid); only when several were run", { .integer($0.bestInSweep ? 1 : 0) }),
        ]
        return c
    }()

    /// The columns of `pins.csv` (`bench --pins-zooms`), in order.
    public static let pinsColumns: [TableColumn<PinsRow>] = {
        typealias C = TableColumn<PinsRow>
        @Sendable func n(_ v: Double?, _ d: Int? = nil) -> C.Cell { v.map { .number($0, decimals: d) } ?? .empty }
        return [
            C("dataset", "", .none, "as in runs.csv", { .text($0.dataset) }),
            C("implementation", "", .none, "pinindex (geocluster's PinIndex: privacy mask, then pins cut from one single-linkage hierarchy), supercluster (the supercluster-compatible baseline in Pins, Swift), grid (one pin per occupied 40-pixel cell at its centroid), pysupercluster (the pysupercluster-problematy package, C++ from Python); each in a process of its own", { .text($0.implementation) }),
            C("version", "", .none, "geocluster's version, or the Python package's", { .text($0.version) }),
            C("zoom", "", .none, "zoom level (256-pixel tiles)", { .integer($0.zoom) }),
            C("status", "", .none, "ok, error, timeout, crashed, unavailable (pysupercluster not installed: error says the pip command)", { .text($0.status.rawValue) }),
            C("error", "", .none, "why the implementation's process did not finish (empty when ok)", { .text($0.error) }),
            C("pins", "pins", .none, "pins at this zoom over the whole dataset", { $0.pins.map { .integer($0) } ?? .empty }),
            C("pins_per_viewport", "pins", .none, "mean pins in a 390 × 844 pt phone viewport, over \(PinsRow.viewportsPerZoom) viewports per zoom centred on random listings (the same for every implementation)", { n($0.pinsPerViewport, 1) }),
            C("ari", "", .higher, "adjusted Rand index of each listing's pin at this zoom against the truth column", { n($0.ari, 4) }),
            C("ari_vs_supercluster", "", .none, "adjusted Rand index of each listing's pin at this zoom against its pin in the supercluster baseline at the same zoom (1 for supercluster itself; empty when either did not finish): how alike the groupings are, not a quality score", { n($0.ariVsSupercluster, 4) }),
            C("overlap_rate", "", .lower, "share of this zoom's pins whose discs, drawn 25–50 pt by the square root of the count (PinIndex's rule, for every implementation), overlap another's", { n($0.overlap, 4) }),
            C("build_s", "s", .lower, "building the index, every zoom at once (pinindex, supercluster, pysupercluster), or this zoom's binning (grid)", { n($0.buildSeconds, 4) }),
            C("query_p50_ms", "ms", .lower, "median time of one viewport query at this zoom (pysupercluster: its getClusters called from Python; empty for grid)", { n($0.queryP50.map { $0 * 1e3 }, 3) }),
            C("query_p99_ms", "ms", .lower, "99th percentile of the same", { n($0.queryP99.map { $0 * 1e3 }, 3) }),
            C("peak_mb", "MB", .lower, "the implementation's own process's peak resident memory (VmHWM) after reading the file, building and the viewport queries, before the whole-dataset pins and labels are written for scoring; pysupercluster's includes the Python interpreter and numpy", { n($0.peakMegabytes, 1) }),
        ]
    }()

    /// A text cell that a spreadsheet could run as a formula (it begins with `=`, `+`, `-`,
    /// `@`, a tab or a carriage return) gets a leading apostrophe, the usual neutralisation
    /// (OWASP's CSV injection advice): spreadsheets then show it as text.
    public static func neutralised(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }

    /// Writes `rows` as CSV with `columns` (header first), atomically.
    public static func write<Row>(_ rows: [Row], columns: [TableColumn<Row>], to path: String) throws(DatasetError) {
        var out = try CSVWriter(path: path)
        try out.header(columns.map(\.name))
        for row in rows {
            for c in columns {
                switch c.value(row) {
                case let .text(t): out.field(neutralised(t))
                case let .number(v, decimals):
                    if !v.isFinite { out.field("") } else if let d = decimals { out.field(v, decimals: d) } else { out.field(v) }
                case let .integer(v): out.field(v)
                case .empty: out.field("")
                }
            }
            try out.endRow()
        }
        try out.commit()
    }

    /// `reports/README.md`: every column of both tables with its unit and direction.
    public static func columnsDocument() -> String {
        func table<Row>(_ columns: [TableColumn<Row>]) -> String {
            var t = "| column | unit | better | meaning |\n| --- | --- | --- | --- |\n"
            for c in columns { t += "| `\(c.name)` | \(c.unit.isEmpty ? "–" : c.unit) | \(c.better.rawValue) | \(c.meaning) |\n" }
            return t
        }
        return """
            # Benchmark report

            Written by `geocluster bench` (see the project README): `index.html` (open it in a
            browser; it makes no network request), `runs.csv`, `summary.csv`, `maps/` (one SVG map
            per dataset × method), `trees/` (one condensed-tree plot per HDBSCAN setting) and
            `cells/` (each cell's labels, record and output), and with `--pins-zooms` `pins.csv`
            (map pins per zoom, below). Text cells that begin with `=`, `+`,
            `-`, `@`, a tab or a carriage return are written with a leading `'` so that a
            spreadsheet shows them as text instead of running them. Empty cells mean "not
            measured" (a failed cell, a peer that does not report it, or a dataset without truth).

            ## runs.csv — one row per repeat of every cell

            \(table(runColumns))
            ## summary.csv — one row per dataset × implementation × method × parameters

            \(table(summaryColumns))
            ## pins.csv — with `--pins-zooms`: one row per dataset × implementation × zoom

            \(table(pinsColumns))
            """
    }

    /// Reads `runs.csv` back (for `--resume`). Rows it cannot read are left out: they are run
    /// again.
    public static func readRuns(path: String) -> [RunRow] {
        guard let table = try? CSV.read(path: path) else { return [] }
        let index = Dictionary(table.header.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        func text(_ row: [String], _ name: String) -> String {
            guard let i = index[name], i < row.count else { return "" }
            let t = row[i]
            return t.hasPrefix("'") ? String(t.dropFirst()) : t
        }
        func double(_ row: [String], _ name: String) -> Double? { Double(text(row, name)) }
        func int(_ row: [String], _ name: String) -> Int? { Int(text(row, name)) }
        return table.rows.compactMap { r in
            guard let status = RunStatus(rawValue: text(r, "status")), let rep = int(r, "repeat") else { return nil }
            var row = RunRow(dataset: text(r, "dataset"), points: int(r, "points") ?? 0, datasetHash: text(r, "dataset_hash"),
                             hasTruth: text(r, "has_truth") == "1", implementation: text(r, "implementation"),
                             method: text(r, "method"), parameters: text(r, "parameters"), repeatIndex: rep,
                             status: status, error: text(r, "error"))
            row.scenario = text(r, "scenario")
            row.metric = text(r, "metric")
            row.fitScope = FitScope(rawValue: text(r, "fit_scope")) ?? .clustering
            for (stage, column) in stages { if let v = double(r, column) { row.stages[stage] = v } }
            row.fitSeconds = double(r, "fit_s"); row.processSeconds = double(r, "process_s")
            row.peakMegabytes = double(r, "peak_mb"); row.clusters = int(r, "clusters")
            row.noiseFraction = double(r, "noise_fraction"); row.mstWeight = double(r, "mst_weight")
            row.partitionHash = text(r, "partition_hash").isEmpty ? nil : text(r, "partition_hash")
            row.ari = double(r, "ari_noise_as_cluster"); row.ami = double(r, "ami_noise_as_cluster")
            row.vMeasure = double(r, "v_measure_noise_as_cluster"); row.noisePrecision = double(r, "noise_precision")
            row.noiseRecall = double(r, "noise_recall"); row.ariVsGeocluster = double(r, "ari_vs_geocluster")
            row.relativeValidity = double(r, "relative_validity"); row.dbcv = double(r, "dbcv")
            row.implementationVersion = text(r, "implementation_version")
            row.geoclusterVersion = text(r, "geocluster_version"); row.commit = text(r, "commit")
            row.binary = text(r, "binary"); row.machine = text(r, "machine")
            return row
        }
    }
}

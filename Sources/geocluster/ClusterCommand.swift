import ArgumentParser
import CommandLineSupport
import Dispatch

extension CoordinateKind: ExpressibleByArgument {}

/// `geocluster cluster`: clusters the points of a CSV file and writes one label per row.
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Cluster the points of a CSV file with HDBSCAN (or DBSCAN, or a grid) and write one label per row.",
        discussion: """
            Output has one row per input row, in input order; label -1 is noise; the id column is \
            named id, or as the input names its --id-column. Probabilities are \
            scikit-learn's membership strengths, outlier scores the hdbscan library's GLOSH scores.
            --algorithm dbscan (--eps, --min-samples) writes id,label,is_core (is_core 1 or 0), \
            exactly as scikit-learn's DBSCAN (clusters numbered by their first row; as there, a border \
            point within --eps of two clusters joins the lower-numbered, so row order can move it); \
            --algorithm grid (--cell-size, --min-points, --grid-merge) writes id,label.
            The result depends only on the points and parameters: the same for any --threads and \
            for any order of the input rows (up to the numbering of clusters).
            """
    )

    @Argument(help: "Input CSV with a header: x,y (metres) or lat,lon (degrees) columns, optional id (names: see --lat-column …); or a GeoJSON FeatureCollection of Points (.geojson).")
    var input: String

    @OptionGroup(title: "Input columns")
    var inputOptions: InputOptions

    @OptionGroup(title: "Output text (--append)")
    var outputText: OutputTextOptions

    @OptionGroup
    var methodOptions: MethodOptions

    @OptionGroup
    var runOptions: RunOptions

    @Option(help: ArgumentHelp("Column (GeoJSON property) of each row's sample weight. HDBSCAN counts a row of weight w as w identical rows (whole numbers of at least 1); DBSCAN makes a point core when the weights within --eps add up to --min-samples (any number, negative too), as scikit-learn's sample_weight.", valueName: "name"))
    var weightColumn: String?

    @OptionGroup
    var featureOptions: FeatureOptions

    @Option(name: .shortAndLong, help: "Output: CSV (id,label,probability,outlier_score; dbscan id,label,is_core; grid id,label) for .csv or - (standard output), or GeoJSON Point features with those properties for .geojson or .json.")
    var output: String

    @Flag(help: "Write the input's rows (CSV) or features (GeoJSON) with the label columns added, instead of id and labels only.")
    var append = false

    @Option(help: "Also write the condensed tree as CSV: parent,child,lambda,child_size (points are 0-based rows after filters; clusters start at the point count).")
    var condensedTree: String?

    @Option(help: "Also write the MST as CSV: a,b,weight (a, b: 0-based rows of the clustered points, after filters; metres).")
    var mst: String?

    @Option(help: "Also save what prediction needs (HDBSCAN, planar or on the sphere): `geocluster predict` places new points against it without a refit. A binary file, versioned and checksummed.")
    var saveModel: String?

    @Option(help: "Keep the labels of this earlier run's label file (id,label,…) where clusters correspond: matched by shared ids, a cluster that kept most of an earlier cluster's points keeps its label, others get fresh labels.")
    var previous: String?

    @Option(parsing: .unconditional, help: "With --previous: the least fresh label (the `next label` the previous run reported), so that no label of a cluster that vanished is used again.")
    var nextLabel: Int32?

    @Option(help: "With --previous: also write what changed as CSV: change (kept, merged, split, appeared, vanished),label,previous_labels,shared,size.")
    var changes: String?

    @Flag(help: "Print the wall time of every stage and the peak memory to standard error.")
    var timings = false

    @OptionGroup(title: "Filters (rows that fail them are absent from every output)")
    var filters: FilterOptions

    func validate() throws {
        if methodOptions.algorithm != .hdbscan && (condensedTree != nil || mst != nil || saveModel != nil) {
            throw ValidationError("--condensed-tree, --mst and --save-model are HDBSCAN outputs; drop them with --algorithm \(methodOptions.algorithm.rawValue)")
        }
        if weightColumn != nil && methodOptions.algorithm == .grid {
            throw ValidationError("--weight-column is for --algorithm hdbscan and dbscan; grid clustering takes no weights")
        }
        if weightColumn != nil && saveModel != nil {
            throw ValidationError("--save-model is for unweighted fits: prediction with sample weights is not supported; drop --weight-column or --save-model")
        }
        try validateFeatures()
        try inputOptions.validate(input: input)
        try checkOutputName(output, flag: "--output", extensions: ["csv", "geojson", "json"])
        if !append && (outputText.encoding != nil || outputText.bom) {
            throw ValidationError("--output-encoding and --bom are for --append, which writes the input's rows back; the label file is UTF-8")
        }
        try outputText.validate(input: inputOptions)
        if previous == nil && (nextLabel != nil || changes != nil) {
            throw ValidationError("--next-label and --changes go with --previous (the earlier run's label file)")
        }
        if let nextLabel, nextLabel < 0 {
            throw ValidationError("--next-label \(nextLabel) is invalid: must be at least 0")
        }
        for (path, flag) in [(condensedTree, "--condensed-tree"), (mst, "--mst"), (changes, "--changes")] {
            if let path { try checkOutputName(path, flag: flag, extensions: ["csv"]) }
        }
    }

    func run() throws {
        let clock = StageClock()
        let progress = StageProgress()
        defer { progress.finish() }
        if progress.enabled { clock.starting = { progress.stage($0) } }
        try reportingErrors {
            ProcessTuning.tuneMemory(forInput: input)
            let outcome: ClusterOutcome
            do {
                outcome = try Harness.cluster(try job(), clock: clock) { record in
                    reportSkipped(record.file)
                    warnAboutCoordinates(record, inputOptions)
                    if filters.isActive { note("kept \(record.file.count) of \(record.file.totalRows) rows") }
                }
            } catch let error as HarnessError {
                throw fail(methodOptions.hdbscan.explain(error))
            }
            progress.finish()
            let record = outcome.record
            if let stable = outcome.stable, let previous { note("labels after \(previous): \(stable.summary)") }
            note("\(record.file.count) points: \(record.clusterCount) clusters, \(record.noiseCount) noise; wrote \(output)")
            if timings {
                report(clock)
                note("metric".padded(to: 20) + String(repeating: " ", count: max(0, 9 - record.metric.rawValue.count))
                     + record.metric.rawValue + (record.metricReason.map { ": \($0)" } ?? ""))
            }
        }
    }

    /// The features list against the other flags.
    private func validateFeatures() throws {
        try featureOptions.check(algorithms: [methodOptions.algorithm])
        let count = featureOptions.names.count
        if featureOptions.features != nil && saveModel != nil && count != 2 {
            throw ValidationError("--save-model keeps prediction data for points in two dimensions; --features names \(count)")
        }
    }

    /// The job the flags describe.
    private func job() throws -> ClusterJob {
        var runInput = RunInput(path: input, coordinates: runOptions.coordinates, crs: runOptions.crs, metric: runOptions.metric,
                                filter: try filters.makeFilter(), options: inputOptions.readOptions)
        runInput.options.weight = weightColumn
        runInput.options.features = featureOptions.names
        runInput.featureScale = featureOptions.effectiveScale
        // Scaled features have no metres.
        runInput.distanceOption = featureOptions.features == nil ? methodOptions.distanceOption : nil
        var job = ClusterJob(input: runInput, method: try methodOptions.method(), threads: runOptions.threads, output: output)
        job.append = append
        job.appendEncoding = outputText.encoding?.encoding
        job.byteOrderMark = outputText.byteOrderMark
        job.condensedTree = condensedTree; job.mst = mst; job.saveModel = saveModel
        job.previous = previous; job.nextLabel = nextLabel ?? 0; job.changes = changes
        return job
    }

    /// `--timings`: every stage's wall time, the total and the peak memory, on standard error.
    private func report(_ clock: StageClock) {
        func line(_ name: String, _ seconds: Double) -> String {
            name.padded(to: 20) + cFormat("%9.4f s", seconds)
        }
        for (name, seconds) in clock.stages { note(line(name, seconds)) }
        note(line("total", clock.stages.reduce(0) { $0 + $1.seconds }))
        if let peak = StageClock.peakResidentMegabytes() {
            note("peak memory".padded(to: 20) + cFormat("%9.1f MB", peak))
        }
        // How the process set up its memory (ProcessTuning.swift).
        func word(_ name: String, _ value: String) -> String {
            name.padded(to: 20) + String(repeating: " ", count: max(0, 9 - value.count)) + value
        }
        note(word("huge pages", ProcessTuning.hugePages ? "on" : "off"))
        note(word("freed memory", ProcessTuning.keepsFreedMemory(input: input) ? "kept" : "returned"))
    }
}

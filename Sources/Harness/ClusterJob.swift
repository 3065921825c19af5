import ClusterCore
import ClusterMetrics
import Datasets

/// What `geocluster cluster` does with one file: the run, the labels kept after an earlier
/// run's, and every output written whole or not at all.
public struct ClusterJob {
    public var input: RunInput
    public var method: Method
    public var threads: Int
    /// The labels: CSV or GeoJSON (by its extension), or `-` for standard output.
    public var output: String
    /// Write the input's rows with the label columns added, in this encoding and byte-order
    /// mark (nil: the input's), instead of id and labels only.
    public var append = false
    public var appendEncoding: TextEncoding?
    public var byteOrderMark: Bool?
    /// HDBSCAN's trees as CSV, and the model `geocluster predict` reads.
    public var condensedTree: String?
    public var mst: String?
    public var saveModel: String?
    /// An earlier run's label file whose labels are kept where clusters correspond, the least
    /// fresh label, and where to write what changed.
    public var previous: String?
    public var nextLabel: Int32 = 0
    public var changes: String?

    public init(input: RunInput, method: Method, threads: Int, output: String) {
        self.input = input; self.method = method; self.threads = threads; self.output = output
    }

    /// The intermediate results the outputs need.
    var keeping: HDBSCANOutputs {
        var keeping: HDBSCANOutputs = []
        if mst != nil { keeping.insert(.mst) }
        if condensedTree != nil { keeping.insert(.condensedTree) }
        if saveModel != nil { keeping.insert(.prediction) }
        return keeping
    }
}

/// A cluster job's run and, with `previous`, how its labels follow the earlier run's.
public struct ClusterOutcome {
    public let record: RunRecord
    public let stable: StableLabels?
}

extension Harness {
    /// Runs `job`: every destination checked and the earlier labels read before any work, the
    /// run, then the outputs (the `writing` stage). GeoJSON output reads the rows' longitude and
    /// latitude first, so a file without them fails before clustering.
    /// - Parameter ran: told the record once the run is done, before anything is written.
    /// - Throws: `HarnessError` from the run (the caller may explain it), `DatasetError`
    ///   naming the file, line or flag.
    public static func cluster(_ job: ClusterJob, clock: StageClock, ran: (RunRecord) -> Void = { _ in }) throws -> ClusterOutcome {
        for path in [job.output, job.condensedTree, job.mst, job.saveModel, job.changes].compactMap({ $0 }) {
            try AtomicFile.checkDestination(path)
        }
        let earlier = try job.previous.map { path throws(DatasetError) in
            try LabelFile.read(path: path, columns: ["label"], option: "--previous", idColumn: "id", requireIDColumn: true)
        }
        let positions = GeoJSON.isGeoJSONPath(job.output) && !job.append ? try outputPositions(job) : nil
        var record = try run(job.input, method: job.method, threads: job.threads, keeping: job.keeping, clock: clock)
        let stable = try earlier.map { file throws(HarnessError) in try record.relabel(after: file, nextLabel: job.nextLabel) }
        ran(record)
        try clock.run(RunStage.writing) { () throws(DatasetError) in
            try writeLabels(record, job, positions: positions)
            if let path = job.condensedTree, let t = record.hdbscan?.condensedTree { try RunRecord.writeCondensedTree(t, to: path) }
            if let path = job.mst, let m = record.hdbscan?.mst { try RunRecord.writeMST(m, to: path) }
            if let path = job.changes, let stable { try stable.writeChanges(to: path) }
        }
        if let path = job.saveModel, let model = record.hdbscan?.prediction {
            try clock.run(RunStage.writing) { () throws(HarnessError) in
                try SavedModel(model: model, projectedCRS: record.projectedCRS).write(to: path)
            }
        }
        return ClusterOutcome(record: record, stable: stable)
    }

    /// The labels file: the input's rows with the label columns (`append`), GeoJSON points at
    /// the rows' positions, or CSV.
    private static func writeLabels(_ record: RunRecord, _ job: ClusterJob, positions: PointFile?) throws(DatasetError) {
        let idName = labelIDName(record.file, given: job.input.options.id)
        if job.append {
            try record.file.writeRows(appending: record.appendedColumns, to: job.output, options: job.input.options,
                                      encoding: job.appendEncoding, byteOrderMark: job.byteOrderMark)
        } else if let positions {
            try record.writeLabelsGeoJSON(to: job.output, longitudes: positions.coordinates.xOrLongitude,
                                          latitudes: positions.coordinates.yOrLatitude, idName: idName)
        } else {
            try record.writeLabels(to: job.output, threads: job.threads, idName: idName)
        }
    }

    /// The labels' id column: the input's own name for the id column it was given (as its
    /// header spells it), else `id`.
    static func labelIDName(_ file: PointFile, given: String?) -> String {
        guard let given else { return "id" }
        let wanted = given.trimmingWhitespace().lowercased()
        return file.header.lazy.map { $0.trimmingWhitespace() }.first { $0.lowercased() == wanted } ?? given
    }

    /// The longitude/latitude of the rows a job clusters, for GeoJSON output.
    private static func outputPositions(_ job: ClusterJob) throws(DatasetError) -> PointFile {
        do {
            return try PointFile.read(path: job.input.path, prefer: .lonlat, filter: job.input.filter, options: job.input.options)
        } catch {
            guard case .missingColumns = error else { throw error }
            throw .invalidOption(option: "--output", value: job.output,
                                 reason: "GeoJSON output needs longitude/latitude, but \(job.input.path) has none (\(error)); write CSV (.csv) instead")
        }
    }
}

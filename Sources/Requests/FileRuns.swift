import Datasets
import Geo
import Harness

/// `geocluster filter`: the rows of a file that pass a filter, written as they were read.
public struct FilterRequest {
    public var input: String
    public var read: ReadOptions
    public var filter: ListingFilter?
    /// The output text's encoding and byte-order mark (nil: as the input's).
    public var encoding: TextEncoding?
    public var byteOrderMark: Bool?
    /// The file written (`-`: standard output), whole or not at all.
    public var output: String

    public init(input: String, read: ReadOptions, filter: ListingFilter?, encoding: TextEncoding?, byteOrderMark: Bool?, output: String) {
        self.input = input; self.read = read; self.filter = filter; self.encoding = encoding; self.byteOrderMark = byteOrderMark
        self.output = output
    }

    /// Reads, filters and writes.
    /// - Returns: the file read (its kept count, total rows and skipped rows).
    /// - Throws: `DatasetError` (reading, writing).
    public func run() throws(DatasetError) -> PointFile {
        try AtomicFile.checkDestination(output)
        let file = try PointFile.read(path: input, filter: filter, options: read)
        try file.writeRows(appending: [], to: output, options: read, encoding: encoding, byteOrderMark: byteOrderMark)
        return file
    }
}

/// `geocluster project`: every row of a file with projected x, y columns (metres, to the
/// millimetre) added or replaced.
public struct ProjectRequest {
    public var input: String
    public var read: ReadOptions
    /// `auto` (the data's UTM zone) or a metric CRS.
    public var crs: String
    /// `.csv`, `.tsv`, `-`, `.geojson` or `.json`, written whole or not at all.
    public var output: String

    public init(input: String, read: ReadOptions, crs: String, output: String) {
        self.input = input; self.read = read; self.crs = crs; self.output = output
    }

    /// Reads the table, projects its coordinates and writes it.
    /// - Returns: the rows written and the CRS, with its name.
    /// - Throws: `DatasetError` (reading, writing), `GeoError` (projection, located at its row).
    public func run() throws -> (rows: Int, crs: String, crsName: String) {
        var table = try InputFile.isGeoJSON(input)
            ? try GeoJSON.readTable(path: input, encoding: read.encoding)
            : try CSV.read(path: input, delimiter: read.delimiter, encoding: read.encoding, decimalComma: read.decimalComma)
        if output.lowercased().hasSuffix(".tsv") { table.delimiter = UInt8(ascii: "\t") }
        let coords = try table.coordinates(prefer: .lonlat, options: read)
        let projection = try Projection(target: Projection.Target(crs), fittingLongitudes: coords.xOrLongitude, latitudes: coords.yOrLatitude)
        let x: [Double], y: [Double]
        do {
            (x, y) = try projection.forward(lon: coords.xOrLongitude, lat: coords.yOrLatitude)
        } catch {
            throw table.locating(error, coordinates: coords, crs: projection.crs) ?? error
        }
        // Metres with millimetre precision: enough for any listing, short enough to read.
        if GeoJSON.isGeoJSONPath(output) {
            try GeoJSON.write(table, to: output, replacing: [("x", x), ("y", y)], decimals: 3, options: read)
        } else {
            try table.write(to: output, replacing: [("x", x), ("y", y)], decimals: 3)
        }
        return (table.rows.count, projection.crs, projection.crsName)
    }
}

/// `geocluster predict`: new points placed against a saved model, their labels written.
public struct PredictRequest {
    /// The model file `cluster --save-model` wrote.
    public var model: String
    public var input: RunInput
    public var threads: Int
    /// The labels' CSV (`-`: standard output), written whole or not at all.
    public var output: String

    public init(model: String, input: RunInput, threads: Int, output: String) {
        self.model = model; self.input = input; self.threads = threads; self.output = output
    }

    /// Loads the model, places the points, writes their labels; each stage timed by `clock`.
    /// - Throws: `DatasetError` (writing), `HarnessError` (the model, reading, placing).
    public func run(clock: StageClock) throws -> PredictionRecord {
        try AtomicFile.checkDestination(output)
        let saved = try clock.run(RunStage.loadingModel) { () throws(HarnessError) in try SavedModel.read(path: model, threads: threads) }
        let record = try Harness.predict(input, model: saved, modelPath: model, threads: threads, clock: clock)
        try clock.run(RunStage.writing) { () throws(DatasetError) in try record.writeLabels(to: output, threads: threads) }
        return record
    }
}

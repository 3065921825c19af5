import ArgumentParser
import CommandLineSupport

/// `geocluster predict`: new points against a model `cluster --save-model` wrote.
struct PredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Place new points in the clusters of a saved HDBSCAN model, without a refit.",
        discussion: """
            Each point joins the fitted point nearest to it by mutual reachability among its \
            2·m nearest and takes the cluster the condensed tree holds there: the hdbscan \
            library's approximate_predict (m: its min_samples of the same fit, one less than \
            --min-samples). Output has one row per input row, in input order: \
            id,label,probability,outlier_score, label -1 for noise and the labels those of the \
            cluster run that saved the model. Longitude/latitude are projected to the CRS the \
            model was fitted in.
            """
    )

    @Argument(help: "The model file (geocluster cluster --save-model).")
    var model: String

    @Argument(help: "Input CSV or GeoJSON of new points, with the kind of coordinates the model was fitted on.")
    var input: String

    @OptionGroup(title: "Input columns")
    var inputOptions: InputOptions

    @Option(help: "Coordinate columns to use when a file has both: xy or lonlat.")
    var coordinates: CoordinateKind?

    @Option(parsing: .unconditional, help: "Worker threads, 1...\(ThreadsOption.range.upperBound) (output is identical for any value).")
    var threads: Int = ThreadsOption.machineDefault

    @Option(name: .shortAndLong, help: "Output CSV (id,label,probability,outlier_score), or - for standard output.")
    var output: String

    @Flag(help: "Print the wall time of every stage to standard error.")
    var timings = false

    func validate() throws {
        try ThreadsOption.validate(threads)
        try inputOptions.validate(input: input)
        try checkOutputName(output, flag: "--output", extensions: ["csv"])
    }

    func run() throws {
        let clock = StageClock()
        let request = PredictRequest(model: model, input: RunInput(path: input, coordinates: coordinates, options: inputOptions.readOptions),
                                     threads: threads, output: output)
        let record = try reportingErrors { try request.run(clock: clock) }
        let placed = record.predictions.filter { $0.label >= 0 }.count
        note("\(record.file.count) points: \(placed) in the model's \(record.clusterCount) clusters, \(record.file.count - placed) noise; wrote \(output)")
        if timings {
            for (name, seconds) in clock.stages { note(name.padded(to: 20) + cFormat("%9.4f s", seconds)) }
        }
    }
}

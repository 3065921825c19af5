import ArgumentParser
import CommandLineSupport

extension TreePlotOptions.LambdaScale: ExpressibleByArgument {}

/// `geocluster tree`: fits HDBSCAN and draws its condensed tree as an SVG icicle plot.
struct TreeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Draw the condensed tree of an HDBSCAN run as an SVG icicle plot.",
        discussion: """
            Reads and projects INPUT as `cluster` does, fits HDBSCAN and draws the condensed tree \
            as the hdbscan library's icicle plot: λ = 1/distance grows downwards, each cluster is \
            a column as wide as the points still in it, lines join a cluster to its children. \
            The selected clusters (those behind the labels `cluster` writes with the same options, \
            epsilon included) are outlined in their colours; branches narrower than \
            --min-branch-width px are collapsed, selected clusters inside them marked where they \
            split off. Infinite λ (coincident points) is drawn in a band below the largest finite \
            λ, marked ∞. The λ axis is logarithmic by default (on a linear one, as the hdbscan \
            library draws it, the splits of geographic data crowd into the top few pixels).
            """
    )

    @Argument(help: "Input CSV with a header: x,y (metres) or lat,lon (degrees) columns; or a GeoJSON FeatureCollection of Points (.geojson).")
    var input: String

    @OptionGroup(title: "HDBSCAN")
    var hdbscan: HDBSCANOptions

    @OptionGroup
    var runOptions: RunOptions

    @OptionGroup(title: "Input columns")
    var inputOptions: InputOptions

    @Flag(help: "Column width ∝ ln(1 + points) instead of points.")
    var logWidth = false

    @Option(help: "λ axis: log or linear.")
    var lambdaScale: TreePlotOptions.LambdaScale = .logarithmic

    @Option(parsing: .unconditional, help: "Collapse branches narrower than this at their birth, in px.")
    var minBranchWidth: Double = 2

    @Option(parsing: .unconditional, help: "Picture width in px.")
    var width: Double = 1000

    @Option(parsing: .unconditional, help: "Picture height in px.")
    var height: Double = 700

    @Option(help: "Heading of the plot (default: the input file and parameters).")
    var title: String?

    @Option(name: .shortAndLong, help: "Output SVG file (written whole or not at all).")
    var output: String

    func validate() throws {
        if !(minBranchWidth >= 0 && minBranchWidth.isFinite) { throw ValidationError("--min-branch-width must be a width >= 0 in px") }
        if !(width >= 200 && width <= 20000 && height >= 200 && height <= 20000) {
            throw ValidationError("--width and --height must be within 200…20000 px")
        }
        try inputOptions.validate(input: input)
        try checkOutputName(output, flag: "--output", extensions: ["svg"])
        let parameters = hdbscan.parameters
        try validated { () throws(ClusterCoreError) in try parameters.validate() }
    }

    func run() throws {
        ProcessTuning.keepFreedMemoryIfSmall(input: input)
        var runInput = RunInput(path: input, coordinates: runOptions.coordinates, crs: runOptions.crs, metric: runOptions.metric,
                                options: inputOptions.readOptions)
        if let e = hdbscan.epsilon, e > 0 { runInput.distanceOption = ("--epsilon", e) }
        let plot = TreePlotOptions(width: width, height: height, logWidth: logWidth, minimumVisibleWidth: minBranchWidth,
                                   lambdaScale: lambdaScale, title: title)
        let request = TreeRequest(input: runInput, parameters: hdbscan.parameters, threads: runOptions.threads, plot: plot, output: output)
        let drawn = try reportingErrors {
            do {
                return try request.draw()
            } catch let error as HarnessError {
                throw fail(hdbscan.explain(error))
            }
        }
        reportSkipped(drawn.record.file)
        warnAboutCoordinates(drawn.record, inputOptions)
        note("\(drawn.record.file.count) points: \(drawn.clusters) clusters in the tree, \(drawn.selected) selected; wrote \(output)")
    }
}

import ArgumentParser
import CommandLineSupport

/// `geocluster filter`: writes the rows of a point file that pass the filters.
struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Write the rows of a CSV or GeoJSON file that pass the filters, as they are.",
        discussion: """
            Keeps the rows that `cluster` with the same filters would cluster and writes them as \
            the input has them, in the format of OUTPUT's name: CSV (.csv, or - for standard \
            output; with the input's separator, encoding and byte-order mark) or GeoJSON (.geojson or .json; from a CSV, Points at the \
            latitude/longitude columns). The subset can then be clustered, outlined and scored \
            without repeating the filters.
            """
    )

    @Argument(help: "Input CSV or GeoJSON file of points.")
    var input: String

    @OptionGroup(title: "Filters")
    var filters: FilterOptions

    @OptionGroup(title: "Input columns")
    var inputOptions: InputOptions

    @Option(name: .shortAndLong, help: "Output: .csv or - (CSV), .geojson or .json (GeoJSON); written whole or not at all.")
    var output: String

    @OptionGroup(title: "Output text")
    var outputText: OutputTextOptions

    func validate() throws {
        if !filters.isActive { throw ValidationError("give at least one filter (--category, --area, --deposit, --rent, --bbox, --within)") }
        try inputOptions.validate(input: input)
        try outputText.validate(input: inputOptions)
        try checkOutputName(output, flag: "--output", extensions: ["csv", "geojson", "json"])
    }

    func run() throws {
        let request = FilterRequest(input: input, read: inputOptions.readOptions, filter: try filters.makeFilter(),
                                    encoding: outputText.encoding?.encoding, byteOrderMark: outputText.byteOrderMark, output: output)
        let file = try reportingErrors(input: input) { try request.run() }
        reportSkipped(file)
        note("kept \(file.count) of \(file.totalRows) rows; wrote \(output)")
    }
}

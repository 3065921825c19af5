import ArgumentParser
import CommandLineSupport

/// Which noise modes `score` reports.
enum NoiseChoice: String, ExpressibleByArgument, CaseIterable {
    case all
    case asCluster = "as-cluster"
    case singletons
    case excluded

    var modes: [NoiseMode] {
        switch self {
        case .all: return NoiseMode.allCases
        case .asCluster: return [.asCluster]
        case .singletons: return [.singletons]
        case .excluded: return [.excluded]
        }
    }
}

/// `geocluster score`: compares a labeling with the truth and prints the external scores.
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Score cluster labels against true labels: ARI, AMI, NMI, homogeneity, completeness, V-measure, Fowlkes-Mallows.",
        discussion: """
            Both files are CSV with a header (comma, semicolon or tab separated) or GeoJSON. Rows \
            are matched by their id column when both files have one (id, fid or --id-column; in \
            any order; every id must appear exactly once in each file, or with --shared-ids the \
            ids in only one file are left out and counted), otherwise by row order (the files must \
            then have the same number of rows), so `score --truth airports.csv` scores the labels \
            `cluster airports.csv` wrote. Filters (--category …) keep the --truth rows that pass them, as \
            `cluster` with the same filters keeps its input's, so its labels score as they are.
            Labels may be text (a state or country column): a column whose values are all \
            integers is read as integers, -1 noise; any other column as text, each distinct value \
            (spaces around it ignored) a label, and only the --noise-label value noise (none \
            without it). Noise (label -1, or the --noise-label text) is scored as \
            --noise says: as-cluster (one more cluster, scikit-learn's behaviour), \
            singletons (each noise point a cluster of its own), excluded (points that are noise in \
            either file are left out), or all three (the default). Values equal scikit-learn's \
            (adjusted_rand_score, adjusted_mutual_info_score and normalized_mutual_info_score with \
            arithmetic averaging, homogeneity_completeness_v_measure, fowlkes_mallows_score).
            """
    )

    @Option(help: "CSV with the true labels.")
    var truth: String

    @Option(help: "CSV with the labels to score (e.g. the output of `geocluster cluster`).")
    var labels: String

    @Option(help: "Label column of --truth (default: truth, or label when there is no truth column).")
    var truthColumn: String?

    @Option(help: "Label column of --labels.")
    var labelsColumn: String = "label"

    @Option(help: "What noise (label -1, or the --noise-label text) means: all, as-cluster, singletons or excluded.")
    var noise: NoiseChoice = .all

    @Option(parsing: .unconditional, help: ArgumentHelp("The value that means noise in a label column that holds text (an integer column's noise is -1); default: none.", valueName: "text"))
    var noiseLabel: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(name: .customLong("shared-ids"), help: "Score only the ids both files have (and say how many were left out of each) instead of requiring the same ids.")
    var sharedIDs = false

    @OptionGroup(title: "Filters (applied to the --truth file's rows, as `cluster` applies them to its input)")
    var filters: FilterOptions

    @OptionGroup(title: "Columns of the --truth file when filtering (--id-column: the id column of both files)")
    var inputOptions: InputOptions

    func validate() throws { try inputOptions.validate(input: truth) }

    func run() throws {
        try reportingErrors(input: truth) {
            let request = ScoreRequest(truth: truth, labels: labels, truthColumns: truthColumn.map { [$0] } ?? ["truth", "label"],
                                       labelsColumn: labelsColumn, idColumn: inputOptions.idColumn, noiseLabel: noiseLabel,
                                       sharedIDs: sharedIDs, noiseModes: noise.modes, filter: try filters.makeFilter(),
                                       readOptions: inputOptions.readOptions)
            let outcome = try Harness.score(request, note: note)
            print(json ? ScoreReport.json(outcome) : ScoreReport.table(outcome), terminator: "")
        }
    }
}

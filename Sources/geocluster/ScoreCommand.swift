import ArgumentParser
import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Metrics

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
            are matched by their id column when both files have one (in any order; every id must \
            appear exactly once in each file, or with --shared-ids the ids in only one file are \
            left out and counted), otherwise by row order (the files must then have the same \
            number of rows). Filters (--category …) keep the --truth rows that pass them, as \
            `cluster` with the same filters keeps its input's, so its labels score as they are. Label -1 is noise; \
            --noise says what it means: as-cluster (one more cluster, scikit-learn's behaviour), \
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

    @Option(help: "What label -1 means: all, as-cluster, singletons or excluded.")
    var noise: NoiseChoice = .all

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(name: .customLong("shared-ids"), help: "Score only the ids both files have (and say how many were left out of each) instead of requiring the same ids.")
    var sharedIDs = false

    @OptionGroup(title: "Filters (applied to the --truth file's rows, as `cluster` applies them to its input)")
    var filters: FilterOptions

    @OptionGroup(title: "Columns of the --truth file when filtering")
    var inputOptions: InputOptions

    func validate() throws { try inputOptions.validate(input: truth) }

    func run() throws {
        try reportingErrors(input: truth) {
            var t = try LabelFile.read(path: truth, columns: truthColumn.map { [$0] } ?? ["truth", "label"], option: "--truth-column")
            if let filter = try filters.makeFilter() {
                let kept = try PointFile.read(path: truth, filter: filter, options: inputOptions.readOptions)
                t = t.keeping(lines: kept.lines, renumber: !t.hasIDs)
                note("kept \(kept.count) of \(kept.totalRows) rows of \(truth)")
            }
            let p = try LabelFile.read(path: labels, columns: [labelsColumn], option: "--labels-column")
            let a = try LabelFile.align(t, p, sharedIDs: sharedIDs)
            if sharedIDs {
                note("scored the \(a.truth.count) ids both files have; left out \(a.onlyInTruth) only in \(truth), \(a.onlyInLabels) only in \(labels)")
            }
            let results = try noise.modes.map { mode throws(MetricsError) in
                try ClusteringScores(truth: a.truth, predicted: a.predicted, noise: mode)
            }
            print(json ? Self.json(t, p, results) : Self.table(t, p, results), terminator: "")
        }
    }

    static func describe(_ f: LabelFile) -> String {
        let clusters = Set(f.labels.filter { $0 != -1 }).count
        let noise = f.labels.reduce(0) { $0 + ($1 == -1 ? 1 : 0) }
        return "\(f.path) (column \(f.column)): \(f.labels.count) rows, \(clusters) clusters, \(noise) noise"
    }

    /// An aligned table: one row per score, one column per noise mode.
    static func table(_ t: LabelFile, _ p: LabelFile, _ results: [ClusteringScores]) -> String {
        var out = "truth:  \(describe(t))\nlabels: \(describe(p))\n"
        out += "matched by \(t.hasIDs ? "id" : "row order")\n\n"
        func row(_ name: String, _ cells: [String]) -> String {
            name.padded(to: 17)
                + cells.map { String(repeating: " ", count: max(0, 12 - $0.count)) + $0 }.joined() + "\n"
        }
        out += row("noise", results.map(\.noise.rawValue))
        out += row("points scored", results.map { String($0.count) })
        out += row("truth labels", results.map { String($0.truthLabelCount) })
        out += row("labels", results.map { String($0.predictedLabelCount) })
        for (i, (name, _)) in results[0].named.enumerated() {
            out += row(name, results.map { cFormat("%.6f", $0.named[i].value) })
        }
        return out
    }

    /// JSON with the score names of scikit-learn's functions; values in shortest round-trip form.
    static func json(_ t: LabelFile, _ p: LabelFile, _ results: [ClusteringScores]) -> String {
        func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        let string = JSONText.quoted
        var out = "{\n"
        out += "  \"truth\": {\"path\": \(string(t.path)), \"column\": \(string(t.column)), \"rows\": \(t.labels.count)},\n"
        out += "  \"labels\": {\"path\": \(string(p.path)), \"column\": \(string(p.column)), \"rows\": \(p.labels.count)},\n"
        out += "  \"matched_by\": \(string(t.hasIDs ? "id" : "row order")),\n"
        out += "  \"scores\": {\n"
        out += results.map { s in
            let fields: [(String, String)] = [
                ("points", "\(s.count)"), ("excluded_points", "\(s.excludedCount)"),
                ("truth_labels", "\(s.truthLabelCount)"), ("predicted_labels", "\(s.predictedLabelCount)"),
                ("adjusted_rand", number(s.adjustedRandIndex)), ("adjusted_mutual_info", number(s.adjustedMutualInformation)),
                ("normalized_mutual_info", number(s.normalizedMutualInformation)), ("homogeneity", number(s.homogeneity)),
                ("completeness", number(s.completeness)), ("v_measure", number(s.vMeasure)),
                ("fowlkes_mallows", number(s.fowlkesMallows)),
            ]
            return "    \(string(s.noise.rawValue)): {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        }.joined(separator: ",\n")
        out += "\n  }\n}\n"
        return out
    }
}

import ArgumentParser
import CommandLineSupport
import Datasets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ClusterMetrics

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
            let text = TextLabels(noise: noiseLabel), id = inputOptions.idColumn
            var t = try LabelFile.read(path: truth, columns: truthColumn.map { [$0] } ?? ["truth", "label"], option: "--truth-column",
                                       idColumn: id, requireIDColumn: id != nil, text: text,
                                       encoding: inputOptions.readOptions.encoding)
            if let filter = try filters.makeFilter() {
                let kept = try PointFile.read(path: truth, filter: filter, options: inputOptions.readOptions)
                t = t.keeping(lines: kept.lines, renumber: !t.hasIDs)
                note("kept \(kept.count) of \(kept.totalRows) rows of \(truth)")
            }
            let p = try LabelFile.read(path: labels, columns: [labelsColumn], option: "--labels-column", idColumn: id, text: text)
            try checkNoiseLabel(t, p)
            let a = try LabelFile.align(t, p, sharedIDs: sharedIDs)
            if sharedIDs {
                note("scored the \(a.truth.count) ids both files have; left out \(a.onlyInTruth) only in \(truth), \(a.onlyInLabels) only in \(labels)")
            }
            let results = try noise.modes.map { mode throws(MetricsError) in
                try ClusteringScores(truth: a.truth, predicted: a.predicted, noise: mode)
            }
            let matched = Self.matched(t, p, a)
            print(json ? Self.json(t, p, matched, noiseLabel, results) : Self.table(t, p, matched, results), terminator: "")
        }
    }

    /// Refuses a --noise-label that no file can use (both label columns are integers), warns
    /// when a text column lacks it, and says when a text column holds "-1" (a label there).
    private func checkNoiseLabel(_ t: LabelFile, _ p: LabelFile) throws(DatasetError) {
        if let noiseLabel, !t.isText && !p.isText {
            throw .invalidOption(option: "--noise-label", value: noiseLabel, reason: "the label columns of \(t.path) ('\(t.column)') and \(p.path) ('\(p.column)') hold integers, whose noise is -1; --noise-label names the noise of a text column, so drop it")
        }
        for f in [t, p] where f.isText {
            if let noiseLabel, !f.labels.contains(-1) {
                note("warning: --noise-label '\(noiseLabel)' is not a value of \(f.path)'s column '\(f.column)', so none of its rows is noise")
            }
            if f.hasMinusOneText && TextLabels(noise: noiseLabel).noise != "-1", let first = f.firstText {
                note("note: \(f.path)'s column '\(f.column)' holds text ('\(first.text)' on line \(first.line) is not an integer), so its -1 is a label like any other, not noise; --noise-label -1 makes it noise")
            }
        }
    }

    /// How rows were matched, for the report: "id", or "row order" and why.
    static func matched(_ t: LabelFile, _ p: LabelFile, _ a: LabelFile.Alignment) -> String {
        if a.byID { return "id" }
        let without = [t, p].filter { !$0.hasIDs }.map(\.path)
        return without.count == 1 ? "row order (\(without[0]) has no id column)" : "row order"
    }

    static func describe(_ f: LabelFile) -> String {
        let clusters = Set(f.labels.filter { $0 != -1 }).count
        let noise = f.labels.reduce(0) { $0 + ($1 == -1 ? 1 : 0) }
        return "\(f.path) (column \(f.column)\(f.isText ? ", text" : "")): \(f.labels.count) rows, \(clusters) \(f.isText ? "labels" : "clusters"), \(noise) noise"
    }

    /// An aligned table: one row per score, one column per noise mode.
    static func table(_ t: LabelFile, _ p: LabelFile, _ matched: String, _ results: [ClusteringScores]) -> String {
        var out = "truth:  \(describe(t))\nlabels: \(describe(p))\n"
        out += "matched by \(matched)\n\n"
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
    static func json(_ t: LabelFile, _ p: LabelFile, _ matched: String, _ noiseLabel: String?, _ results: [ClusteringScores]) -> String {
        func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        let string = JSONText.quoted
        func file(_ f: LabelFile) -> String {
            "{\"path\": \(string(f.path)), \"column\": \(string(f.column)), \"rows\": \(f.labels.count), \"text_labels\": \(f.isText)}"
        }
        var out = "{\n"
        out += "  \"truth\": \(file(t)),\n"
        out += "  \"labels\": \(file(p)),\n"
        out += "  \"matched_by\": \(string(matched.hasPrefix("id") ? "id" : "row order")),\n"
        out += "  \"noise_label\": \(noiseLabel.map { string(TextLabels(noise: $0).noise!) } ?? "null"),\n"
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

import ClusterMetrics
import Datasets
import Harness

/// `geocluster score`'s output: an aligned table, or JSON with scikit-learn's score names.
public enum ScoreReport {
    /// One row per score, one column per noise mode.
    public static func table(_ outcome: ScoreOutcome) -> String {
        let results = outcome.scores
        var out = "truth:  \(describe(outcome.truth))\nlabels: \(describe(outcome.labels))\n"
        out += "matched by \(outcome.matchedBy)\n\n"
        func row(_ name: String, _ cells: [String]) -> String {
            ReportFormat.padded(name, to: 17)
                + cells.map { String(repeating: " ", count: max(0, 12 - $0.count)) + $0 }.joined() + "\n"
        }
        out += row("noise", results.map(\.noise.rawValue))
        out += row("points scored", results.map { String($0.count) })
        out += row("truth labels", results.map { String($0.truthLabelCount) })
        out += row("labels", results.map { String($0.predictedLabelCount) })
        for (i, (name, _)) in results[0].named.enumerated() {
            out += row(name, results.map { FormatNumber.printf("%.6f", $0.named[i].value) })
        }
        return out
    }

    /// JSON with the score names of scikit-learn's functions; values in shortest round-trip form.
    public static func json(_ outcome: ScoreOutcome) -> String {
        let string = JSONText.quoted
        func file(_ f: LabelFile) -> String {
            "{\"path\": \(string(f.path)), \"column\": \(string(f.column)), \"rows\": \(f.labels.count), \"text_labels\": \(f.isText)}"
        }
        var out = "{\n"
        out += "  \"truth\": \(file(outcome.truth)),\n"
        out += "  \"labels\": \(file(outcome.labels)),\n"
        out += "  \"matched_by\": \(string(outcome.matchedBy.hasPrefix("id") ? "id" : "row order")),\n"
        out += "  \"noise_label\": \(outcome.noiseLabel.map { string(TextLabels(noise: $0).noise!) } ?? "null"),\n"
        out += "  \"scores\": {\n"
        out += outcome.scores.map(scoreLine).joined(separator: ",\n")
        out += "\n  }\n}\n"
        return out
    }

    private static func scoreLine(_ s: ClusteringScores) -> String {
        func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        let fields: [(String, String)] = [
            ("points", "\(s.count)"), ("excluded_points", "\(s.excludedCount)"),
            ("truth_labels", "\(s.truthLabelCount)"), ("predicted_labels", "\(s.predictedLabelCount)"),
            ("adjusted_rand", number(s.adjustedRandIndex)), ("adjusted_mutual_info", number(s.adjustedMutualInformation)),
            ("normalized_mutual_info", number(s.normalizedMutualInformation)), ("homogeneity", number(s.homogeneity)),
            ("completeness", number(s.completeness)), ("v_measure", number(s.vMeasure)),
            ("fowlkes_mallows", number(s.fowlkesMallows)),
        ]
        return "    \(JSONText.quoted(s.noise.rawValue)): {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    private static func describe(_ f: LabelFile) -> String {
        let clusters = Set(f.labels.filter { $0 != -1 }).count
        let noise = f.labels.reduce(0) { $0 + ($1 == -1 ? 1 : 0) }
        return "\(f.path) (column \(f.column)\(f.isText ? ", text" : "")): \(f.labels.count) rows, \(clusters) \(f.isText ? "labels" : "clusters"), \(noise) noise"
    }
}

import ClusterMetrics
import Datasets

/// What `geocluster score` compares: a labeling against the truth, with the files' columns,
/// the rows kept and what noise means.
public struct ScoreRequest {
    /// The file of true labels and the one of the labels to score.
    public var truth: String
    public var labels: String
    /// The truth's label column: the first of these the file has.
    public var truthColumns: [String]
    public var labelsColumn: String
    /// The id column of both files (nil: id or fid, when present).
    public var idColumn: String?
    /// The value that means noise in a text label column (nil: none).
    public var noiseLabel: String?
    /// Score only the ids both files have, instead of requiring the same ids.
    public var sharedIDs: Bool
    /// The noise modes to score under, one result each.
    public var noiseModes: [NoiseMode]
    /// The truth rows to keep (as `cluster` keeps its input's), read with `readOptions`.
    public var filter: ListingFilter?
    public var readOptions: ReadOptions

    public init(truth: String, labels: String, truthColumns: [String] = ["truth", "label"], labelsColumn: String = "label",
                idColumn: String? = nil, noiseLabel: String? = nil, sharedIDs: Bool = false,
                noiseModes: [NoiseMode] = NoiseMode.allCases, filter: ListingFilter? = nil, readOptions: ReadOptions = ReadOptions()) {
        self.truth = truth; self.labels = labels; self.truthColumns = truthColumns; self.labelsColumn = labelsColumn
        self.idColumn = idColumn; self.noiseLabel = noiseLabel; self.sharedIDs = sharedIDs; self.noiseModes = noiseModes
        self.filter = filter; self.readOptions = readOptions
    }
}

/// The scores of one comparison and what they were computed on.
public struct ScoreOutcome: Sendable {
    public let truth: LabelFile
    public let labels: LabelFile
    /// How rows were matched: "id", or "row order" and why.
    public let matchedBy: String
    public let noiseLabel: String?
    /// One result per requested noise mode, in order.
    public let scores: [ClusteringScores]
}

extension Harness {
    /// Reads both label files (the truth filtered as asked), matches their rows by id or by
    /// order, and scores the labels under each noise mode.
    /// - Parameter note: told what the user should know, in order (rows kept, ids left out,
    ///   a noise label that no row has).
    /// - Throws: `DatasetError` naming the file (and line) or the flag, `MetricsError`.
    public static func score(_ request: ScoreRequest, note: (String) -> Void) throws -> ScoreOutcome {
        let r = request, text = TextLabels(noise: r.noiseLabel), id = r.idColumn
        var t = try LabelFile.read(path: r.truth, columns: r.truthColumns, option: "--truth-column", idColumn: id,
                                   requireIDColumn: id != nil, text: text, encoding: r.readOptions.encoding)
        if let filter = r.filter {
            let kept = try PointFile.read(path: r.truth, filter: filter, options: r.readOptions)
            t = t.keeping(lines: kept.lines, renumber: !t.hasIDs)
            note("kept \(kept.count) of \(kept.totalRows) rows of \(r.truth)")
        }
        let p = try LabelFile.read(path: r.labels, columns: [r.labelsColumn], option: "--labels-column", idColumn: id, text: text)
        try checkNoiseLabel(r.noiseLabel, t, p, note: note)
        let a = try LabelFile.align(t, p, sharedIDs: r.sharedIDs)
        if r.sharedIDs {
            note("scored the \(a.truth.count) ids both files have; left out \(a.onlyInTruth) only in \(r.truth), \(a.onlyInLabels) only in \(r.labels)")
        }
        let scores = try r.noiseModes.map { mode throws(MetricsError) in
            try ClusteringScores(truth: a.truth, predicted: a.predicted, noise: mode)
        }
        return ScoreOutcome(truth: t, labels: p, matchedBy: matched(t, p, a), noiseLabel: r.noiseLabel, scores: scores)
    }

    /// Refuses a noise label that no file can use (both label columns are integers), warns
    /// when a text column lacks it, and says when a text column holds "-1" (a label there).
    private static func checkNoiseLabel(_ noiseLabel: String?, _ t: LabelFile, _ p: LabelFile,
                                        note: (String) -> Void) throws(DatasetError) {
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
    private static func matched(_ t: LabelFile, _ p: LabelFile, _ a: LabelFile.Alignment) -> String {
        if a.byID { return "id" }
        let without = [t, p].filter { !$0.hasIDs }.map(\.path)
        return without.count == 1 ? "row order (\(without[0]) has no id column)" : "row order"
    }
}

/// Which points of a labelled file a cluster's outline is drawn around (`hulls` and `map`'s
/// `--min-probability` and `--core-only`): all its members, those whose membership probability
/// is at least a value (HDBSCAN labels), or its core points (DBSCAN's `is_core`, or HDBSCAN's
/// probability 1), so a few stray members do not stretch a compact cluster's outline.
public enum OutlineSelection: Sendable, Equatable {
    /// Every member.
    case all
    /// Members whose probability column is at least this, in [0, 1].
    case minProbability(Double)
    /// Core points.
    case coreOnly

    /// Reads `path`'s labels and, unless every member is outlined, which rows are.
    /// - Throws: `DatasetError` for an unreadable file, or one without the column the selection
    ///   needs (naming `--min-probability` or `--core-only`).
    public func labels(_ path: String, idColumn: String? = nil) throws(DatasetError) -> (LabelFile, [Bool]?) {
        switch self {
        case .all:
            return (try LabelFile.read(path: path, columns: ["label"], option: "--labels", idColumn: idColumn), nil)
        case .minProbability(let p):
            let f = try Self.read(path, "probability", for: "--min-probability", idColumn: idColumn)
            return (f, f.values.map { $0 >= p })
        case .coreOnly:
            if let f = try? LabelFile.read(path: path, columns: ["label"], option: "--labels", value: "is_core", idColumn: idColumn) {
                return (f, f.values.map { $0 == 1 })
            }
            let f = try Self.read(path, "probability", for: "--core-only", idColumn: idColumn)
            return (f, f.values.map { $0 >= 1 })
        }
    }

    private static func read(_ path: String, _ column: String, for flag: String, idColumn: String?) throws(DatasetError) -> LabelFile {
        do {
            return try LabelFile.read(path: path, columns: ["label"], option: "--labels", value: column, idColumn: idColumn)
        } catch .missingColumns(let file, _, let found) {
            throw .missingFilterColumn(path: file, option: flag, wanted: column, found: found)
        }
    }

    /// The points outlined, in words; nil for every member.
    public var description: String? {
        switch self {
        case .all: return nil
        case .minProbability(let p): return "members with probability ≥ \(p)"
        case .coreOnly: return "core points"
        }
    }
}

extension PointFile {
    /// The warning for rows skipped by `ReadOptions.skipBadRows`, naming the first; nil when
    /// none was.
    public var skippedWarning: String? {
        guard skippedRows > 0 else { return nil }
        let first = firstSkipped.map { "; the first: \($0)" } ?? ""
        let what = (try? InputFile.isGeoJSON(path)) == true ? "feature" : "row"
        return "warning: \(path): skipped \(skippedRows) malformed \(what)\(skippedRows == 1 ? "" : "s") (--skip-bad-rows)\(first)"
    }
}

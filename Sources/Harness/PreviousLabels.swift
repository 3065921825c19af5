import ClusterMetrics
import Datasets

extension RunRecord {
    /// Renumbers this run's clusters after a previous run's label file (`cluster --previous`),
    /// matching points by id (row numbers for input without an id column, as `cluster` writes
    /// them), and returns what changed (see `StableLabels`).
    /// - Parameters:
    ///   - previous: the previous run's labels (`id,label,…`).
    ///   - nextLabel: where fresh labels start, at least (the previous run's report says).
    /// - Throws: `.dataset` naming the file and line of an id that appears twice, or saying that
    ///   its labels leave no room for today's new clusters.
    /// - Complexity: O(n) expected, plus a sort of the ids when they are not all integers.
    public mutating func relabel(after previous: LabelFile, nextLabel: Int32 = 0) throws(HarnessError) -> StableLabels {
        var before = [String: Int32](minimumCapacity: previous.labels.count)
        for i in previous.labels.indices {
            if before.updateValue(previous.labels[i], forKey: previous.id(i)) != nil {
                throw .dataset(.invalidOption(option: "--previous", value: previous.path,
                                              reason: "\(previous.path):\(previous.lines[i]): id '\(previous.id(i))' appears again; ids must be unique"))
            }
        }
        let ids = (0..<file.count).map { file.id($0) }
        let matched: StableLabels
        do throws(MetricsError) {
            matched = try StableLabels.match(labels: labels, previous: ids.map { before[$0] }, order: Self.rank(ids),
                                             previousLabels: Set(previous.labels.filter { $0 >= 0 }), nextLabel: nextLabel)
        } catch {
            throw .dataset(.invalidOption(option: "--previous", value: previous.path, reason: "\(error)"))
        }
        labels = labels.map { $0 < 0 ? $0 : matched.stable[Int($0)] }
        return matched
    }

    /// Each id's place in id order: the number itself when every id is an integer, else its
    /// rank among the ids sorted as text.
    private static func rank(_ ids: [String]) -> [Int] {
        let numbers = ids.map { Int($0) }
        if numbers.allSatisfy({ $0 != nil }) { return numbers.map { $0! } }
        var rank = [Int](repeating: 0, count: ids.count)
        for (place, i) in ids.indices.sorted(by: { ids[$0] < ids[$1] }).enumerated() { rank[i] = place }
        return rank
    }
}

extension StableLabels {
    /// Writes `change,label,previous_labels,shared,size`: one row per cluster of today, then one
    /// per vanished cluster of yesterday (no label); previous labels joined with `;`.
    public func writeChanges(to path: String) throws(DatasetError) {
        var out = try CSVWriter(path: path)
        try out.header(["change", "label", "previous_labels", "shared", "size"])
        for change in changes {
            out.field(change.kind.rawValue)
            out.field(change.label.map { String($0) } ?? "")
            out.field(change.previousLabels.map { String($0) }.joined(separator: ";"))
            out.field(change.shared)
            out.field(change.size)
            try out.endRow()
        }
        try out.commit()
    }

    /// How many clusters changed how, for a one-line summary.
    public var summary: String {
        let counts = LabelChange.Kind.allCases.map { kind in (kind, changes.filter { $0.kind == kind }.count) }
        return counts.map { "\($1) \($0.rawValue)" }.joined(separator: ", ") + "; next label \(nextLabel)"
    }
}

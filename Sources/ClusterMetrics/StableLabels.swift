// Labels that stay the same from one clustering to the next: today's clusters renumbered after
// yesterday's where they correspond, and what split, merged, appeared and vanished.
//
// The rule. Two clusters correspond by the points they share (the same id in both runs; noise
// shares nothing). Pairs are taken in descending order of shared points (ties: yesterday's
// label ascending, then today's cluster holding the smaller id), and a pair is matched when
// neither cluster is matched yet: today's cluster then takes yesterday's label. So when a
// cluster splits, the part that keeps most of its points keeps its label; when clusters merge,
// the merged cluster takes the label of the one it shares most with. Every other cluster of
// today gets a fresh label, from `nextLabel` upward (at least one above every label of
// yesterday), in the order of the smallest id it holds. Nothing depends on the order of the
// rows or on how today's clusters happen to be numbered.

/// What happened to one cluster between two runs.
public struct LabelChange: Sendable, Equatable {
    /// The kinds of change.
    public enum Kind: String, Sendable, CaseIterable {
        /// Today's cluster took yesterday's label, and all its shared points come from it.
        case kept
        /// Today's cluster took yesterday's label and also holds points of other clusters.
        case merged
        /// Today's cluster holds points of a cluster whose label went to another part.
        case split
        /// Today's cluster shares no point with any of yesterday's.
        case appeared
        /// Yesterday's cluster whose label no cluster of today took.
        case vanished
    }

    /// The kind.
    public var kind: Kind
    /// Today's (stable) label; nil for `vanished`.
    public var label: Int32?
    /// Yesterday's labels whose points this cluster holds (for `vanished`, the label itself),
    /// ascending.
    public var previousLabels: [Int32]
    /// Points shared with those clusters.
    public var shared: Int
    /// Today's number of points (0 for `vanished`).
    public var size: Int
}

/// Today's labels renumbered after yesterday's (`StableLabels.match`).
public struct StableLabels: Sendable {
    /// By today's label (0 ..< cluster count): its stable label.
    public var stable: [Int32]
    /// The label the next run should start fresh labels from (one above every label used).
    public var nextLabel: Int32
    /// Every cluster of today in stable-label order, then yesterday's vanished clusters.
    public var changes: [LabelChange]

    /// Renumbers today's clusters (see the file's header for the rule).
    /// - Parameters:
    ///   - labels: today's label of each point, -1 for noise; clusters numbered 0 ..< k.
    ///   - previous: each point's label yesterday, nil when the point was not there (or was
    ///     noise: -1).
    ///   - order: a rank of each point's id that does not depend on row order (fresh labels
    ///     go to clusters in the order of their smallest rank).
    ///   - previousLabels: every cluster label of yesterday (for the vanished ones).
    ///   - nextLabel: where fresh labels start, at least (a previous run's `nextLabel`).
    /// - Throws: `MetricsError.labelsExhausted` when the fresh labels would pass `Int32.max`.
    /// - Complexity: O(n + p log p) for p corresponding pairs.
    public static func match(labels: [Int32], previous: [Int32?], order: [Int], previousLabels: Set<Int32>,
                             nextLabel: Int32 = 0) throws(MetricsError) -> StableLabels {
        precondition(labels.count == previous.count && labels.count == order.count, "one value per point")
        let k = Int((labels.max() ?? -1) + 1)
        var shared: [Pair: Int] = [:]
        var size = [Int](repeating: 0, count: k), first = [Int](repeating: .max, count: k)
        for i in labels.indices where labels[i] >= 0 {
            let t = Int(labels[i])
            size[t] += 1
            first[t] = min(first[t], order[i])
            if let y = previous[i], y >= 0 { shared[Pair(today: labels[i], yesterday: y), default: 0] += 1 }
        }
        let pairs = shared.sorted {
            ($1.value, $0.key.yesterday, first[Int($0.key.today)]) < ($0.value, $1.key.yesterday, first[Int($1.key.today)])
        }
        var stable = [Int32](repeating: -1, count: k), taken = Set<Int32>()
        for (pair, _) in pairs where stable[Int(pair.today)] < 0 && !taken.contains(pair.yesterday) {
            stable[Int(pair.today)] = pair.yesterday
            taken.insert(pair.yesterday)
        }
        let fresh = (0..<k).filter { stable[$0] < 0 }
        let start = max(Int(nextLabel), Int(previousLabels.max() ?? -1) + 1)
        guard start + fresh.count <= Int(Int32.max) else {
            throw .labelsExhausted(start: start, needed: fresh.count)
        }
        var next = Int32(start)
        for t in fresh.sorted(by: { first[$0] < first[$1] }) {
            stable[t] = next
            next += 1
        }
        let changes = Self.changes(stable: stable, size: size, shared: shared, previousLabels: previousLabels.subtracting(taken))
        return StableLabels(stable: stable, nextLabel: next, changes: changes)
    }

    /// Today's clusters (by stable label) and yesterday's vanished ones, with their kinds.
    private static func changes(stable: [Int32], size: [Int], shared: [Pair: Int],
                                previousLabels vanished: Set<Int32>) -> [LabelChange] {
        var sources = [[Int32]](repeating: [], count: stable.count), common = [Int](repeating: 0, count: stable.count)
        var lost: [Int32: Int] = [:]
        for (pair, count) in shared {
            sources[Int(pair.today)].append(pair.yesterday)
            common[Int(pair.today)] += count
            lost[pair.yesterday, default: 0] += count
        }
        var result = stable.indices.sorted { stable[$0] < stable[$1] }.map { t -> LabelChange in
            let from = sources[t].sorted()
            let kind: LabelChange.Kind
            if from.contains(stable[t]) {
                kind = from.count > 1 ? .merged : .kept
            } else {
                kind = from.isEmpty ? .appeared : .split
            }
            return LabelChange(kind: kind, label: stable[t], previousLabels: from, shared: common[t], size: size[t])
        }
        for y in vanished.sorted() {
            result.append(LabelChange(kind: .vanished, label: nil, previousLabels: [y], shared: lost[y] ?? 0, size: 0))
        }
        return result
    }

    private struct Pair: Hashable {
        var today: Int32
        var yesterday: Int32
    }
}

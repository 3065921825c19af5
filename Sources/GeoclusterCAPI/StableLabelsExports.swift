// Stable labels for C callers (what `cluster --previous` does in the CLI): today's clusters
// renumbered after yesterday's, and what changed, as JSON text. The declaration and its
// documentation: GeoclusterCHeader's geocluster.h.
import ClusterMetrics
import GeoclusterCHeader

@_cdecl("gc_stable_labels")
public func gc_stable_labels(
    _ n: Int64, _ labels: UnsafePointer<Int32>?, _ previous: UnsafePointer<Int32>?, _ order: UnsafePointer<Int64>?,
    _ p: Int64, _ previousLabels: UnsafePointer<Int32>?, _ nextLabel: Int32, _ stable: UnsafeMutablePointer<Int32>?,
    _ nextOut: UnsafeMutablePointer<Int32>?, _ changesOut: UnsafeMutablePointer<OpaquePointer?>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        guard n >= 0, p >= 0 else { throw CAPIError(.invalidArgument, "n = \(n) and p = \(p) must not be negative") }
        guard n == 0 || (labels != nil && previous != nil && order != nil && stable != nil), p == 0 || previousLabels != nil,
              let nextOut, changesOut != nil else {
            throw CAPIError(.invalidArgument, "the arrays and outputs must not be null")
        }
        let today = Array(UnsafeBufferPointer(start: labels, count: Int(n)))
        let before = Array(UnsafeBufferPointer(start: previous, count: Int(n)))
        let yesterday = Array(UnsafeBufferPointer(start: previousLabels, count: Int(p)))
        try checkNumbering(today, name: "labels")
        for (name, values) in [("previous", before), ("previous_labels", yesterday)] {
            if let i = values.firstIndex(where: { $0 < -1 }) {
                throw CAPIError(.invalidParameter, "\(name)[\(i)] = \(values[i]): labels are -1 (noise or absent) or cluster labels from 0")
            }
        }
        let matched: StableLabels
        do throws(MetricsError) {
            matched = try StableLabels.match(labels: today, previous: before.map { $0 >= 0 ? $0 : nil },
                                             order: UnsafeBufferPointer(start: order, count: Int(n)).map { Int($0) },
                                             previousLabels: Set(yesterday.filter { $0 >= 0 }), nextLabel: nextLabel)
        } catch {
            throw CAPIError(.invalidParameter, "previous_labels: \(error)")
        }
        for i in today.indices { stable![i] = today[i] < 0 ? today[i] : matched.stable[Int(today[i])] }
        nextOut.pointee = matched.nextLabel
        try give(changesJSON(matched.changes), changesOut)
    }
}

/// Refuses labels that are not -1 or clusters numbered 0 ..< k with none missing.
private func checkNumbering(_ labels: [Int32], name: String) throws(CAPIError) {
    if let bad = labels.firstIndex(where: { $0 < -1 }) {
        throw CAPIError(.invalidParameter, "\(name)[\(bad)] = \(labels[bad]): labels are -1 (noise) or cluster numbers from 0")
    }
    // k clusters of at least one point each: every number is below the number of points.
    if let bad = labels.firstIndex(where: { Int($0) >= labels.count }) {
        throw CAPIError(.invalidParameter, "\(name)[\(bad)] = \(labels[bad]): clusters are numbered 0 ..< k, k at most the \(labels.count) points")
    }
    var seen = [Bool](repeating: false, count: Int((labels.max() ?? -1) + 1))
    for label in labels where label >= 0 { seen[Int(label)] = true }
    if let missing = seen.firstIndex(of: false) {
        throw CAPIError(.invalidParameter, "\(name): no point has cluster \(missing), below the largest, \(seen.count - 1); number clusters 0 ..< k")
    }
}

/// `[{"change", "label", "previous_labels", "shared", "size"}, …]`, as `--changes` writes them.
private func changesJSON(_ changes: [LabelChange]) -> String {
    var json = JSONBuilder()
    json.open("[")
    for change in changes {
        json.open("{")
        json.key("change"); json.string(change.kind.rawValue)
        json.key("label"); json.integer(change.label.map(Int64.init))
        json.key("previous_labels"); json.open("[")
        for label in change.previousLabels { json.integer(Int64(label)) }
        json.close("]")
        json.key("shared"); json.integer(Int64(change.shared))
        json.key("size"); json.integer(Int64(change.size))
        json.close("}")
    }
    json.close("]")
    return json.text
}

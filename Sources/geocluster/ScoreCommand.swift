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
            Both files are CSV with a header. Rows are matched by their id column when both files \
            have one (in any order; every id must appear exactly once in each file), otherwise by \
            row order (the files must then have the same number of rows). Label -1 is noise; \
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

    func run() throws {
        do {
            let t = try LabelFile.read(path: truth, columns: truthColumn.map { [$0] } ?? ["truth", "label"], option: "--truth-column")
            let p = try LabelFile.read(path: labels, columns: [labelsColumn], option: "--labels-column")
            let (truthLabels, predicted) = try LabelFile.align(t, p)
            var results: [ClusteringScores] = []
            for mode in noise.modes {
                results.append(try ClusteringScores(truth: truthLabels, predicted: predicted, noise: mode))
            }
            print(json ? Self.json(t, p, results) : Self.table(t, p, results), terminator: "")
        } catch let e as DatasetError {
            throw fail(e)
        } catch let e as MetricsError {
            throw fail(e)
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
        func string(_ s: String) -> String {
            var e = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": e += "\\\""
                case "\\": e += "\\\\"
                case _ where u.value < 0x20: e += cFormat("\\u%04x", u.value)
                default: e.unicodeScalars.append(u)
                }
            }
            return e + "\""
        }
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

/// One label column of a CSV file, with the ids of its rows when it has an `id` column.
struct LabelFile {
    var path: String
    var column: String
    var labels: [Int32]
    var hasIDs: Bool
    /// Row ids as concatenated UTF-8 bytes (`idEnds[i]` is where row i's id ends).
    var idBytes: [UInt8]
    var idEnds: [Int]
    /// 1-based file line of each row.
    var lines: [Int32]

    func id(_ i: Int) -> String {
        let lo = i == 0 ? 0 : idEnds[i - 1]
        return String(decoding: idBytes[lo..<idEnds[i]], as: UTF8.self)
    }

    /// Reads the first of `columns` that the header has (and `id`, if present), streaming.
    /// - Throws: `DatasetError` naming the file, and the line and column of a label that is not
    ///   an integer.
    static func read(path: String, columns: [String], option: String) throws(DatasetError) -> LabelFile {
        var v = Visitor(path: path, wanted: columns, option: option)
        _ = try CSVStreamParser.parse(path: path, into: &v)
        guard v.sawHeader else { throw .empty(path: path) }
        guard !v.labels.isEmpty else { throw .headerOnly(path: path) }
        return LabelFile(path: path, column: v.header[v.labelColumn], labels: v.labels, hasIDs: v.idColumn >= 0,
                         idBytes: v.idBytes, idEnds: v.idEnds, lines: v.lines)
    }

    private struct Visitor: CSVVisitor {
        let path: String
        let wanted: [String]
        let option: String
        var header: [String] = []
        var sawHeader = false
        var labelColumn = -1, idColumn = -1
        var labels: [Int32] = [], lines: [Int32] = []
        var idBytes: [UInt8] = [], idEnds: [Int] = []

        init(path: String, wanted: [String], option: String) { self.path = path; self.wanted = wanted; self.option = option }

        mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError) {
            if !sawHeader { header.append(String(decoding: bytes, as: UTF8.self)); return }
            if index == labelColumn {
                guard let l = Self.parseLabel(bytes) else {
                    throw .invalidOption(option: option, value: header[index],
                                         reason: "\(path):\(line): '\(String(decoding: bytes, as: UTF8.self))' is not an integer label (-1 for noise)")
                }
                labels.append(l)
            } else if index == idColumn {
                idBytes.append(contentsOf: bytes)
                idEnds.append(idBytes.count)
            }
        }

        mutating func endRecord(line: Int, fieldCount: Int) throws(DatasetError) {
            if !sawHeader {
                sawHeader = true
                let names = header.map { $0.trimmingWhitespace().lowercased() }
                guard let c = wanted.lazy.compactMap({ names.firstIndex(of: $0.lowercased()) }).first else {
                    throw .missingColumns(path: path, wanted: wanted.map { "'\($0)'" }.joined(separator: " or "), found: header)
                }
                labelColumn = c
                idColumn = names.firstIndex(of: "id") ?? -1
                return
            }
            guard fieldCount == header.count else {
                throw .raggedRow(path: path, line: line, expected: header.count, found: fieldCount)
            }
            lines.append(Int32(truncatingIfNeeded: line))
        }

        /// An integer, optionally signed and with a zero fraction ("3", "-1", "3.0"), spaces around.
        static func parseLabel(_ b: UnsafeBufferPointer<UInt8>) -> Int32? {
            var i = 0, e = b.count
            while i < e && b[i] == 0x20 { i += 1 }
            while e > i && b[e - 1] == 0x20 { e -= 1 }
            var negative = false
            if i < e && (b[i] == 0x2D || b[i] == 0x2B) { negative = b[i] == 0x2D; i += 1 }
            var value: Int64 = 0, digits = 0
            while i < e && b[i] >= 0x30 && b[i] <= 0x39 {
                value = value * 10 + Int64(b[i] - 0x30); digits += 1; i += 1
                if value > Int64(Int32.max) + 1 { return nil }
            }
            if i < e && b[i] == 0x2E {
                i += 1
                while i < e && b[i] == 0x30 { i += 1 }
            }
            guard digits > 0, i == e else { return nil }
            let v = negative ? -value : value
            return v >= Int64(Int32.min) && v <= Int64(Int32.max) ? Int32(v) : nil
        }
    }

    /// The two label arrays in matching order: by id when both files have ids (the truth's
    /// order), else by row.
    /// - Throws: `DatasetError.invalidOption` naming the file and line of the first id that
    ///   is duplicated or missing from the other file, or the row counts when rows are matched
    ///   by order.
    static func align(_ t: LabelFile, _ p: LabelFile) throws(DatasetError) -> ([Int32], [Int32]) {
        func mismatch(_ reason: String) -> DatasetError { .invalidOption(option: "--labels", value: p.path, reason: reason) }
        if t.hasIDs != p.hasIDs {
            let (with, without) = t.hasIDs ? (t.path, p.path) : (p.path, t.path)
            throw mismatch("\(with) has an id column but \(without) does not; give both files ids, or neither (rows are then matched by order)")
        }
        if !t.hasIDs {
            guard t.labels.count == p.labels.count else {
                throw mismatch("\(t.path) has \(t.labels.count) rows but \(p.path) has \(p.labels.count); without id columns rows are matched by order")
            }
            return (t.labels, p.labels)
        }
        // Same ids in the same order (the usual case: both written from one input file): the
        // rows pair up as they are, and no lookup table is needed.
        if t.idBytes == p.idBytes && t.idEnds == p.idEnds { return (t.labels, p.labels) }
        var row = [String: Int](minimumCapacity: t.labels.count)
        for i in 0..<t.labels.count {
            if let j = row.updateValue(i, forKey: t.id(i)) {
                throw mismatch("\(t.path):\(t.lines[i]): id '\(t.id(i))' appears again (first on line \(t.lines[j])); ids must be unique")
            }
        }
        var predicted = [Int32](repeating: 0, count: t.labels.count)
        var seen = [Bool](repeating: false, count: t.labels.count)
        for i in 0..<p.labels.count {
            guard let j = row[p.id(i)] else {
                throw mismatch("\(p.path):\(p.lines[i]): id '\(p.id(i))' is not in \(t.path)")
            }
            if seen[j] { throw mismatch("\(p.path):\(p.lines[i]): id '\(p.id(i))' appears again; ids must be unique") }
            seen[j] = true
            predicted[j] = p.labels[i]
        }
        if let j = seen.firstIndex(of: false) {
            throw mismatch("\(t.path):\(t.lines[j]): id '\(t.id(j))' is not in \(p.path)")
        }
        return (t.labels, predicted)
    }
}

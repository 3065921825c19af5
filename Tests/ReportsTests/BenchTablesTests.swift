import Foundation
import Harness
import Reports
import Testing

@Suite("Benchmark tables")
struct BenchTablesTests {
    @Test("text cells a spreadsheet would run are neutralised; others are left alone")
    func neutralise() {
        #expect(BenchTables.neutralised("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")")
        #expect(BenchTables.neutralised("+1") == "'+1")
        #expect(BenchTables.neutralised("-cmd") == "'-cmd")
        #expect(BenchTables.neutralised("@SUM(A1)") == "'@SUM(A1)")
        #expect(BenchTables.neutralised("\tx") == "'\tx")
        #expect(BenchTables.neutralised("seoul-10k") == "seoul-10k")
        #expect(BenchTables.neutralised("") == "")
    }

    @Test("runs.csv: neutralised text, numbers as numbers, and rows that read back the same (resume)")
    func roundTrip() throws {
        var row = RunRow(dataset: "=evil()", points: 1000, datasetHash: "abc", hasTruth: true, implementation: "geocluster",
                         method: "hdbscan", parameters: "min_cluster_size=30 min_samples=15", repeatIndex: 2, status: .error,
                         error: "-1 is, \"odd\"", stages: ["reading": 0.5, "MST": 0.25, "core points": 0.125],
                         fitSeconds: 1.5, processSeconds: 2.25, peakMegabytes: 12.5, clusters: 7, noiseFraction: 0.25,
                         mstWeight: 123456.789, partitionHash: "0123456789abcdef", ari: -0.01, ami: 0.5, vMeasure: 0.75,
                         noisePrecision: 1, noiseRecall: 0.5, implementationVersion: "0.1.0", geoclusterVersion: "0.1.0",
                         commit: "deadbeef", machine: "cpu; 2 cores")
        row.binary = "feed"
        row.scenario = "seoul"
        row.metric = "geodesic"
        row.fitScope = .mst
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try BenchTables.write([row], columns: BenchTables.runColumns, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("dataset,scenario,points,dataset_hash,has_truth,implementation,"))
        #expect(text.contains("\n'=evil(),seoul,1000,abc,1,geocluster,"), "\(text)")
        #expect(text.contains("\"'-1 is, \"\"odd\"\"\""), "quoted and neutralised: \(text)")
        #expect(text.contains(",-0.01,"), "a negative number is a number, not neutralised")
        let back = BenchTables.readRuns(path: path)
        #expect(back.count == 1)
        var expected = row
        expected.dataset = "=evil()"
        #expect(back.first == expected)
    }

    @Test("the committed reports/README.md is what bench writes (regenerate it with make demo)")
    func committedDocument() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let committed = try String(contentsOf: root.appendingPathComponent("reports/README.md"), encoding: .utf8)
        #expect(committed == BenchTables.columnsDocument())
    }

    @Test("README.md documents every column of both tables with its unit and direction")
    func columnsDocument() {
        let doc = BenchTables.columnsDocument()
        for c in BenchTables.runColumns { #expect(doc.contains("| `\(c.name)` |"), "\(c.name)") }
        for c in BenchTables.summaryColumns { #expect(doc.contains("| `\(c.name)` |"), "\(c.name)") }
        #expect(doc.contains("| `fit_s` | s | lower |"))
        #expect(doc.contains("| `ari_noise_as_cluster` | – | higher |"))
    }
}

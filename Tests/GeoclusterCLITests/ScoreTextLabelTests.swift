import Foundation
import Testing
import TestSupport

/// A case of Tests/Fixtures/score_text (scripts/reference/make_score_text_fixtures.py): two
/// label files as text and scikit-learn's scores on the same strings.
struct TextScoreFixture: Decodable, Sendable, CustomTestStringConvertible {
    var name: String
    var truthCsv: String
    var truthColumn: String
    var truthKind: String
    var labelsCsv: String
    var labelsColumn: String
    var labelsKind: String
    var noiseLabel: String?
    var matchedBy: String
    var scores: [String: [String: Double]]

    var testDescription: String { name }

    static let all: [TextScoreFixture] = TestPaths.jsonFixtures("score_text").map { url in
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try! decoder.decode(TextScoreFixture.self, from: Data(contentsOf: url))
    }
}

/// The adjusted Rand index by counting pairs (Hubert & Arabie 1985), over any hashable
/// labels: an oracle independent of the Metrics module.
func pairCountingARI<T: Hashable, U: Hashable>(_ a: [T], _ b: [U]) -> Double {
    func pairs(_ n: Int) -> Double { Double(n) * Double(n - 1) / 2 }
    var cells: [Int: Int] = [:], rows: [T: Int] = [:], columns: [U: Int] = [:]
    var rowIndex: [T: Int] = [:], columnIndex: [U: Int] = [:]
    for (x, y) in zip(a, b) {
        let i = rowIndex[x] ?? rowIndex.count, j = columnIndex[y] ?? columnIndex.count
        rowIndex[x] = i; columnIndex[y] = j
        cells[i * 1_000_003 + j, default: 0] += 1
        rows[x, default: 0] += 1; columns[y, default: 0] += 1
    }
    let index = cells.values.reduce(0) { $0 + pairs($1) }
    let sumA = rows.values.reduce(0) { $0 + pairs($1) }, sumB = columns.values.reduce(0) { $0 + pairs($1) }
    let expected = sumA * sumB / pairs(a.count), maximum = (sumA + sumB) / 2
    return maximum == expected ? 1 : (index - expected) / (maximum - expected)
}

@Suite("geocluster score: text labels and files without ids")
struct ScoreTextLabelTests {
    @Test("the fixtures are there")
    func fixturesPresent() {
        #expect(TextScoreFixture.all.map(\.name).sorted()
                == ["integer_truth_text_labels", "larger_random", "noise_label_text_both", "states_by_row_order", "unicode_and_quotes"])
    }

    @Test("text labels score as scikit-learn scores the same strings, in every noise mode", arguments: TextScoreFixture.all)
    func matchesScikitLearn(_ f: TextScoreFixture) throws {
        try withTemporaryFolder { folder throws in
            try folder.write(f.truthCsv, to: "truth.csv")
            try folder.write(f.labelsCsv, to: "labels.csv")
            var arguments = ["score", "--truth", "truth.csv", "--truth-column", f.truthColumn, "--labels", "labels.csv",
                             "--labels-column", f.labelsColumn, "--json"]
            if let noise = f.noiseLabel { arguments += ["--noise-label", noise] }
            let r = try folder.run(arguments)
            try #require(r.status == 0, "\(r)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            #expect(object["matched_by"] as? String == f.matchedBy)
            #expect((object["truth"] as? [String: Any])?["text_labels"] as? Bool == (f.truthKind == "text"))
            #expect((object["labels"] as? [String: Any])?["text_labels"] as? Bool == (f.labelsKind == "text"))
            let scores = try #require(object["scores"] as? [String: [String: Any]])
            for (mode, expected) in f.scores {
                let got = try #require(scores[mode], "no mode \(mode)")
                for (name, value) in expected {
                    let g = try #require((got[name] as? NSNumber)?.doubleValue, "\(mode) has no \(name)")
                    #expect(abs(g - value) <= 1e-9, "\(f.name) \(mode) \(name): \(g), scikit-learn \(value)")
                }
            }
        }
    }

    static func copyAirports(to folder: TemporaryFolder) throws {
        try FileManager.default.copyItem(atPath: TestPaths.fixtures("airports").appendingPathComponent("us-airports.csv").path,
                                         toPath: folder.path("airports.csv"))
    }

    @Test("cluster then score on a file without an id column: rows matched by order, its state column the truth")
    func clusterThenScore() throws {
        try withTemporaryFolder { folder throws in
            try Self.copyAirports(to: folder)
            var r = try folder.run("cluster", "airports.csv", "--min-cluster-size", "2", "-o", "l.csv")
            try #require(r.status == 0, "\(r)")
            r = try folder.run("score", "--truth", "airports.csv", "--truth-column", "state", "--labels", "l.csv", "--noise", "as-cluster")
            try #require(r.status == 0, "\(r)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("truth:  airports.csv (column state, text): 37 rows, 16 labels, 0 noise"), "\(r.stdout)")
            #expect(lines.contains("matched by row order (airports.csv has no id column)"), "\(r.stdout)")

            // The ARI printed equals pair counting on the two files' columns, read here.
            let states = parseCSV(try folder.read("airports.csv")).dropFirst().map { $0[2] }
            let labels = parseCSV(try folder.read("l.csv")).dropFirst().map { $0[1] }
            let ari = pairCountingARI(states, labels)
            #expect(Set(labels).count > 3 && ari > 0.3 && ari < 0.99, "a partition worth scoring: ARI \(ari)")
            #expect(lines.contains("ARI" + String(repeating: " ", count: 18) + String(format: "%.6f", ari)), "\(r.stdout)")
        }
    }

    @Test("cluster --id-column writes the input's own id column; score and hulls match by it")
    func idColumnName() throws {
        try withTemporaryFolder { folder throws in
            try Self.copyAirports(to: folder)
            var r = try folder.run("cluster", "airports.csv", "--id-column", "IATA", "--min-cluster-size", "2", "-o", "l.csv")
            try #require(r.status == 0, "\(r)")
            let rows = parseCSV(try folder.read("l.csv"))
            #expect(rows[0] == ["iata", "label", "probability", "outlier_score"], "the header's own spelling")
            #expect(rows[1][0] == "JFK" && rows[37][0] == "HNL")
            r = try folder.run("cluster", "airports.csv", "--id-column", "iata", "--min-cluster-size", "2", "-o", "l.geojson")
            try #require(r.status == 0, "\(r)")
            #expect(try folder.read("l.geojson").contains(#""iata":"JFK""#))

            // Shuffled rows still match, by the iata column of both files.
            let shuffled = [rows[0]] + rows.dropFirst().reversed()
            try folder.write(shuffled.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n", to: "r.csv")
            r = try folder.run("score", "--truth", "airports.csv", "--truth-column", "state", "--labels", "r.csv",
                               "--id-column", "iata", "--noise", "as-cluster")
            try #require(r.status == 0, "\(r)")
            #expect(r.stdout.contains("\nmatched by id\n"), "\(r.stdout)")
            let ari = pairCountingARI(parseCSV(try folder.read("airports.csv")).dropFirst().map { $0[2] }, rows.dropFirst().map { $0[1] })
            #expect(r.stdout.contains(String(format: "%.6f", ari)), "\(r.stdout)")

            r = try folder.run("hulls", "airports.csv", "--labels", "l.csv", "--id-column", "iata", "-o", "h.geojson")
            #expect(r.status == 0, "\(r)")
            r = try folder.run("hulls", "airports.csv", "--labels", "r.csv", "--id-column", "iata", "-o", "h2.geojson")
            #expect(r.status == 1 && r.stderr.contains("r.csv") && r.stderr.contains("HNL"), "reversed rows are not the input's: \(r)")
        }
    }

    @Test("bad input: row counts that differ, an --id-column the truth lacks, a --noise-label no column can use; nothing on stdout")
    func refusals() throws {
        try withTemporaryFolder { folder throws in
            try Self.copyAirports(to: folder)
            var r = try folder.run("cluster", "airports.csv", "--min-cluster-size", "2", "-o", "l.csv")
            try #require(r.status == 0, "\(r)")
            let head = try folder.read("airports.csv").split(separator: "\n").prefix(11).joined(separator: "\n") + "\n"
            try folder.write(head, to: "ten.csv")
            r = try folder.run("score", "--truth", "ten.csv", "--truth-column", "state", "--labels", "l.csv")
            #expect(r.status == 1 && r.stdout.isEmpty, "\(r)")
            #expect(r.stderr.contains("geocluster: error: --labels 'l.csv': ten.csv has 10 rows but l.csv has 37; ten.csv has no id column"), "\(r)")

            r = try folder.run("score", "--truth", "airports.csv", "--truth-column", "state", "--labels", "l.csv", "--id-column", "code")
            #expect(r.status == 1 && r.stdout.isEmpty && r.stderr.contains("airports.csv: no 'code' (--id-column) column"), "\(r)")

            r = try folder.run("score", "--truth", "airports.csv", "--truth-column", "state", "--labels", "l.csv", "--shared-ids")
            #expect(r.status == 1 && r.stderr.contains("--shared-ids matches rows by id, but airports.csv has no id column"), "\(r)")

            try folder.write("truth\n" + (0..<37).map { "\($0 % 3)\n" }.joined(), to: "int.csv")
            r = try folder.run("score", "--truth", "int.csv", "--labels", "l.csv", "--noise-label", "NA")
            #expect(r.status == 1 && r.stdout.isEmpty, "\(r)")
            #expect(r.stderr.contains("--noise-label 'NA': the label columns of int.csv ('truth') and l.csv ('label') hold integers"), "\(r)")

            r = try folder.run("score", "--truth", "airports.csv", "--truth-column", "state", "--labels", "l.csv", "--noise-label", "ZZ")
            #expect(r.status == 0 && r.stderr.contains("warning: --noise-label 'ZZ' is not a value of airports.csv's column 'state'"), "\(r)")

            // Text labels stay an error where labels must be cluster numbers.
            try folder.write("id,label\n" + (0..<37).map { "\($0),c\($0 % 2)\n" }.joined(), to: "text.csv")
            r = try folder.run("hulls", "airports.csv", "--labels", "text.csv", "-o", "h.geojson")
            #expect(r.status == 1 && r.stderr.contains("'c0' is not an integer label"), "\(r)")
        }
    }

    @Test("a text column holding -1: a label like any other, said once; --noise-label -1 makes it noise")
    func minusOneInText() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("truth\nMS\n-1\nMS\nAL\n", to: "t.csv")
            try folder.write("label\n0\n0\n1\n1\n", to: "l.csv")
            var r = try folder.run("score", "--truth", "t.csv", "--labels", "l.csv", "--noise", "excluded")
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("note: t.csv's column 'truth' holds text ('MS' on line 2 is not an integer), so its -1 is a label"), "\(r)")
            #expect(r.stdout.contains("points scored               4"), "\(r.stdout)")
            r = try folder.run("score", "--truth", "t.csv", "--labels", "l.csv", "--noise", "excluded", "--noise-label", "-1")
            try #require(r.status == 0, "\(r)")
            #expect(!r.stderr.contains("note:"), "\(r)")
            #expect(r.stdout.contains("points scored               3"), "\(r.stdout)")
        }
    }
}

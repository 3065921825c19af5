import Foundation
import Testing
import TestSupport

@Suite("geocluster score")
struct ScoreCommandTests {
    // scikit-learn's documentation example: labels_true [0, 0, 1, 1], labels_pred [0, 0, 1, 2]
    // (adjusted_rand_score 0.5714…, homogeneity 1, completeness 2/3, v_measure 0.8;
    // Fowlkes–Mallows 1/√2: one pair together in both, two in the truth, one predicted).
    static func write(in folder: TemporaryFolder) throws {
        try folder.write("id,truth\na,0\nb,0\nc,1\nd,1\n", to: "T.csv")
        try folder.write("id,label\nd,2\nc,1\nb,0\na,0\n", to: "L.csv")  // another order: matched by id
    }

    @Test("the table: one aligned row per score, six decimals")
    func table() throws {
        try withTemporaryFolder { folder throws in
            try Self.write(in: folder)
            let r = try folder.run("score", "--truth", "T.csv", "--labels", "L.csv", "--noise", "as-cluster")
            try #require(r.status == 0, "\(r)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("matched by id"))
            for expected in ["noise              as-cluster", "points scored               4",
                             "ARI                  0.571429", "homogeneity          1.000000",
                             "completeness         0.666667", "V-measure            0.800000",
                             "Fowlkes-Mallows      0.707107"] {
                #expect(lines.contains(expected), "no line '\(expected)' in:\n\(r.stdout)")
            }
        }
    }

    @Test("--json escapes the paths and column names it echoes (quote, backslash, tab)")
    func jsonEscapesNames() throws {
        try withTemporaryFolder { folder throws in
            let truth = "T \\ \"1\".csv", column = "tru\\\"t\th"
            try folder.write("id,\"tru\\\"\"t\th\"\na,0\nb,1\n", to: truth)
            try folder.write("id,label\na,0\nb,1\n", to: "L.csv")
            let r = try folder.run("score", "--truth", truth, "--truth-column", column, "--labels", "L.csv",
                                   "--noise", "excluded", "--json")
            try #require(r.status == 0, "\(r)")
            #expect(r.stdout.contains(#""truth": {"path": "T \\ \"1\".csv", "column": "tru\\\"t\th", "rows": 2, "text_labels": false}"#), "\(r.stdout)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            #expect((object["truth"] as? [String: Any])?["path"] as? String == truth)
            #expect((object["truth"] as? [String: Any])?["column"] as? String == column)
        }
    }

    @Test("--json: scikit-learn's score names, full precision")
    func json() throws {
        try withTemporaryFolder { folder throws in
            try Self.write(in: folder)
            let r = try folder.run("score", "--truth", "T.csv", "--labels", "L.csv", "--noise", "as-cluster", "--json")
            try #require(r.status == 0, "\(r)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let scores = try #require((object["scores"] as? [String: Any])?["as-cluster"] as? [String: Any])
            let expected: [String: Double] = [
                "adjusted_rand": 4.0 / 7.0, "homogeneity": 1, "completeness": 2.0 / 3.0,
                "v_measure": 0.8, "fowlkes_mallows": 1 / 2.0.squareRoot(),
            ]
            for (name, value) in expected {
                let got = try #require(scores[name] as? Double, "no \(name)")
                #expect(abs(got - value) < 1e-12, "\(name) \(got), expected \(value)")
            }
        }
    }
}

import Foundation
import Testing
import TestSupport

/// `geocluster check` end to end on the debug binary: a small suite, its own baseline, and the
/// gate failing and passing for the right reasons.
@Suite("geocluster check", .serialized)
struct CheckCommandTests {
    static let hdbscan = #"{"scenario": "seoul", "size": "2k", "method": "hdbscan", "parameters": "min_cluster_size=15 min_samples=5"}"#
    static let suite = """
        {"quality": [\(hdbscan),
                     {"scenario": "seoul", "size": "2k", "method": "dbscan", "parameters": "eps=100 min_samples=5"},
                     {"scenario": "duplicates", "size": "2k", "method": "grid", "parameters": "cell_size=250 merge=true min_points=5"}],
         "counts": [\(hdbscan)],
         "wall": [{"scenario": "seoul", "size": "5k", "method": "hdbscan", "parameters": "min_cluster_size=15 min_samples=5"}],
         "repeats": 7}
        """

    func prepare(_ folder: TemporaryFolder) throws {
        try Self.suite.write(toFile: folder.path("suite.json"), atomically: true, encoding: .utf8)
    }

    func check(_ folder: TemporaryFolder, _ extra: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try CLI.run(["check", "--suite", "suite.json", "--baseline", "baseline.json", "--cache", "cache"] + extra,
                    in: folder.url, timeout: 600, environment: environment)
    }

    /// The program `name` on PATH, if there is one.
    static func onPath(_ name: String) -> URL? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    func editBaseline(_ folder: TemporaryFolder, _ edit: (inout [String: Any]) -> Void) throws {
        let url = folder.url.appendingPathComponent("baseline.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        edit(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: url)
    }

    @Test("no baseline: exit 1 and how to create one; --update-baseline writes it and a rerun passes")
    func createAndPass() throws {
        try withTemporaryFolder { folder in
            try prepare(folder)
            let missing = try check(folder, ["--lanes", "quality"])
            #expect(missing.status == 1, "\(missing)")
            #expect(missing.stderr.contains("baseline.json: no baseline there; create it with `geocluster check --update-baseline"))
            #expect(!FileManager.default.fileExists(atPath: folder.path("baseline.json")))

            let created = try check(folder, ["--update-baseline"])
            #expect(created.status == 0, "\(created)")
            #expect(created.stdout.contains("wrote baseline.json (3 quality cases"))
            let baseline = try folder.read("baseline.json")
            #expect(baseline.contains("\"partitionHash\"") && baseline.contains("\"instructions\"") && baseline.contains("\"ratios\""))

            let pass = try check(folder, ["--lanes", "quality,counts"])
            #expect(pass.status == 0, "\(pass)")
            #expect(pass.stdout.hasPrefix("geocluster check: pass (exit 0;"))
            #expect(pass.stdout.contains("seoul-2k hdbscan min_cluster_size=15 min_samples=5") && pass.stdout.contains("MST"))

            // Updating again keeps the tolerances (edited here) and reports no change.
            try editBaseline(folder) { json in
                var t = json["tolerances"] as! [String: Any]
                t["instructionsRelative"] = 0.02
                json["tolerances"] = t
            }
            let again = try check(folder, ["--update-baseline", "--lanes", "quality"])
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout.contains("against the previous baseline: 3 pass"), "\(again)")
            #expect(try folder.read("baseline.json").contains("\"instructionsRelative\" : 0.02"))
        }
    }

    @Test("an altered baseline (one cluster count, one hash) fails the quality lane on those rows, in every format")
    func alteredBaselineFails() throws {
        try withTemporaryFolder { folder in
            try prepare(folder)
            #expect(try check(folder, ["--update-baseline", "--lanes", "quality"]).status == 0)
            try editBaseline(folder) { json in
                var q = json["quality"] as! [[String: Any]]
                q[0]["clusters"] = (q[0]["clusters"] as! Int) + 1
                q[2]["partitionHash"] = "0000000000000000"
                json["quality"] = q
            }
            let text = try check(folder, ["--lanes", "quality"])
            #expect(text.status == 2, "\(text)")
            #expect(text.stdout.hasPrefix("geocluster check: regression (exit 2; 1 pass, 2 changed)"), "\(text)")
            let changed = text.stdout.split(separator: "\n").filter { $0.hasSuffix("changed") }
            #expect(changed.count == 2)
            #expect(changed.contains { $0.contains("seoul-2k hdbscan") && $0.contains("clusters") })
            #expect(changed.contains { $0.contains("duplicates-2k grid") && $0.contains("partition hash") && $0.contains("0000000000000000") })
            #expect(text.stdout.contains("What to do:") && text.stdout.contains("--update-baseline"))

            let junit = try check(folder, ["--lanes", "quality", "--format", "junit", "--report", "verdict.xml"])
            #expect(junit.status == 2)
            #expect(junit.stdout.contains("verdict: verdict.xml"))
            let xml = try folder.read("verdict.xml")
            #expect(xml.contains("<testsuites name=\"geocluster check\" tests=\"3\" failures=\"2\">"), "\(xml)")
            #expect(xml.contains("<failure type=\"changed\""))

            let json = try check(folder, ["--lanes", "quality", "--format", "json"])
            let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
            #expect(decoded["exitCode"] as? Int == 2 && (decoded["rows"] as? [Any])?.count == 3)

            let markdown = try check(folder, ["--lanes", "quality", "--format", "markdown"])
            #expect(markdown.stdout.hasPrefix("### geocluster check: regression") && markdown.stdout.contains("#### Rows that need attention"))

            // A baseline from another machine kind: a warning, and the quality lane still gates.
            try editBaseline(folder) { $0["machine"] = "some other CPU; 64 cores" }
            let other = try check(folder, ["--lanes", "quality,counts"])
            #expect(other.status == 2)
            #expect(other.stdout.contains("warning: the baseline was measured on another kind of machine (some other CPU; 64 cores)"))
        }
    }

    @Test("a stage that costs more than its baseline fails the counts lane on that stage; the other stages pass")
    func slowerStageFailsCounts() throws {
        try withTemporaryFolder { folder in
            try prepare(folder)
            #expect(try check(folder, ["--update-baseline", "--lanes", "counts"]).status == 0)
            // The baseline says MST cost a fifth less than it does: to the gate, exactly a head
            // whose MST got a quarter more expensive.
            try editBaseline(folder) { json in
                json["counts"] = (json["counts"] as! [[String: Any]]).map { row in
                    var row = row
                    if row["stage"] as? String == "MST" { row["instructions"] = (row["instructions"] as! Int) * 4 / 5 }
                    return row
                }
            }
            let slow = try check(folder, ["--lanes", "counts"])
            #expect(slow.status == 2, "\(slow)")
            let regressions = slow.stdout.split(separator: "\n").filter { $0.hasSuffix("regression") }
            #expect(regressions.count == 1 && regressions[0].hasPrefix("instructions") && regressions[0].contains(" MST "), "\(slow)")
        }
    }

    @Test("A/B: a slower head fails (2), a faster one asks for a refresh (3), the same binary with a busy core passes (0)")
    func abLane() throws {
        try withTemporaryFolder { folder in
            try prepare(folder)
            #expect(try check(folder, ["--update-baseline", "--lanes", "quality"]).status == 0)
            // "Slower" is the same binary run under valgrind's no-op tool, several times slower
            // in every stage, and without debug sections, which valgrind cannot always read.
            let valgrind: URL = try #require(Self.onPath("valgrind"), "the A/B test runs binaries under valgrind")
            let exe = folder.path("geocluster")
            let stripTool = try #require(Self.onPath("strip"))
            let strip = try CLI.run(["--strip-debug", "-o", exe, try #require(CLI.executable).path], in: folder.url, program: stripTool)
            #expect(strip.status == 0, "\(strip)")
            let base = folder.path("base.sh")
            try "#!/bin/sh\nexec \(exe) \"$@\"\n".write(toFile: base, atomically: true, encoding: .utf8)
            let slowBase = folder.path("slow-base.sh")
            try "#!/bin/sh\nexec \(valgrind.path) -q --tool=none \(exe) \"$@\"\n".write(toFile: slowBase, atomically: true, encoding: .utf8)
            for script in [base, slowBase] { chmod(script, 0o755) }
            let arguments = ["check", "--suite", "suite.json", "--baseline", "baseline.json", "--cache", "cache", "--lanes", "quality"]

            // The head under valgrind, following its own cells but not the base's script.
            let slower = try CLI.run(["-q", "--tool=none", "--trace-children=yes", "--trace-children-skip=*/base.sh", exe]
                                     + arguments + ["--against", base], in: folder.url, timeout: 900, program: valgrind)
            #expect(slower.status == 2, "\(slower)")
            #expect(slower.stdout.split(separator: "\n").contains { $0.hasPrefix("a/b") && $0.hasSuffix("regression") }, "\(slower)")

            let faster = try CLI.run(arguments + ["--against", slowBase], in: folder.url, timeout: 900)
            #expect(faster.status == 3, "\(faster)")
            #expect(faster.stdout.split(separator: "\n").contains { $0.hasPrefix("a/b") && $0.hasSuffix("improvement") })

            // One core kept busy by another process the whole time: the same binary passes.
            let busy = Process()
            busy.executableURL = URL(fileURLWithPath: "/bin/sh")
            busy.arguments = ["-c", "while :; do :; done"]
            try busy.run()
            // SIGKILL: the shell inherits the test runner's signal dispositions, which may ignore
            // SIGTERM (seen: terminate() left it spinning).
            defer { kill(busy.processIdentifier, SIGKILL); busy.waitUntilExit() }
            let same = try check(folder, ["--lanes", "quality", "--against", base])
            #expect(same.status == 0, "\(same)")
            #expect(same.stdout.split(separator: "\n").filter { $0.hasPrefix("a/b") }.count == 2)
        }
    }

    @Test("usage mistakes exit 64; a bad suite file exits 1 naming it")
    func badInput() throws {
        try withTemporaryFolder { folder in
            try prepare(folder)
            #expect(try check(folder, ["--repeat", "1"]).status == 64)
            #expect(try check(folder, ["--lanes", "speed"]).status == 64)
            #expect(try check(folder, ["--format", "html"]).status == 64)
            #expect(try check(folder, ["--update-baseline", "--against", "/bin/true"]).status == 64)
            try "{\"quality\": [}".write(toFile: folder.path("broken.json"), atomically: true, encoding: .utf8)
            let broken = try CLI.run(["check", "--suite", "broken.json", "--update-baseline", "--baseline", "b.json"], in: folder.url)
            #expect(broken.status == 1 && broken.stderr.contains("broken.json: not a check suite"), "\(broken)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("b.json")))
        }
    }
}

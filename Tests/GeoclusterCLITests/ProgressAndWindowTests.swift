import Foundation
import Pins
import Testing
import TestSupport

/// Progress lines on a terminal (and nothing in a pipe), `hulls --threads`, `map --center-lon`.
@Suite("progress, hull threads and the map's centre")
struct ProgressAndWindowTests {
    /// Runs geocluster under `script`, which gives it a terminal for standard error; what the
    /// terminal showed.
    static func onTerminal(_ arguments: [String], in folder: TemporaryFolder) throws -> (status: Int32, shown: String) {
        let exe = try #require(CLI.executable)
        let command = ([exe.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["script", "-qec", command, "/dev/null"]
        process.currentDirectoryURL = folder.url
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let shown = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: shown, as: UTF8.self))
    }

    @Test("map, hulls, privacy, pins and cluster show their stages on a terminal, wiped before the last line; a pipe gets none of it")
    func progressOnlyOnATerminal() throws {
        try withTemporaryFolder { folder throws in
            try MapCommandTests.clusterSeoul(in: folder)
            try folder.write(PinsKey.generate().hexEncoded() + "\n", to: "k")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.path("k"))
            let runs: [(arguments: [String], stage: String)] = [
                (["map", MapCommandTests.seoul, "--labels", "L.csv", "-o", "m.svg"], "outlining 33 clusters on "),
                (["hulls", MapCommandTests.seoul, "--labels", "L.csv", "-o", "h.geojson"], "outlining the clusters of 5,000 points"),
                (["privacy", MapCommandTests.seoul, "--key-file", "k", "-o", "p.csv"], "auditing the displayed positions"),
                (["pins", MapCommandTests.seoul, "--key-file", "k", "--zooms", "10-12", "-o", "p.geojson"], "masking and building the index of 5,000 listings"),
                (["cluster", MapCommandTests.seoul, "-o", "c.csv"], "core distances"),
            ]
            for run in runs {
                let terminal = try Self.onTerminal(run.arguments, in: folder)
                #expect(terminal.status == 0, "\(terminal.shown)")
                #expect(terminal.shown.contains("\r" + run.stage) && terminal.shown.contains("\r\u{1B}[K"), "\(terminal.shown)")
                #expect(terminal.shown.contains("\rwriting"), "\(terminal.shown)")
                let piped = try folder.run(run.arguments)
                #expect(piped.status == 0 && !piped.stderr.contains("\r") && !piped.stdout.contains("\r"), "\(piped)")
            }
        }
    }

    @Test("hulls give the same file on 1 and 2 threads; --threads out of range is a usage error")
    func hullThreads() throws {
        try withTemporaryFolder { folder throws in
            try MapCommandTests.clusterSeoul(in: folder)
            for threads in ["1", "2"] {
                let r = try folder.run("hulls", MapCommandTests.seoul, "--labels", "L.csv", "-o", "h\(threads).geojson", "--threads", threads)
                try #require(r.status == 0, "\(r)")
            }
            #expect(try folder.data("h1.geojson") == folder.data("h2.geojson"))
            let bad = try folder.run("hulls", MapCommandTests.seoul, "--labels", "L.csv", "-o", "h0.geojson", "--threads", "0")
            #expect(bad.status == 64 && bad.stderr.contains("--threads must be at least 1"), "\(bad)")
        }
    }

    @Test("--center-lon moves the 180° line; outside −180…180 or with --bbox it is refused (exit 64)")
    func centreLongitude() throws {
        try withTemporaryFolder { folder throws in
            let g = try folder.run("generate", "--scenario", "world", "--count", "3000", "--seed", "4", "-o", "w.csv")
            try #require(g.status == 0, "\(g)")
            try #require(try folder.run("cluster", "w.csv", "-o", "L.csv").status == 0)
            let plain = try folder.run("map", "w.csv", "--labels", "L.csv", "-o", "a.svg")
            let centred = try folder.run("map", "w.csv", "--labels", "L.csv", "-o", "b.svg", "--center-lon", "150")
            try #require(plain.status == 0 && centred.status == 0, "\(plain)\(centred)")
            // World-wide data is drawn Greenwich-centred (no 180° line); centred on 150°E the
            // line is in the map, right of its middle.
            #expect(!(try folder.read("a.svg")).contains("class=\"antimeridian\""))
            let svg = try folder.read("b.svg")
            let line = try #require(svg.firstMatch(of: #/<path d="M([0-9.]+) [^"]*"[^>]*class="antimeridian"/#))
            let frame = try #require(svg.firstMatch(of: #/<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"[^>]*fill="#f7f7f5"/#))
            let (x, left, width) = (try #require(Double(line.1)), try #require(Double(frame.1)), try #require(Double(frame.2)))
            #expect((x - left) / width > 0.5 && (x - left) / width < 0.7, "\(x) \(left) \(width)")
            for extra in [["--center-lon", "181"], ["--center-lon", "10", "--bbox", "0,0,20,20"]] {
                let r = try folder.run(["map", "w.csv", "--labels", "L.csv", "-o", "c.svg"] + extra)
                #expect(r.status == 64 && r.stderr.contains("--center-lon"), "\(r)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.path("c.svg")))
        }
    }
}

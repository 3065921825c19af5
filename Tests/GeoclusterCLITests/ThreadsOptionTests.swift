import Foundation
import Pins
import Testing
import TestSupport

/// `--threads` is 1...1024 in every command: a count beyond it used to size per-worker state
/// (10^12 hung, 2^63 − 1 crashed on overflow); now it is a usage error before any work.
@Suite("--threads is bounded")
struct ThreadsOptionTests {
    @Test("--threads 0, 1025 and 2^63 − 1: exit 64 at once, naming the flag and the range, nothing written",
          arguments: ["0", "1025", "9223372036854775807"])
    func outOfRange(value: String) throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.planar(perBlob: 10).text, to: "IN.csv")
            try folder.write(PinsKey.generate().hexEncoded() + "\n", to: "k")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.path("k"))
            let commands: [[String]] = [
                ["cluster", "IN.csv", "-o", "OUT.csv"],
                ["privacy", PinsCommandTests.seoul, "--key-file", "k", "-o", "r.csv"],
                ["tree", "IN.csv", "-o", "t.svg"],
                ["bench", "--sizes", "1k", "--methods", "grid", "--out", "rep", "--cache", "cache"],
                ["check", "--cache", "cache"],
                ["bench-cell", "IN.csv", "--method", "hdbscan", "--parameters", "min_cluster_size=5", "--labels", "l.csv", "--record", "r.json"],
            ]
            for command in commands {
                let r = try CLI.run(command + ["--threads", value], in: folder.url, timeout: 30)
                #expect(!r.crashed && r.status == 64, "\(command[0]) --threads \(value): \(r)")
                #expect(r.stderr.contains("--threads must be at least 1"), "\(command[0]): \(r.stderr)")
                if value != "0" { #expect(r.stderr.contains("at most 1024"), "\(command[0]): \(r.stderr)") }
            }
            #expect(try folder.contents() == ["IN.csv", "k"])
        }
    }

    @Test("--threads 1024, the largest, is accepted and gives the labels of --threads 1")
    func largestIsAccepted() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.planar(perBlob: 10).text, to: "IN.csv")
            for threads in ["1", "1024"] {
                let r = try folder.run("cluster", "IN.csv", "-o", "OUT\(threads).csv", "--threads", threads)
                try #require(r.status == 0, "\(r)")
            }
            #expect(try folder.data("OUT1.csv") == folder.data("OUT1024.csv"))
        }
    }
}

import Foundation
import Testing
import TestSupport

/// `cluster` on an input of 16 MiB or more starts itself again with transparent huge pages
/// (see `Geocluster.tuneMemory(forInput:)`): same output, `--timings` says so, and the switch
/// `GEOCLUSTER_HUGE_PAGES=0` and the user's own `GLIBC_TUNABLES` are respected.
@Suite("Huge pages for large inputs")
struct HugePagesTests {
    /// Whether this kernel gives huge pages on request only (the case the restart is for).
    static let madviseMode: Bool = {
        let mode = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        return mode.contains("[madvise]")
    }()

    /// Three blobs whose rows carry a text column of `padding` bytes: a large file that
    /// clusters in milliseconds (300 rows).
    static func largeFile(in folder: TemporaryFolder, name: String = "big.csv", padding: Int = 64 << 10) throws -> Blobs {
        let blobs = Blobs.planar(perBlob: 100)
        let note = [UInt8](repeating: UInt8(ascii: "p"), count: padding)
        var bytes = Array("id,x,y,note\n".utf8)
        for line in blobs.text.split(separator: "\n").dropFirst() {
            bytes += Array(line.utf8) + [UInt8(ascii: ",")] + note + [UInt8(ascii: "\n")]
        }
        _ = try folder.write(bytes: bytes, to: name)
        return blobs
    }

    /// The value of a `--timings` line (`huge pages`, `freed memory`).
    static func timing(_ name: String, _ stderr: String) -> String? {
        stderr.split(separator: "\n").first { $0.hasPrefix(name) }.map { String($0.split(separator: " ").last!) }
    }

    static func pagesLine(_ stderr: String) -> String? { timing("huge pages", stderr) }

    @Test("the restarted run gives the same labels, says so in --timings, and can be switched off")
    func sameOutput() throws {
        try withTemporaryFolder { folder in
            let blobs = try Self.largeFile(in: folder)
            let args = ["cluster", "big.csv", "--min-cluster-size", "5", "--timings", "-o"]
            let on = try folder.run(args + ["on.csv"])
            try #require(on.status == 0 && !on.crashed, "\(on)")
            let off = try folder.run(args + ["off.csv"], environment: ["GEOCLUSTER_HUGE_PAGES": "0"])
            try #require(off.status == 0 && !off.crashed, "\(off)")
            // The user's own tunables are kept (a harmless one here) and the restart still happens.
            let own = try folder.run(args + ["own.csv"], environment: ["GLIBC_TUNABLES": "glibc.malloc.perturb=0"])
            try #require(own.status == 0 && !own.crashed, "\(own)")
            // A user who set the tunable decides alone: no restart.
            let set = try folder.run(args + ["set.csv"], environment: ["GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"])
            try #require(set.status == 0 && !set.crashed, "\(set)")

            #expect(Self.pagesLine(on.stderr) == (Self.madviseMode ? "on" : "off"), "\(on.stderr)")
            #expect(Self.pagesLine(own.stderr) == (Self.madviseMode ? "on" : "off"), "\(own.stderr)")
            #expect(Self.pagesLine(off.stderr) == "off")
            #expect(Self.pagesLine(set.stderr) == "off")
            // From 16 MiB freed arrays go back to the system (the 1M budget of 150 MB).
            #expect(Self.timing("freed memory", on.stderr) == "returned")
            let reference = try folder.read("off.csv")
            for name in ["on.csv", "own.csv", "set.csv"] { #expect(try folder.read(name) == reference, "\(name)") }
            expectThreeBlobClusters(try Labels(csv: reference), blobs)
            // One run's messages, not two: the restart happens before anything is written.
            #expect(on.stderr.components(separatedBy: "300 points").count == 2, "\(on.stderr)")
        }
    }

    @Test("from 256 MiB freed memory is kept for reuse, same labels")
    func veryLargeInput() throws {
        try withTemporaryFolder { folder in
            // 300 rows of 900 KiB: past 256 MiB.
            let blobs = try Self.largeFile(in: folder, name: "huge.csv", padding: 900 << 10)
            let r = try folder.run(["cluster", "huge.csv", "--min-cluster-size", "5", "--timings", "-o", "l.csv"])
            try #require(r.status == 0 && !r.crashed, "\(r)")
            #expect(Self.timing("freed memory", r.stderr) == "kept")
            #expect(Self.pagesLine(r.stderr) == (Self.madviseMode ? "on" : "off"))
            // The lean behaviour on request, same labels.
            let lean = try folder.run(["cluster", "huge.csv", "--min-cluster-size", "5", "--timings", "-o", "lean.csv"],
                                      environment: ["GEOCLUSTER_REUSE_FREED_MEMORY": "0"])
            try #require(lean.status == 0, "\(lean)")
            #expect(Self.timing("freed memory", lean.stderr) == "returned")
            #expect(try folder.read("lean.csv") == (try folder.read("l.csv")))
            expectThreeBlobClusters(try Labels(csv: try folder.read("l.csv")), blobs)
            // The same labels as from the small file's usual path.
            _ = try folder.write(blobs.text, to: "small.csv")
            let small = try folder.run(["cluster", "small.csv", "--min-cluster-size", "5", "-o", "s.csv"])
            try #require(small.status == 0, "\(small)")
            #expect(try folder.read("l.csv") == (try folder.read("s.csv")))
        }
    }

    @Test("a small input is not restarted")
    func smallInput() throws {
        try withTemporaryFolder { folder in
            _ = try folder.write(Blobs.planar(perBlob: 50).text, to: "small.csv")
            let r = try folder.run(["cluster", "small.csv", "--min-cluster-size", "5", "--timings", "-o", "l.csv"])
            try #require(r.status == 0, "\(r)")
            #expect(Self.pagesLine(r.stderr) == "off")
            #expect(Self.timing("freed memory", r.stderr) == "kept")
        }
    }
}

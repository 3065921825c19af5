#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder a benchmark report is built in, `.bench-PID` inside the report folder OUT, and
/// moved into place entry by entry once complete: a run that fails leaves OUT as it was (and
/// removes OUT if the run made it).
public struct BenchStagingFolder: Sendable {
    /// The report folder.
    public let out: String
    /// The staging folder inside it.
    public let path: String
    /// Whether OUT did not exist before, so a failed run removes it again.
    let createdOut: Bool

    /// Creates OUT if needed and an empty staging folder inside it.
    /// - Throws: `HarnessError.bench` when either cannot be created.
    public init(out: String) throws(HarnessError) {
        let fm = FileManager.default
        self.out = out
        self.path = out + "/.bench-\(getpid())"
        createdOut = !fm.fileExists(atPath: out)
        do {
            try fm.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw .bench("--out \(out): cannot create the folder (\(error)); choose a folder you can write")
        }
        try? fm.removeItem(atPath: path)
        do {
            try fm.createDirectory(atPath: path, withIntermediateDirectories: false)
        } catch {
            throw .bench("--out \(out): cannot write into the folder (\(error)); choose a folder you can write")
        }
    }

    /// Moves every entry into OUT, each replacing the one of the same name there, and removes
    /// the staging folder.
    public func publish() throws {
        let fm = FileManager.default
        for entry in try fm.contentsOfDirectory(atPath: path) {
            let target = out + "/" + entry
            try? fm.removeItem(atPath: target)
            try fm.moveItem(atPath: path + "/" + entry, toPath: target)
        }
        try? fm.removeItem(atPath: path)
    }

    /// Removes the staging folder, and OUT when this run created it.
    public func discard() {
        try? FileManager.default.removeItem(atPath: path)
        if createdOut { try? FileManager.default.removeItem(atPath: out) }
    }

    /// Runs `body` with a new staging folder inside `out` and publishes what it wrote; when
    /// `body` or the publishing fails, discards it and rethrows.
    public static func staged<R>(out: String, _ body: (BenchStagingFolder) throws -> R) throws -> R {
        let folder = try BenchStagingFolder(out: out)
        do {
            let result = try body(folder)
            try folder.publish()
            return result
        } catch {
            folder.discard()
            throw error
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes output files so that a failure never leaves a half-written file: the bytes go to a
/// temporary file in the same folder, which is then renamed over the destination (a device or
/// FIFO destination is written in place). The streaming writers use the same mechanism.
public enum AtomicFile {
    /// The output path that means standard output (written as it comes, never renamed).
    public static let standardOutput = "-"

    public static func write(_ text: String, to path: String) throws(DatasetError) {
        try write(Data(text.utf8), to: path)
    }

    public static func write(_ data: Data, to path: String) throws(DatasetError) {
        var out = try AtomicOutput(path: path)
        data.withUnsafeBytes { out.append($0.bindMemory(to: UInt8.self)) }
        try out.commit()
    }

    /// Checks that an output can be created at `path` (its folder exists), so that a command
    /// can refuse a bad destination before doing any work.
    /// - Throws: `.outputFolderMissing`.
    public static func checkDestination(_ path: String) throws(DatasetError) {
        if path == standardOutput { return }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        guard fileKind(atPath: folder.path).isFolder else {
            throw .outputFolderMissing(path: path)
        }
    }
}

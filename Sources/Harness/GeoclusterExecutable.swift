import Datasets
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

/// The geocluster program that is running: where its executable is (what `bench` and `check`
/// start for their cells), which commit it was built from (written into every record), and the
/// peer script of its checkout.
public enum GeoclusterExecutable {
    /// This process's executable, resolved through /proc on Linux (the first command-line
    /// argument elsewhere).
    public static func path() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }

    /// scripts/peers/peer_cell.py in the working folder, else in the checkout the executable was
    /// built in (`.build/…/geocluster`, up to five folders up); the relative path when neither
    /// has it, so the message that it is missing names the path looked for.
    public static func peerScript(near executable: String) -> String {
        let relative = "scripts/peers/peer_cell.py"
        if FileManager.default.fileExists(atPath: relative) { return relative }
        var folder = executable
        for _ in 0..<5 {
            folder = folder.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if folder.isEmpty { break }
            if FileManager.default.fileExists(atPath: folder + "/" + relative) { return folder + "/" + relative }
        }
        return relative
    }

    /// The git commit (12 hex digits) of the checkout holding `executable`; `unknown` outside
    /// one or without git.
    public static func gitCommit(near executable: String) -> String {
        let folder = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let output = FileManager.default.temporaryDirectory.path + "/geocluster-commit-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let r = CellProcess.run(executable: Bench.resolve("git"), arguments: ["-C", folder.isEmpty ? "." : folder, "rev-parse", "--short=12", "HEAD"],
                                timeout: 10, stdoutPath: output, stderrPath: "/dev/null")
        guard r.exit == .exited(0), let text = try? String(contentsOfFile: output, encoding: .utf8) else { return "unknown" }
        let commit = text.trimmingWhitespace(newlines: true)
        return commit.isEmpty ? "unknown" : commit
    }
}

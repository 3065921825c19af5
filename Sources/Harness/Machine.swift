#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What machine a benchmark ran on: CPU model, cores and OS, one line, so that rows from
/// different machines are never compared as if they were one.
public enum Machine {
    /// `CPU model; N cores; OS name and version; architecture`, from /proc/cpuinfo and
    /// /etc/os-release where they exist.
    public static func fingerprint() -> String {
        var cpu = "unknown CPU"
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = line[line.index(after: colon)...].split(separator: " ").joined(separator: " ")
        }
        var os = "unknown OS"
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
           let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) {
            os = String(line.dropFirst("PRETTY_NAME=".count)).replacing("\"", with: "")
        }
        #if arch(x86_64)
        let arch = "x86_64"
        #elseif arch(arm64)
        let arch = "arm64"
        #else
        let arch = "other"
        #endif
        return "\(cpu); \(ProcessInfo.processInfo.activeProcessorCount) cores; \(os); \(arch)"
    }
}

import Foundation
import Testing
import TestSupport

/// What one run of the `geocluster` executable did.
struct CLIResult: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when `crashed`.
    var status: Int32
    /// The process died from a signal (a crash) instead of exiting.
    var crashed: Bool
    var stdout: String
    var stderr: String

    var description: String {
        (crashed ? "CRASHED with signal \(status)" : "exit status \(status)")
            + "\n--- stdout\n\(stdout)--- stderr\n\(stderr.prefix(4000))"
    }
}

/// Finds the built `geocluster` executable and runs it as a subprocess.
enum CLI {
    /// The executable, or nil when it cannot be found (tests then fail with a message).
    static let executable: URL? = locate()

    /// The package's root folder.
    static let packageRoot = TestPaths.packageRoot.path

    /// Looks, in order:
    /// 1. at `$GEOCLUSTER_EXECUTABLE`, if set;
    /// 2. beside the running test binary: SwiftPM builds the executable into the same products
    ///    folder as the test bundle (`<scratch>/<triple>/debug/` for `.build` and any
    ///    `--scratch-path` alike). On Linux the test binary is `…/debug/<name>.xctest`; on macOS
    ///    it is `…/debug/<name>.xctest/Contents/MacOS/<name>`, hence a few levels up;
    /// 3. in `<package root>/.build*/debug/`, the most recently built one.
    static func locate() -> URL? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["GEOCLUSTER_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var starts = [URL]()
        if let arg0 = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: arg0).resolvingSymlinksInPath()) }
        if let exe = Bundle.main.executableURL { starts.append(exe.resolvingSymlinksInPath()) }
        starts.append(Bundle.main.bundleURL.resolvingSymlinksInPath())
        for start in starts {
            var folder = start.deletingLastPathComponent()
            for _ in 0..<4 {
                if let found = executable(in: folder) { return found }
                folder = folder.deletingLastPathComponent()
            }
        }
        let root = TestPaths.packageRoot
        let scratch = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let found = scratch.filter { $0.hasPrefix(".build") }
            .compactMap { executable(in: root.appendingPathComponent($0).appendingPathComponent("debug")) }
        return found.max { modified($0) < modified($1) }
    }

    /// `folder/geocluster` when it is an executable file in a SwiftPM products folder (one
    /// that also holds `geocluster.build`, so a stray install elsewhere is never picked up).
    private static func executable(in folder: URL) -> URL? {
        let fm = FileManager.default
        let url = folder.appendingPathComponent("geocluster")
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue,
              fm.isExecutableFile(atPath: url.path),
              fm.fileExists(atPath: folder.appendingPathComponent("geocluster.build").path)
        else { return nil }
        return url
    }

    private static func modified(_ url: URL) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
    }

    /// Runs `geocluster arguments…` with `folder` as the working directory (so relative paths
    /// in messages read as the test wrote them) and waits for it, at most `timeout` seconds.
    /// - Parameter stdin: bytes written to its standard input through a pipe (else /dev/null).
    /// - Parameter program: another program to run instead (a wrapper such as valgrind).
    static func run(
        _ arguments: [String], in folder: URL, timeout: Double = 60, environment: [String: String] = [:],
        stdin: Data? = nil, program: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLIResult {
        let exe = try program ?? #require(executable, "geocluster executable not found next to the test binary (\(CommandLine.arguments.first ?? "?")) nor under .build*/debug; set GEOCLUSTER_EXECUTABLE", sourceLocation: sourceLocation)
        // Output goes to files outside `folder`, so tests can check that folder's contents.
        let capture = FileManager.default.temporaryDirectory
            .appendingPathComponent("geocluster-cli-capture-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: capture) }
        let outURL = capture.appendingPathComponent("stdout"), errURL = capture.appendingPathComponent("stderr")
        try #require(FileManager.default.createFile(atPath: outURL.path, contents: nil))
        try #require(FileManager.default.createFile(atPath: errURL.path, contents: nil))
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = exe
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = stdin.map { _ in Pipe() }
        process.standardInput = pipe ?? FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        if let stdin, let pipe {
            // Written from another thread: the pipe holds only a few kilobytes until read.
            let writer = pipe.fileHandleForWriting
            DispatchQueue.global().async {
                try? writer.write(contentsOf: stdin)
                try? writer.close()
            }
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            done.wait()
            Issue.record("geocluster \(arguments.joined(separator: " ")) ran longer than \(timeout) s", sourceLocation: sourceLocation)
        }
        try out.close()
        try err.close()
        return CLIResult(
            status: process.terminationStatus,
            crashed: process.terminationReason == .uncaughtSignal,
            stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }
}

extension TemporaryFolder {
    /// Runs geocluster in this folder.
    func run(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try CLI.run(arguments, in: url, sourceLocation: sourceLocation)
    }

    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try CLI.run(arguments, in: url, sourceLocation: sourceLocation)
    }

    func run(_ arguments: [String], environment: [String: String],
             sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try CLI.run(arguments, in: url, environment: environment, sourceLocation: sourceLocation)
    }

    /// Runs geocluster in this folder with `stdin` piped to its standard input.
    func run(_ arguments: [String], stdin: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try CLI.run(arguments, in: url, stdin: stdin, sourceLocation: sourceLocation)
    }
}

/// A minimal RFC 4180 reader for checking the CLI's output independently of `Datasets`:
/// quoted fields with `""`, separators and line breaks; LF or CRLF line ends. `separator` is a
/// comma unless given (`";"`, `"\t"`).
func parseCSV(_ text: String, separator: Character = ",") -> [[String]] {
    var records = [[String]](), record = [String](), field = ""
    var inQuotes = false, i = text.unicodeScalars.startIndex
    let s = text.unicodeScalars
    while i < s.endIndex {
        let c = s[i]
        if inQuotes {
            if c == "\"" {
                let next = s.index(after: i)
                if next < s.endIndex && s[next] == "\"" { field.unicodeScalars.append("\""); i = next } else { inQuotes = false }
            } else {
                field.unicodeScalars.append(c)
            }
        } else if c == "\"" {
            inQuotes = true
        } else if Character(c) == separator {
            record.append(field); field = ""
        } else if c == "\n" {
            record.append(field); field = ""
            records.append(record); record = []
        } else if c != "\r" {
            field.unicodeScalars.append(c)
        }
        i = s.index(after: i)
    }
    if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
    return records
}

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
import Dispatch
import Geo

/// How a cell's process ended.
public enum CellExit: Sendable, Equatable {
    /// Exited with this status.
    case exited(Int32)
    /// Ended by this signal (a crash, or the out-of-memory killer's SIGKILL).
    case signalled(Int32)
    /// Still running at the timeout, so killed (with its whole process group).
    case timedOut
    /// Could not be started (`errno`'s description).
    case notStarted(String)
}

/// One benchmark cell's process: started in a process group of its own, so that a timeout kills
/// it and every worker it started; standard output and error go to files.
///
/// Written on `posix_spawn` rather than swift-subprocess: the runner needs the process group
/// (joblib and numba peers start workers) and a hard kill at the deadline, and nothing else.
public enum CellProcess {
    /// What one run of the process gave.
    public struct Outcome: Sendable {
        public var exit: CellExit
        /// Wall time from start to exit (or to the kill), seconds.
        public var seconds: Double
        /// The last lines of standard error (at most 2,000 characters).
        public var stderrTail: String
    }

    /// Runs `executable` with `arguments`, killing it after `timeout` seconds.
    /// - Parameters:
    ///   - stdoutPath, stderrPath: files that receive the process's output (created or truncated).
    /// - Complexity: polls every 2 ms while the process runs.
    public static func run(executable: String, arguments: [String], timeout: Double,
                           stdoutPath: String, stderrPath: String,
                           environment: [String: String] = [:]) -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }

        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        var pid = pid_t()
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            return Outcome(exit: .notStarted("\(executable): \(String(cString: strerror(rc)))"), seconds: 0, stderrTail: "")
        }
        var status: Int32 = 0
        var exit: CellExit?
        while exit == nil {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                exit = decode(status)
            } else if r < 0 && errno != EINTR {
                exit = .notStarted("waitpid: \(String(cString: strerror(errno)))")
            } else if elapsed() > timeout {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                exit = .timedOut
            } else {
                usleep(2_000)
            }
        }
        let seconds = elapsed()
        // Workers the cell left behind (same process group) go too.
        kill(-pid, SIGKILL)
        return Outcome(exit: exit!, seconds: seconds, stderrTail: tail(of: stderrPath))
    }

    /// The wait status as an exit code or a signal (the W* macros are not visible to Swift).
    static func decode(_ status: Int32) -> CellExit {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// The last 2,000 characters of a file, trimmed.
    static func tail(of path: String) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "" }
        return String(text.suffix(2000)).trimmingWhitespace(newlines: true)
    }
}

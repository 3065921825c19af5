import Foundation
import Harness
import Testing
import TestSupport

@Suite("Cell processes: exits, crashes, timeouts")
struct CellProcessTests {
    func run(_ script: String, timeout: Double = 10) throws -> CellProcess.Outcome {
        try withTemporaryFolder { folder in
            CellProcess.run(executable: "/bin/sh", arguments: ["-c", script], timeout: timeout,
                            stdoutPath: folder.path("out"), stderrPath: folder.path("err"))
        }
    }

    @Test("an exit status, a signal and a timeout are told apart, and stderr's tail is kept")
    func outcomes() throws {
        let ok = try run("echo fine >&2; exit 3")
        #expect(ok.exit == .exited(3))
        #expect(ok.stderrTail == "fine")

        let crash = try run("kill -SEGV $$")
        #expect(crash.exit == .signalled(11))

        let hang = try run("sleep 20", timeout: 0.3)
        #expect(hang.exit == .timedOut)
        #expect(hang.seconds >= 0.3 && hang.seconds < 5, "killed at the timeout, not at the end of the sleep: \(hang.seconds)")

        let missing = CellProcess.run(executable: "/nonexistent/geocluster", arguments: [], timeout: 1,
                                      stdoutPath: "/dev/null", stderrPath: "/dev/null")
        guard case .notStarted = missing.exit else { Issue.record("expected notStarted, got \(missing.exit)"); return }
    }

    @Test("a timeout kills the cell's workers too (its whole process group)")
    func killsGroup() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("worker-\(UUID().uuidString)").path
        // The worker writes its pid, then would touch the marker after 2 s unless killed.
        let outcome = try run("(sleep 2; touch \(marker).late) & echo $! > \(marker); sleep 20", timeout: 0.5)
        #expect(outcome.exit == .timedOut)
        Thread.sleep(forTimeInterval: 2.5)
        #expect(!FileManager.default.fileExists(atPath: marker + ".late"), "the worker outlived the timeout")
        try? FileManager.default.removeItem(atPath: marker)
    }
}

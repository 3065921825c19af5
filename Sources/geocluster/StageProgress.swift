#if canImport(Glibc)
import CommandLineSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a long command is doing, on one line of standard error rewritten in place, with the
/// seconds since it started: only when standard error is a terminal, so pipes, logs and tests
/// see nothing of it. `finish()` wipes the line before the command's own last words.
struct StageProgress {
    let enabled: Bool
    private let start = ContinuousClock.now

    init(enabled: Bool = isatty(2) == 1) { self.enabled = enabled }

    /// Shows `text` (e.g. "outlining 21,272 clusters on 2 threads") as the current stage.
    func stage(_ text: String) {
        guard enabled else { return }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        noteInPlace("\r" + String((text + "… " + cFormat("%.1f s", seconds)).prefix(150)) + "\u{1B}[K")
    }

    /// Clears the progress line.
    func finish() {
        if enabled { noteInPlace("\r\u{1B}[K") }
    }
}

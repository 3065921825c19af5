/// Mailbox for the messages a C library hands to a logging callback, so the next Swift
/// error can quote them instead of the library printing to stderr.
///
/// A C callback cannot capture Swift state; it receives this object back through the
/// `void *userdata` pointer it was registered with (passed unretained). The owner keeps the
/// mailbox alive at least as long as the C handle that may call into it: it is a stored
/// property of the class that frees the handle in `deinit`, and stored properties are
/// released only after `deinit` has run.
///
/// Not thread-safe, like the handle it serves: the callbacks run synchronously on the thread
/// that made the failing call.
final class CapturedMessages {
    /// The most recent error-level message, if any since the last `take()`.
    private(set) var lastError: String?
    /// The most recent notice (GEOS warnings such as "Self-intersection at or near point").
    private(set) var lastNotice: String?

    func recordError(_ pointer: UnsafePointer<CChar>?) {
        if let pointer { lastError = Self.text(pointer) }
    }

    func recordNotice(_ pointer: UnsafePointer<CChar>?) {
        if let pointer { lastNotice = Self.text(pointer) }
    }

    /// The message without the trailing newline some GEOS exceptions carry, so it reads
    /// well in the middle of a sentence.
    private static func text(_ pointer: UnsafePointer<CChar>) -> String {
        var message = Substring(String(cString: pointer))
        while let last = message.last, last.isWhitespace { message.removeLast() }
        return String(message)
    }

    /// The best explanation available for a failure that just happened, then forgets it so
    /// a later, unrelated failure cannot quote a stale message.
    func take(fallback: String) -> String {
        defer { clear() }
        if let lastError { return lastError }
        if let lastNotice { return lastNotice }
        return fallback
    }

    func clear() {
        lastError = nil
        lastNotice = nil
    }
}

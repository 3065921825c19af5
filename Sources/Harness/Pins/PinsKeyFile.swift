#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Pins

/// The pins key on disk and in the environment: one line of 64 hexadecimal digits (a 256-bit
/// `PinsKey`), written by `geocluster pins-key` with mode 0600, or the same digits in
/// `GEOCLUSTER_PINS_KEY`. Messages name the file or the variable and what is wrong with it,
/// never its contents. Secret files (this one and the mask file) are read and written only as
/// regular files: a FIFO, a device, a socket or a folder at the path is refused before any
/// read could block on it, and never replaced.
public enum PinsKeyFile {
    /// The environment variable that may hold the key's hexadecimal digits.
    public static let environmentVariable = "GEOCLUSTER_PINS_KEY"
    /// Anything longer is not a key file.
    static let maximumBytes = 1024

    /// The key in the file at `path`.
    /// - Throws: `HarnessError.privacy` naming the file: missing, unreadable, not a regular
    ///   file, empty, too long, not 64 hexadecimal digits, or a weak key.
    public static func read(path: String) throws(HarnessError) -> PinsKey {
        guard let bytes = try readSecret(path: path, maximumBytes: maximumBytes, what: "pins key file",
                                         tooLong: "a key file is one line of 64 hexadecimal digits; check the path") else {
            throw .privacy("\(path): cannot read the pins key file (no such file); make one with `geocluster pins-key -o \(path)`")
        }
        guard !bytes.isEmpty else {
            throw .privacy("\(path): the pins key file is empty; make a key with `geocluster pins-key -o \(path) --force`")
        }
        do {
            return try PinsKey(hex: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .privacy("\(path): not a valid pins key: \(reason(error))")
        }
    }

    /// The bytes of the secret file at `path` (the key file, the mask file), nil when there is
    /// nothing at the path. The file must be a regular file (a symbolic link to one is
    /// followed): anything else is refused from its metadata, before it is opened, so a FIFO
    /// nobody writes or a device never blocks or feeds the read; the opened file is checked
    /// again (opened non-blocking) in case it was swapped meanwhile.
    /// - Parameters:
    ///   - maximumBytes: a file larger than this is refused, never read into memory.
    ///   - what: the file's name in messages ("mask file").
    /// - Throws: `HarnessError.privacy` naming the file: not a regular file, over
    ///   `maximumBytes`, or unreadable (with the system's reason).
    /// - Complexity: O(size of the file) time and memory.
    public static func readSecretFile(path: String, maximumBytes: Int, what: String) throws(HarnessError) -> [UInt8]? {
        try readSecret(path: path, maximumBytes: maximumBytes, what: what, tooLong: "check the path")
    }

    /// `readSecretFile`, with `tooLong` saying what the file should have been.
    static func readSecret(path: String, maximumBytes: Int, what: String, tooLong: String) throws(HarnessError) -> [UInt8]? {
        let maximumBytes = max(maximumBytes, 0)
        func unreadable() -> HarnessError {
            .privacy("\(path): cannot read the \(what) (\(String(cString: strerror(errno)))); check its permissions")
        }
        func oversized() -> HarnessError { .privacy("\(path): not a \(what) (over \(maximumBytes) bytes; \(tooLong))") }
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw unreadable()
        }
        if let kind = nonRegularKind(info.st_mode) { throw notRegular(path, kind: kind, what: what) }
        if Int64(info.st_size) > Int64(maximumBytes) { throw oversized() }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw unreadable()
        }
        defer { close(fd) }
        guard fstat(fd, &info) == 0 else { throw unreadable() }
        if let kind = nonRegularKind(info.st_mode) { throw notRegular(path, kind: kind, what: what) }
        if Int64(info.st_size) > Int64(maximumBytes) { throw oversized() }
        // The size as opened, plus one byte to see a file that grew past the limit meanwhile.
        let capacity = min(Int(info.st_size), maximumBytes) + 1
        var bytes = [UInt8](repeating: 0, count: capacity)
        var count = 0
        while count <= maximumBytes {
            // Grown files: double, up to the limit plus one (written so that Int.max cannot overflow).
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count - 1, maximumBytes - count) + 1) }
            let got = bytes.withUnsafeMutableBytes { readFile(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw unreadable() }
            if got == 0 { break }
            count += got
        }
        if count > maximumBytes { throw oversized() }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// What the file type bits of `mode` name when they are not a regular file's (the POSIX
    /// values, the same on Linux and the BSDs), nil for a regular file.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch UInt32(mode) & 0o170000 {
        case 0o100000: return nil
        case 0o040000: return "a folder"
        case 0o010000: return "a FIFO (named pipe)"
        case 0o020000: return "a character device"
        case 0o060000: return "a block device"
        case 0o140000: return "a socket"
        case 0o120000: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    /// The refusal of a secret file that is `kind`, not a regular file.
    static func notRegular(_ path: String, kind: String, what: String) -> HarnessError {
        .privacy("\(path): is \(kind); the \(what) must be a regular file (nothing else is read, so a pipe or a device can neither hang nor feed the command): give the file's own path")
    }

    /// A warning when the file at `path` can be read by other users (its mode allows group or
    /// others any access), nil when only its owner can.
    public static func exposure(path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
        let mode = String(info.st_mode & 0o777, radix: 8)
        return "\(path) can be read by other users (mode \(mode)); it is a secret: chmod 600 \(path)"
    }

    /// The key in `GEOCLUSTER_PINS_KEY`, nil when the variable is unset or empty.
    /// - Throws: `HarnessError.privacy` naming the variable when its value is not a key.
    public static func fromEnvironment() throws(HarnessError) -> PinsKey? {
        guard let value = getenv(environmentVariable).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        do {
            return try PinsKey(hex: value)
        } catch {
            throw .privacy("\(environmentVariable): not a valid pins key: \(reason(error))")
        }
    }

    /// Whether `GEOCLUSTER_PINS_KEY` is set (to anything).
    public static var environmentHasKey: Bool { getenv(environmentVariable).map { $0.pointee != 0 } ?? false }

    /// Writes a new key from the operating system's random source to `path` with mode 0600,
    /// atomically (a temporary file in the same folder, then linked or renamed into place).
    /// - Parameter replace: replace an existing file; otherwise an existing file is refused.
    /// - Returns: the key written (for its fingerprint).
    /// - Throws: `HarnessError.privacy` naming the file.
    @discardableResult
    public static func create(path: String, replace: Bool) throws(HarnessError) -> PinsKey {
        let key = PinsKey.generate()
        try writeSecret((key.hexEncoded() + "\n").utf8, to: path, replace: replace, what: "pins key file",
                        refusal: "it holds a key already: the displayed positions made with it cannot be reproduced without it; give --force to replace it anyway")
        return key
    }

    /// Writes `bytes` to `path` with mode 0600, atomically; an existing file is refused unless
    /// `replace`. Shared by the key file and the mask file (both are the operator's secrets).
    /// Whatever is at `path` and is not a regular file (a device, a FIFO, a socket, a folder, a
    /// symbolic link) is refused, with or without `replace`: it is never renamed over.
    static func writeSecret(_ bytes: some Collection<UInt8>, to path: String, replace: Bool, what: String, refusal: String) throws(HarnessError) {
        let data = Array(bytes)
        var info = stat()
        if lstat(path, &info) == 0 {
            if let kind = nonRegularKind(info.st_mode) {
                throw .privacy("\(path): is \(kind), not a regular file; the \(what) is written only as a regular file and never replaces anything else. Give another path")
            }
            if !replace { throw .privacy("\(path): \(refusal)") }
        } else if errno != ENOENT {
            throw .privacy("\(path): cannot write the \(what) (\(String(cString: strerror(errno)))); check that its folder exists and is writable")
        }
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .privacy("\(path): cannot create the \(what) (\(String(cString: strerror(errno)))); check that its folder exists and is writable")
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = fchmod(fd, 0o600) == 0
        var offset = 0
        while ok && offset < data.count {
            let n = data.withUnsafeBytes { write(fd, $0.baseAddress! + offset, data.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ok = false } else { offset += n }
        }
        ok = ok && fsync(fd) == 0
        let failure = String(cString: strerror(errno))
        close(fd)
        defer { unlink(temporary) }
        guard ok else { throw .privacy("\(path): cannot write the \(what) (\(failure))") }
        if replace {
            // Over the regular file checked above (only someone who may write the folder could
            // put something else there meanwhile, and they could replace the file anyway).
            guard rename(temporary, path) == 0 else {
                throw .privacy("\(path): cannot write the \(what) (\(String(cString: strerror(errno))))")
            }
        } else {
            // link() never replaces: a file created meanwhile is refused, not overwritten.
            guard link(temporary, path) == 0 else {
                if errno == EEXIST { throw .privacy("\(path): \(refusal)") }
                throw .privacy("\(path): cannot write the \(what) (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// A `PinError`'s requirement, without the parameter's name and value.
    static func reason(_ error: PinError) -> String {
        if case let .invalidParameter(_, value, requirement) = error { return "\(value): \(requirement)" }
        return error.description
    }
}

/// read(2) under a name the enum's `read(path:)` does not shadow.
private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Pins

/// The pins key on disk and in the environment: one line of 64 hexadecimal digits (a 256-bit
/// `PinsKey`; 32 digits, 128 bits, are accepted), written by `geocluster pins-key` with mode
/// 0600, or the same digits in `GEOCLUSTER_PINS_KEY`. Messages name the file or the variable
/// and what is wrong with it, never its contents.
public enum PinsKeyFile {
    /// The environment variable that may hold the key's hexadecimal digits.
    public static let environmentVariable = "GEOCLUSTER_PINS_KEY"
    /// Anything longer is not a key file.
    static let maximumBytes = 1024

    /// The key in the file at `path`.
    /// - Throws: `HarnessError.privacy` naming the file: missing, unreadable, empty, too long,
    ///   not hexadecimal, or fewer than 128 bits.
    public static func read(path: String) throws(HarnessError) -> PinsKey {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw .privacy("\(path): cannot read the pins key file (\(String(cString: strerror(errno)))); make one with `geocluster pins-key -o \(path)`")
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { readFile(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        guard count <= maximumBytes else {
            throw .privacy("\(path): not a pins key file (over \(maximumBytes) bytes; a key file is one line of 64 hexadecimal digits); check the path")
        }
        guard count > 0 else {
            throw .privacy("\(path): the pins key file is empty; make a key with `geocluster pins-key -o \(path) --force`")
        }
        do {
            return try PinsKey(hex: String(decoding: bytes[..<count], as: UTF8.self))
        } catch {
            throw .privacy("\(path): not a valid pins key: \(reason(error))")
        }
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
    static func writeSecret(_ bytes: some Collection<UInt8>, to path: String, replace: Bool, what: String, refusal: String) throws(HarnessError) {
        let data = Array(bytes)
        if !replace && access(path, F_OK) == 0 { throw .privacy("\(path): \(refusal)") }
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

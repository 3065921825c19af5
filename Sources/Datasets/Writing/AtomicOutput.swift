#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CSystemTuning
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte sink behind `CSVWriter` and `GeoJSONWriter`: a buffered temporary file beside the
/// destination, renamed into place by `commit()`. A failed run never leaves a half-written
/// file: if the value is dropped without `commit()`, the temporary file is removed.
///
/// The temporary file is `.<name>.<pid>.tmp` in the destination's folder, so the final
/// `rename` stays within one file system and is atomic.
///
/// A non-copyable struct rather than a class: its hot appends then need no runtime
/// exclusivity checks (a class version spent a third of its time in them).
struct AtomicOutput: ~Copyable {
    let path: String
    private let tempPath: String
    private var fd: Int32
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    /// Converts what is written into the file's encoding (nil: UTF-8 as formatted).
    var encoder: TextEncoder?
    private var committed = false
    /// Flush once this many bytes are buffered.
    static let flushThreshold = 1 << 20

    /// Opens the temporary file.
    /// - Throws: `.outputFolderMissing` when the destination's folder does not exist,
    ///   `.writeFailed` when the file cannot be created.
    init(path: String) throws(DatasetError) {
        try AtomicFile.checkDestination(path)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        // A destination that exists but is not a regular file (/dev/null, /dev/stdout, a FIFO)
        // is written directly: renaming a temporary file over it would replace the device.
        // `-` is standard output (a copy of descriptor 1, so closing it leaves 1 open).
        let direct = path == AtomicFile.standardOutput || isSpecialFile(path)
        let temp = direct ? "" : folder.appendingPathComponent(
            ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp").path
        let descriptor = path == AtomicFile.standardOutput ? dup(1)
            : direct ? open(path, O_WRONLY) : open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        tempPath = temp
        fd = descriptor
        // Room for one more row of any realistic width past the flush threshold.
        capacity = Self.flushThreshold + (1 << 20)
        base = .allocate(capacity: capacity)
    }

    /// A buffer in memory only, with no file: `commit()` and `flush()` are not to be called;
    /// `bytes` gives what was appended. Used to format parts of a file on several threads.
    init(inMemoryCapacity: Int) {
        path = ""
        tempPath = ""
        fd = -1
        committed = true
        capacity = max(inMemoryCapacity, 1 << 16) + (1 << 20)
        base = .allocate(capacity: capacity)
    }

    /// The bytes buffered and not yet flushed.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Forgets the buffered bytes of an in-memory buffer, keeping its storage.
    mutating func removeAll() {
        precondition(fd < 0, "only an in-memory buffer can drop its bytes")
        count = 0
    }

    deinit {
        if !committed {
            if fd >= 0 { close(fd) }
            if !tempPath.isEmpty { unlink(tempPath) }
        }
        base.deallocate()
    }

    /// Grows the buffer when a single huge value would not fit in the slack.
    @inline(__always) mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: (count + extra) * 2)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = (count + extra) * 2
    }

    /// Appends one byte. Callers reserve room first for anything longer than a number.
    @inline(__always) mutating func append(_ b: UInt8) { base[count] = b; count += 1 }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        if let p = bytes.baseAddress { (base + count).update(from: p, count: bytes.count) }
        count += bytes.count
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends a non-negative integer in decimal.
    @inline(__always) mutating func appendDigits(_ value: UInt64) {
        if value < 10 { append(UInt8(0x30 + value)); return }
        // Count the digits, then write them from the last, two at a time (the divisions by
        // constants compile to multiplications).
        var width = 2
        var t = value / 100
        while t > 0 { width += 1; t /= 10 }
        let end = base + count + width
        var v = value, p = end
        while v >= 100 {
            let pair = v % 100
            v /= 100
            p -= 2
            p[0] = UInt8(truncatingIfNeeded: 0x30 + pair / 10); p[1] = UInt8(truncatingIfNeeded: 0x30 + pair % 10)
        }
        if v >= 10 {
            p -= 2
            p[0] = UInt8(truncatingIfNeeded: 0x30 + v / 10); p[1] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
        } else {
            p -= 1
            p[0] = UInt8(truncatingIfNeeded: 0x30 + v)
        }
        count += width
    }

    /// Appends a number in [0, 1] rounded to 10 decimals (ties away from zero, exactly as
    /// `(value * 1e10).rounded()`), trailing zeros dropped: `0.25`, `1`, `0.0000000001`.
    /// Written for the label files' two such columns, which the general path (a libm `round`
    /// call and digit-by-digit loops) made a visible part of writing the labels.
    @inline(__always) mutating func appendUnitInterval10(_ value: Double) {
        let x = value * 10_000_000_000
        var scaled = UInt64(x)
        // x - trunc(x) is exact below 2^52, so this is round-half-away-from-zero.
        if x - Double(scaled) >= 0.5 { scaled += 1 }
        let whole = scaled / 10_000_000_000
        let frac = scaled - whole * 10_000_000_000
        append(UInt8(truncatingIfNeeded: 0x30 + whole))
        if frac == 0 { return }
        base[count] = 0x2E
        // Ten places, leading zeros included, two at a time; then drop the trailing zeros.
        var v = frac
        var p = base + count + 11
        for _ in 0..<5 {
            let pair = v % 100
            v /= 100
            p -= 2
            p[0] = UInt8(truncatingIfNeeded: 0x30 + pair / 10); p[1] = UInt8(truncatingIfNeeded: 0x30 + pair % 10)
        }
        var end = count + 11
        while base[end - 1] == 0x30 { end -= 1 }
        count = end
    }

    /// Appends an integer in decimal.
    @inline(__always) mutating func appendInt(_ value: Int) {
        if value < 0 { append(0x2D) }
        appendDigits(value.magnitude.toUInt64)
    }

    /// Appends `value` rounded to `decimals` places (ties away from zero), all places
    /// written: `appendFixed(37.5, decimals: 6)` gives `37.500000`. The rounding is one IEEE
    /// multiplication and `rounded()`, so the text is the same on every platform. Values
    /// whose scaled magnitude reaches 2^53, non-finite values and `decimals` outside 0...9
    /// fall back to the shortest round-trip form.
    mutating func appendFixed(_ value: Double, decimals: Int) {
        guard decimals >= 0 && decimals <= 9, value.isFinite else { appendShortest(value); return }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard abs(scaled) < 0x1p53 else { appendShortest(value); return }
        let magnitude = UInt64(abs(scaled))
        if scaled < 0 && magnitude != 0 { append(0x2D) }
        appendDigits(magnitude / scale)
        guard decimals > 0 else { return }
        append(0x2E)
        var frac = magnitude % scale
        var place = scale / 10
        while place > 0 {
            append(UInt8(0x30 + frac / place))
            frac %= place
            place /= 10
        }
    }

    /// Appends the shortest text that reads back as `value` (`Double.description`).
    mutating func appendShortest(_ value: Double) {
        if value == 0 { append(0x30); return }
        append(value.description)
    }

    /// Flushes once the buffer passes the threshold; call at record ends.
    @inline(__always) mutating func flushIfFull() throws(DatasetError) {
        if count >= Self.flushThreshold {
            // In memory, keep the slack of one row of any realistic width instead.
            if fd < 0 { reserve(1 << 20); return }
            try flush()
        }
    }

    /// Writes `bytes` straight to the file, after whatever was flushed before (the buffer must
    /// be empty: call `flush()` first). Does not change the writer, so one thread may call it
    /// while others fill their own in-memory writers (see `CSVWriter.writeRows`).
    func writeThrough(_ bytes: UnsafeBufferPointer<UInt8>) throws(DatasetError) {
        precondition(fd >= 0 && count == 0 && encoder == nil, "write through only an open UTF-8 file writer with nothing buffered")
        try writeAll(bytes)
    }

    /// Writes all of `bytes` to the file, retrying interrupted and partial writes.
    ///
    /// A temporary file first gets disk blocks for the bytes (`fallocate`, where the system has
    /// it): on ext4, `rename` over an existing destination otherwise allocates the new file's
    /// blocks itself and starts writing it out before returning, a stall in every run that
    /// replaces its previous output (measured with `strace -T`: docs/performance.md). Failure
    /// to allocate is ignored: the write reports
    /// any real problem (a full disk) itself.
    private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) throws(DatasetError) {
        guard let start = bytes.baseAddress else { return }
        if !tempPath.isEmpty && bytes.count > 0 {
            let offset = lseek(fd, 0, SEEK_CUR)
            if offset >= 0 { _ = geocluster_reserve_file_space(fd, Int64(offset), Int64(bytes.count)) }
        }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(fd, start + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// Whether this writer writes to a file (not only into memory).
    var isFile: Bool { fd >= 0 }

    /// Writes the buffered bytes to the temporary file.
    mutating func flush(final: Bool = false) throws(DatasetError) {
        if let encoder {
            let encoded = try encoder.encode(bytes, final: final)
            try encoded.withUnsafeBufferPointer { (b) throws(DatasetError) in try writeAll(b) }
        } else {
            try writeAll(bytes)
        }
        count = 0
    }

    /// Replaces every `byte` appended since position `start` with `replacement`.
    mutating func replace(_ byte: UInt8, with replacement: UInt8, since start: Int) {
        for i in start..<count where base[i] == byte { base[i] = replacement }
    }

    /// Flushes, closes and renames the file into place.
    mutating func commit() throws(DatasetError) {
        try flush(final: true)
        if close(fd) != 0 { fd = -1; throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        fd = -1
        if !tempPath.isEmpty && rename(tempPath, path) != 0 {
            throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        committed = true
    }
}

extension UInt {
    @inline(__always) fileprivate var toUInt64: UInt64 { UInt64(self) }
}

/// Whether `path` exists and is neither a regular file nor a folder (a device such as
/// /dev/null or /dev/stdout, a FIFO, a socket): such destinations are written in place.
func isSpecialFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    let kind = info.st_mode & S_IFMT
    return kind != S_IFREG && kind != S_IFDIR
}

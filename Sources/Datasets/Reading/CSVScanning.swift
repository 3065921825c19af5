#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level helpers of the chunked CSV reader (``PointFile``): finding the end of an
/// unquoted field eight bytes at a time, the end of a record with quotes, and where to split a
/// file so that each part starts a record.
enum CSVScanning {
    static let quote = UInt8(ascii: "\""), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")

    /// Finds the ends of unquoted fields: the next byte that is the delimiter, a quote, LF or
    /// CR, eight bytes per step (SWAR), keeping the flags of the word last loaded so that the
    /// short fields after it cost no new load.
    ///
    /// A word's flags mark, exactly, its bytes below 0x23 (control bytes, space, `!` and the
    /// quote, LF and CR among them) and its bytes equal to the delimiter; bit 7 of each byte
    /// (the forms of "Bit Twiddling Hacks" that cannot carry from one byte into the next). A
    /// flagged byte that is a space or another byte of no meaning here is stepped over; bytes
    /// ≥ 0x80 (UTF-8 text) are never flagged. The byte-at-a-time search of `CSVStreamParser`
    /// costs several times as many instructions (measured: docs/performance.md).
    struct FieldCursor {
        let b: UnsafePointer<UInt8>
        let end: Int
        let delimiter: UInt8
        private let spread: UInt64
        /// The word's first byte, and the flags of the bytes from the last position asked for.
        private var base: Int
        private var flags: UInt64 = 0

        init(_ b: UnsafePointer<UInt8>, end: Int, delimiter: UInt8) {
            self.b = b; self.end = end; self.delimiter = delimiter
            spread = UInt64(delimiter) &* 0x0101_0101_0101_0101
            base = Int.min / 2
        }

        @inline(__always)
        private mutating func load(_ at: Int) {
            base = at
            if at &+ 8 <= end {
                flags = Self.flags(UInt64(littleEndian: UnsafeRawPointer(b + at).loadUnaligned(as: UInt64.self)), spread)
            } else {
                loadLast(at)
            }
        }

        /// The flagged bytes of the word `v` (see the type).
        @inline(__always)
        private static func flags(_ v: UInt64, _ spread: UInt64) -> UInt64 {
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, highs: UInt64 = 0x8080_8080_8080_8080
            let x = v ^ spread
            let below = ~(((v & low7) &+ 0x5D5D_5D5D_5D5D_5D5D) | v) & highs
            let equal = ~(((x & low7) &+ low7) | x) & highs
            return below | equal
        }

        /// `load` for a word that reaches past `end`: the bytes past it read as 0x7F (never
        /// flagged), and `end` itself is flagged, as a stop.
        @inline(never)
        private mutating func loadLast(_ at: Int) {
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(at + k < end ? b[at + k] : 0x7F) << UInt64(8 * k) }
            flags = Self.flags(v, spread) | UInt64(0x80) << UInt64(8 * (end - at))
        }

        /// Makes `p` the current position: the flags of the bytes before it are dropped.
        @inline(__always)
        private mutating func seek(_ p: Int) {
            let offset = p &- base
            if offset >= 0 && offset < 8 {
                flags &= ~0 << UInt64(8 * offset)
            } else {
                load(p)
            }
        }

        /// The index after the `count`-th delimiter from `p` on (count ≥ 1), or -1 when a line
        /// end, a quote, a CR or the end comes first.
        @inline(__always)
        mutating func skipFields(_ p: Int, _ count: Int) -> Int {
            seek(p)
            var left = count
            while true {
                while flags == 0 { load(base &+ 8) }
                let k = base &+ (flags.trailingZeroBitCount >> 3)
                if k >= end { return -1 }
                let c = b[k]
                flags &= flags &- 1
                if c == delimiter {
                    left -= 1
                    if left == 0 { return k &+ 1 }
                } else if c == lf || c == quote || c == cr {
                    return -1
                }
            }
        }

        /// The index of the first byte at or after `p` that is the delimiter, a quote, LF or CR
        /// (`end` when there is none).
        @inline(__always)
        mutating func next(_ p: Int) -> Int {
            seek(p)
            while true {
                while flags == 0 { load(base &+ 8) }
                let k = base &+ (flags.trailingZeroBitCount >> 3)
                if k >= end { return end }
                let c = b[k]
                if c == delimiter || c == lf || c == quote || c == cr { return k }
                flags &= flags &- 1
            }
        }
    }

    /// Where the record starting at `start` ends: the index after the first LF outside double
    /// quotes, or `end` with `inQuotes` telling whether a quote was left open (the record then
    /// runs past `end`). Every LF outside quotes ends a record in `CSVStreamParser`, bare CR or
    /// not, and `""` inside quotes toggles twice, so counting quotes is enough.
    /// - Complexity: O(record length).
    static func recordEnd(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (end: Int, inQuotes: Bool) {
        var inQuotes = false
        var i = start
        while i < end {
            let c = b[i]
            if c == quote { inQuotes.toggle() } else if c == lf && !inQuotes { return (i + 1, false) }
            i += 1
        }
        return (end, inQuotes)
    }

    /// Splits `start..<end` into at most `parts` ranges of about equal size, each but the first
    /// starting just after an LF. A split is only a guess: an LF inside a quoted field looks
    /// the same, so the reader checks afterwards that no part ended inside quotes.
    static func split(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, parts: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var lo = start
        for k in 1..<max(parts, 1) {
            var cut = max(start + (end - start) / parts * k, lo)
            guard let found = memchr(b + cut, Int32(lf), end - cut) else { break }
            cut = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - b + 1
            if cut >= end { break }
            ranges.append(lo..<cut)
            lo = cut
        }
        ranges.append(lo..<end)
        return ranges
    }

    /// Counts the records (lines) of a sample of `b[start..<end]`, to reserve memory for a
    /// part: the estimate from the first 64 KiB, with 5 % to spare.
    static func estimatedRows(_ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, total: Int) -> Int {
        let sample = min(end - start, 1 << 16)
        guard sample > 0 else { return 0 }
        var lines = 0
        for i in start..<(start + sample) where b[i] == lf { lines += 1 }
        guard lines > 0 else { return 0 }
        return Int(Double(total) / Double(sample) * Double(lines) * 1.05) + 16
    }
}

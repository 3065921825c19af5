#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// The character encoding of a text input (`--encoding`). Every reader takes UTF-8; a file in
/// another encoding is converted to UTF-8 once, before it is parsed, so the parsers and
/// everything written from what they read see UTF-8 only.
public enum TextEncoding: String, Sendable, Equatable, CaseIterable {
    case utf8 = "utf-8"
    /// ISO-8859-1: one byte a character, the byte being the code point.
    case latin1
    /// Windows code page 949 (Unified Hangul Code, a superset of EUC-KR): what Korean public
    /// data portals export. ASCII, or a lead byte 0x81–0xFE and a trail byte.
    case cp949

    /// The name a message shows.
    public var displayName: String {
        switch self {
        case .utf8: "UTF-8"
        case .latin1: "Latin-1 (ISO-8859-1)"
        case .cp949: "CP949 (Korean)"
        }
    }
}

/// Checking UTF-8 and guessing what a file that is not UTF-8 is written in.
enum UTF8Check {
    /// The result of checking bytes: all valid, an ill-formed sequence starting at `offset`, or
    /// a valid but unfinished sequence at the end starting at `offset` (the next block may
    /// finish it).
    enum Outcome: Equatable {
        case valid
        case invalid(offset: Int)
        case incomplete(offset: Int)
    }

    /// Checks that `b[0..<n]` is well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF).
    ///
    /// ASCII text, which nearly every byte of a coordinates file is, is stepped over 32 bytes at
    /// a time (four 8-byte words tested together); only a word holding a byte ≥ 0x80 is
    /// looked at byte by byte.
    /// - Complexity: O(n).
    static func check(_ b: UnsafePointer<UInt8>, _ n: Int) -> Outcome {
        let highs: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawPointer(b)
        var i = 0
        while i < n {
            while i &+ 32 <= n {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: i &+ 16, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: i &+ 24, as: UInt64.self)
                if w & highs != 0 { break }
                i &+= 32
            }
            while i &+ 8 <= n && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & highs == 0 { i &+= 8 }
            // Byte by byte up to the next 8 ASCII bytes in a row (or the end).
            var ascii = 0
            while i < n && ascii < 8 {
                let c = b[i]
                if c < 0x80 { i &+= 1; ascii &+= 1; continue }
                ascii = 0
                let length: Int
                var low: UInt8 = 0x80, high: UInt8 = 0xBF
                switch c {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; high = 0x9F
                case 0xF0: length = 4; low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; high = 0x8F
                default: return .invalid(offset: i)
                }
                var k = 1
                while k < length {
                    guard i + k < n else { return .incomplete(offset: i) }
                    let t = b[i + k]
                    let ok = k == 1 ? (t >= low && t <= high) : (t & 0xC0 == 0x80)
                    if !ok { return .invalid(offset: i) }
                    k += 1
                }
                i &+= length
            }
        }
        return .valid
    }

    /// `check` over `b[0..<n]` on `threads` threads, in parts that start after a line end (a
    /// UTF-8 sequence holds no LF, so no well-formed one is cut). Returns the offset of the
    /// first ill-formed or unfinished sequence in the file, or nil.
    ///
    /// The check is one more pass over a file the reader then parses; on all threads it costs
    /// half the wall time, and the page faults of a mapped file are shared out as the parse
    /// shares them.
    /// - Complexity: O(n).
    static func firstInvalid(_ b: UnsafePointer<UInt8>, _ n: Int, threads: Int) -> Int? {
        let parts = CSVScanning.split(b, 0, n, parts: n >= 1 << 21 ? max(1, threads) : 1)
        var found = [Int?](repeating: nil, count: parts.count)
        found.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let slots = out, bytes = b
            // concurrentPerform returns when every part is checked; each writes its own slot.
            DispatchQueue.concurrentPerform(iterations: parts.count) { k in
                let r = parts[k]
                switch check(bytes + r.lowerBound, r.count) {
                case .valid: slots[k] = nil
                case .invalid(let offset), .incomplete(let offset): slots[k] = r.lowerBound + offset
                }
            }
        }
        return found.lazy.compactMap { $0 }.first
    }

    /// What bytes that are not UTF-8 look like, judged from `b[from..<n]` (a sample from the
    /// first bad byte on): CP949 when every byte ≥ 0x80 there is a CP949 lead byte followed by a
    /// trail byte and most such pairs are two high bytes (Hangul syllables are); otherwise
    /// Latin-1, whose letters (ä, ü, é) stand alone between ASCII ones and which every byte
    /// sequence is.
    static func guess(_ b: UnsafePointer<UInt8>, from: Int, _ n: Int) -> TextEncoding {
        let end = min(n, from + (1 << 16))
        var i = from, highPairs = 0, mixedPairs = 0
        while i < end {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            guard c >= 0x81 && c <= 0xFE, i + 1 < end else {
                if i + 1 == end && c >= 0x81 && c <= 0xFE { break }   // a pair cut by the sample
                return .latin1
            }
            let t = b[i + 1]
            if t >= 0x81 && t <= 0xFE {
                highPairs += 1
            } else if (t >= 0x41 && t <= 0x5A) || (t >= 0x61 && t <= 0x7A) {
                mixedPairs += 1
            } else {
                return .latin1
            }
            i += 2
        }
        return highPairs > mixedPairs ? .cp949 : .latin1
    }

    /// The 1-based line and byte column of `offset` in `b`, counting from a block that starts
    /// on `line` at `column`.
    static func position(_ b: UnsafePointer<UInt8>, _ offset: Int, line: Int = 1, column: Int = 1) -> (line: Int, column: Int) {
        var line = line, lineStart = 0, sameLine = true
        for k in 0..<offset where b[k] == 0x0A { line += 1; lineStart = k + 1; sameLine = false }
        return (line, sameLine ? column + offset : offset - lineStart + 1)
    }

    /// The error for bytes `b[0..<n]` of `path` that are not UTF-8 from `offset` on; the block
    /// starts on `line` at `column` of the file.
    static func notUTF8(_ b: UnsafePointer<UInt8>, _ n: Int, offset: Int, path: String,
                        line: Int = 1, column: Int = 1) -> DatasetError {
        let at = position(b, offset, line: line, column: column)
        return .notUTF8(path: path, line: at.line, column: at.column, byte: b[offset], looksLike: guess(b, from: offset, n))
    }
}

/// Converts text in one of the ``TextEncoding``s to UTF-8, block by block.
///
/// Latin-1 is a direct map (a byte ≥ 0x80 is the code point, two UTF-8 bytes). CP949 goes
/// through the C library's `iconv` rather than tables of our own: glibc's converter is well
/// kept and complete (it holds the 8,822 extended Hangul syllables EUC-KR lacks), and
/// hand-written tables of 17,000 entries would be neither.
final class Transcoder {
    let encoding: TextEncoding
    /// The iconv converter for CP949; nil for the other encodings.
    private let iconv: Iconv?

    /// - Throws: `.invalidOption` when the C library cannot convert from `encoding`.
    init(_ encoding: TextEncoding) throws(DatasetError) {
        self.encoding = encoding
        iconv = encoding == .cp949 ? try Iconv(from: "CP949", to: "UTF-8", option: "--encoding", value: encoding.rawValue) : nil
    }

    /// What a conversion did: the input bytes it used (all of them, or all but an unfinished
    /// sequence at the end of a block that is not the last), or the offset of the first byte
    /// that is not text in the encoding.
    enum Outcome: Equatable {
        case converted(Int)
        case invalid(offset: Int)
    }

    /// Appends the UTF-8 form of `input` to `out`. `final`: the input ends here, so an
    /// unfinished sequence at its end is invalid.
    /// - Complexity: O(input.count).
    func convert(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) -> Outcome {
        switch encoding {
        case .utf8:
            out.append(contentsOf: input)
            return .converted(input.count)
        case .latin1:
            out.reserveCapacity(out.count + input.count + input.count / 4)
            for c in input {
                if c < 0x80 { out.append(c) } else { out.append(0xC0 | c >> 6); out.append(0x80 | c & 0x3F) }
            }
            return .converted(input.count)
        case .cp949:
            return iconv!.convert(input, final: final, into: &out)
        }
    }
}

/// One direction of the C library's `iconv` (CP949 to UTF-8 for reading, UTF-8 to CP949 for
/// writing back), block by block.
final class Iconv {
    private let descriptor: iconv_t

    /// - Throws: `.invalidOption` naming `option` and `value` when the C library cannot
    ///   convert between the two.
    init(from source: String, to target: String, option: String, value: String) throws(DatasetError) {
        // iconv_open: (iconv_t)-1 on failure, reason in errno.
        let cd = iconv_open(target, source)
        guard let cd, cd != iconv_t(bitPattern: -1) else {
            throw .invalidOption(option: option, value: value,
                                 reason: "this system's iconv cannot convert from \(source) to \(target) (\(String(cString: strerror(errno)))); use UTF-8")
        }
        descriptor = cd
    }

    deinit { iconv_close(descriptor) }

    /// Appends `input` converted to `out`: all of it, or (unless `final`) all but a character
    /// split at its end; else the offset of the first byte the conversion cannot take.
    func convert(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) -> Transcoder.Outcome {
        guard let base = input.baseAddress, !input.isEmpty else { return .converted(0) }
        var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self)
        var inLeft = input.count
        while true {
            // Two CP949 bytes become at most three UTF-8 bytes, three UTF-8 bytes two CP949 bytes.
            let start = out.count, room = inLeft * 2 + 16
            out.append(contentsOf: repeatElement(0, count: room))
            var outLeft = room
            let result = out.withUnsafeMutableBufferPointer { o -> Int in
                var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(o.baseAddress! + start).assumingMemoryBound(to: CChar.self)
                // iconv: (size_t)-1 on failure with errno EILSEQ (an invalid sequence at
                // *inbuf), EINVAL (an unfinished one at the end) or E2BIG (output full);
                // *inbuf and *outbuf are advanced past what was converted either way.
                return iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
            }
            let error = errno
            out.removeLast(outLeft)
            let used = input.count - inLeft
            if result != -1 { return .converted(input.count) }
            switch error {
            case E2BIG: continue
            case EINVAL where !final: return .converted(used)
            default: return .invalid(offset: used)
            }
        }
    }
}

/// Turns the blocks of a streamed file into checked UTF-8 blocks: UTF-8 input is checked (a
/// sequence split between blocks is held over), other encodings are converted. Keeps the
/// line and column each block starts at, so an error names them: the line from the count of
/// line ends so far, which the caller's parser keeps anyway (line ends are the same bytes in
/// every encoding here), the column from the bytes after the block's last line end, so a
/// good file costs no extra pass to count lines.
struct TextBlocks {
    let path: String
    private let transcoder: Transcoder?
    /// Bytes of the previous block not yet handed on: an unfinished sequence.
    private var carry: [UInt8] = []
    private var converted: [UInt8] = []
    /// The column of the first byte not yet handed on.
    private var column = 1

    init(path: String, encoding: TextEncoding) throws(DatasetError) {
        self.path = path
        transcoder = encoding == .utf8 ? nil : try Transcoder(encoding)
    }

    /// Hands `block` (the next bytes of the file; `final`: the last) to `body` as UTF-8.
    /// `line`: the line of the first byte not yet handed on (one more than the line ends
    /// handed on so far).
    /// - Throws: `.notUTF8` or `.invalidEncoding` naming the line and column, or what `body`
    ///   throws.
    mutating func feed(_ block: UnsafeBufferPointer<UInt8>, final: Bool, line: Int,
                       _ body: (UnsafeBufferPointer<UInt8>) throws(DatasetError) -> Void) throws(DatasetError) {
        if carry.isEmpty {
            try feedWhole(block, final: final, line: line, body)
        } else {
            let joined = carry + Array(block)
            carry.removeAll()
            try joined.withUnsafeBufferPointer { (j) throws(DatasetError) in try feedWhole(j, final: final, line: line, body) }
        }
    }

    private mutating func feedWhole(_ input: UnsafeBufferPointer<UInt8>, final: Bool, line: Int,
                                    _ body: (UnsafeBufferPointer<UInt8>) throws(DatasetError) -> Void) throws(DatasetError) {
        guard let b = input.baseAddress, !input.isEmpty else { return }
        var used = input.count
        if let transcoder {
            converted.removeAll(keepingCapacity: true)
            switch transcoder.convert(input, final: final, into: &converted) {
            case .converted(let n): used = n
            case .invalid(let offset):
                let at = UTF8Check.position(b, offset, line: line, column: column)
                throw .invalidEncoding(path: path, line: at.line, column: at.column, byte: b[offset], encoding: transcoder.encoding)
            }
        } else {
            switch UTF8Check.check(b, input.count) {
            case .valid: break
            case .incomplete(let offset) where !final: used = offset
            case .invalid(let offset), .incomplete(let offset):
                throw UTF8Check.notUTF8(b, input.count, offset: offset, path: path, line: line, column: column)
            }
        }
        carry.append(contentsOf: UnsafeBufferPointer(rebasing: input[used...]))
        var k = used - 1
        while k >= 0 && b[k] != 0x0A { k -= 1 }
        column = k < 0 ? column + used : used - k
        if transcoder != nil {
            try converted.withUnsafeBufferPointer { (c) throws(DatasetError) in try body(c) }
        } else {
            try body(UnsafeBufferPointer(rebasing: input[..<used]))
        }
    }
}

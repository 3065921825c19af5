#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a CSV file the user will open again is written: its encoding, whether it starts with a
/// UTF-8 byte-order mark (which Excel needs to read UTF-8), and its decimal mark. `--append`
/// and `filter` write the input's own by default, so a file goes back to the spreadsheet it
/// came from as it came.
public struct OutputText: Sendable, Equatable {
    public var encoding: TextEncoding
    public var byteOrderMark: Bool
    /// Numbers the command adds are written with a decimal comma (`0,25`).
    public var decimalComma: Bool

    public init(encoding: TextEncoding = .utf8, byteOrderMark: Bool = false, decimalComma: Bool = false) {
        self.encoding = encoding
        self.byteOrderMark = byteOrderMark
        self.decimalComma = decimalComma
    }

    /// - Throws: `.invalidOption` for a byte-order mark on an encoding that has none.
    public func validated() throws(DatasetError) -> OutputText {
        if byteOrderMark && encoding != .utf8 {
            throw .invalidOption(option: "--bom", value: encoding.rawValue,
                                 reason: "only UTF-8 files have a byte-order mark; drop --bom or write --output-encoding utf-8")
        }
        return self
    }
}

/// Converts the UTF-8 a writer formats into the file's encoding, block by block: Latin-1 by
/// its direct map, CP949 through the C library's `iconv` (as `Transcoder` reads it). A
/// character the encoding lacks is an error naming the output line.
final class TextEncoder {
    let encoding: TextEncoding
    let path: String
    private let iconv: Iconv?
    /// The bytes of a character split between two blocks.
    private var carry: [UInt8] = []
    /// Line ends written so far (to name the line of a character the encoding lacks).
    private var lines = 0

    /// - Throws: `.invalidOption` when the C library cannot convert to `encoding`.
    init(_ encoding: TextEncoding, path: String) throws(DatasetError) {
        self.encoding = encoding
        self.path = path
        iconv = encoding == .cp949 ? try Iconv(from: "UTF-8", to: "CP949", option: "--output-encoding", value: encoding.rawValue) : nil
    }

    /// `bytes` (UTF-8) in the encoding; `final`: no more bytes follow.
    /// - Throws: `.unencodable` naming the output line of a character the encoding lacks.
    func encode(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) throws(DatasetError) -> [UInt8] {
        var input = carry
        input.append(contentsOf: bytes)
        carry = []
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var used = 0
        switch encoding {
        case .utf8:
            out = input; used = input.count
        case .latin1:
            used = try latin1(input, into: &out)
        case .cp949:
            switch input.withUnsafeBufferPointer({ iconv!.convert($0, final: false, into: &out) }) {
            case .converted(let n): used = n
            case .invalid(let offset): throw unencodable(input, at: offset)
            }
        }
        carry = Array(input[used...])
        if final && !carry.isEmpty { throw unencodable(input, at: used) }
        lines += input[..<used].lazy.filter { $0 == 0x0A }.count
        return out
    }

    /// Latin-1 holds U+0000…U+00FF: one or two UTF-8 bytes. Returns the bytes used.
    private func latin1(_ input: [UInt8], into out: inout [UInt8]) throws(DatasetError) -> Int {
        var i = 0
        while i < input.count {
            let b = input[i]
            if b < 0x80 { out.append(b); i += 1; continue }
            if b == 0xC2 || b == 0xC3 {
                guard i + 1 < input.count else { return i }
                out.append((b & 0x03) << 6 | input[i + 1] & 0x3F); i += 2
                continue
            }
            throw unencodable(input, at: i)
        }
        return i
    }

    private func unencodable(_ input: [UInt8], at offset: Int) -> DatasetError {
        let line = lines + input[..<offset].lazy.filter { $0 == 0x0A }.count + 1
        let lead = input[offset]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        let character = String(decoding: input[offset..<min(input.count, offset + length)], as: UTF8.self)
        return .unencodable(path: path, line: line, character: character, encoding: encoding)
    }
}

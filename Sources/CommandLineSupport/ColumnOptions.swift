import ArgumentParser
import Datasets

/// A field separator given on the command line.
public struct Delimiter: ExpressibleByArgument {
    public let byte: UInt8

    public init?(argument: String) {
        switch argument.lowercased() {
        case ",", "comma": byte = UInt8(ascii: ",")
        case ";", "semicolon": byte = UInt8(ascii: ";")
        case "\t", "\\t", "tab": byte = UInt8(ascii: "\t")
        default: return nil
        }
    }
}

/// A text encoding given on the command line (`--encoding`), with its usual other names.
public struct EncodingName: ExpressibleByArgument {
    public let encoding: TextEncoding

    public init?(argument: String) {
        switch argument.lowercased() {
        case "utf-8", "utf8": encoding = .utf8
        case "latin1", "latin-1", "iso-8859-1", "iso8859-1": encoding = .latin1
        // EUC-KR is a subset of CP949 (Unified Hangul Code), so its files read the same.
        case "cp949", "uhc", "euc-kr", "euckr": encoding = .cp949
        default: return nil
        }
    }
}

/// The columns of a geographic input, its separator, encoding and decimal mark:
/// `--lat-column`, `--lon-column`, `--id-column`, `--delimiter`, `--encoding`,
/// `--decimal-comma`. Part of `InputOptions` (the clustering commands) and on their
/// own in the map-pin commands (`pins`, `nearby`, `privacy`; `map --zoom` through `map`'s
/// `InputOptions`), so every command reads a user's file with the same options.
public struct ColumnOptions: ParsableArguments {
    public init() {}

    @Option(help: ArgumentHelp("Latitude column (default: lat, latitude or 위도).", valueName: "name"))
    public var latColumn: String?

    @Option(help: ArgumentHelp("Longitude column (default: lon, lng, long, longitude or 경도).", valueName: "name"))
    public var lonColumn: String?

    @Option(help: ArgumentHelp("Id column or GeoJSON property (default: id, then fid; without one, rows are named by their 0-based row number).", valueName: "name"))
    public var idColumn: String?

    @Option(help: ArgumentHelp("CSV field separator: comma, semicolon or tab (default: detected from the header line).", valueName: "sep"))
    public var delimiter: Delimiter?

    @Option(help: ArgumentHelp("Input encoding: utf-8, latin1 (ISO-8859-1) or cp949 (Korean, also EUC-KR); converted to UTF-8 before reading (default: utf-8; a file that is not UTF-8 is refused, naming the encoding it looks like).", valueName: "name"))
    public var encoding: EncodingName?

    @Flag(help: "Numbers have a decimal comma (37,5), as semicolon-separated spreadsheet exports write them; the separator must then be a semicolon or tab.")
    public var decimalComma = false

    /// The names as Datasets' reader options (no x,y columns).
    public var readOptions: ReadOptions {
        ReadOptions(latitude: latColumn, longitude: lonColumn, id: idColumn, delimiter: delimiter?.byte,
                    encoding: encoding?.encoding ?? .utf8, decimalComma: decimalComma)
    }

    public func validate() throws {
        if decimalComma && delimiter?.byte == UInt8(ascii: ",") {
            throw ValidationError("--decimal-comma cannot be used with --delimiter comma: a decimal comma could not be told from a separator; use a semicolon- or tab-separated file (--delimiter semicolon or tab)")
        }
    }

    /// Refuses the options a GeoJSON input does not use (its coordinates are the geometry's,
    /// its fields are not separated).
    public func validate(input: String) throws {
        guard (try? InputFile.isGeoJSON(input)) == true else { return }
        var given: [String] = []
        if latColumn != nil { given.append("--lat-column") }
        if lonColumn != nil { given.append("--lon-column") }
        if delimiter != nil { given.append("--delimiter") }
        if !given.isEmpty {
            throw ValidationError("\(given.joined(separator: ", ")) \(given.count == 1 ? "is" : "are") not used for GeoJSON input \(input) (longitude/latitude are the geometry's); drop \(given.count == 1 ? "it" : "them")")
        }
    }
}

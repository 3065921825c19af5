import ArgumentParser
import Datasets

/// How the rows a command echoes are written back (`cluster --append`, `filter`): in the
/// input's encoding and decimal mark unless told otherwise, so a spreadsheet opens the result
/// as it opened the input.
struct OutputTextOptions: ParsableArguments {
    @Option(name: .customLong("output-encoding"),
            help: ArgumentHelp("Encoding of the CSV written: utf-8, latin1 or cp949 (default: the input's). Numbers the command adds take the input's decimal mark (--decimal-comma).", valueName: "name"))
    var encoding: EncodingName?

    @Flag(help: "Start the CSV written with a UTF-8 byte-order mark, which Excel needs to open UTF-8 as UTF-8 (default: when the input starts with one).")
    var bom = false

    /// The byte-order mark asked for: true with `--bom`, else the input's (nil).
    var byteOrderMark: Bool? { bom ? true : nil }

    func validate() throws {
        if bom, let e = encoding?.encoding, e != .utf8 {
            throw ValidationError("--bom is for UTF-8 output; \(e.displayName) has no byte-order mark: drop --bom or write --output-encoding utf-8")
        }
    }
}

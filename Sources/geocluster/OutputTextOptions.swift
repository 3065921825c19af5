import ArgumentParser
import CommandLineSupport

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

    /// Refuses a byte-order mark on output that is not UTF-8 (the input's encoding unless
    /// `--output-encoding` says otherwise).
    func validate(input: InputOptions) throws {
        let written = encoding?.encoding ?? input.readOptions.encoding
        if bom && written != .utf8 {
            throw ValidationError("--bom is for UTF-8 output; \(written.displayName) has no byte-order mark: drop --bom or write --output-encoding utf-8")
        }
    }
}

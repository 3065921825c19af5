import ArgumentParser
import CommandLineSupport

/// `geocluster pins-key`: a new secret key for the privacy mask, in a file only its owner reads.
struct PinsKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pins-key",
        abstract: "Write a new secret key for the map pins' privacy mask (256 bits from the operating system's random source).",
        discussion: """
            The file holds one line of 64 hexadecimal digits and is created with mode 0600; give \
            it to `pins`, `nearby`, `map --zoom` and `bench --pins-zooms` with --key-file (or put \
            the digits in \(PinsKeyFile.environmentVariable)). The key is never printed; its \
            fingerprint (one-way) is. Once pins made with a key are published, keep the key: a \
            new key draws every location again, and each draw is one more sample for an attacker \
            who averages them (docs/pins.md, "Privacy model"). An existing file is refused \
            unless --force is given.
            """
    )

    @Option(name: .shortAndLong, help: "The key file to create.")
    var output: String

    @Flag(help: "Replace an existing key file (its displayed positions cannot be reproduced without it).")
    var force = false

    func run() throws {
        let key = try reportingErrors { try PinsKeyFile.create(path: output, replace: force) }
        note("wrote a new \(key.bits)-bit pins key to \(output) (mode 0600; fingerprint \(key.fingerprint)); keep it secret and never change it once pins are published")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Pins
import Testing
import TestSupport
@testable import Harness

/// The key file and the mask file are read and written only as regular files. Every refusal
/// here comes from the file's metadata, before any read that could block: a FIFO nobody
/// writes would hang a read (or even a blocking open) for ever, so these tests finishing at
/// all is part of what they check. No test touches a device node other than reading
/// /dev/zero, which is harmless.
@Suite struct SecretFileTests {
    /// A FIFO at `name` in `folder`, mode 0600.
    static func fifo(_ folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.path(name)
        try #require(mkfifo(path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        return path
    }

    /// The message of the `HarnessError` `body` throws, nil (and an issue) when it throws none.
    static func refusal(_ what: String, _ body: () throws -> Void) -> String? {
        do {
            try body()
            Issue.record("\(what): not refused")
            return nil
        } catch {
            #expect(error is HarnessError, "\(what): \(error)")
            return "\(error)"
        }
    }

    /// The type and identity of `path` itself (a link is not followed): what must not change.
    static func identity(_ path: String) -> [UInt64] {
        var info = stat()
        guard lstat(path, &info) == 0 else { return [] }
        return [UInt64(info.st_mode), UInt64(info.st_ino), UInt64(info.st_dev)]
    }

    @Test("a key file that is a FIFO, a folder, a link to a FIFO or /dev/zero is refused, naming it, before any read")
    func keyFileMustBeRegular() throws {
        try withTemporaryFolder { folder in
            let pipe = try Self.fifo(folder, "pipe.key")
            try FileManager.default.createDirectory(atPath: folder.path("dir.key"), withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: folder.path("link.key"), withDestinationPath: pipe)
            for (path, kind) in [(pipe, "FIFO"), (folder.path("dir.key"), "folder"), (folder.path("link.key"), "FIFO"),
                                 ("/dev/zero", "character device")] {
                let text = Self.refusal(path) { _ = try PinsKeyFile.read(path: path) }
                #expect(text?.contains(path) == true && text?.contains(kind) == true && text?.contains("must be a regular file") == true,
                        "\(text ?? "")")
            }
            // A link to a regular key file is followed (secrets are often mounted as links).
            let key = try PinsKeyFile.create(path: folder.path("real.key"), replace: false)
            try FileManager.default.createSymbolicLink(atPath: folder.path("mounted.key"), withDestinationPath: folder.path("real.key"))
            #expect(try PinsKeyFile.read(path: folder.path("mounted.key")) == key)
        }
    }

    @Test("readSecretFile: nil when nothing is there, the bytes up to the cap, a refusal over it (never read), FIFOs and devices refused")
    func readSecretFileIsBoundedAndRegular() throws {
        try withTemporaryFolder { folder in
            #expect(try PinsKeyFile.readSecretFile(path: folder.path("none"), maximumBytes: 10, what: "mask file") == nil)
            let bytes = (0..<100).map { UInt8($0) }
            let file = try folder.write(bytes: bytes, to: "m")
            #expect(try PinsKeyFile.readSecretFile(path: file, maximumBytes: 100, what: "mask file") == bytes)
            #expect(try PinsKeyFile.readSecretFile(path: try folder.write(bytes: [], to: "empty"), maximumBytes: 100, what: "mask file") == [])
            let over = Self.refusal("99-byte cap") { _ = try PinsKeyFile.readSecretFile(path: file, maximumBytes: 99, what: "mask file") }
            #expect(over?.contains("\(file): not a mask file (over 99 bytes") == true, "\(over ?? "")")
            let pipe = try Self.fifo(folder, "pipe")
            for path in [pipe, "/dev/zero", folder.path("")] {
                let text = Self.refusal(path) { _ = try PinsKeyFile.readSecretFile(path: path, maximumBytes: 1 << 30, what: "mask file") }
                #expect(text?.contains("the mask file must be a regular file") == true, "\(text ?? "")")
            }
        }
    }

    @Test("writing a secret never replaces a FIFO, a folder or a link, with or without replace; the thing stays as it was")
    func writeSecretRefusesWhatIsNotARegularFile() throws {
        try withTemporaryFolder { folder in
            let pipe = try Self.fifo(folder, "pipe")
            try FileManager.default.createDirectory(atPath: folder.path("dir"), withIntermediateDirectories: false)
            let target = try folder.write("the file a link points to\n", to: "target")
            try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: target)
            try FileManager.default.createSymbolicLink(atPath: folder.path("dangling"), withDestinationPath: folder.path("nowhere"))
            let cases = [(pipe, "FIFO"), (folder.path("dir"), "folder"), (folder.path("link"), "symbolic link"),
                         (folder.path("dangling"), "symbolic link")]
            let before = cases.map { Self.identity($0.0) }
            for (path, kind) in cases {
                for replace in [false, true] {
                    let text = Self.refusal("\(path) replace \(replace)") {
                        try PinsKeyFile.writeSecret(Array("secret\n".utf8), to: path, replace: replace, what: "mask file", refusal: "exists")
                    }
                    #expect(text?.contains("\(path): is a") == true && text?.contains(kind) == true
                            && text?.contains("the mask file is written only as a regular file") == true, "\(text ?? "")")
                    let made = Self.refusal("pins-key -o \(path) --force \(replace)") { _ = try PinsKeyFile.create(path: path, replace: replace) }
                    #expect(made?.contains(kind) == true, "\(made ?? "")")
                }
            }
            #expect(cases.map { Self.identity($0.0) } == before && before.allSatisfy { !$0.isEmpty }, "every path is what it was")
            #expect(try folder.read("target") == "the file a link points to\n")
            #expect(try folder.contents() == ["dangling", "dir", "link", "pipe", "target"], "no temporary file left")
            // A regular file is still replaced, and a new one still made.
            try PinsKeyFile.writeSecret(Array("new\n".utf8), to: target, replace: true, what: "mask file", refusal: "exists")
            try PinsKeyFile.writeSecret(Array("new\n".utf8), to: folder.path("fresh"), replace: false, what: "mask file", refusal: "exists")
            #expect(try folder.read("target") == "new\n" && (try folder.read("fresh")) == "new\n")
        }
    }
}

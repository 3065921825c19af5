import Foundation
import Testing
@testable import Datasets

/// A fresh folder under the system temporary directory. Tests get one through
/// `withTemporaryFolder`, which removes it afterwards whatever happens.
struct TemporaryFolder {
    let url: URL

    /// The path of `name` inside the folder (the file need not exist).
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` (UTF-8, byte for byte) to `name` and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try write(bytes: Array(text.utf8), to: name)
    }

    /// Writes raw bytes to `name` and returns its path.
    @discardableResult
    func write(bytes: [UInt8], to name: String) throws -> String {
        let p = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }

    /// The names in the folder, hidden ones included, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

/// Runs `body` with a new, empty temporary folder and removes the folder afterwards.
/// Callers write `{ folder throws in … }`: a closure whose only `try`s sit inside `#expect`
/// is otherwise inferred as non-throwing.
func withTemporaryFolder<R>(_ body: (TemporaryFolder) throws -> R) throws -> R {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("geocluster-DatasetsTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(TemporaryFolder(url: url))
}

/// UTF-8 bytes of `text`.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

import Foundation

/// A fresh folder under the system temporary directory. Tests get one through
/// `withTemporaryFolder`, which removes it afterwards whatever happens.
public struct TemporaryFolder: Sendable {
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// The path of `name` inside the folder (the file need not exist).
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` (UTF-8, byte for byte) to `name` and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(bytes: Array(text.utf8), to: name)
    }

    /// Writes raw bytes to `name` and returns its path.
    @discardableResult
    public func write(bytes: [UInt8], to name: String) throws -> String {
        let p = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }

    /// The UTF-8 text of `name`.
    public func read(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    /// The bytes of `name`.
    public func data(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// The names in the folder, hidden ones (temporary files) included, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

/// Runs `body` with a new, empty temporary folder (`geocluster-tests-<UUID>`) and removes
/// the folder afterwards. Callers write `{ folder throws in … }`: a closure whose only
/// `try`s sit inside `#expect` is otherwise inferred as non-throwing.
public func withTemporaryFolder<R>(_ body: (TemporaryFolder) throws -> R) throws -> R {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("geocluster-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(TemporaryFolder(url: url))
}

/// `withTemporaryFolder` for an async body.
public func withTemporaryFolderAsync<R>(_ body: (TemporaryFolder) async throws -> R) async throws -> R {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("geocluster-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(TemporaryFolder(url: url))
}

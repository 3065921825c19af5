import Foundation

/// Where the tests find the package's files, from this source file's path
/// (Tests/TestSupport/TestPaths.swift), so they run from any working directory.
public enum TestPaths {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures/<subfolder>` (for example "hdbscan"), written by scripts/reference.
    public static func fixtures(_ subfolder: String) -> URL {
        packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(subfolder)
    }
}

extension TestPaths {
    /// The `.json` files of `Tests/Fixtures/<subfolder>` whose names pass `keep`, sorted by
    /// name; none when the folder is missing.
    public static func jsonFixtures(_ subfolder: String, where keep: (String) -> Bool = { _ in true }) -> [URL] {
        let folder = fixtures(subfolder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && keep($0) }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Every such file decoded as `T`. `JSONDecoder` parses the doubles bit-exactly
    /// (Foundation's `JSONSerialization` on Linux is 1 ulp off on some; see
    /// scripts/reference/README.md). A file that does not decode stops the tests.
    public static func decodeJSONFixtures<T: Decodable>(
        _ type: T.Type, in subfolder: String, where keep: (String) -> Bool = { _ in true }
    ) -> [T] {
        jsonFixtures(subfolder, where: keep).map { try! JSONDecoder().decode(T.self, from: Data(contentsOf: $0)) }
    }
}

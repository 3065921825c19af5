import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Whether `text` is well-formed XML, with the parser's error when it is not.
func xmlError(_ text: String) -> String? {
    let parser = XMLParser(data: Data(text.utf8))
    return parser.parse() ? nil : "\(parser.parserError.map { "\($0)" } ?? "unknown error") at line \(parser.lineNumber)"
}

/// Renders `svg` with `rsvg-convert` (librsvg, installed by scripts/setup.sh) to a PNG and
/// returns its exit status, standard error and the PNG's size in bytes.
func renderWithRSVG(_ svg: String) throws -> (status: Int32, stderr: String, pngBytes: Int) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geocluster-rsvg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("map.svg"), output = folder.appendingPathComponent("map.png")
    try Data(svg.utf8).write(to: input)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["rsvg-convert", "-o", output.path, input.path]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
    return (process.terminationStatus, message, size)
}


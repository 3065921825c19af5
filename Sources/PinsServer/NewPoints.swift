import Datasets
import Foundation
import Harness
import PinsQueries
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `POST /admin/predict`: new points placed in the clusters of the served model, as
/// `geocluster predict MODEL POINTS -o -` places them (hdbscan's `approximate_predict`), so that
/// an app can give a listing that arrived since the last refit its cluster at once.
///
/// The body is what that command reads: CSV with a header or GeoJSON points, the coordinates
/// those the model was fitted on (longitude/latitude, or `x`,`y` for a model of planar points,
/// whatever other columns the body has); the answer is the same CSV
/// (`id,label,probability,outlier_score`), byte for byte. The body goes through a temporary
/// file because the readers read files (their checks and messages are the CLI's); a message
/// names "the request body" where it would name that file.
enum NewPoints {
    /// The largest body taken (about a million points of CSV).
    static let maxBodyBytes = 64 << 20

    /// The labels CSV of the points in `body`, against `model` (read from `modelPath`).
    /// - Throws: an error naming the parameter `body`, its message the line and field at fault.
    static func labels(of body: [UInt8], model: SavedModel, modelPath: String) throws(PinsQueryError) -> [UInt8] {
        guard let folder = temporaryFolder() else { throw refusal("no temporary folder could be made for the request body") }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/request-body" + (startsLikeJSON(body) ? ".geojson" : ".csv")
        let output = folder + "/labels.csv"
        do {
            try Data(body).write(to: URL(fileURLWithPath: input))
            let coordinates: CoordinateKind = model.model.isOnSphere || model.projectedCRS != nil ? .lonlat : .xy
            let record = try Harness.predict(RunInput(path: input, coordinates: coordinates), model: model, modelPath: modelPath,
                                             threads: 1, clock: StageClock())
            try record.writeLabels(to: output, threads: 1)
            return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        } catch {
            throw refusal("\(error)".replacingOccurrences(of: input, with: "the request body"))
        }
    }

    private static func refusal(_ message: String) -> PinsQueryError { PinsQueryError(parameter: "body", message: message) }

    /// Whether the first byte that is not white space is `{` (GeoJSON), as the readers tell a
    /// file without an extension.
    private static func startsLikeJSON(_ body: [UInt8]) -> Bool {
        body.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "{")
    }

    private static func temporaryFolder() -> String? {
        var template = Array((NSTemporaryDirectory() + "/geocluster-predict-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) }
    }
}

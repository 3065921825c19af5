import Datasets
import Foundation
import Harness
import Hummingbird
import Logging
import NIOEmbedded
import Pins
@testable import PinsServer
import Synchronization
import TestSupport

/// A served index over generated listings, and requests answered by its router without a
/// socket (the router's responder called as the server calls it).
struct ServerFixture {
    let service: PinsService
    let responder: Router<BasicRequestContext>.Responder
    let metrics: ServerMetrics
    let path: String

    /// `count` listings of the seoul scenario (seed 11), masked with an insecure test key, or
    /// the rows of `csv` when given.
    static func make(count: Int = 3000, csv: String? = nil, adminToken: String? = nil, modelPath: String? = nil,
                     folder: TemporaryFolder) throws -> ServerFixture {
        let path: String
        if let csv {
            path = try folder.write(csv, to: "listings.csv")
        } else {
            path = folder.path("listings.csv")
            _ = try GeneratedListings.write(model: ScenarioModel(scenario: .seoul, count: count, seed: 11), to: path, format: .csv)
        }
        var settings = PinSourceSettings(key: .insecureTestKey(seed: 7), maskFile: folder.path("pins.mask"))
        settings.properties = .all
        let recipe = PinsDataset.Recipe(input: path, source: settings, tileSize: PinTiles.tileSize)
        let service = try PinsService(recipe: recipe, modelPath: modelPath, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let metrics = ServerMetrics()
        let router = PinsRoutes.router(service: service, settings: ServerSettings(adminToken: adminToken), metrics: metrics)
        return ServerFixture(service: service, responder: router.buildResponder(), metrics: metrics, path: path)
    }

    struct Answer {
        var status: Int
        var headers: HTTPFields
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> [String: Any] { try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:] }
    }

    /// The answer to `method path` with `headers` and `body`.
    func request(_ path: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: [UInt8] = []) async throws -> Answer {
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost:8080", path: path, headerFields: headers),
                              body: RequestBody(buffer: ByteBuffer(bytes: body)))
        let context = BasicRequestContext(source: .init(channel: EmbeddedChannel(), logger: Logger(label: "test")))
        let response: Response
        do { response = try await responder.respond(to: request, context: context) } catch let e as HTTPError {
            return Answer(status: Int(e.status.code), headers: [:], body: [])
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        return Answer(status: Int(response.status.code), headers: response.headers, body: collector.bytes.withLock { $0 })
    }
}

/// Collects a response body.
final class BodyCollector: ResponseBodyWriter, Sendable {
    let bytes = Mutex<[UInt8]>([])
    func write(_ buffer: ByteBuffer) async throws { bytes.withLock { $0 += buffer.readableBytesView } }
    func finish(_ trailers: HTTPFields?) async throws {}
}

import Harness
import Hummingbird
import Pins
import PinsQueries

/// What the server is configured with beyond its data.
public struct ServerSettings: Sendable {
    /// The bearer token `POST /admin/reload` requires; nil: no admin endpoint.
    public var adminToken: String?
    /// MapLibre GL JS's build (maplibre-gl.js and maplibre-gl.css) for the map page; nil or
    /// missing files: the page says how to install it.
    public var mapLibre: MapLibreAssets?

    public init(adminToken: String? = nil, mapLibre: MapLibreAssets? = nil) {
        self.adminToken = adminToken
        self.mapLibre = mapLibre
    }
}

/// The server's endpoints, each a parsed query turned into one call of `PinsAnswers` or
/// `PinTiles` on the snapshot current when the request came in.
public enum PinsRoutes {
    /// The router of every endpoint (docs/serve.md lists them).
    public static func router(service: PinsService, settings: ServerSettings, metrics: ServerMetrics) -> Router<BasicRequestContext> {
        let router = Router()
        let answer = Answering(service: service, metrics: metrics)
        let pinFilters = PinsQuery.filters
        router.get("/tiles/:z/:x/{y}.mvt") { request, context in
            answer.respond(request, route: "tiles", allowed: pinFilters, type: "application/vnd.mapbox-vector-tile") { (snapshot, query) throws(PinsAnswers.Failure) -> [UInt8] in
                try PinTiles.tile(snapshot.dataset, try tileAddress(context.parameters), filter: query.filter, keys: snapshot.tileKeys)
            }
        }
        router.get("/tiles.json") { request, _ in
            answer.respond(request, route: "tilejson", allowed: pinFilters, type: "application/json") { (snapshot, query) throws(PinsAnswers.Failure) -> [UInt8] in
                TileJSON.document(for: snapshot.dataset, host: request.head.authority, query: query)
            }
        }
        let calls: [(path: String, route: String, endpoint: @Sendable (Parameters) -> PinsCall.Endpoint)] = [
            ("/pins", "pins", { _ in .pins }),
            ("/pins/:id", "pin", { .pin($0.get("id") ?? "") }),
            ("/pins/:id/children", "children", { .children($0.get("id") ?? "") }),
            ("/pins/:id/leaves", "leaves", { .leaves($0.get("id") ?? "") }),
            ("/nearby", "nearby", { _ in .nearby }),
        ]
        for call in calls {
            router.get(RouterPath(call.path)) { request, context in
                let endpoint = call.endpoint(context.parameters)
                return answer.respond(request, route: call.route, allowed: endpoint.allowed, type: "application/geo+json") { (snapshot, query) throws(PinsAnswers.Failure) -> [UInt8] in
                    try PinsAnswers.answer(endpoint, snapshot.dataset, query)
                }
            }
        }
        addOperations(to: router, service: service, settings: settings, metrics: metrics)
        MapPage.add(to: router, assets: settings.mapLibre)
        return router
    }

    /// `/health`, `/metrics` and, with a token, `POST /admin/reload` and `POST /admin/predict`.
    static func addOperations(to router: Router<BasicRequestContext>, service: PinsService, settings: ServerSettings, metrics: ServerMetrics) {
        metrics.serving(service.snapshot)
        router.get("/health") { _, _ in
            let s = service.snapshot
            return Answering.json(.ok, #"{"status":"ok","version":\#(s.version),"listings":\#(s.dataset.shown),"locations":\#(s.dataset.index.locationCount)}"#)
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        guard let token = settings.adminToken else { return }
        router.post("/admin/reload") { request, _ in
            guard Answering.bearer(request.headers[.authorization], matches: token) else {
                return Answering.error(.unauthorized, parameter: nil, "give the admin token: Authorization: Bearer TOKEN")
            }
            do throws(PinsService.ReloadFailure) {
                let snapshot = try await service.reload()
                metrics.reloaded("ok")
                metrics.serving(snapshot)
                return Answering.json(.ok, #"{"status":"reloaded","version":\#(snapshot.version),"listings":\#(snapshot.dataset.shown)}"#)
            } catch {
                if case .busy = error {
                    metrics.reloaded("busy")
                    return Answering.error(.conflict, parameter: nil, error.description)
                }
                metrics.reloaded("failed")
                return Answering.error(.internalServerError, parameter: nil, error.description)
            }
        }
        router.post("/admin/predict") { request, _ in
            guard Answering.bearer(request.headers[.authorization], matches: token) else {
                return Answering.error(.unauthorized, parameter: nil, "give the admin token: Authorization: Bearer TOKEN")
            }
            return await predict(request, service: service, metrics: metrics)
        }
    }

    /// `POST /admin/predict`'s answer (`NewPoints`), computed off the event loops.
    static func predict(_ request: Request, service: PinsService, metrics: ServerMetrics) async -> Response {
        let start = ContinuousClock.now
        let snapshot = service.snapshot
        guard let model = snapshot.model, let modelPath = service.modelPath else {
            return Answering.error(.notFound, parameter: nil, "no model is served: start the server with --model FILE (geocluster cluster --save-model FILE)")
        }
        let body: [UInt8]
        do { body = Array(buffer: try await request.body.collect(upTo: NewPoints.maxBodyBytes)) } catch {
            return Answering.error(.contentTooLarge, parameter: nil, "the body is over \(NewPoints.maxBodyBytes >> 20) MiB: send the points in parts")
        }
        let answer = await PinsService.offEventLoops { () -> Result<[UInt8], PinsQueryError> in
            Result { () throws(PinsQueryError) in try NewPoints.labels(of: body, model: model, modelPath: modelPath) }
        }
        let response: Response
        switch answer {
        case .success(let csv):
            response = Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8", .cacheControl: "no-store"],
                                body: .init(byteBuffer: ByteBuffer(bytes: csv)))
        case .failure(let refusal):
            response = Answering.error(.badRequest, parameter: refusal.parameter, refusal.message)
        }
        metrics.record(route: "predict", status: Int(response.status.code), duration: ContinuousClock.now - start)
        return response
    }

    /// The tile address of a `/tiles/{z}/{x}/{y}.mvt` path.
    static func tileAddress(_ p: Parameters) throws(PinsAnswers.Failure) -> TileAddress {
        guard let z = p.get("z", as: Int.self), let x = p.get("x", as: Int.self), let y = p.get("y", as: Int.self),
              let address = TileAddress(z: z, x: x, y: y) else {
            let text = [p.get("z"), p.get("x"), p.get("y")].map { $0 ?? "?" }.joined(separator: "/")
            throw .badQuery(PinsQueryError(parameter: "tile", message: "'\(text)' is not a tile: z 0...\(PinOptions.maxZoom), x and y 0...2^z−1"))
        }
        return address
    }
}

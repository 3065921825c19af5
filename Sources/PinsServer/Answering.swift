import Datasets
import Harness
import Hummingbird
import Pins
import PinsQueries

/// How every data endpoint answers: the query parsed (400 naming the parameter), the current
/// snapshot taken, `If-None-Match` against the ETag (304 before any work), the body computed
/// from that one snapshot, gzipped when the client accepts it, and the request counted.
struct Answering: Sendable {
    let service: PinsService
    let metrics: ServerMetrics

    /// Clients revalidate every time: an ETag answer costs no index work, and a reload must
    /// show at once.
    static let cacheControl = "no-cache"

    func respond(_ request: Request, route: String, allowed: Set<PinsQuery.Parameter>, type: String,
                 body: (PinsService.Snapshot, PinsQuery) throws(PinsAnswers.Failure) -> [UInt8]) -> Response {
        let start = ContinuousClock.now
        let response = answer(request, allowed: allowed, type: type, body: body)
        metrics.record(route: route, status: Int(response.status.code), duration: ContinuousClock.now - start)
        return response
    }

    private func answer(_ request: Request, allowed: Set<PinsQuery.Parameter>, type: String,
                        body: (PinsService.Snapshot, PinsQuery) throws(PinsAnswers.Failure) -> [UInt8]) -> Response {
        let pairs = request.uri.queryParameters.map { (String($0.key), String($0.value)) }
        let query: PinsQuery
        do { query = try PinsQuery.parse(pairs, allowed: allowed) } catch { return Self.error(.badRequest, parameter: error.parameter, error.message) }
        let snapshot = service.snapshot
        let gzip = Self.acceptsGzip(request.headers[.acceptEncoding])
        let etag = #"W/""# + snapshot.tag + "-" + Self.hash(request.uri.path + "?" + query.normalized) + #"""#
        var headers: HTTPFields = [.eTag: etag, .cacheControl: Self.cacheControl, .vary: "Accept-Encoding"]
        if Self.matches(request.headers[.ifNoneMatch], etag) { return Response(status: .notModified, headers: headers) }
        var bytes: [UInt8]
        do { bytes = try body(snapshot, query) } catch {
            switch error {
            case .badQuery(let e): return Self.error(.badRequest, parameter: e.parameter, e.message)
            case .unknownPin: return Self.error(.notFound, parameter: "id", error.description)
            }
        }
        headers[.contentType] = type
        if gzip && !bytes.isEmpty {
            bytes = Gzip.compress(bytes)
            headers[.contentEncoding] = "gzip"
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A JSON answer.
    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// A JSON error: `{"error": …, "parameter": …}` (the parameter when one is to blame).
    static func error(_ status: HTTPResponse.Status, parameter: String?, _ message: String) -> Response {
        var members = [JSONMember(key: "error", value: .string(message))]
        if let parameter { members.append(JSONMember(key: "parameter", value: .string(parameter))) }
        return json(status, JSONValue.object(members).jsonText)
    }

    /// Whether `Accept-Encoding` allows gzip: it names `gzip` or `*` with a weight above 0.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for part in header.split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.filter { $0 != " " && $0 != "\t" } }
            guard let coding = fields.first?.lowercased(), coding == "gzip" || coding == "*" else { continue }
            let weight = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
        return false
    }

    /// Whether `If-None-Match` names `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`.
    static func matches(_ header: String?, _ etag: String) -> Bool {
        guard let header else { return false }
        let opaque = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        return header.split(separator: ",").contains { tag in
            let t = tag.filter { $0 != " " && $0 != "\t" }
            return t == "*" || (t.hasPrefix("W/") ? String(t.dropFirst(2)) : t) == opaque
        }
    }

    /// Whether an `Authorization` header carries `Bearer token` (compared in constant time).
    static func bearer(_ header: String?, matches token: String) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let given = Array(header.dropFirst(7).utf8), wanted = Array(token.utf8)
        guard given.count == wanted.count else { return false }
        return zip(given, wanted).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// FNV-1a of a text, in base 36 (an ETag's query part).
    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return String(h, radix: 36)
    }
}

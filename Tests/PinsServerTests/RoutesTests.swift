import ClusterCore
import Datasets
import Foundation
import Harness
import Hummingbird
import Pins
@testable import PinsServer
import Testing
import TestSupport

@Suite("server endpoints: answers, refusals, caching, reloads")
struct RoutesTests {
    @Test("every data endpoint answers 200 with GeoJSON, a tile or TileJSON")
    func answers() async throws {
        try await withTemporaryFolderAsync { folder in
            let server = try ServerFixture.make(folder: folder)
            let pins = try await server.request("/pins?zoom=11")
            #expect(pins.status == 200 && pins.headers[.contentType] == "application/geo+json")
            let features = try #require(try pins.json()["features"] as? [[String: Any]])
            let expected = try server.service.snapshot.dataset.index.pins(zoom: 11)
            #expect(features.count == expected.count && !expected.isEmpty)
            let id = try #require((features.first?["properties"] as? [String: Any])?["id"] as? String)
            let one = try await server.request("/pins/\(id)")
            let oneType = try one.json()["type"] as? String
            #expect(one.status == 200 && oneType == "Feature")
            #expect(try await server.request("/pins/\(id)/children").status == 200)
            let tile = TileAddress.owner(longitude: expected[0].longitude, latitude: expected[0].latitude, zoom: 11)
            let mvt = try await server.request("/tiles/\(tile.z)/\(tile.x)/\(tile.y).mvt")
            #expect(mvt.status == 200 && mvt.headers[.contentType] == "application/vnd.mapbox-vector-tile" && !mvt.body.isEmpty)
            let tilejson = try await server.request("/tiles.json?category=apartment")
            let doc = try tilejson.json()
            #expect(doc["tilejson"] as? String == "3.0.0")
            #expect((doc["tiles"] as? [String])?.first == "http://localhost:8080/tiles/{z}/{x}/{y}.mvt?category=apartment")
            let near = try await server.request("/nearby?lat=37.55&lon=126.98&radius=3000&limit=5")
            let nearFeatures = try near.json()["features"] as? [Any]
            #expect(near.status == 200 && nearFeatures != nil && nearFeatures!.count <= 5)
            #expect(try await server.request("/health").text.contains(#""status":"ok""#))
        }
    }

    @Test("a bad, unknown, repeated or missing parameter is a 400 naming it, never a 500")
    func refusals() async throws {
        try await withTemporaryFolderAsync { folder in
            let server = try ServerFixture.make(count: 500, folder: folder)
            let cases: [(String, String)] = [
                ("/pins", "zoom"), ("/pins?zoom=abc", "zoom"), ("/pins?zoom=23", "zoom"), ("/pins?zoom=5&zoom=6", "zoom"),
                ("/pins?zoom=5&bbox=1,2,3", "bbox"), ("/pins?zoom=5&area=10..5", "area"), ("/pins?zoom=5&category=castle", "category"),
                ("/pins?zoom=5&colour=red", "colour"), ("/pins?zoom=5&where=nosuchcolumn=1", "where"), ("/pins?zoom=5&where==3", "where"),
                ("/tiles/3/8/0.mvt", "tile"), ("/tiles/23/0/0.mvt", "tile"), ("/tiles/3/1/1.mvt?zoom=3", "zoom"),
                ("/pins/12/leaves?limit=0", "limit"), ("/pins/12/leaves?cursor=zz", "cursor"), ("/nearby?lat=37.5", "lon"),
                ("/nearby?lat=95&lon=1", "lat"), ("/nearby?lat=37.5&lon=127&radius=-1", "radius"), ("/pins/abc", "id"),
            ]
            for (path, parameter) in cases {
                let answer = try await server.request(path)
                #expect(answer.status == 400, "\(path): \(answer.status) \(answer.text)")
                #expect((try? answer.json()["parameter"] as? String) == parameter, "\(path): \(answer.text)")
            }
            let unknown = try await server.request("/pins/12345")
            #expect(unknown.status == 404 && unknown.text.contains("no pin has id 12345"))
        }
    }

    @Test("If-None-Match with the ETag is a 304 before any work; gzip when accepted, the same bytes inflated")
    func caching() async throws {
        try await withTemporaryFolderAsync { folder in
            let server = try ServerFixture.make(count: 800, folder: folder)
            let first = try await server.request("/pins?zoom=10&category=apartment")
            let etag = try #require(first.headers[.eTag])
            #expect(first.headers[.cacheControl] == "no-cache")
            let again = try await server.request("/pins?category=apartment&zoom=10", headers: [.ifNoneMatch: etag])
            #expect(again.status == 304 && again.body.isEmpty)
            let other = try await server.request("/pins?zoom=11&category=apartment", headers: [.ifNoneMatch: etag])
            #expect(other.status == 200)
            let gzipped = try await server.request("/pins?zoom=10&category=apartment", headers: [.acceptEncoding: "br, gzip;q=0.8"])
            #expect(gzipped.headers[.contentEncoding] == "gzip" && gzipped.body.count < first.body.count)
            try #expect(inflate(gzipped.body) == first.body)
            let refused = try await server.request("/pins?zoom=10&category=apartment", headers: [.acceptEncoding: "gzip;q=0"])
            #expect(refused.headers[.contentEncoding] == nil)
        }
    }

    @Test("a leaves page's cursor walks every listing of a pin once")
    func leavesPaging() async throws {
        try await withTemporaryFolderAsync { folder in
            let server = try ServerFixture.make(count: 1500, folder: folder)
            let pin = try #require(try server.service.snapshot.dataset.index.pins(zoom: 8).max { $0.count < $1.count })
            var ids: [String] = [], next: String? = nil, pages = 0
            repeat {
                let page = try await server.request("/pins/\(pin.id.rawValue)/leaves?limit=97" + (next.map { "&cursor=\($0)" } ?? ""))
                let json = try page.json()
                for f in json["features"] as? [[String: Any]] ?? [] {
                    ids.append("\((f["properties"] as? [String: Any])?["listing_id"] ?? "")")
                }
                next = json["next"] as? String
                pages += 1
            } while next != nil && pages < 1000
            #expect(ids.count == pin.count && Set(ids).count == pin.count)
        }
    }

    @Test("POST /admin/reload needs the token, swaps the index and changes the ETags; requests during a reload all succeed")
    func reload() async throws {
        try await withTemporaryFolderAsync { folder in
            let token = "0123456789abcdef0123"
            let server = try ServerFixture.make(count: 3000, adminToken: token, folder: folder)
            #expect(try await server.request("/admin/reload", method: .post).status == 401)
            #expect(try await server.request("/admin/reload", method: .post, headers: [.authorization: "Bearer wrong"]).status == 401)
            let before = try await server.request("/pins?zoom=9")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask { try await server.request("/admin/reload", method: .post, headers: [.authorization: "Bearer " + token]).status }
                for k in 0..<200 { group.addTask { try await server.request("/pins?zoom=\(8 + k % 6)").status } }
                var all: [Int] = []
                for try await s in group { all.append(s) }
                return all
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses.filter { $0 != 200 })")
            #expect(server.service.snapshot.version == 2)
            let after = try await server.request("/pins?zoom=9", headers: [.ifNoneMatch: try #require(before.headers[.eTag])])
            #expect(after.status == 200 && after.body == before.body, "same file, same mask file: the same pins under a new ETag")
            #expect(try await server.request("/metrics").text.contains(#"geocluster_reloads_total{result="ok"} 1"#))
        }
    }

    @Test("POST /admin/predict answers what geocluster predict writes, for CSV and GeoJSON bodies; token, model and body checked")
    func predict() async throws {
        try await withTemporaryFolderAsync { folder in
            let token = "0123456789abcdef0123"
            let fitted = folder.path("fitted.csv"), model = folder.path("model.gcm")
            _ = try GeneratedListings.write(model: ScenarioModel(scenario: .seoul, count: 3000, seed: 11), to: fitted, format: .csv)
            var job = ClusterJob(input: RunInput(path: fitted, coordinates: .lonlat), method: .hdbscan(HDBSCANParameters(minClusterSize: 15, minSamples: 5)),
                                 threads: 1, output: folder.path("labels.csv"))
            job.saveModel = model
            _ = try Harness.cluster(job, clock: StageClock())
            let server = try ServerFixture.make(count: 3000, adminToken: token, modelPath: model, folder: folder)
            let auth: HTTPFields = [.authorization: "Bearer " + token]
            var asked: [(body: [UInt8], answer: [UInt8])] = []
            for (format, name) in [(ListingFormat.csv, "new.csv"), (.geoJSON, "new.geojson")] {
                let new = folder.path(name)
                _ = try GeneratedListings.write(model: ScenarioModel(scenario: .seoul, count: 400, seed: 12), to: new, format: format)
                let saved = try SavedModel.read(path: model)
                try Harness.predict(RunInput(path: new, coordinates: .lonlat), model: saved, modelPath: model, threads: 1, clock: StageClock())
                    .writeLabels(to: folder.path("expected.csv"), threads: 1)
                let expected = Array(try folder.data("expected.csv"))
                let answer = try await server.request("/admin/predict", method: .post, headers: auth,
                                                      body: Array(try folder.data(name)))
                #expect(answer.status == 200 && answer.body == expected, "\(format): \(answer.text.prefix(300))")
                asked.append((Array(try folder.data(name)), expected))
                #expect(answer.text.split(separator: "\n").count == 401)
                #expect(answer.text.split(separator: "\n").dropFirst().contains { !$0.contains(",-1,") }, "some new point joins a cluster")
            }
            #expect(try await server.request("/admin/predict", method: .post, body: Array("id,lon,lat\n1,127,37.5\n".utf8)).status == 401)
            let bad = try await server.request("/admin/predict", method: .post, headers: auth,
                                               body: Array("id,lon,lat\n1,127.0,37.5\n2,east,37.5\n".utf8))
            #expect(bad.status == 400)
            let message = try #require(try bad.json()["error"] as? String)
            #expect(message.contains("the request body") && message.contains("3") && !message.contains("/request-body"), "\(message)")
            #expect(try await server.request("/metrics").text.contains(#"route="predict""#))
            // A reload reads the model again; one that cannot be read leaves the current one serving.
            #expect(try await server.request("/admin/reload", method: .post, headers: auth).status == 200)
            try Data("not a model".utf8).write(to: URL(fileURLWithPath: model))
            let failed = try await server.request("/admin/reload", method: .post, headers: auth)
            #expect(failed.status == 500 && failed.text.contains("model.gcm"), "\(failed.text)")
            for (body, answer) in asked {
                #expect(try await server.request("/admin/predict", method: .post, headers: auth, body: body).body == answer)
            }

        }
        try await withTemporaryFolderAsync { folder in
            let token = "0123456789abcdef0123"
            let withoutModel = try ServerFixture.make(count: 300, adminToken: token, folder: folder)
            let missing = try await withoutModel.request("/admin/predict", method: .post, headers: [.authorization: "Bearer " + token],
                                                         body: Array("id,lon,lat\n".utf8))
            #expect(missing.status == 404 && missing.text.contains("--model"))
        }
    }

    @Test("without a token there is no admin endpoint")
    func noAdminWithoutToken() async throws {
        try await withTemporaryFolderAsync { folder in
            let server = try ServerFixture.make(count: 300, folder: folder)
            #expect(try await server.request("/admin/reload", method: .post).status == 404)
            #expect(try await server.request("/admin/predict", method: .post).status == 404)
        }
    }
}

/// zlib's gzip decoder, through the system library the server compresses with.
func inflate(_ bytes: [UInt8]) throws -> [UInt8] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inflate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let gz = folder.appendingPathComponent("a.gz")
    try Data(bytes).write(to: gz)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/gzip")
    p.arguments = ["-d", gz.path]
    try p.run()
    p.waitUntilExit()
    return [UInt8](try Data(contentsOf: folder.appendingPathComponent("a")))
}

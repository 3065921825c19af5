import Testing
import Geo

@Suite("WKT and GeoJSON")
struct GeometryTextTests {
    /// A non-convex polygon with a hole and coordinates that need all 17 significant digits.
    private func sample(_ geos: GeometryContext) throws -> Geometry {
        try geos.polygon(
            exterior: Coordinates(x: [0, 10.1, 10.1, 5.333333333333333, 0], y: [0, 0, 7.7, 3.1415926535897931, 7.7]),
            holes: [Coordinates(x: [1, 2, 2, 1], y: [1, 1, 2, 2])])
    }

    @Test("WKT round trip keeps type, area, vertex count and exact coordinates")
    func wktRoundTrip() throws {
        let geos = try GeometryContext()
        let original = try sample(geos)
        let text = try original.wkt
        #expect(text.hasPrefix("POLYGON (("))
        let back = try geos.geometry(wkt: text)
        #expect(back.type == .polygon)
        #expect(back.numPoints == original.numPoints)
        #expect(try back.area == original.area)
        #expect(try back.vertices() == original.vertices())
    }

    @Test("GeoJSON round trip keeps type, area, vertex count and exact coordinates")
    func geoJSONRoundTrip() throws {
        let geos = try GeometryContext()
        let original = try sample(geos)
        let text = try original.geoJSON
        #expect(text.hasPrefix("{\"type\":\"Polygon\",\"coordinates\":[[["))
        let back = try geos.geometry(geoJSON: text)
        #expect(back.type == .polygon)
        #expect(back.numPoints == original.numPoints)
        #expect(try back.area == original.area)
        #expect(try back.vertices() == original.vertices())
    }

    @Test("MultiPolygon round trips through both formats, and WKT to GeoJSON to WKT is stable")
    func multiPolygon() throws {
        let geos = try GeometryContext()
        let wkt = "MULTIPOLYGON (((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 2, 1 1)), ((10 10, 12 10, 11 13, 10 10)))"
        let g = try geos.geometry(wkt: wkt)
        #expect(g.type == .multiPolygon)
        #expect(try g.area == 16 - 1 + 3)
        #expect(try g.wkt == wkt)
        let viaJSON = try geos.geometry(geoJSON: g.geoJSON)
        #expect(viaJSON.type == .multiPolygon)
        #expect(viaJSON.numPoints == g.numPoints)
        #expect(try viaJSON.wkt == wkt)
        let parts = try g.polygons()
        #expect(parts.map(\.count) == [2, 1])
        #expect(parts[1][0] == Coordinates(x: [10, 12, 11, 10], y: [10, 10, 13, 10]))
    }

    @Test("Every geometry type is recognised from WKT", arguments: [
        ("POINT (1 2)", GeometryType.point),
        ("LINESTRING (0 0, 1 1)", .lineString),
        ("LINEARRING (0 0, 1 0, 1 1, 0 0)", .linearRing),
        ("POLYGON ((0 0, 1 0, 1 1, 0 0))", .polygon),
        ("MULTIPOINT ((0 0), (1 1))", .multiPoint),
        ("MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))", .multiLineString),
        ("MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))", .multiPolygon),
        ("GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (0 0, 1 1))", .geometryCollection),
    ])
    func types(wkt: String, type: GeometryType) throws {
        let geos = try GeometryContext()
        let g = try geos.geometry(wkt: wkt)
        #expect(g.type == type)
        #expect(!g.isEmpty)
        #expect(try geos.geometry(geoJSON: g.geoJSON).numPoints == g.numPoints || type == .linearRing)
    }

    @Test("GeoJSON Features are read as their geometry; Z is dropped on output")
    func featuresAndZ() throws {
        let geos = try GeometryContext()
        let feature = #"{"type":"Feature","properties":{"name":"x"},"geometry":{"type":"Point","coordinates":[126.9779,37.5663]}}"#
        let point = try geos.geometry(geoJSON: feature)
        #expect(point.type == .point)
        #expect(try point.vertices() == Coordinates(x: [126.9779], y: [37.5663]))
        let z = try geos.geometry(wkt: "POINT Z (1 2 3)")
        #expect(try z.wkt == "POINT (1 2)")
    }

    @Test("Malformed text throws a GEOS parse error")
    func parseErrors() throws {
        let geos = try GeometryContext()
        let wktError = #expect(throws: GeoError.self) { try geos.geometry(wkt: "POLYGON ((0 0, 1") }
        guard case let .geos("reading WKT", message)? = wktError else {
            Issue.record("expected .geos, got \(String(describing: wktError))")
            return
        }
        #expect(message.contains("ParseException"))
        let jsonError = #expect(throws: GeoError.self) { try geos.geometry(geoJSON: #"{"type":"Polygon""#) }
        guard case let .geos("reading GeoJSON", jsonMessage)? = jsonError else {
            Issue.record("expected .geos, got \(String(describing: jsonError))")
            return
        }
        #expect(jsonMessage.contains("ParseException"))
        // The message was consumed: the next error does not quote the previous one.
        let again = #expect(throws: GeoError.self) { try geos.geometry(wkt: "NOT WKT") }
        guard case let .geos(_, againMessage)? = again else { return }
        #expect(!againMessage.contains("JSON"))
    }
}

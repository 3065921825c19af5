import Foundation
import Geo
import Testing
@testable import Datasets
import func TestSupport.withTemporaryFolder

@Suite("GeoJSON geometry features and CSV tables with replaced columns")
struct GeoJSONGeometryTests {
    /// The unit square at (0, 0) clockwise (GEOS's shell orientation), closed.
    static let clockwise = Coordinates(x: [0, 0, 1, 1, 0], y: [0, 1, 1, 0, 0])
    static let counterclockwise = Coordinates(x: [0, 1, 1, 0, 0], y: [0, 0, 1, 1, 0])

    /// The file a writer leaves after `body` has written its features.
    func written(_ body: (inout GeoJSONWriter) throws -> Void) throws -> String {
        try withTemporaryFolder { folder throws in
            var w = try GeoJSONWriter(path: folder.path("g.geojson"))
            try body(&w)
            try w.commit()
            return try String(contentsOfFile: folder.path("g.geojson"), encoding: .utf8)
        }
    }

    @Test("each geometry type is written as RFC 7946 spells it, properties after it, one feature per line")
    func geometryTypes() throws {
        let text = try written { w in
            w.beginFeature(.point(lon: 126.5, lat: 37.25))
            w.property("label", 0)
            try w.endFeature()
            w.beginFeature(.lineString(Coordinates(x: [127, 127.5], y: [37, 37.125])))
            w.property("label", 1)
            w.property("area_m2", 0.0, decimals: 1)
            try w.endFeature()
            w.beginFeature(.polygon([Self.counterclockwise]))
            try w.endFeature()
            w.beginFeature(.multiPolygon([[Self.counterclockwise], [Self.counterclockwise]]))
            try w.endFeature()
            // A Point feature through the point writer, in the same collection.
            w.beginFeature(lon: 1, lat: 2)
            try w.endFeature()
        }
        let square = "[[[0,0],[1.0,0],[1.0,1.0],[0,1.0],[0,0]]]"
        #expect(text == """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[126.5,37.25]},"properties":{"label":0}},
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[127.0,37.0],[127.5,37.125]]},"properties":{"label":1,"area_m2":0.0}},
            {"type":"Feature","geometry":{"type":"Polygon","coordinates":\(square)},"properties":{}},
            {"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[\(square),\(square)]},"properties":{}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1.0,2.0]},"properties":{}}
            ]}

            """)
        _ = try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test("exterior rings are written counterclockwise and holes clockwise, whichever way they come")
    func ringOrientation() throws {
        // A 4 × 4 square with a 1 × 1 hole, both given clockwise.
        let outer = Coordinates(x: [0, 0, 4, 4, 0], y: [0, 4, 4, 0, 0])
        let hole = Coordinates(x: [1, 1, 2, 2, 1], y: [1, 2, 2, 1, 1])
        let holeReversed = Coordinates(x: hole.x.reversed(), y: hole.y.reversed())
        let text = try written { w in
            w.beginFeature(.polygon([outer, hole]))
            try w.endFeature()
            w.beginFeature(.polygon([Coordinates(x: outer.x.reversed(), y: outer.y.reversed()), holeReversed]))
            try w.endFeature()
        }
        let expected = #"{"type":"Polygon","coordinates":[[[0,0],[4.0,0],[4.0,4.0],[0,4.0],[0,0]],[[1.0,1.0],[1.0,2.0],[2.0,2.0],[2.0,1.0],[1.0,1.0]]]}"#
        let lines = text.split(separator: "\n")
        #expect(lines.count == 4)
        for line in lines.dropFirst().prefix(2) { #expect(line.contains(expected), "\(line)") }
        #expect(GeoJSONGeometry.doubledSignedArea(Self.counterclockwise) == 2)
        #expect(GeoJSONGeometry.doubledSignedArea(Self.clockwise) == -2)
        // Far from (0, 0) the sign survives: a 1e-7° square at Seoul.
        let tiny = Coordinates(x: [127, 127 + 1e-7, 127 + 1e-7, 127, 127], y: [37.5, 37.5, 37.5 + 1e-7, 37.5 + 1e-7, 37.5])
        #expect(GeoJSONGeometry.doubledSignedArea(tiny) > 0)
    }

    @Test("a ring of 200,000 vertices (several MiB in one feature) is written whole")
    func longRing() throws {
        let n = 200_000
        var ring = Coordinates(x: [], y: [])
        for k in 0...n {
            let a = 2 * Double.pi * Double(k % n) / Double(n)
            ring.x.append(127 + 0.123456789 * cos(a))
            ring.y.append(37.5 + 0.123456789 * sin(a))
        }
        let text = try written { w in
            w.beginFeature(.polygon([ring]))
            w.property("points", n)
            try w.endFeature()
        }
        #expect(text.utf8.count > 4 << 20)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let feature = try #require((json["features"] as? [[String: Any]])?.first)
        let geometry = try #require(feature["geometry"] as? [String: Any])
        let rings = try #require(geometry["coordinates"] as? [[[Double]]])
        #expect(rings.count == 1 && rings[0].count == n + 1)
        #expect(abs(rings[0][1][0] - ring.x[1]) < 1e-7 && abs(rings[0][1][1] - ring.y[1]) < 1e-7, "counterclockwise as given")
        // Positions are rounded to 7 decimals (about 1 cm) and written in their shortest form:
        // the rounded value, digit for digit, with no float noise.
        let second = try #require(text.firstRange(of: "],[").map { text[$0.upperBound...].prefix { $0 != "]" } })
        func rounded(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }
        #expect(second.split(separator: ",").compactMap { Double($0) } == [rounded(ring.x[1]), rounded(ring.y[1])], "\(second)")
        #expect(second.split(separator: ",").allSatisfy { ($0.split(separator: ".").last?.count ?? 0) <= 7 }, "\(second)")
        #expect((feature["properties"] as? [String: Any])?["points"] as? Int == n)
    }

    @Test("GEOS geometries convert: Point, LineString, Polygon with its rings, MultiPolygon; others are refused")
    func fromGEOS() throws {
        let g = try GeometryContext()
        #expect(try GeoJSONGeometry(g.geometry(wkt: "POINT (127 37.5)")) == .point(lon: 127, lat: 37.5))
        #expect(try GeoJSONGeometry(g.geometry(wkt: "LINESTRING (0 0, 1 2)"))
                == .lineString(Coordinates(x: [0, 1], y: [0, 2])))
        #expect(try GeoJSONGeometry(g.geometry(wkt: "POLYGON ((0 0, 0 1, 1 1, 1 0, 0 0))")) == .polygon([Self.clockwise]))
        #expect(try GeoJSONGeometry(g.geometry(wkt: "MULTIPOLYGON (((0 0, 0 1, 1 1, 1 0, 0 0)), ((5 5, 5 6, 6 6, 5 5)))"))
                == .multiPolygon([[Self.clockwise], [Coordinates(x: [5, 5, 6, 5], y: [5, 6, 6, 5])]]))
        for wkt in ["MULTIPOINT ((0 0), (1 1))", "POLYGON EMPTY", "GEOMETRYCOLLECTION (POINT (0 0))"] {
            #expect(throws: GeoError.self, "\(wkt)") { try GeoJSONGeometry(g.geometry(wkt: wkt)) }
        }
    }

    @Test("a table written with replaced columns: x,y dropped and appended, fields as read, numbers rounded half away from zero")
    func tableWithReplacedColumns() throws {
        try withTemporaryFolder { folder throws in
            let input = try folder.write("id,X,name,lat\n1,9,\"a, b\",37.5\n2,9,\"say \"\"hi\"\"\",-0.25\n", to: "in.csv")
            let table = try CSV.read(path: input)
            let out = folder.path("out.csv")
            try table.write(to: out, replacing: [("x", [953892.2107774, -0.0004]), ("y", [1.0625, 2])], decimals: 3)
            #expect(try String(contentsOfFile: out, encoding: .utf8) == #"""
                id,name,lat,x,y
                1,"a, b",37.5,953892.211,1.063
                2,"say ""hi""",-0.25,0.000,2.000

                """#)
        }
    }
}

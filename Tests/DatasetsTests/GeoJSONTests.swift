import Foundation
import Testing
@testable import Datasets
import func TestSupport.withTemporaryFolder

@Suite("GeoJSON reading and writing")
struct GeoJSONTests {
    static let sample = """
        {"type": "FeatureCollection", "name": "listings",
         "features": [
          {"type": "Feature", "id": "f-1",
           "geometry": {"type": "Point", "coordinates": [126.9779692, 37.566535]},
           "properties": {"id": "L1", "category": "apartment", "area_m2": 84.5, "deposit": 50000,
                          "monthly_rent": 0, "note": "say \\"hi\\", ok", "tags": ["a", 1], "sold": false, "agent": null}},
          {"type": "Feature",
           "geometry": {"type": "Point", "coordinates": [127.0276, 37.4979, 12.5]},
           "properties": {"id": "L2", "category": "officetel", "area_m2": "28", "deposit": 1000,
                          "monthly_rent": 70, "extra": "\\u00e9\\ud83d\\ude00"}}
         ]}
        """

    @Test("a FeatureCollection reads as points with properties in order and coordinates exact")
    func readPoints() throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write(Self.sample, to: "in.geojson")
            var points: [GeoJSONPoint] = []
            try GeoJSON.forEachPoint(path: path) { (p) throws(DatasetError) in points.append(p) }
            #expect(points.count == 2)
            #expect(points[0].lon == 126.9779692 && points[0].lat == 37.566535)
            #expect(points[0].lonText == "126.9779692")
            #expect(points[0].id == .string("f-1"))
            #expect(points[0].properties.map(\.key) == ["id", "category", "area_m2", "deposit", "monthly_rent",
                                                        "note", "tags", "sold", "agent"])
            #expect(points[0].properties[5].value == .string("say \"hi\", ok"))
            #expect(points[0].line == 3)
            #expect(points[1].line == 7)
            #expect(points[1].index == 1)
            #expect(points[1].properties.last?.value == .string("é😀"))
        }
    }

    @Test("as a table: lon, lat, then property keys in order of first appearance; values as text")
    func readTable() throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write(Self.sample, to: "in.geojson")
            let t = try GeoJSON.readTable(path: path)
            #expect(t.header == ["lon", "lat", "id", "category", "area_m2", "deposit", "monthly_rent",
                                 "note", "tags", "sold", "agent", "extra"])
            #expect(t.rows[0] == ["126.9779692", "37.566535", "L1", "apartment", "84.5", "50000", "0",
                                  "say \"hi\", ok", "[\"a\",1]", "false", "", ""])
            #expect(t.rows[1] == ["127.0276", "37.4979", "L2", "officetel", "28", "1000", "70", "", "", "", "", "é😀"])
            let c = try t.coordinates(prefer: .lonlat)
            #expect(c.xOrLongitude == [126.9779692, 127.0276] && c.yOrLatitude == [37.566535, 37.4979])
        }
    }

    @Test("table to GeoJSON to table keeps every value; written files are valid JSON for Foundation too")
    func roundTrip() throws {
        try withTemporaryFolder { folder throws in
            let csv = try folder.write("""
                id,name,lat,lon,area_m2,flag\r
                a1,"Raemian, 101동",37.5,127.05,84.12,\r
                007,"quote ""q""\nline",37.25,126.9,60,yes\r

                """, to: "in.csv")
            let table = try CSV.read(path: csv)
            try GeoJSON.write(table, to: folder.path("out.geojson"))
            let back = try GeoJSON.readTable(path: folder.path("out.geojson"))
            #expect(back.header == ["lon", "lat", "id", "name", "area_m2", "flag"])
            #expect(back.rows == [["127.05", "37.5", "a1", "Raemian, 101동", "84.12", ""],
                                  ["126.9", "37.25", "007", "quote \"q\"\nline", "60", "yes"]])
            // Foundation's parser agrees that it is JSON, and sees numbers as numbers.
            let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: folder.path("out.geojson"))))
            let features = try #require((json as? [String: Any])?["features"] as? [[String: Any]])
            let props = try #require(features[0]["properties"] as? [String: Any])
            #expect(props["area_m2"] is NSNumber)
            #expect(props["id"] as? String == "a1")
            #expect(props["flag"] is NSNull)
            // And GeoJSON → GeoJSON is byte-stable.
            try GeoJSON.write(back, to: folder.path("again.geojson"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("again.geojson")))
                    == Data(contentsOf: URL(fileURLWithPath: folder.path("out.geojson"))))
        }
    }

    @Test("generated GeoJSON and CSV hold the same listings")
    func generatedFormatsAgree() throws {
        try withTemporaryFolder { folder throws in
            let model = ScenarioModel(scenario: .busan, count: 1500, seed: 3)
            _ = try GeneratedListings.write(model: model, to: folder.path("g.geojson"), format: .geoJSON)
            _ = try GeneratedListings.write(model: model, to: folder.path("g.csv"), format: .csv)
            let g = try GeoJSON.readTable(path: folder.path("g.geojson")), c = try CSV.read(path: folder.path("g.csv"))
            #expect(g.rows.count == 1500)
            for name in ["id", "truth", "category", "area_m2", "deposit", "monthly_rent", "floor", "building_id", "x", "y"] {
                let gi = try #require(g.column(named: [name])), ci = try #require(c.column(named: [name]))
                #expect(g.rows.map { $0[gi] } == c.rows.map { $0[ci] }, "\(name)")
            }
            #expect(try g.coordinates(prefer: .lonlat) == c.coordinates(prefer: .lonlat))
            // PointFile reads either; GeoJSON ids come from the id property.
            let pg = try PointFile.read(path: folder.path("g.geojson"))
            let pc = try PointFile.read(path: folder.path("g.csv"), prefer: .lonlat)
            #expect(pg.coordinates == pc.coordinates)
            #expect((0..<pg.count).allSatisfy { pg.id($0) == pc.id($0) })
            #expect(pg.lines[0] == 2)
            let xy = try PointFile.read(path: folder.path("g.geojson"), prefer: .xy)
            #expect(xy.coordinates == (try PointFile.read(path: folder.path("g.csv"))).coordinates)
        }
    }

    @Test("JSON numbers are parsed to the correctly rounded double (as strtod)")
    func exactNumbers() throws {
        var g = Datasets.SplitMix64(seed: 2)
        var features: [String] = []
        var expected: [(Double, Double)] = []
        for _ in 0..<2000 {
            // Many digits, exponents, and the awkward values near halfway points.
            let lon = g.nextDouble(in: -180, 180), lat = g.nextDouble(in: -90, 90)
            let lonText = "\(lon)", latText = String(format: "%.17g", lat)
            features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lonText),\#(latText)]},"properties":null}"#)
            expected.append((Double(lonText)!, strtod(latText, nil)))
        }
        features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1.5e2,-0.25E1]},"properties":{}}"#)
        expected.append((150, -2.5))
        try withTemporaryFolder { folder throws in
            let path = try folder.write(#"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#, to: "n.geojson")
            let p = try PointFile.read(path: path)
            #expect(p.coordinates.xOrLongitude == expected.map(\.0))
            #expect(p.coordinates.yOrLatitude == expected.map(\.1))
            #expect(p.id(0) == "0" && p.id(2000) == "2000", "no id: the feature index")
        }
    }

    /// A malformed GeoJSON input and the message fragments it must produce.
    struct BadInput: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var fragments: [String]
        var testDescription: String { name }
    }

    static let point = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[127,37.5]},"properties":{}}"#

    static let badInputs: [BadInput] = [
        .init(name: "empty file", text: "", fragments: ["the file is empty"]),
        .init(name: "whitespace only", text: " \n\n", fragments: ["the file is empty"]),
        .init(name: "truncated", text: "{\"type\":\"FeatureCollection\",\"features\":[\n\(point)\n",
              fragments: [":3:1: invalid JSON", "expected ',' or ']'"]),
        .init(name: "bare word", text: "{\"type\": FeatureCollection}", fragments: [":1:10: invalid JSON", "expected a value"]),
        .init(name: "trailing comma", text: "{\"type\":\"FeatureCollection\",\"features\":[\(point),]}",
              fragments: ["invalid JSON", "expected a value, found ']'"]),
        .init(name: "unterminated string", text: "{\"type\":\"FeatureCollection\",\n\"features\":[\"abc]}",
              fragments: [":2:13: invalid JSON", "never closed"]),
        .init(name: "bad number", text: "{\"type\":\"FeatureCollection\",\"features\":[01]}",
              fragments: ["invalid JSON", "'01' is not a JSON number"]),
        .init(name: "garbage after", text: "{\"type\":\"FeatureCollection\",\"features\":[\(point)]} x",
              fragments: ["invalid JSON", "after the top-level object"]),
        .init(name: "not an object", text: "[1,2]", fragments: ["'type'", "not a FeatureCollection"]),
        .init(name: "a bare Feature", text: point, fragments: ["'type'", "\"Feature\"", "wrap the feature in a FeatureCollection"]),
        .init(name: "no features member", text: "{\"type\":\"FeatureCollection\"}", fragments: ["'features'", "missing"]),
        .init(name: "no features", text: "{\"type\":\"FeatureCollection\",\"features\":[]}", fragments: ["has no features"]),
        .init(name: "a LineString", text: "{\"type\":\"FeatureCollection\",\"features\":[\(point),\(point),{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]},\"properties\":{}}]}",
              fragments: ["feature 2: 'geometry.type'", "LineString", "only Point features"]),
        .init(name: "null geometry", text: "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":null,\"properties\":{}}]}",
              fragments: ["feature 0: 'geometry'", "missing or null"]),
        .init(name: "latitude 91", text: "{\"type\":\"FeatureCollection\",\"features\":[\(point),{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[127,91]},\"properties\":{}}]}",
              fragments: ["feature 1: 'geometry.coordinates[1]'", "latitude 91 is out of range", "±90"]),
        .init(name: "longitude 181", text: "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[181,37]},\"properties\":{}}]}",
              fragments: ["feature 0: 'geometry.coordinates[0]'", "±180"]),
        .init(name: "string coordinate", text: "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\"127\",37]},\"properties\":{}}]}",
              fragments: ["feature 0: 'geometry.coordinates[0]'", "a string, not a number"]),
        .init(name: "infinite coordinate", text: "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1e999,37]},\"properties\":{}}]}",
              fragments: ["feature 0:", "not a finite number"]),
        .init(name: "one coordinate", text: "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[127]},\"properties\":{}}]}",
              fragments: ["feature 0: 'geometry.coordinates'", "[longitude, latitude]"]),
        .init(name: "wrong feature type", text: "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Point\",\"coordinates\":[127,37]}]}",
              fragments: ["feature 0: 'type'", "must be \"Feature\""]),
        .init(name: "properties an array", text: "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[127,37]},\"properties\":[]}]}",
              fragments: ["feature 0: 'properties'", "an array"]),
        .init(name: "lone surrogate", text: "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[127,37]},\"properties\":{\"a\":\"\\ud800\"}}]}",
              fragments: ["invalid JSON", "surrogate"]),
    ]

    @Test("malformed GeoJSON gives one clear error naming the file and the line and column or feature",
          arguments: badInputs)
    func malformed(_ c: BadInput) throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write(c.text, to: "bad.geojson")
            do {
                _ = try PointFile.read(path: path)
                Issue.record("no error for \(c.name)")
            } catch {
                let message = String(describing: error)
                #expect(message.hasPrefix(path + ":"), "\(message)")
                for f in c.fragments { #expect(message.contains(f), "missing \"\(f)\" in \(message)") }
            }
        }
    }

    @Test("a missing GeoJSON file and a folder are reported as such")
    func missingAndFolder() throws {
        try withTemporaryFolder { folder throws in
            let missing = folder.path("none.geojson")
            #expect(throws: DatasetError.fileNotFound(path: missing)) { try PointFile.read(path: missing) }
            let dir = folder.path("dir.geojson")
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
            #expect(throws: DatasetError.unreadable(path: dir, reason: "it is a folder")) { try PointFile.read(path: dir) }
        }
    }

    @Test("JSON string escapes and number syntax follow RFC 8259")
    func jsonSyntax() throws {
        func parse(_ s: String) throws -> JSONValue {
            let bytes = Array(s.utf8)
            return try bytes.withUnsafeBufferPointer { (b) throws(DatasetError) in
                var p = JSONParser(b, path: "t")
                let v = try p.parseValue()
                guard p.atEnd() else { throw p.fail("trailing bytes") }
                return v
            }
        }
        #expect(try parse(#""a\/b\\c\n\t\u0041\ud83d\ude00""#) == .string("a/b\\c\n\tA😀"))
        #expect(try parse("[-0, 1.5e-3, 10, 2E+2]") == .array([.number("-0"), .number("1.5e-3"), .number("10"), .number("2E+2")]))
        #expect(try parse(#"{"b":1,"a":{"c":[true,false,null]}}"#)
                == .object([JSONMember(key: "b", value: .number("1")),
                            JSONMember(key: "a", value: .object([JSONMember(key: "c", value: .array([.bool(true), .bool(false), .null]))]))]))
        for bad in ["+1", ".5", "1.", "-", "1e", "0x10", "tru", "\"a\u{1}\"", "[1 2]", "{\"a\" 1}", "{1:2}"] {
            #expect(throws: DatasetError.self, "\(bad)") { try parse(bad) }
        }
        for s in ["0", "-0.5", "1e10", "123.456E-7"] { #expect(JSONText.isNumber(s), "\(s)") }
        for s in ["01", "1.", ".1", "+1", "1e", "", "-", "1 "] { #expect(!JSONText.isNumber(s), "\(s)") }
        #expect(JSONText.quoted("a\"b\\c\u{1}\n") == #""a\"b\\c\u0001\n""#)
    }

    @Test("ids are JSON numbers only as plain integers within ±(2^53 − 1); other fields only when a double keeps their value")
    func numberRules() {
        for s in ["0", "42", "-7", "9007199254740991", "-9007199254740991"] { #expect(JSONText.isSafeInteger(s), "\(s)") }
        for s in ["9007199254740992", "9007199254740993", "12345678901234567890123", "1e3", "007", "-0", "3.0", "", "-", "+1", "1 ", "x"] {
            #expect(!JSONText.isSafeInteger(s), "\(s)")
        }
        for s in ["0", "-0", "12.50", "1e3", "0.1", "-7", "9007199254740992", "1.5E-7", "1.5e300", "0.000001"] {
            #expect(JSONText.keepsValue(s), "\(s)")
        }
        for s in ["12345678901234567890123", "9007199254740993", "0.30000000000000000001", "1e999", "3.141592653589793238", "", "x", "01", "+1"] {
            #expect(!JSONText.keepsValue(s), "\(s)")
        }
    }

    @Test("a GeoJSON writer dropped before commit leaves no file; an empty collection is valid JSON")
    func writerAtomic() throws {
        try withTemporaryFolder { folder throws in
            do {
                var w = try GeoJSONWriter(path: folder.path("x.geojson"))
                w.beginFeature(lon: 1, lat: 2)
                try w.endFeature()
            }
            #expect(try folder.contents().isEmpty)
            var w = try GeoJSONWriter(path: folder.path("e.geojson"))
            try w.commit()
            let text = try String(contentsOfFile: folder.path("e.geojson"), encoding: .utf8)
            #expect(text == "{\"type\":\"FeatureCollection\",\"features\":[\n]}\n")
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8))
        }
    }
}

import Foundation
import Testing
@testable import Datasets
import func TestSupport.withTemporaryFolder
import Pins

@Suite("Listing filters")
struct FilterTests {
    @Test("ranges: both ends, open ends, spaces; ends included")
    func ranges() throws {
        #expect(try ValueRange.parse("10..50", option: "--area") == ValueRange(lower: 10, upper: 50))
        #expect(try ValueRange.parse("..50", option: "--area") == ValueRange(lower: nil, upper: 50))
        #expect(try ValueRange.parse("100..", option: "--area") == ValueRange(lower: 100, upper: nil))
        #expect(try ValueRange.parse(" 1.5 .. 2e3 ", option: "--area") == ValueRange(lower: 1.5, upper: 2000))
        #expect(try ValueRange.parse("-5..-1", option: "--rent") == ValueRange(lower: -5, upper: -1))
        #expect(try ValueRange.parse("7..7", option: "--rent").contains(7))
        let r = try ValueRange.parse("10..50", option: "--area")
        #expect(r.contains(10) && r.contains(50) && !r.contains(9.999) && !r.contains(50.001))
        #expect(try ValueRange.parse("..50", option: "--area").contains(-1e300))
    }

    @Test("bad ranges are option errors that say what to do", arguments: [
        ("50..10", "the minimum 50.0 is above the maximum 10.0; swap them"),
        ("..", "give at least one end, e.g. 100.. or ..50"),
        ("10", "write a range as MIN..MAX, ..MAX or MIN.."),
        ("1..2..3", "write a range as MIN..MAX, ..MAX or MIN.."),
        ("a..5", "the minimum 'a' is not a finite number"),
        ("5..inf", "the maximum 'inf' is not a finite number"),
        ("nan..", "the minimum 'nan' is not a finite number"),
    ])
    func badRanges(text: String, reason: String) {
        #expect(throws: DatasetError.invalidOption(option: "--deposit", value: text, reason: reason)) {
            try ValueRange.parse(text, option: "--deposit")
        }
    }

    @Test("bounding boxes: four numbers, minLat ≤ maxLat, within ±180 / ±90; west > east crosses ±180°")
    func boxes() throws {
        let b = try BoundingBox.parse("126.9, 37.4,127.1,37.6")
        #expect(b == BoundingBox(minLongitude: 126.9, minLatitude: 37.4, maxLongitude: 127.1, maxLatitude: 37.6))
        #expect(b.contains(longitude: 126.9, latitude: 37.6) && !b.contains(longitude: 127.2, latitude: 37.5))
        let cases: [(String, String)] = [
            ("126.9,37.6,127.1,37.4", "minLat 37.6 is greater than maxLat 37.4; swap them"),
            ("1,2,3", "give four numbers: minLon,minLat,maxLon,maxLat"),
            ("1,2,x,4", "maxLon 'x' is not a finite number"),
            ("-181,0,0,1", "minLon -181.0 is outside ±180 degrees"),
            ("0,0,1,91", "maxLat 91.0 is outside ±90 degrees"),
        ]
        for (text, reason) in cases {
            #expect(throws: DatasetError.invalidOption(option: "--bbox", value: text, reason: reason)) {
                try BoundingBox.parse(text)
            }
        }
        let fiji = try BoundingBox.parse("170,-25,-170,-10")
        #expect(fiji == BoundingBox(minLongitude: 170, minLatitude: -25, maxLongitude: -170, maxLatitude: -10))
        #expect(fiji.contains(longitude: 179, latitude: -17) && fiji.contains(longitude: -175, latitude: -17))
        #expect(!fiji.contains(longitude: 0, latitude: -17) && !fiji.contains(longitude: 169, latitude: -17))
    }

    /// Brute-force membership: the box covers the longitudes `west + t`, 0 ≤ t ≤ its width
    /// eastwards (a turn less across ±180°), taken modulo a turn.
    static func oracle(_ b: BoundingBox, lon: Double, lat: Double) -> Bool {
        guard lat >= b.minLatitude && lat <= b.maxLatitude else { return false }
        let width = b.minLongitude <= b.maxLongitude ? b.maxLongitude - b.minLongitude : b.maxLongitude - b.minLongitude + 360
        var t = (lon - b.minLongitude).truncatingRemainder(dividingBy: 360)
        if t < 0 { t += 360 }
        return t <= width
    }

    @Test("random boxes, across ±180° or not, parsed and read: exactly the rows the brute-force oracle keeps")
    func randomBoxes() throws {
        var rng = SplitMix64(seed: 27)
        var text = "id,lat,lon\n"
        var points: [(Double, Double)] = []
        for i in 0..<3000 {
            // Half a degree steps put many points on box edges, which are included.
            let lon = Double(Int.random(in: -360...360, using: &rng)) / 2, lat = Double(Int.random(in: -180...180, using: &rng)) / 2
            points.append((lon, lat))
            text += "\(i),\(lat),\(lon)\n"
        }
        try withTemporaryFolder { folder throws in
            let path = try folder.write(text, to: "world.csv")
            var crossing = 0
            for _ in 0..<60 {
                let w = Double(Int.random(in: -360...360, using: &rng)) / 2, e = Double(Int.random(in: -360...360, using: &rng)) / 2
                let s = Double(Int.random(in: -180...170, using: &rng)) / 2
                let n = min(90, s + Double(Int.random(in: 0...120, using: &rng)) / 2)
                if w > e { crossing += 1 }
                let box = try BoundingBox.parse("\(w),\(s),\(e),\(n)")
                let kept = try PointFile.read(path: path, filter: ListingFilter(bbox: box))
                let expected = points.indices.filter { Self.oracle(box, lon: points[$0].0, lat: points[$0].1) }.map(String.init)
                #expect(ids(kept) == expected, "box \(w),\(s),\(e),\(n)")
            }
            #expect(crossing > 10)
        }
    }

    @Test("categories: names as written in the data, any case; an unknown one lists the known ones")
    func categories() throws {
        #expect(try ListingFilter.parseCategories("apartment,One-Room") == CategorySet([.apartment, .oneRoom] as [ListingCategory]))
        #expect(throws: DatasetError.invalidOption(
            option: "--category", value: "apartment,flat",
            reason: "unknown category 'flat'; choose from apartment, officetel, villa, one-room, two-room, store")) {
            try ListingFilter.parseCategories("apartment,flat")
        }
        #expect(throws: DatasetError.self) { try ListingFilter.parseCategories("apartment,") }
    }

    static let listings = """
        id,lat,lon,x,y,category,area_m2,deposit,monthly_rent,memo
        a,37.50,127.00,1,1,apartment,84,60000,0,"jeonse, quiet"
        b,37.55,127.05,2,2,officetel,28,1000,70,
        c,37.60,127.10,3,3,Villa ,55,12000,0,
        d,37.45,126.95,4,4,one-room,20,500,55,
        e,37.52,127.02,5,5,store,60,3000,200,
        f,37.70,127.20,6,6,hanok,99,1,1,
        """

    private func read(_ filter: ListingFilter?, text: String = listings, prefer: CoordinateKind? = nil) throws -> PointFile {
        try withTemporaryFolder { folder throws in
            try PointFile.read(path: try folder.write(text, to: "l.csv"), prefer: prefer, filter: filter)
        }
    }

    private func ids(_ f: PointFile) -> [String] { (0..<f.count).map(f.id) }

    @Test("each filter keeps exactly the matching rows, in order, with their lines; all filters combine")
    func pointFileFilters() throws {
        #expect(ids(try read(ListingFilter(attributes: AttributeFilter(categories: CategorySet([.apartment, .villa] as [ListingCategory]))))) == ["a", "c"])
        #expect(ids(try read(ListingFilter(attributes: AttributeFilter(area: ValueRange(lower: nil, upper: 55))))) == ["b", "c", "d"])
        #expect(ids(try read(ListingFilter(attributes: AttributeFilter(deposit: ValueRange(lower: 3000, upper: nil))))) == ["a", "c", "e"])
        #expect(ids(try read(ListingFilter(attributes: AttributeFilter(monthlyRent: ValueRange(lower: 0, upper: 0))))) == ["a", "c"])
        let box = BoundingBox(minLongitude: 126.99, minLatitude: 37.5, maxLongitude: 127.06, maxLatitude: 37.56)
        let inBox = try read(ListingFilter(bbox: box))
        #expect(ids(inBox) == ["a", "b", "e"])
        #expect(inBox.lines == [2, 3, 6])
        #expect(inBox.totalRows == 6)
        #expect(inBox.coordinates.kind == .xy, "x,y are clustered; the box reads lat,lon")
        #expect(inBox.coordinates.xOrLongitude == [1, 2, 5])
        let all = try read(ListingFilter(attributes: AttributeFilter(categories: CategorySet([.apartment, .officetel, .store] as [ListingCategory]), area: ValueRange(lower: 25, upper: nil), monthlyRent: ValueRange(lower: 1, upper: nil)), bbox: box))
        #expect(ids(all) == ["b", "e"])
        let none = try read(nil)
        #expect(none.count == 6 && none.totalRows == 6)
    }

    @Test("without an id column the kept rows keep their row numbers as ids")
    func rowNumbersAsIDs() throws {
        let text = "lat,lon,category\n37.5,127,villa\n37.5,127,store\n37.5,127,villa\n"
        let f = try read(ListingFilter(attributes: AttributeFilter(categories: CategorySet([.villa] as [ListingCategory]))), text: text)
        #expect(f.hasIDColumn)
        #expect(ids(f) == ["0", "2"])
        let g = try read(nil, text: text)
        #expect(!g.hasIDColumn && ids(g) == ["0", "1", "2"])
    }

    @Test("a filter whose column is missing names the option and the header")
    func missingColumn() throws {
        let text = "id,x,y,area\n1,0,0,10\n"
        try withTemporaryFolder { folder throws in
            let path = try folder.write(text, to: "m.csv")
            #expect(throws: DatasetError.missingFilterColumn(path: path, option: "--deposit", wanted: "deposit",
                                                             found: ["id", "x", "y", "area"])) {
                try PointFile.read(path: path, filter: ListingFilter(attributes: AttributeFilter(deposit: ValueRange(lower: 1, upper: nil))))
            }
        }
        // `area` is accepted for area_m2; x,y-only files cannot take a bounding box.
        #expect(try read(ListingFilter(attributes: AttributeFilter(area: ValueRange(lower: 5, upper: nil))), text: text).count == 1)
        #expect(throws: DatasetError.self) { try read(ListingFilter(bbox: BoundingBox(minLongitude: 0, minLatitude: 0, maxLongitude: 1, maxLatitude: 1)), text: text) }
    }

    @Test("filter columns are checked in every row, kept or not")
    func badFilterValues() throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write("id,lat,lon,category,area_m2\n1,37.5,127,villa,10\n2,37.5,127,store,abc\n", to: "b.csv")
            #expect(throws: DatasetError.invalidNumber(path: path, line: 3, column: "area_m2", text: "abc")) {
                try PointFile.read(path: path, filter: ListingFilter(attributes: AttributeFilter(categories: CategorySet([.villa] as [ListingCategory]), area: ValueRange(lower: 0, upper: nil))))
            }
            let lat = try folder.write("id,x,y,lat,lon\n1,0,0,37.5,127\n2,0,0,95,127\n", to: "lat.csv")
            #expect(throws: DatasetError.outOfRange(path: lat, line: 3, column: "lat", value: 95, limit: "latitude must be within ±90")) {
                try PointFile.read(path: lat, filter: ListingFilter(bbox: BoundingBox(minLongitude: 0, minLatitude: 0, maxLongitude: 180, maxLatitude: 90)))
            }
            // Without a filter the attribute columns are not looked at.
            #expect(try PointFile.read(path: path).count == 2)
        }
    }

    @Test("a filter that keeps nothing is an error naming the file and the row count")
    func nothingKept() throws {
        try withTemporaryFolder { folder throws in
            let path = try folder.write(Self.listings, to: "l.csv")
            #expect(throws: DatasetError.noRowsKept(path: path, total: 6)) {
                try PointFile.read(path: path, filter: ListingFilter(attributes: AttributeFilter(area: ValueRange(lower: 1000, upper: nil))))
            }
        }
    }

    static let gangnam = """
        {"type":"FeatureCollection","features":[
         {"type":"Feature","properties":{"name":"box"},"geometry":{"type":"Polygon","coordinates":[[[126.99,37.49],[127.06,37.49],[127.06,37.56],[126.99,37.56],[126.99,37.49]],
           [[127.04,37.53],[127.055,37.53],[127.055,37.555],[127.04,37.555],[127.04,37.53]]]}},
         {"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[127.09,37.59],[127.11,37.59],[127.11,37.61],[127.09,37.61],[127.09,37.59]]]]}}
        ]}
        """

    @Test("--within: GeoJSON polygons with holes and multipolygons; WKT; boundary points count as inside")
    func regions() throws {
        try withTemporaryFolder { folder throws in
            let region = try Region.read(path: try folder.write(Self.gangnam, to: "r.geojson"))
            #expect(region.polygonCount == 2)
            // a (37.50,127.00) inside; b (37.55,127.05) in the hole; c (37.60,127.10) in the second
            // polygon; e (37.52,127.02) inside; the point on the outer edge is covered.
            #expect(try region.covers(lon: [127.00, 127.05, 127.10, 127.02, 126.95, 126.99],
                                      lat: [37.50, 37.55, 37.60, 37.52, 37.45, 37.52])
                    == [true, false, true, true, false, true])
            let f = try read(ListingFilter(region: region))
            #expect(ids(f) == ["a", "c", "e"])
            let wkt = try Region.read(path: try folder.write("POLYGON ((126.9 37.4, 127.01 37.4, 127.01 37.51, 126.9 37.51, 126.9 37.4))\n", to: "r.wkt"))
            #expect(ids(try read(ListingFilter(region: wkt))) == ["a", "d"])
            let combined = try read(ListingFilter(attributes: AttributeFilter(categories: CategorySet([.apartment, .store] as [ListingCategory])), region: region))
            #expect(ids(combined) == ["a", "e"])
        }
    }

    @Test("bad region files name the file and, for GeoJSON, the feature and member")
    func badRegions() throws {
        try withTemporaryFolder { folder throws in
            func message(_ text: String, _ name: String) throws -> String {
                let path = try folder.write(text, to: name)
                do { _ = try Region.read(path: path); return "no error" } catch { return error.description }
            }
            let line = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#
            #expect(try message(line, "a.geojson").contains("a.geojson: feature 1: 'geometry.type': is LineString; --within needs Polygon or MultiPolygon"))
            #expect(try message("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[0,0]]]}", "b.geojson")
                    .contains("'coordinates': each ring needs at least 4 positions"))
            #expect(try message("{\"type\":\"Polygon\"", "c.geojson").contains("c.geojson:1:18: invalid JSON"))
            #expect(try message("", "d.geojson").contains("d.geojson: the file is empty"))
            #expect(try message("POLYGON ((0 0, 1 0", "e.wkt").contains("e.wkt: not valid WKT"))
            #expect(try message("POINT (1 2)", "f.wkt").contains("f.wkt: holds a Point; --within needs a POLYGON or MULTIPOLYGON"))
            #expect(try message("{\"type\":\"FeatureCollection\",\"features\":[]}", "g.geojson").contains("holds no polygon"))
            #expect(throws: DatasetError.fileNotFound(path: folder.path("none.wkt"))) { try Region.read(path: folder.path("none.wkt")) }
        }
    }

    @Test("generate-side filtering keeps exactly the listings PointFile keeps from the full file")
    func generatorAndReaderAgree() throws {
        try withTemporaryFolder { folder throws in
            let region = try Region.read(path: try folder.write(Self.gangnam, to: "r.geojson"))
            let filters: [ListingFilter] = [
                ListingFilter(attributes: AttributeFilter(categories: CategorySet([.apartment, .store] as [ListingCategory]))),
                ListingFilter(attributes: AttributeFilter(area: ValueRange(lower: 30, upper: 90), deposit: ValueRange(lower: nil, upper: 20_000))),
                ListingFilter(attributes: AttributeFilter(monthlyRent: ValueRange(lower: 1, upper: 80))),
                ListingFilter(bbox: BoundingBox(minLongitude: 126.95, minLatitude: 37.45, maxLongitude: 127.05, maxLatitude: 37.55)),
                ListingFilter(attributes: AttributeFilter(categories: CategorySet([.villa, .oneRoom] as [ListingCategory])), region: region),
            ]
            let model = ScenarioModel(scenario: .seoul, count: 5000, seed: 21)
            _ = try GeneratedListings.write(model: model, to: folder.path("all.csv"), format: .csv)
            for (k, filter) in filters.enumerated() {
                let path = folder.path("f\(k).csv")
                let summary = try GeneratedListings.write(model: model, to: path, format: .csv, filter: filter)
                let fromReader = try PointFile.read(path: folder.path("all.csv"), filter: filter)
                let written = try PointFile.read(path: path)
                #expect(summary.kept == fromReader.count && summary.kept == written.count, "filter \(k)")
                #expect(summary.kept > 0 && summary.kept < 5000, "filter \(k) keeps \(summary.kept)")
                #expect((0..<written.count).map(written.id) == (0..<fromReader.count).map(fromReader.id), "filter \(k)")
                #expect(written.coordinates == fromReader.coordinates)
            }
            // The same filters on the GeoJSON form of the data keep the same listings.
            _ = try GeneratedListings.write(model: model, to: folder.path("all.geojson"), format: .geoJSON)
            for filter in filters {
                let a = try PointFile.read(path: folder.path("all.geojson"), filter: filter)
                let b = try PointFile.read(path: folder.path("all.csv"), prefer: .lonlat, filter: filter)
                #expect((0..<a.count).map(a.id) == (0..<b.count).map(b.id))
            }
        }
    }

    @Test("GeoJSON filter properties must be present and numeric")
    func geoJSONFilterErrors() throws {
        try withTemporaryFolder { folder throws in
            let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[127,37.5]},"properties":{"area_m2":"big"}}]}"#
            let path = try folder.write(text, to: "p.geojson")
            #expect(throws: DatasetError.invalidGeoJSON(path: path, feature: 0, member: "properties.area_m2", reason: "'big' is not a finite number")) {
                try PointFile.read(path: path, filter: ListingFilter(attributes: AttributeFilter(area: ValueRange(lower: 1, upper: nil))))
            }
            #expect(throws: DatasetError.invalidGeoJSON(path: path, feature: 0, member: "properties.deposit", reason: "is missing; --deposit needs it in every feature")) {
                try PointFile.read(path: path, filter: ListingFilter(attributes: AttributeFilter(deposit: ValueRange(lower: 1, upper: nil))))
            }
        }
    }
}

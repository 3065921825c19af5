import Foundation
import Testing
import TestSupport

/// The 1-based line of the first line of `text` that contains `needle`.
private func line(of needle: String, in text: String) throws -> Int {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    return try #require(lines.firstIndex { $0.contains(needle) }) + 1
}

@Suite("world data: the world scenario, PROJ failures and bad coordinates end to end")
struct WorldCLITests {
    /// Points around Munich, one (on a later line, after a quoted field holding a line break,
    /// so the file line is not the row number plus one) at the antipode of Europe, which the
    /// Lambert azimuthal equal-area projection of EPSG:3035 cannot map.
    static let cities: String = {
        var text = "id,name,lat,lon\n"
        var g = SplitMix64(seed: 3)
        for i in 0..<40 {
            let name = i == 7 ? "\"Munich\nOld Town\"" : "p\(i)"
            text += "\(i),\(name),\(48 + 0.2 * g.uniform()),\(11 + 0.2 * g.uniform())\n"
        }
        text += "40,antipode,-52,-170\n41,p41,48.1,11.1\n"
        return text
    }()

    static let projectionCases: [(arguments: [String], clustering: Bool)] = [
        (["cluster", "cities.csv", "--crs", "EPSG:3035", "--min-cluster-size", "5", "-o", "out.csv"], true),
        (["tree", "cities.csv", "--crs", "EPSG:3035", "--min-cluster-size", "5", "-o", "tree.svg"], true),
        (["project", "cities.csv", "--crs", "EPSG:3035", "-o", "out.csv"], false),
        (["hulls", "cities.csv", "--labels", "labels.csv", "--crs", "EPSG:3035", "-o", "out.geojson"], false),
        (["map", "cities.csv", "--labels", "labels.csv", "--crs", "EPSG:3035", "-o", "out.svg"], false),
    ]

    @Test("a point PROJ cannot transform is named by file, line and coordinates; exit 1, nothing written",
          arguments: projectionCases)
    func projectionFailure(_ arguments: [String], _ clustering: Bool) throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Self.cities, to: "cities.csv")
            try folder.write("id,label\n" + (0..<42).map { "\($0),0\n" }.joined(), to: "labels.csv")
            let before = try folder.contents()
            let r = try folder.run(arguments)
            #expect(r.status == 1, "\(r)")
            let expected = "cities.csv line \(try line(of: "antipode", in: Self.cities)): PROJ could not transform the point "
                + "(lat -52.0, lon -170.0) to EPSG:3035: "
            #expect(r.stderr.contains(expected), "\(r)")
            #expect(r.stderr.contains("--metric geodesic") == clustering, "\(r)")
            #expect(r.stderr.split(separator: "\n").count == 1, "one message: \(r.stderr)")
            #expect(try folder.contents() == before, "no output (or temporary) file may be left")
        }
    }

    @Test("in GeoJSON the failing point is named by its line and feature; a filter keeps the lines right")
    func projectionFailureGeoJSONAndFiltered() throws {
        try withTemporaryFolder { folder throws in
            var features = (0..<30).map { "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(11 + 0.01 * Double($0)),48]},\"properties\":{}}" }
            features.insert("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\n\"coordinates\":[-170,-52]},\"properties\":{}}", at: 12)
            let text = "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
            try folder.write(text, to: "far.geojson")
            let r = try folder.run(["cluster", "far.geojson", "--crs", "EPSG:3035", "--min-cluster-size", "5", "-o", "out.csv"])
            #expect(r.status == 1, "\(r)")
            let featureLine = try line(of: "-170", in: text) - 1
            #expect(r.stderr.contains("far.geojson line \(featureLine) (feature 12): PROJ could not transform the point (lat -52.0, lon -170.0)"), "\(r)")
            #expect(try folder.contents() == ["far.geojson"])

            try folder.write(Self.cities, to: "cities.csv")
            let f = try folder.run(["cluster", "cities.csv", "--crs", "EPSG:3035", "--bbox", "-180,-60,11.1,49", "-o", "out.csv"])
            #expect(f.status == 1, "\(f)")
            #expect(f.stderr.contains("cities.csv line \(try line(of: "antipode", in: Self.cities)): "), "\(f)")
        }
    }

    /// A bad coordinate in each reader: points (`cluster`), tables (`project`), listings
    /// (`pins`), GeoJSON (`cluster`).
    static let badCoordinates: [(file: String, text: String, fragments: [String])] = [
        ("in.csv", "id,lat,lon\n1,37.5,127\n2,-17.5,190\n", ["in.csv:3: column 'lon'", "190", "if your data uses 0…360, subtract 360 from values above 180"]),
        ("in.csv", "id,lat,lon\n1,37.5,127\n2,37.5,-190\n", ["in.csv:3: column 'lon'", "longitude must be within ±180)"]),
        ("in.csv", "id,lat,lon\n1,37.5,127\n2,95,127\n", ["in.csv:3: column 'lat'", "latitude must be within ±90"]),
        ("in.csv", "id,lat,lon\n1,37.5,127\n2,NaN,127\n", ["in.csv:3: column 'lat': 'NaN' is not a finite number"]),
        ("in.csv", "id,lat,lon\n1,37.5,127\n2,37.5,-inf\n", ["in.csv:3: column 'lon': '-inf' is not a finite number"]),
        ("in.geojson", "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[127,37]},\"properties\":{}},\n{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[190,-17.5]},\"properties\":{}}]}\n",
         ["in.geojson: feature 1: 'geometry.coordinates[0]': longitude 190 is out of range on line 3", "subtract 360"]),
        ("in.geojson", "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[127,1e999]},\"properties\":{}}]}\n",
         ["in.geojson: feature 0: 'geometry.coordinates[1]': the latitude 1e999 on line 2 is not a finite number"]),
    ]

    @Test("bad coordinates: one message naming the file, line and column, exit 1, no output, in every reader",
          arguments: badCoordinates)
    func badCoordinate(_ file: String, _ text: String, _ fragments: [String]) throws {
        try withTemporaryFolder { folder throws in
            try folder.write(text, to: file)
            var runs = [["cluster", file, "-o", "out.csv"], ["project", file, "--crs", "EPSG:32652", "-o", "out.csv"]]
            runs.append(["pins", file, "--zoom", "3", "--no-privacy", "-o", "out.geojson"])
            for arguments in runs {
                let r = try folder.run(arguments)
                #expect(r.status == 1, "\(arguments): \(r)")
                #expect(r.stderr.split(separator: "\n").count == 1, "one message: \(r.stderr)")
                for f in fragments { #expect(r.stderr.contains(f), "\(arguments[0]): missing \"\(f)\" in \(r.stderr)") }
                #expect(try folder.contents() == [file], "\(arguments[0]) left a file")
            }
        }
    }

    @Test("generate --scenario world: the same bytes twice, no x,y, and every command that reads generated files reads it")
    func worldFile() throws {
        try withTemporaryFolder { folder throws in
            for name in ["w.csv", "again.csv", "w.geojson"] {
                let r = try folder.run(["generate", "--scenario", "world", "--count", "3000", "--seed", "2", "-o", name])
                #expect(r.status == 0, "\(r)")
            }
            #expect(try folder.data("w.csv") == folder.data("again.csv"))
            let rows = parseCSV(try folder.read("w.csv"))
            #expect(rows[0] == ["id", "lat", "lon", "truth", "category", "area_m2", "deposit", "monthly_rent", "floor", "building_id"])
            let lons = rows.dropFirst().map { Double($0[2])! }
            #expect(lons.contains { $0 > 179.9 } && lons.contains { $0 < -179.9 })
            try folder.write("id,label\n" + rows.dropFirst().map { "\($0[0]),\($0[3])\n" }.joined(), to: "truth.csv")
            let commands: [[String]] = [
                ["cluster", "w.csv", "-o", "labels.csv"], ["cluster", "w.geojson", "-o", "labels2.csv"],
                ["score", "--truth", "w.csv", "--labels", "labels.csv"], ["filter", "w.csv", "--category", "apartment", "-o", "f.csv"],
                ["hulls", "w.csv", "--labels", "truth.csv", "-o", "h.geojson"], ["map", "w.csv", "--labels", "truth.csv", "--hull", "none", "-o", "m.svg"],
                ["project", "w.csv", "--crs", "auto", "-o", "p.csv"], ["pins", "w.csv", "--zoom", "2", "--no-privacy", "-o", "p.geojson"],
            ]
            for c in commands {
                let r = try folder.run(c)
                #expect(r.status == 0, "\(c): \(r)")
            }
        }
    }
}

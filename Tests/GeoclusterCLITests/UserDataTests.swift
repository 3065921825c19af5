import Foundation
import Testing
import TestSupport

/// Users' own files through the real binary (issue 17): their column names and separators,
/// spreadsheet leftovers, GeoJSON to every command, appended labels, chained filters, and
/// the GeoJSON the commands write checked against RFC 7946.
@Suite("Users' own data")
struct UserDataTests {
    /// Two tight groups of 40 listings in Seoul, 0.0001° steps, as `header` names the columns
    /// and `separator` separates them; ids L0… / M0….
    static func listings(header: [String], separator: String = ",", trailing: String = "") -> String {
        var text = header.joined(separator: separator) + "\n"
        for (prefix, lat0, lon0) in [("L", 37.5, 127.0), ("M", 37.6, 127.1)] {
            for i in 0..<40 {
                let lat = lat0 + Double(i % 5) * 0.0001, lon = lon0 + Double(i / 5) * 0.0001
                text += ["\(prefix)\(i)", String(format: "%.4f", lat), String(format: "%.4f", lon),
                         i % 2 == 0 ? "apartment" : "villa"].joined(separator: separator) + "\n"
            }
        }
        return text + trailing
    }

    /// RFC 7946 checks of a FeatureCollection: exterior rings counterclockwise, holes
    /// clockwise, rings closed, positions with at most `decimals` decimals and no float noise.
    static func checkRFC7946(_ text: String, decimals: Int = 7, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        #expect(json["type"] as? String == "FeatureCollection", sourceLocation: sourceLocation)
        // Every number in a coordinates array: at most `decimals` decimals (so no 0.000…02 noise).
        for match in text.matches(of: /"coordinates":(\[[\[\]0-9.,eE+-]*\])/) {
            for number in match.1.split(whereSeparator: { "[],".contains($0) }) {
                let fraction = number.split(separator: ".").dropFirst().first ?? ""
                #expect(fraction.count <= decimals && !number.contains("e"), "\(number)", sourceLocation: sourceLocation)
            }
        }
        for feature in try #require(json["features"] as? [[String: Any]], sourceLocation: sourceLocation) {
            let geometry = try #require(feature["geometry"] as? [String: Any], sourceLocation: sourceLocation)
            try checkPositions(geometry, bbox: feature["bbox"] as? [Double], sourceLocation: sourceLocation)
            let polygons: [[[[Double]]]]
            switch geometry["type"] as? String {
            case "Polygon": polygons = [try #require(geometry["coordinates"] as? [[[Double]]], sourceLocation: sourceLocation)]
            case "MultiPolygon": polygons = try #require(geometry["coordinates"] as? [[[[Double]]]], sourceLocation: sourceLocation)
            default: continue
            }
            for rings in polygons {
                for (k, ring) in rings.enumerated() {
                    #expect(ring.count >= 4 && ring.first == ring.last, sourceLocation: sourceLocation)
                    var twiceArea = 0.0
                    for i in 0..<(ring.count - 1) {
                        twiceArea += (ring[i][0] - ring[0][0]) * (ring[i + 1][1] - ring[0][1])
                            - (ring[i + 1][0] - ring[0][0]) * (ring[i][1] - ring[0][1])
                    }
                    #expect(k == 0 ? twiceArea > 0 : twiceArea < 0, "ring \(k) of \(feature["properties"] ?? "")", sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// RFC 7946 §3.1.9 and §5.2 on one geometry: longitudes within ±180°, no edge spanning
    /// more than 180° of longitude, and the feature's `bbox` (if any) containing every
    /// position, its west greater than its east exactly when the parts touch both ±180°.
    static func checkPositions(_ geometry: [String: Any], bbox: [Double]?, sourceLocation: SourceLocation) throws {
        var lines: [[[Double]]] = []
        switch geometry["type"] as? String {
        case "Point": lines = [[geometry["coordinates"] as? [Double] ?? []]]
        case "LineString": lines = [geometry["coordinates"] as? [[Double]] ?? []]
        case "MultiLineString", "Polygon": lines = geometry["coordinates"] as? [[[Double]]] ?? []
        case "MultiPolygon": lines = (geometry["coordinates"] as? [[[[Double]]]] ?? []).flatMap { $0 }
        default: return
        }
        let all = lines.flatMap { $0 }
        for line in lines {
            for (k, p) in line.enumerated() {
                #expect(p.count == 2 && abs(p[0]) <= 180 && abs(p[1]) <= 90, "\(p)", sourceLocation: sourceLocation)
                if k > 0 { #expect(abs(p[0] - line[k - 1][0]) <= 180, "\(line[k - 1]) → \(p)", sourceLocation: sourceLocation) }
            }
        }
        guard let b = bbox else { return }
        try #require(b.count == 4, sourceLocation: sourceLocation)
        let crossing = all.contains { $0[0] == 180 } && all.contains { $0[0] == -180 } && geometry["type"] as? String != "Point"
        // A hull around a pole touches both ±180° and spans every longitude.
        if !(b[0] == -180 && b[2] == 180) { #expect((b[0] > b[2]) == crossing, "\(b)", sourceLocation: sourceLocation) }
        for p in all {
            let inLon = b[0] <= b[2] ? p[0] >= b[0] && p[0] <= b[2] : p[0] >= b[0] || p[0] <= b[2]
            #expect(inLon && p[1] >= b[1] && p[1] <= b[3], "\(p) outside \(b)", sourceLocation: sourceLocation)
        }
    }

    @Test("a Korean semicolon export with trailing empty rows: 위도/경도 found, ids from --id-column under its own name, rows appended with labels")
    func koreanSemicolonExport() throws {
        try withTemporaryFolder { folder throws in
            let input = try folder.write(Self.listings(header: ["listing_id", "위도", "경도", "유형"], separator: ";",
                                                       trailing: ";;;\n;;;\n\n"), to: "매물.csv")
            let r = try folder.run("cluster", input, "--id-column", "listing_id", "--min-cluster-size", "10", "-o", "L.csv")
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("80 points: 2 clusters, 0 noise"), "\(r)")
            let rows = parseCSV(try folder.read("L.csv"))
            #expect(rows[0] == ["listing_id", "label", "probability", "outlier_score"])
            #expect(rows.count == 81 && rows[1][0] == "L0" && rows[80][0] == "M39")

            let a = try folder.run("cluster", input, "--id-column", "listing_id", "--min-cluster-size", "10", "--append", "-o", "A.csv")
            try #require(a.status == 0, "\(a)")
            // Written with the input's own separator, as the spreadsheet opened it.
            let appendedText = try folder.read("A.csv")
            #expect(appendedText.hasPrefix("listing_id;위도;경도;유형;label;probability;outlier_score\n"), "\(appendedText.prefix(200))")
            let appended = parseCSV(appendedText, separator: ";")
            #expect(appended[0] == ["listing_id", "위도", "경도", "유형", "label", "probability", "outlier_score"])
            #expect(appended.count == 81)
            #expect(appended[1].prefix(5) == ["L0", "37.5000", "127.0000", "apartment", "0"])
            #expect(appended[80].prefix(5) == ["M39", "37.6004", "127.1007", "villa", "1"])

            // The same as GeoJSON: Point features with the row's fields and the labels as properties.
            let g = try folder.run("cluster", input, "--id-column", "listing_id", "--min-cluster-size", "10", "--append", "-o", "A.geojson")
            try #require(g.status == 0, "\(g)")
            let text = try folder.read("A.geojson")
            try Self.checkRFC7946(text)
            #expect(text.contains(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[127.0000,37.5000]},"properties":{"listing_id":"L0","유형":"apartment","label":0,"#))
        }
    }

    @Test("--append keeps a semicolon or tab input's separator, quoting only the fields that hold it, and reads back the same")
    func appendKeepsSeparator() throws {
        try withTemporaryFolder { folder throws in
            for (name, sep, appendedName) in [("semi.csv", ";", "A-semi.csv"), ("tabs.tsv", "\t", "A-tabs.csv")] {
                // Notes holding the separator (quoted in the input), a comma, a quote, nothing.
                var text = ["id", "lat", "lon", "note"].joined(separator: sep) + "\n"
                let notes = ["\"a\(sep)b\"", "c,d", "\"say \"\"hi\"\"\"", ""]
                for (prefix, lat0, lon0) in [("L", 37.5, 127.0), ("M", 37.6, 127.1)] {
                    for i in 0..<20 {
                        let lat = lat0 + Double(i % 5) * 0.0001, lon = lon0 + Double(i / 5) * 0.0001
                        text += ["\(prefix)\(i)", String(format: "%.4f", lat), String(format: "%.4f", lon), notes[i % 4]]
                            .joined(separator: sep) + "\n"
                    }
                }
                try folder.write(text, to: name)
                let a = try folder.run("cluster", name, "--min-cluster-size", "10", "--append", "-o", appendedName)
                try #require(a.status == 0, "\(a)")
                let out = try folder.read(appendedName)
                let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                #expect(lines[0] == ["id", "lat", "lon", "note", "label", "probability", "outlier_score"].joined(separator: sep), "\(name)")
                // Quoted only where this separator needs it: a comma is plain text here.
                #expect(lines[1].hasPrefix(["L0", "37.5000", "127.0000", "\"a\(sep)b\"", "0", ""].joined(separator: sep)), "\(name): \(lines[1])")
                #expect(lines[2].hasPrefix(["L1", "37.5001", "127.0000", "c,d", "0"].joined(separator: sep)), "\(name): \(lines[2])")
                #expect(lines[3].hasPrefix(["L2", "37.5002", "127.0000", "\"say \"\"hi\"\"\"", "0"].joined(separator: sep)), "\(name): \(lines[3])")
                #expect(!out.contains(",label,"), "\(name)")
                let rows = parseCSV(out, separator: Character(sep))
                #expect(rows.count == 41 && rows.allSatisfy { $0.count == 7 }, "\(name)")
                #expect(rows[1][3] == "a\(sep)b" && rows[2][3] == "c,d" && rows[3][3] == "say \"hi\"" && rows[4][3] == "", "\(name)")
                #expect(rows[40].prefix(5) == ["M19", "37.6004", "127.1003", "", "1"], "\(name)")
                // The appended file is an input again (separator detected): the same clusters.
                let again = try folder.run("cluster", appendedName, "--min-cluster-size", "10", "-o", "B.csv")
                try #require(again.status == 0, "\(again)")
                #expect(again.stderr.contains("40 points: 2 clusters, 0 noise"), "\(again)")
                // A comma-separated input still gives commas.
                let commas = text.replacingOccurrences(of: sep, with: ",").replacingOccurrences(of: "\"a,b\"", with: "ab")
                    .replacingOccurrences(of: "c,d", with: "cd")
                try folder.write(commas, to: "c-\(name).csv")
                let c = try folder.run("cluster", "c-\(name).csv", "--min-cluster-size", "10", "--append", "-o", "C.csv")
                try #require(c.status == 0, "\(c)")
                #expect(try folder.read("C.csv").hasPrefix("id,lat,lon,note,label,probability,outlier_score\n"))
            }
        }
    }

    @Test("QGIS's fid is the id; a tab-separated file is detected; --delimiter and named columns work on x,y too")
    func fidAndTabs() throws {
        try withTemporaryFolder { folder throws in
            let tabbed = try folder.write(Self.listings(header: ["fid", "lat", "lng", "kind"], separator: "\t"), to: "qgis.tsv")
            let r = try folder.run("cluster", tabbed, "--min-cluster-size", "10", "-o", "L.csv")
            try #require(r.status == 0, "\(r)")
            #expect(parseCSV(try folder.read("L.csv"))[1][0] == "L0")
            // A separator given explicitly that the file does not use: the header is one column.
            let wrong = try folder.run("cluster", tabbed, "--delimiter", "semicolon", "--min-cluster-size", "10", "-o", "W.csv")
            #expect(wrong.status == 1 && wrong.stderr.contains("qgis.tsv: no coordinate"), "\(wrong)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("W.csv")))
            // A named column that does not exist names its flag and the header.
            let missing = try folder.run("cluster", tabbed, "--lat-column", "위도", "-o", "M.csv")
            #expect(missing.status == 1 && missing.stderr.contains("no '위도' (--lat-column) column(s); the header has: fid, lat, lng, kind"), "\(missing)")
        }
    }

    /// `cluster input -o L.csv` fails with `error` and writes nothing (strict by default); with
    /// `--skip-bad-rows` it succeeds and warns with `warning`. Returns that second run.
    @discardableResult
    static func strictThenSkipping(_ folder: TemporaryFolder, _ input: String, error: String, warning: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let strict = try folder.run("cluster", input, "--min-cluster-size", "10", "-o", "L.csv")
        #expect(strict.status == 1 && strict.stderr.contains(error), "\(strict)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: folder.path("L.csv")), sourceLocation: sourceLocation)
        let lenient = try folder.run("cluster", input, "--min-cluster-size", "10", "--skip-bad-rows", "-o", "L.csv")
        try #require(lenient.status == 0, "\(lenient)", sourceLocation: sourceLocation)
        #expect(lenient.stderr.contains(warning), "\(lenient)", sourceLocation: sourceLocation)
        return lenient
    }

    @Test("a bad row stops the run naming file, line and column; --skip-bad-rows turns it into a counted warning")
    func badRows() throws {
        try withTemporaryFolder { folder throws in
            var text = Self.listings(header: ["id", "lat", "lon", "kind"])
            text += "bad1,abc,127.0,villa\nbad2,95,127.0,villa\nbad3,37.5\n"
            let input = try folder.write(text, to: "in.csv")
            _ = input
            try Self.strictThenSkipping(folder, "in.csv", error: "in.csv:82: column 'lat': 'abc' is not a number",
                                        warning: "warning: in.csv: skipped 3 malformed rows (--skip-bad-rows); the first: in.csv:82: column 'lat': 'abc' is not a number")
            #expect(parseCSV(try folder.read("L.csv")).count == 81)
        }
    }

    @Test("a bad GeoJSON feature stops the run naming file and feature; --skip-bad-rows counts it, and --append and filter leave it out")
    func badFeatures() throws {
        try withTemporaryFolder { folder throws in
            // The two groups of `listings` as Point features with id and category properties, and
            // four bad features among them: null geometry, a string coordinate, a Polygon, a
            // latitude out of range.
            var features: [String] = []
            for row in parseCSV(Self.listings(header: ["id", "lat", "lon", "category"])).dropFirst() {
                features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(row[2]),\#(row[1])]},"properties":{"id":"\#(row[0])","category":"\#(row[3])"}}"#)
            }
            let bad = [
                (5, #"{"type":"Feature","geometry":null,"properties":{"id":"B0"}}"#),
                (21, #"{"type":"Feature","geometry":{"type":"Point","coordinates":["abc",37.5]},"properties":{"id":"B1"}}"#),
                (52, #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[127,37],[127.1,37],[127,37.1],[127,37]]]},"properties":{"id":"B2"}}"#),
                (80, #"{"type":"Feature","geometry":{"type":"Point","coordinates":[127.0,95.0]},"properties":{"id":"B3"}}"#),
            ]
            for (index, feature) in bad { features.insert(feature, at: index) }
            try folder.write(#"{"type":"FeatureCollection","features":[\#n"# + features.joined(separator: ",\n") + "\n]}\n", to: "in.geojson")

            let lenient = try Self.strictThenSkipping(folder, "in.geojson", error: "in.geojson: feature 5: 'geometry': is missing or null",
                                                      warning: "warning: in.geojson: skipped 4 malformed features (--skip-bad-rows); the first: in.geojson: feature 5: 'geometry': is missing or null")
            #expect(lenient.stderr.contains("80 points: 2 clusters, 0 noise"), "\(lenient)")
            let labels = parseCSV(try folder.read("L.csv"))
            #expect(labels.count == 81 && labels[1][0] == "L0" && labels[6][0] == "L5" && labels[80][0] == "M39")
            #expect(!labels.contains { $0[0].hasPrefix("B") })

            // --append, to GeoJSON and to CSV: the good features only, each with its own label.
            let g = try folder.run("cluster", "in.geojson", "--min-cluster-size", "10", "--skip-bad-rows", "--append", "-o", "A.geojson")
            try #require(g.status == 0, "\(g)")
            let appended = try folder.read("A.geojson")
            try Self.checkRFC7946(appended)
            #expect(appended.components(separatedBy: #""type":"Feature""#).count - 1 == 80 && !appended.contains("B0"))
            #expect(appended.contains(#""properties":{"id":"M0","category":"apartment","label":1,"#), "\(appended.prefix(600))")
            let c = try folder.run("cluster", "in.geojson", "--min-cluster-size", "10", "--skip-bad-rows", "--append", "-o", "A.csv")
            try #require(c.status == 0, "\(c)")
            let rows = parseCSV(try folder.read("A.csv"))
            #expect(rows[0] == ["lon", "lat", "id", "category", "label", "probability", "outlier_score"])
            #expect(rows.count == 81 && rows.dropFirst().allSatisfy { ($0[2].hasPrefix("L") && $0[4] == "0") || ($0[2].hasPrefix("M") && $0[4] == "1") })
            #expect(rows[6].prefix(3) == ["127.0001", "37.5000", "L5"] && rows[80][2] == "M39")

            // filter skips them too; a JSON syntax error is not a bad feature and still ends the run.
            let f = try folder.run("filter", "in.geojson", "--category", "villa", "--skip-bad-rows", "-o", "F.geojson")
            try #require(f.status == 0, "\(f)")
            #expect(f.stderr.contains("skipped 4 malformed features"), "\(f)")
            #expect(try folder.read("F.geojson").components(separatedBy: #""type":"Feature""#).count - 1 == 40)
            try folder.write(#"{"type":"FeatureCollection","features":[\#(features[0]),{"type":"Feature",]}"#, to: "broken.geojson")
            let broken = try folder.run("cluster", "broken.geojson", "--skip-bad-rows", "-o", "X.csv")
            #expect(broken.status == 1 && broken.stderr.contains("broken.geojson:1:"), "\(broken)")
            // Every feature bad: the first one's error.
            try folder.write(#"{"type":"FeatureCollection","features":[\#(bad[0].1),\#(bad[1].1)]}"#, to: "allbad.geojson")
            let allBad = try folder.run("cluster", "allbad.geojson", "--skip-bad-rows", "-o", "X.csv")
            #expect(allBad.status == 1 && allBad.stderr.contains("allbad.geojson: feature 0: 'geometry': is missing or null"), "\(allBad)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("X.csv")))
        }
    }

    @Test("GeoJSON input to every command that reads points, GeoJSON labels to every command that reads labels")
    func geoJSONEverywhere() throws {
        try withTemporaryFolder { folder throws in
            try #require(try folder.run("generate", "--count", "2000", "--seed", "3", "-o", "s.geojson").status == 0)
            let c = try folder.run("cluster", "s.geojson", "--min-cluster-size", "15", "-o", "L.geojson")
            try #require(c.status == 0, "\(c)")
            try Self.checkRFC7946(try folder.read("L.geojson"))
            let h = try folder.run("hulls", "s.geojson", "--labels", "L.geojson", "-o", "H.geojson")
            try #require(h.status == 0, "\(h)")
            #expect(h.stdout.contains("hulls computed in EPSG:32652, written in longitude/latitude (WGS 84)"), "\(h)")
            try Self.checkRFC7946(try folder.read("H.geojson"))
            let m = try folder.run("map", "s.geojson", "--labels", "L.geojson", "-o", "M.svg")
            #expect(m.status == 0, "\(m)")
            let t = try folder.run("tree", "s.geojson", "--min-cluster-size", "15", "-o", "T.svg")
            #expect(t.status == 0, "\(t)")
            let p = try folder.run("project", "s.geojson", "--crs", "EPSG:5179", "-o", "P.geojson")
            try #require(p.status == 0, "\(p)")
            #expect(try folder.read("P.geojson").contains(#""x":"#))
            let sc = try folder.run("score", "--truth", "s.geojson", "--labels", "L.geojson")
            #expect(sc.status == 0 && sc.stdout.contains("matched by id"), "\(sc)")
            let f = try folder.run("filter", "s.geojson", "--category", "apartment", "-o", "F.geojson")
            try #require(f.status == 0, "\(f)")
            let kept = try folder.read("F.geojson")
            try Self.checkRFC7946(kept)
            #expect(!kept.contains("villa") && kept.contains("apartment"))
        }
    }

    @Test("filters chain: cluster, hulls and score with the same filters; filter writes the subset; score --shared-ids")
    func filtersChain() throws {
        try withTemporaryFolder { folder throws in
            try #require(try folder.run("generate", "--count", "3000", "--seed", "4", "-o", "s.csv").status == 0)
            let filters = ["--category", "apartment,officetel"]
            let c = try folder.run(["cluster", "s.csv", "--min-cluster-size", "15", "-o", "L.csv"] + filters)
            try #require(c.status == 0, "\(c)")
            let h = try folder.run(["hulls", "s.csv", "--labels", "L.csv", "-o", "H.geojson"] + filters)
            #expect(h.status == 0, "\(h)")
            let s = try folder.run(["score", "--truth", "s.csv", "--labels", "L.csv"] + filters)
            #expect(s.status == 0 && s.stderr.contains("kept 2100 of 3000 rows of s.csv"), "\(s)")
            // Without the filters the ids differ: the message says how to score the shared ones.
            let plain = try folder.run("score", "--truth", "s.csv", "--labels", "L.csv")
            #expect(plain.status == 1 && plain.stderr.contains("--truth 's.csv'") && plain.stderr.contains("--shared-ids"), "\(plain)")
            let shared = try folder.run("score", "--truth", "s.csv", "--labels", "L.csv", "--shared-ids")
            #expect(shared.status == 0 && shared.stderr.contains("scored the 2100 ids both files have; left out 900 only in s.csv, 0 only in L.csv"), "\(shared)")
            let f = try folder.run(["filter", "s.csv", "-o", "F.csv"] + filters)
            try #require(f.status == 0, "\(f)")
            let subset = parseCSV(try folder.read("F.csv"))
            let header = parseCSV(try folder.read("s.csv"))[0]
            #expect(subset.count == 2101 && subset[0] == header)
            // The subset clusters to the same labels as the filtered run.
            let again = try folder.run("cluster", "F.csv", "--min-cluster-size", "15", "-o", "L2.csv")
            try #require(again.status == 0, "\(again)")
            let (once, twice) = (try folder.read("L.csv"), try folder.read("L2.csv"))
            #expect(once == twice)
        }
    }

    @Test("a duplicated id in --truth is reported under --truth")
    func duplicateTruthID() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.write("id,truth\na,0\nb,0\na,1\n", to: "t.csv")
            _ = try folder.write("id,label\nb,0\na,0\nc,1\n", to: "l.csv")
            let r = try folder.run("score", "--truth", "t.csv", "--labels", "l.csv")
            #expect(r.status == 1 && r.stderr.contains("--truth 't.csv': t.csv:4: id 'a' appears again"), "\(r)")
        }
    }

    @Test("hull areas are geodesic whatever --crs; Web Mercator is refused for distances, suggesting the sphere")
    func groundTruthAreas() throws {
        try withTemporaryFolder { folder throws in
            try MapCommandTests.clusterSeoul(in: folder)
            let seoul = MapCommandTests.seoul
            var areas: [String: Double] = [:]
            for crs in ["auto", "EPSG:3857", "EPSG:5179"] {
                let r = try folder.run("hulls", seoul, "--labels", "L.csv", "--crs", crs, "--ratio", "1", "-o", "H.geojson")
                try #require(r.status == 0, "\(r)")
                let text = try folder.read("H.geojson")
                try Self.checkRFC7946(text)
                areas[crs] = text.matches(of: /"area_m2":([0-9.]+)/).reduce(0) { $0 + Double($1.1)! }
            }
            let utm = try #require(areas["auto"])
            #expect(abs(try #require(areas["EPSG:3857"]) / utm - 1) < 0.002, "\(areas)")
            #expect(abs(try #require(areas["EPSG:5179"]) / utm - 1) < 0.002, "\(areas)")
            for args in [["--algorithm", "dbscan", "--eps", "100"], ["--algorithm", "grid", "--cell-size", "250"], ["--epsilon", "50"]] {
                let r = try folder.run(["cluster", seoul, "--coordinates", "lonlat", "--crs", "EPSG:3857", "-o", "W.csv"] + args)
                #expect(r.status == 1, "\(r)")
                #expect(r.stderr.contains(/--crs EPSG:3857 stretches distances by up to 1\.2\d× over the data/)
                        && r.stderr.contains("or --metric geodesic to measure great-circle metres"), "\(r)")
                #expect(r.stderr.contains("\(args[args.count - 2]) \(args.last!) would be"), "\(r)")
                #expect(!FileManager.default.fileExists(atPath: folder.path("W.csv")))
            }
            let help = try folder.run("cluster", "--help")
            #expect(!help.stdout.contains("3857"))
        }
    }

    @Test("hulls --min-probability and --core-only outline the firm members only")
    func firmHulls() throws {
        try withTemporaryFolder { folder throws in
            try MapCommandTests.clusterSeoul(in: folder)
            let seoul = MapCommandTests.seoul
            func total(_ args: [String]) throws -> (area: Double, outlined: Int, points: Int) {
                let r = try folder.run(["hulls", seoul, "--labels", "L.csv", "-o", "H.geojson"] + args)
                try #require(r.status == 0, "\(r)")
                let text = try folder.read("H.geojson")
                try Self.checkRFC7946(text)
                return (text.matches(of: /"area_m2":([0-9.]+)/).reduce(0) { $0 + Double($1.1)! },
                        text.matches(of: /"outlined_points":(\d+)/).reduce(0) { $0 + Int($1.1)! },
                        text.matches(of: /"points":(\d+)/).reduce(0) { $0 + Int($1.1)! })
            }
            let all = try total([]), firm = try total(["--min-probability", "0.5"]), core = try total(["--core-only"])
            #expect(all.outlined == all.points && all.points == 5000 - 917)
            #expect(firm.points == all.points && firm.outlined < all.outlined && firm.area < all.area, "\(all) \(firm)")
            #expect(core.outlined < firm.outlined && core.area < firm.area, "\(firm) \(core)")
            let bad = try folder.run("hulls", seoul, "--labels", "L.csv", "--min-probability", "1.5", "-o", "H.geojson")
            #expect(bad.status == 64 && bad.stderr.contains("--min-probability 1.5 is invalid"), "\(bad)")
            let d = try folder.run("cluster", seoul, "--algorithm", "dbscan", "--eps", "100", "-o", "D.csv")
            try #require(d.status == 0, "\(d)")
            let dc = try folder.run("hulls", seoul, "--labels", "D.csv", "--core-only", "-o", "DC.geojson")
            #expect(dc.status == 0, "\(dc)")
            let dp = try folder.run("hulls", seoul, "--labels", "D.csv", "--min-probability", "0.5", "-o", "DP.geojson")
            #expect(dp.status == 1 && dp.stderr.contains("--min-probability needs the probability column"), "\(dp)")
        }
    }

    @Test("x,y holding degrees get a warning; -o - writes to standard output; extensions decide formats")
    func hintsAndOutputs() throws {
        try withTemporaryFolder { folder throws in
            let degrees = try folder.write(Self.listings(header: ["id", "y", "x", "kind"]), to: "map-api.csv")
            _ = degrees
            let r = try folder.run("cluster", "map-api.csv", "--min-cluster-size", "10", "-o", "-")
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("warning: map-api.csv: the x,y values look like longitude/latitude in degrees"), "\(r)")
            #expect(r.stderr.contains("--lon-column x --lat-column y"), "\(r)")
            #expect(r.stdout.hasPrefix("id,label,probability,outlier_score\nL0,"), "\(r)")
            let projected = try folder.run("cluster", degrees, "--lon-column", "x", "--lat-column", "y", "--min-cluster-size", "10", "-o", "L.csv")
            #expect(projected.status == 0 && !projected.stderr.contains("warning"), "\(projected)")
            let g = try folder.run("generate", "--count", "50", "-o", "-")
            #expect(g.status == 0 && g.stdout.hasPrefix("id,lat,lon,x,y,truth"), "\(g)")
            let refused = try folder.run("cluster", degrees, "-o", "labels.txt")
            #expect(refused.status == 64 && refused.stderr.contains("--output labels.txt: this command writes .csv, .geojson or .json"), "\(refused)")
            let geo = try folder.run("cluster", degrees, "--lat-column", "y", "--lon-column", "x", "--min-cluster-size", "10", "-o", "L.json")
            #expect(geo.status == 0, "\(geo)")
            let labels = try folder.read("L.json")
            #expect(labels.hasPrefix(#"{"type":"FeatureCollection""#))
        }
    }

    @Test("messages name the flags typed: --min-cluster-size above n; generate --bbox counts after filtering; a WKT region in lat-lon order")
    func messages() throws {
        try withTemporaryFolder { folder throws in
            let input = try folder.write(Self.listings(header: ["id", "lat", "lon", "kind"]), to: "in.csv")
            let big = try folder.run("cluster", input, "--min-cluster-size", "500", "-o", "L.csv")
            #expect(big.status == 1, "\(big)")
            #expect(big.stderr.contains("80 points, but --min-cluster-size 500 also sets the neighbour count"), "\(big)")
            #expect(!big.stderr.contains("minSamples"), "\(big)")
            let g = try folder.run("generate", "--count", "2000", "--bbox", "126.9,37.5,127.0,37.6", "-o", "g.csv")
            try #require(g.status == 0, "\(g)")
            let kept = parseCSV(try folder.read("g.csv")).dropFirst()
            let truths = Set(kept.map { $0[5] })
            let background = kept.filter { $0[5] == "-1" }.count
            #expect(g.stderr.contains("kept \(kept.count) of 2000 rows: \(truths.subtracting(["-1"]).count) clusters, \(background) background"), "\(g)")
            _ = try folder.write("POLYGON ((37.49 126.99, 37.49 127.01, 37.51 127.01, 37.51 126.99, 37.49 126.99))", to: "r.wkt")
            let swapped = try folder.run("cluster", input, "--within", "r.wkt", "-o", "L.csv")
            #expect(swapped.status == 1 && swapped.stderr.contains("its axes look swapped (latitude first)"), "\(swapped)")
        }
    }
}

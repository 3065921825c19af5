import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// The map-pin commands on a user's own file: a German tab-separated export whose columns are
/// nr, Breite, Länge and Name (no listing attributes), read with the same column options as
/// `cluster` (`--lat-column`, `--lon-column`, `--id-column`, `--delimiter`).
@Suite("pins, nearby, map --zoom, privacy: column options and files without listing attributes")
struct PinColumnsTests {
    /// One row of the export: its number, position and name.
    struct Place {
        var nr: String
        var lat: Double, lon: Double
    }

    /// Three groups of ten places in Berlin (Mitte, Kreuzberg, Charlottenburg), 0.0015° apart
    /// (about 100 m east–west, 170 m north–south); nr 5000, 5013, 5026, … (never the row number).
    static let places: [Place] = {
        var p: [Place] = []
        for (g, (lat0, lon0)) in [(52.5200, 13.4050), (52.4990, 13.4030), (52.5160, 13.2950)].enumerated() {
            for i in 0..<10 {
                p.append(Place(nr: String(5000 + 13 * (10 * g + i)), lat: lat0 + Double(i % 2) * 0.0015, lon: lon0 + Double(i / 2) * 0.0015))
            }
        }
        return p
    }()

    static let names = ["Café Müller", "Bäckerei Größe", "Späti am Spreeufer", "Buchhandlung Würfel", "Blumen Schäfer"]

    /// The export as UTF-8 TSV.
    static var tsv: String {
        var text = "nr\tBreite\tLänge\tName\n"
        for (k, p) in places.enumerated() {
            text += "\(p.nr)\t\(String(format: "%.4f", p.lat))\t\(String(format: "%.4f", p.lon))\t\(names[k % names.count]) \(k)\n"
        }
        return text
    }

    static let columns = ["--lat-column", "Breite", "--lon-column", "Länge", "--id-column", "nr", "--delimiter", "tab"]
    static var allIDs: Set<String> { Set(places.map(\.nr)) }

    @Test("pins reads the TSV by its column options: leaves and listing_id are the nr values; no attributes: null medians, no categories")
    func pinsOnGermanTSV() throws {
        try withTemporaryFolder { folder throws in
            let input = try folder.write(Self.tsv, to: "orte.tsv")
            let r = try folder.run(["pins", input, "--zooms", "0-18", "--leaves", "--no-privacy", "-o", "p.geojson"] + Self.columns)
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("30 listings"), "\(r.stderr)")
            let features = try PinsCommandTests.features(try folder.read("p.geojson"))
            for z in 0...18 {
                let pins = features.filter { $0.zoom == z }
                #expect(pins.reduce(0) { $0 + $1.count } == 30, "zoom \(z)")
                let leaves = pins.flatMap(\.leaves)
                #expect(leaves.count == 30 && Set(leaves) == Self.allIDs, "zoom \(z): \(leaves.sorted())")
            }
            // At zoom 18 (about 0.36 m a pixel) every place is a pin of its own, named by its nr.
            let top = features.filter { $0.zoom == 18 }
            #expect(top.count == 30 && top.allSatisfy { $0.kind == "listing" })
            #expect(Set(top.map { "\($0.properties["listing_id"] ?? "none")" }) == Self.allIDs)
            for pin in features {
                #expect(pin.properties["median_deposit"] is NSNull && pin.properties["median_monthly_rent"] is NSNull)
                #expect((pin.properties["categories"] as? [String: Any])?.isEmpty == true)
            }
            // Masked: the same listings under the pins, by their nr.
            let m = try folder.run(["pins", input, "--zooms", "0-16", "--leaves", "--insecure-test-seed", "7", "-o", "m.geojson"] + Self.columns)
            try #require(m.status == 0, "\(m)")
            let masked = try PinsCommandTests.features(try folder.read("m.geojson"))
            for z in 0...16 { #expect(Set(masked.filter { $0.zoom == z }.flatMap(\.leaves)) == Self.allIDs, "zoom \(z)") }
            // The tab is found by itself too; the column names are not.
            let detected = try folder.run(["pins", input, "--zoom", "3", "--no-privacy", "-o", "d.geojson"] + Self.columns.dropLast(2))
            #expect(detected.status == 0, "\(detected)")
            let plain = try folder.run("pins", input, "--zoom", "3", "--no-privacy", "-o", "x.geojson")
            #expect(plain.status == 1 && plain.stderr.contains("orte.tsv: no lat/latitude/위도 and lon/lng/long/longitude/경도 (name others with --lat-column, --lon-column) column(s); the header has: nr, Breite, Länge, Name"), "\(plain)")
            #expect(try !folder.contents().contains("x.geojson"))
        }
    }

    @Test("nearby and map --zoom read the TSV by the same options; nearby lists the nr values, nearest first")
    func nearbyAndMapOnGermanTSV() throws {
        try withTemporaryFolder { folder throws in
            let input = try folder.write(Self.tsv, to: "orte.tsv")
            let (lat, lon) = (52.5207, 13.4081)
            let n = try folder.run(["nearby", input, "--lat", "\(lat)", "--lon", "\(lon)", "--radius", "1km", "--no-privacy"] + Self.columns)
            try #require(n.status == 0, "\(n)")
            let rows = parseCSV(n.stdout)
            // The file's own column (Name) comes after the listing attributes.
            #expect(rows[0] == ["id", "distance_m", "lat", "lon", "category", "area_m2", "deposit", "monthly_rent", "Name"])
            let expected = Self.places
                .map { ($0.nr, PinsCommandTests.metres($0.lon, $0.lat, lon, lat)) }
                .filter { $0.1 <= 1000 }
                .map { ($0.0, ($0.1 / 100).rounded(.toNearestOrAwayFromZero) * 100) }
                .sorted { ($0.1, Int($0.0)!) < ($1.1, Int($1.0)!) }
            #expect(expected.count == 10)
            #expect(rows.dropFirst().map { $0[0] } == expected.map(\.0))
            #expect(rows.dropFirst().map { Double($0[1])! } == expected.map(\.1))
            #expect(rows.dropFirst().allSatisfy { $0[4..<8].allSatisfy(\.isEmpty) && !$0[8].isEmpty }, "no attributes in the file: empty fields")

            let p = try folder.run(["pins", input, "--zoom", "13", "--no-privacy", "-o", "p.geojson"] + Self.columns)
            let m = try folder.run(["map", input, "--zoom", "13", "--no-privacy", "-o", "m.svg"] + Self.columns)
            try #require(p.status == 0 && m.status == 0, "\(p)\(m)")
            let pins = try PinsCommandTests.features(try folder.read("p.geojson"))
            #expect(pins.count >= 3)
            #expect(m.stdout.contains("\(pins.count) pins at zoom 13 over 30 listings"), "\(m)")
            let svg = try folder.read("m.svg")
            #expect(XMLParser(data: Data(svg.utf8)).parse())
            #expect(svg.components(separatedBy: "stroke=\"#ffffff\" stroke-width=\"2\"").count - 1 == pins.count)

            let audit = try folder.run(["privacy", input, "--insecure-test-seed", "3", "-o", "a.csv"] + Self.columns)
            try #require(audit.status == 0, "\(audit)")
            #expect(parseCSV(try folder.read("a.csv")).count == 31, "one row per place")
        }
    }

    @Test("a filter on a column the file lacks exits 1 naming the file, the column and the flag; nothing is written")
    func filterOnMissingColumn() throws {
        try withTemporaryFolder { folder throws in
            let input = try folder.write(Self.tsv, to: "orte.tsv")
            let header = "the header has: nr, Breite, Länge, Name"
            let cases: [([String], String)] = [
                (["pins", input, "--zoom", "10", "--no-privacy", "-o", "out.geojson", "--category", "apartment"],
                 "orte.tsv: --category needs the category column but \(header); add the column or drop --category"),
                (["pins", input, "--zoom", "10", "--no-privacy", "-o", "out.geojson", "--area", "20..80"],
                 "orte.tsv: --area needs the area_m2/area column but \(header)"),
                (["nearby", input, "--lat", "52.52", "--lon", "13.40", "--no-privacy", "-o", "out.csv", "--deposit", "..500"],
                 "orte.tsv: --deposit needs the deposit column but \(header)"),
                (["nearby", input, "--lat", "52.52", "--lon", "13.40", "--no-privacy", "--rent", "0..50"],
                 "orte.tsv: --rent needs the monthly_rent/rent column but \(header)"),
            ]
            for (arguments, message) in cases {
                let r = try folder.run(arguments + Self.columns)
                #expect(r.status == 1 && r.stderr.contains(message), "\(r)")
                #expect(r.stdout.isEmpty)
                #expect(try folder.contents() == ["orte.tsv"])
            }
            // A file with a category but no prices: the category filter works, a price filter is refused.
            var text = "id,lat,lon,category\n"
            for (k, p) in Self.places.enumerated() { text += "\(p.nr),\(p.lat),\(p.lon),\(k % 3 == 0 ? "villa" : "apartment")\n" }
            let partial = try folder.write(text, to: "teil.csv")
            let ok = try folder.run("pins", partial, "--zoom", "18", "--no-privacy", "--category", "villa", "-o", "v.geojson")
            try #require(ok.status == 0, "\(ok)")
            #expect(try PinsCommandTests.features(try folder.read("v.geojson")).count == 10)
            let bad = try folder.run("pins", partial, "--zoom", "18", "--no-privacy", "--deposit", "0..100", "-o", "w.geojson")
            #expect(bad.status == 1 && bad.stderr.contains("teil.csv: --deposit needs the deposit column but the header has: id, lat, lon, category"), "\(bad)")
            #expect(try !folder.contents().contains("w.geojson"))
        }
    }

    @Test("a bad column option is refused naming the flag, before anything is written", arguments: [
        (["pins", "orte.tsv", "--zoom", "3", "--no-privacy", "-o", "o.geojson", "--lat-column", "Breit", "--lon-column", "Länge"], 1,
         "orte.tsv: no 'Breit' (--lat-column) column(s); the header has: nr, Breite, Länge, Name"),
        (["nearby", "orte.tsv", "--lat", "52.5", "--lon", "13.4", "--no-privacy", "--lat-column", "Breite", "--lon-column", "Länge",
          "--id-column", "Nummer"], 1, "orte.tsv: no 'Nummer' (--id-column) column(s)"),
        (["pins", "orte.tsv", "--zoom", "3", "--no-privacy", "-o", "o.geojson", "--delimiter", "pipe"], 64,
         "The value 'pipe' is invalid for '--delimiter <sep>'"),
        (["pins", "orte.tsv", "--zoom", "3", "--no-privacy", "-o", "o.geojson", "--lat-column", "Breite", "--lon-column", "Länge",
          "--id-column", "Breite"], 1, "--id-column 'Breite': orte.tsv: 'Breite' is the latitude column"),
        (["map", "orte.tsv", "--zoom", "3", "--no-privacy", "-o", "o.svg", "--x-column", "Länge"], 64,
         "--x-column and --y-column go with --labels"),
        (["privacy", "p.geojson", "--insecure-test-seed", "1", "-o", "o.csv", "--lat-column", "Breite"], 64,
         "--lat-column is not used for GeoJSON input p.geojson"),
    ] as [([String], Int32, String)])
    func badColumnOption(arguments: [String], status: Int32, message: String) throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.write(Self.tsv, to: "orte.tsv")
            _ = try folder.write(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{}}]}"#,
                                 to: "p.geojson")
            let r = try folder.run(arguments)
            #expect(r.status == status && r.stderr.contains(message), "\(r)")
            #expect(r.stdout.isEmpty)
            #expect(try folder.contents().sorted() == ["orte.tsv", "p.geojson"])
        }
    }
}

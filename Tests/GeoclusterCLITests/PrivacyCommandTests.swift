import Foundation
import Pins
import Testing
import TestSupport

/// `geocluster privacy` and `--min-anonymity` through the command line: the report's three
/// formats agree with each other and with the pins, publish no true position, and every bad
/// value of the new options is a usage error.
@Suite("geocluster privacy and --min-anonymity")
struct PrivacyCommandTests {
    static let seoul = PinsCommandTests.seoul

    @Test("the report in CSV, GeoJSON and HTML: one line per location, the pins' displayed points, no true position")
    func reportFormats() throws {
        try withTemporaryFolder { folder throws in
            let key = PinsKey.generate().hexEncoded()
            _ = try folder.write(key + "\n", to: "k")
            var runs: [CLIResult] = []
            for name in ["r.csv", "r.geojson", "r.html"] {
                runs.append(try folder.run("privacy", Self.seoul, "--key-file", "k", "--min-anonymity", "5", "-o", name))
            }
            for r in runs { try #require(r.status == 0, "\(r)") }
            let headlines = Set(runs.map { $0.stderr.components(separatedBy: "; wrote")[0] })
            #expect(headlines.count == 1, "the same headline for every format")
            #expect(runs[0].stderr.contains("locations: median k") && runs[0].stderr.contains("not anonymous at K = 5"))
            let rows = parseCSV(try folder.read("r.csv"))
            #expect(rows[0] == ["longitude", "latitude", "k", "largest_spot", "ring_m", "listings"])
            let body = rows.dropFirst().filter { $0.count == 6 }
            let listings = try PinsCommandTests.listings(Self.seoul)
            let features = try #require(try JSONSerialization.jsonObject(with: folder.data("r.geojson")) as? [String: Any])["features"] as? [[String: Any]]
            #expect(features?.count == body.count)
            // The report covers the listings the pins show (not those held back), at the pins'
            // shared points (zoom 22 shows each point on its own).
            let pins = try folder.run("pins", Self.seoul, "--zoom", "22", "--key-file", "k", "--min-anonymity", "5", "--mask", "m", "-o", "p.geojson")
            try #require(pins.status == 0, "\(pins)")
            #expect(body.reduce(0) { $0 + Int($1[5])! } == PinsCommandTests.shownCount(pins.stderr))
            let shown = Set(try PinsCommandTests.features(try folder.read("p.geojson")).filter { $0.kind != "cluster" }
                .map { "\(($0.lon * 1e6).rounded()),\(($0.lat * 1e6).rounded())" })
            let reported = Set(body.map { "\((Double($0[0])! * 1e6).rounded()),\((Double($0[1])! * 1e6).rounded())" })
            #expect(shown.count * 10 > reported.count * 9 && shown.isSubset(of: reported))
            // Not anonymous at 5 only where the ring reached the cap.
            #expect(body.allSatisfy { (Int($0[2])! >= 5 && Int($0[3])! * 5 <= Int($0[2])!) || Double($0[4])! == 1500 })
            var truth = BenchPinsPublishNothingTrueTests.Truth(listings)
            truth.tolerance = 0.05
            for name in ["r.csv", "r.geojson", "r.html"] {
                #expect(BenchPinsPublishNothingTrueTests.exposures(try folder.read(name), name: name, truth) == 0, "a true position in \(name)")
            }
            let html = try folder.read("r.html")
            #expect(html.contains("<svg") && html.contains("Distribution of k") && !html.contains(key.prefix(16)))
        }
    }

    @Test("a listing given another building's id far from it is left out with the warning pins gives, and not audited")
    func conflictingListingWarned() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.write(PinsKey.generate().hexEncoded() + "\n", to: "k")
            // Listing 900001 claims building 3 (ten listings) but lies 5 km south of it.
            let spoof = "900001,37.580244,126.967343,0,0,0,apartment,60,1000,50,3,3\n"
            _ = try folder.write(try String(contentsOfFile: Self.seoul, encoding: .utf8) + spoof, to: "s.csv")
            let plain = try folder.run("privacy", Self.seoul, "--key-file", "k", "-o", "a.csv")
            let spoofed = try folder.run("privacy", "s.csv", "--key-file", "k", "-o", "b.csv")
            try #require(plain.status == 0 && spoofed.status == 0, "\(plain)\n\(spoofed)")
            #expect(!plain.stderr.contains("left out"))
            #expect(spoofed.stderr.contains("s.csv: 1 listing left out: not where its location (building id) is")
                    && spoofed.stderr.contains("ids 900001"), "\(spoofed.stderr)")
            let pins = try folder.run("pins", "s.csv", "--zoom", "12", "--key-file", "k", "-o", "p.geojson")
            #expect(pins.stderr.contains("ids 900001"), "pins warns the same: \(pins.stderr)")
            // The spoofed listing is not counted: both reports hold the same listings.
            func listings(_ name: String) throws -> Int {
                parseCSV(try folder.read(name)).dropFirst().filter { $0.count == 6 }.reduce(0) { $0 + Int($1[5])! }
            }
            #expect(try listings("a.csv") == listings("b.csv"))
        }
    }

    @Test("the mask file is read, never written; with --weak-plain-mask the report's k is the plain ring's")
    func plainAndMaskFile() throws {
        try withTemporaryFolder { folder throws in
            let key = PinsKey.generate().hexEncoded()
            _ = try folder.write(key + "\n", to: "k")
            let made = try folder.run("pins", Self.seoul, "--zoom", "10", "--key-file", "k", "--mask", "m", "-o", "p.geojson")
            try #require(made.status == 0, "\(made)")
            let before = try folder.data("m")
            let a = try folder.run("privacy", Self.seoul, "--key-file", "k", "--mask", "m", "-o", "a.csv")
            let b = try folder.run("privacy", Self.seoul, "--key-file", "k", "-o", "b.csv")
            try #require(a.status == 0 && b.status == 0, "\(a)\(b)")
            #expect(try folder.data("m") == before)
            #expect(try folder.read("a.csv") == folder.read("b.csv"))
            let plain = try folder.run("privacy", Self.seoul, "--key-file", "k", "--weak-plain-mask", "-o", "plain.csv")
            try #require(plain.status == 0, "\(plain)")
            #expect(parseCSV(try folder.read("plain.csv")).dropFirst().filter { $0.count == 6 }.allSatisfy { $0[4] == "80" })
            let missing = try folder.run("privacy", Self.seoul, "--key-file", "k", "--mask", "nothing", "-o", "c.csv")
            #expect(missing.status == 1 && missing.stderr.contains("nothing") && !FileManager.default.fileExists(atPath: folder.path("c.csv")))
        }
    }

    @Test("every bad value of the new options is a usage error naming the flag; no output written")
    func badValues() throws {
        try withTemporaryFolder { folder throws in
            let key = PinsKey.generate().hexEncoded()
            _ = try folder.write(key + "\n", to: "k")
            let cases: [([String], String)] = [
                (["pins", Self.seoul, "--zoom", "10", "--key-file", "k", "--mask", "m", "--min-anonymity", "1", "-o", "o.geojson"], "--min-anonymity"),
                (["pins", Self.seoul, "--zoom", "10", "--key-file", "k", "--mask", "m", "--min-anonymity", "5000", "-o", "o.geojson"], "--min-anonymity"),
                (["pins", Self.seoul, "--zoom", "10", "--key-file", "k", "--mask", "m", "--min-anonymity", "5", "--anonymity-cap", "1e20", "-o", "o.geojson"], "--anonymity-cap"),
                (["pins", Self.seoul, "--zoom", "10", "--key-file", "k", "--mask", "m", "--min-anonymity", "5", "--anonymity-cap", "60", "-o", "o.geojson"], "--anonymity-cap"),
                (["pins", Self.seoul, "--zoom", "10", "--key-file", "k", "--mask", "m", "--min-anonymity", "5", "--anonymity-cap", "nan", "-o", "o.geojson"], "--anonymity-cap"),
                (["privacy", Self.seoul, "--no-privacy", "-o", "o.csv"], "--key-file"),
                (["privacy", Self.seoul, "--key-file", "k", "--target", "1", "-o", "o.csv"], "--target"),
                (["privacy", Self.seoul, "--key-file", "k", "-o", "o.txt"], "--output"),
                (["privacy", Self.seoul, "--key-file", "k", "--threads", "0", "-o", "o.csv"], "--threads"),
            ]
            for (arguments, flag) in cases {
                let r = try folder.run(arguments)
                #expect(r.status == 64 && r.stderr.contains(flag), "\(arguments): \(r)")
            }
            #expect(try folder.contents().sorted() == ["k"], "nothing written")
        }
    }
}

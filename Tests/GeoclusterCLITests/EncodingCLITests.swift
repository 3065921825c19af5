import Foundation
import Testing
import TestSupport

/// Inputs that are not UTF-8 and numbers with decimal commas, as users' exports have them:
/// refused with a message that names the file, line and likely encoding (and nothing written),
/// or read with `--encoding` / `--decimal-comma`; no output ever holds U+FFFD.
@Suite("geocluster: input encodings and decimal commas")
struct EncodingCLITests {
    /// A Latin-1 TSV: Breite (latitude), Länge (longitude), Düsseldorf, Köln, Münster.
    static let latin1TSV: [UInt8] = {
        func latin1(_ s: String) -> [UInt8] { s.unicodeScalars.map { UInt8($0.value) } }
        var text = "name\tBreite\tLänge\n"
        for (i, city) in ["Düsseldorf", "Köln", "Münster", "Bonn", "Essen", "Neuss"].enumerated() {
            text += "\(city)\t\(51.2 + Double(i) * 0.0001)\t\(6.77 + Double(i) * 0.0001)\n"
        }
        return latin1(text)
    }()

    /// U+FFFD in UTF-8.
    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    static func holds(_ data: Data, _ bytes: [UInt8]) -> Bool {
        data.range(of: Data(bytes)) != nil
    }

    @Test("a Latin-1 TSV: refused naming file, line and --encoding latin1, nothing written; read with it, GeoJSON out in UTF-8 and --append's CSV back in Latin-1 (or UTF-8 with --output-encoding)")
    func latin1() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(bytes: Self.latin1TSV, to: "cities.tsv")
            let columns = ["--lat-column", "Breite", "--lon-column", "Länge", "--min-cluster-size", "3"]
            for output in ["out.csv", "out.geojson"] {
                let refused = try folder.run(["cluster", "cities.tsv", "-o", output, "--append"] + columns)
                #expect(refused.status == 1, "\(refused)")
                #expect(refused.stderr.contains("cities.tsv: line 1 is not valid UTF-8 (byte 0xE4 at column 14)"), "\(refused)")
                #expect(refused.stderr.contains("Latin-1") && refused.stderr.contains("--encoding latin1"), "\(refused)")
                #expect(try folder.contents() == ["cities.tsv"])

                let read = try folder.run(["cluster", "cities.tsv", "-o", output, "--append", "--encoding", "latin1"] + columns)
                #expect(read.status == 0, "\(read)")
                let data = try folder.data(output)
                if output.hasSuffix(".geojson") {
                    #expect(Self.holds(data, Array("Düsseldorf".utf8)) && Self.holds(data, Array("Köln".utf8)))
                } else {
                    #expect(Self.holds(data, Array("D\u{FC}sseldorf".unicodeScalars.map { UInt8($0.value) })), "Latin-1, as read")
                    #expect(!Self.holds(data, Array("Düsseldorf".utf8)))
                }
                #expect(!Self.holds(data, Self.replacement))
                try FileManager.default.removeItem(atPath: folder.path(output))
            }
            let utf8 = try folder.run(["cluster", "cities.tsv", "-o", "u.csv", "--append", "--encoding", "latin1", "--output-encoding", "utf-8"] + columns)
            #expect(try utf8.status == 0 && Self.holds(folder.data("u.csv"), Array("Düsseldorf".utf8)), "\(utf8)")
            for (extra, message) in [(["--output-encoding", "latin1"], "--output-encoding and --bom are for --append"),
                                     (["--append", "--bom"], "--bom is for UTF-8 output; Latin-1 (ISO-8859-1) has no byte-order mark")] {
                let refused = try folder.run(["cluster", "cities.tsv", "-o", "r.csv", "--encoding", "latin1"] + extra + columns)
                #expect(refused.status == 64 && refused.stderr.contains(message), "\(refused)")
            }
            try FileManager.default.removeItem(atPath: folder.path("u.csv"))
            // project reads it too, and writes it back tab-separated.
            let projected = try folder.run(["project", "cities.tsv", "-o", "p.csv", "--encoding", "latin1", "--lat-column", "Breite", "--lon-column", "Länge"])
            #expect(projected.status == 0, "\(projected)")
            #expect(try folder.read("p.csv").hasPrefix("name\tBreite\tLänge\tx\ty\nDüsseldorf\t51.2\t6.77\t"))
        }
    }

    /// 이름,위도,경도 and 서울 / 부산 rows in CP949 (bytes from Python's `str.encode('cp949')`).
    static let cp949CSV: [UInt8] = {
        var bytes: [UInt8] = [0xC0, 0xCC, 0xB8, 0xA7, 0x2C, 0xC0, 0xA7, 0xB5, 0xB5, 0x2C, 0xB0, 0xE6, 0xB5, 0xB5, 0x0A]
        for i in 0..<4 {
            bytes += [0xBC, 0xAD, 0xBF, 0xEF] + Array(",\(37.5665 + Double(i) * 0.0001),126.978\n".utf8)  // 서울
            bytes += [0xBA, 0xCE, 0xBB, 0xEA] + Array(",\(35.1796 + Double(i) * 0.0001),129.0756\n".utf8) // 부산
        }
        return bytes
    }()

    @Test("a CP949 CSV: detected as CP949-looking; read with --encoding cp949 by cluster and pins")
    func cp949() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(bytes: Self.cp949CSV, to: "seoul.csv")
            let refused = try folder.run("cluster", "seoul.csv", "-o", "out.csv")
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("seoul.csv: line 1 is not valid UTF-8 (byte 0xC0 at column 1); it looks like CP949"), "\(refused)")
            #expect(refused.stderr.contains("--encoding cp949"), "\(refused)")
            #expect(try folder.contents() == ["seoul.csv"])

            let read = try folder.run("cluster", "seoul.csv", "-o", "out.csv", "--append", "--encoding", "cp949", "--min-cluster-size", "3")
            #expect(read.status == 0, "\(read)")
            // Written back in CP949, as read.
            let written = try folder.data("out.csv")
            #expect(Array(written.prefix(6)) == Array(Self.cp949CSV.prefix(6)))
            let rows = parseCSV(try #require(String(data: written, encoding: .init(rawValue: 0x80000422)), "CP949 text"))
            #expect(rows[0].prefix(3) == ["이름", "위도", "경도"])
            #expect(rows[1][0] == "서울" && rows[2][0] == "부산")
            #expect(Set(rows.dropFirst().map { $0[3] }).count == 2, "two clusters: \(rows)")

            let pinsRefused = try folder.run("pins", "seoul.csv", "--zoom", "10", "--insecure-test-seed", "1", "-o", "pins.geojson")
            #expect(pinsRefused.status == 1 && pinsRefused.stderr.contains("--encoding cp949"), "\(pinsRefused)")
            let pins = try folder.run("pins", "seoul.csv", "--zoom", "10", "--insecure-test-seed", "1", "--encoding", "cp949", "-o", "pins.geojson")
            #expect(pins.status == 0, "\(pins)")
        }
    }

    @Test("GeoJSON --append: a Latin-1 property is refused, or read with --encoding latin1; never U+FFFD")
    func geoJSONAppend() throws {
        try withTemporaryFolder { folder throws in
            var bytes = Array(#"{"type":"FeatureCollection","features":["#.utf8)
            for i in 0..<6 {
                let name: [UInt8] = i % 2 == 0 ? Array("D".utf8) + [0xFC] + Array("sseldorf".utf8) : Array("K".utf8) + [0xF6] + Array("ln".utf8)
                bytes += Array(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(6.77 + Double(i) * 0.0001),51.2]},"properties":{"name":""#.utf8)
                bytes += name + Array(#""}}"#.utf8) + (i < 5 ? [UInt8(ascii: ","), 0x0A] : [])
            }
            bytes += Array("]}\n".utf8)
            try folder.write(bytes: bytes, to: "in.geojson")
            for output in ["out.geojson", "out.csv"] {
                let refused = try folder.run("cluster", "in.geojson", "--append", "--min-cluster-size", "3", "-o", output)
                #expect(refused.status == 1 && refused.stderr.contains("in.geojson: line 1 is not valid UTF-8"), "\(refused)")
                #expect(refused.stderr.contains("--encoding latin1"), "\(refused)")
                #expect(try folder.contents() == ["in.geojson"])
                let read = try folder.run("cluster", "in.geojson", "--append", "--min-cluster-size", "3", "--encoding", "latin1", "-o", output)
                #expect(read.status == 0, "\(read)")
                let data = try folder.data(output)
                #expect(Self.holds(data, Array("Düsseldorf".utf8)) && Self.holds(data, Array("Köln".utf8)))
                #expect(!Self.holds(data, Self.replacement))
                try FileManager.default.removeItem(atPath: folder.path(output))
            }
        }
    }

    /// Two groups of six listings and two strays, with decimal points or decimal commas.
    static func listings(separator: String, comma: Bool) -> String {
        var text = ["id", "lat", "lon", "area_m2"].joined(separator: separator) + "\n"
        var points: [(Double, Double)] = []
        for k in 0..<6 {
            let d = Double(k)
            points.append((37.5 + d * 0.0002, 127.0 + d * 0.0001))
        }
        for k in 0..<6 {
            let d = Double(k)
            points.append((37.56 + d * 0.0002, 127.05 - d * 0.0001))
        }
        points += [(37.7, 126.8), (37.3, 127.3)]
        for (i, p) in points.enumerated() {
            // The last stray's area is outside the filter of the test.
            var fields = ["L\(i)", String(format: "%.4f", p.0), String(format: "%.4f", p.1), i == 13 ? "99.5" : "\(50 + i % 5).5"]
            if comma { fields = fields.map { $0.replacingOccurrences(of: ".", with: ",") } }
            text += fields.joined(separator: separator) + "\n"
        }
        return text
    }

    @Test("--decimal-comma: a semicolon file of 37,5 numbers gives the labels of the dot file; with --delimiter comma it is refused")
    func decimalComma() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Self.listings(separator: ",", comma: false), to: "dot.csv")
            try folder.write(Self.listings(separator: ";", comma: true), to: "comma.csv")
            let dot = try folder.run("cluster", "dot.csv", "--min-cluster-size", "4", "--area", "50..60", "-o", "dot-labels.csv")
            #expect(dot.status == 0, "\(dot)")
            let plain = try folder.run("cluster", "comma.csv", "--min-cluster-size", "4", "--area", "50..60", "-o", "x.csv")
            #expect(plain.status == 1 && plain.stderr.contains("'37,5000' is not a number"), "\(plain)")
            let comma = try folder.run("cluster", "comma.csv", "--decimal-comma", "--min-cluster-size", "4", "--area", "50..60", "-o", "comma-labels.csv")
            #expect(comma.status == 0, "\(comma)")
            let labels = try folder.read("dot-labels.csv")
            #expect(try folder.read("comma-labels.csv") == labels)
            let rows = parseCSV(labels).dropFirst()
            #expect(rows.count == 13 && Set(rows.map { $0[1] }).count >= 2, "13 rows kept, clusters found: \(labels)")

            let refused = try folder.run("cluster", "comma.csv", "--decimal-comma", "--delimiter", ",", "-o", "y.csv")
            #expect(refused.status == 64, "\(refused)")
            #expect(refused.stderr.contains("--decimal-comma") && refused.stderr.contains("--delimiter"), "\(refused)")
            let detected = try folder.run("cluster", "dot.csv", "--decimal-comma", "-o", "y.csv")
            #expect(detected.status == 1 && detected.stderr.contains("--decimal-comma"), "\(detected)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("y.csv")))
        }
    }

    @Test("project keeps a tab or semicolon separator, and writes .tsv output with tabs")
    func projectSeparator() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("id\tlat\tlon\tname\n1\t37.5663\t126.9779\ta, b\n2\t35.1796\t129.0756\tc\n", to: "in.tsv")
            let tsv = try folder.run("project", "in.tsv", "--crs", "EPSG:5179", "-o", "out.tsv")
            #expect(tsv.status == 0, "\(tsv)")
            let rows = parseCSV(try folder.read("out.tsv"), separator: "\t")
            #expect(rows[0] == ["id", "lat", "lon", "name", "x", "y"])
            #expect(rows[1].prefix(4) == ["1", "37.5663", "126.9779", "a, b"] && rows[1].count == 6)
            let csvName = try folder.run("project", "in.tsv", "--crs", "EPSG:5179", "-o", "out.csv")
            #expect(csvName.status == 0, "\(csvName)")
            #expect(try folder.read("out.csv").hasPrefix("id\tlat\tlon\tname\tx\ty\n"))

            try folder.write("id;lat;lon\n1;37,5663;126,9779\n", to: "semi.csv")
            let semi = try folder.run("project", "semi.csv", "--decimal-comma", "--crs", "EPSG:5179", "-o", "semi-out.csv")
            #expect(semi.status == 0, "\(semi)")
            #expect(try folder.read("semi-out.csv").hasPrefix("id;lat;lon;x;y\n1;37,5663;126,9779;"))
            try folder.write("id,lat,lon\n1,37.5663,126.9779\n", to: "plain.csv")
            let toTSV = try folder.run("project", "plain.csv", "--crs", "EPSG:5179", "-o", "plain.tsv")
            #expect(toTSV.status == 0, "\(toTSV)")
            #expect(try folder.read("plain.tsv").hasPrefix("id\tlat\tlon\tx\ty\n"))
        }
    }
}

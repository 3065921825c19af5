import Foundation
import Testing
import TestSupport

@Suite("geocluster (root command) and geocluster project")
struct ProjectCommandTests {
    @Test("--help exits 0 and lists the subcommands")
    func help() throws {
        try withTemporaryFolder { folder throws in
            let r = try folder.run("--help")
            #expect(r.status == 0, "\(r)")
            let subcommands = try #require(r.stdout.range(of: "SUBCOMMANDS:"), "\(r)")
            let listed = r.stdout[subcommands.upperBound...]
            #expect(listed.contains("\n  cluster "))
            #expect(listed.contains("\n  project "))
        }
    }

    @Test("--version prints the version")
    func version() throws {
        try withTemporaryFolder { folder throws in
            let r = try folder.run("--version")
            #expect(r.status == 0)
            #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        }
    }

    /// PROJ and GEOS are loaded with dlopen when first used (they doubled every start-up when
    /// linked): clustering planar x,y must not load them, projecting must load PROJ. glibc's
    /// loader reports every library it opens under LD_DEBUG=files.
    #if os(Linux)
    @Test("PROJ and GEOS are loaded only by the commands that use them")
    func librariesLoadedOnFirstUse() throws {
        try withTemporaryFolder { folder throws in
            let rows = (0..<40).map { "\($0 % 4 * 1000 + $0),\($0 / 4 * 3)" }
            try folder.write("x,y\n" + rows.joined(separator: "\n") + "\n", to: "XY.csv")
            let debug = ["LD_DEBUG": "files"]
            let clustered = try folder.run(["cluster", "XY.csv", "--min-cluster-size", "5", "-o", "L.csv"], environment: debug)
            try #require(clustered.status == 0, "\(clustered)")
            #expect(clustered.stderr.contains("file=libc.so"), "LD_DEBUG reports the libraries it opens")
            #expect(!clustered.stderr.contains("libproj"))
            #expect(!clustered.stderr.contains("libgeos"))
            try folder.write(Self.input, to: "IN.csv")
            let projected = try folder.run(["project", "IN.csv", "--crs", "EPSG:5179", "-o", "OUT.csv"], environment: debug)
            try #require(projected.status == 0, "\(projected)")
            #expect(projected.stderr.contains("file=libproj"))
        }
    }
    #endif

    static let input = #"""
        id,lat,lon,name
        1,37.5663,126.9779,"Seoul City Hall, Jung-gu"
        2,37.4979,127.0276,강남역
        3,35.1796,129.0756,"Busan ""Centre"""

        """#

    @Test("project --crs EPSG:5179 keeps every input column and adds x,y matching cs2cs within 1 mm")
    func projectKorea2000() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Self.input, to: "IN.csv")
            let r = try folder.run("project", "IN.csv", "--crs", "EPSG:5179", "--output", "OUT.csv")
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("EPSG:5179"))
            let out = parseCSV(try folder.read("OUT.csv"))
            let input = parseCSV(Self.input)
            #expect(out.first == ["id", "lat", "lon", "name", "x", "y"])
            try #require(out.count == 4)
            for r in 1..<4 { #expect(Array(out[r].prefix(4)) == input[r], "row \(r) keeps its input fields") }
            // $ echo "37.5663 126.9779" | cs2cs -d 6 EPSG:4326 EPSG:5179
            // 1952009.941022	953892.210777 0.000000   (northing, easting)
            let x = try #require(Double(out[1][4])), y = try #require(Double(out[1][5]))
            #expect(abs(x - 953892.210777) <= 1e-3, "x = \(x)")
            #expect(abs(y - 1952009.941022) <= 1e-3, "y = \(y)")
            #expect(try folder.contents() == ["IN.csv", "OUT.csv"])
        }
    }

    @Test("project --crs auto picks UTM 52N for Korea and says so on standard error")
    func projectAuto() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Self.input, to: "IN.csv")
            let r = try folder.run("project", "IN.csv", "--crs", "auto", "--output", "OUT.csv")
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("EPSG:32652"), "\(r)")
            let out = parseCSV(try folder.read("OUT.csv"))
            // $ echo "37.5663 126.9779" | cs2cs -d 6 EPSG:4326 EPSG:32652
            // 321414.975893	4159618.639181 0.000000
            let x = try #require(Double(out[1][4])), y = try #require(Double(out[1][5]))
            #expect(abs(x - 321414.975893) <= 1e-3, "x = \(x)")
            #expect(abs(y - 4159618.639181) <= 1e-3, "y = \(y)")
            // auto is the default.
            let d = try folder.run("project", "IN.csv", "--output", "DEFAULT.csv")
            #expect(d.status == 0)
            #expect(try folder.data("DEFAULT.csv") == folder.data("OUT.csv"))
        }
    }

    @Test("existing x,y columns are replaced, not duplicated")
    func replacesXY() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("id,x,lat,lon,y,note\n1,0,37.5663,126.9779,0,a\n", to: "IN.csv")
            let r = try folder.run("project", "IN.csv", "--crs", "EPSG:5179", "--output", "OUT.csv")
            try #require(r.status == 0, "\(r)")
            let out = parseCSV(try folder.read("OUT.csv"))
            #expect(out.first == ["id", "lat", "lon", "note", "x", "y"])
            try #require(out.count == 2 && out[1].count == 6)
            #expect(Array(out[1].prefix(4)) == ["1", "37.5663", "126.9779", "a"])
            #expect(abs((Double(out[1][4]) ?? 0) - 953892.210777) <= 1e-3)
        }
    }

    /// FNV-1a, 64 bits: a fingerprint of a whole output file.
    static func fnv1a(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// The bytes `project` wrote for datasets/seoul-5k.csv before it wrote through CSVWriter
    /// (fields joined with `CSV.escape`, metres with printf's `%.3f`): 407,423 bytes each.
    @Test("project writes datasets/seoul-5k.csv byte for byte as before", arguments: [
        ("EPSG:5179", 0x178d_b972_f46f_e389 as UInt64, "0,37.604351,127.078767,16,apartment,117.13,61000,0,2,0,962818.973,1956186.801"),
        ("auto", 0xf33f_7cf6_3254_bc31 as UInt64, "0,37.604351,127.078767,16,apartment,117.13,61000,0,2,0,330410.481,4163653.801"),
    ])
    func seoulBytes(crs: String, fingerprint: UInt64, firstRow: String) throws {
        try withTemporaryFolder { folder throws in
            let r = try folder.run("project", MapCommandTests.seoul, "--crs", crs, "--output", "OUT.csv")
            try #require(r.status == 0, "\(r)")
            let data = try folder.data("OUT.csv")
            #expect(data.count == 407_423)
            #expect(String(decoding: data, as: UTF8.self).split(separator: "\n")[1] == firstRow)
            #expect(Self.fnv1a(data) == fingerprint)
        }
    }

    @Test("a name holding a CRLF inside quotes is written quoted, so the output reads back whole")
    func crlfInsideQuotes() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("id,lat,lon,name\r\n1,37.5663,126.9779,\"City Hall\r\nSeoul\"\r\n2,37.5,127.0,x\r\n", to: "IN.csv")
            let r = try folder.run("project", "IN.csv", "--crs", "EPSG:5179", "--output", "OUT.csv")
            try #require(r.status == 0, "\(r)")
            let out = parseCSV(try folder.read("OUT.csv"))
            #expect(out.count == 3)
            #expect(out.dropFirst().allSatisfy { $0.count == 6 }, "\(out)")
            #expect(out.count > 1 && out[1][3] == "City Hall\r\nSeoul")
            // And geocluster reads its own output back.
            let again = try folder.run("project", "OUT.csv", "--crs", "EPSG:5179", "--output", "AGAIN.csv")
            #expect(again.status == 0, "\(again)")
        }
    }
}

import Foundation
import Pins
import Testing
import TestSupport

/// The privacy mask's key and bounds from the command line, tested as an attacker or a careless
/// operator would meet them: key files, the environment, outputs scanned for the key.
@Suite("geocluster pins-key and the privacy options")
struct PinsPrivacyTests {
    static let seoul = PinsCommandTests.seoul

    /// The mode bits of a file.
    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue & 0o777
    }

    @Test("pins-key writes 64 hex digits with mode 0600, refuses to overwrite without --force, never prints the key")
    func pinsKey() throws {
        try withTemporaryFolder { folder throws in
            let r = try folder.run("pins-key", "-o", "pins.key")
            try #require(r.status == 0, "\(r)")
            let text = try folder.read("pins.key")
            #expect(text.count == 65 && text.hasSuffix("\n") && text.dropLast().allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect(try Self.mode(folder.path("pins.key")) == 0o600)
            #expect(!(r.stdout + r.stderr).contains(text.prefix(16)) && r.stderr.contains("fingerprint"))
            let again = try folder.run("pins-key", "-o", "pins.key")
            #expect(again.status == 1 && again.stderr.contains("pins.key") && again.stderr.contains("--force"), "\(again)")
            #expect(try folder.read("pins.key") == text)
            let forced = try folder.run("pins-key", "-o", "pins.key", "--force")
            let replaced = try folder.read("pins.key"), mode = try Self.mode(folder.path("pins.key"))
            #expect(forced.status == 0 && replaced != text && mode == 0o600)
            #expect(try folder.contents().sorted() == ["pins.key"], "no temporary file left")
        }
    }

    @Test("the key file and GEOCLUSTER_PINS_KEY give the same pins; the key appears in no output, message or file")
    func keyNeverPublished() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.run("pins-key", "-o", "k")
            let hex = String(try folder.read("k").dropLast())
            var runs = [try folder.run("pins", Self.seoul, "--zooms", "12-22", "--key-file", "k", "--leaves", "-o", "a.geojson")]
            runs.append(try folder.run(["pins", Self.seoul, "--zooms", "12-22", "--leaves", "--mask", "b.mask", "-o", "b.geojson"], environment: ["GEOCLUSTER_PINS_KEY": hex]))
            runs.append(try folder.run("nearby", Self.seoul, "--lat", "37.55", "--lon", "127.0", "--key-file", "k", "-o", "n.csv"))
            runs.append(try folder.run("map", Self.seoul, "--zoom", "13", "--bbox", "126.95,37.47,127.05,37.53", "--key-file", "k", "-o", "m.svg"))
            for r in runs { try #require(r.status == 0, "\(r)") }
            #expect(try folder.data("a.geojson") == folder.data("b.geojson"))
            let needles = [hex, hex.uppercased(), String(hex.prefix(16)), String(hex.suffix(16))].map { Data($0.utf8) }
            for name in try folder.contents() where name != "k" {
                let bytes = try folder.data(name)
                #expect(needles.allSatisfy { bytes.range(of: $0) == nil }, "the key in \(name)")
            }
            for r in runs { #expect(!(r.stdout + r.stderr).contains(hex.prefix(16))) }
            // Another key gives every pin another id.
            _ = try folder.run("pins-key", "-o", "k2")
            let other = try folder.run("pins", Self.seoul, "--zoom", "22", "--key-file", "k2", "-o", "c.geojson")
            try #require(other.status == 0)
            let ids = { (name: String) in try PinsCommandTests.features(try folder.read(name)).filter { $0.zoom == 22 }.map { "\($0.properties["id"]!)" } }
            let a = Set(try ids("a.geojson")), c = try ids("c.geojson")
            #expect(!c.isEmpty && c.allSatisfy { !a.contains($0) })
        }
    }

    @Test("a bad key file or variable: exit 1, a message naming it and what is wrong, no output", arguments: [
        ("missing.key", nil, "missing.key: cannot read the pins key file"),
        ("empty.key", "", "empty.key: the pins key file is empty"),
        ("short.key", String(repeating: "ab", count: 8) + "\n", "short.key: not a valid pins key: 16 hexadecimal digits"),
        ("text.key", "my secret password, 32 characters\n", "text.key: not a valid pins key: character 1"),
        ("big.key", String(repeating: "0", count: 1100), "big.key: not a pins key file"),
        ("ENV", String(repeating: "z", count: 64), "GEOCLUSTER_PINS_KEY: not a valid pins key"),
    ] as [(String, String?, String)])
    func badKey(name: String, content: String?, message: String) throws {
        try withTemporaryFolder { folder throws in
            var arguments = ["pins", Self.seoul, "--zoom", "12", "-o", "out.geojson"]
            var environment: [String: String] = [:]
            if name == "ENV" { environment["GEOCLUSTER_PINS_KEY"] = content; arguments += ["--mask", "m"] } else {
                if let content { _ = try folder.write(content, to: name) }
                arguments += ["--key-file", name]
            }
            let r = try folder.run(arguments, environment: environment)
            #expect(r.status == 1 && !r.crashed, "\(r)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(try !folder.contents().contains("out.geojson"))
        }
    }

    @Test("--insecure-test-seed warns on every run; --privacy-seed is gone; --no-privacy with a key is a contradiction")
    func insecureSeed() throws {
        try withTemporaryFolder { folder throws in
            for _ in 0..<2 {
                let r = try folder.run("pins", Self.seoul, "--zoom", "12", "--insecure-test-seed", "7", "-o", "p.geojson")
                #expect(r.status == 0 && r.stderr.contains("warning: --insecure-test-seed makes a mask key anyone can guess"), "\(r)")
            }
            let old = try folder.run("pins", Self.seoul, "--zoom", "12", "--privacy-seed", "7", "-o", "q.geojson")
            #expect(old.status == 64, "\(old)")
            _ = try folder.run("pins-key", "-o", "k")
            let both = try folder.run("pins", Self.seoul, "--zoom", "12", "--key-file", "k", "--no-privacy", "-o", "q.geojson")
            #expect(both.status == 64 && both.stderr.contains("contradict"), "\(both)")
            // A key file others can read still works, with a warning saying how to fix it.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder.path("k"))
            let exposed = try folder.run("pins", Self.seoul, "--zoom", "12", "--key-file", "k", "-o", "e.geojson")
            #expect(exposed.status == 0 && exposed.stderr.contains("k can be read by other users (mode 644)") && exposed.stderr.contains("chmod 600"), "\(exposed)")
            let two = try folder.run("pins", Self.seoul, "--zoom", "12", "--key-file", "k", "--insecure-test-seed", "1", "-o", "q.geojson")
            #expect(two.status == 64 && two.stderr.contains("give one"), "\(two)")
        }
    }
}

/// Every privacy flag with values an attacker or a typo would give: each is refused with exit 1
/// or 64 and a message, never a signal, never an output.
@Suite("privacy flags: bad values never crash")
struct PrivacyFlagFuzzTests {
    static let numbers = ["nan", "-nan", "inf", "-inf", "-1", "0", "1e-9", "0.5", "5001", "1e20", "1e308", "-1e308",
                          "abc", "", "0x1p20", "30m", "80,90", "--"]

    /// (arguments after the input, a description) for every bad value of every flag.
    static var cases: [[String]] {
        var out: [[String]] = []
        for v in numbers {
            out.append(["--min-offset", v, "--max-offset", "100"])
            out.append(["--max-offset", v])
            out.append(["--min-offset", "30", "--max-offset", v])
        }
        out.append(["--min-offset", "0", "--max-offset", "1e-9"])
        out.append(["--min-offset", "80", "--max-offset", "80"])
        out.append(["--min-offset", "4999", "--max-offset", "5000.5"])
        for v in ["-1", "abc", "1e3", "18446744073709551616", "", "nan"] { out.append(["--insecure-test-seed", v]) }
        return out
    }

    @Test("pins: bad offsets and seeds are exit 64 naming the flag, no signal, no output")
    func offsetsAndSeeds() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.run("pins-key", "-o", "k")
            for extra in Self.cases {
                let key = extra.first == "--insecure-test-seed" ? [] : ["--key-file", "k"]
                let r = try folder.run(["pins", PinsCommandTests.seoulGeoJSON, "--zoom", "12"] + key + extra + ["-o", "out.geojson"])
                #expect(!r.crashed && (r.status == 64 || r.status == 1), "\(extra): \(r)")
                #expect(r.stderr.contains(extra[extra.count - 2]) || r.stderr.contains("--min-offset") || r.stderr.contains("--max-offset"),
                        "\(extra): \(r.stderr)")
                #expect(try !folder.contents().contains("out.geojson"), "\(extra)")
            }
        }
    }

    @Test("pins and privacy: bad --min-anonymity and --anonymity-cap values are exit 64 naming the flag, no signal, no output")
    func anonymityFlags() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.run("pins-key", "-o", "k")
            var cases: [[String]] = []
            for v in Self.numbers + ["1", "1001", "9223372036854775808"] { cases.append(["--min-anonymity", v]) }
            for v in Self.numbers + ["80", "79.9"] { cases.append(["--min-anonymity", "5", "--anonymity-cap", v]) }
            for extra in cases {
                for command in [["pins", PinsCommandTests.seoulGeoJSON, "--zoom", "12", "--mask", "m", "-o", "out.geojson"],
                                ["privacy", PinsCommandTests.seoulGeoJSON, "-o", "out.csv"]] {
                    let r = try folder.run(command + ["--key-file", "k"] + extra)
                    #expect(!r.crashed && r.status == 64, "\(command[0]) \(extra): \(r)")
                    #expect(r.stderr.contains(extra[extra.count - 2]), "\(extra): \(r.stderr)")
                }
            }
            #expect(try folder.contents().sorted() == ["k"])
        }
    }

    @Test("key files that are not keys, on every command that masks: exit 1 naming the file, no signal")
    func keyFiles() throws {
        try withTemporaryFolder { folder throws in
            try FileManager.default.createDirectory(atPath: folder.path("dir"), withIntermediateDirectories: true)
            _ = try folder.write(bytes: [0xff, 0xfe, 0, 1, 2], to: "binary")
            let commands: [[String]] = [
                ["pins", PinsCommandTests.seoulGeoJSON, "--zoom", "12", "-o", "out.geojson"],
                ["nearby", PinsCommandTests.seoulGeoJSON, "--lat", "37.5", "--lon", "127", "-o", "out.csv"],
                ["map", PinsCommandTests.seoulGeoJSON, "--zoom", "12", "-o", "out.svg"],
            ]
            for command in commands {
                for file in ["missing", "dir", "binary", "/dev/zero", "/dev/null", ""] {
                    let r = try folder.run(command + ["--key-file", file])
                    #expect(!r.crashed && (r.status == 1 || r.status == 64), "\(command[0]) --key-file \(file): \(r)")
                    #expect(file.isEmpty || r.stderr.contains(file), "\(r.stderr)")
                }
            }
            #expect(try folder.contents().sorted() == ["binary", "dir"])
            let bench = try folder.run("bench", "--sizes", "1k", "--methods", "grid", "--pins-zooms", "12-12", "--key-file", "binary",
                                       "--out", "out", "--cache", "cache")
            #expect(!bench.crashed && bench.status == 1 && bench.stderr.contains("binary: not a valid pins key"), "\(bench)")
            let none = try folder.run("bench", "--sizes", "1k", "--methods", "grid", "--pins-zooms", "12-12", "--out", "out", "--cache", "cache")
            #expect(none.status == 64 && none.stderr.contains("--key-file"), "\(none)")
        }
    }
}

/// `--mask FILE`: one draw per location, forever, across key rotations, range changes and
/// growing data, as an operator runs it and an attacker compares the outputs.
@Suite("geocluster pins --mask")
struct PinsMaskFileTests {
    static let seoul = PinsCommandTests.seoul

    /// Each listing's displayed position (from the listing and building pins at zoom 22, with leaves).
    static func positions(_ folder: TemporaryFolder, _ name: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for f in try PinsCommandTests.features(try folder.read(name)) where f.zoom == 22 && f.kind != "cluster" {
            for id in f.leaves { out[id] = "\(f.lon),\(f.lat)" }
        }
        return out
    }

    /// Whether every listing of `first` is shown at the same point in `later`.
    static func kept(_ first: [String: String], in later: [String: String]) -> Bool {
        first.allSatisfy { later[$0.key] == $0.value }
    }

    @Test("key rotation and a range change with the mask file: refused without --remask, identical positions with it; the file is 0600 and holds no key")
    func rotation() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.run("pins-key", "-o", "k1")
            _ = try folder.run("pins-key", "-o", "k2")
            let pins = ["pins", Self.seoul, "--zoom", "22", "--leaves", "--mask", "m"]
            let a = try folder.run(pins + ["--key-file", "k1", "-o", "a.geojson"])
            try #require(a.status == 0, "\(a)")
            #expect(try PinsPrivacyTests.mode(folder.path("m")) == 0o600)
            let mask = try folder.data("m")
            for k in ["k1", "k2"] {
                let hex = String(try folder.read(k).dropLast())
                #expect(mask.range(of: Data(hex.utf8)) == nil && mask.range(of: Data(hex.prefix(16).utf8)) == nil)
            }
            let first = try Self.positions(folder, "a.geojson")
            #expect(first.count > 3000 && a.stderr.contains("listings held back"), "\(first.count) \(a.stderr)")
            for change in [["--key-file", "k2"], ["--key-file", "k1", "--min-anonymity", "4"], ["--key-file", "k1", "--anonymity-cap", "2000"],
                           ["--key-file", "k1", "--weak-plain-mask"]] {
                let refused = try folder.run(pins + change + ["-o", "r.geojson"])
                #expect(refused.status == 1 && refused.stderr.contains("m was made with another") && refused.stderr.contains("--remask"), "\(refused)")
                #expect(try folder.data("m") == mask && !(try folder.contents().contains("r.geojson")))
            }
            let rotated = try folder.run(pins + ["--key-file", "k2", "--remask", "-o", "b.geojson"])
            try #require(rotated.status == 0, "\(rotated)")
            #expect(rotated.stderr.contains("warning: --remask") && rotated.stderr.contains("stored positions stay as published"))
            // Every listing published keeps its point; a held-back one may be placed with the new key.
            #expect(Self.kept(first, in: try Self.positions(folder, "b.geojson")))
            // The file now records k2: k2 runs without --remask, k1 is refused, positions stay.
            let again = try folder.run(pins + ["--key-file", "k2", "-o", "c.geojson"])
            #expect(again.status == 0 && !again.stderr.contains("--remask"), "\(again)")
            #expect(Self.kept(first, in: try Self.positions(folder, "c.geojson")))
            let k1 = try folder.run(pins + ["--key-file", "k1", "-o", "x.geojson"])
            #expect(k1.status == 1 && k1.stderr.contains("another key"), "\(k1)")
            let widened = try folder.run(pins + ["--key-file", "k2", "--anonymity-cap", "2000", "--remask", "-o", "d.geojson"])
            #expect(widened.status == 0)
            let d = try Self.positions(folder, "d.geojson")
            #expect(first.allSatisfy { d[$0.key] == $0.value } && d.count >= first.count)
            // Without the mask file nothing keeps the groups, and the run says so.
            let bare = try folder.run("pins", Self.seoul, "--zoom", "22", "--leaves", "--key-file", "k2", "--weak-no-mask-file", "-o", "e.geojson")
            #expect(bare.status == 0 && bare.stderr.contains("warning: --weak-no-mask-file"), "\(bare)")
        }
    }

    @Test("without a mask file, the same key with another offset range is a new draw: the two displayed points of a location are not on one ray from it")
    func rangeChangeLeavesNoRay() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.run("pins-key", "-o", "k")
            for (range, out) in [(["--max-offset", "80"], "a.geojson"), (["--max-offset", "100"], "b.geojson")] {
                let r = try folder.run(["pins", Self.seoul, "--zoom", "22", "--leaves", "--key-file", "k", "--weak-plain-mask", "--weak-no-mask-file", "-o", out] + range)
                try #require(r.status == 0, "\(r)")
            }
            let a = try Self.positions(folder, "a.geojson"), b = try Self.positions(folder, "b.geojson")
            var angles: [Double] = []
            for l in try PinsCommandTests.listings(Self.seoul) {
                guard let p = a[l.id]?.split(separator: ",").compactMap({ Double($0) }),
                      let q = b[l.id]?.split(separator: ",").compactMap({ Double($0) }) else { continue }
                let c = cos(l.lat * .pi / 180)
                let u = ((p[0] - l.lon) * c, p[1] - l.lat), v = ((q[0] - l.lon) * c, q[1] - l.lat)
                angles.append(abs(atan2(u.0 * v.1 - u.1 * v.0, u.0 * v.0 + u.1 * v.1)) * 180 / .pi)
            }
            #expect(angles.count > 4000)
            // Independent bearings: under 1° for about 1 location in 180 (the old draw: all of them).
            let onRay = angles.filter { $0 < 1 }.count
            #expect(Double(onRay) / Double(angles.count) < 0.02, "\(onRay) of \(angles.count) on one ray")
        }
    }

    @Test("new listings are added to the mask file; locations already in it keep their positions")
    func grows() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.run("pins-key", "-o", "k")
            let lines = try String(contentsOfFile: Self.seoul, encoding: .utf8).split(separator: "\n")
            try folder.write(lines.prefix(2001).joined(separator: "\n") + "\n", to: "part.csv")
            let p = try folder.run("pins", "part.csv", "--zoom", "22", "--leaves", "--key-file", "k", "--mask", "m", "-o", "p.geojson")
            try #require(p.status == 0, "\(p)")
            let size = try folder.data("m").count
            let all = try folder.run("pins", Self.seoul, "--zoom", "22", "--leaves", "--key-file", "k", "--mask", "m", "-o", "all.geojson")
            try #require(all.status == 0, "\(all)")
            #expect(try folder.data("m").count > size)
            let before = try Self.positions(folder, "p.geojson"), after = try Self.positions(folder, "all.geojson")
            let moved = before.filter { after[$0.key] != nil && after[$0.key] != $0.value }
            #expect(before.count > 1000 && moved.isEmpty, "\(moved.prefix(5).map { ($0, after[$0.key]!) })")
            // nearby uses the same file: every location is in it already, so it is not redrawn or grown.
            let stored = try folder.data("m")
            let n = try folder.run("nearby", Self.seoul, "--lat", "37.55", "--lon", "127.0", "--key-file", "k", "--mask", "m", "-o", "n.csv")
            #expect(n.status == 0, "\(n)")
            #expect(try folder.data("m") == stored)
            let bad = try folder.write("not a mask file", to: "bad.mask")
            let refused = try folder.run("pins", Self.seoul, "--zoom", "12", "--key-file", "k", "--mask", bad, "-o", "x.geojson")
            #expect(refused.status == 1 && refused.stderr.contains("not a usable mask file"), "\(refused)")
            let noKey = try folder.run("pins", Self.seoul, "--zoom", "12", "--no-privacy", "--mask", "m", "-o", "x.geojson")
            #expect(noKey.status == 64, "\(noKey)")
        }
    }
}

/// `bench --pins-zooms` as an attacker reads its report folder: no key, and no number pair
/// within 1 m of a true listing position, in any file.
@Suite("bench --pins-zooms publishes nothing true")
struct BenchPinsPublishNothingTrueTests {
    /// The true positions on a grid of 1e-4° cells, for a nearest-within-1 m test.
    struct Truth {
        var cells: [Int64: [(Double, Double)]] = [:]
        static func cell(_ lon: Double, _ lat: Double) -> (Int64, Int64) { (Int64((lon * 1e4).rounded(.down)), Int64((lat * 1e4).rounded(.down))) }
        init(_ listings: [TrueListing]) {
            for l in listings { let c = Self.cell(l.lon, l.lat); cells[c.0 << 32 ^ c.1, default: []].append((l.lon, l.lat)) }
        }
        /// Whether (lon, lat) lies within `tolerance` metres of a true position.
        var tolerance = 1.0
        func near(_ lon: Double, _ lat: Double) -> Bool {
            guard abs(lat) < 85, abs(lon) <= 180 else { return false }
            let c = Self.cell(lon, lat)
            for dx in -1...1 { for dy in -1...1 {
                for (x, y) in cells[(c.0 + Int64(dx)) << 32 ^ (c.1 + Int64(dy))] ?? [] where PinsCommandTests.metres(x, y, lon, lat) < tolerance { return true }
            } }
            return false
        }
    }

    /// Pairs of adjacent decimal numbers in `text`, either way round, that lie near a true
    /// position; in a cell's pins file only single-listing pins are read (a centroid of several
    /// displayed positions is their mean, which lands near some true position by chance), and in
    /// a viewports file the boxes' centres are read too.
    static func exposures(_ text: String, name: String, _ truth: Truth) -> Int {
        var lines = text.split(separator: "\n").map(String.init)
        if name.hasSuffix("pins.csv") && lines.first == "zoom,longitude,latitude,count" {
            lines = lines.filter { $0.hasSuffix(",1") }
        }
        var found = 0
        for line in lines {
            let numbers = line.split { !"0123456789.-".contains($0) }.filter { $0.contains(".") }.compactMap { Double($0) }
            for (a, b) in zip(numbers, numbers.dropFirst()) where truth.near(a, b) || truth.near(b, a) { found += 1 }
            if name.hasSuffix("viewports.csv") && numbers.count == 4 && truth.near((numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2) {
                found += 1
            }
        }
        return found
    }

    /// A key made for the run (none is written in the source); displayed positions are random
    /// relative to the data, so the tolerance is one where a chance coincidence is unlikely
    /// whatever the key: 10 cm on uniform data (at 1 m, about 1 run in 40 met one); 5 cm on Seoul's dense complexes, where a displayed
    /// point lands within 1 m of some other listing's true position by chance (a written true
    /// coordinate is within 1 cm).
    @Test("every output of bench --pins-zooms, scanned for the key and for true positions", arguments: [("uniform", 0.1), ("seoul", 0.05)])
    func reportFolderHoldsNoKeyAndNoTruePosition(scenario: String, tolerance: Double) throws {
        try withTemporaryFolder { folder throws in
            let g = try folder.run("generate", "--scenario", scenario, "--count", "3000", "--seed", "4", "-o", "l.csv")
            try #require(g.status == 0, "\(g)")
            let hex = PinsKey.generate().hexEncoded()
            _ = try folder.write(hex + "\n", to: "k")
            let r = try folder.run("bench", "--input", "l.csv", "--repeat", "1", "--methods", "grid", "--pins-zooms", "11-16",
                                   "--key-file", "k", "--out", "out", "--cache", "cache",
                                   "--peer-script", CLI.packageRoot + "/scripts/peers/peer_cell.py")
            try #require(r.status == 0, "\(r)")
            var truth = Truth(try PinsCommandTests.listings(folder.path("l.csv")))
            truth.tolerance = tolerance
            // The scan has power: it finds every listing of the input itself.
            #expect(Self.exposures(try folder.read("l.csv"), name: "l.csv", truth) >= 3000)
            let files = FileManager.default.enumerator(atPath: folder.path("out"))!.compactMap { $0 as? String }
            var scanned = 0
            for name in files {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder.path("out/" + name), isDirectory: &isFolder), !isFolder.boolValue else { continue }
                let bytes = try folder.data("out/" + name)
                #expect(bytes.range(of: Data(hex.utf8)) == nil && bytes.range(of: Data(hex.prefix(16).utf8)) == nil, "the key in \(name)")
                guard let text = String(data: bytes, encoding: .utf8) else { continue }
                scanned += 1
                #expect(Self.exposures(text, name: name, truth) == 0, "a true position in out/\(name)")
            }
            #expect(scanned >= 15 && files.contains("cells/l/pins/displayed.csv") && files.contains("cells/l/pins/supercluster/pins.csv"))
            #expect(!(r.stdout + r.stderr).contains(hex.prefix(16)))
            let settings = try folder.read("out/cells/l/pins/pinindex/report.json")
            #expect(settings.contains("privacy mask (30–80 m)") && !settings.contains("seed"))
        }
    }
}

@Suite("geocluster pins: building ids bound to places")
struct PinsBuildingSpoofTests {
    /// Three listings of building B1 at one place and one elsewhere, then `extra` rows.
    static func csv(_ extra: String) -> String {
        "id,lat,lon,deposit,building_id\n10,37.5000,127.0300,5,B1\n11,37.5000,127.0300,6,B1\n12,37.5000,127.0300,7,B1\n13,37.5100,127.0400,8,B2\n" + extra
    }

    @Test("a spoofed listing 100 m from its building (lower id) is left out on its own, named by id; its building stays, whatever the command")
    func spoofLeftOut() throws {
        try withTemporaryFolder { folder throws in
            // 0.0011° of longitude at 37.5° is about 97 m.
            _ = try folder.write(Self.csv("1,37.5000,127.0311,1,B1\n"), to: "l.csv")
            for command in [["pins", "l.csv", "--zoom", "22"], ["nearby", "l.csv", "--lat", "37.5", "--lon", "127.03"], ["map", "l.csv", "--zoom", "16"]] {
                let out = command[0] == "nearby" ? "o.csv" : command[0] == "map" ? "o.svg" : "o.geojson"
                let r = try folder.run(command + ["--insecure-test-seed", "1", "--min-anonymity", "2", "-o", out])
                #expect(r.status == 0, "\(r)")
                #expect(r.stderr.contains("1 listing left out") && r.stderr.contains("ids 1"), "\(r.stderr)")
                #expect(try !r.stderr.contains("127.03") && folder.contents().contains(out))
            }
            let pins = try PinsCommandTests.features(try folder.read("o.geojson"))
            #expect(pins.reduce(0) { $0 + $1.count } == 4, "B1's three listings and B2's one, the spoof alone left out")
            // The tolerance is at most 60 m: twice the spot of a guess.
            for bad in ["250", "-3"] {
                let r = try folder.run("pins", "l.csv", "--zoom", "22", "--insecure-test-seed", "1", "--location-tolerance", bad, "-o", "w.geojson")
                #expect(r.status == 64 && r.stderr.contains("--location-tolerance"), "\(r)")
            }
        }
    }

    @Test("listing ids as location keys (finer than buildings): the units of each building are one place, shown at one point, and the run names them; the mask file keeps them so")
    func unitKeysAreOnePlace() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.write(PinsKey.generate().hexEncoded() + "\n", to: "k")
            let truth = try PinsCommandTests.listings(PinsCommandTests.seoul)
            var points: [[String: Set<String>]] = []
            for name in ["a", "b"] {  // b: the same listings again, with the mask file a wrote
                let r = try folder.run("pins", PinsCommandTests.seoul, "--location-column", "id", "--zoom", "22", "--leaves",
                                       "--key-file", "k", "--mask", "m", "-o", "\(name).geojson")
                try #require(r.status == 0, "\(r)")
                #expect(name == "b" || (r.stderr.contains("location keys lie within 1 m of one another") && r.stderr.contains(" + ")), "\(r.stderr)")
                var shownAt: [String: String] = [:]
                for f in try PinsCommandTests.features(try folder.read("\(name).geojson")) { for id in f.leaves { shownAt[id] = "\(f.lon),\(f.lat)" } }
                var byBuilding: [String: Set<String>] = [:]
                for t in truth { if let p = shownAt[t.id] { byBuilding[t.building, default: []].insert(p) } }
                #expect(byBuilding.count > 300)
                #expect(byBuilding.values.allSatisfy { $0.count == 1 }, "a building's units shown at several points")
                points.append(byBuilding)
            }
            #expect(points[0] == points[1])
        }
    }

    @Test("an empty building_id is refused naming its line, exit 1; --skip-bad-rows drops it with a warning")
    func emptyKeyRefused() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.write(Self.csv("14,37.5200,127.0500,9,\n15,37.5300,127.0600,9, \n"), to: "l.csv")
            let r = try folder.run("pins", "l.csv", "--zoom", "22", "--insecure-test-seed", "1", "--min-anonymity", "2", "-o", "o.geojson")
            #expect(r.status == 1 && r.stderr.contains("lines 6, 7") && r.stderr.contains("'building_id' is empty"), "\(r)")
            let skipped = try folder.run("pins", "l.csv", "--zoom", "22", "--insecure-test-seed", "1", "--min-anonymity", "2", "--skip-bad-rows", "-o", "o.geojson")
            #expect(skipped.status == 0 && skipped.stderr.contains("is empty (2 listings); dropped"), "\(skipped)")
            #expect(try PinsCommandTests.features(try folder.read("o.geojson")).reduce(0) { $0 + $1.count } == 4)
        }
    }

    @Test("with --mask, adding listings to a published building leaves its displayed (shared) point byte-identical")
    func maskedBuildingNeverMoves() throws {
        try withTemporaryFolder { folder throws in
            _ = try folder.run("pins-key", "-o", "k")
            _ = try folder.write(Self.csv(""), to: "a.csv")
            // A new unit with a lower id, 9 m away (within the tolerance), and one more at the place.
            _ = try folder.write(Self.csv("1,37.5000,127.0301,1,B1\n20,37.5000,127.0300,2,B1\n"), to: "b.csv")
            let pins = ["--zoom", "22", "--leaves", "--key-file", "k", "--mask", "m", "--min-anonymity", "2"]
            let a = try folder.run(["pins", "a.csv"] + pins + ["-o", "a.geojson"])
            try #require(a.status == 0, "\(a)")
            let b = try folder.run(["pins", "b.csv"] + pins + ["-o", "b.geojson"])
            try #require(b.status == 0, "\(b)")
            let before = try PinsMaskFileTests.positions(folder, "a.geojson"), after = try PinsMaskFileTests.positions(folder, "b.geojson")
            #expect(before["10"] != nil && after["10"] == before["10"] && after["1"] == before["10"] && after["13"] == before["13"])
        }
    }
}

import Foundation
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
            runs.append(try folder.run(["pins", Self.seoul, "--zooms", "12-22", "--leaves", "-o", "b.geojson"], environment: ["GEOCLUSTER_PINS_KEY": hex]))
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
            // Another key moves every same-location pin.
            _ = try folder.run("pins-key", "-o", "k2")
            let other = try folder.run("pins", Self.seoul, "--zoom", "22", "--key-file", "k2", "-o", "c.geojson")
            try #require(other.status == 0)
            let a = Set(try PinsCommandTests.features(try folder.read("a.geojson")).filter { $0.zoom == 22 }.map { "\($0.lon),\($0.lat)" })
            #expect(try PinsCommandTests.features(try folder.read("c.geojson")).allSatisfy { !a.contains("\($0.lon),\($0.lat)") })
        }
    }

    @Test("a bad key file or variable: exit 1, a message naming it and what is wrong, no output", arguments: [
        ("missing.key", nil, "missing.key: cannot read the pins key file"),
        ("empty.key", "", "empty.key: the pins key file is empty"),
        ("short.key", String(repeating: "ab", count: 8) + "\n", "short.key: not a valid pins key: 16 hexadecimal digits"),
        ("text.key", "my secret password, 32 characters\n", "text.key: not a valid pins key: character 1"),
        ("big.key", String(repeating: "0", count: 5000), "big.key: not a pins key file"),
        ("ENV", String(repeating: "z", count: 64), "GEOCLUSTER_PINS_KEY: not a valid pins key"),
    ] as [(String, String?, String)])
    func badKey(name: String, content: String?, message: String) throws {
        try withTemporaryFolder { folder throws in
            var arguments = ["pins", Self.seoul, "--zoom", "12", "-o", "out.geojson"]
            var environment: [String: String] = [:]
            if name == "ENV" { environment["GEOCLUSTER_PINS_KEY"] = content } else {
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
            #expect(first.count > 4500)
            for change in [["--key-file", "k2"], ["--key-file", "k1", "--max-offset", "100"], ["--key-file", "k2", "--min-offset", "50", "--max-offset", "120"]] {
                let refused = try folder.run(pins + change + ["-o", "r.geojson"])
                #expect(refused.status == 1 && refused.stderr.contains("m was made with another") && refused.stderr.contains("--remask"), "\(refused)")
                #expect(try folder.data("m") == mask && !(try folder.contents().contains("r.geojson")))
            }
            let rotated = try folder.run(pins + ["--key-file", "k2", "--remask", "-o", "b.geojson"])
            try #require(rotated.status == 0, "\(rotated)")
            #expect(rotated.stderr.contains("warning: --remask") && rotated.stderr.contains("averages"))
            #expect(try Self.positions(folder, "b.geojson") == first)
            // The file now records k2: k2 runs without --remask, k1 is refused, positions stay.
            let again = try folder.run(pins + ["--key-file", "k2", "-o", "c.geojson"])
            #expect(again.status == 0 && !again.stderr.contains("warning"), "\(again)")
            #expect(try Self.positions(folder, "c.geojson") == first)
            let widened = try folder.run(pins + ["--key-file", "k2", "--max-offset", "300", "--remask", "-o", "d.geojson"])
            #expect(widened.status == 0)
            #expect(try Self.positions(folder, "d.geojson") == first)
            // Without the mask file, k2 draws every location anew: what the file prevents.
            let bare = try folder.run("pins", Self.seoul, "--zoom", "22", "--leaves", "--key-file", "k2", "-o", "e.geojson")
            try #require(bare.status == 0)
            let fresh = try Self.positions(folder, "e.geojson")
            #expect(first.allSatisfy { fresh[$0.key] != $0.value })
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
            #expect(before.count > 1900 && moved.isEmpty, "\(moved.prefix(5).map { ($0, after[$0.key]!) })")
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

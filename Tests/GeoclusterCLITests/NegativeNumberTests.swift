import Foundation
import Testing
import TestSupport

/// Every option that takes a number, a range or a box reads a value with a leading minus as
/// its value (`--lon -73.78`, `--bbox -75,40,-73,41.5`), not as the next option: the value is
/// then accepted, or refused by the option's own validation (exit 64, naming the flag), never
/// reported as missing. The options are found in `geocluster --experimental-dump-help`, so a
/// new option has to be classified here.
@Suite("negative numbers as option values")
struct NegativeNumberTests {
    /// Options whose value may begin with "-": numbers, ranges, boxes, zoom ranges, number
    /// lists, and `--noise-label` (any text, "-1" included). They are parsed `.unconditional`ly.
    static let minusValued: Set<String> = [
        "min-cluster-size", "min-samples", "epsilon", "max-cluster-size", "eps", "cell-size", "min-points",
        "threads", "area", "deposit", "rent", "bbox", "sizes", "repeat", "seed", "timeout", "sklearn-max-n",
        "pins-zooms", "min-probability", "ratio", "top", "count", "min-branch-width", "width", "height", "zoom",
        "zooms", "radius", "insecure-test-seed", "min-offset", "max-offset", "location-tolerance", "lat", "lon",
        "limit", "noise-label", "min-anonymity", "anonymity-cap", "target", "max-pins", "center-lon", "tile-size",
        "next-label",
    ]

    /// Every other option: names, files, choices from a list.
    static let otherOptions: Set<String> = [
        "lat-column", "lon-column", "x-column", "y-column", "id-column", "delimiter", "algorithm", "properties", "where",
        "min-samples-convention", "selection", "coordinates", "crs", "metric", "output", "condensed-tree", "mst", "category",
        "within", "scenarios", "input", "methods", "peers", "out", "cache", "peer-script", "key-file", "method",
        "parameters", "labels", "record", "baseline", "suite", "lanes", "against", "format", "report", "scenario",
        "truth", "truth-column", "labels-column", "noise", "lambda-scale", "title", "mask", "location-column", "hull",
        "implementation", "viewports", "pins", "encoding", "ties", "output-encoding", "disc-sizing", "save-model", "previous", "changes",
        "weight-column", "features", "scale",
    ]

    struct Case: CustomStringConvertible {
        var command: String
        var option: String
        var arguments: [String]
        /// 0 (accepted) or 64 (refused by validation).
        var status: Int32
        /// Text the output or error must hold.
        var fragment: String
        /// Whether a refusal names the option (not when another option stops the run).
        var namesOption = true
        var description: String { "geocluster \(command) \(arguments.joined(separator: " "))" }
    }

    // The inputs: a.csv (US airports, west of Greenwich, no id column), s.csv (300 generated
    // listings, with area, deposit and rent), and the labels `setUp` writes for them.
    static let nyc = "-75,40,-73,41.5"
    static let ranges = [("area", "-5..100"), ("deposit", "-100..5000"), ("rent", "-10..50")]

    static func cases() -> [Case] {
        var c: [Case] = []
        func add(_ command: String, _ option: String, _ value: String, _ rest: [String], _ status: Int32, _ fragment: String) {
            c.append(Case(command: command, option: option, arguments: rest + ["--\(option)", value], status: status, fragment: fragment,
                          namesOption: !(rest.contains("--repeat") && option != "repeat")))
        }
        let cluster = ["a.csv", "-o", "o.csv"]
        add("cluster", "min-cluster-size", "-5", cluster, 64, "--min-cluster-size -5 is invalid")
        add("cluster", "min-samples", "-2", cluster, 64, "--min-samples -2 is invalid")
        add("cluster", "epsilon", "-3", cluster, 64, "--epsilon -3.0 is invalid")
        add("cluster", "max-cluster-size", "-4", cluster, 64, "--max-cluster-size -4 is invalid")
        add("cluster", "eps", "-100", cluster + ["--algorithm", "dbscan"], 64, "--eps -100.0 is invalid")
        add("cluster", "cell-size", "-250", cluster + ["--algorithm", "grid"], 64, "--cell-size -250.0 is invalid")
        add("cluster", "min-points", "-2", cluster + ["--algorithm", "grid", "--cell-size", "100"], 64, "--min-points -2 is invalid")
        add("cluster", "threads", "-1", cluster, 64, "--threads must be at least 1")
        add("cluster", "bbox", nyc, cluster + ["--min-cluster-size", "2"], 0, "kept 8 of 37 rows")
        // bench would run a benchmark with valid values: `--repeat 0` stops it at validation,
        // after its filters were parsed.
        let bench = ["--out", "rep"]
        add("bench", "sizes", "-10k", bench, 64, "'-10k' is not a size")
        add("bench", "repeat", "-3", bench, 64, "--repeat must be at least 1")
        add("bench", "seed", "-1", bench, 64, "The value '-1' is invalid for '--seed")
        add("bench", "threads", "-2", bench, 64, "--threads must be at least 1")
        add("bench", "timeout", "-600", bench, 64, "--timeout must be a number of seconds > 0")
        add("bench", "sklearn-max-n", "-5", bench, 64, "--sklearn-max-n -5: a number of points")
        add("bench", "min-cluster-size", "-30", bench, 64, "--min-cluster-size -30 is invalid")
        add("bench", "min-samples", "-15", bench, 64, "--min-samples -15 is invalid")
        add("bench", "eps", "-100", bench, 64, "--eps -100.0 is invalid")
        add("bench", "cell-size", "-250", bench, 64, "--cell-size -250.0 is invalid")
        add("bench", "min-points", "-10", bench, 64, "--min-points -10 is invalid")
        add("bench", "pins-zooms", "-3-5", bench, 64, "The value '-3-5' is invalid for '--pins-zooms")
        add("bench", "bbox", nyc, bench + ["--repeat", "0"], 64, "--repeat must be at least 1")
        add("bench-cell", "threads", "-1", ["a.csv", "--method", "hdbscan", "--parameters", "min_cluster_size=5",
                                            "--labels", "l.csv", "--record", "r.json"], 64, "--threads must be at least 1 and at most 1024 (worker threads; got -1)")
        add("check", "repeat", "-3", [], 64, "--repeat -3: the timed lanes need at least 3 repeats")
        add("check", "threads", "-1", [], 64, "--threads must be at least 1 and at most 1024 (worker threads; got -1)")
        let hulls = ["a.csv", "--labels", "L.csv", "-o", "H.geojson"]
        add("hulls", "ratio", "-0.5", hulls, 64, "--ratio must be within 0…1")
        add("hulls", "top", "-1", hulls, 64, "--top must be at least 0")
        add("hulls", "threads", "-1", hulls, 64, "--threads must be at least 1")
        add("hulls", "min-probability", "-0.1", hulls, 64, "--min-probability -0.1 is invalid")
        add("hulls", "bbox", nyc, ["a.csv", "--labels", "LB.csv", "-o", "H.geojson"], 0, "noise points of 8")
        add("generate", "count", "-5", ["-o", "g.csv"], 64, "--count must be at least 1")
        add("generate", "seed", "-1", ["-o", "g.csv"], 64, "The value '-1' is invalid for '--seed")
        add("generate", "bbox", "-180,-90,180,90", ["--count", "10", "-o", "g.csv"], 0, "kept 10 of 10 rows")
        add("score", "bbox", nyc, ["--truth", "a.csv", "--truth-column", "state", "--labels", "LB.csv"], 0, "kept 8 of 37 rows of a.csv")
        add("score", "noise-label", "-1", ["--truth", "t.csv", "--labels", "L.csv"], 0, "37 rows, 2 labels, 1 noise")
        add("bench", "noise-label", "-1", ["--input", "missing.csv"], 1, "--input missing.csv: no such readable file")
        let tree = ["a.csv", "-o", "t.svg"]
        add("tree", "min-cluster-size", "-3", tree, 64, "--min-cluster-size -3 is invalid")
        add("tree", "min-samples", "-2", tree, 64, "--min-samples -2 is invalid")
        add("tree", "epsilon", "-3", tree, 64, "--epsilon -3.0 is invalid")
        add("tree", "max-cluster-size", "-4", tree, 64, "--max-cluster-size -4 is invalid")
        add("tree", "threads", "-1", tree, 64, "--threads must be at least 1")
        add("cluster", "next-label", "-3", cluster + ["--previous", "p.csv"], 64, "--next-label -3 is invalid")
        add("predict", "threads", "-1", ["m.gcm", "a.csv", "-o", "o.csv"], 64, "--threads must be at least 1")
        add("tree", "min-branch-width", "-2", tree, 64, "--min-branch-width must be a width >= 0")
        add("tree", "width", "-1000", tree, 64, "--width and --height must be within 200…20000 px")
        add("tree", "height", "-700", tree, 64, "--width and --height must be within 200…20000 px")
        let labelMap = ["a.csv", "--labels", "L.csv", "-o", "m.svg"], pinMap = ["a.csv", "--zoom", "9", "--no-privacy", "-o", "m.svg"]
        add("map", "ratio", "-0.2", labelMap, 64, "--ratio must be within 0…1")
        add("map", "min-probability", "-0.5", labelMap, 64, "--min-probability -0.5 is invalid")
        add("map", "max-pins", "-2", labelMap, 64, "--max-pins must be 0 or more, got -2")
        add("map", "center-lon", "-120", labelMap, 0, "map written to m.svg")
        add("map", "zoom", "-1", ["a.csv", "--no-privacy", "-o", "m.svg"], 64, "--zoom -1.0 is outside 0–22")
        add("map", "bbox", nyc, pinMap, 0, "8 pins at zoom 9 over 8 listings")
        add("map", "radius", "-40", pinMap, 64, "--radius must be a number of pixels > 0")
        add("filter", "bbox", nyc, ["a.csv", "-o", "f.csv"], 0, "kept 8 of 37 rows")
        let pins = ["a.csv", "--zoom", "8", "--no-privacy", "-o", "p.geojson"]
        add("pins", "zoom", "-1", ["a.csv", "--no-privacy", "-o", "p.geojson"], 64, "--zoom -1.0 is outside 0–22")
        add("pins", "zooms", "-3-5", ["a.csv", "--no-privacy", "-o", "p.geojson"], 64, "The value '-3-5' is invalid for '--zooms")
        add("pins", "bbox", nyc, pins, 0, "pins per zoom: z8")
        add("pins", "radius", "-40", pins, 64, "--radius must be a number of pixels > 0")
        add("pins", "tile-size", "-512", pins, 64, "--tile-size -512: give 256 or 512")
        add("pins", "min-samples", "-2", pins, 64, "--min-samples -2 is invalid: must be at least 1")
        add("pins", "min-points", "2", pins, 64, "--min-points is now --min-samples")
        add("pins-cell", "zooms", "-1-5", ["a.csv", "--implementation", "grid", "--viewports", "v", "--pins", "p",
                                           "--labels", "l", "--report", "r"], 64, "The value '-1-5' is invalid for '--zooms")
        add("pins-cell", "insecure-test-seed", "-1", ["a.csv", "--implementation", "grid", "--zooms", "1-5", "--viewports", "v",
                                                      "--pins", "p", "--labels", "l", "--report", "r"], 64, "is invalid for '--insecure-test-seed")
        let nearby = ["a.csv", "--lat", "40.64", "--no-privacy"]
        add("nearby", "lat", "-33.94", ["a.csv", "--lon", "151.18", "--no-privacy"], 0, "0 listings within 5000 m")
        add("nearby", "lon", "-73.78", ["a.csv", "--lat", "40.64", "--no-privacy"], 0, "0,200,40.6413000,-73.7781000")
        add("nearby", "radius", "-5km", nearby + ["--lon", "-73.78"], 64, "--radius must be above 0")
        add("nearby", "limit", "-3", nearby + ["--lon", "-73.78"], 64, "--limit must be at least 1")

        // The shared option groups, in every command that has them.
        for (command, rest) in [("map", pinMap), ("pins", pins), ("nearby", nearby + ["--lon", "-73.78"])] {
            let source = rest.filter { $0 != "--no-privacy" }
            add(command, "insecure-test-seed", "-1", source, 64, "is invalid for '--insecure-test-seed")
            add(command, "min-offset", "-30", rest + ["--weak-plain-mask"], 64, "--min-offset -30.0 must be a distance")
            add(command, "max-offset", "-80", rest + ["--weak-plain-mask"], 64, "--max-offset -80.0 must be above --min-offset")
            add(command, "location-tolerance", "-5", rest, 64, "--location-tolerance -5.0 must be a distance of 0...60")
            add(command, "min-anonymity", "-5", source + ["--key-file", "k", "--mask", "m"], 64, "--min-anonymity -5 must be 2...")
            add(command, "anonymity-cap", "-5", rest, 64, "--anonymity-cap -5.0 must be a distance above 120 m")
            add(command, "threads", "-2", rest, 64, "--threads must be at least 1")
        }
        let privacy = ["a.csv", "--key-file", "k", "-o", "r.csv"]
        add("privacy", "min-anonymity", "-5", privacy, 64, "--min-anonymity -5 must be 2...")
        add("privacy", "anonymity-cap", "-5", privacy, 64, "--anonymity-cap -5.0 must be a distance above 120 m")
        add("privacy", "min-offset", "-30", privacy + ["--weak-plain-mask"], 64, "--min-offset -30.0 must be a distance")
        add("privacy", "max-offset", "-80", privacy + ["--weak-plain-mask"], 64, "--max-offset -80.0 must be above --min-offset")
        add("privacy", "location-tolerance", "-5", privacy, 64, "--location-tolerance -5.0 must be a distance of 0...60")
        add("privacy", "insecure-test-seed", "-1", ["a.csv", "-o", "r.csv"], 64, "is invalid for '--insecure-test-seed")
        add("privacy", "target", "-5", privacy, 64, "--target -5 must be at least 2")
        add("privacy", "threads", "-2", privacy, 64, "--threads must be at least 1")
        for (option, value) in ranges {
            add("cluster", option, value, ["s.csv", "-o", "o.csv"], 0, " of 300 rows")
            add("filter", option, value, ["s.csv", "-o", "f.csv"], 0, " of 300 rows")
            add("hulls", option, value, ["s.csv", "--labels", "LS-\(option).csv", "-o", "H.geojson"], 0, "clusters,")
            add("score", option, value, ["--truth", "s.csv", "--labels", "LS-\(option).csv"], 0, " of 300 rows of s.csv")
            add("generate", option, value, ["--count", "50", "-o", "g.csv"], 0, " of 50 rows")
            add("bench", option, value, bench + ["--repeat", "0"], 64, "--repeat must be at least 1")
            add("pins", option, value, ["s.csv", "--zoom", "8", "--no-privacy", "-o", "p.geojson"], 0, "pins per zoom: z8")
            add("nearby", option, value, ["s.csv", "--lat", "37.55", "--lon", "126.98", "--radius", "50km", "--no-privacy"], 0, "listings within 50000 m")
        }
        return c
    }

    /// Writes the inputs and the labels the accepted cases read.
    static func setUp(_ folder: TemporaryFolder) throws {
        try FileManager.default.copyItem(atPath: TestPaths.fixtures("airports").appendingPathComponent("us-airports.csv").path,
                                         toPath: folder.path("a.csv"))
        var runs = [["generate", "--count", "300", "-o", "s.csv"],
                    ["cluster", "a.csv", "--min-cluster-size", "2", "-o", "L.csv"],
                    ["cluster", "a.csv", "--min-cluster-size", "2", "--bbox", nyc, "-o", "LB.csv"]]
        runs += ranges.map { ["cluster", "s.csv", "--\($0.0)", $0.1, "-o", "LS-\($0.0).csv"] }
        for arguments in runs {
            let r = try folder.run(arguments)
            try #require(r.status == 0, "\(arguments): \(r)")
        }
        // A text truth column in which "-1" is one of the values (a label unless --noise-label -1).
        let states = try String(contentsOfFile: folder.path("a.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
        try folder.write("truth\n" + states.enumerated().map { $0.offset == 3 ? "-1\n" : ($0.offset < 20 ? "east\n" : "west\n") }.joined(),
                         to: "t.csv")
    }

    @Test("every number, range and box option takes a value with a leading minus: accepted, or refused naming the flag (exit 64)")
    func everyOption() throws {
        try withTemporaryFolder { folder throws in
            try Self.setUp(folder)
            for c in Self.cases() {
                let r = try folder.run([c.command] + c.arguments)
                let both = r.stdout + r.stderr
                #expect(r.status == c.status, "\(c): \(r)")
                #expect(both.contains(c.fragment), "\(c): no \"\(c.fragment)\" in \(r)")
                for misread in ["Missing value", "Unknown option", "Unexpected argument"] {
                    #expect(!r.stderr.contains(misread), "\(c): \(r)")
                }
                if c.status == 64 && c.namesOption { #expect(r.stderr.contains("--\(c.option)"), "\(c): \(r)") }
            }
        }
    }

    @Test("every option is classified; those that take a number, range or box are parsed unconditionally and have a case above")
    func everyOptionIsCovered() throws {
        try withTemporaryFolder { folder throws in
            let r = try folder.run("--experimental-dump-help")
            try #require(r.status == 0, "\(r)")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            var found: [(command: String, option: String, strategy: String)] = []
            func walk(_ command: [String: Any]) {
                let name = command["commandName"] as? String ?? "?"
                for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option" {
                    let names = (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }
                    for long in names { found.append((name, long["name"] as? String ?? "?", argument["parsingStrategy"] as? String ?? "?")) }
                }
                for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub) }
            }
            walk(try #require(root["command"] as? [String: Any]))
            #expect(found.count > 150, "the dump lists every command's options")
            let covered = Set(Self.cases().map { "\($0.command) --\($0.option)" })
            for f in found {
                let key = "\(f.command) --\(f.option)"
                if Self.minusValued.contains(f.option) {
                    #expect(f.strategy == "unconditional", "\(key) takes a number, range or box: give it parsing: .unconditional")
                    #expect(covered.contains(key), "\(key): add a case with a negative value to NegativeNumberTests.cases()")
                } else {
                    #expect(Self.otherOptions.contains(f.option), "\(key) is new: add it to NegativeNumberTests.minusValued (a number, range or box: then parse it .unconditional) or to otherOptions")
                }
            }
            let all = Set(found.map { "\($0.command) --\($0.option)" })
            for key in covered.subtracting(all) { Issue.record("case \(key) names an option the command does not have") }
        }
    }

    @Test("a value left out is still reported: at the end as missing, before another option as that option taken for the value")
    func missingValue() throws {
        try withTemporaryFolder { folder throws in
            try FileManager.default.copyItem(atPath: TestPaths.fixtures("airports").appendingPathComponent("us-airports.csv").path,
                                             toPath: folder.path("a.csv"))
            var r = try folder.run("nearby", "a.csv", "--no-privacy", "--lat", "40.64", "--lon")
            #expect(r.status == 64 && r.stderr.contains("Missing value for '--lon <lon>'"), "\(r)")
            r = try folder.run("nearby", "a.csv", "--no-privacy", "--lon", "--lat", "40.64")
            #expect(r.status == 64 && r.stderr.contains("The value '--lat' is invalid for '--lon <lon>'"), "\(r)")
            r = try folder.run("filter", "a.csv", "--bbox", "-o", "f.csv")
            #expect(r.status == 64 && r.stderr.contains("The value '-o' is invalid for '--bbox <box>': give four numbers"), "\(r)")
            #expect(try folder.contents() == ["a.csv"])
        }
    }

    @Test("US airports: nearby --lat 40.64 --lon -73.78 lists JFK then LaGuardia; filter --bbox -75,40,-73,41.5 keeps the New York area")
    func airportsWestOfGreenwich() throws {
        try withTemporaryFolder { folder throws in
            try FileManager.default.copyItem(atPath: TestPaths.fixtures("airports").appendingPathComponent("us-airports.csv").path,
                                             toPath: folder.path("airports.csv"))
            var r = try folder.run("nearby", "airports.csv", "--lat", "40.64", "--lon", "-73.78", "--radius", "30km", "--no-privacy")
            try #require(r.status == 0, "\(r)")
            let rows = parseCSV(r.stdout)
            #expect(rows.map { $0.first ?? "" } == ["id", "0", "1"], "JFK (row 0), LaGuardia (row 1): \(r.stdout)")
            #expect(rows.dropFirst().map { $0[1] } == ["200", "17200"], "\(r.stdout)")
            // The same with --lon=-73.78, the one spelling that worked before.
            let equals = try folder.run("nearby", "airports.csv", "--lat", "40.64", "--lon=-73.78", "--radius", "30km", "--no-privacy")
            #expect(equals.stdout == r.stdout, "\(equals)")

            r = try folder.run("filter", "airports.csv", "--bbox", "-75,40,-73,41.5", "-o", "nyc.csv")
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("kept 8 of 37 rows"), "\(r)")
            let kept = parseCSV(try folder.read("nyc.csv")).dropFirst().map { $0[0] }
            #expect(kept == ["JFK", "LGA", "EWR", "TEB", "HPN", "ISP", "FRG", "TTN"])
        }
    }
}

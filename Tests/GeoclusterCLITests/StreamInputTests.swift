import Foundation
import Testing
import TestSupport

/// Every command that reads a file reads it the same way from a pipe (`-` and `/dev/stdin`)
/// and gzip-compressed (a `.gz` file, or gzip bytes on a pipe): the outputs are byte for byte
/// those of the plain file.
@Suite("input from pipes and gzip")
struct StreamInputTests {
    /// One reading command: its arguments with `IN` where the input goes and `OUT` where its
    /// output file goes (its extension `output`; nil: the command prints its result).
    struct Reader: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var output: String?
        /// The input replaced by IN: the listings (nil) or another file the command reads.
        var input: String? = nil
        var testDescription: String { name }
    }

    static let readers: [Reader] = [
        Reader(name: "cluster --append", arguments: ["cluster", "IN", "--append", "-o", "OUT"], output: "csv"),
        Reader(name: "cluster to GeoJSON", arguments: ["cluster", "IN", "-o", "OUT"], output: "geojson"),
        Reader(name: "filter", arguments: ["filter", "IN", "--bbox", "126.9,37.4,127.2,37.7", "-o", "OUT"], output: "csv"),
        Reader(name: "tree", arguments: ["tree", "IN", "-o", "OUT"], output: "svg"),
        Reader(name: "map", arguments: ["map", "IN", "--labels", "labels.csv", "-o", "OUT"], output: "svg"),
        Reader(name: "project", arguments: ["project", "IN", "--crs", "EPSG:5186", "-o", "OUT"], output: "csv"),
        Reader(name: "pins", arguments: ["pins", "IN", "--key-file", "k.key", "--weak-no-mask-file", "--zoom", "14", "-o", "OUT"],
               output: "geojson"),
        Reader(name: "privacy", arguments: ["privacy", "IN", "--key-file", "k.key", "-o", "OUT"], output: "csv"),
        Reader(name: "hulls (labels piped)", arguments: ["hulls", "data.csv", "--labels", "IN", "-o", "OUT"], output: "geojson",
               input: "labels.csv"),
        Reader(name: "score (labels piped)", arguments: ["score", "--truth", "data.csv", "--labels", "IN"],
               output: nil, input: "labels.csv"),
        Reader(name: "filter --within (region piped)", arguments: ["filter", "data.csv", "--within", "IN", "-o", "OUT"],
               output: "csv", input: "region.geojson"),
    ]

    /// The listings, a key, labels and a region in `folder`, and gzip copies of each.
    static func prepare(_ folder: TemporaryFolder) throws {
        #expect(try folder.run("generate", "--count", "400", "--seed", "3", "-o", "data.csv").status == 0)
        #expect(try folder.run("generate", "--count", "400", "--seed", "3", "-o", "data.geojson").status == 0)
        #expect(try folder.run("pins-key", "-o", "k.key").status == 0)
        #expect(try folder.run("cluster", "data.csv", "-o", "labels.csv").status == 0)
        _ = try folder.write("""
            {"type":"Polygon","coordinates":[[[126.9,37.4],[127.2,37.4],[127.2,37.7],[126.9,37.7],[126.9,37.4]]]}
            """, to: "region.geojson")
        for name in ["data.csv", "data.geojson", "labels.csv", "region.geojson"] {
            try gzip(folder.path(name), to: folder.path(name + ".gz"))
        }
    }

    static func gzip(_ path: String, to destination: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "gzip -c -n \"$0\" > \"$1\"", path, destination]
        try p.run(); p.waitUntilExit()
        try #require(p.terminationStatus == 0, "gzip \(path)")
    }

    @Test("the output from a pipe (- and /dev/stdin) and from gzip (file and pipe) equals the file's, byte for byte",
          arguments: readers)
    func pipedEqualsFile(_ reader: Reader) throws {
        try withTemporaryFolder { folder throws in
            try Self.prepare(folder)
            let input = reader.input ?? "data.csv"
            func run(_ source: String, _ tag: String, stdin: Data? = nil) throws -> Data {
                let out = reader.output.map { "out-\(tag).\($0)" }
                let args = reader.arguments.map { $0 == "IN" ? source : $0 == "OUT" ? out ?? "" : $0 }
                let r = try stdin.map { try folder.run(args, stdin: $0) } ?? folder.run(args)
                #expect(r.status == 0 && !r.crashed, "\(reader.name), \(tag): \(r)")
                guard let out else { return Self.naming(Data(r.stdout.utf8), source, as: input) }
                #expect((r.stderr + r.stdout).contains(out), "\(reader.name), \(tag) names its output: \(r)")
                return Self.naming(try folder.data(out), source, as: input)
            }
            let file = try run(input, "file")
            #expect(file.count > 100, "\(reader.name) wrote \(file.count) bytes")
            let plain = try folder.data(input), compressed = try folder.data(input + ".gz")
            #expect(try run("-", "dash", stdin: plain) == file, "\(reader.name): - differs")
            #expect(try run("/dev/stdin", "devstdin", stdin: plain) == file, "\(reader.name): /dev/stdin differs")
            #expect(try run(input + ".gz", "gz") == file, "\(reader.name): .gz differs")
            #expect(try run("-", "gzpipe", stdin: compressed) == file, "\(reader.name): gzip on a pipe differs")
        }
    }

    /// `data` with the places where a command names its input (a map's title, a tree's
    /// caption, score's summary) naming `input` instead of `source`.
    static func naming(_ data: Data, _ source: String, as input: String) -> Data {
        guard source != input else { return data }
        var text = String(decoding: data, as: UTF8.self)
        let file = URL(fileURLWithPath: source).lastPathComponent
        for (a, b) in [(">\(source)<", ">\(input)<"), (">\(file)<", ">\(input)<"), (">\(source): ", ">\(input): "),
                       ("labels: \(source) (", "labels: \(input) (")] {
            text = text.replacingOccurrences(of: a, with: b)
        }
        return Data(text.utf8)
    }

    @Test("GeoJSON from a pipe is told by its first byte, and gives the same labels as the .geojson file")
    func geoJSONOnAPipe() throws {
        try withTemporaryFolder { folder throws in
            try Self.prepare(folder)
            #expect(try folder.run("cluster", "data.geojson", "-o", "a.csv").status == 0)
            let piped = try folder.run(["cluster", "-", "-o", "b.csv"], stdin: folder.data("data.geojson.gz"))
            #expect(piped.status == 0, "\(piped)")
            #expect(try folder.data("a.csv") == folder.data("b.csv"))
        }
    }

    @Test("damaged or cut-short gzip input is an error naming the file, and nothing is written")
    func damagedGzip() throws {
        try withTemporaryFolder { folder throws in
            try Self.prepare(folder)
            let whole = try folder.data("data.csv.gz")
            _ = try folder.write(bytes: Array(whole.prefix(whole.count / 2)), to: "cut.csv.gz")
            var broken = Array(whole)
            for i in 40..<60 { broken[i] ^= 0x5A }
            _ = try folder.write(bytes: broken, to: "broken.csv.gz")
            for name in ["cut.csv.gz", "broken.csv.gz"] {
                let r = try folder.run("cluster", name, "-o", "x.csv")
                #expect(r.status != 0 && !r.crashed, "\(r)")
                #expect(r.stderr.contains("\(name): gzip-compressed, but"), "\(r)")
                #expect(!FileManager.default.fileExists(atPath: folder.path("x.csv")))
            }
        }
    }

    @Test("no temporary copy is left behind after a piped run")
    func copiesAreRemoved() throws {
        try withTemporaryFolder { folder throws in
            try Self.prepare(folder)
            let tmp = folder.path("tmp")
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
            let r = try CLI.run(["cluster", "-", "--append", "-o", "x.csv"], in: folder.url, environment: ["TMPDIR": tmp],
                                stdin: folder.data("data.csv.gz"))
            #expect(r.status == 0, "\(r)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
        }
    }
}

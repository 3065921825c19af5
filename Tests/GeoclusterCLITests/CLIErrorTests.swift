import Foundation
import Testing
import TestSupport

/// A malformed input and what the error message must contain. Inputs have lat,lon columns so
/// that both `cluster` and `project` read them.
struct InputErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// The input file's text, or nil for no file at all.
    var input: String?
    /// Fragments that the message on standard error must contain.
    var fragments: [String]

    var testDescription: String { name }

    static let all: [InputErrorCase] = [
        .init(name: "missing input file", input: nil, fragments: ["IN.csv: no such file"]),
        .init(name: "empty file", input: "", fragments: ["IN.csv: the file is empty"]),
        .init(name: "header only", input: "id,lat,lon\n", fragments: ["IN.csv: the file has a header row but no data rows"]),
        .init(name: "no coordinate columns", input: "id,north,east\n1,37.5,127\n", fragments: ["IN.csv: no ", "id, north, east"]),
        .init(name: "non-numeric coordinate", input: "id,lat,lon\n1,37.5,127.0\n2,abc,127.0\n",
              fragments: ["IN.csv:3:", "'lat'", "'abc' is not a number"]),
        .init(name: "NaN", input: "id,lat,lon\n1,37.5,127.0\n2,37.5,NaN\n", fragments: ["IN.csv:3:", "'lon'", "not a finite number"]),
        .init(name: "latitude 91", input: "id,lat,lon\n1,37.5,127.0\n2,91,127.0\n", fragments: ["IN.csv:3:", "'lat'", "±90"]),
        .init(name: "ragged row", input: "id,lat,lon\n1,37.5,127.0\n2,37.5\n",
              fragments: ["IN.csv:3:", "row has 2 field(s) but the header has 3"]),
        .init(name: "unterminated quote (after a two-line field)",
              input: "id,name,lat,lon\n1,\"two\nlines\",37.5,127.0\n2,\"open,37.5,127.0\n3,x,37.5,127.0\n",
              fragments: ["IN.csv:4:", "quoted field is never closed"]),
    ]
}

@Suite("geocluster errors")
struct CLIErrorTests {
    static let commands = ["cluster", "project"]

    @Test("a bad input exits 1 naming file, line and column, and writes nothing",
          arguments: InputErrorCase.all, commands)
    func badInput(_ c: InputErrorCase, command: String) throws {
        try withTemporaryFolder { folder throws in
            if let text = c.input { try folder.write(text, to: "IN.csv") }
            let before = try folder.contents()
            let r = try folder.run(command, "IN.csv", "--output", "OUT.csv")
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr.hasPrefix("geocluster: error: "), "\(r)")
            for f in c.fragments { #expect(r.stderr.contains(f), "missing \"\(f)\" in \(r.stderr)") }
            #expect(r.stdout.isEmpty)
            #expect(try folder.contents() == before, "no output (or temporary) file may be left")
        }
    }

    @Test("x,y input with a non-numeric coordinate names line 3 and the column", arguments: ["x", "y"])
    func nonNumericXY(column: String) throws {
        try withTemporaryFolder { folder throws in
            let bad = column == "x" ? "oops,2" : "1,oops"
            try folder.write("id,x,y\n1,1,2\n2,\(bad)\n", to: "IN.csv")
            let r = try folder.run("cluster", "IN.csv", "--output", "OUT.csv")
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr.contains("IN.csv:3: column '\(column)': 'oops' is not a number"), "\(r)")
            #expect(try folder.contents() == ["IN.csv"])
        }
    }

    @Test("an output folder that does not exist exits 1 naming the output path and creates nothing",
          arguments: commands)
    func outputFolderMissing(command: String) throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.seoul(perBlob: 10).text, to: "IN.csv")
            let options = command == "cluster" ? ["--min-cluster-size", "5", "--crs", "EPSG:5179"] : []
            let r = try folder.run([command, "IN.csv", "--output", "missing/OUT.csv"] + options)
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr.contains("geocluster: error: missing/OUT.csv: the output folder does not exist"), "\(r)")
            #expect(try folder.contents() == ["IN.csv"])
        }
    }

    /// `cluster` is parsed on a short path with itself as the root command; help and usage
    /// errors must still come from the full command tree, naming `geocluster cluster`.
    @Test("cluster help and usage errors name the full command", arguments: [["--help"], ["-h"], ["IN.csv"]])
    func clusterHelpNamesFullCommand(arguments: [String]) throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.planar(perBlob: 10).text, to: "IN.csv")
            let r = try folder.run(["cluster"] + arguments)
            let help = arguments != ["IN.csv"]
            #expect(r.status == (help ? 0 : 64), "\(r)")
            #expect((help ? r.stdout : r.stderr).contains(help ? "USAGE: geocluster cluster " : "Usage: geocluster cluster "), "\(r)")
            #expect(!(r.stdout + r.stderr).contains("USAGE: cluster") && !(r.stdout + r.stderr).contains("Usage: cluster"), "\(r)")
            if help { #expect(r.stdout.contains("--version"), "the root's options are listed too: \(r)") }
        }
    }

    @Test("usage mistakes exit 64 with a message naming the option, and write nothing", arguments: [
        ["cluster", "IN.csv", "--output", "OUT.csv", "--min-cluster-size", "1"],
        ["cluster", "IN.csv", "--output", "OUT.csv", "--threads", "0"],
        ["cluster", "IN.csv", "--output", "OUT.csv", "--min-samples", "0"],
        ["cluster", "IN.csv", "--output", "OUT.csv", "--no-such-option"],
        ["cluster", "IN.csv", "--output", "OUT.csv", "--min-cluster-size", "ten"],
        ["cluster", "IN.csv"],
        ["project", "IN.csv", "--output", "OUT.csv", "--bogus", "1"],
    ])
    func usageMistakes(arguments: [String]) throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.planar(perBlob: 10).text, to: "IN.csv")
            let r = try folder.run(arguments)
            #expect(r.status == 64, "\(r)")
            #expect(r.stderr.contains("Error:"), "\(r)")
            // The message names what was wrong: the option, or the missing --output.
            let named = arguments.last { $0.hasPrefix("--") } ?? "--output"
            #expect(r.stderr.contains(named), "\(r)")
            #expect(try folder.contents() == ["IN.csv"])
        }
    }
}

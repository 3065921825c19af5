import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

@Suite("geocluster map")
struct MapCommandTests {
    static let seoul = TestPaths.packageRoot.appendingPathComponent("datasets/seoul-5k.csv").path

    /// Clusters datasets/seoul-5k.csv into L.csv in `folder` (33 clusters, 917 noise).
    static func clusterSeoul(in folder: TemporaryFolder) throws {
        let clustered = try folder.run("cluster", seoul, "--min-cluster-size", "30", "--min-samples", "15",
                                       "--output", "L.csv")
        try #require(clustered.status == 0, "\(clustered)")
    }

    @Test("maps the Seoul listings clustered by HDBSCAN: well-formed SVG that rsvg-convert renders")
    func seoulMap() throws {
        try withTemporaryFolder { folder throws in
            try Self.clusterSeoul(in: folder)
            let r = try folder.run("map", Self.seoul, "--labels", "L.csv", "--output", "map.svg")
            try #require(r.status == 0, "\(r)")
            #expect(r.stdout.hasPrefix("33 clusters, 917 noise points of 5000; map written to map.svg"), "\(r.stdout)")
            let svg = try folder.read("map.svg")
            let parser = XMLParser(data: Data(svg.utf8))
            #expect(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "") at line \(parser.lineNumber)")
            #expect(svg.contains("<title>seoul-5k.csv</title>"))
            // A pin per cluster unless it would cover a larger one's (the legend says how many),
            // one closed concave hull per cluster.
            let pins = svg.components(separatedBy: "stroke=\"#ffffff\" stroke-width=\"2\"").count - 1
            #expect(pins == 33 ? svg.contains("Pin for each cluster") : svgText(svg).contains("Pins: \(pins) of 33 clusters"), "\(pins) pins")
            #expect(pins > 20)
            #expect(svg.components(separatedBy: "Z\" fill=\"#").count - 1 == 33)

            let rsvg = Process()
            rsvg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            rsvg.arguments = ["rsvg-convert", "-o", folder.path("map.png"), folder.path("map.svg")]
            try rsvg.run()
            rsvg.waitUntilExit()
            #expect(rsvg.terminationStatus == 0)
            let png = try folder.data("map.png")
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000)
        }
    }

    @Test("--no-pins, --max-pins and --bbox on a labels map; pin options refused with --zoom")
    func pinOptionsAndBox() throws {
        try withTemporaryFolder { folder throws in
            try Self.clusterSeoul(in: folder)
            func pins(_ arguments: String...) throws -> (Int, String) {
                let r = try folder.run(["map", Self.seoul, "--labels", "L.csv", "-o", "m.svg"] + arguments)
                try #require(r.status == 0, "\(r)")
                let svg = try folder.read("m.svg")
                return (svg.components(separatedBy: "stroke=\"#ffffff\" stroke-width=\"2\"").count - 1, svg)
            }
            let (none, noneSVG) = try pins("--no-pins")
            #expect(none == 0 && noneSVG.contains(">No pins</text>"))
            #expect(noneSVG.components(separatedBy: "Z\" fill=\"#").count - 1 == 33, "outlines stay")
            let (three, threeSVG) = try pins("--max-pins", "3")
            #expect(three >= 1 && three <= 3 && svgText(threeSVG).contains("(the 3 largest at most)"))
            // A box over part of the city: the rest is left out and counted.
            let (_, boxSVG) = try pins("--bbox", "126.9,37.45,127.0,37.6")
            #expect(svgText(boxSVG).contains("points left out: outside the box shown."), "\(svgText(boxSVG))")
            let refused = try folder.run("map", Self.seoul, "--zoom", "12", "--no-privacy", "--max-pins", "5", "-o", "z.svg")
            #expect(refused.status == 64 && refused.stderr.contains("--max-pins and --no-pins go with --labels"), "\(refused)")
            #expect(!(try folder.contents()).contains("z.svg"))
        }
    }

    @Test("a --bbox across ±180° on world data draws Fiji in one piece, in both kinds of map")
    func boxAcrossTheAntimeridian() throws {
        try withTemporaryFolder { folder throws in
            let made = try folder.run("generate", "--scenario", "world", "--count", "20000", "--seed", "3", "-o", "w.csv")
            try #require(made.status == 0, "\(made)")
            let clustered = try folder.run("cluster", "w.csv", "-o", "L.csv")
            try #require(clustered.status == 0, "\(clustered)")
            for mode in [["--labels", "L.csv"], ["--zoom", "6", "--no-privacy"]] {
                let r = try folder.run(["map", "w.csv", "--bbox", "170,-25,-170,-10", "-o", "x.svg"] + mode)
                try #require(r.status == 0, "\(r)")
                let svg = try folder.read("x.svg")
                // Points (or pins) on both sides of the line, inside a picture a few hundred pt wide.
                let circles = attributeValues(svg, element: "circle", attribute: "cx").compactMap(Double.init)
                #expect(circles.count > 10, "\(mode)")
                let viewBox = try #require(attributeValues(svg, element: "svg", attribute: "viewBox").first)
                let width = try #require(Double(viewBox.split(separator: " ")[2]))
                #expect(circles.allSatisfy { $0 >= 0 && $0 <= width }, "\(mode)")
            }
        }
    }

    @Test("labels for another file are refused naming both files, and no map is written")
    func mismatchedLabels() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("id,lat,lon\na,37.5,127.0\nb,37.51,127.01\nc,37.52,127.02\n", to: "IN.csv")
            try folder.write("id,label\na,0\nb,0\nx,1\n", to: "OTHER.csv")
            try folder.write("id,label\na,0\n", to: "SHORT.csv")
            let r = try folder.run("map", "IN.csv", "--labels", "OTHER.csv", "-o", "map.svg")
            #expect(r.status == 1)
            #expect(r.stderr.contains("OTHER.csv:4: id 'x' but row 3 of IN.csv has id 'c'"), "\(r.stderr)")
            let short = try folder.run("map", "IN.csv", "--labels", "SHORT.csv", "-o", "map.svg")
            #expect(short.status == 1)
            #expect(short.stderr.contains("SHORT.csv: 1 label rows for 3 points in IN.csv"), "\(short.stderr)")
            #expect(try folder.contents() == ["IN.csv", "OTHER.csv", "SHORT.csv"])
        }
    }

    @Test("the title is the user's, escaped; --hull none draws no outline")
    func titleAndNoHulls() throws {
        try withTemporaryFolder { folder throws in
            try folder.write("id,lat,lon\na,37.5,127.0\nb,37.5001,127.0001\nc,37.5002,127.0\nd,37.6,127.1\n", to: "IN.csv")
            try folder.write("id,label\na,0\nb,0\nc,0\nd,-1\n", to: "L.csv")
            let r = try folder.run("map", "IN.csv", "--labels", "L.csv", "-o", "m.svg", "--hull", "none",
                                   "--title", "Gangnam <b>&\"'")
            try #require(r.status == 0, "\(r)")
            let svg = try folder.read("m.svg")
            #expect(svg.contains("<title>Gangnam &lt;b&gt;&amp;&quot;&#39;</title>"))
            #expect(!svg.contains("Z\" fill=\"#"))
            #expect(XMLParser(data: Data(svg.utf8)).parse())
        }
    }
}

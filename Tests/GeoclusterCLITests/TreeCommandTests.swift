import Foundation
import Testing
import TestSupport

@Suite("geocluster tree")
struct TreeCommandTests {
    @Test("draws the clusters `cluster` selects, outlined, with coincident points at ∞")
    func tree() throws {
        try withTemporaryFolder { folder throws in
            // Three planar blobs and 12 copies of one point inside the first: with
            // --min-samples 5 the copies' core distance is 0, so they leave at λ = ∞.
            var text = Blobs.planar(perBlob: 100).text
            for i in 0..<12 { text += "dup\(i),10,10\n" }
            try folder.write(text, to: "IN.csv")
            let options = ["--min-cluster-size", "10", "--min-samples", "5"]
            let c = try folder.run(["cluster", "IN.csv", "-o", "L.csv"] + options)
            try #require(c.status == 0, "\(c)")
            let clusters = Set(try Labels(csv: folder.read("L.csv")).labels.filter { $0 >= 0 }).count
            #expect(clusters >= 3)

            let r = try folder.run(["tree", "IN.csv", "--title", "blobs", "-o", "T.svg"] + options)
            try #require(r.status == 0, "\(r)")
            #expect(r.stderr.contains("\(clusters) selected; wrote T.svg"))
            let svg = try folder.read("T.svg")
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(svg.hasSuffix("</svg>"))
            #expect(svg.contains(">blobs</text>"))
            // One outlined column per selected cluster, labels 0…k-1, each in its own colour.
            let selected = svg.matches(of: /class="branch selected" data-cluster="\d+" data-label="(\d+)" fill="(#[0-9a-f]{6})" stroke="(#[0-9a-f]{6})"/)
            #expect(selected.map { Int($0.output.1)! } == Array(0..<clusters))
            #expect(selected.allSatisfy { $0.output.2 == $0.output.3 })
            #expect(Set(selected.map { String($0.output.2) }).count == clusters)
            #expect(svg.contains(">∞</text>"))
            #expect(try folder.contents() == ["IN.csv", "L.csv", "T.svg"])
        }
    }

    @Test("a missing or bad input names the file, exits 1 and writes nothing")
    func badInput() throws {
        try withTemporaryFolder { folder throws in
            let missing = try folder.run("tree", "NOPE.csv", "-o", "T.svg")
            #expect(missing.status == 1, "\(missing)")
            #expect(missing.stderr.contains("NOPE.csv"))
            try folder.write("id,x,y\n1,0,0\n2,abc,1\n", to: "BAD.csv")
            let bad = try folder.run("tree", "BAD.csv", "-o", "T.svg")
            #expect(bad.status == 1, "\(bad)")
            #expect(bad.stderr.contains("BAD.csv"))
            let folderMissing = try folder.run("tree", "BAD.csv", "-o", "no/such/T.svg")
            #expect(folderMissing.status == 1, "\(folderMissing)")
            #expect(try folder.contents() == ["BAD.csv"])
        }
    }
}

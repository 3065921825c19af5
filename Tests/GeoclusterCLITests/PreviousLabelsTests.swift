import Foundation
import Testing
import TestSupport

@Suite("geocluster cluster --previous: labels that stay across refits")
struct PreviousLabelsTests {
    @Test("shuffled rows keep every label; a new blob gets the next label; a removed one is reported vanished")
    func dayToDay() throws {
        try withTemporaryFolder { folder throws in
            let blobs = Blobs.planar(perBlob: 80)
            try folder.write(blobs.text, to: "DAY1.csv")
            let options = ["--min-cluster-size", "10"]
            let day1 = try folder.run(["cluster", "DAY1.csv", "-o", "L1.csv"] + options)
            try #require(day1.status == 0, "\(day1)")
            let first = try Labels(csv: folder.read("L1.csv"))
            // Day 2: the rows reversed, blob 2 gone, a fourth blob far away.
            var rows = blobs.text.split(separator: "\n").dropFirst().enumerated().filter { blobs.blob[$0.offset] != 2 }.map { String($0.element) }
            rows.reverse()
            for i in 0..<40 { rows.append("new-\(i),\(9000 + Double(i % 7) * 9),\(9000 + Double(i / 7) * 9)") }
            try folder.write("id,x,y\n" + rows.joined(separator: "\n") + "\n", to: "DAY2.csv")
            let day2 = try folder.run(["cluster", "DAY2.csv", "-o", "L2.csv", "--previous", "L1.csv", "--changes", "C.csv",
                                       "--next-label", "7"] + options)
            try #require(day2.status == 0, "\(day2)")
            #expect(day2.stderr.contains("labels after L1.csv: 2 kept, 0 merged, 0 split, 1 appeared, 1 vanished; next label 8"))
            let second = try Labels(csv: folder.read("L2.csv"))
            let before = Dictionary(uniqueKeysWithValues: zip(first.ids, first.labels))
            for (id, label) in zip(second.ids, second.labels) where !id.hasPrefix("new-") {
                #expect(label == before[id], "\(id)")
            }
            #expect(Set(zip(second.ids, second.labels).filter { $0.0.hasPrefix("new-") }.map(\.1)) == [7])
            let changes = parseCSV(try folder.read("C.csv"))
            #expect(changes.first == ["change", "label", "previous_labels", "shared", "size"])
            let gone = first.labels[blobs.blob.firstIndex(of: 2)!]
            #expect(changes.contains(["vanished", "", "\(gone)", "0", "0"]))
            #expect(changes.contains(["appeared", "7", "", "0", "40"]))
        }
    }

    @Test("earlier labels that leave no room for new clusters below 2^31 are refused, naming the file; nothing written")
    func labelsExhausted() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.planar(perBlob: 80).text, to: "DAY.csv")
            try folder.write("id,label\nnobody,2147483647\n", to: "PREV.csv")
            let run = try folder.run(["cluster", "DAY.csv", "-o", "L.csv", "--previous", "PREV.csv", "--min-cluster-size", "10"])
            #expect(run.status != 0 && run.stderr.contains("PREV.csv") && run.stderr.contains("past the largest label"), "\(run)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("L.csv")))
        }
    }

    @Test("--changes or --next-label without --previous, and a previous file with a repeated id, are refused")
    func refusals() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.planar(perBlob: 30).text, to: "IN.csv")
            let alone = try folder.run("cluster", "IN.csv", "-o", "L.csv", "--changes", "C.csv")
            #expect(alone.status == 64 && alone.stderr.contains("go with --previous"), "\(alone)")
            try folder.write("id,label\na,0\nb,1\na,1\n", to: "P.csv")
            let twice = try folder.run("cluster", "IN.csv", "-o", "L.csv", "--previous", "P.csv", "--min-cluster-size", "10")
            #expect(twice.status == 1 && twice.stderr.contains("P.csv:4: id 'a' appears again"), "\(twice)")
            #expect(try folder.contents() == ["IN.csv", "P.csv"])
        }
    }
}

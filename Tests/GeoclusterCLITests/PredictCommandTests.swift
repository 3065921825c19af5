import Foundation
import Testing
import TestSupport

@Suite("geocluster cluster --save-model and geocluster predict")
struct PredictCommandTests {
    /// New points at each blob's centre (they join its cluster) and one far away (noise).
    static let planarNew = "id,x,y\nnear0,5,-3\nnear1,3990,12\nnear2,-8,4005\nfar,20000,20000\n"

    @Test("new planar points join their blob's cluster, a far one is noise; the fitted points keep their labels")
    func planar() throws {
        try withTemporaryFolder { folder throws in
            let blobs = Blobs.planar(perBlob: 100)
            try folder.write(blobs.text, to: "IN.csv")
            let c = try folder.run("cluster", "IN.csv", "-o", "L.csv", "--min-cluster-size", "10", "--save-model", "M.gcm")
            try #require(c.status == 0, "\(c)")
            let fitted = try Labels(csv: folder.read("L.csv"))
            try folder.write(Self.planarNew, to: "NEW.csv")
            let p = try folder.run("predict", "M.gcm", "NEW.csv", "-o", "P.csv")
            try #require(p.status == 0, "\(p)")
            #expect(p.stderr.contains("4 points: 3 in the model's 3 clusters, 1 noise; wrote P.csv"))
            let predicted = try Labels(csv: folder.read("P.csv"))
            #expect(predicted.ids == ["near0", "near1", "near2", "far"])
            let blobLabel = (0..<3).map { b in fitted.labels[blobs.blob.firstIndex(of: b)!] }
            #expect(Array(predicted.labels.prefix(3)) == blobLabel)
            #expect(predicted.labels[3] == -1 && predicted.probabilities[3] == 0)
            #expect(predicted.probabilities.prefix(3).allSatisfy { $0 > 0.5 })
            let again = try folder.run("predict", "M.gcm", "IN.csv", "-o", "A.csv", "--threads", "2")
            try #require(again.status == 0, "\(again)")
            let own = try Labels(csv: folder.read("A.csv"))
            #expect(own.ids == fitted.ids)
            #expect(zip(own.labels, fitted.labels).filter { $0 != $1 }.count <= 3)
        }
    }

    @Test("a lat,lon model projects new points as the fit did and refuses x,y points")
    func lonLat() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.seoul(perBlob: 100).text, to: "IN.csv")
            let c = try folder.run("cluster", "IN.csv", "-o", "L.csv", "--min-cluster-size", "10", "--metric", "planar",
                                   "--save-model", "M.gcm")
            try #require(c.status == 0, "\(c)")
            try folder.write("id,lat,lon\na,37.5663,126.9779\nb,37.4979,127.0276\nfar,36.0,128.0\n", to: "NEW.csv")
            let p = try folder.run("predict", "M.gcm", "NEW.csv", "-o", "P.csv")
            try #require(p.status == 0, "\(p)")
            let labels = try Labels(csv: folder.read("P.csv")).labels
            #expect(labels[0] >= 0 && labels[1] >= 0 && labels[0] != labels[1] && labels[2] == -1)
            try folder.write(Self.planarNew, to: "XY.csv")
            let wrong = try folder.run("predict", "M.gcm", "XY.csv", "-o", "Q.csv")
            #expect(wrong.status == 1, "\(wrong)")
            #expect(wrong.stderr.contains("M.gcm: was fitted on longitude/latitude"))
            #expect(!FileManager.default.fileExists(atPath: folder.path("Q.csv")))
        }
    }

    @Test("a model fitted on the sphere places world points by great-circle distance, across the antimeridian")
    func sphere() throws {
        try withTemporaryFolder { folder throws in
            // Fiji across ±180°, Reykjavik, Wellington: about 50 km blobs, continents apart.
            var g = SplitMix64(seed: 12)
            var text = "id,lat,lon\n"
            let centres = [(-17.0, 179.99), (64.1, -21.9), (-41.3, 174.8)]
            for i in 0..<300 {
                let (lat, lon) = centres[i % 3]
                var x = lon + 0.4 * g.normal()
                if x > 180 { x -= 360 }
                text += "p\(i),\(lat + 0.3 * g.normal()),\(x)\n"
            }
            try folder.write(text, to: "IN.csv")
            let c = try folder.run("cluster", "IN.csv", "-o", "L.csv", "--min-cluster-size", "10", "--metric", "geodesic",
                                   "--save-model", "M.gcm")
            try #require(c.status == 0, "\(c)")
            let fitted = try Labels(csv: folder.read("L.csv"))
            try folder.write("id,lat,lon\neast,-17.0,179.9\nwest,-17.0,-179.9\nice,64.1,-21.9\nsea,0,-140\n", to: "NEW.csv")
            let p = try folder.run("predict", "M.gcm", "NEW.csv", "-o", "P.csv")
            try #require(p.status == 0, "\(p)")
            let predicted = try Labels(csv: folder.read("P.csv"))
            #expect(predicted.labels[0] == fitted.labels[0] && predicted.labels[1] == fitted.labels[0], "both sides of ±180°")
            #expect(predicted.labels[2] == fitted.labels[1] && predicted.labels[2] != predicted.labels[0])
            #expect(predicted.labels[3] == -1)
            let own = try folder.run("predict", "M.gcm", "IN.csv", "-o", "A.csv", "--threads", "2")
            try #require(own.status == 0, "\(own)")
            let again = try Labels(csv: folder.read("A.csv"))
            #expect(zip(again.labels, fitted.labels).filter { $0 != $1 }.count <= 6)
            try folder.write(Self.planarNew, to: "XY.csv")
            let wrong = try folder.run("predict", "M.gcm", "XY.csv", "-o", "Q.csv")
            #expect(wrong.status == 1, "\(wrong)")
            #expect(wrong.stderr.contains("M.gcm: was fitted on longitude/latitude (on the sphere) points"), "\(wrong)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("Q.csv")))
        }
    }

    @Test("a damaged, foreign or missing model file is refused by name, with no output")
    func badModels() throws {
        try withTemporaryFolder { folder throws in
            try folder.write(Blobs.planar(perBlob: 60).text, to: "IN.csv")
            try folder.write(Self.planarNew, to: "NEW.csv")
            let c = try folder.run("cluster", "IN.csv", "-o", "L.csv", "--min-cluster-size", "10", "--save-model", "M.gcm")
            try #require(c.status == 0, "\(c)")
            var bytes = [UInt8](try folder.data("M.gcm"))
            bytes[bytes.count / 2] ^= 0x40
            try folder.write(bytes: bytes, to: "BROKEN.gcm")
            try folder.write(bytes: Array(bytes.prefix(100)), to: "CUT.gcm")
            var other = [UInt8](try folder.data("M.gcm"))
            other[8] = 9
            try folder.write(bytes: other, to: "V9.gcm")
            let cases: [(String, String)] = [
                ("BROKEN.gcm", "BROKEN.gcm: is damaged"), ("CUT.gcm", "CUT.gcm: is damaged"),
                ("V9.gcm", "V9.gcm: is a model of format version 9"),
                ("IN.csv", "IN.csv: is not a geocluster model file"), ("NOPE.gcm", "NOPE.gcm"),
            ]
            for (model, message) in cases {
                let r = try folder.run("predict", model, "NEW.csv", "-o", "P.csv")
                #expect(r.status == 1, "\(model): \(r)")
                #expect(r.stderr.contains(message), "\(model): \(r.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.path("P.csv")))
            let dbscan = try folder.run("cluster", "IN.csv", "-o", "D.csv", "--algorithm", "dbscan", "--eps", "50",
                                        "--save-model", "D.gcm")
            #expect(dbscan.status == 64 && dbscan.stderr.contains("--save-model are HDBSCAN outputs"), "\(dbscan)")
        }
    }
}

import Datasets
import Foundation
@testable import Harness
import ClusterMetrics
import Pins
import TestSupport
import Testing

/// The map-pin glue as library calls: the listing-file adapter, the `pins` and `nearby`
/// outputs, one pins cell and the comparison's scoring, without a process of geocluster.
@Suite("Map-pin glue")
struct PinsGlueTests {
    /// `n` listings in four buildings' worth of blocks around Seoul, with categories and prices;
    /// ids are text when `textIDs`.
    static func listingsCSV(_ n: Int, textIDs: Bool = false) -> String {
        var g = Datasets.SplitMix64(seed: 5)
        var text = "id,lat,lon,truth,category,area_m2,deposit,monthly_rent,building_id\n"
        let categories = ListingCategory.allCases
        var lat = 0.0, lon = 0.0
        for i in 0..<n {
            let block = (i / 2) % 4
            if i % 2 == 0 {   // listings 2k and 2k + 1 share a building (b k) and its place
                lat = 37.50 + Double(block) * 0.02 + Double(g.next() % 1000) * 1e-6
                lon = 127.00 + Double(block) * 0.02 + Double(g.next() % 1000) * 1e-6
            }
            let category = categories[i % categories.count].rawValue
            text += "\(textIDs ? "L\(i)" : "\(i)"),\(lat),\(lon),\(block),\(category),\(30 + i % 50),\(1000 + 100 * i),\(i % 3 == 0 ? 0 : 50),b\(i / 2)\n"
        }
        return text
    }

    @Test("PinSource: ids, text ids back from their hashes, category codes")
    func source() throws {
        try withTemporaryFolder { folder in
            let path = try folder.write(Self.listingsCSV(40, textIDs: true), to: "l.csv")
            var source = try PinSource.read(path: path, locationColumn: nil)
            #expect(source.count == 40)
            let listings = source.takeListings()
            #expect(listings.count == 40)
            #expect(source.listings.count == 0)
            #expect(source.idText(PinSource.listingID("L7")) == "L7")
            #expect(PinSource.listingID("123") == 123)
            #expect(ListingCategory(code: ListingCategory.villa.code) == .villa)
            #expect(ListingCategory(code: ListingCategory.noneCode) == nil)
        }
    }

    @Test("PinsExport writes every zoom's pins; its summary counts them")
    func export() throws {
        try withTemporaryFolder { folder in
            let path = try folder.write(Self.listingsCSV(200), to: "l.csv")
            let output = folder.path("pins.geojson")
            // The weak plain mask shows all 200 (a few buildings cannot share points).
            var plain = PinSourceSettings(key: .insecureTestKey(seed: 9))
            plain.rule = nil
            let request = PinsRequest(input: path, source: plain, zooms: [8, 16],
                                      filter: AttributeFilter(monthlyRent: ValueRange(lower: 0, upper: 0)),
                                      leaves: true, output: output)
            let summary = try PinsExport.write(request)
            #expect(summary.listings == 200)
            #expect(summary.pinsPerZoom.map(\.zoom) == [8, 16])
            #expect(summary.pinsPerZoom[0].pins <= summary.pinsPerZoom[1].pins)
            let text = try folder.read("pins.geojson")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let features = try #require(json["features"] as? [[String: Any]])
            #expect(features.count == summary.pinsPerZoom.reduce(0) { $0 + $1.pins })
            #expect(summary.report.hasPrefix("200 listings shown at "))
            // Only listings with no monthly rent (every third id) are counted and listed.
            let leaves = features.flatMap { ($0["properties"] as? [String: Any])?["leaves"] as? [Int] ?? [] }
            #expect(!leaves.isEmpty && leaves.allSatisfy { $0 % 3 == 0 })
        }
    }

    @Test("a filtered listing pin of a building shows the listing that passed, never the building's first listing")
    func filteredListingPinShowsItsOwnListing() throws {
        try withTemporaryFolder { folder in
            // Building B1: listing 1 (deposit 9000) fails --deposit ..5000, listing 2 (deposit 3000) passes.
            let path = try folder.write("id,lat,lon,category,area_m2,deposit,monthly_rent,building_id\n"
                + "1,37.5,127.03,apartment,99,9000,10,B1\n2,37.5,127.03,officetel,33,3000,50,B1\n3,37.51,127.04,villa,50,1000,20,B2\n", to: "l.csv")
            let output = folder.path("pins.geojson")
            var plain = PinSourceSettings(key: .insecureTestKey(seed: 9))
            plain.rule = nil
            let request = PinsRequest(input: path, source: plain, zooms: [22],
                                      filter: AttributeFilter(deposit: ValueRange(upper: 5000)), leaves: true, output: output)
            _ = try PinsExport.write(request)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(try folder.read("pins.geojson").utf8)) as? [String: Any])
            let properties = try #require(json["features"] as? [[String: Any]]).compactMap { $0["properties"] as? [String: Any] }
            let b1 = try #require(properties.first { ($0["listing_id"] as? Int) == 2 })
            #expect(b1["kind"] as? String == "listing" && b1["count"] as? Int == 1)
            #expect(b1["deposit"] as? Int == 3000 && b1["category"] as? String == "officetel" && b1["area_m2"] as? Int == 33)
            #expect(b1["monthly_rent"] as? Int == 50 && b1["median_deposit"] as? Int == 3000 && b1["leaves"] as? [Int] == [2])
            #expect(!properties.contains { ($0["listing_id"] as? Int) == 1 || ($0["deposit"] as? Int) == 9000 })
        }
    }

    @Test("PinsNearby lists the nearest listings, returning the CSV when there is no output file")
    func nearby() throws {
        try withTemporaryFolder { folder in
            let path = try folder.write(Self.listingsCSV(100), to: "l.csv")
            let request = NearbyRequest(input: path, source: PinSourceSettings(key: nil), longitude: 127.0,
                                        latitude: 37.5, radius: 3000, limit: 10)
            let result = try PinsNearby.run(request)
            #expect(result.listed == 10 && result.total >= 10)
            let lines = try #require(result.text).split(separator: "\n")
            #expect(lines.first == "id,distance_m,lat,lon,category,area_m2,deposit,monthly_rent")
            #expect(lines.count == 11)
            var written = request
            written.output = folder.path("near.csv")
            #expect(try PinsNearby.run(written).text == nil)
            #expect(try folder.read("near.csv") == result.text)
        }
    }

    @Test("a pins cell of each implementation writes its report, pins and labels; the comparison scores them",
          arguments: PinsCell.implementations)
    func cell(_ implementation: String) throws {
        try withTemporaryFolder { folder in
            let n = 120
            let path = try folder.write(Self.listingsCSV(n), to: "l.csv")
            let file = try ListingFile.read(path: path, locationColumn: nil, required: false)
            let viewports = try folder.write(PinsComparison.viewportsCSV(longitudes: file.longitudes, latitudes: file.latitudes,
                                                                         zooms: 10...12, seed: 3), to: "viewports.csv")
            #expect(try PinsComparison.readViewports(viewports)[11]?.count == PinsRow.viewportsPerZoom)
            let cell = PinsComparison.ImplementationRun(dataset: "d", implementation: implementation, zooms: 10...12, folder: folder.path,
                                                        count: n, truth: (0..<n).map { Int32($0 % 4) })
            let request = PinsCellRequest(input: path, implementation: implementation, zooms: 10...12, viewports: viewports,
                                          key: .insecureTestKey(seed: 3), pins: cell.pins, labels: cell.labels, report: cell.report, version: "test")
            let report = try PinsCell.run(request)
            #expect(report.status == "ok", "\(report.error ?? "")")
            #expect(report.points == n && report.zooms?.map(\.zoom) == [10, 11, 12])
            let rows = try cell.score(report, try #require(report.zooms))
            #expect(rows.count == 3 && rows.allSatisfy { $0.status == .ok && $0.version == "test" })
            #expect(rows.allSatisfy { ($0.pins ?? 0) >= 1 && ($0.ari ?? -1) >= -1 })
        }
    }

    @Test("an unknown implementation is a failed report, not a thrown error")
    func unknownImplementation() throws {
        let request = PinsCellRequest(input: "/nonexistent.csv", implementation: "kmeans", zooms: 1...1, viewports: "",
                                      key: .insecureTestKey(seed: 1), pins: "", labels: "", report: "", version: "")
        let report = PinsCell.measure(request)
        #expect(report.status == "error")
        #expect(report.error == "--implementation must be one of pinindex, supercluster, grid")
        #expect(report.peak_mb != nil || !FileManager.default.fileExists(atPath: "/proc/self/status"))
    }

    @Test("the comparison runs its cells through CellProcess: an executable that cannot start is a row per zoom")
    func comparisonWithoutExecutable() throws {
        try withTemporaryFolder { folder in
            let path = try folder.write(Self.listingsCSV(30), to: "l.csv")
            let setup = PinsComparison.Setup(executable: folder.path("missing"), python: "python3",
                                             peerScript: folder.path("peer_cell.py"), timeout: 5, seed: 1, key: .insecureTestKey(seed: 1), keyFile: nil)
            let rows = try PinsComparison.run(path: path, dataset: "d", zooms: 3...4, setup: setup, folder: folder.path("out"))
            #expect(rows.count == PinsComparison.implementations.count * 2)
            #expect(rows.filter { $0.implementation != "pysupercluster" }.allSatisfy { $0.status == .error && $0.error.hasPrefix("could not start") })
            #expect(rows.filter { $0.implementation == "pysupercluster" }.allSatisfy { $0.status == .unavailable })
            #expect(rows.allSatisfy { $0.ariVsSupercluster == nil }, "no supercluster labels: nothing to compare with")
            #expect(PinsComparison.percentile([3, 1, 2, 4], 0.5) == 3)
        }
    }

    @Test("ARI against supercluster: 1 for supercluster and for the same grouping under other labels, the ARI otherwise, nil without labels")
    func agreementWithSupercluster() {
        var rows = [10, 11, 12].map { PinsRow(dataset: "d", implementation: "supercluster", zoom: $0) }
            + [10, 11, 12].map { PinsRow(dataset: "d", implementation: "pinindex", zoom: $0) }
            + [PinsRow(dataset: "d", implementation: "grid", zoom: 10, status: .error, error: "failed")]
        let reference: [Int: [Int32]] = [10: [0, 0, 0, 1, 1, 1], 11: [0, 1, 2, 3, 4, 5]]
        PinsComparison.agreement(&rows, implementation: "supercluster", labels: reference, reference: reference)
        // Zoom 10: the same partition under other numbers. Zoom 11: the reference is all
        // singletons and the pins pair up (no pair together in both: 0). Zoom 12: no reference.
        PinsComparison.agreement(&rows, implementation: "pinindex",
                                 labels: [10: [7, 7, 7, 3, 3, 3], 11: [0, 0, 1, 1, 2, 2], 12: [0, 0, 0, 0, 0, 0]], reference: reference)
        #expect(rows[0].ariVsSupercluster == 1 && rows[1].ariVsSupercluster == 1 && rows[2].ariVsSupercluster == nil)
        #expect(rows[3].ariVsSupercluster == 1)
        #expect(rows[4].ariVsSupercluster == 0)
        #expect(rows[5].ariVsSupercluster == nil && rows[6].ariVsSupercluster == nil)
        // One pin split in two: 4 pairs together in both, 6 and 4 pairs together in each of
        // 15, expected 6 · 4 / 15 = 1.6, so ARI = (4 − 1.6) / ((6 + 4) / 2 − 1.6) = 12/17.
        PinsComparison.agreement(&rows, implementation: "pinindex", labels: [10: [0, 0, 0, 1, 1, 2]], reference: reference)
        #expect(abs(rows[3].ariVsSupercluster! - 12.0 / 17.0) < 1e-12)
    }

    @Test("the comparison reads each finished cell's labels and scores it against supercluster's at every zoom")
    func scoredAgainstSupercluster() throws {
        try withTemporaryFolder { folder in
            let n = 160
            let path = try folder.write(Self.listingsCSV(n), to: "l.csv")
            let file = try ListingFile.read(path: path, locationColumn: nil, required: false)
            let viewports = try folder.write(PinsComparison.viewportsCSV(longitudes: file.longitudes, latitudes: file.latitudes,
                                                                         zooms: 9...12, seed: 3), to: "viewports.csv")
            var rows: [PinsRow] = []
            var labels: [String: [Int32]] = [:]
            for implementation in ["pinindex", "supercluster"] {
                let cell = PinsComparison.ImplementationRun(dataset: "d", implementation: implementation, zooms: 9...12,
                                                            folder: folder.path(implementation), count: n, truth: nil)
                try FileManager.default.createDirectory(atPath: cell.folder, withIntermediateDirectories: true)
                let request = PinsCellRequest(input: path, implementation: implementation, zooms: 9...12, viewports: viewports,
                                              key: .insecureTestKey(seed: 3), pins: cell.pins, labels: cell.labels, report: cell.report, version: "test")
                let report = try PinsCell.run(request)
                rows += try cell.score(report, try #require(report.zooms))
                labels[implementation] = try PinsComparison.readLabels(cell.labels, count: n, blocks: 4)
            }
            rows.append(PinsRow(dataset: "d", implementation: "grid", zoom: 9, status: .timeout))
            PinsComparison.scoreAgainstSupercluster(&rows, folder: folder.path, count: n)
            for (k, zoom) in (9...12).enumerated() {
                let own = Array(labels["pinindex"]![(k * n)..<((k + 1) * n)])
                let base = Array(labels["supercluster"]![(k * n)..<((k + 1) * n)])
                let expected = try ContingencyTable(truth: base, predicted: own).adjustedRandIndex()
                #expect(rows.first { $0.implementation == "pinindex" && $0.zoom == zoom }?.ariVsSupercluster == expected)
                #expect(rows.first { $0.implementation == "supercluster" && $0.zoom == zoom }?.ariVsSupercluster == 1)
            }
            #expect(rows.last?.ariVsSupercluster == nil)
            // Not every zoom the same: the groupings differ somewhere, or the column would say nothing.
            #expect(rows.contains { $0.implementation == "pinindex" && ($0.ariVsSupercluster ?? 1) < 1 })
        }
    }
}

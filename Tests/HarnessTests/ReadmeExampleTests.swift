import ClusterCore
import Datasets
import Geo
import Testing
import TestSupport

/// The README's library example (GeoclusterKit; README.md, "Quick start"), compiled and run as it stands there.
@Suite("README library example")
struct ReadmeExampleTests {
    /// The README's example between the markers, verbatim but for the path.
    static func example(path: String) throws -> HDBSCANResult {
        // README example begins
        let file = try PointFile.read(path: path, prefer: .lonlat)   // lat,lon (or 위도,경도) columns
        let (lon, lat) = (file.coordinates.xOrLongitude, file.coordinates.yOrLatitude)
        let projection = try Projection(target: .auto, fittingLongitudes: lon, latitudes: lat)  // UTM zone
        let (x, y) = try projection.forward(lon: lon, lat: lat)
        // The library's default minClusterSize is 5 (scikit-learn's); the CLI's is 15.
        let parameters = HDBSCANParameters(minClusterSize: 15, minSamples: 5)
        let result = try HDBSCAN.fit(try PointSet(xs: x, ys: y), parameters: parameters, threads: 2)
        print(projection.crs, result.labeling.clusterCount, result.labeling.labels.prefix(5))  // label -1: noise
        // README example ends
        return result
    }

    @Test("the example clusters the committed Seoul listings as the CLI does with the same parameters")
    func runs() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("datasets/seoul-5k.csv").path
        let result = try Self.example(path: path)
        #expect(result.labeling.labels.count == 5000)
        #expect(result.labeling.clusterCount > 10)
    }
}

import Testing
import Geo
import TestSupport

/// A grid of points filling an L: the 11 × 4 bottom bar and the 4 × 11 left bar of a
/// 10 × 10 square (1-unit spacing), 65 distinct points.
private func lShape() -> (x: [Double], y: [Double]) {
    var x: [Double] = [], y: [Double] = []
    for i in 0...10 {
        for j in 0...10 where i <= 3 || j <= 3 {
            x.append(Double(i))
            y.append(Double(j))
        }
    }
    return (x, y)
}

@Suite("Hulls")
struct HullTests {
    @Test("Convex hull of a unit square's corners plus interior points has area 1")
    func unitSquare() throws {
        let geos = try GeometryContext()
        var rng = SplitMix64(seed: 42)
        var x: [Double] = [0, 1, 1, 0], y: [Double] = [0, 0, 1, 1]
        for _ in 0..<200 {
            x.append(Double.random(in: 0.001...0.999, using: &rng))
            y.append(Double.random(in: 0.001...0.999, using: &rng))
        }
        let hull = try geos.convexHull(x: x, y: y)
        #expect(hull.type == .polygon)
        #expect(try hull.area.isClose(to: 1, within: 1e-12))
        #expect(hull.numPoints == 5)  // four corners plus the closing vertex
        let centroid = try #require(try hull.centroid)
        #expect(centroid.x.isClose(to: 0.5, within: 1e-12) && centroid.y.isClose(to: 0.5, within: 1e-12))
        // The hull's vertices are exactly the corners (interior points never appear).
        let v = try hull.vertices()
        #expect(Set(zip(v.x, v.y).map { "\($0),\($1)" }) == ["0.0,0.0", "1.0,0.0", "1.0,1.0", "0.0,1.0"])
    }

    @Test("Concave hull of an L is smaller than its convex hull and covers every point")
    func concaveL() throws {
        let geos = try GeometryContext()
        let (x, y) = lShape()
        let convex = try geos.convexHull(x: x, y: y)
        // Convex hull of the L: the 10 × 10 square minus the 7 × 7 / 2 corner triangle.
        #expect(try convex.area.isClose(to: 75.5, within: 1e-9))
        for ratio in [0.0, 0.1, 0.3, 0.5] {
            let concave = try geos.concaveHull(x: x, y: y, ratio: ratio)
            #expect(concave.type == .polygon)
            let area = try concave.area
            #expect(area < (try convex.area), "ratio \(ratio)")
            #expect(area > 0, "ratio \(ratio)")
            // Covers (not contains): the hull passes through its boundary points.
            let covered = try concave.prepared().covers(x: x, y: y)
            #expect(covered.allSatisfy { $0 }, "ratio \(ratio): \(covered.filter { !$0 }.count) points outside")
        }
        // A moderately concave hull hugs the L (area 3·10 + 3·7 = 51 up to the grid).
        #expect(try geos.concaveHull(x: x, y: y, ratio: 0.1).area.isClose(to: 51.5, within: 0.5))
        // ratio 1 is the convex hull.
        #expect(try geos.concaveHull(x: x, y: y, ratio: 1).area.isClose(to: 75.5, within: 1e-9))
    }

    @Test("One point, or all points equal, gives a Point", arguments: [1, 5])
    func singlePoint(copies: Int) throws {
        let geos = try GeometryContext()
        let x = [Double](repeating: 3, count: copies), y = [Double](repeating: -2, count: copies)
        for hull in [try geos.convexHull(x: x, y: y), try geos.concaveHull(x: x, y: y, ratio: 0.3)] {
            #expect(hull.type == .point)
            #expect(try hull.vertices() == Coordinates(x: [3], y: [-2]))
            #expect(try hull.area == 0)
            #expect(try hull.wkt == "POINT (3 -2)")
        }
    }

    @Test("Two points give the LineString between them")
    func twoPoints() throws {
        let geos = try GeometryContext()
        for hull in [try geos.convexHull(x: [0, 3], y: [0, 4]),
                     try geos.concaveHull(x: [0, 3], y: [0, 4], ratio: 0)] {
            #expect(hull.type == .lineString)
            #expect(hull.numPoints == 2)
            #expect(try hull.area == 0)
            let v = try hull.vertices()
            #expect(Set(v.x) == [0, 3] && Set(v.y) == [0, 4])
        }
    }

    @Test("Collinear points give the LineString between the extreme points")
    func collinear() throws {
        let geos = try GeometryContext()
        let x: [Double] = [2, 0, 5, 1, 3], y: [Double] = [4, 0, 10, 2, 6]
        for hull in [try geos.convexHull(x: x, y: y), try geos.concaveHull(x: x, y: y, ratio: 0.2)] {
            #expect(hull.type == .lineString)
            #expect(hull.numPoints == 2)
            let v = try hull.vertices()
            #expect(Set(v.x) == [0, 5] && Set(v.y) == [0, 10])
        }
    }

    @Test("Empty input throws emptyInput for both hulls; an empty geometry's hull is empty")
    func emptyInput() throws {
        let geos = try GeometryContext()
        #expect(throws: GeoError.emptyInput(operation: "convexHull(x:y:)")) { try geos.convexHull(x: [], y: []) }
        #expect(throws: GeoError.emptyInput(operation: "concaveHull(x:y:)")) {
            try geos.concaveHull(x: [], y: [], ratio: 0.5)
        }
        let none = try geos.multiPoint(x: [], y: [])
        #expect(none.isEmpty && none.type == .multiPoint)
        #expect(try none.convexHull().isEmpty)
        #expect(try none.concaveHull(ratio: 0.5).isEmpty)
    }

    @Test("Bad inputs and parameters are reported")
    func badInputs() throws {
        let geos = try GeometryContext()
        #expect(throws: GeoError.invalidParameter(name: "concave hull ratio", value: 1.5, expected: "in [0, 1]")) {
            try geos.concaveHull(x: [0, 1, 0], y: [0, 0, 1], ratio: 1.5)
        }
        let error = #expect(throws: GeoError.self) { try geos.concaveHull(x: [0, 1, 0], y: [0, 0, 1], ratio: .nan) }
        guard case .invalidParameter(name: "concave hull ratio", _, _)? = error else {
            Issue.record("expected .invalidParameter, got \(String(describing: error))")
            return
        }
        #expect(throws: GeoError.nonFiniteCoordinate(index: 1)) { try geos.convexHull(x: [0, .nan], y: [0, 0]) }
        #expect(throws: GeoError.countMismatch(first: "x", firstCount: 2, second: "y", secondCount: 3)) {
            try geos.convexHull(x: [0, 1], y: [0, 0, 1])
        }
    }

    @Test("Polygon area and centroid, with a hole")
    func polygonMeasures() throws {
        let geos = try GeometryContext()
        // 4 × 4 square with a 2 × 2 hole in its lower-left quadrant; rings left open on
        // purpose (the constructor closes them).
        let square = try geos.polygon(
            exterior: Coordinates(x: [0, 4, 4, 0], y: [0, 0, 4, 4]),
            holes: [Coordinates(x: [0.5, 2.5, 2.5, 0.5], y: [0.5, 0.5, 2.5, 2.5])])
        #expect(try square.area == 12)
        // Centroid: (16·(2,2) − 4·(1.5,1.5)) / 12.
        let c = try #require(try square.centroid)
        #expect(c.x.isClose(to: 26.0 / 12, within: 1e-12) && c.y.isClose(to: 26.0 / 12, within: 1e-12))
        let rings = try square.polygons()
        #expect(rings.count == 1 && rings[0].count == 2)
        #expect(rings[0][0].count == 5 && rings[0][1].count == 5)
        #expect(square.numPoints == 10)
        #expect(try geos.geometry(wkt: "POLYGON EMPTY").centroid == nil)
    }

    @Test("GEOS errors carry GEOS's own message")
    func geosMessages() throws {
        let geos = try GeometryContext()
        let error = #expect(throws: GeoError.self) { try geos.lineString(x: [0], y: [0]) }
        guard case let .geos(operation, message)? = error else {
            Issue.record("expected .geos, got \(String(describing: error))")
            return
        }
        #expect(operation == "GEOSGeom_createLineString_r")
        #expect(message == "IllegalArgumentException: point array must contain 0 or >1 elements")
        // A ring needs at least 4 vertices once closed (GEOS 3.11 itself would accept 3).
        #expect(throws: GeoError.invalidParameter(name: "ring vertex count (closed)", value: 3,
                                                  expected: "at least 4, i.e. 3 distinct vertices")) {
            try geos.polygon(exterior: Coordinates(x: [0, 1], y: [0, 0]))
        }
        #expect(throws: GeoError.self) {
            try geos.polygon(exterior: Coordinates(x: [0, 4, 4, 0], y: [0, 0, 4, 4]),
                             holes: [Coordinates(x: [1, 2], y: [1, 1])])
        }
        #expect(throws: GeoError.emptyInput(operation: "polygon(exterior:holes:)")) {
            try geos.polygon(exterior: Coordinates(x: [], y: []))
        }
        #expect(throws: GeoError.unsupportedGeometry(operation: "polygons()", type: .point, expected: "a Polygon or MultiPolygon")) {
            try geos.point(x: 1, y: 2).polygons()
        }
        // The context keeps working after an error.
        #expect(try geos.convexHull(x: [0, 1, 0], y: [0, 0, 1]).area == 0.5)
    }
}

import Testing
import Foundation
import Geo
import TestSupport

/// A non-convex test polygon: a 7-pointed star (alternating radii 10 and 4 around (1, -2),
/// vertices at irrational coordinates) with a small quadrilateral hole off-centre.
private func starWithHole() -> (shell: Coordinates, hole: Coordinates) {
    var shell = Coordinates(x: [], y: [])
    for k in 0..<14 {
        let angle = Double(k) * .pi / 7 + 0.1
        let r = k.isMultiple(of: 2) ? 10.0 : 4.0
        shell.x.append(1 + r * cos(angle))
        shell.y.append(-2 + r * sin(angle))
    }
    let hole = Coordinates(x: [0.2, 2.1, 2.3, 0.4], y: [-2.9, -2.7, -1.1, -1.3])
    return (shell, hole)
}

@Suite("Point in polygon")
struct PointInPolygonTests {
    @Test("Prepared contains and covers agree with brute-force ray casting on 4000 random points")
    func agreesWithRayCasting() throws {
        let geos = try GeometryContext()
        let (shell, hole) = starWithHole()
        let polygon = try geos.polygon(exterior: shell, holes: [hole])
        let prepared = try polygon.prepared()
        // Ray casting needs closed rings as GEOS stores them.
        let rings = try polygon.polygons()[0]

        var rng = SplitMix64(seed: 0xC0FFEE)
        let n = 4000
        let x = (0..<n).map { _ in Double.random(in: -10...12, using: &rng) }
        let y = (0..<n).map { _ in Double.random(in: -13...9, using: &rng) }
        let expected = (0..<n).map { rayCastingInside(x: x[$0], y: y[$0], rings: rings) }

        let contains = try prepared.contains(x: x, y: y)
        let covers = try prepared.covers(x: x, y: y)
        #expect(contains.count == n)
        let disagreements = (0..<n).filter { contains[$0] != expected[$0] || covers[$0] != expected[$0] }
        #expect(disagreements.isEmpty, "first disagreement at \(disagreements.first ?? -1)")
        // The sample exercises both outcomes and the hole (not a vacuous comparison).
        let insideCount = expected.filter { $0 }.count
        #expect(insideCount > 500 && insideCount < n - 500)
        let inHole = (0..<n).filter { rayCastingInside(x: x[$0], y: y[$0], rings: [rings[1]]) }
        #expect(!inHole.isEmpty)
        #expect(inHole.allSatisfy { !contains[$0] })
        // The unprepared convenience gives the same answers.
        #expect(try polygon.contains(x: x, y: y) == contains)
        #expect(try polygon.covers(x: x, y: y) == covers)
    }

    @Test("Boundary points: contains excludes them, covers includes them")
    func boundaryConvention() throws {
        let geos = try GeometryContext()
        let square = try geos.polygon(exterior: Coordinates(x: [0, 2, 2, 0], y: [0, 0, 2, 2])).prepared()
        // A vertex, an edge midpoint, an interior point, an exterior point.
        let x: [Double] = [0, 1, 1, 3], y: [Double] = [0, 0, 1, 1]
        #expect(try square.contains(x: x, y: y) == [false, false, true, false])
        #expect(try square.covers(x: x, y: y) == [true, true, true, false])
        #expect(try square.contains(x: 1, y: 1))
        #expect(try !square.contains(x: 2, y: 1))
        #expect(try square.covers(x: 2, y: 1))
    }

    @Test("Empty and invalid point lists")
    func edgeCases() throws {
        let geos = try GeometryContext()
        let square = try geos.polygon(exterior: Coordinates(x: [0, 2, 2, 0], y: [0, 0, 2, 2])).prepared()
        #expect(try square.contains(x: [], y: []) == [])
        #expect(throws: GeoError.nonFiniteCoordinate(index: 2)) {
            try square.covers(x: [1, 1, .nan], y: [1, 1, 1])
        }
        #expect(throws: GeoError.countMismatch(first: "x", firstCount: 1, second: "y", secondCount: 2)) {
            try square.contains(x: [1], y: [1, 1])
        }
    }
}

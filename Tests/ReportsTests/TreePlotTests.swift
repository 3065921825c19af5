import ClusterCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Reports
import Testing
import TestSupport

/// Condensed trees built from hand-made spanning trees, and what the plot of each must show.
enum HandTrees {
    /// 100 points, minClusterSize 5. The root (id 100) splits at λ 0.2 into A (101: rows
    /// 0..<40) and B (102: rows 40..<100). A loses 10 points at λ 0.5 and its last 30 at λ 1.
    /// B splits at λ 1 into B1 (103: rows 40..<70, all leave at λ 2) and B2 (104: rows
    /// 70..<100, coincident: they leave at λ = ∞).
    static func twoLevels() -> CondensedTree {
        var a: [Int32] = [], b: [Int32] = [], w: [Double] = []
        func edge(_ p: Int, _ q: Int, _ weight: Double) { a.append(Int32(p)); b.append(Int32(q)); w.append(weight) }
        for i in 1..<30 { edge(i - 1, i, 1) }
        for i in 30..<40 { edge(0, i, 2) }
        for i in 41..<70 { edge(i - 1, i, 0.5) }
        for i in 71..<100 { edge(i - 1, i, 0) }
        edge(40, 70, 1)
        edge(0, 40, 5)
        return condense(a, b, w, pointCount: 100, minClusterSize: 5)
    }

    /// One big group of `big` points (joined at distance 1) and `small` groups of 6 points
    /// (distance 0.5), all joined to the big group at distance 10: with minClusterSize 5 the
    /// root splits at λ 0.1 into one large and `small` small clusters.
    static func oneBigManySmall(big: Int = 600, small: Int = 20) -> CondensedTree {
        var a: [Int32] = [], b: [Int32] = [], w: [Double] = []
        func edge(_ p: Int, _ q: Int, _ weight: Double) { a.append(Int32(p)); b.append(Int32(q)); w.append(weight) }
        for i in 1..<big { edge(i - 1, i, 1) }
        for g in 0..<small {
            let first = big + 6 * g
            for i in 1..<6 { edge(first + i - 1, first + i, 0.5) }
            edge(0, first, 10)
        }
        return condense(a, b, w, pointCount: big + 6 * small, minClusterSize: 5)
    }

    /// The condensed tree of a spanning tree given as edges in any order.
    static func condense(_ a: [Int32], _ b: [Int32], _ w: [Double], pointCount: Int, minClusterSize: Int) -> CondensedTree {
        let order = w.indices.sorted { (w[$0], $0) < (w[$1], $1) }
        let mst = MinimumSpanningTree(a: order.map { a[$0] }, b: order.map { b[$0] }, weight: order.map { w[$0] })
        return CondensedTree(linkage: SingleLinkageTree(mst: mst, pointCount: pointCount), minClusterSize: minClusterSize)
    }
}

/// The drawn branches of a tree-plot SVG, read back from its `<path class="branch…">`
/// elements (see `TreePlot.render`'s description of the structure).
struct DrawnBranch {
    var cluster: Int
    var classes: String
    var label: Int?
    var fill: String?
    var stroke: String?
    var numbers: [Double]
    /// Width at birth: the first x (right edge) minus the last H (left edge).
    var birthWidth: Double
    var centre: Double
    /// Top (first y) and bottom (largest y) of the column.
    var top: Double
    var bottom: Double
    /// Distinct widths of the column's steps, from the right edges (x after each H on the
    /// right side, which are > centre).
    var rightEdges: [Double]

    static func all(in svg: String) -> [DrawnBranch] {
        let element = /<path class="(branch[^"]*)"([^>]*)\/>/
        return svg.matches(of: element).map { m in
            let attrs = String(m.output.2)
            func attribute(_ name: String) -> String? {
                guard let r = attrs.firstMatch(of: try! Regex(" \(name)=\"([^\"]*)\"")) else { return nil }
                return String(r.output[1].substring!)
            }
            let d = attribute("d")!
            let numbers = d.matches(of: /-?\d+(\.\d+)?/).map { Double($0.output.0)! }
            let first = numbers[0], top = numbers[1]
            let lastH = d.matches(of: /H(-?\d+(\.\d+)?)/).last!.output.1
            let left = Double(lastH)!
            let ys = d.matches(of: /V(-?\d+(\.\d+)?)/).map { Double($0.output.1)! }
            let hs = d.matches(of: /H(-?\d+(\.\d+)?)/).map { Double($0.output.1)! }
            let centre = (first + left) / 2
            return DrawnBranch(
                cluster: Int(attribute("data-cluster")!)!, classes: String(m.output.1),
                label: attribute("data-label").flatMap { Int($0) }, fill: attribute("fill"), stroke: attribute("stroke"),
                numbers: numbers, birthWidth: first - left, centre: centre, top: top, bottom: ys.max() ?? top,
                rightEdges: [first] + hs.filter { $0 > centre + 1e-9 })
        }
    }
}

/// Checks that text is well-formed XML with Foundation's parser.
func isWellFormedXML(_ text: String) -> Bool {
    XMLParser(data: Data(text.utf8)).parse()
}

/// Runs rsvg-convert on the SVG (to a PNG in a temporary folder); returns its exit status.
func rsvgStatus(_ svg: String) throws -> Int32 {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("treeplot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("t.svg")
    try Data(svg.utf8).write(to: input)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: rsvgConvert)
    p.arguments = ["-o", folder.appendingPathComponent("t.png").path, input.path]
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    return p.terminationStatus
}

let rsvgConvert = "/usr/bin/rsvg-convert"

/// Whether a coordinate or path attribute holds "inf" or "nan".
func hasNonFiniteNumber(_ svg: String) -> Bool {
    svg.contains(/\ (d|x|y|width|height|transform)="[^"]*(inf|nan)/)
}

@Suite struct TreePlotTests {
    static let colours: [Int32: String] = [0: "#e41a1c", 1: "#377eb8", 2: "#4daf4a"]

    @Test func handTreeHasTheExpectedShape() throws {
        // The hand-made tree is what the plot tests below assume.
        let t = HandTrees.twoLevels()
        #expect(t.clusterCount == 5)
        #expect(t.clusterParent == [-1, 100, 100, 102, 102])
        #expect(t.clusterSize == [100, 40, 60, 30, 30])
        #expect(t.clusterBirth == [0, 0.2, 0.2, 1, 1])
        #expect(ClusterSelection.select(t, options: SelectionOptions()) == [101, 103, 104])
    }

    @Test func selectedClustersAreOutlinedInTheirLabelsColours() throws {
        let t = HandTrees.twoLevels()
        let svg = TreePlot.render(t, selected: [101, 103, 104], colours: Self.colours)
        let branches = DrawnBranch.all(in: svg)
        #expect(branches.map(\.cluster).sorted() == [100, 101, 102, 103, 104])
        let selected = branches.filter { $0.classes == "branch selected" }
        #expect(selected.map(\.cluster) == [101, 103, 104])
        for b in selected {
            let colour = Self.colours[Int32(b.label!)]!
            #expect(b.stroke == colour && b.fill == colour, "cluster \(b.cluster)")
        }
        #expect(selected.map(\.label) == [0, 1, 2])
        // Unselected branches have no outline and a neutral fill.
        #expect(branches.filter { $0.classes == "branch" }.allSatisfy { $0.stroke == nil && $0.fill == "#b4c5d8" })
        // No style sheet rule overrides the fill attributes.
        #expect(!svg.contains(/\.branch\{/))
        #expect(svg.contains("3 selected"))
    }

    @Test func anEpsilonStyleSelectionIsDrawnAsGiven() throws {
        // B (102) selected instead of its children, as epsilon merging does: B is outlined,
        // its children are tinted in B's colour (label 1) and not outlined.
        let svg = TreePlot.render(HandTrees.twoLevels(), selected: [101, 102], colours: Self.colours)
        let branches = DrawnBranch.all(in: svg)
        #expect(branches.filter { $0.classes == "branch selected" }.map(\.cluster) == [101, 102])
        let within = branches.filter { $0.classes == "branch within" }
        #expect(within.map(\.cluster) == [103, 104])
        #expect(within.allSatisfy { $0.fill == Self.colours[1] && $0.stroke == nil })
    }

    @Test func widthsAreProportionalToPointsStillInTheCluster() throws {
        let svg = TreePlot.render(HandTrees.twoLevels(), selected: [101, 103, 104], colours: Self.colours)
        let byID = Dictionary(uniqueKeysWithValues: DrawnBranch.all(in: svg).map { ($0.cluster, $0) })
        let root = try #require(byID[100]).birthWidth
        #expect(root > 100)
        let expected: [Int: Double] = [101: 40, 102: 60, 103: 30, 104: 30]
        for (id, size) in expected {
            let w = try #require(byID[id]).birthWidth
            #expect(abs(w / root - size / 100) < 0.002, "cluster \(id): width \(w) of root \(root)")
        }
        // A narrows from 40 to 30 points at λ 0.5: its right edge steps from 20 to 15 units
        // out of the centre.
        let a = try #require(byID[101])
        let halfWidths = a.rightEdges.map { ($0 - a.centre) / (root / 100) }
        #expect(halfWidths.count == 2)
        #expect(abs(halfWidths[0] - 20) < 0.05 && abs(halfWidths[1] - 15) < 0.05, "\(halfWidths)")
        // Children are drawn below their parent's end, siblings side by side without overlap.
        let b1 = try #require(byID[103]), b2 = try #require(byID[104])
        let b = try #require(byID[102])
        #expect(b1.top >= b.bottom - 0.01)
        let (l, r) = b1.centre < b2.centre ? (b1, b2) : (b2, b1)
        #expect(l.centre + l.birthWidth / 2 < r.centre - r.birthWidth / 2)
    }

    @Test func logWidthChangesWidths() throws {
        let t = HandTrees.twoLevels()
        let linear = DrawnBranch.all(in: TreePlot.render(t, selected: [101, 103, 104], colours: Self.colours))
        let log = DrawnBranch.all(in: TreePlot.render(t, selected: [101, 103, 104], colours: Self.colours,
                                                      options: TreePlotOptions(logWidth: true)))
        func ratio(_ bs: [DrawnBranch], _ id: Int) -> Double {
            bs.first { $0.cluster == id }!.birthWidth / bs.first { $0.cluster == 100 }!.birthWidth
        }
        #expect(abs(ratio(linear, 101) - 0.4) < 0.002)
        // ln(1 + 40) / ln(1 + 100).
        #expect(abs(ratio(log, 101) - 0.80464) < 0.002, "\(ratio(log, 101))")
    }

    @Test func infiniteLambdaIsClampedAndLabelled() throws {
        let o = TreePlotOptions(height: 700)
        let svg = TreePlot.render(HandTrees.twoLevels(), selected: [101, 103, 104], colours: Self.colours, options: o)
        #expect(!hasNonFiniteNumber(svg))
        #expect(svg.contains(">∞</text>"))
        #expect(svg.contains("λ = ∞ (coincident points), clamped"))
        let byID = Dictionary(uniqueKeysWithValues: DrawnBranch.all(in: svg).map { ($0.cluster, $0) })
        // B2's points leave at ∞: its column ends on the ∞ row, at the bottom of the plot
        // (700 px less the 24 px bottom margin), a band below B1's end at the largest finite λ.
        let b1 = try #require(byID[103]), b2 = try #require(byID[104])
        #expect(b2.bottom == 676)
        #expect(b2.bottom - b1.bottom >= 29, "B1 ends at \(b1.bottom), B2 at \(b2.bottom)")
        #expect(b1.bottom < 676 && b1.bottom > 600)
        // Every coordinate in every path is finite and inside the picture.
        for b in byID.values { #expect(b.numbers.allSatisfy { $0 >= 0 && $0 <= 1000 }) }
        // Without coincident points there is no ∞ mark.
        let finite = TreePlot.render(HandTrees.oneBigManySmall(), selected: [], colours: [:])
        #expect(!finite.contains("∞"))
    }

    @Test func logarithmicLambdaAxisKeepsEveryColumnInsideThePlot() throws {
        let o = TreePlotOptions(lambdaScale: .logarithmic)
        let svg = TreePlot.render(HandTrees.twoLevels(), selected: [101, 103, 104], colours: Self.colours, options: o)
        let byID = Dictionary(uniqueKeysWithValues: DrawnBranch.all(in: svg).map { ($0.cluster, $0) })
        // λ 0.2 → 1 → 2 on a log axis: the step from 0.2 to 1 is log(5)/log(2) ≈ 2.32 times the
        // step from 1 to 2 (B's column against B1's).
        let b = try #require(byID[102]), b1 = try #require(byID[103])
        let ratio = (b.bottom - b.top) / (b1.bottom - b1.top)
        #expect(abs(ratio - 2.3219) < 0.02, "\(ratio)")
        #expect(isWellFormedXML(svg))
    }

    @Test func collapsingTinyBranchesReducesElementsAndMarksSelectedOnes() throws {
        let t = HandTrees.oneBigManySmall()
        let selected = Array((t.pointCount + 1)..<(t.pointCount + t.clusterCount)).map(Int32.init)
        let colours = Dictionary(uniqueKeysWithValues: (0..<Int32(selected.count)).map { ($0, "#00\(String($0 % 10))0aa") })
        let all = TreePlot.render(t, selected: selected, colours: colours, options: TreePlotOptions(minimumVisibleWidth: 0))
        // 6 of 720 points in an 844 px wide plot: each small cluster is 6 to 7 px wide at birth.
        let collapsed = TreePlot.render(t, selected: selected, colours: colours, options: TreePlotOptions(minimumVisibleWidth: 10))
        let allBranches = DrawnBranch.all(in: all), fewBranches = DrawnBranch.all(in: collapsed)
        #expect(allBranches.count == 22)
        #expect(fewBranches.map(\.cluster) == [t.pointCount, t.pointCount + 1])
        func paths(_ s: String) -> Int { s.matches(of: /<path/).count }
        #expect(collapsed.utf8.count < all.utf8.count)
        // The 20 collapsed selected clusters are marked, each in its colour, where they split
        // off (one path per colour); the summary says so.
        #expect(collapsed.contains("21 selected, 20 of them in collapsed branches"))
        let marks = collapsed.matches(of: /<path class="collapsed" stroke="([^"]+)" d="([^"]+)"\/>/)
        #expect(marks.count == 10)
        // 20 branches fewer, and no split line (the root has one drawn child left).
        #expect(paths(collapsed) == paths(all) - 20 - 1 + marks.count)
        let segments = marks.reduce(0) { $0 + $1.output.2.matches(of: /M/).count }
        #expect(segments == 20)
        #expect(Set(marks.map { String($0.output.1) }) == Set(colours.filter { $0.key >= 1 }.map(\.value)))
    }

    @Test func outputIsWellFormedAndRenders() throws {
        for options in [TreePlotOptions(), TreePlotOptions(logWidth: true, lambdaScale: .logarithmic, title: "a <b> & \"c\"")] {
            let svg = TreePlot.render(HandTrees.twoLevels(), selected: [101, 103, 104], colours: Self.colours, options: options)
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(isWellFormedXML(svg))
            if FileManager.default.isExecutableFile(atPath: rsvgConvert) { #expect(try rsvgStatus(svg) == 0) }
        }
    }

    @Test func tinyTreesRender() throws {
        // No points, one point, and all points coincident.
        let empty = CondensedTree(linkage: SingleLinkageTree(mst: MinimumSpanningTree(a: [], b: [], weight: []), pointCount: 0),
                                  minClusterSize: 5)
        let one = CondensedTree(linkage: SingleLinkageTree(mst: MinimumSpanningTree(a: [], b: [], weight: []), pointCount: 1),
                                minClusterSize: 5)
        let same = CondensedTree(linkage: SingleLinkageTree(
            mst: MinimumSpanningTree(a: [0, 1, 2, 3], b: [1, 2, 3, 4], weight: [0, 0, 0, 0]), pointCount: 5), minClusterSize: 2)
        for t in [empty, one, same] {
            let svg = TreePlot.render(t, selected: [], colours: [:])
            #expect(isWellFormedXML(svg), "\(t.pointCount) points")
            #expect(!hasNonFiniteNumber(svg))
        }
    }

    @Test func sameTreeGivesTheSameBytes() throws {
        let a = TreePlot.render(HandTrees.oneBigManySmall(), selected: [721, 722], colours: Self.colours)
        let b = TreePlot.render(HandTrees.oneBigManySmall(), selected: [721, 722], colours: Self.colours)
        #expect(a == b)
    }
}

@Suite struct TreePlotSizeTests {
    /// 200,000 points in 4,000 seeded Gaussian clumps of 10–90 points (spread 5–40 m) over a
    /// 20 km square, plus uniform background: a tree with thousands of clusters. Its plot,
    /// at the default 1000 × 700 px, must stay under 1 MB (the seoul scenario at 200k gives
    /// about 0.2 MB) and draw at most a few thousand branches, and still render.
    @Test func aLargeTreeGivesASmallReadableSVG() throws {
        var rng = SplitMix64(seed: 2024)
        func next() -> Double { rng.uniform() }
        func normal() -> Double { rng.normal() }
        var xs: [Double] = [], ys: [Double] = []
        while xs.count < 180_000 {
            let cx = 20_000 * next(), cy = 20_000 * next(), spread = 5 + 35 * next()
            for _ in 0..<(10 + Int(80 * next())) { xs.append(cx + spread * normal()); ys.append(cy + spread * normal()) }
        }
        while xs.count < 200_000 { xs.append(20_000 * next()); ys.append(20_000 * next()) }
        let result = try HDBSCAN.fit(try PointSet(xs: xs, ys: ys), parameters: HDBSCANParameters(minClusterSize: 15),
                                     threads: 2, keeping: [.condensedTree])
        let tree = try #require(result.condensedTree)
        #expect(tree.clusterCount > 2000)
        #expect(result.selectedClusters.count > 1000)
        let colours = Dictionary(uniqueKeysWithValues: (0..<Int32(result.selectedClusters.count)).map { ($0, "#3366cc") })
        for options in [TreePlotOptions(), TreePlotOptions(logWidth: true, lambdaScale: .logarithmic)] {
            let svg = TreePlot.render(tree, selected: result.selectedClusters, colours: colours, options: options)
            #expect(svg.utf8.count < 1_000_000, "\(svg.utf8.count) bytes")
            let branches = svg.matches(of: /<path class="branch/).count
            #expect(branches < 3000 && branches > 10, "\(branches) branches")
            // Over a thousand selected clusters hide in collapsed branches: one grey tick per
            // split, all in one path, not a tick per cluster in its colour.
            #expect(svg.contains("one grey mark per split"))
            #expect(svg.matches(of: /<path class="collapsed"/).count == 1)
            #expect(isWellFormedXML(svg))
            if FileManager.default.isExecutableFile(atPath: rsvgConvert) { #expect(try rsvgStatus(svg) == 0) }
        }
    }
}

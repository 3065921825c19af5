import Testing
import ClusterCore

// Hand-built single-linkage trees with every expected value worked out from the definitions
// (docs/commands.md, "What HDBSCAN computes here, exactly"), so the n-ary tie rule, stabilities,
// selection and labelling are pinned row by row instead of end to end.
//
// Every distance is a power of two, so every lambda (1 / distance), stability and probability
// below is exact in binary and the tests compare with `==`. Points are numbered so that each
// group is a run of rows; cluster ids follow the project's rule: the root is `n`, and siblings
// are numbered in order of the smallest input row they hold.
//
// Cross-check: scripts/reference/check_hand_built_trees.py feeds the same MST edges, in the
// same order, to scikit-learn 1.9.1's `make_single_linkage`, `_condense_tree` and
// `tree_to_labels` and checks the values below. Where no tie decides anything (cases c, d, e,
// f) scikit-learn gives the same rows, stabilities, labels and probabilities. Where a tie
// does (a, b) the differences are the intended ones, noted at each case.

/// One condensed-tree row: `child` leaves `parent` at `lambda` with `size` points.
struct CondensedRow: Hashable, Comparable, CustomStringConvertible {
    let parent: Int32, child: Int32, lambda: Double, size: Int32
    init(_ parent: Int32, _ child: Int32, _ lambda: Double, _ size: Int32) {
        self.parent = parent; self.child = child; self.lambda = lambda; self.size = size
    }
    static func < (a: Self, b: Self) -> Bool { (a.parent, a.child) < (b.parent, b.child) }
    var description: String { "(\(parent), \(child), \(lambda), \(size))" }
}

/// An MST edge as the tests write it: endpoints and weight (metres).
typealias Edge = (a: Int32, b: Int32, w: Double)

enum HandBuilt {
    /// The condensed tree of `n` points joined by `edges`, which must be in ascending weight
    /// (the order among equal weights is the caller's choice).
    static func condense(_ edges: [Edge], points n: Int, minClusterSize: Int) -> CondensedTree {
        let mst = MinimumSpanningTree(a: edges.map(\.a), b: edges.map(\.b), weight: edges.map(\.w))
        return CondensedTree(linkage: SingleLinkageTree(mst: mst, pointCount: n), minClusterSize: minClusterSize)
    }

    /// The tree's rows sorted by (parent, child): row order is not part of the semantics.
    static func rows(_ t: CondensedTree) -> [CondensedRow] {
        (0..<t.parent.count).map { CondensedRow(t.parent[$0], t.child[$0], t.lambda[$0], t.childSize[$0]) }.sorted()
    }

    /// Selection and labelling with `options`, as `HDBSCAN.fit` chains them.
    static func label(_ t: CondensedTree, _ options: SelectionOptions = SelectionOptions()) -> ([Int32], Labeling) {
        let selected = ClusterSelection.select(t, options: options)
        return (selected, Labeling(tree: t, selected: selected, allowSingleCluster: options.allowSingleCluster,
                                   epsilon: options.epsilon))
    }

    /// Four points `o…o+3`: o–o+1 and o+1–o+2 at 1 m, o+2–o+3 at 2 m. As a cluster of
    /// minClusterSize 3 born at lambda b, point o+3 leaves at 0.5 and o…o+2 at 1 together,
    /// so its stability is (0.5 - b)·1 + (1 - b)·3.
    static func fourPoints(_ o: Int32) -> (ones: [Edge], two: Edge) {
        ([(o, o + 1, 1), (o + 1, o + 2, 1)], (o + 2, o + 3, 2))
    }

    /// Every point has exactly one row, and `rowOfPoint` finds it.
    static func checkRowOfPoint(_ t: CondensedTree, sourceLocation: SourceLocation = #_sourceLocation) {
        for p in 0..<t.pointCount {
            #expect(t.child[Int(t.rowOfPoint[p])] == Int32(p), "point \(p)", sourceLocation: sourceLocation)
        }
        #expect(t.child.filter { $0 < Int32(t.pointCount) }.count == t.pointCount, sourceLocation: sourceLocation)
    }
}

@Suite("Condensed tree, selection and labels on hand-built trees")
struct CondensedTreeHandBuiltTests {
    // MARK: (a) three-way tie

    /// A = 0…3, B = 4…7, C = 8…11 (`fourPoints` each), A–B and B–C both at 4 m;
    /// minClusterSize 3.
    static func threeGroups(bridges: [Edge]) -> CondensedTree {
        let (a, b, c) = (HandBuilt.fourPoints(0), HandBuilt.fourPoints(4), HandBuilt.fourPoints(8))
        return HandBuilt.condense(a.ones + b.ones + c.ones + [a.two, b.two, c.two] + bridges,
                                  points: 12, minClusterSize: 3)
    }

    @Test("three equal groups joined at one weight split the root three ways at once")
    func threeWayTie() {
        let t = Self.threeGroups(bridges: [(3, 4, 4), (7, 8, 4)])
        // Removing both 4 m edges leaves A, B, C (4 points each, all >= 3): one 3-ary split at
        // lambda 1/4 into clusters 13 (A), 14 (B), 15 (C). Inside each, removing the 2 m edge
        // drops one point at 1/2 (the rest, 3 points, carries on); removing the two 1 m edges
        // leaves three single points, which fall out together at 1.
        #expect(HandBuilt.rows(t) == [
            CondensedRow(12, 13, 0.25, 4), CondensedRow(12, 14, 0.25, 4), CondensedRow(12, 15, 0.25, 4),
            CondensedRow(13, 0, 1, 1), CondensedRow(13, 1, 1, 1), CondensedRow(13, 2, 1, 1), CondensedRow(13, 3, 0.5, 1),
            CondensedRow(14, 4, 1, 1), CondensedRow(14, 5, 1, 1), CondensedRow(14, 6, 1, 1), CondensedRow(14, 7, 0.5, 1),
            CondensedRow(15, 8, 1, 1), CondensedRow(15, 9, 1, 1), CondensedRow(15, 10, 1, 1), CondensedRow(15, 11, 0.5, 1),
        ])
        HandBuilt.checkRowOfPoint(t)
        #expect(t.clusterParent == [-1, 12, 12, 12])
        #expect(t.clusterBirth == [0, 0.25, 0.25, 0.25])
        #expect(t.clusterSize == [12, 4, 4, 4])
        // Root: 12 points leave it at 1/4: 12 · (0.25 - 0) = 3.
        // Each group: (0.5 - 0.25) · 1 + (1 - 0.25) · 3 = 0.25 + 2.25 = 2.5.
        #expect(t.stability == [3, 2.5, 2.5, 2.5])
        #expect(t.maxLambda == [0.25, 1, 1, 1])

        // EOM: the three leaves (the root is not a candidate without allowSingleCluster).
        let (selected, l) = HandBuilt.label(t)
        #expect(selected == [13, 14, 15])
        #expect(l.labels == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
        // Probability min(lambda, death) / death with death 1: 0.5 for the point that left at
        // 1/2, 1 for the others. GLOSH: (1 - lambda) / 1.
        #expect(l.probabilities == [1, 1, 1, 0.5, 1, 1, 1, 0.5, 1, 1, 1, 0.5])
        #expect(l.outlierScores == [0, 0, 0, 0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.5])

        // The tree does not depend on which 4 m edges the MST holds, nor on their order.
        #expect(Self.threeGroups(bridges: [(7, 8, 4), (3, 4, 4)]) == t)
        #expect(Self.threeGroups(bridges: [(0, 11, 4), (3, 4, 4)]) == t)
        // scikit-learn merges the two 4 m edges one after the other: its root splits into A∪B
        // and C, then A∪B splits into A and B at the same lambda (an extra cluster of
        // stability (0.25 - 0.25) · 8 = 0). EOM never keeps it, so its labels are the same
        // partition (numbered C, A, B) with the same probabilities.
    }

    // MARK: (b) tie with a part below minClusterSize

    /// A = 0…3, B = 4…7 (`fourPoints`), S = {8, 9} at 1 m; A–B and A–S at 4 m;
    /// minClusterSize 3.
    static func twoGroupsAndAPair(bridges: [Edge]) -> CondensedTree {
        let (a, b) = (HandBuilt.fourPoints(0), HandBuilt.fourPoints(4))
        return HandBuilt.condense(a.ones + b.ones + [(8, 9, 1), a.two, b.two] + bridges, points: 10, minClusterSize: 3)
    }

    @Test("a tied split with a part below minClusterSize: that part's points leave the parent")
    func tieWithSmallPart() {
        let t = Self.twoGroupsAndAPair(bridges: [(3, 4, 4), (0, 8, 4)])
        // Removing both 4 m edges leaves A (4), B (4) and S (2 < 3): A and B become clusters
        // 11 and 12 at lambda 1/4, S's two points fall out of the root at 1/4.
        #expect(HandBuilt.rows(t) == [
            CondensedRow(10, 8, 0.25, 1), CondensedRow(10, 9, 0.25, 1),
            CondensedRow(10, 11, 0.25, 4), CondensedRow(10, 12, 0.25, 4),
            CondensedRow(11, 0, 1, 1), CondensedRow(11, 1, 1, 1), CondensedRow(11, 2, 1, 1), CondensedRow(11, 3, 0.5, 1),
            CondensedRow(12, 4, 1, 1), CondensedRow(12, 5, 1, 1), CondensedRow(12, 6, 1, 1), CondensedRow(12, 7, 0.5, 1),
        ])
        HandBuilt.checkRowOfPoint(t)
        #expect(t.clusterParent == [-1, 10, 10])
        #expect(t.clusterSize == [10, 4, 4])
        // Root: all 10 points leave at 1/4 (8 in the two children, 2 alone): 10 · 0.25 = 2.5.
        // A and B: (0.5 - 0.25) · 1 + (1 - 0.25) · 3 = 2.5.
        #expect(t.stability == [2.5, 2.5, 2.5])
        #expect(t.maxLambda == [0.25, 1, 1])

        let (selected, l) = HandBuilt.label(t)
        #expect(selected == [11, 12])
        #expect(l.labels == [0, 0, 0, 0, 1, 1, 1, 1, -1, -1])
        #expect(l.probabilities == [1, 1, 1, 0.5, 1, 1, 1, 0.5, 0, 0])
        // GLOSH for S: it leaves the root, whose subtree dies at 1: (1 - 0.25) / 1 = 0.75.
        #expect(l.outlierScores == [0, 0, 0, 0.5, 0, 0, 0, 0.5, 0.75, 0.75])

        // Either order of the tied edges gives this tree. scikit-learn agrees with it row for
        // row when A–B comes first; with A–S first it makes a cluster A∪S, drops S from it at
        // 1/4 and labels S with A's cluster (probability 0.25 / 1): the sequential rule
        // n-ary rule of docs/commands.md replaces.
        #expect(Self.twoGroupsAndAPair(bridges: [(0, 8, 4), (3, 4, 4)]) == t)
    }

    @Test("one at a time, a three-way tie is scikit-learn's two splits: A∪B and C, then A∪B into A and B at the same lambda (stability 0)")
    func threeWayTieOneAtATime() {
        let (a, b, c) = (HandBuilt.fourPoints(0), HandBuilt.fourPoints(4), HandBuilt.fourPoints(8))
        let edges = a.ones + b.ones + c.ones + [a.two, b.two, c.two] + [(3, 4, 4), (7, 8, 4)]
        let mst = MinimumSpanningTree(a: edges.map(\.a), b: edges.map(\.b), weight: edges.map(\.w))
        let t = CondensedTree(linkage: SingleLinkageTree(mst: mst, pointCount: 12), minClusterSize: 3, ties: .oneAtATime)
        func group(_ cluster: Int32, _ o: Int32) -> [CondensedRow] {
            [CondensedRow(cluster, o, 1, 1), CondensedRow(cluster, o + 1, 1, 1), CondensedRow(cluster, o + 2, 1, 1),
             CondensedRow(cluster, o + 3, 0.5, 1)]
        }
        // scripts/reference/check_hand_built_trees.py checks these values against scikit-learn.
        #expect(HandBuilt.rows(t) == ([CondensedRow(12, 13, 0.25, 8), CondensedRow(12, 14, 0.25, 4),
                                       CondensedRow(13, 15, 0.25, 4), CondensedRow(13, 16, 0.25, 4)]
                                      + group(15, 0) + group(16, 4) + group(14, 8)).sorted())
        #expect(t.stability == [3, 0, 2.5, 2.5, 2.5])
        let (selected, l) = HandBuilt.label(t)
        #expect(selected == [14, 15, 16])
        #expect(l.labels == [1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0])
        #expect(l.probabilities == [1, 1, 1, 0.5, 1, 1, 1, 0.5, 1, 1, 1, 0.5])
    }

    @Test("one at a time, the tied merges are condensed in the MST's order, as scikit-learn does: A–S first makes a cluster A∪S that S then leaves; A–B first gives the all-at-once tree")
    func tieOneAtATime() {
        func tree(_ bridges: [Edge]) -> CondensedTree {
            let (a, b) = (HandBuilt.fourPoints(0), HandBuilt.fourPoints(4))
            let edges = a.ones + b.ones + [(8, 9, 1), a.two, b.two] + bridges
            let mst = MinimumSpanningTree(a: edges.map(\.a), b: edges.map(\.b), weight: edges.map(\.w))
            return CondensedTree(linkage: SingleLinkageTree(mst: mst, pointCount: 10), minClusterSize: 3, ties: .oneAtATime)
        }
        let abFirst = tree([(3, 4, 4), (0, 8, 4)]), allAtOnce = Self.twoGroupsAndAPair(bridges: [(3, 4, 4), (0, 8, 4)])
        #expect(HandBuilt.rows(abFirst) == HandBuilt.rows(allAtOnce) && abFirst.stability == allAtOnce.stability)
        let t = tree([(0, 8, 4), (3, 4, 4)])
        // The root (10) splits at 1/4 into A∪S (6 points, cluster 11: it holds row 0) and B (12);
        // A∪S then loses S at the same lambda and carries on as A.
        #expect(HandBuilt.rows(t) == [
            CondensedRow(10, 11, 0.25, 6), CondensedRow(10, 12, 0.25, 4),
            CondensedRow(11, 0, 1, 1), CondensedRow(11, 1, 1, 1), CondensedRow(11, 2, 1, 1), CondensedRow(11, 3, 0.5, 1),
            CondensedRow(11, 8, 0.25, 1), CondensedRow(11, 9, 0.25, 1),
            CondensedRow(12, 4, 1, 1), CondensedRow(12, 5, 1, 1), CondensedRow(12, 6, 1, 1), CondensedRow(12, 7, 0.5, 1),
        ])
        HandBuilt.checkRowOfPoint(t)
        // A∪S: S leaves at its birth (0), point 3 at 1/2 (0.25), the rest at 1 (3 · 0.75).
        #expect(t.stability == [2.5, 2.5, 2.5])
        let (selected, l) = HandBuilt.label(t)
        #expect(selected == [11, 12])
        // S is labelled with A's cluster, probability 0.25 / 1 (scikit-learn's labels for it).
        #expect(l.labels == [0, 0, 0, 0, 1, 1, 1, 1, 0, 0])
        #expect(l.probabilities == [1, 1, 1, 0.5, 1, 1, 1, 0.5, 0.25, 0.25])
    }

    // MARK: (c) coincident points

    @Test("coincident points leave at infinite lambda with probability 1 and no NaN anywhere")
    func coincidentPoints() {
        // 0, 1, 2 at one spot and 3 at 1 m; 4, 5, 6 at another and 7 at 1 m; the two groups
        // 8 m apart. minClusterSize 3.
        let t = HandBuilt.condense([(0, 1, 0), (1, 2, 0), (4, 5, 0), (5, 6, 0), (2, 3, 1), (6, 7, 1), (0, 4, 8)],
                                   points: 8, minClusterSize: 3)
        // The root splits at 1/8 into 9 = {0…3} and 10 = {4…7}; each drops its outlying point
        // at lambda 1 and its three coincident points (a run of 0 m edges: single points only)
        // at lambda 1/0 = ∞.
        #expect(HandBuilt.rows(t) == [
            CondensedRow(8, 9, 0.125, 4), CondensedRow(8, 10, 0.125, 4),
            CondensedRow(9, 0, .infinity, 1), CondensedRow(9, 1, .infinity, 1), CondensedRow(9, 2, .infinity, 1),
            CondensedRow(9, 3, 1, 1),
            CondensedRow(10, 4, .infinity, 1), CondensedRow(10, 5, .infinity, 1), CondensedRow(10, 6, .infinity, 1),
            CondensedRow(10, 7, 1, 1),
        ])
        HandBuilt.checkRowOfPoint(t)
        // Root: 8 · (1/8 - 0) = 1. Children: (1 - 1/8) · 1 + (∞ - 1/8) · 3 = ∞ (scikit-learn's
        // value too).
        #expect(t.stability == [1, .infinity, .infinity])
        #expect(t.maxLambda == [0.125, .infinity, .infinity])

        let (selected, l) = HandBuilt.label(t)
        #expect(selected == [9, 10])
        #expect(l.labels == [0, 0, 0, 0, 1, 1, 1, 1])
        // Probability: 1 at infinite lambda; for the outlying point min(1, ∞) / ∞ = 0, as in
        // scikit-learn. GLOSH: 0 at infinite lambda; 1 (the limit; the hdbscan library gives
        // NaN) for a finite lambda under an infinite death.
        #expect(l.probabilities == [1, 1, 1, 0, 1, 1, 1, 0])
        #expect(l.outlierScores == [0, 0, 0, 1, 0, 0, 0, 1])
        #expect(!(t.stability + l.probabilities + l.outlierScores).contains { $0.isNaN })
    }

    // MARK: (d) EOM tie keeps the parent, (f) maxClusterSize

    /// P = {0…5} with children C1 = {0, 1} and C2 = {2, 3} (1 m each, split at 2 m); point 4
    /// joins P at 4 m, point 5 at 8 m; Q = {6, 7} at 1 m; P–Q at `rootDistance`.
    /// minClusterSize 2. Ids: root 8, P 9, Q 10, C1 11, C2 12.
    static func nested(rootDistance: Double) -> CondensedTree {
        HandBuilt.condense([(0, 1, 1), (2, 3, 1), (6, 7, 1), (1, 2, 2), (3, 4, 4), (4, 5, 8), (5, 6, rootDistance)],
                           points: 8, minClusterSize: 2)
    }

    /// The rows of `nested`, with the root split at lambda `r`.
    static func nestedRows(_ r: Double) -> [CondensedRow] {
        [CondensedRow(8, 9, r, 6), CondensedRow(8, 10, r, 2),
         CondensedRow(9, 4, 0.25, 1), CondensedRow(9, 5, 0.125, 1), CondensedRow(9, 11, 0.5, 2), CondensedRow(9, 12, 0.5, 2),
         CondensedRow(10, 6, 1, 1), CondensedRow(10, 7, 1, 1),
         CondensedRow(11, 0, 1, 1), CondensedRow(11, 1, 1, 1), CondensedRow(12, 2, 1, 1), CondensedRow(12, 3, 1, 1)]
    }

    @Test("excess of mass keeps a parent whose stability equals its children's total")
    func eomTieKeepsParent() {
        let t = Self.nested(rootDistance: 16)
        #expect(HandBuilt.rows(t) == Self.nestedRows(0.0625))
        HandBuilt.checkRowOfPoint(t)
        #expect(t.clusterParent == [-1, 8, 8, 9, 9])
        #expect(t.clusterBirth == [0, 0.0625, 0.0625, 0.5, 0.5])
        #expect(t.clusterSize == [8, 6, 2, 2, 2])
        // Root: 8 · 1/16 = 0.5.
        // P (born 1/16): point 5 at 1/8, point 4 at 1/4, four points into C1, C2 at 1/2:
        //   (0.125 - 0.0625) · 1 + (0.25 - 0.0625) · 1 + (0.5 - 0.0625) · 4
        //   = 0.0625 + 0.1875 + 1.75 = 2.
        // Q: 2 · (1 - 0.0625) = 1.875.  C1, C2: 2 · (1 - 0.5) = 1 each, together 2 = P's.
        #expect(t.stability == [0.5, 2, 1.875, 1, 1])
        #expect(t.maxLambda == [0.0625, 0.5, 1, 1, 1])

        let (selected, l) = HandBuilt.label(t)
        // The children's total (2) is not strictly greater than P's (2): P is kept.
        #expect(selected == [9, 10])
        #expect(l.labels == [0, 0, 0, 0, 0, 0, 1, 1])
        // P's death is 1/2 (its largest own row): 0…3 get min(1, 0.5) / 0.5 = 1, point 4
        // 0.25 / 0.5 = 0.5, point 5 0.125 / 0.5 = 0.25. GLOSH uses P's subtree death, 1:
        // point 4 (1 - 0.25) = 0.75, point 5 (1 - 0.125) = 0.875.
        #expect(l.probabilities == [1, 1, 1, 1, 0.5, 0.25, 1, 1])
        #expect(l.outlierScores == [0, 0, 0, 0, 0.75, 0.875, 0, 0])
    }

    @Test("excess of mass never selects a cluster larger than maxClusterSize")
    func maxClusterSize() {
        // The same shape with the root split at 32 m: P is now strictly more stable than its
        // children, so maxClusterSize alone decides.
        let t = Self.nested(rootDistance: 32)
        #expect(HandBuilt.rows(t) == Self.nestedRows(0.03125))
        // Root: 8 · 1/32 = 0.25.
        // P: (0.125 - 0.03125) + (0.25 - 0.03125) + (0.5 - 0.03125) · 4
        //    = 0.09375 + 0.21875 + 1.875 = 2.1875 > 2 (C1 + C2).
        // Q: 2 · (1 - 0.03125) = 1.9375.
        #expect(t.stability == [0.25, 2.1875, 1.9375, 1, 1])

        for limit in [nil, 6] as [Int?] {  // P has 6 points: allowed (the test is "more than")
            let (selected, l) = HandBuilt.label(t, SelectionOptions(maxClusterSize: limit))
            #expect(selected == [9, 10], "maxClusterSize \(String(describing: limit))")
            #expect(l.labels == [0, 0, 0, 0, 0, 0, 1, 1])
            #expect(l.probabilities == [1, 1, 1, 1, 0.5, 0.25, 1, 1])
        }
        // At 5, P may not be selected: C1 and C2 are, and points 4 and 5, which left P itself,
        // are noise.
        let (selected, l) = HandBuilt.label(t, SelectionOptions(maxClusterSize: 5))
        #expect(selected == [10, 11, 12])
        #expect(l.labels == [1, 1, 2, 2, -1, -1, 0, 0])
        #expect(l.probabilities == [1, 1, 1, 1, 0, 0, 1, 1])
        // In the tie of the test above the limit decides the same way.
        #expect(HandBuilt.label(Self.nested(rootDistance: 16), SelectionOptions(maxClusterSize: 5)).0 == [10, 11, 12])
        // At 1 no cluster qualifies (each has at least 2 points): all noise.
        let (none, allNoise) = HandBuilt.label(t, SelectionOptions(maxClusterSize: 1))
        #expect(none.isEmpty)
        #expect(allNoise.labels == [Int32](repeating: -1, count: 8))
        #expect(allNoise.probabilities == [Double](repeating: 0, count: 8))
    }

    // MARK: (e) epsilon

    /// A = {0…4}: C1 = {0, 1} at 0.25 m, C2 = {2, 3} at 0.5 m, C1–C2 at 1 m, point 4 joins at
    /// 2 m; B = {5, 6} at 0.5 m; A–B at 4 m. minClusterSize 2. Ids: root 7, A 8, B 9,
    /// C1 10, C2 11.
    static let epsilonTree = HandBuilt.condense(
        [(0, 1, 0.25), (2, 3, 0.5), (5, 6, 0.5), (1, 2, 1), (3, 4, 2), (4, 5, 4)], points: 7, minClusterSize: 2)

    @Test("cluster_selection_epsilon replaces clusters born below it by their ancestor")
    func epsilon() {
        let t = Self.epsilonTree
        #expect(HandBuilt.rows(t) == [
            CondensedRow(7, 8, 0.25, 5), CondensedRow(7, 9, 0.25, 2),
            CondensedRow(8, 4, 0.5, 1), CondensedRow(8, 10, 1, 2), CondensedRow(8, 11, 1, 2),
            CondensedRow(9, 5, 2, 1), CondensedRow(9, 6, 2, 1),
            CondensedRow(10, 0, 4, 1), CondensedRow(10, 1, 4, 1), CondensedRow(11, 2, 2, 1), CondensedRow(11, 3, 2, 1),
        ])
        HandBuilt.checkRowOfPoint(t)
        // Root: 7 · 0.25 = 1.75. A: (0.5 - 0.25) · 1 + (1 - 0.25) · 4 = 3.25.
        // B: 2 · (2 - 0.25) = 3.5. C1: 2 · (4 - 1) = 6. C2: 2 · (2 - 1) = 2.
        #expect(t.stability == [1.75, 3.25, 3.5, 6, 2])
        #expect(t.maxLambda == [0.25, 1, 2, 4, 2])

        // Without epsilon, C1 + C2 = 8 > 3.25: EOM picks B, C1, C2; point 4 (left A) is noise.
        let plain = HandBuilt.label(t)
        #expect(plain.0 == [9, 10, 11])
        #expect(plain.1.labels == [1, 1, 2, 2, -1, 0, 0])
        #expect(plain.1.probabilities == [1, 1, 1, 1, 0, 1, 1])
        // Epsilon 1 m: C1 and C2 are born at exactly 1 m, not below it: nothing changes.
        #expect(HandBuilt.label(t, SelectionOptions(epsilon: 1)).1 == plain.1)

        // Epsilon 1.5 m (and up to 4 m, A's and B's birth distance, where the comparisons are
        // strict): C1 is born at 1 m < 1.5 m, so it is replaced by its parent A (born at 4 m,
        // and A's parent is the root); C2 lies under A and goes with it; B (4 m) stays. A's
        // death is 1: points 0…3 get probability 1, point 4 0.5 / 1. Leaf selection starts
        // from the same leaves and ends the same way.
        for options in [SelectionOptions(epsilon: 1.5), SelectionOptions(epsilon: 4),
                        SelectionOptions(method: .leaf, epsilon: 1.5)] {
            let (selected, l) = HandBuilt.label(t, options)
            #expect(selected == [8, 9], "\(options)")
            #expect(l.labels == [0, 0, 0, 0, 0, 1, 1], "\(options)")
            #expect(l.probabilities == [1, 1, 1, 1, 0.5, 1, 1], "\(options)")
        }

        // Epsilon 5 m with allowSingleCluster: B and A are born below 5 m and their parent is
        // the root, which may now be chosen: one cluster. A point joins it when it leaves at
        // lambda >= 1/5; every point does (0.5 at least). The root's death is 1/4, so each
        // probability is min(lambda, 0.25) / 0.25 = 1.
        let (single, l) = HandBuilt.label(t, SelectionOptions(epsilon: 5, allowSingleCluster: true))
        #expect(single == [7])
        #expect(l.labels == [Int32](repeating: 0, count: 7))
        #expect(l.probabilities == [Double](repeating: 1, count: 7))
    }
}

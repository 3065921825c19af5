// `allPointsMembershipVectors` for every fitted site at once. Two things make it cheap where a
// point-by-point answer is not:
// - The outlier part: a site that falls out of tree cluster a at lambda has, for each label, the
//   merge height of a with that label's cluster (the same for every site of a), or its own
//   lambda where one lies under the other. So exp(-(limit / height)) and its softmax term are
//   computed once per (a, label), and once per site for the labels that take its lambda.
// - The distance part: the sites are taken in groups of the model's index (ExemplarDistances);
//   for each group and label only the exemplars that can be nearest to some point of the group's
//   box are measured (Prediction+PlanarExemplars.swift, and SphereExemplarDistances).
// The values are those of the point-by-point formulas, bit for bit: the same operations on the
// same operands, sums in the same order.

/// The outlier part of every site's vector: hdbscan's softmax of exp(-(limit / height)) over
/// the labels, whose largest value is taken over the whole matrix; and the chance of being in
/// some cluster. With the merge table, what depends only on the tree cluster a site falls out
/// of is computed once per cluster.
struct SiteOutlierTerms {
    let clusterCount: Int
    /// By tree cluster × label: exp(-(limit / height)), or NaN where the site's lambda is the
    /// height; nil without the merge table (then every site walks the tree).
    let score: [Double]?
    /// The largest score over every site and label.
    let top: Double
    /// By tree cluster × label: exp(score − top) (NaN where the site's lambda decides), and for
    /// a cluster whose sites never take their own lambda, those terms normalised (else NaN).
    let term: [Double]
    let normalised: [Double]
    /// By tree cluster: the first label of largest merge height among those that are not the
    /// site's own lambda, that height (-inf for none), and the first label that is (-1: none).
    let highestLabel: [Int32]
    let highest: [Double]
    let firstOwn: [Int32]

    init(_ model: PredictionModel, _ context: SoftContext) {
        let c = model.clusterCount, clusters = model.parent.count
        clusterCount = c
        var used = [Bool](repeating: false, count: clusters)
        for a in model.fallCluster { used[Int(a)] = true }
        guard let merge = context.merge else {
            var top = -Double.infinity
            for i in model.fallLambda.indices {
                let a = Int(model.fallCluster[i]), limit = model.groupMaxLambda[a] + 1e-8
                for h in context.heights(a, model.fallLambda[i]) {
                    let v = ElementaryMath.exp(-(limit / h))
                    if v > top { top = v }
                }
            }
            (score, self.top, term, normalised, highestLabel, highest, firstOwn) = (nil, top, [], [], [], [], [])
            return
        }
        let score = Self.scores(model, merge, used: used)
        // Sites of a cluster that lies above or below some label take their own lambda there.
        var firstOwn = [Int32](repeating: -1, count: clusters)
        for a in 0..<clusters where used[a] {
            firstOwn[a] = (0..<c).first { merge[a * c + $0].isNaN }.map(Int32.init) ?? -1
        }
        var top = score.reduce(-Double.infinity) { $1 > $0 ? $1 : $0 }
        for i in model.fallLambda.indices where firstOwn[Int(model.fallCluster[i])] >= 0 {
            let a = Int(model.fallCluster[i])
            let v = ElementaryMath.exp(-((model.groupMaxLambda[a] + 1e-8) / model.fallLambda[i]))
            if v > top { top = v }
        }
        self.score = score
        self.top = top
        self.firstOwn = firstOwn
        term = score.map { $0.isNaN ? .nan : ElementaryMath.exp($0 - top) }
        var normalised = [Double](repeating: .nan, count: clusters * c)
        var highest = [Double](repeating: -.infinity, count: clusters), highestLabel = [Int32](repeating: 0, count: clusters)
        for a in 0..<clusters where used[a] {
            if firstOwn[a] < 0 {
                for j in 0..<c { normalised[a * c + j] = term[a * c + j] }
                normalised.withUnsafeMutableBufferPointer { PredictionModel.normalise($0.baseAddress! + a * c, c) }
            }
            for j in 0..<c where merge[a * c + j] > highest[a] { (highest[a], highestLabel[a]) = (merge[a * c + j], Int32(j)) }
        }
        self.normalised = normalised
        self.highest = highest
        self.highestLabel = highestLabel
    }

    /// By tree cluster × label: exp(-(limit / height)) where the merge height decides, else NaN.
    private static func scores(_ model: PredictionModel, _ merge: [Double], used: [Bool]) -> [Double] {
        let c = model.clusterCount
        var score = [Double](repeating: .nan, count: used.count * c)
        for a in used.indices where used[a] {
            let limit = model.groupMaxLambda[a] + 1e-8
            for j in 0..<c where !merge[a * c + j].isNaN { score[a * c + j] = ElementaryMath.exp(-(limit / merge[a * c + j])) }
        }
        return score
    }

    /// Site i's softmax terms exp(score − top) by label, normalised to sum 1, into `out`.
    func normalisedTerms(_ i: Int, _ model: PredictionModel, _ context: SoftContext, into out: UnsafeMutablePointer<Double>) {
        let c = clusterCount, a = Int(model.fallCluster[i]), lambda = model.fallLambda[i]
        let limit = model.groupMaxLambda[a] + 1e-8
        guard score != nil else {
            let heights = context.heights(a, lambda)
            for j in 0..<c { out[j] = ElementaryMath.exp(ElementaryMath.exp(-(limit / heights[j])) - top) }
            PredictionModel.normalise(out, c)
            return
        }
        if firstOwn[a] < 0 {
            normalised.withUnsafeBufferPointer { out.update(from: $0.baseAddress! + a * c, count: c) }
            return
        }
        let own = ElementaryMath.exp(ElementaryMath.exp(-(limit / lambda)) - top)
        for j in 0..<c {
            let t = term[a * c + j]
            out[j] = t.isNaN ? own : t
        }
        PredictionModel.normalise(out, c)
    }

    /// Site i's chance of being in some cluster: `probabilityInSomeCluster` of its merge
    /// heights (hdbscan's for fitted points), the largest height found from the cluster's.
    func inAny(_ i: Int, _ model: PredictionModel, _ context: SoftContext) -> Double {
        let a = Int(model.fallCluster[i]), lambda = model.fallLambda[i]
        guard score != nil, !lambda.isNaN else {
            return model.probabilityInSomeCluster(context.heights(a, lambda), lambda, extra: 0, topFirst: true)
        }
        // The first label of the largest height, its own lambda counting where it decides.
        var (best, label) = (highest[a], Int(highestLabel[a]))
        let own = Int(firstOwn[a])
        if own >= 0 && (lambda > best || (lambda == best && own < label)) { (best, label) = (lambda, own) }
        let top = model.groupMaxLambda[Int(model.selected[label])]
        return best / ((lambda > top ? lambda : top) + 0)
    }
}

/// The distance part of soft clustering, group by group of an index's sites: for a group, the
/// exemplars of each label that can be the nearest to one of its sites, and from them each
/// site's distance to its nearest exemplar of every label.
protocol ExemplarDistances {
    associatedtype Candidates
    /// Calls `body` with each group's index positions and its candidates, on up to `threads`
    /// workers at once; the groups' positions cover every position once.
    func forEachGroup(threads: Int, _ body: (_ positions: Range<Int>, _ candidates: Candidates) -> Void)
    /// Site i's distance to the nearest exemplar of each label, from the candidates of its
    /// group, into `out` (the largest double for a label without exemplars).
    func distances(site i: Int, _ candidates: Candidates, into out: UnsafeMutablePointer<Double>)
}

extension PredictionModel {
    /// `allPointsMembershipVectors` site by site, group by group of the index: each site's
    /// vector handed to `write` (called from several threads at once, for distinct sites).
    func siteMembershipVectors(labels: [Int32], threads: Int, write: (Int, UnsafePointer<Double>) -> Void) {
        let context = SoftContext(self)
        switch index {
        case let .plane(tree):
            siteMembershipVectors(PlanarExemplarDistances(tree: tree, context: context, points: sites.points),
                                  order: tree.index, context: context, labels: labels, threads: threads, write: write)
        case let .sphere(sphere):
            siteMembershipVectors(SphereExemplarDistances(sites: sphere, context: context),
                                  order: sphere.tree.index, context: context, labels: labels, threads: threads, write: write)
        }
    }

    /// `siteMembershipVectors` with the distance part of `exemplars`, whose positions are
    /// sites by `order`.
    private func siteMembershipVectors<E: ExemplarDistances>(
        _ exemplars: E, order: [Int32], context: SoftContext, labels: [Int32], threads: Int,
        write: (Int, UnsafePointer<Double>) -> Void
    ) {
        let c = clusterCount
        let outlier = SiteOutlierTerms(self, context)
        exemplars.forEachGroup(threads: threads) { positions, near in
            let scratch = UnsafeMutablePointer<Double>.allocate(capacity: 3 * c)
            defer { scratch.deallocate() }
            for p in positions {
                let i = Int(order[p])
                exemplars.distances(site: i, near, into: scratch + c)
                siteVector(i, outlier, context, label: labels[Int(sites.firstRow[i])], scratch: scratch,
                           into: scratch + 2 * c)
                write(i, scratch + 2 * c)
            }
        }
    }

    /// Site i's membership vector into `row`: the outlier terms and the exemplar weights (made
    /// in place from the distances at `scratch + c`), each normalised, their product normalised
    /// and scaled by the chance of being in any cluster.
    private func siteVector(
        _ i: Int, _ outlier: SiteOutlierTerms, _ context: SoftContext,
        label: Int32, scratch: UnsafeMutablePointer<Double>, into row: UnsafeMutablePointer<Double>
    ) {
        let c = clusterCount, terms = scratch, weights = scratch + c
        outlier.normalisedTerms(i, self, context, into: terms)
        Self.exemplarWeights(fromDistances: weights, c)
        for j in 0..<c { row[j] = weights[j] * terms[j] }
        Self.normalise(row, c)
        let inAny = outlier.inAny(i, self, context)
        var undefined = false
        for j in 0..<c {
            row[j] *= inAny
            if row[j].isNaN { undefined = true }
        }
        if undefined { for j in 0..<c { row[j] = j == Int(label) ? 1 : 0 } }
    }

    /// The smallest squared distance from (x, y) to `count` (x, y) pairs; infinity for none.
    /// Four running minima, so that the loop is not one chain of dependent comparisons (the
    /// minimum does not depend on the order).
    @inline(__always)
    static func smallestSquare(_ xy: UnsafePointer<Double>, count: Int, x: Double, y: Double) -> Double {
        var m0 = Double.infinity, m1 = Double.infinity, m2 = Double.infinity, m3 = Double.infinity
        var k = 0
        while k + 4 <= count {
            let p = xy + 2 * k
            let a = (p[0] - x) * (p[0] - x) + (p[1] - y) * (p[1] - y)
            let b = (p[2] - x) * (p[2] - x) + (p[3] - y) * (p[3] - y)
            let e = (p[4] - x) * (p[4] - x) + (p[5] - y) * (p[5] - y)
            let f = (p[6] - x) * (p[6] - x) + (p[7] - y) * (p[7] - y)
            m0 = min(m0, a); m1 = min(m1, b); m2 = min(m2, e); m3 = min(m3, f)
            k += 4
        }
        while k < count {
            let dx = xy[2 * k] - x, dy = xy[2 * k + 1] - y
            m0 = min(m0, dx * dx + dy * dy)
            k += 1
        }
        return min(min(m0, m1), min(m2, m3))
    }

    /// `normalise` on c values in place.
    static func normalise(_ values: UnsafeMutablePointer<Double>, _ c: Int) {
        var sum = 0.0
        for j in 0..<c { sum += values[j] }
        for j in 0..<c { values[j] /= sum }
    }
}

extension KDTree {
    /// The nodes of the deepest level whose nodes hold at most `size` points (the root when the
    /// tree is smaller), in heap order: their ranges cover every position once.
    func groups(ofAtMost size: Int) -> [Int] {
        Self.groups(start: start, end: end, ofAtMost: size)
    }

    /// `groups(ofAtMost:)` of a heap-ordered tree of nodes over position ranges `start`/`end`.
    static func groups(start: [Int32], end: [Int32], ofAtMost size: Int) -> [Int] {
        let nodeCount = start.count
        var level = 0
        while (1 << level) - 1 < nodeCount && Int(end[(1 << level) - 1] - start[(1 << level) - 1]) > size
            && (1 << (level + 1)) - 1 < nodeCount {
            level += 1
        }
        return Array(((1 << level) - 1)..<min(nodeCount, (1 << (level + 1)) - 1))
    }
}

// Soft clustering with the hdbscan library's semantics (`membership_vector`,
// `all_points_membership_vectors`): for each point, a probability per fitted cluster that
// combines how near the point is to the cluster's exemplars with how high in the condensed tree
// it merges with the cluster, scaled by how likely the point is to be in any cluster at all.
// The formulas, constants and their quirks (a new point's lambda rounded to single precision
// for one factor, the squared and square-rooted factors for new points only) are hdbscan's, so
// that code written against it gets its numbers.
//
// Where hdbscan divides infinity by infinity (a point at infinite lambda, such as one of at
// least m coincident copies, in a cluster whose largest lambda is infinite) it returns NaN for
// the whole vector; here that point belongs wholly to its own label (and to none when noise).

extension PredictionModel {
    /// Membership vectors of new points: row-major, `clusterCount` values a point (hdbscan's
    /// `membership_vector`; its columns follow this model's labels).
    /// - Parameters:
    ///   - newPoints: the points, in the fit's coordinates (a model of a fit on the sphere
    ///     takes `SpherePoints`).
    ///   - threads: workers; the values are the same for any number.
    public func membershipVectors(_ newPoints: PointSet, threads: Int = 1) -> [Double] {
        precondition(!isOnSphere, "a model fitted on the sphere takes SpherePoints")
        return membershipVectors(xs: newPoints.xs, ys: newPoints.ys, threads: threads)
    }

    /// Membership vectors of new points on a model fitted on the sphere (distances in metres
    /// along great circles); as the planar `membershipVectors`.
    public func membershipVectors(_ newPoints: SpherePoints, threads: Int = 1) -> [Double] {
        precondition(isOnSphere, "a model of a planar fit takes a PointSet")
        return membershipVectors(xs: newPoints.longitudes, ys: newPoints.latitudes, threads: threads)
    }

    /// `membershipVectors` of the points (xs[i], ys[i]).
    private func membershipVectors(xs: [Double], ys: [Double], threads: Int) -> [Double] {
        let c = clusterCount
        guard c > 0, pointCount > 0 else { return [] }
        let context = SoftContext(self)
        return [Double].initialized(count: xs.count * c) { base in
            let out = SharedBuffer(base: base)
            if !isOnSphere, let points = try? PointSet(xs: xs, ys: ys) {
                groupedMembershipVectors(points, context, threads: threads, into: out)
                return
            }
            Parallel.forEachChunk(count: xs.count, grain: 1024, threads: threads) { chunk, _ in
                var buffer = queryBuffer(), near = context.scratch()
                for i in chunk {
                    let weights = context.exemplarWeights(x: xs[i], y: ys[i], &near)
                    let row = membershipVector(x: xs[i], y: ys[i], buffer: &buffer, context, weights: weights)
                    for j in 0..<c { out[i * c + j] = row[j] }
                }
            }
        }
    }

    /// `membershipVectors` of planar points with the exemplar distances of all-points soft
    /// clustering: the points in groups of a k-d tree over them, each group's candidates
    /// narrowed from its parent's (Prediction+PlanarExemplars.swift). The same values as point
    /// by point.
    private func groupedMembershipVectors(_ points: PointSet, _ context: SoftContext, threads: Int, into out: SharedBuffer<Double>) {
        let c = clusterCount
        let tree = KDTree(points: points)
        let exemplars = PlanarExemplarDistances(tree: tree, context: context, points: points)
        exemplars.forEachGroup(threads: threads) { positions, near in
            var buffer = queryBuffer()
            var weights = [Double](repeating: 0, count: c)
            for p in positions {
                let i = Int(tree.index[p])
                weights.withUnsafeMutableBufferPointer { w in
                    exemplars.distances(site: i, near, into: w.baseAddress!)
                    Self.exemplarWeights(fromDistances: w.baseAddress!, c)
                }
                let row = membershipVector(x: points.xs[i], y: points.ys[i], buffer: &buffer, context, weights: weights)
                for j in 0..<c { out[i * c + j] = row[j] }
            }
        }
    }

    /// One new point's membership vector; `buffer` is scratch from `queryBuffer()`. On a model
    /// fitted on the sphere x is the longitude and y the latitude, in degrees.
    public func membershipVector(x: Double, y: Double, buffer: inout KNNBuffer) -> [Double] {
        guard clusterCount > 0, pointCount > 0 else { return [] }
        let context = SoftContext(self)
        var near = context.scratch()
        return membershipVector(x: x, y: y, buffer: &buffer, context, weights: context.exemplarWeights(x: x, y: y, &near))
    }

    /// `membershipVector(x:y:buffer:)` with the call's context and the point's exemplar weights
    /// (`SoftContext.exemplarWeights`).
    func membershipVector(x: Double, y: Double, buffer: inout KNNBuffer, _ context: SoftContext,
                          weights near: [Double]) -> [Double] {
        let join = joining(x: x, y: y, buffer: &buffer)
        let site = Int(join.site), cluster = Int(fallCluster[site])
        let lambda = min(fallLambda[site], join.lambda)
        let top = groupMaxLambda[cluster]
        let outlier = Self.softmaxNormalised(context.heights(cluster, Double(Float(lambda))).map { h in
            Self.safeRatio(top, top - h)
        })
        var vector = (0..<clusterCount).map { near[$0].squareRoot() * (outlier[$0] * outlier[$0]) }
        Self.normalise(&vector)
        let inAny = probabilityInSomeCluster(context.heights(cluster, lambda), lambda, extra: 1e-8, topFirst: false)
        let answer = vector.map { $0 * inAny }
        return answer.contains(where: \.isNaN) ? oneHot(predict(x: x, y: y, buffer: &buffer).label) : answer
    }

    /// Membership vectors of the fitted points: row-major, `clusterCount` values a row
    /// (hdbscan's `all_points_membership_vectors`); empty when there are no clusters.
    /// - Parameters:
    ///   - labels: the fit's labels, by row (for the rows hdbscan leaves undefined).
    ///   - threads: workers; the values are the same for any number.
    public func allPointsMembershipVectors(labels: [Int32], threads: Int = 1) -> [Double] {
        let c = clusterCount, n = pointCount
        guard c > 0, n > 0 else { return [] }
        return [Double].initialized(count: n * c) { base in
            allPointsMembershipVectors(labels: labels, threads: threads,
                                       into: UnsafeMutableBufferPointer(start: base, count: n * c))
        }
    }

    /// `allPointsMembershipVectors(labels:threads:)` written into `out` (the caller's memory:
    /// a million points of a hundred clusters are most of a gigabyte, better not copied).
    /// - Parameters:
    ///   - labels: the fit's labels, by row.
    ///   - threads: workers; the values are the same for any number.
    ///   - out: room for `pointCount × clusterCount` values; nothing is written when there are
    ///     no clusters.
    public func allPointsMembershipVectors(labels: [Int32], threads: Int = 1, into out: UnsafeMutableBufferPointer<Double>) {
        let c = clusterCount, n = pointCount
        guard c > 0, n > 0 else { return }
        precondition(out.count >= n * c, "room for pointCount × clusterCount values")
        let rows = sites.rowsBySite()
        let shared = SharedBuffer(base: out.baseAddress!)
        siteMembershipVectors(labels: labels, threads: threads) { site, vector in
            for k in Int(rows.start[site])..<Int(rows.start[site + 1]) {
                (shared.base + Int(rows.rows[k]) * c).update(from: vector, count: c)
            }
        }
    }

    /// How likely a point at `lambda`, merging with the selected clusters at `heights`, is to
    /// be in some cluster: its highest merge height over the larger of its lambda and that
    /// cluster's group maximum (plus `extra`; hdbscan orders the two operands differently for
    /// fitted and new points, which matters only for NaN).
    func probabilityInSomeCluster(_ heights: [Double], _ lambda: Double, extra: Double, topFirst: Bool) -> Double {
        var best = -Double.infinity, bestLabel = 0
        for (j, h) in heights.enumerated() where h > best || (best.isNaN == false && h.isNaN) {
            (best, bestLabel) = (h, j)
        }
        let top = groupMaxLambda[Int(selected[bestLabel])]
        let larger = topFirst ? (lambda > top ? lambda : top) : (top > lambda ? top : lambda)
        return best / (larger + extra)
    }

    /// A vector with 1 at `label` (all zeros for noise).
    func oneHot(_ label: Int32) -> [Double] {
        (0..<clusterCount).map { $0 == Int(label) ? 1 : 0 }
    }

    /// hdbscan's `safe_always_positive_division`: a non-positive denominator counts as 1e-8.
    static func safeRatio(_ numerator: Double, _ denominator: Double) -> Double {
        numerator / (denominator <= 0 ? 1e-8 : denominator)
    }

    /// exp(v − largest) normalised to sum 1, NaNs ignored in the largest (numpy's `nanmax`).
    static func softmaxNormalised(_ values: [Double]) -> [Double] {
        let top = values.reduce(-Double.infinity) { $1.isNaN ? $0 : max($0, $1) }
        var result = values.map { ElementaryMath.exp($0 - top) }
        normalise(&result)
        return result
    }

    /// Each label's distance to its nearest exemplar turned, in place, into hdbscan's exemplar
    /// weight: its inverse (the largest double over c for a point on an exemplar), normalised
    /// to sum 1.
    static func exemplarWeights(fromDistances values: UnsafeMutablePointer<Double>, _ c: Int) {
        for j in 0..<c { values[j] = values[j] != 0 ? 1 / values[j] : Double.greatestFiniteMagnitude / Double(c) }
        normalise(values, c)
    }

    /// Divides every value by their sum.
    static func normalise(_ values: inout [Double]) {
        let sum = values.reduce(0, +)
        for i in values.indices { values[i] /= sum }
    }
}

// The one value that says in which space points are clustered: planar (metres, or any unit
// the distances share), on the sphere (great circles), or in d dimensions (Euclidean). Every method takes it, and each
// caller (the Harness, the C API) holds one value instead of a pair of optionals.

/// Points in the plane, on the sphere or in d dimensions.
public enum Points: Sendable {
    /// Planar x, y: Euclidean distances in their unit.
    case plane(PointSet)
    /// Longitude, latitude in degrees: great-circle distances in metres.
    case sphere(SpherePoints)
    /// d coordinates each (1 to `FeaturePoints.maximumDimensions`): Euclidean distances in
    /// their unit. Two dimensions are better given as `.plane`, the fast path.
    case features(FeaturePoints)

    /// The number of points.
    public var count: Int {
        switch self {
        case let .plane(plane): return plane.count
        case let .sphere(sphere): return sphere.count
        case let .features(features): return features.count
        }
    }

    /// The number of coordinates of each point (2 in the plane and on the sphere).
    public var dimensions: Int {
        if case let .features(features) = self { return features.dimensions }
        return 2
    }

    /// Whether distances are great circles.
    public var isOnSphere: Bool {
        if case .sphere = self { return true } else { return false }
    }
}

extension HDBSCAN {
    /// Runs HDBSCAN on planar points, on the sphere or in d dimensions (see each space's
    /// `fit` for what it computes and throws).
    public static func fit(
        _ points: consuming Points, parameters: HDBSCANParameters, sampleWeight: [Double]? = nil, threads: Int = 1,
        keeping: HDBSCANOutputs = .all, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> HDBSCANResult {
        switch consume points {
        case let .plane(plane):
            return try fit(consume plane, parameters: parameters, sampleWeight: sampleWeight, threads: threads,
                           keeping: keeping, observer: observer)
        case let .sphere(sphere):
            return try fit(sphere, parameters: parameters, sampleWeight: sampleWeight, threads: threads, keeping: keeping,
                           observer: observer)
        case let .features(features):
            return try fit(features, parameters: parameters, sampleWeight: sampleWeight, threads: threads,
                           keeping: keeping, observer: observer)
        }
    }

    /// The first three stages alone (index, core distances, MST), in the plane, on the
    /// sphere or in d dimensions: the mutual-reachability minimum spanning tree over input rows, sorted by
    /// weight (metres on the sphere), and each row's core distance. `minSamples = 1`
    /// (scikit-learn's convention) makes every core distance 0, so the tree is the plain MST
    /// and its single-linkage hierarchy that of plain single linkage (the Pins module cuts its
    /// zoom levels from it).
    /// - Parameters:
    ///   - points: the points (consumed: pass `consume` to free them early).
    ///   - minSamples: the neighbour count of the core distances, in `convention`'s meaning.
    ///   - convention: which library's meaning `minSamples` has.
    ///   - threads: worker threads; the output is identical for any value.
    ///   - observer: sees each stage (`HDBSCANStage`) run.
    /// - Throws: `.invalidParameter` if `minSamples < 1`; `.tooFewPoints` if there are fewer
    ///   points than the neighbour count.
    /// - Complexity: O(n log n) expected on 2-D data; the output is identical for any `threads`.
    public static func minimumSpanningTree(
        _ points: consuming Points, minSamples: Int, convention: MinSamplesConvention = .sklearn,
        threads: Int = 1, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> (mst: MinimumSpanningTree, coreDistances: [Double]) {
        let parameters = HDBSCANParameters(minClusterSize: 2, minSamples: minSamples, minSamplesConvention: convention)
        try parameters.validate()
        let count = points.count
        if count < 2 {
            return (MinimumSpanningTree(a: [], b: [], weight: []), [Double](repeating: 0, count: count))
        }
        let spanning: SpanningTree
        switch consume points {
        case let .plane(plane):
            spanning = try spanningTree(consume plane, parameters: parameters, grouping: true, threads: threads, observer: observer)
        case let .sphere(sphere):
            spanning = try sphereSpanningTree(sphere, parameters: parameters, threads: threads, observer: observer)
        case let .features(features):
            spanning = try featureSpanningTree(features, parameters: parameters, sampleWeight: nil, threads: threads,
                                               observer: observer)
        }
        return (spanning.pointMST(), spanning.coreByRow)
    }
}

extension PredictionModel {
    /// New points against the model, in the space it was fitted in (a precondition: models
    /// are made in the plane or on the sphere).
    public func predict(_ points: Points, threads: Int = 1) -> [Prediction] {
        switch points {
        case let .plane(plane): predict(plane, threads: threads)
        case let .sphere(sphere): predict(sphere, threads: threads)
        case .features: preconditionFailure("a prediction model is made in the plane or on the sphere")
        }
    }

    /// hdbscan's `membership_vector` of new points, in the space the model was fitted in.
    public func membershipVectors(_ points: Points, threads: Int = 1) -> [Double] {
        switch points {
        case let .plane(plane): membershipVectors(plane, threads: threads)
        case let .sphere(sphere): membershipVectors(sphere, threads: threads)
        case .features: preconditionFailure("a prediction model is made in the plane or on the sphere")
        }
    }
}

extension DBSCAN {
    /// Runs DBSCAN on planar points, on the sphere (`eps` in metres there) or in d dimensions.
    public static func fit(
        _ points: Points, parameters: DBSCANParameters, sampleWeight: [Double]? = nil, threads: Int = 1,
        observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> DBSCANResult {
        switch points {
        case let .plane(plane):
            return try fit(plane, parameters: parameters, sampleWeight: sampleWeight, threads: threads, observer: observer)
        case let .sphere(sphere):
            return try fit(sphere, parameters: parameters, sampleWeight: sampleWeight, threads: threads, observer: observer)
        case let .features(features):
            return try fit(features, parameters: parameters, sampleWeight: sampleWeight, threads: threads, observer: observer)
        }
    }
}

extension GridClustering {
    /// Grid clustering of planar points or on the sphere (equal-area cells there).
    /// - Throws: `.invalidParameter` for points in d dimensions: cells are a map's.
    public static func fit(
        _ points: Points, parameters: GridParameters, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> GridResult {
        switch points {
        case let .plane(plane): return try fit(plane, parameters: parameters, observer: observer)
        case let .sphere(sphere): return try fit(sphere, parameters: parameters, observer: observer)
        case let .features(features):
            throw .invalidParameter(name: "points", value: "\(features.dimensions) dimensions",
                                    requirement: "grid clustering takes points in the plane or on the sphere")
        }
    }
}

// Grid clustering on the sphere: square cells of Lambert's cylindrical equal-area projection
// (x = R·λ, y = R·sin φ on the sphere of radius `SpherePoints.earthRadius`), where every
// s × s square has exactly the area s² on the sphere; on the ground a cell is s·cos φ wide and
// s / cos φ tall (at 37.5° 0.79 s × 1.26 s, at 60° 0.5 s × 2 s). The cut that maps the circle
// of longitudes to a line is put in the middle of the widest stretch of longitude without
// points (`CircularGap`, the one pins and maps open their window at), so a group across ±180°
// stays in one piece. The planar rules follow (cells
// anchored at the cut and the equator, density, 8-adjacent merging, numbering by lowest row).

extension GridClustering {
    /// Clusters points on the sphere by equal-area grid cells of `parameters.cellSize`
    /// metres (see the file's header).
    /// - Throws: as the planar `fit`.
    public static func fit(
        _ points: SpherePoints, parameters: GridParameters, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> GridResult {
        try parameters.validate()
        let cut = longitudeCut(points.longitudes)
        let r = SpherePoints.earthRadius, d = Double.pi / 180
        var xs = [Double](repeating: 0, count: points.count), ys = xs
        for i in 0..<points.count {
            var offset = (points.longitudes[i] - cut).truncatingRemainder(dividingBy: 360)
            if offset < 0 { offset += 360 }
            xs[i] = r * offset * d
            ys[i] = r * ElementaryMath.sin(points.latitudes[i] * d)
        }
        return try fit(PointSet(xs: xs, ys: ys), parameters: parameters, observer: observer)
    }

    /// The longitude (degrees) where the circle is cut: the middle of the widest empty
    /// stretch of longitude (`CircularGap`), so a group across ±180° stays whole.
    static func longitudeCut(_ longitudes: [Double]) -> Double {
        CircularGap(of: longitudes, from: -180, period: 360).middle(from: -180, period: 360)
    }
}

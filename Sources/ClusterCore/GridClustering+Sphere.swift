// Grid clustering on the sphere: square cells of Lambert's cylindrical equal-area projection
// (x = R·λ, y = R·sin φ on the sphere of radius `SpherePoints.earthRadius`), where every
// s × s square has exactly the area s² on the sphere; on the ground a cell is s·cos φ wide and
// s / cos φ tall (at 37.5° 0.79 s × 1.26 s, at 60° 0.5 s × 2 s). The cut that maps the circle
// of longitudes to a line is put in the middle of the widest stretch of longitude without
// points (0.01° bins), so a group across ±180° stays in one piece; where no longitude is
// free (data all round the globe) the cut is at ±180°. The planar rules follow (cells
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

    /// The longitude (degrees) where the circle is cut: the middle of the widest run of empty
    /// 0.01° bins (runs wrap around ±180°), or -180 when none is empty.
    static func longitudeCut(_ longitudes: [Double]) -> Double {
        let bins = 36_000
        var used = [Bool](repeating: false, count: bins)
        for l in longitudes {
            var offset = (l + 180).truncatingRemainder(dividingBy: 360)
            if offset < 0 { offset += 360 }
            used[Swift.min(bins - 1, Int(offset * 100))] = true
        }
        guard let firstUsed = used.firstIndex(of: true), used.contains(false) else { return -180 }
        // Walk once round from a used bin, so every empty run is seen whole.
        var best = (start: 0, length: 0), run = (start: (firstUsed + 1) % bins, length: 0)
        for k in 1...bins {
            let b = (firstUsed + k) % bins
            if used[b] {
                if run.length > best.length { best = run }
                run = (start: (b + 1) % bins, length: 0)
            } else {
                run.length += 1
            }
        }
        let middle = Double(best.start) + Double(best.length) / 2
        return middle / 100 - 180
    }
}

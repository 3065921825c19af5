import ClusterCore
import Datasets

extension RunRecord {
    /// The label file's columns for this method: HDBSCAN `id,label,probability,outlier_score`,
    /// DBSCAN `id,label,is_core`, grid `id,label`.
    public var labelColumns: [String] {
        switch method {
        case .hdbscan: return ["id", "label", "probability", "outlier_score"]
        case .dbscan: return ["id", "label", "is_core"]
        case .grid: return ["id", "label"]
        }
    }

    /// The label columns without the id, for ``PointFile/writeRows(appending:to:options:)``
    /// (`cluster --append`).
    public var appendedColumns: [AppendedColumn] {
        var columns = [AppendedColumn("label", .integers(labels))]
        if let labeling = hdbscan?.labeling {
            columns.append(AppendedColumn("probability", .fractions(labeling.probabilities)))
            columns.append(AppendedColumn("outlier_score", .fractions(labeling.outlierScores)))
        } else if let isCore {
            columns.append(AppendedColumn("is_core", .integers(isCore.map { $0 ? 1 : 0 })))
        }
        return columns
    }

    /// Writes one row per clustered row, in input order (see `labelColumns`); probabilities and
    /// outlier scores with 10 decimals. Written to a temporary file and renamed into place.
    /// - Parameter idName: the id column's name (the input's own with `--id-column`).
    /// - Complexity: O(n), the rows formatted on `threads` workers.
    public func writeLabels(to path: String, threads: Int, idName: String = "id") throws(DatasetError) {
        var out = try CSVWriter(path: path)
        try out.header([idName] + labelColumns.dropFirst())
        let file = self.file, labels = self.labels
        let labeling = hdbscan?.labeling, isCore = self.isCore
        try out.writeRows(count: file.count, threads: threads) { out, i in
            if file.hasIDColumn { file.withIDBytes(i) { out.field(bytes: $0) } } else { out.field(i) }
            out.field(Int(labels[i]))
            if let labeling {
                out.field(unitInterval: labeling.probabilities[i])
                out.field(unitInterval: labeling.outlierScores[i])
            } else if let isCore {
                out.field(isCore[i] ? 1 : 0)
            }
        }
        try out.commit()
    }

    /// Writes HDBSCAN's condensed tree as `parent,child,lambda,child_size` (scikit-learn's
    /// layout; points are 0-based rows of the clustered points).
    public static func writeCondensedTree(_ t: CondensedTree, to path: String) throws(DatasetError) {
        var out = try CSVWriter(path: path)
        try out.header(["parent", "child", "lambda", "child_size"])
        for i in 0..<t.parent.count {
            out.field(Int(t.parent[i])); out.field(Int(t.child[i]))
            out.field(t.lambda[i]); out.field(Int(t.childSize[i]))
            try out.endRow()
        }
        try out.commit()
    }

    /// Writes the MST as `a,b,weight` (0-based rows of the clustered points; metres, ascending).
    public static func writeMST(_ m: MinimumSpanningTree, to path: String) throws(DatasetError) {
        var out = try CSVWriter(path: path)
        try out.header(["a", "b", "weight"])
        for i in 0..<m.count {
            out.field(Int(m.a[i])); out.field(Int(m.b[i])); out.field(m.weight[i])
            try out.endRow()
        }
        try out.commit()
    }
}

extension RunRecord {
    /// Writes the labels as a GeoJSON FeatureCollection of Point features (RFC 7946: longitude,
    /// latitude in WGS 84, 6 decimals ≈ 0.1 m), one per clustered row in input order, with the
    /// label file's columns as properties, so the labels can be dropped on any map.
    /// - Parameter idName: the id property's name (the input's own with `--id-column`).
    /// - Precondition: one longitude and latitude per clustered row.
    public func writeLabelsGeoJSON(to path: String, longitudes: [Double], latitudes: [Double],
                                   idName: String = "id") throws(DatasetError) {
        precondition(longitudes.count == labels.count && latitudes.count == labels.count, "one position per row")
        var out = try GeoJSONWriter(path: path)
        let labeling = hdbscan?.labeling
        for i in 0..<labels.count {
            out.beginFeature(lon: longitudes[i], lat: latitudes[i], decimals: 6)
            if file.hasIDColumn { out.property(idName, id: file.id(i)) } else { out.property(idName, i) }
            out.property("label", Int(labels[i]))
            if let labeling {
                out.property("probability", labeling.probabilities[i], decimals: 10)
                out.property("outlier_score", labeling.outlierScores[i], decimals: 10)
            } else if let isCore {
                out.property("is_core", isCore[i] ? 1 : 0)
            }
            try out.endFeature()
        }
        try out.commit()
    }
}

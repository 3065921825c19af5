import ClusterCore
import Datasets

/// New points placed against a saved model (`geocluster predict`): the rows read and each
/// one's answer.
public struct PredictionRecord: Sendable {
    /// The rows read (their coordinates were handed to the prediction and are empty here).
    public var file: PointFile
    /// Each row's label, probability, outlier score and connecting fitted row.
    public var predictions: [Prediction]
    /// The number of clusters of the model.
    public var clusterCount: Int

    /// Writes `id,label,probability,outlier_score`, one row per point read, in input order.
    public func writeLabels(to path: String, threads: Int, idName: String = "id") throws(DatasetError) {
        var out = try CSVWriter(path: path)
        try out.header([idName, "label", "probability", "outlier_score"])
        let file = self.file, predictions = self.predictions
        try out.writeRows(count: file.count, threads: threads) { out, i in
            if file.hasIDColumn { file.withIDBytes(i) { out.field(bytes: $0) } } else { out.field(i) }
            out.field(Int(predictions[i].label))
            out.field(unitInterval: predictions[i].probability)
            out.field(predictions[i].outlierScore, decimals: 10)
        }
        try out.commit()
    }
}

extension Harness {
    /// Reads the points of `input` and places each against `saved` (hdbscan's
    /// `approximate_predict`): longitude/latitude projected to the CRS the model was fitted in,
    /// or kept on the sphere for a model fitted there.
    /// - Throws: `HarnessError` naming the file: `.model` when the input's coordinates are not
    ///   of the kind the model was fitted on.
    public static func predict(
        _ input: RunInput, model saved: SavedModel, modelPath: String, threads: Int, clock: StageClock
    ) throws(HarnessError) -> PredictionRecord {
        var input = input
        let sphere = saved.model.isOnSphere
        input.crs = saved.projectedCRS ?? "auto"
        input.metric = sphere ? .geodesic : .planar
        if input.options.threads == nil { input.options.threads = threads }
        let prepared: PreparedPoints
        do throws(HarnessError) {
            prepared = try prepare(input, clock: clock)
        } catch .cluster(_, _) where sphere {
            throw mismatch(fitted: "longitude/latitude (on the sphere)", given: "planar x,y", input.path, modelPath)
        }
        if !sphere && (prepared.projectedCRS == nil) != (saved.projectedCRS == nil) {
            let fitted = saved.projectedCRS.map { "longitude/latitude (projected to \($0))" } ?? "planar x,y"
            let given = prepared.projectedCRS == nil ? "planar x,y" : "longitude/latitude"
            throw mismatch(fitted: fitted, given: given, input.path, modelPath)
        }
        let predictions = clock.run(RunStage.predicting) { saved.model.predict(prepared.points, threads: threads) }
        return PredictionRecord(file: prepared.file, predictions: predictions, clusterCount: saved.model.clusterCount)
    }

    /// The error for points of another kind than the model's.
    private static func mismatch(fitted: String, given: String, _ path: String, _ modelPath: String) -> HarnessError {
        .model(path: modelPath, reason: "was fitted on \(fitted) points, but \(path) gives \(given); "
               + "give the same kind of coordinates (--coordinates)")
    }
}

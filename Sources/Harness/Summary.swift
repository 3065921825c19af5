/// Summaries of benchmark rows: one `SummaryRow` per dataset × implementation × method ×
/// parameters, in the order the rows first name them.
public enum Summary {
    /// Relative tolerance under which two MST weights count as equal (sums of up to millions of
    /// distances in metres, added in different orders by different libraries).
    public static let mstTolerance = 1e-9

    /// Summarises `rows`: medians and ranges over the `ok` repeats, the result fingerprints of
    /// the first `ok` repeat, each peer's speed ratio and MST agreement against geocluster's
    /// row for the same dataset, method and parameters (an MST-only peer's time against
    /// geocluster's index + core distances + MST), and the best setting of each sweep.
    /// - Complexity: O(rows · log rows).
    public static func make(_ rows: [RunRow]) -> [SummaryRow] {
        var order: [String] = []
        var groups: [String: [RunRow]] = [:]
        func key(_ r: RunRow, implementation: String) -> String {
            [r.datasetHash, r.dataset, implementation, r.method, r.parameters].joined(separator: "|")
        }
        for r in rows {
            let k = key(r, implementation: r.implementation)
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(r)
        }
        var out: [SummaryRow] = order.map { k in summarise(groups[k]!) }
        var byKey: [String: SummaryRow] = [:]
        for s in out where s.implementation == "geocluster" {
            byKey[[s.datasetHash, s.dataset, s.method, s.parameters].joined(separator: "|")] = s
        }
        for i in out.indices where out[i].implementation != "geocluster" {
            guard let g = byKey[[out[i].datasetHash, out[i].dataset, out[i].method, out[i].parameters].joined(separator: "|")] else { continue }
            let reference = out[i].fitScope == .mst ? g.mstStageSeconds : g.fitSeconds
            if let p = out[i].fitSeconds?.median, let q = reference?.median, q > 0 { out[i].speedRatio = p / q }
            if let p = out[i].mstWeight, let q = g.mstWeight {
                out[i].mstMatchesGeocluster = abs(p - q) <= mstTolerance * max(abs(p), abs(q))
            }
        }
        // The best setting of each sweep: highest ARI among a dataset × implementation × method's
        // parameter settings (the first on ties); without truth, the highest relative validity
        // (HDBSCAN) or DBCV on a subsample (DBSCAN, grid); only where there are several settings.
        var sweeps: [String: [Int]] = [:]
        for (i, s) in out.enumerated() { sweeps[[s.datasetHash, s.dataset, s.implementation, s.method].joined(separator: "|"), default: []].append(i) }
        for indices in sweeps.values where indices.count > 1 {
            for score in [\SummaryRow.ari, \SummaryRow.relativeValidity, \SummaryRow.dbcv] {
                var best: Int?
                for i in indices { if let a = out[i][keyPath: score], best.map({ a > out[$0][keyPath: score]! }) ?? true { best = i } }
                if let best { out[best].bestInSweep = true; break }
            }
        }
        return out
    }

    static func summarise(_ rows: [RunRow]) -> SummaryRow {
        let first = rows[0]
        let ok = rows.filter { $0.status == .ok }
        let failed = rows.first { $0.status != .ok }
        var s = SummaryRow(dataset: first.dataset, points: (ok.first ?? first).points, datasetHash: first.datasetHash,
                           implementation: first.implementation, method: first.method, parameters: first.parameters,
                           okRepeats: ok.count, repeats: rows.count, status: failed?.status ?? .ok,
                           error: failed?.error ?? "", implementationVersion: (ok.first ?? first).implementationVersion)
        s.scenario = first.scenario
        s.fitSeconds = Spread(ok.compactMap(\.fitSeconds))
        s.processSeconds = Spread(ok.compactMap(\.processSeconds))
        s.peakMegabytes = Spread(ok.compactMap(\.peakMegabytes))
        s.mstStageSeconds = Spread(ok.compactMap(\.mstStageSeconds))
        s.fitScope = first.fitScope
        s.metric = (ok.first ?? first).metric
        if let r = ok.first {
            s.clusters = r.clusters; s.noiseFraction = r.noiseFraction; s.mstWeight = r.mstWeight
            s.partitionHash = r.partitionHash; s.ari = r.ari; s.ami = r.ami; s.vMeasure = r.vMeasure
            s.noisePrecision = r.noisePrecision; s.noiseRecall = r.noiseRecall; s.ariVsGeocluster = r.ariVsGeocluster
            s.relativeValidity = r.relativeValidity; s.dbcv = r.dbcv
        }
        return s
    }
}

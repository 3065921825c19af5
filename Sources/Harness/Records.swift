import ClusterMetrics

// The records a benchmark produces: one `RunRow` per repeat of a cell (the long-format table
// every CSV, plot and gate is derived from) and one `SummaryRow` per dataset × implementation
// × method × parameters. Column names and units are documented in `reports/README.md`
// (written by `RunRow.columns` / `SummaryRow.columns` with their docs) and never change meaning.

/// How a cell ended.
public enum RunStatus: String, Sendable, Codable, CaseIterable {
    /// Finished and wrote its labels.
    case ok
    /// Exited with an error (the message is in `error`).
    case error
    /// Killed after the cell's timeout.
    case timeout
    /// Ended by a signal (a crash, or the kernel's out-of-memory killer).
    case crashed
    /// Not run, on purpose (for example scikit-learn's quadratic HDBSCAN above its size limit).
    case skipped
    /// A peer whose library is not installed.
    case unavailable
}

/// What one run found: clusters, the fingerprints of its result, and its scores against truth.
public struct RunOutcome: Sendable, Equatable, Codable {
    public var clusters: Int?
    /// Noise points / points.
    public var noiseFraction: Double?
    /// Total weight of the mutual-reachability MST (HDBSCAN only; metres).
    public var mstWeight: Double?
    /// SHA-256 (16 hex digits) of the partition, independent of label numbering.
    public var partitionHash: String?
    /// Scores against truth (noise as one more cluster, scikit-learn's behaviour on raw labels).
    public var ari: Double?
    public var ami: Double?
    public var vMeasure: Double?
    /// Of the points predicted noise, the share that is truth noise; and of truth noise, the
    /// share predicted noise.
    public var noisePrecision: Double?
    public var noiseRecall: Double?
    /// ARI against geocluster's labels for the same dataset, method and parameters (peers).
    public var ariVsGeocluster: Double?
    /// The hdbscan library's relative validity (`DBCV.relativeValidity`) of geocluster's
    /// HDBSCAN labels, for datasets without truth: what a sweep is judged by there.
    public var relativeValidity: Double?
    /// The DBCV index (`DBCV.validityIndex`) of geocluster's DBSCAN and grid labels on a
    /// subsample of at most `Bench.dbcvSampleLimit` points, for datasets without truth: what
    /// their sweeps are judged by there.
    public var dbcv: Double?

    public init() {}

    /// Sets the partition hash, and the scores against truth when there is one: ARI, AMI and
    /// V-measure with noise as one more cluster (scikit-learn's behaviour on raw labels), and
    /// noise precision and recall (of the points called noise, the share that is truth noise;
    /// of truth noise, the share called noise).
    /// - Complexity: O(n) plus the contingency table's.
    public mutating func score(labels: [Int32], truth: [Int32]?) {
        partitionHash = Fingerprint.partition(labels)
        guard let truth, truth.count == labels.count, !labels.isEmpty else { return }
        if let s = try? ClusteringScores(truth: truth, predicted: labels, noise: .asCluster) {
            ari = s.adjustedRandIndex
            ami = s.adjustedMutualInformation
            vMeasure = s.vMeasure
        }
        var predictedNoise = 0, truthNoise = 0, both = 0
        for i in 0..<labels.count {
            let p = labels[i] < 0, t = truth[i] < 0
            if p { predictedNoise += 1 }
            if t { truthNoise += 1 }
            if p && t { both += 1 }
        }
        noisePrecision = predictedNoise > 0 ? Double(both) / Double(predictedNoise) : nil
        noiseRecall = truthNoise > 0 ? Double(both) / Double(truthNoise) : nil
    }
}

/// One repeat of one benchmark cell (dataset × implementation × method × parameters × repeat).
@dynamicMemberLookup
public struct RunRow: Sendable, Equatable, Codable {
    /// Dataset name: the scenario and size (`seoul-10k`) or the input file's name.
    public var dataset: String
    /// The generated scenario the dataset is one size of (`seoul`), empty for a user's file.
    public var scenario: String = ""
    /// Points clustered (after filters).
    public var points: Int
    /// SHA-256 of the dataset file's bytes, first 16 hex digits.
    public var datasetHash: String
    /// Whether the dataset has a truth column (scores are empty without one).
    public var hasTruth: Bool
    /// `geocluster`, or a peer's name (`sklearn`, `hdbscan`, `fast_hdbscan`, `hdbscan_rs`,
    /// `sklearn_dbscan`, `supercluster`, `quitefastmst`).
    public var implementation: String
    /// How the cell measured distance: `planar` or `geodesic` (great-circle metres); empty
    /// when the cell did not say (a failed cell, an older record).
    public var metric: String = ""
    /// What `fitSeconds` covers: the whole clustering, or the MST alone (``FitScope``).
    public var fitScope: FitScope = .clustering
    /// `hdbscan`, `dbscan`, `grid` or `supercluster`.
    public var method: String
    /// The parameters in canonical form, `name=value` joined by spaces, sorted by name.
    public var parameters: String
    /// 1-based repeat number.
    public var repeatIndex: Int
    public var status: RunStatus
    /// Why a cell did not finish (empty when `ok`).
    public var error: String
    /// Wall seconds per stage name (`reading`, `projecting`, `index`, `core distances`, `MST`,
    /// `linkage`, `condense`, `select`, `label`, `writing`, and DBSCAN's and grid's own).
    public var stages: [String: Double]
    /// The clustering alone: the sum of the stages from index to labels (a peer's `fit()`).
    public var fitSeconds: Double?
    /// The whole process, from start to exit, as the parent measured it.
    public var processSeconds: Double?
    /// The cell process's own peak resident memory (VmHWM), MB (2^20 bytes).
    public var peakMegabytes: Double?
    /// What the run found (clusters, fingerprints, scores); its fields read as the row's own.
    public var outcome = RunOutcome()
    /// Library version of the implementation (geocluster's own for geocluster).
    public var implementationVersion: String
    /// geocluster version and git commit, and the machine fingerprint (CPU model, cores, OS).
    public var geoclusterVersion: String
    public var commit: String
    /// SHA-256 (16 hex digits) of the geocluster executable that ran the benchmark: `--resume`
    /// reruns geocluster's cells when it changed.
    public var binary: String = ""
    public var machine: String

    public subscript<T>(dynamicMember field: WritableKeyPath<RunOutcome, T>) -> T {
        get { outcome[keyPath: field] }
        set { outcome[keyPath: field] = newValue }
    }

    /// HDBSCAN's index, core distances and MST stages together (``FitScope/mstStages``): what
    /// an MST-only peer's fit is compared with. Nil unless the row timed all three.
    public var mstStageSeconds: Double? {
        let times = FitScope.mstStages.compactMap { stages[$0] }
        return times.count == FitScope.mstStages.count ? times.reduce(0, +) : nil
    }

    public init(dataset: String, points: Int, datasetHash: String, hasTruth: Bool, implementation: String,
                method: String, parameters: String, repeatIndex: Int, status: RunStatus, error: String = "",
                stages: [String: Double] = [:], fitSeconds: Double? = nil, processSeconds: Double? = nil,
                peakMegabytes: Double? = nil, clusters: Int? = nil, noiseFraction: Double? = nil,
                mstWeight: Double? = nil, partitionHash: String? = nil, ari: Double? = nil, ami: Double? = nil,
                vMeasure: Double? = nil, noisePrecision: Double? = nil, noiseRecall: Double? = nil,
                ariVsGeocluster: Double? = nil, implementationVersion: String = "",
                geoclusterVersion: String = "", commit: String = "", machine: String = "") {
        self.dataset = dataset; self.points = points; self.datasetHash = datasetHash
        self.hasTruth = hasTruth; self.implementation = implementation; self.method = method
        self.parameters = parameters; self.repeatIndex = repeatIndex; self.status = status
        self.error = error; self.stages = stages; self.fitSeconds = fitSeconds
        self.processSeconds = processSeconds; self.peakMegabytes = peakMegabytes; self.implementationVersion = implementationVersion
        self.geoclusterVersion = geoclusterVersion; self.commit = commit; self.machine = machine
        self.clusters = clusters; self.noiseFraction = noiseFraction; self.mstWeight = mstWeight
        self.partitionHash = partitionHash; self.ari = ari; self.ami = ami
        self.vMeasure = vMeasure; self.noisePrecision = noisePrecision; self.noiseRecall = noiseRecall
        self.ariVsGeocluster = ariVsGeocluster
    }
}

/// A measured value over the repeats of a cell: median, minimum and maximum of the `ok` ones.
public struct Spread: Sendable, Equatable, Codable {
    public var median: Double
    public var min: Double
    public var max: Double

    public init(median: Double, min: Double, max: Double) {
        self.median = median; self.min = min; self.max = max
    }

    /// The spread of `values`, nil when empty. The median of an even count is the mean of the
    /// middle two.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        let m = s.count / 2
        self.init(median: s.count % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2, min: s[0], max: s[s.count - 1])
    }
}

/// One dataset × implementation × method × parameters: the repeats summarised.
@dynamicMemberLookup
public struct SummaryRow: Sendable, Equatable, Codable {
    public var dataset: String
    /// As in `RunRow`: the scenario the dataset is one size of, empty for a user's file.
    public var scenario: String = ""
    public var points: Int
    public var datasetHash: String
    public var implementation: String
    public var method: String
    public var parameters: String
    /// Repeats that finished, and repeats run.
    public var okRepeats: Int
    public var repeats: Int
    /// `ok` when every repeat finished, else the status and error of the first that did not.
    public var status: RunStatus
    public var error: String
    public var fitSeconds: Spread?
    public var processSeconds: Spread?
    public var peakMegabytes: Spread?
    /// What `fitSeconds` covers (``FitScope``), and HDBSCAN's index + core distances + MST
    /// stages over the repeats (geocluster's rows: what an MST-only peer is compared with).
    public var fitScope: FitScope = .clustering
    public var mstStageSeconds: Spread?
    /// How the cells measured distance (`planar`, `geodesic`; empty when not reported).
    public var metric: String = ""
    /// What the first `ok` repeat found (every repeat gives the same result for geocluster);
    /// its fields read as the row's own.
    public var outcome = RunOutcome()
    /// Peers: median fit time over geocluster's median fit time for the same dataset, method
    /// and parameters (above 1: slower than geocluster); for an MST-only peer, over geocluster's
    /// median index + core distances + MST time.
    public var speedRatio: Double?
    /// Peers with an MST: whether its total weight equals geocluster's within 1e-9 relative.
    public var mstMatchesGeocluster: Bool?
    /// The best setting of a parameter sweep for this dataset, implementation and method (by
    /// ARI against truth; without truth, nothing is marked).
    public var bestInSweep: Bool
    public var implementationVersion: String

    public subscript<T>(dynamicMember field: WritableKeyPath<RunOutcome, T>) -> T {
        get { outcome[keyPath: field] }
        set { outcome[keyPath: field] = newValue }
    }

    public init(dataset: String, points: Int, datasetHash: String, implementation: String, method: String,
                parameters: String, okRepeats: Int, repeats: Int, status: RunStatus, error: String = "",
                fitSeconds: Spread? = nil, processSeconds: Spread? = nil, peakMegabytes: Spread? = nil,
                clusters: Int? = nil, noiseFraction: Double? = nil, mstWeight: Double? = nil,
                partitionHash: String? = nil, ari: Double? = nil, ami: Double? = nil, vMeasure: Double? = nil,
                noisePrecision: Double? = nil, noiseRecall: Double? = nil, speedRatio: Double? = nil,
                ariVsGeocluster: Double? = nil, mstMatchesGeocluster: Bool? = nil, bestInSweep: Bool = false,
                implementationVersion: String = "") {
        self.dataset = dataset; self.points = points; self.datasetHash = datasetHash
        self.implementation = implementation; self.method = method; self.parameters = parameters
        self.okRepeats = okRepeats; self.repeats = repeats; self.status = status
        self.error = error; self.fitSeconds = fitSeconds; self.processSeconds = processSeconds
        self.peakMegabytes = peakMegabytes; self.speedRatio = speedRatio; self.mstMatchesGeocluster = mstMatchesGeocluster
        self.bestInSweep = bestInSweep; self.implementationVersion = implementationVersion; self.clusters = clusters
        self.noiseFraction = noiseFraction; self.mstWeight = mstWeight; self.partitionHash = partitionHash
        self.ari = ari; self.ami = ami; self.vMeasure = vMeasure
        self.noisePrecision = noisePrecision; self.noiseRecall = noiseRecall; self.ariVsGeocluster = ariVsGeocluster
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `geocluster check` compares against: the results of a suite on one binary and machine,
/// with the tolerances of each lane. Committed (reports/baseline.json) and rewritten only on
/// purpose, with `--update-baseline`; the tolerances (and any per-row override) survive the
/// rewrite.
public struct CheckBaseline: Sendable, Codable, Equatable {
    /// The file format's version (1).
    public var format: Int = 1
    public var geoclusterVersion: String
    public var commit: String
    /// `Machine.fingerprint()` of the machine that measured it: the counts and timed lanes
    /// compare only on the same kind of machine.
    public var machine: String
    /// `default`, or the suite file's name.
    public var suite: String
    public var tolerances = CheckTolerances()
    public var quality: [QualityResult] = []
    public var counts: [StageCounts] = []
    public var wall: [WallResult] = []

    public init(geoclusterVersion: String, commit: String, machine: String, suite: String) {
        self.geoclusterVersion = geoclusterVersion; self.commit = commit; self.machine = machine; self.suite = suite
    }

    /// Reads a baseline file.
    /// - Throws: `HarnessError.bench` saying how to create one when the file is missing, or
    ///   what is wrong with it.
    public static func read(path: String) throws(HarnessError) -> CheckBaseline {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .bench("\(path): no baseline there; create it with `geocluster check --update-baseline --baseline \(path)` on the commit you trust, and commit the file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .bench("\(path): the baseline cannot be read; check its permissions")
        }
        do {
            let b = try JSONDecoder().decode(CheckBaseline.self, from: data)
            guard b.format == 1 else {
                throw HarnessError.bench("\(path): baseline format \(b.format) is not known to this geocluster (it reads 1); update geocluster or recreate the baseline")
            }
            return b
        } catch let e as HarnessError {
            throw e
        } catch {
            throw .bench("\(path): not a geocluster baseline (\(error)); recreate it with `geocluster check --update-baseline`")
        }
    }

    /// Pretty-printed JSON with sorted keys, so a rewrite shows as a small diff in review.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = (try? encoder.encode(self)) ?? Data()  // numbers and strings only: cannot fail
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// How far each kind of value may move before the gate speaks. Committed in the baseline.
public struct CheckTolerances: Sendable, Codable, Equatable {
    /// Relative tolerance on MST weights and scores (floating-point noise only; counts and
    /// hashes must be equal).
    public var scoreRelative = 1e-9
    /// Instruction counts per stage: a change is reported when it exceeds both the relative
    /// and the absolute tolerance (small stages move by a few thousand instructions with the
    /// environment and file names).
    public var instructionsRelative = 0.01
    public var instructionsAbsolute = 200_000
    /// Allocation counts per stage.
    public var allocationsRelative = 0.02
    public var allocationsAbsolute = 20
    /// Wall time against the calibration workload: the smallest change of the median ratio
    /// reported (0.20 = 20 %: just above how far the ratio moved between runs of one binary on
    /// a shared 2-core machine, docs/gate.md), and the significance level of the Mann–Whitney
    /// test.
    public var wallMinEffect = 0.20
    /// Wall time A/B against another binary (`--against`): smallest change reported.
    public var abMinEffect = 0.10
    public var alpha = 0.01

    public init() {}
}

/// The exact results of one quality case.
public struct QualityResult: Sendable, Codable, Equatable {
    /// The case's name (`CheckSuite.Case.name`).
    public var name: String
    public var datasetHash: String
    public var points: Int
    public var clusters: Int
    public var noise: Int
    public var partitionHash: String
    public var mstWeight: Double?
    /// Against the dataset's truth column, when it has one (noise as one more cluster).
    public var ari: Double?
    public var ami: Double?

    public init(name: String, datasetHash: String, points: Int, clusters: Int, noise: Int, partitionHash: String,
                mstWeight: Double? = nil, ari: Double? = nil, ami: Double? = nil) {
        self.name = name; self.datasetHash = datasetHash; self.points = points; self.clusters = clusters
        self.noise = noise; self.partitionHash = partitionHash; self.mstWeight = mstWeight; self.ari = ari; self.ami = ami
    }
}

/// Instructions and heap allocations of one stage of one case, under callgrind.
public struct StageCounts: Sendable, Codable, Equatable {
    public var name: String
    public var stage: String
    public var instructions: Int
    /// Calls to malloc, calloc, realloc and the aligned allocators.
    public var allocations: Int
    /// Per-row overrides of the instruction tolerances (nil: the baseline's).
    public var instructionsRelative: Double?
    public var instructionsAbsolute: Int?

    public init(name: String, stage: String, instructions: Int, allocations: Int) {
        self.name = name; self.stage = stage; self.instructions = instructions; self.allocations = allocations
    }
}

/// The timed samples of one wall case: fit time over the calibration workload's time, each
/// measured interleaved in one process.
public struct WallResult: Sendable, Codable, Equatable {
    public var name: String
    public var ratios: [Double]
    /// Median fit seconds and calibration seconds (for the reader; the gate compares ratios).
    public var fitSeconds: Double
    public var calibrationSeconds: Double

    public init(name: String, ratios: [Double], fitSeconds: Double, calibrationSeconds: Double) {
        self.name = name; self.ratios = ratios; self.fitSeconds = fitSeconds; self.calibrationSeconds = calibrationSeconds
    }
}

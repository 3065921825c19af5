import Foundation
import Harness
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The index the server answers from, and its replacement: a reload builds a new index from
/// the file on a thread of its own while requests go on being answered from the current one,
/// then swaps it in at once. A request takes the snapshot current when it starts and answers
/// wholly from it, so none sees half of a rebuild; the mask file keeps every published
/// location's point across rebuilds (`PinsDataset.build`).
public final class PinsService: Sendable {
    /// What a snapshot answers from, and which version of the data it is.
    public struct Snapshot: Sendable {
        public let dataset: PinsDataset
        /// The prediction model `POST /admin/predict` places new points with (nil: none served).
        public let model: SavedModel?
        /// 1 for the index built at start, one more for each reload.
        public let version: Int
        /// Names this data in ETags: the process's start and the version, so that no answer
        /// of a restarted server or an older version is taken for a current one.
        public let tag: String
        /// The property names its tiles may carry.
        let tileKeys: TileKeys

        init(dataset: PinsDataset, model: SavedModel?, version: Int, tag: String) {
            self.dataset = dataset
            self.model = model
            self.version = version
            self.tag = tag
            tileKeys = TileKeys(propertyNames: dataset.propertyNames)
        }
    }

    /// How the data is built, again at each reload.
    public let recipe: PinsDataset.Recipe
    /// The model file (`geocluster cluster --save-model`), read again at each reload; nil: none.
    public let modelPath: String?
    private let current: Mutex<Snapshot>
    private let reloading = Atomic<Bool>(false)
    private let started: UInt64
    private let logger: Logger

    /// Builds the first index (on the calling thread) and reads the model, if one is named.
    /// - Throws: what `PinsDataset.build` and `SavedModel.read` throw.
    public init(recipe: PinsDataset.Recipe, modelPath: String? = nil, logger: Logger) throws {
        self.recipe = recipe
        self.modelPath = modelPath
        self.logger = logger
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        started = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        let dataset = try PinsDataset.build(recipe) { [logger] in logger.info("\($0)") }
        let model = try modelPath.map { path throws(HarnessError) in try SavedModel.read(path: path) }
        current = Mutex(Snapshot(dataset: dataset, model: model, version: 1, tag: Self.tag(started, 1)))
    }

    /// The snapshot to answer a request from.
    public var snapshot: Snapshot { current.withLock { $0 } }

    /// Why a reload did not happen.
    public enum ReloadFailure: Error, Sendable, CustomStringConvertible {
        /// Another reload is running; this one was not started.
        case busy
        /// The build failed; the current index stays.
        case failed(String)

        public var description: String {
            switch self {
            case .busy: "a reload is already running; the current index stays until it ends"
            case .failed(let why): "the reload failed, the current index stays: \(why)"
            }
        }
    }

    /// Rebuilds the index from the file (and reads the model again) on a thread of its own and
    /// swaps them in together.
    /// - Returns: the new snapshot.
    /// - Throws: `ReloadFailure`.
    public func reload() async throws(ReloadFailure) -> Snapshot {
        guard reloading.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { throw .busy }
        defer { reloading.store(false, ordering: .releasing) }
        logger.info("reload: building a new index", metadata: ["input": "\(recipe.input)"])
        let recipe = recipe, modelPath = modelPath, logger = logger
        let result = await Self.offEventLoops { () -> Result<(PinsDataset, SavedModel?), ReloadFailure> in
            do {
                let dataset = try PinsDataset.build(recipe) { logger.debug("reload: \($0)") }
                return .success((dataset, try modelPath.map { path throws(HarnessError) in try SavedModel.read(path: path) }))
            } catch {
                return .failure(.failed("\(error)"))
            }
        }
        switch result {
        case .failure(let failure):
            logger.error("\(failure)")
            throw failure
        case .success(let (dataset, model)):
            let snapshot = current.withLock { old in
                old = Snapshot(dataset: dataset, model: model, version: old.version + 1, tag: Self.tag(started, old.version + 1))
                return old
            }
            logger.info("reload: now serving version \(snapshot.version)", metadata: ["listings": "\(dataset.shown)"])
            return snapshot
        }
    }

    /// `work`'s result, computed on a thread of its own: the request handlers run on the event
    /// loops, which long work would hold up.
    static func offEventLoops<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { done in
            Thread { done.resume(returning: work()) }.start()
        }
    }

    private static func tag(_ started: UInt64, _ version: Int) -> String {
        String(started, radix: 36) + "-" + String(version)
    }
}

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
        /// 1 for the index built at start, one more for each reload.
        public let version: Int
        /// Names this data in ETags: the process's start and the version, so that no answer
        /// of a restarted server or an older version is taken for a current one.
        public let tag: String
        /// The property names its tiles may carry.
        let tileKeys: TileKeys

        init(dataset: PinsDataset, version: Int, tag: String) {
            self.dataset = dataset
            self.version = version
            self.tag = tag
            tileKeys = TileKeys(propertyNames: dataset.propertyNames)
        }
    }

    /// How the data is built, again at each reload.
    public let recipe: PinsDataset.Recipe
    private let current: Mutex<Snapshot>
    private let reloading = Atomic<Bool>(false)
    private let started: UInt64
    private let logger: Logger

    /// Builds the first index (on the calling thread).
    /// - Throws: what `PinsDataset.build` throws.
    public init(recipe: PinsDataset.Recipe, logger: Logger) throws {
        self.recipe = recipe
        self.logger = logger
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        started = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        let dataset = try PinsDataset.build(recipe) { [logger] in logger.info("\($0)") }
        current = Mutex(Snapshot(dataset: dataset, version: 1, tag: Self.tag(started, 1)))
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

    /// Rebuilds the index from the file on a thread of its own and swaps it in.
    /// - Returns: the new snapshot.
    /// - Throws: `ReloadFailure`.
    public func reload() async throws(ReloadFailure) -> Snapshot {
        guard reloading.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { throw .busy }
        defer { reloading.store(false, ordering: .releasing) }
        logger.info("reload: building a new index", metadata: ["input": "\(recipe.input)"])
        let recipe = recipe, logger = logger
        let result: Result<PinsDataset, ReloadFailure> = await withCheckedContinuation { done in
            let thread = Thread {
                do {
                    done.resume(returning: .success(try PinsDataset.build(recipe) { logger.debug("reload: \($0)") }))
                } catch {
                    done.resume(returning: .failure(.failed("\(error)")))
                }
            }
            thread.start()
        }
        switch result {
        case .failure(let failure):
            logger.error("\(failure)")
            throw failure
        case .success(let dataset):
            let snapshot = current.withLock { old in
                old = Snapshot(dataset: dataset, version: old.version + 1, tag: Self.tag(started, old.version + 1))
                return old
            }
            logger.info("reload: now serving version \(snapshot.version)", metadata: ["listings": "\(dataset.shown)"])
            return snapshot
        }
    }

    private static func tag(_ started: UInt64, _ version: Int) -> String {
        String(started, radix: 36) + "-" + String(version)
    }
}

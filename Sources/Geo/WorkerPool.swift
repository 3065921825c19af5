import Dispatch
import Synchronization

/// Runs one body per worker on up to `workers` threads, handing out the items `0..<items`
/// one at a time (`next()` answers nil when none is left). Geo runs its per-cluster GEOS work
/// through it: every worker keeps its own GEOS context, so the state lives with the worker,
/// not the item. Callers write each item's result to its own slot, so which worker took which
/// item changes no output.
enum WorkerPool {
    static func run(workers: Int, items: Int, _ body: (_ worker: Int, _ next: () -> Int?) -> Void) {
        let next = Atomic<Int>(0)
        let take: () -> Int? = {
            let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
            return i < items ? i : nil
        }
        guard workers > 1 else { return body(0, take) }
        withoutActuallyEscaping(body) { body in
            withoutActuallyEscaping(take) { take in
                // `concurrentPerform` returns only after every worker finished, so sharing the
                // non-escaping closures and the counter is safe.
                nonisolated(unsafe) let (work, hand) = (body, take)
                DispatchQueue.concurrentPerform(iterations: workers) { worker in work(worker, hand) }
            }
        }
    }
}

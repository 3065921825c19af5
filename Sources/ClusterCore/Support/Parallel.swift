import Dispatch
import Synchronization

/// Runs work on up to `threads` threads. Callers split work so that the result never depends
/// on which thread ran which chunk: outputs are written to disjoint slots or reduced in a
/// fixed order afterwards. That is what makes every stage give identical output for any
/// thread count. `package`: Pins runs its build's parallel parts through it too.
package enum Parallel {
    /// The most workers any stage runs: more than the cores of any machine this runs on, few
    /// enough that per-worker state (scratch lists, flags on their own cache lines) stays
    /// small. A larger `threads` runs as this many workers, which changes no output (every
    /// stage gives the same for any count); the command line refuses a larger `--threads`.
    package static let maximumWorkers = 1024

    /// `threads` as a number of workers: at least 1, at most `maximumWorkers`. Every stage
    /// that sizes per-worker state sizes it with this, so no caller's `threads` (10^12, or
    /// `Int.max`) makes it allocate without bound or overflow.
    @inline(__always)
    package static func workers(_ threads: Int) -> Int { min(max(threads, 1), maximumWorkers) }

    /// Calls `body(chunk, worker)` for every chunk of `0..<count` (chunks of `grain` items),
    /// handing chunks out dynamically to `workers(threads)` workers numbered from 0 (never more
    /// than the chunks). Runs inline when `threads <= 1` or the work is small.
    package static func forEachChunk(
        count: Int, grain: Int, threads: Int,
        _ body: (_ chunk: Range<Int>, _ worker: Int) -> Void
    ) {
        let chunks = (count + grain - 1) / max(grain, 1)
        let workers = min(Self.workers(threads), chunks)
        if workers <= 1 {
            if count > 0 { body(0..<count, 0) }
            return
        }
        let next = Atomic<Int>(0)
        withoutActuallyEscaping(body) { body in
            // `concurrentPerform` returns only after every worker finished, so sharing the
            // non-escaping closure and the counter is safe.
            nonisolated(unsafe) let work = body
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                while true {
                    let c = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    if c >= chunks { break }
                    let lo = c * grain
                    work(lo..<min(lo + grain, count), worker)
                }
            }
        }
    }

    /// Runs `a` and `b`, concurrently when `threads > 1`.
    package static func both(threads: Int, _ a: () -> Void, _ b: () -> Void) {
        if threads <= 1 { a(); b(); return }
        withoutActuallyEscaping(a) { a in
            withoutActuallyEscaping(b) { b in
                nonisolated(unsafe) let fa = a
                nonisolated(unsafe) let fb = b
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    if i == 0 { fa() } else { fb() }
                }
            }
        }
    }
}

/// A mutable buffer pointer that several workers may write through at disjoint indices.
/// Wrapping it is how ClusterCore states that guarantee to the compiler.
struct SharedBuffer<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
    @inline(__always) subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }
}

extension Array where Element: BitwiseCopyable {
    /// `count` elements, element `i` being `value(i)`, written by up to `threads` workers over
    /// disjoint ranges. A new array's memory is faulted in page by page as it is first written;
    /// doing that on all workers instead of in one thread's `repeating:` fill matters here: the
    /// page faults of the arrays a run allocates are a noticeable share of its time
    /// (docs/performance.md).
    static func filled(count: Int, threads: Int, _ value: (Int) -> Element) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress, count > 0 {
                let out = SharedBuffer(base: base)
                Parallel.forEachChunk(count: count, grain: 1 << 16, threads: threads) { chunk, _ in
                    for i in chunk { out[i] = value(i) }
                }
            }
            initialized = count
        }
    }

    /// `count` elements that `initialize` writes in full, given the start of the storage (it may
    /// write from several workers, each element exactly once). For arrays a parallel loop
    /// produces whole: one pass, the pages faulted in by the workers that write them, instead
    /// of a fill followed by the real writes. `initialize` is not called when `count` is 0.
    static func initialized(count: Int, _ initialize: (UnsafeMutablePointer<Element>) -> Void) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress, count > 0 { initialize(base) }
            initialized = count
        }
    }
}

import Datasets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The yardstick of the wall-time lane: a fixed workload, run in the same process right before
/// and after each timed fit, so that a slower machine, a slow spell or a busy neighbour slows
/// both and their ratio stays put. It does what a fit spends its time on — sorting doubles
/// (the k-d tree's partitions) and dependent loads (the MST's neighbour lookups) — and never
/// changes with geocluster's own code. The loads chase through 512 KB, inside a core's own
/// cache: a chase through half the last-level cache swung between two speeds from run to run
/// on an idle machine, while the fit it measures hardly moved (docs/gate.md).
struct Calibration {
    /// 300,000 doubles to sort, and a random cycle over 128K indices (512 KB) to chase.
    private let values: [Double]
    private let cycle: [Int32]
    private var sink = 0.0

    init() {
        var g = SplitMix64(seed: 20_261_123)
        values = (0..<300_000).map { _ in g.nextDouble() }
        // Sattolo's algorithm: a uniformly random single cycle, so the chase visits every slot.
        var c = (0..<Int32(1 << 17)).map { $0 }
        var i = c.count - 1
        while i > 0 {
            let j = Int(g.next() % UInt64(i))
            c.swapAt(i, j)
            i -= 1
        }
        cycle = c
    }

    /// The calling thread's CPU time in seconds: what it ran, not what it waited for. On a
    /// machine shared with other processes, wall time also counts the turns the scheduler gave
    /// them, by chance more to one workload than to the other.
    static func threadSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Runs the workload once. - Returns: the thread's CPU time it took, in seconds.
    mutating func run() -> Double {
        let start = Calibration.threadSeconds()
        var copy = values
        copy.sort()
        var at: Int32 = 0
        cycle.withUnsafeBufferPointer { c in
            for _ in 0..<4_000_000 { at = c[Int(at)] }
        }
        sink += copy[copy.count / 2] + Double(at)
        return Calibration.threadSeconds() - start
    }
}

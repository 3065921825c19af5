import Benchmark
import ClusterCore

let benchmarks: @Sendable () -> Void = {
    Benchmark("noop") { _ in }
}

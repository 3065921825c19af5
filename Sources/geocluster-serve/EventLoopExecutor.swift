import CConcurrencyHook
import NIOCore
import NIOPosix

/// SwiftNIO's event loops as Swift concurrency's global executor, so that a request's handler
/// runs on the loop that read the request instead of hopping to the concurrency pool's threads
/// and back: fewer thread switches, and a shorter latency tail under load.
///
/// SwiftNIO offers this itself (`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`),
/// but finds the runtime's hook with `dlsym`, which fails silently in a binary that links the
/// Swift runtime statically, as the release server does; here the hook's address comes from the
/// linker (`CConcurrencyHook`), and a job goes to the event loop the caller is on (any loop of
/// the group otherwise), as in SwiftNIO's version.
enum EventLoopExecutor {
    /// The runtime's hook type: the job and the runtime's own enqueue function.
    private typealias Hook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Whether the event loops took over (installed on first use; false when another hook was
    /// already installed, and then nothing changed).
    static let installed: Bool = install()

    private static func install() -> Bool {
        let slot = geocluster_global_enqueue_hook()
        guard slot.pointee == nil else { return false }
        return withUnsafeTemporaryAllocation(of: Hook.self, capacity: 1) { hook in
            hook.baseAddress!.initialize(to: { job, _ in
                MultiThreadedEventLoopGroup.singleton.any().enqueue(ExecutorJob(job))
            })
            return hook.baseAddress!.withMemoryRebound(to: UnsafeRawPointer?.self, capacity: 1) { function in
                slot.withMemoryRebound(to: UnsafeRawPointer?.self, capacity: 1) { $0.pointee = function.pointee }
                return true
            }
        }
    }
}

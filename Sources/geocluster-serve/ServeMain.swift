import NIOCore
import NIOPosix

@main
enum ServeMain {
    /// Installs SwiftNIO's event loops as the concurrency executor, then runs the command: the
    /// handlers then run on the event loops instead of hopping to the concurrency pool and back
    /// for every request, and the fewer thread switches are what keeps the latency tail short.
    static func main() async {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        await ServeCommand.main()
    }
}

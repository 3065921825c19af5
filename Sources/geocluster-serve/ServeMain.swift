@main
enum ServeMain {
    /// Installs SwiftNIO's event loops as the concurrency executor (`EventLoopExecutor`), then
    /// runs the command.
    static func main() async {
        _ = EventLoopExecutor.installed
        await ServeCommand.main()
    }
}

// Step 2 of the process set-up (CommandLineSupport's ProcessTuning.swift says every step and
// why): `cluster` parsed on its own, before the whole command tree.
import ArgumentParser
import CommandLineSupport

extension Geocluster {
    /// Step 2: runs `geocluster cluster …` parsed with the cluster command as the root.
    /// - Returns: false, having done nothing, when the arguments are not a `cluster` command
    ///   this parse accepts; the full command tree then handles them.
    static func runClusterDirectly(_ arguments: [String]) -> Bool {
        // (A help request parses into ArgumentParser's own help command, hence the cast.)
        guard arguments.first == ClusterCommand.configuration.commandName,
              let command = (try? ClusterCommand.parseAsRoot(Array(arguments.dropFirst()))) as? ClusterCommand else {
            return false
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
        return true
    }
}

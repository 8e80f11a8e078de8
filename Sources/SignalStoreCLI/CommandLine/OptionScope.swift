/// Which commands take the options that not every command takes, so that giving one to a
/// command that does not use it gets an error that says which commands do (each command's
/// help shows only its own options).
enum OptionScope {
    /// The options some commands do not take: the commands that take them, why the others do
    /// not, and where a command has a reason of its own, that reason.
    private static let scopes: [String: (commands: [String], reason: String, reasons: [String: String])] = [
        "--timeout": (["set", "insert", "delete", "revert", "migrate", "prune"], "reads never wait for a writer's lock",
                      ["sync": "it waits for another writer's lock as long as that writer holds it, and says so in its status"]),
        "--quiet": (["migrate", "prune", "changes"], "it shows no progress", [:]),
    ]

    /// The error for the first option in `arguments` that its command does not take, if any.
    static func misplacedOption(in arguments: [String], commands: [String]) -> String? {
        guard let command = arguments.first(where: commands.contains), command != "help" else { return nil }
        for argument in arguments {
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            guard let scope = scopes[name], !scope.commands.contains(command) else { continue }
            let reason = scope.reasons[command] ?? scope.reason
            return "\(command) does not take \(name) (\(reason)); the commands that take it: \(scope.commands.joined(separator: ", "))"
        }
        return nil
    }
}

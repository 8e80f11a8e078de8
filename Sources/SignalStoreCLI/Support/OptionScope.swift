/// Which commands take the options that not every command takes, so that giving one to a
/// command that does not use it gets an error that says which commands do (each command's
/// help shows only its own options).
enum OptionScope {
    /// The options some commands do not take: the commands that take them, and why the others
    /// do not.
    private static let scopes: [String: (commands: [String], reason: String)] = [
        "--timeout": (["set", "insert", "delete", "migrate", "prune"], "reads never wait for a writer's lock"),
        "--quiet": (["migrate", "prune", "changes"], "it shows no progress"),
    ]

    /// The error for the first option in `arguments` that its command does not take, if any.
    static func misplacedOption(in arguments: [String], commands: [String]) -> String? {
        guard let command = arguments.first(where: commands.contains), command != "help" else { return nil }
        for argument in arguments {
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            guard let scope = scopes[name], !scope.commands.contains(command) else { continue }
            return "\(command) does not take \(name) (\(scope.reason)); the commands that take it: \(scope.commands.joined(separator: ", "))"
        }
        return nil
    }
}

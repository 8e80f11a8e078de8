import ArgumentParser
import SignalStore

/// Puts the command line in the order the parser reads, so that global options may come before
/// the subcommand, as with `sqlite3`, `git -C` or `kubectl --context`:
/// `signalstore --db app.sqlite get orders` reads as `signalstore get orders --db app.sqlite`.
///
/// Also turns two mistakes into usage errors that name the fix: an unknown subcommand, and
/// `help` of an unknown subcommand (which would otherwise print the root help and succeed).
enum CommandLineOrder {
    /// Options every database command takes, and whether each takes a value.
    static let globalOptions: [String: Bool] = ["--db": true, "--migrations": true, "--timeout": true, "--json": false, "--quiet": false]

    /// `arguments` with leading global options moved after the subcommand.
    /// - Throws: A `ValidationError` for an unknown subcommand or `help` of one.
    static func normalized(_ arguments: [String], subcommands: [String]) throws -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count, let takesValue = globalOption(arguments[index]) {
            let consumed = takesValue && !arguments[index].contains("=") ? 2 : 1
            leading += arguments[index..<min(index + consumed, arguments.count)]
            index += consumed
        }
        guard index < arguments.count else {
            if leading.isEmpty { return arguments }
            throw ValidationError("no command given after \(leading.joined(separator: " ")); for example: signalstore \(leading.joined(separator: " ")) tables")
        }
        let command = arguments[index]
        if command == "help", index + 1 < arguments.count, !subcommands.contains(arguments[index + 1]) {
            throw unknown(arguments[index + 1], subcommands)
        }
        if !command.hasPrefix("-"), command != "help", !subcommands.contains(command) {
            throw unknown(command, subcommands)
        }
        guard !leading.isEmpty else { return arguments }
        return [command] + arguments[(index + 1)...] + leading
    }

    /// Whether `argument` is a global option (`--db`, `--db=PATH`…), and if so whether its value
    /// is the next argument's.
    private static func globalOption(_ argument: String) -> Bool? {
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        return globalOptions[name]
    }

    private static func unknown(_ command: String, _ subcommands: [String]) -> ValidationError {
        ValidationError("unknown command \(display(command))\(Suggestion.phrase(for: command, in: subcommands)); the commands are: \(subcommands.joined(separator: ", "))")
    }
}

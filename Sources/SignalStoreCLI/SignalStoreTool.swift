import ArgumentParser

#if SIGNALSTORE_SYNC
/// `sync`, when built with the Sync trait (`swift build --traits Sync`).
private let syncCommands: [any ParsableCommand.Type] = [SyncCommand.self]
#else
/// Without the trait, `sync` says how to build it.
private let syncCommands: [any ParsableCommand.Type] = [SyncUnavailableCommand.self]
#endif

#if SIGNALSTORE_INSPECTOR
/// `inspect`, when built with the Inspector trait (`swift build --traits Inspector`).
private let inspectorCommands: [any ParsableCommand.Type] = [InspectCommand.self]
#else
/// Without the trait, `inspect` says how to build it.
private let inspectorCommands: [any ParsableCommand.Type] = [InspectUnavailableCommand.self]
#endif

/// The `signalstore` command: inspect and change a SignalStore database from a terminal.
///
/// Every mutation goes through a `Store` (of the SignalStore module), so the change feed records it and running
/// apps' signals fire.
public struct SignalStoreTool: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "signalstore",
        abstract: "Inspect, change and watch a SignalStore database.",
        discussion: """
            Every change goes through the store: it is journaled in the change feed, and apps \
            that have the database open see it within their poll interval.

            The database is --db PATH or the SIGNALSTORE_DB environment variable. Create one \
            with `signalstore migrate --db app.sqlite` (migrations from ./Migrations).

            Options such as --db, --json, --migrations and --timeout may come before or after \
            the command: `signalstore --db app.sqlite get orders`.

            Exit status: 0 success, 1 the command failed (nothing was changed), 2 the command \
            line is wrong.
            """,
        version: SignalStoreTool.version,
        subcommands: [
            DemoCommand.self, MigrateCommand.self, StatusCommand.self, TablesCommand.self, SchemaCommand.self,
            GetCommand.self, SetCommand.self, InsertCommand.self, DeleteCommand.self,
            WatchCommand.self, ChangesCommand.self, HistoryCommand.self, RevertCommand.self, ConsumersCommand.self, PruneCommand.self,
        ] + syncCommands + inspectorCommands
    )

    public init() {}

    /// The version `signalstore --version` prints.
    public static let version = "0.3.0"

    /// The names of the subcommands.
    static var commandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// Parses `arguments` (without the program name), runs the command in `context`, and
    /// returns the exit status: 0 success, 1 failure, 2 usage error, 130 a one-shot command
    /// interrupted by Ctrl-C. Never exits the process.
    public static func run(_ arguments: [String], in context: CommandContext) -> Int32 {
        CommandContext.$current.withValue(context) {
            let command: any ParsableCommand
            do {
                let normalized = try CommandLineOrder.normalized(arguments, subcommands: commandNames)
                if let misplaced = OptionScope.misplacedOption(in: normalized, commands: commandNames) {
                    context.console.printError("error: \(misplaced)")
                    return 2
                }
                command = try parseAsRoot(normalized)
            } catch {
                return report(parseError: error, console: context.console)
            }
            do {
                var command = command
                try command.run()
                return 0
            } catch is CommandInterrupted {
                return 130
            } catch let error as CLIError {
                context.console.printError("error: \(error.description)")
                return 1
            } catch {
                return report(parseError: error, console: context.console)
            }
        }
    }

    /// Help and version requests exit 0 on standard output; anything else is a usage error,
    /// whose lines are shortened so a huge argument cannot flood the terminal.
    private static func report(parseError error: any Error, console: Console) -> Int32 {
        let message = fullMessage(for: error)
        if exitCode(for: error) == .success {
            console.print(message)
            return 0
        }
        console.printError(shortened(lowercasingErrorPrefix(message)))
        return 2
    }

    /// A usage message cut to a readable size: each line at most ``maximumUsageLineLength``
    /// characters, and the whole at most ``maximumUsageLength``, keeping the last line (the
    /// hint that names `--help`).
    private static func shortened(_ message: String) -> String {
        var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            line.count > maximumUsageLineLength ? line.prefix(maximumUsageLineLength) + "…" : String(line)
        }
        guard lines.count > 2 else { return lines.joined(separator: "\n") }
        let last = lines.removeLast()
        var kept: [String] = []
        var length = last.count
        for line in lines {
            if length + line.count + 1 > maximumUsageLength {
                kept.append("…")
                break
            }
            kept.append(line)
            length += line.count + 1
        }
        return (kept + [last]).joined(separator: "\n")
    }

    /// A usage error begins `error:` as every other error does (ArgumentParser writes `Error:`).
    private static func lowercasingErrorPrefix(_ message: String) -> String {
        message.hasPrefix("Error: ") ? "error: " + message.dropFirst("Error: ".count) : message
    }

    /// The longest usage message printed whole.
    private static let maximumUsageLength = 1_500

    /// The longest line of a usage error that is printed whole.
    private static let maximumUsageLineLength = 300
}

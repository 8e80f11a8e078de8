import Foundation
import Testing
@testable import SignalStoreCLI

/// Each command's help shows the context options (`--db`, `--migrations`, `--json`) and the
/// command-specific options it uses, and only those; giving a command-specific option to a
/// command that does not use it says which commands do.
@Suite(.ownThread) struct OptionScopeTests {
    @Test(arguments: [
        ("get", ["--db", "--json", "--migrations", "--limit"], ["--timeout", "--quiet"]),
        ("tables", ["--db", "--json", "--migrations"], ["--timeout", "--quiet"]),
        ("set", ["--db", "--json", "--migrations", "--timeout"], ["--quiet"]),
        ("migrate", ["--db", "--json", "--migrations", "--timeout", "--quiet"], [String]()),
        ("status", ["--db", "--migrations"], ["--timeout", "--quiet"]),
        ("changes", ["--since", "--follow", "--quiet", "--migrations"], ["--timeout"]),
        ("demo", ["--db", "--json", "--migrations"], ["--timeout", "--quiet"]),
    ])
    func helpShowsTheOptionsTheCommandUses(command: String, shown: [String], hidden: [String]) throws {
        let help = try runBinary(["help", command]).output
        for option in shown { #expect(help.contains(option + " ") || help.contains(option + "\n"), "\(command) help lacks \(option)") }
        for option in hidden { #expect(!help.contains(option), "\(command) help shows \(option)") }
    }

    @Test func anOptionTheCommandDoesNotUseIsAUsageErrorThatSaysWhoUsesIt() throws {
        let result = try runBinary(["--quiet", "get", "orders", "--db", "x.sqlite"])
        #expect(result.status == 2)
        #expect(result.error == "error: get does not take --quiet (it shows no progress); the commands that take it: migrate, prune, changes\n")
    }
}

/// The context options are accepted by every command, before or after it (DESIGN §4), so a
/// script or an alias that passes them to every command works.
@Suite(.ownThread) struct ContextOptionTests {
    @Test func everyCommandAcceptsTheContextOptions() throws {
        let folder = TemporaryDirectory()
        let db = folder.path("app.sqlite")
        let migrations = packageMigrations.path
        #expect(try runBinary(["migrate", "--db", db, "--migrations", migrations]).status == 0)
        let invocations: [[String]] = [
            ["status"], ["tables"], ["schema", "orders"], ["get", "orders"], ["changes", "--limit", "1"],
            ["consumers"], ["insert", "orders", "id=1", "purchase_num=1", "status=open"],
            ["set", "orders", "1", "status=paid"], ["delete", "orders", "1"], ["prune", "--through", "0"],
            ["migrate"],
        ]
        let context = ["--db", db, "--migrations", migrations, "--json"]
        for contextFirst in [false, true] {
            for command in invocations {
                let arguments = contextFirst ? context + command : command + context
                let result = try runBinary(arguments)
                #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.error)")
            }
        }
    }
}

/// The table of which commands take `--timeout` and `--quiet` (for the error message) agrees
/// with the options each command really declares.
@Suite(.ownThread) struct OptionScopeAgreementTests {
    @Test(arguments: ["--timeout", "--quiet"])
    func theScopeTableMatchesEveryCommandsOptions(option: String) {
        for command in SignalStoreTool.configuration.subcommands {
            guard let name = command.configuration.commandName else { continue }
            let declares = SignalStoreTool.helpMessage(for: command).contains(option + " ") || SignalStoreTool.helpMessage(for: command).contains(option + "\n")
            let refused = OptionScope.misplacedOption(in: [name, option], commands: SignalStoreTool.commandNames) != nil
            #expect(declares != refused, "\(name): declares \(option) \(declares), the table refuses it \(refused)")
        }
    }
}

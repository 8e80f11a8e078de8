import Foundation
import Testing
@testable import SignalStoreCLI

/// Each command's help shows the options it uses, and only those; giving one to a command that
/// does not use it says which commands do.
@Suite struct OptionScopeTests {
    @Test(arguments: [
        ("get", ["--db", "--json", "--limit"], ["--timeout", "--migrations", "--quiet"]),
        ("tables", ["--db", "--json"], ["--timeout", "--migrations", "--quiet"]),
        ("set", ["--db", "--json", "--timeout"], ["--migrations", "--quiet"]),
        ("migrate", ["--db", "--json", "--migrations", "--timeout", "--quiet"], [String]()),
        ("status", ["--db", "--migrations"], ["--timeout", "--quiet"]),
        ("changes", ["--since", "--follow", "--quiet"], ["--timeout", "--migrations"]),
    ])
    func helpShowsTheOptionsTheCommandUses(command: String, shown: [String], hidden: [String]) throws {
        let help = try runBinary(["help", command]).output
        for option in shown { #expect(help.contains(option + " ") || help.contains(option + "\n"), "\(command) help lacks \(option)") }
        for option in hidden { #expect(!help.contains(option), "\(command) help shows \(option)") }
    }

    @Test func anOptionTheCommandDoesNotUseIsAUsageErrorThatSaysWhoUsesIt() throws {
        let result = try runBinary(["--quiet", "get", "orders", "--db", "x.sqlite"])
        #expect(result.status == 2)
        #expect(result.error == "Error: get does not take --quiet (it shows no progress); the commands that take it: migrate, prune, changes\n")
    }
}

/// The table of which commands take `--timeout`, `--migrations` and `--quiet` (for the error
/// message) agrees with the options each command really declares.
@Suite struct OptionScopeAgreementTests {
    @Test(arguments: ["--timeout", "--migrations", "--quiet"])
    func theScopeTableMatchesEveryCommandsOptions(option: String) {
        for command in SignalStoreTool.configuration.subcommands {
            guard let name = command.configuration.commandName else { continue }
            let declares = SignalStoreTool.helpMessage(for: command).contains(option + " ") || SignalStoreTool.helpMessage(for: command).contains(option + "\n")
            let refused = OptionScope.misplacedOption(in: [name, option], commands: SignalStoreTool.commandNames) != nil
            #expect(declares != refused, "\(name): declares \(option) \(declares), the table refuses it \(refused)")
        }
    }
}

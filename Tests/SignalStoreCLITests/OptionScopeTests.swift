import Foundation
import Testing

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

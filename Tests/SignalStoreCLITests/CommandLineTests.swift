import Foundation
import SignalStore
@testable import SignalStoreCLI
import Testing

/// The command line as a `sqlite3` or `git` user types it, through the built binary: global
/// options on either side of the command, suggestions for typos, help and version, negative
/// numbers, `changes` after a prune.
@Suite(.ownThread) struct CommandLineTests {
    @Test(arguments: [
        ["--db", "{db}", "get", "orders", "1"],
        ["--db={db}", "get", "orders", "1"],
        ["get", "orders", "1", "--db", "{db}"],
        ["--json", "--db", "{db}", "get", "orders", "1"],
    ])
    func globalOptionsGoBeforeOrAfterTheCommand(arguments: [String]) throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let result = try runBinary(arguments.map { $0.replacingOccurrences(of: "{db}", with: path) })
        #expect(result.status == 0, "\(result.error)")
        let expected = try runBinary(["get", "orders", "1", "--db", path] + (arguments.contains("--json") ? ["--json"] : []))
        #expect(result.output == expected.output)
        #expect(!result.output.isEmpty)
    }

    @Test func aGlobalOptionWithoutACommandSaysWhatIsMissing() throws {
        let result = try runBinary(["--db", "shop.sqlite"])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("error: no command given after --db shop.sqlite; for example: signalstore --db shop.sqlite tables"))
        #expect(result.output.isEmpty)
    }

    @Test(arguments: [
        (["gett", "orders"], "error: unknown command 'gett' (did you mean get?); the commands are: demo, migrate"),
        (["gte", "orders"], "error: unknown command 'gte' (did you mean get?); the commands are: demo, migrate"),   // two letters swapped
        (["help", "nonexist"], "error: unknown command 'nonexist'; the commands are: demo, migrate"),
        (["help", "wach"], "error: unknown command 'wach' (did you mean watch?)"),
    ])
    func unknownCommandsAreUsageErrorsWithASuggestion(arguments: [String], message: String) throws {
        let result = try runBinary(arguments)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix(message), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test func helpOfAKnownCommandAndVersion() throws {
        let help = try runBinary(["help", "get"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("OVERVIEW: Print a table's rows"))
        let version = try runBinary(["--version"])
        #expect(version.status == 0)
        #expect(version.output == SignalStoreTool.version + "\n")
    }

    @Test(arguments: [
        (["get", "ordrs"], "error: no table 'ordrs' in this database (did you mean orders?); its tables are: customers, orders"),
        (["get", "Customer"], "error: no table 'Customer' in this database (did you mean customers?); its tables are"),
        (["get", "orders", "1", "purchaseNum"], "error: table orders has no column 'purchaseNum' (did you mean purchase_num?); its columns are: id,"),
        (["set", "orders", "1", "purchse_num=2"], "error: table orders has no column 'purchse_num' (did you mean purchase_num?)"),
        (["get", "orders", "1", "zzz"], "error: table orders has no column 'zzz'; its columns are: id,"),
    ])
    func typosGetTheClosestName(arguments: [String], message: String) throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let before = fileBytes(path)
        let result = try runBinary(arguments + ["--db", path])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix(message), "\(result.error)")
        #expect(fileBytes(path) == before)
    }

    @Test(arguments: [
        (["changes", "--limit", "-1"], "error: --limit must be 0 or more, e.g. --limit 20"),
        (["changes", "--since", "-5"], "error: --since must be a seq of 0 or more, e.g. --since 0"),
        (["get", "orders", "--limit", "-1"], "error: --limit must be 0 or more, e.g. --limit 20"),
        (["prune", "--through", "-1"], "error: --through must be a seq of 0 or more, e.g. --through 100"),
        (["set", "orders", "1", "status=x", "--timeout", "-1"], "error: --timeout must be a number of seconds between 0 and 86400"),
    ])
    func negativeNumbersAreReadAsValuesAndRefusedWithTheRule(arguments: [String], message: String) throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let result = try runBinary(arguments + ["--db", path])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix(message), "\(result.error)")
    }

    @Test func changesWithoutSinceStartsAtTheOldestKeptEntryAfterAPrune() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        #expect(runCLI(["set", "orders", "1", "status=paid", "--db", path]).status == 0)
        #expect(runCLI(["prune", "--through", "2", "--db", path]).status == 0)
        let result = try runBinary(["changes", "--db", path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error == "note: entries up to seq 2 were pruned; starting after them\n")
        #expect(result.outputLines == ["#3  orders  1  update  status: new → paid"])
        let gap = try runBinary(["changes", "--since", "1", "--db", path])
        #expect(gap.status == 1)
        #expect(gap.error.hasPrefix("error: cannot resume the change feed after seq 1"))
    }
}

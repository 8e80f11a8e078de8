import Foundation
import Testing

/// Progress of long work, through the built binary on a pseudo-terminal (`script` gives the
/// command one): shown on a terminal's stderr, erased at the end, never in redirected output,
/// and off with --quiet.
@Suite(.ownThread)
struct ProgressTests {
    /// Runs `command` (a shell command line) with a terminal for its standard streams; returns
    /// what the terminal showed.
    private func onTerminal(_ command: String) throws -> String {
        let result = try runProgram(URL(fileURLWithPath: ForeignTool.script.path()), ["-qec", command, "/dev/null"])
        try #require(result.status == 0, "\(result.output) \(result.error)")
        return result.output
    }

    private func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @Test func anExportShowsProgressOnTheTerminalAndNotInTheFile() throws {
        let directory = TemporaryDirectory()
        let path = try LargeFeedTests.largeFeed(in: directory, entries: 2_500)
        let binary = quoted(signalstoreExecutable.path)
        let file = directory.path("export.txt")
        let shown = try onTerminal("\(binary) changes --db \(quoted(path)) > \(quoted(file))")
        #expect(shown.contains("exporting the change feed: "), "\(shown.debugDescription)")
        #expect(shown.hasSuffix("\r\u{1B}[K"), "the progress line is erased at the end: \(shown.suffix(40).debugDescription)")
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        #expect(exported.split(separator: "\n").count == 2_502)
        #expect(!exported.contains("exporting"))
        let quiet = try onTerminal("\(binary) changes --quiet --db \(quoted(path)) > /dev/null")
        #expect(quiet.isEmpty, "--quiet still showed \(quiet.debugDescription)")
    }

    @Test func pruneAndMigrateSayWhatTheyAreDoing() throws {
        let directory = TemporaryDirectory()
        let binary = quoted(signalstoreExecutable.path)
        let path = directory.path("new.sqlite")
        let migrated = try onTerminal("\(binary) migrate --db \(quoted(path)) --migrations \(quoted(packageMigrations.path))")
        #expect(migrated.contains("migrate: applying 0001_create_orders.sql, 0002_create_customers.sql…"), "\(migrated.debugDescription)")
        #expect(migrated.contains("is now at version 2"))
        let large = try LargeFeedTests.largeFeed(in: directory, entries: 2_500)
        let pruned = try onTerminal("\(binary) prune --through 2000 --db \(quoted(large))")
        #expect(pruned.contains("pruning the change feed: 2,000"), "\(pruned.debugDescription)")
        #expect(pruned.contains("pruned 2000 entries through seq 2000"))
    }
}

extension ProgressTests {
    @Test func noProgressMixesWithResultsOnTheTerminal() throws {
        let directory = TemporaryDirectory()
        let path = try LargeFeedTests.largeFeed(in: directory, entries: 2_500)
        let shown = try onTerminal("\(quoted(signalstoreExecutable.path)) changes --db \(quoted(path))")
        #expect(!shown.contains("exporting"))
        #expect(shown.unicodeScalars.filter { $0 == "\n" }.count == 2_502, "a terminal ends lines with \\r\\n")
    }
}

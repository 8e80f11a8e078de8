import ArgumentParser
import Foundation
import SignalStore

/// Shell completion of names from the database itself: tables, and a table's columns. The
/// shell scripts (`signalstore --generate-completion-script bash|zsh|fish`) call back into the
/// binary with the words typed so far; the database is the `--db` among them, else
/// `SIGNALSTORE_DB`. Anything that goes wrong (no database yet, a damaged file) completes
/// nothing rather than printing an error into the user's prompt.
enum Completions {
    /// The tables of the database.
    static let tables = CompletionKind.custom { words, _, prefix in
        names(words) { connection, _ in try TableSchema.userTables(connection).map(\.name) }.filter { $0.hasPrefix(prefix) }
    }

    /// The columns of the table named after the command.
    static let columns = CompletionKind.custom { words, _, prefix in
        names(words) { connection, table in try columnNames(of: table, connection) }.filter { $0.hasPrefix(prefix) }
    }

    /// `column=` for each column of the table, for assignments.
    static let assignments = CompletionKind.custom { words, _, prefix in
        names(words) { connection, table in try columnNames(of: table, connection).map { $0 + "=" } }.filter { $0.hasPrefix(prefix) }
    }

    /// The options that take a value, whose value is not the table.
    private static let optionsWithValues: Set<String> = ["--db", "--migrations", "--timeout", "--limit", "--since", "--column", "--through"]

    /// Runs `body` on a read-only connection to the database the words name, with the table
    /// named after the subcommand (if any).
    private static func names(_ words: [String], _ body: (Connection, String?) throws -> [String]) -> [String] {
        guard let path = databasePath(words), FileManager.default.isReadableFile(atPath: path),
              let connection = try? Connection(path: path, readOnly: true)
        else { return [] }
        return (try? body(connection, table(words))) ?? []
    }

    private static func databasePath(_ words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == "--db", index + 1 < words.count { return expandingTilde(words[index + 1]) }
            if word.hasPrefix("--db=") { return expandingTilde(String(word.dropFirst(5))) }
        }
        return ProcessInfo.processInfo.environment["SIGNALSTORE_DB"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func expandingTilde(_ path: String) -> String {
        (path as NSString).expandingTildeInPath
    }

    /// The first plain word after the subcommand.
    private static func table(_ words: [String]) -> String? {
        guard let command = words.firstIndex(where: { SignalStoreTool.commandNames.contains($0) }) else { return nil }
        var index = command + 1
        while index < words.count {
            let word = words[index]
            if optionsWithValues.contains(word) {
                index += 2
            } else if word.hasPrefix("-") {
                index += 1
            } else {
                return word
            }
        }
        return nil
    }

    private static func columnNames(of table: String?, _ connection: Connection) throws -> [String] {
        guard let table else { return [] }
        return try TableSchema.read(table, connection)?.columnNames ?? []
    }
}

import Foundation
import Testing

/// Shell completion: the generated scripts call the binary back with the words typed so far,
/// and it answers with names from the database. Tested through the built binary, with the call
/// the bash script makes.
@Suite(.ownThread) struct CompletionTests {
    /// What the shell script runs to complete the argument `argument` of `command`.
    private func complete(_ command: String, _ argument: String, words: [String], environment: [String: String]? = nil) throws -> CLIResult {
        let current = words.count - 1
        return try runBinary(["---completion", command, "--", argument, String(current), String(words[current].count)] + words, environment: environment)
    }

    @Test func tablesAndColumnsComeFromTheDatabase() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        #expect(try complete("get", "positional@0", words: ["signalstore", "get", "--db", path, "or"]).output == "orders\n")
        #expect(try complete("get", "positional@2", words: ["signalstore", "get", "--db", path, "orders", "1", "pur"]).output == "purchase_num\n")
        #expect(try complete("set", "positional@2", words: ["signalstore", "set", "--db", path, "orders", "1", "st"]).output == "status=\n")
        #expect(try complete("watch", "--column", words: ["signalstore", "watch", "--db", path, "orders", "--column", "no"]).output == "note\n")
        let fromEnvironment = try complete("schema", "positional@0", words: ["signalstore", "schema", "cu"], environment: ["SIGNALSTORE_DB": path])
        #expect(fromEnvironment.output == "customers\n")
    }

    @Test func noDatabaseCompletesNothingAndPrintsNoError() throws {
        let result = try complete("get", "positional@0", words: ["signalstore", "get", "--db", "/nonexistent/x.sqlite", "or"])
        #expect(result.status == 0)
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && result.error.isEmpty)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func theScriptsAskTheBinaryForNames(shell: String) throws {
        let script = try runBinary(["--generate-completion-script", shell])
        #expect(script.status == 0)
        #expect(script.output.contains("---completion get -- positional@0"), "the \(shell) script does not complete tables")
    }
}

import Foundation
import Testing

/// Values as a shell delivers them: the help's forms work as typed, what the shell mangled is
/// refused with the fix, and output tells NULL, empty text and the text "null" apart.
@Suite(.ownThread) struct ValueFormsTests {
    @Test func theHelpShowsTheShellSafeForms() throws {
        let help = try runBinary(["help", "set"])
        for form in [#""note='null'""#, #""note=''""#, #""data=x'0aff'""#, "note=null"] {
            #expect(help.output.contains(form), "help lacks \(form)")
        }
    }

    @Test func bytesWhoseQuotesTheShellRemovedAreRefusedAndNothingChanges() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let before = fileBytes(path)
        let result = try runBinary(["set", "orders", "1", "note=x0aff", "--db", path])   // bash: note=x'0aff'
        #expect(result.status == 1)
        #expect(result.error == #"error: note=x0aff is ambiguous: the shell removes quotes, so x'0aff' arrives as x0aff; quote the whole assignment: "note=x'0aff'" for bytes, "note='x0aff'" for the text"# + "\n")
        #expect(result.output.isEmpty)
        #expect(fileBytes(path) == before)
        let quoted = try runBinary(["set", "orders", "1", "note='x0aff'", "--db", path])    // bash: "note='x0aff'"
        #expect(quoted.status == 0, "\(quoted.error)")
        #expect(try runBinary(["get", "orders", "1", "note", "--db", path]).output == "x0aff\n")
        // The bytes fix the error gives stores bytes, in this TEXT column too, as SQL would.
        let bytes = try runBinary(["set", "orders", "1", "note=x'0aff'", "--db", path])    // bash: "note=x'0aff'"
        #expect(bytes.status == 0, "\(bytes.error)")
        #expect(try runBinary(["get", "orders", "1", "note", "--db", path, "--json"]).output.contains("0aff"))
    }

    @Test func nullEmptyTextAndTheTextNullAreTold() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        // As bash delivers note=null, "note='null'" and "note=''".
        for (id, assignment) in [("1", "note=null"), ("2", "note='null'")] {
            let set = try runBinary(["set", "orders", id, assignment, "--db", path])
            #expect(set.status == 0, "\(set.error)")
        }
        try #require(try runBinary(["insert", "orders", "purchase_num=3", "status=new", "note=''", "--db", path]).status == 0)
        func human(_ id: String) throws -> String? {
            try runBinary(["get", "orders", id, "--db", path]).outputLines.first { $0.hasPrefix("note") }
        }
        #expect(try human("1") == "note          null")
        #expect(try human("2") == "note          'null'")
        #expect(try human("3") == "note          ''")
        // For scripts: the raw value, NULL as an empty line; --json tells NULL from empty text.
        #expect(try runBinary(["get", "orders", "1", "note", "--db", path]).output == "\n")
        #expect(try runBinary(["get", "orders", "2", "note", "--db", path]).output == "null\n")
        #expect(try runBinary(["get", "orders", "3", "note", "--db", path]).output == "\n")
        #expect(try runBinary(["get", "orders", "1", "note", "--json", "--db", path]).output == "null\n")
        #expect(try runBinary(["get", "orders", "2", "note", "--json", "--db", path]).output == "\"null\"\n")
        #expect(try runBinary(["get", "orders", "3", "note", "--json", "--db", path]).output == "\"\"\n")
    }
}

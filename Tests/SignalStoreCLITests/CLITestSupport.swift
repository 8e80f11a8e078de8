import Foundation
import SignalStore
@testable import SignalStoreCLI
import Testing
@_exported import SignalStoreTestSupport

/// What one run of the CLI printed and returned.
struct CLIResult: Sendable {
    let status: Int32
    let output: String
    let error: String

    var outputLines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
}

/// Runs the CLI in this process with a recording console.
func runCLI(_ arguments: [String], environment: [String: String] = [:], stop: StopRequest = StopRequest(), output: CapturedText = CapturedText()) -> CLIResult {
    let error = CapturedText()
    let context = CommandContext(
        console: Console(output: { output.append($0) }, error: { error.append($0) }),
        environment: environment, stop: stop, executablePath: signalstoreExecutable.path
    )
    let status = SignalStoreTool.run(arguments, in: context)
    return CLIResult(status: status, output: output.value, error: error.value)
}

/// The built `signalstore` executable, next to the test bundle.
let signalstoreExecutable = builtExecutable("signalstore")

/// Runs the built `signalstore` executable to completion.
func runBinary(_ arguments: [String], environment: [String: String]? = nil) throws -> CLIResult {
    let result = try runProgram(signalstoreExecutable, arguments, environment: environment)
    return CLIResult(status: result.status, output: result.output, error: result.error)
}

/// A migrated database with two orders, in `directory`.
func exampleDatabase(in directory: TemporaryDirectory) throws -> String {
    let path = directory.path("app.sqlite")
    let migrate = runCLI(["migrate", "--db", path, "--migrations", packageMigrations.path])
    try #require(migrate.status == 0, "migrate failed: \(migrate.error)")
    for values in [["purchase_num=1", "status=new"], ["purchase_num=2", "status=paid", "note=gift"]] {
        let insert = runCLI(["insert", "orders"] + values + ["--db", path])
        try #require(insert.status == 0, "insert failed: \(insert.error)")
    }
    return path
}

/// Parses one JSON document.
func parseJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

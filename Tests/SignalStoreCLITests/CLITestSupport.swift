import Foundation
import SignalStore
@testable import SignalStoreCLI
import Testing

/// A temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-cli-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}

/// The package's `Migrations/` folder (the example app schema).
let packageMigrations = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Migrations").path

/// What one run of the CLI printed and returned.
struct CLIResult: Sendable {
    let status: Int32
    let output: String
    let error: String

    var outputLines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
}

/// Text written by a command, collected as it arrives, with a condition to wait on.
final class CapturedText: @unchecked Sendable {
    // @unchecked: `text` is read and written only while holding `condition`'s lock.
    private let condition = NSCondition()
    private var text = ""

    func append(_ piece: String) {
        condition.lock()
        text += piece
        condition.broadcast()
        condition.unlock()
    }

    var value: String {
        condition.lock()
        defer { condition.unlock() }
        return text
    }

    /// Waits until the text satisfies `predicate`, or `timeout` passes.
    @discardableResult
    func wait(timeout: TimeInterval = 10, until predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(text) {
            if !condition.wait(until: deadline) { return predicate(text) }
        }
        return true
    }
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
let signalstoreExecutable: URL = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("signalstore").path), directory.path != "/" {
        directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("signalstore")
}()

/// A running `signalstore` process whose output is collected as it arrives.
final class RunningCLI {
    let process: Process
    let output = CapturedText()
    let error = CapturedText()

    init(_ arguments: [String], environment: [String: String]? = nil) throws {
        process = Process()
        process.executableURL = signalstoreExecutable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let outputPipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let output = output, error = error
        outputPipe.fileHandleForReading.readabilityHandler = { handle in output.append(String(decoding: handle.availableData, as: UTF8.self)) }
        errorPipe.fileHandleForReading.readabilityHandler = { handle in error.append(String(decoding: handle.availableData, as: UTF8.self)) }
        try process.run()
    }

    /// Waits for the process to exit (at most `timeout`) and returns its status, or `nil`.
    func waitForExit(timeout: TimeInterval = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(5_000)
        }
        // Let the readability handlers drain what the process wrote last.
        output.wait(timeout: 0.2) { _ in false }
        return process.terminationStatus
    }
}

/// Runs the built `signalstore` executable to completion.
func runBinary(_ arguments: [String], environment: [String: String]? = nil) throws -> CLIResult {
    let process = Process()
    process.executableURL = signalstoreExecutable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIResult(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self), error: String(decoding: errorData, as: UTF8.self))
}

/// A migrated database with two orders, in `directory`.
func exampleDatabase(in directory: TemporaryDirectory) throws -> String {
    let path = directory.path("app.sqlite")
    let migrate = runCLI(["migrate", "--db", path, "--migrations", packageMigrations])
    try #require(migrate.status == 0, "migrate failed: \(migrate.error)")
    for values in [["purchase_num=1", "status=new"], ["purchase_num=2", "status=paid", "note=gift"]] {
        let insert = runCLI(["insert", "orders"] + values + ["--db", path])
        try #require(insert.status == 0, "insert failed: \(insert.error)")
    }
    return path
}

/// The bytes of a file (empty if it cannot be read), to check that a failed command changed
/// nothing.
func fileBytes(_ path: String) -> Data {
    FileManager.default.contents(atPath: path) ?? Data()
}

/// Parses one JSON document.
func parseJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

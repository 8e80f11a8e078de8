import Foundation
@testable import SignalStore

/// Where a test's store lives: the same test body runs on both.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case file

    var testDescription: String { rawValue }
}

import Testing

/// A temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes migration files into a subfolder and returns the folder.
    func migrations(_ files: [String: String], folder: String = "Migrations") -> URL {
        let directory = url.appendingPathComponent(folder)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, sql) in files {
            try! Data(sql.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory
    }
}

/// The package's `Migrations/` folder (the example app schema).
let packageMigrations = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Migrations")

/// A store of the given kind on the example schema; the directory keeps a file store's files.
func makeStore(_ kind: StoreKind, in directory: TemporaryDirectory = TemporaryDirectory()) throws -> (Store, TemporaryDirectory) {
    switch kind {
    case .inMemory: return (try Store.inMemory(migrations: packageMigrations), directory)
    case .file: return (try Store(path: directory.path("test.sqlite"), migrations: packageMigrations), directory)
    }
}

/// Runs a query through the store's connection.
func rows(_ store: Store, _ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
    try store.read { connection in try Statement(database: connection.handle, sql: sql).rows(arguments) }
}

/// The built `StoreTestHelper` executable, next to the test bundle.
var helperExecutable: URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("StoreTestHelper").path), directory.path != "/" {
        directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("StoreTestHelper")
}

/// Runs a program to completion and returns its exit status and output.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
}

/// The `sqlite3` command-line shell.
let sqlite3Shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

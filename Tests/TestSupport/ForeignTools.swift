import Foundation

/// A program a test runs and this machine lacks. The test fails with it (it never passes
/// without the program): the message says what to install.
public struct MissingTool: Error, CustomStringConvertible {
    /// The program and the packages that bring it.
    public let description: String
}

/// The programs tests run beside SignalStore: foreign writers that know nothing of it (the
/// `sqlite3` shell, Python's `sqlite3` module), and PostgreSQL's `psql`. `.ci/run` installs
/// every one of them.
public enum ForeignTool: String, Sendable {
    case sqlite3
    case python3
    case psql
    /// util-linux's `script`, which gives a child a terminal.
    case script

    /// Where the program is, looked for once.
    public func path() throws(MissingTool) -> String {
        let found = switch self {
        case .sqlite3: Self.sqlite3Path
        case .python3: Self.python3Path
        case .psql: Self.psqlPath
        case .script: Self.scriptPath
        }
        guard let found else { throw MissingTool(description: "this test runs \(rawValue), which is not installed: \(installation)") }
        return found
    }

    private var installation: String {
        switch self {
        case .sqlite3: "install Debian's sqlite3 package (apt-get install sqlite3, as .ci/run does) or Homebrew's sqlite"
        case .python3: "install Debian's python3 package (apt-get install python3) or Homebrew's python"
        case .psql: "install Debian's postgresql-client package (apt-get install postgresql-client, as .ci/run does) or Homebrew's libpq"
        case .script: "install Debian's bsdutils package (apt-get install bsdutils)"
        }
    }

    private static let sqlite3Path = firstExecutable(["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"])
    private static let python3Path = firstExecutable(["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"])
    private static let psqlPath = firstExecutable(["/usr/bin/psql", "/usr/local/bin/psql", "/opt/homebrew/bin/psql", "/opt/homebrew/opt/libpq/bin/psql"])
    private static let scriptPath = firstExecutable(["/usr/bin/script"])

    private static func firstExecutable(_ paths: [String]) -> String? {
        paths.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// The `sqlite3` shell's path: a foreign writer with SQLite's default settings.
/// - Throws: ``MissingTool`` when it is not installed.
public func sqlite3Path() throws(MissingTool) -> String {
    try ForeignTool.sqlite3.path()
}

/// What a program printed, and how it ended.
public struct ToolFailure: Error, CustomStringConvertible {
    public let description: String
}

/// Runs `sql` in the `sqlite3` shell on `path`: a writer in another process that knows nothing
/// of SignalStore (SQLite's defaults, `-bail`, and a 5 s busy timeout). Returns what it printed.
/// - Throws: ``MissingTool`` without the shell; ``ToolFailure`` with the shell's message when
///   it fails.
@discardableResult
public func sqlite3(_ path: String, _ sql: String) throws -> String {
    let result = try runProgram(URL(fileURLWithPath: try sqlite3Path()), ["-bail", path, ".timeout 5000", sql])
    guard result.status == 0 else {
        throw ToolFailure(description: "sqlite3 exited with \(result.status): \(result.error)")
    }
    return result.output
}

/// Runs `script` in Python (`python3 -c`) with `arguments` (its `sys.argv[1...]`): Python's
/// `sqlite3` module is the other foreign writer. Returns what it printed.
/// - Throws: ``MissingTool`` without Python; ``ToolFailure`` with its message when it fails.
@discardableResult
public func python3(_ script: String, _ arguments: [String]) throws -> String {
    let result = try runProgram(URL(fileURLWithPath: try ForeignTool.python3.path()), ["-c", script] + arguments)
    guard result.status == 0 else {
        throw ToolFailure(description: "python3 exited with \(result.status): \(result.error)")
    }
    return result.output
}

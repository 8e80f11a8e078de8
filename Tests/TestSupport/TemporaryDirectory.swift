import Foundation
import SignalStore

/// A temporary directory, removed (with everything in it) when released.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates a new, empty directory under the system's temporary folder.
    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes migration files into a subfolder and returns the folder.
    public func migrations(_ files: [String: String], folder: String = "Migrations") -> URL {
        let directory = url.appendingPathComponent(folder)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, sql) in files {
            try! Data(sql.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory
    }
}

/// The package's root folder.
public let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The package's `Migrations/` folder (the example app schema).
public let packageMigrations = packageRoot.appendingPathComponent("Migrations")

/// The bytes of a file (empty if it cannot be read), to check that a failed operation changed
/// nothing.
public func fileBytes(_ path: String) -> Data {
    FileManager.default.contents(atPath: path) ?? Data()
}

/// The package's migrations, loaded.
public var packageMigrationList: [Migration] {
    (try? Migration.load(from: packageMigrations)) ?? []
}

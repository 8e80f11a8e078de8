import Foundation

/// One forward-only schema change: plain SQL applied once, in version order.
///
/// Migrations usually live as files in `Migrations/`, named `NNNN_description.sql`
/// (`0001_create_orders.sql`), and are loaded with ``load(from:)``. Apps can also declare them
/// in code:
/// ```swift
/// let migrations = [Migration(version: 1, name: "create_orders", sql: "CREATE TABLE orders (…);")]
/// let store = try Store.inMemory(migrations: migrations)
/// ```
public struct Migration: Sendable, Equatable {
    /// The migration's number; versions start at 1 and have no gaps.
    public let version: Int
    /// A short description, from the file name or given in code.
    public let name: String
    /// The SQL to run, one or more statements.
    public let sql: String
    /// The file it was loaded from, if any; errors name it.
    public let file: String?

    /// Declares a migration in code.
    /// - Parameters:
    ///   - version: Its number, starting at 1.
    ///   - name: A short description.
    ///   - sql: The SQL to run.
    public init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name, sql: sql, file: nil)
    }

    init(version: Int, name: String, sql: String, file: String?) {
        self.version = version
        self.name = name
        self.sql = sql
        self.file = file
    }

    /// How errors refer to it: the file name, or `migration 2 (add_customers)`.
    var label: String {
        file ?? "migration \(version) (\(name))"
    }

    /// A checksum of the SQL (FNV-1a, 64 bits, hex): detects a migration edited after it was
    /// applied.
    package var checksum: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sql.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01b3
        }
        return String(hash, radix: 16).leftPadded(to: 16)
    }

    /// Loads every `NNNN_description.sql` file of `directory`, sorted by version.
    ///
    /// Other files are ignored, except `.sql` files whose name does not follow the pattern:
    /// those are an error, so a misnamed migration is never silently skipped.
    /// - Throws: ``MigrationError`` for a missing directory, a misnamed or unreadable file.
    public static func load(from directory: URL) throws(MigrationError) -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MigrationError(.missingDirectory, file: directory.path, message: "cannot read the migrations folder \(directory.path); create it or pass the right folder")
        }
        var migrations: [Migration] = []
        for name in names.sorted() where name.hasSuffix(".sql") {
            migrations.append(try load(file: name, in: directory))
        }
        return migrations.sorted { $0.version < $1.version }
    }

    private static func load(file: String, in directory: URL) throws(MigrationError) -> Migration {
        let stem = file.dropLast(4)
        let parts = stem.split(separator: "_", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 4, let version = Int(parts[0]), version > 0, !parts[1].isEmpty else {
            throw MigrationError(.badFileName, file: file, message: "\(file) is not named NNNN_description.sql (for example 0003_add_customers.sql); rename it")
        }
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) else {
            throw MigrationError(.unreadableFile, file: file, message: "cannot read \(file); check its permissions")
        }
        guard let sql = String(data: data, encoding: .utf8) else {
            throw MigrationError(.notUTF8, file: file, message: "\(file) is not valid UTF-8 text; save it as UTF-8")
        }
        return Migration(version: version, name: String(parts[1]), sql: sql, file: file)
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

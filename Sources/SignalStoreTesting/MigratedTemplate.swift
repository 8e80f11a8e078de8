import Foundation

/// A database file migrated once per process and list of migrations, copied for each
/// ``TestStore``: migrating a new file costs several synced transactions (tens of
/// milliseconds), copying a closed one a fraction of one.
///
/// The template is made by a `Store` like any other and closed, so its write-ahead log is
/// checkpointed into the file; the copy opens as a database that has those migrations applied.
enum MigratedTemplate {
    /// The templates made so far, by the migrations' versions and checksums.
    private static let templates = Locked<[String: String]>([:])
    /// Where they live; removed when the process exits.
    private static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-templates-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: MigratedTemplate.folder) }
        return url
    }()

    /// Copies the template for `migrations` to `path`, making the template first if needed.
    /// Failures to make one are left to the store that opens `path`, which then migrates it
    /// itself and reports any error in full.
    static func copy(for migrations: [Migration], to path: String) throws {
        let key = migrations.map { "\($0.version):\($0.checksum)" }.joined(separator: ",")
        guard let template = templates.withLock({ $0[key] }) ?? make(key, migrations) else { return }
        do {
            try FileManager.default.copyItem(atPath: template, toPath: path)
        } catch {
            throw TestStoreError("cannot copy the migrated template to \(path): \(error.localizedDescription)")
        }
    }

    private static func make(_ key: String, _ migrations: [Migration]) -> String? {
        let path = folder.appendingPathComponent("\(UUID().uuidString).sqlite").path
        guard let store = try? Store(path: path, migrations: migrations) else { return nil }
        store.close()
        return templates.withLock { templates in
            if let other = templates[key] { return other }   // another test made one meanwhile
            templates[key] = path
            return path
        }
    }
}

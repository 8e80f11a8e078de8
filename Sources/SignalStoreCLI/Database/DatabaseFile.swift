import Foundation

/// Checks a database file before SQLite opens it, so a missing, empty, truncated or foreign
/// file gives a clear error and is never written to.
enum DatabaseFile {
    /// The first 16 bytes of every SQLite 3 database.
    private static let magic = Array("SQLite format 3\0".utf8)
    /// The size of the database header.
    private static let headerSize = 100

    /// Fails unless `path` is a regular, non-empty file that starts with a complete SQLite header
    /// and is as long as the header says.
    static func checkExisting(_ path: String) throws(CLIError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("no database at \(display(path)); create one with `signalstore migrate --db \(display(path))`, or check --db")
        }
        if isDirectory.boolValue {
            throw CLIError("\(display(path)) is a directory, not a database file; pass the database file with --db")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIError("cannot read \(display(path)): permission denied; make it readable (chmod u+r) or run as its owner")
        }
        defer { try? handle.close() }
        let fileSize = (try? handle.seekToEnd()) ?? 0
        if fileSize == 0 {
            throw CLIError("\(display(path)) is an empty file, not a SignalStore database; remove it and run `signalstore migrate --db \(display(path))` to create one")
        }
        try? handle.seek(toOffset: 0)
        let header = Array((try? handle.read(upToCount: headerSize)) ?? Data())
        guard header.count >= magic.count, Array(header[0..<magic.count]) == magic else {
            throw CLIError("\(display(path)) is not a SQLite database (its header is wrong); check --db")
        }
        guard header.count == headerSize else {
            throw CLIError("\(display(path)) is truncated (\(fileSize) bytes, shorter than a SQLite header); restore it from a backup")
        }
        try checkLength(of: path, header: header, fileSize: fileSize)
    }

    /// A database without pending WAL content is a whole number of pages, at least as many as
    /// its header records (when that count is valid).
    private static func checkLength(of path: String, header: [UInt8], fileSize: UInt64) throws(CLIError) {
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? UInt64) ?? 0
        guard walSize == 0 else { return }
        let rawPageSize = UInt64(header[16]) << 8 | UInt64(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pageCount = bigEndian(header, at: 28)
        let changeCounter = bigEndian(header, at: 24)
        let validFor = bigEndian(header, at: 92)
        let truncated = fileSize % max(pageSize, 1) != 0 || (pageCount > 0 && changeCounter == validFor && fileSize < pageCount * pageSize)
        if pageSize < 512 || truncated {
            throw CLIError("\(display(path)) is truncated or damaged (\(fileSize) bytes, page size \(pageSize), \(pageCount) pages expected); restore it from a backup")
        }
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Whether the owner may write the file (its mode's owner-write bit). Checked by mode, not
    /// by `access(2)`, so a read-only file stays unchanged even for root.
    static func isWritable(_ path: String) -> Bool {
        guard let permissions = try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber else { return false }
        return permissions.intValue & 0o200 != 0
    }
}

/// Why migrations could not be applied. The message names the file (or migration) and says
/// what to do.
///
/// Nothing of a failing migration remains in the database: each migration runs in its own
/// transaction together with its bookkeeping row.
public struct MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: Sendable, Equatable {
        /// The migrations folder does not exist or cannot be read.
        case missingDirectory
        /// A `.sql` file is not named `NNNN_description.sql`.
        case badFileName
        /// A file cannot be read.
        case unreadableFile
        /// A file is not UTF-8 text.
        case notUTF8
        /// Two migrations have the same version.
        case duplicateVersion
        /// Versions do not run 1, 2, 3, … without a gap.
        case gap
        /// An applied migration was edited afterwards.
        case checksumMismatch
        /// The database has migrations that the files do not have.
        case databaseNewer
        /// A statement failed; the migration was rolled back.
        case statementFailed
        /// The migration left a row whose foreign key refers to no row; it was rolled back.
        case foreignKeyViolation
    }

    /// The kind of problem.
    public let kind: Kind
    /// The file (or migration label) concerned.
    public let file: String?
    /// For ``Kind/statementFailed``: the line of the file on which the failing statement starts.
    public let line: Int?
    /// What went wrong and how to fix it.
    public let message: String

    init(_ kind: Kind, file: String?, line: Int? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    /// The message, prefixed with `file:line:` when known.
    public var description: String {
        switch (file, line) {
        case let (file?, line?): return "\(file):\(line): \(message)"
        default: return message
        }
    }

    /// The error of a migration that failed while adopting an existing, non-SignalStore
    /// database: says that the file is unchanged and how to adopt it.
    func adopting(_ path: String) -> MigrationError {
        let base = message.components(separatedBy: " — ").first ?? message
        return MigrationError(kind, file: file, line: line, message: "\(base) — \(path) is not a SignalStore database yet and was left unchanged; to adopt it, make the first migrations create only the tables it does not have yet")
    }
}

#if SIGNALSTORE_INSPECTOR
import Foundation

/// Which file a path named when the inspector opened it (device and inode), so the inspector can
/// tell when the file was deleted or replaced under it: its connections go on reading the old
/// file, which no writer will change again, and the page must not call that "live".
struct DatabaseFileIdentity: Sendable, Equatable {
    let path: String
    private let device: UInt64
    private let inode: UInt64

    /// The file at `path` now; `nil` for an in-memory database or a path that names nothing.
    init?(path: String) {
        var info = stat()
        guard path != ":memory:", stat(path, &info) == 0 else { return nil }
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// What happened to the file since, or `nil` while the path still names it.
    var change: String? {
        guard let now = DatabaseFileIdentity(path: path) else {
            return "the database file \(path) was deleted; this shows its last state. Restart signalstore inspect on the new file."
        }
        return now == self ? nil : "the database file \(path) was replaced by another file; this shows the old one. Restart signalstore inspect to see the new one."
    }
}
#endif

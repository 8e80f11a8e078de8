#if SIGNALSTORE_SYNC
import Foundation

/// Where a PostgreSQL password comes from when the URL has none, as `libpq` finds it: the
/// `PGPASSWORD` environment variable, else the password file named by `PGPASSFILE` (default
/// `~/.pgpass`).
///
/// A password file has lines `hostname:port:database:username:password`; each of the first four
/// fields may be `*` (any), `\\:` and `\\\\` stand for `:` and `\\`, and `#` starts a comment line.
/// The first line that matches wins. As in `libpq`, a file that its group or others may read is
/// not used (make it `chmod 600`).
///
/// Related documentation: <https://www.postgresql.org/docs/current/libpq-pgpass.html>
enum PasswordFile {
    /// The password for a connection, and why the password file was not used if one exists and
    /// was passed over.
    static func password(
        url: String?, host: String, port: Int, database: String, user: String, environment: [String: String]
    ) -> (password: String?, problem: String?) {
        if let url { return (url, nil) }
        if let password = environment["PGPASSWORD"], !password.isEmpty { return (password, nil) }
        guard let path = path(environment), FileManager.default.fileExists(atPath: path) else { return (nil, nil) }
        if let problem = permissionProblem(path) { return (nil, problem) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            return (nil, "the password file \(path) cannot be read")
        }
        let fields = [host, String(port), database, user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let parts = split(String(line))
            guard parts.count == 5, zip(parts, fields).allSatisfy({ $0 == "*" || $0 == $1 }) else { continue }
            return (parts[4], nil)
        }
        return (nil, "the password file \(path) has no line for \(host):\(port):\(database):\(user)")
    }

    /// `PGPASSFILE`, else `~/.pgpass`.
    private static func path(_ environment: [String: String]) -> String? {
        if let path = environment["PGPASSFILE"], !path.isEmpty { return path }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home.isEmpty ? nil : URL(fileURLWithPath: home).appendingPathComponent(".pgpass").path
    }

    /// Why `libpq` would refuse the file: readable by its group or others, or not a plain file.
    private static func permissionProblem(_ path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            return "the password file \(path) cannot be read"
        }
        if attributes[.type] as? FileAttributeType != .typeRegular {
            return "the password file \(path) is not a plain file"
        }
        let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        if permissions & 0o077 != 0 {
            return "the password file \(path) was not used: its group or others may read it; make it private with chmod 600 \(path)"
        }
        return nil
    }

    /// The five fields of a line, with `\:` and `\\` unescaped.
    private static func split(_ line: String) -> [String] {
        var fields: [String] = [""]
        var escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }
}
#endif

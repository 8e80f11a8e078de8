#if SIGNALSTORE_SYNC
import Foundation
@testable import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// URLs and passwords as libpq reads them: percent-decoding exactly once, PGPASSWORD, and the
/// password file with its permission check.
@Suite("Sync: PostgreSQL URLs and passwords as libpq reads them")
struct PostgresURLConventionTests {
    @Test("percent-encoded user, password and database are decoded exactly once")
    func percentDecodingOnce() throws {
        let url = try PostgresURL("postgres://us%40er:p%40ss%3Aw%2Frd%25X%21%23%20s@db.example.com/my%20db", environment: [:])
        #expect(url.username == "us@er")
        #expect(url.password == "p@ss:w/rd%X!# s")
        #expect(url.database == "my db")
        #expect(!url.redacted.contains("p%40ss") && !url.description.contains("w/rd"))
        // A literal %41 in a password is written %2541, and stays %41.
        #expect(try PostgresURL("postgres://u:a%2541@h/d", environment: [:]).password == "a%41")
    }

    @Test("a malformed escape is a one-line error that shows no password")
    func malformedEscape() {
        #expect {
            _ = try PostgresURL("postgres://u:secret%zz@h/d", environment: [:])
        } throws: { error in
            let text = "\(error)"
            return text.contains("malformed %-escape") && !text.contains("secret")
        }
    }

    @Test("without a password in the URL, PGPASSWORD gives it; the URL's own wins")
    func pgpassword() throws {
        #expect(try PostgresURL("postgres://u@h/d", environment: ["PGPASSWORD": "from-env"]).password == "from-env")
        #expect(try PostgresURL("postgres://u:in-url@h/d", environment: ["PGPASSWORD": "from-env"]).password == "in-url")
        #expect(try PostgresURL("postgres://u@h/d", environment: ["PGPASSWORD": "from-env"]).redacted.hasPrefix("postgres://u@h:5432/"))
    }

    @Test("the password file: first matching line, * wildcards, \\: and \\\\ escapes, comments")
    func passwordFile() throws {
        let folder = TemporaryDirectory()
        let file = folder.path("pgpass")
        try Data("""
            # a comment line
            other.example.com:5432:*:u:wrong
            h:*:d:u:se\\:cret\\\\x
            *:*:*:*:fallback
            """.utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        #expect(try PostgresURL("postgres://u@h/d", environment: ["PGPASSFILE": file]).password == "se:cret\\x")
        #expect(try PostgresURL("postgres://u@h/other", environment: ["PGPASSFILE": file]).password == "fallback")
        #expect(try PostgresURL("postgres://u@h/d", environment: ["PGPASSFILE": file, "PGPASSWORD": "env"]).password == "env")
        // ~/.pgpass when PGPASSFILE is not set.
        try FileManager.default.copyItem(atPath: file, toPath: folder.path(".pgpass"))
        #expect(try PostgresURL("postgres://u@h/d", environment: ["HOME": folder.url.path]).password == "se:cret\\x")
    }

    @Test("a password file that its group or others may read is not used, and the reason is kept")
    func passwordFilePermissions() throws {
        let folder = TemporaryDirectory()
        let file = folder.path("pgpass")
        try Data("*:*:*:*:secret\n".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let url = try PostgresURL("postgres://u@h/d", environment: ["PGPASSFILE": file])
        #expect(url.password == nil)
        #expect(url.passwordFileProblem?.contains("chmod 600") == true, "\(url.passwordFileProblem ?? "")")
    }
}

/// The same conventions against the real server, through the built binary. One test at a
/// time: concurrent `GRANT … ON DATABASE` of one database fails with "tuple concurrently
/// updated" (seen once under CI's load).
@Suite("Sync: a password with @ : / % ! # and a space, from the URL, PGPASSWORD and a password file", .enabled(if: TestServer.isEnabled, "needs PostgreSQL"), .ownThread, .serialized)
struct PostgresPasswordServerTests {
    static let password = "p@ss:w/rd%X! #"

    /// A role with that password that may create its schema; returns the URL without password.
    private func oddRole() throws -> (url: URLComponents, role: String) {
        let role = "odd_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(10)
        let base = try TestServer.freshURL()
        let created = try runProgram(URL(fileURLWithPath: ForeignTool.psql.path()), [base.components(separatedBy: "?").first! + "?sslmode=disable", "-v", "ON_ERROR_STOP=1", "-c",
            "CREATE ROLE \(role) LOGIN PASSWORD '\(Self.password)'; GRANT CREATE ON DATABASE postgres TO \(role);"])
        try #require(created.status == 0, "psql failed: \(created.error)")
        var url = URLComponents(string: base)!
        url.user = role
        url.password = nil
        return (url, String(role))
    }

    private func sync(_ url: String, environment extra: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        var environment = ProcessInfo.processInfo.environment
        environment["PGPASSWORD"] = nil
        environment["PGPASSFILE"] = folder.path("no-such-file")
        environment.merge(extra) { $1 }
        return try runProgram(signalstore, ["sync", "--once", "--postgres", url, "--db", replica.path], environment: environment)
    }

    @Test func percentEncodedInTheURL() throws {
        let (url, _) = try oddRole()
        let encoded = Self.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let text = url.string!.replacingOccurrences(of: "://\(url.user!)@", with: "://\(url.user!):\(encoded)@")
        let result = try sync(text)
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.output.contains("w/rd") && !result.error.contains("w/rd"))
    }

    @Test func fromPGPASSWORD() throws {
        let (url, _) = try oddRole()
        let result = try sync(url.string!, environment: ["PGPASSWORD": Self.password])
        #expect(result.status == 0, "\(result.error)")
    }

    @Test func fromAPasswordFileAndNotFromAnOpenOne() throws {
        let (url, role) = try oddRole()
        let folder = TemporaryDirectory()
        let file = folder.path("pgpass")
        let escaped = Self.password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
        try Data("*:*:*:\(role):\(escaped)\n".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let result = try sync(url.string!, environment: ["PGPASSFILE": file])
        #expect(result.status == 0, "\(result.error)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let refused = try sync(url.string!, environment: ["PGPASSFILE": file])
        #expect(refused.status != 0)
        #expect(refused.error.contains("chmod 600"), "\(refused.error)")
        #expect(!refused.error.contains("w/rd"))
    }
}

#endif

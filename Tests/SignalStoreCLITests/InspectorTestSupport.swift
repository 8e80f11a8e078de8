// Helpers of the inspector's tests: the built binary as a child process, and a plain HTTP/1.1
// client that sends what a browser or an attacker would.
#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStoreTestSupport
import Testing

/// A `signalstore inspect` child process and a plain HTTP/1.1 client for it.
final class RunningInspector {
    let database: String
    let child: ChildProcess
    let port: Int
    let token: String

    init(database: String, writes: Bool = false) throws {
        self.database = database
        child = try ChildProcess(signalstoreExecutable, ["inspect", "--db", database] + (writes ? ["--allow-writes"] : []))
        _ = child.output.wait(timeout: 20) { $0.contains("?token=") && $0.hasSuffix("\n") }
        let url = try #require(child.output.value.matches(#"(http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64})"#).first, "inspect printed no URL: \(child.error.value)")
        port = try #require(Int(url.matches(#":(\d+)/"#).first ?? ""))
        token = String(url.suffix(64))
    }

    func stop() {
        child.send(SIGINT)
        #expect(child.waitForExit(timeout: 10) == 0)
    }

    func get(_ path: String, cookie: Bool = true, host: String? = nil, headers: [String] = []) throws -> HTTPReply {
        try send("GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\(cookie ? "Cookie: signalstore_inspector_\(port)=\(token)\r\n" : "")\(headers.map { $0 + "\r\n" }.joined())Connection: close\r\n\r\n")
    }

    func post(_ path: String, form: String, headers: [String] = []) throws -> HTTPReply {
        try send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: signalstore_inspector_\(port)=\(token)\r\n\(headers.map { $0 + "\r\n" }.joined())Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n\(form)")
    }

    /// Reads the live event stream at `path` until `isEnough` holds for what arrived (at most
    /// 5 s), and returns it.
    func stream(_ path: String, lastEventID: Int64? = nil, until isEnough: (String) -> Bool) throws -> String {
        let resume = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: signalstore_inspector_\(port)=\(token)\r\n\(resume)\r\n"
        return try exchange(request, until: isEnough)
    }

    /// Writes `request` on a new connection and reads the reply to the end.
    private func send(_ request: String) throws -> HTTPReply {
        HTTPReply(try exchange(request) { _ in false })
    }

    /// A new connection to the inspector that has sent `request`; reads on it time out after
    /// `timeout` seconds without a byte.
    func connection(sending request: String, timeout seconds: Int) throws -> Int32 {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "cannot connect to the inspector on port \(port)")
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        #expect(bytes.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) } == bytes.count)
        return socket
    }

    /// `path` asked for `count` times at once: every request is sent, on a connection of its
    /// own, before any reply is read.
    func getAtOnce(_ path: String, count: Int) throws -> [HTTPReply] {
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: signalstore_inspector_\(port)=\(token)\r\nConnection: close\r\n\r\n"
        let sockets = try (0..<count).map { _ in try connection(sending: request, timeout: 10) }
        defer { sockets.forEach { close($0) } }
        return sockets.map { HTTPReply(reply(on: $0) { _ in false }) }
    }

    /// Writes `request` on a new connection and reads until the server closes it, `isEnough`
    /// holds, or 5 s pass without a byte.
    private func exchange(_ request: String, until isEnough: (String) -> Bool) throws -> String {
        let socket = try connection(sending: request, timeout: 5)
        defer { close(socket) }
        return reply(on: socket, until: isEnough)
    }

    /// Reads from `socket` until the server closes it, `isEnough` holds, or the socket's read
    /// timeout passes without a byte.
    private func reply(on socket: Int32, until isEnough: (String) -> Bool) -> String {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            reply += buffer[0..<count]
            if isEnough(String(decoding: reply, as: UTF8.self)) { break }
        }
        return String(decoding: reply, as: UTF8.self)
    }
}

/// A reply's status, headers and body.
struct HTTPReply {
    let status: Int
    let headers: [(String, String)]
    let body: String

    init(_ text: String) {
        let parts = text.components(separatedBy: "\r\n\r\n")
        let lines = parts[0].components(separatedBy: "\r\n")
        status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0 == name }?.1
    }
}

extension String {
    /// The first capture group of each match of `pattern`.
    func matches(_ pattern: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: self, range: NSRange(startIndex..., in: self)).compactMap { match in
            Range(match.range(at: 1), in: self).map { String(self[$0]) }
        }
    }
}
#endif

#if SIGNALSTORE_INSPECTOR
import ArgumentParser
import Foundation
import SignalStore

/// `signalstore inspect`: serves a live inspector of the database on this machine.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Serve a live web inspector of the database on 127.0.0.1, behind a random token.",
        discussion: """
            Prints a URL with a token; open it in a browser. Shows the tables (paged, sorted, \
            filtered; values as SQLite holds them, always as text), the change feed as it \
            commits from every writer, each row's history, the durable consumers with their \
            lag, and sync's state and conflicts when the file syncs. Read-only unless \
            --allow-writes, which adds revert (with a dry-run preview and a confirmation). \
            Listens on 127.0.0.1 only, unless --host names another address. Ctrl-C stops it.

            Examples:
              signalstore inspect --db app.sqlite
              signalstore inspect --port 8765 --open --db app.sqlite
              signalstore inspect --allow-writes --db app.sqlite
            """
    )

    @Option(name: .long, help: ArgumentHelp("The port to listen on (default: any free port).", valueName: "port"))
    var port: Int = 0

    @Option(name: .long, help: ArgumentHelp("The address to listen on. Anything but loopback lets other machines reach it (the token still guards it, over plain HTTP).", valueName: "address"))
    var host: String = "127.0.0.1"

    @Flag(name: .long, help: "Open the URL in the default browser.")
    var open = false

    @Flag(name: .long, help: "Offer revert from a row's history and the change feed.")
    var allowWrites = false

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 1 and 65535 (or 0 for any free port), e.g. --port 8765") }
        guard !host.isEmpty else { throw ValidationError("--host needs an address, e.g. --host 127.0.0.1") }
    }

    func run() throws {
        let context = CommandContext.current
        let store = try DatabaseOpener.open(options, access: allowWrites ? .readWrite : .readOnly)
        defer { store.close() }
        let inspector = Inspector(store: store, token: Inspector.newToken(), allowsWrites: allowWrites)
        let started = ServerStart()
        let host = host, open = open
        let application = InspectorServer.application(inspector, host: host, port: port) { port in started.bound(port) }
        let server = Task {
            do {
                try await application.run()
            } catch {
                started.failed("\(error)")
            }
            context.stop.fire()
        }
        defer { server.cancel() }
        switch started.wait(orUntil: context.stop) {
        case .failed(let error):
            throw CLIError("cannot serve on \(host):\(port): \(error); choose another --port, or 0 for any free one")
        case .stopped:
            return
        case .bound(let port):
            let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/?token=\(inspector.token)"
            context.console.print("SignalStore inspector for \(store.path) (\(allowWrites ? "writes allowed" : "read-only")):")
            context.console.print("  \(url)")
            context.console.printError("Ctrl-C stops it.")
            if open { Self.openInBrowser(url) }
        }
        context.stop.wait()
    }

    /// Asks the desktop to open `url` (xdg-open on Linux, open on macOS); a failure is only a note.
    private static func openInBrowser(_ url: String) {
        #if os(macOS)
        let opener = "/usr/bin/open"
        #else
        let opener = "/usr/bin/xdg-open"
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        do {
            try process.run()
        } catch {
            CommandContext.current.console.printError("note: could not open a browser (\(opener)); open the URL above yourself")
        }
    }
}

/// How starting the server went, handed from its task to the command's thread.
private final class ServerStart: Sendable {
    enum Outcome {
        case bound(Int)
        case failed(String)
        case stopped
    }

    private let outcome = LockedCondition<Outcome?>(nil)

    func bound(_ port: Int) {
        outcome.withLock { $0 = $0 ?? .bound(port) }
    }

    func failed(_ error: String) {
        outcome.withLock { $0 = $0 ?? .failed(error) }
    }

    /// Blocks until the server listens or fails, or `stop` fires.
    func wait(orUntil stop: StopRequest) -> Outcome {
        while true {
            let outcome = outcome.wait(until: { $0 != nil }, timeout: .milliseconds(100), then: { outcome, _ in outcome })
            if let outcome { return outcome }
            if stop.isFired { return .stopped }
        }
    }
}
#endif

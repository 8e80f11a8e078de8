import ArgumentParser
import Foundation
import SignalStore

/// `signalstore demo`: the whole idea in one run.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show SignalStore in under a minute: signals, write-through, transactions, another process, persistence, the feed.",
        discussion: """
            Creates a fresh database from --migrations in a temporary folder, binds three views to \
            an order, changes it in every way (including from a second signalstore process), \
            reopens the database, prints the change feed, and removes the folder unless --keep.

            Example:
              swift run signalstore demo
            """
    )

    /// Only `--migrations` is read; `--db` and `--json` are accepted and ignored (the demo
    /// makes its own database and talks to a person).
    @OptionGroup var options: GlobalOptions

    @Flag(name: .long, help: "Keep the demo database and print where it is.")
    var keep = false

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-demo-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create the demo folder \(display(folder.path)): \(error.localizedDescription); check TMPDIR")
        }
        let path = folder.appendingPathComponent("demo.sqlite").path
        defer {
            if !keep { try? FileManager.default.removeItem(at: folder) }
        }
        // The views are main-actor objects, as in an app. The executable runs commands on the
        // main thread, where the main actor runs until it starts a run loop or Dispatch's main.
        guard MainScheduler.isOnMainQueue else {
            throw CLIError("the demo's views need the main actor; run the demo from the signalstore executable (swift run signalstore demo)")
        }
        let directory = options.migrationFiles.migrationsDirectory
        try MainActor.assumeIsolated {
            try DemoScript(path: path, migrations: directory).run()
        }
        let console = CommandContext.current.console
        console.print(keep ? "\nDone. The database is at \(path)" : "\nDone. The demo database was removed (use --keep to keep it).")
    }
}

import Foundation
import SignalStore

/// The demo's steps, printed as they happen. It runs on the main actor, as an app's views do.
@MainActor
struct DemoScript {
    let path: String
    let migrations: URL
    private let console = CommandContext.current.console
    private let context = CommandContext.current

    init(path: String, migrations: URL) {
        self.path = path
        self.migrations = migrations
    }

    func run() throws {
        say("SignalStore demo: one order, three views, one database file.\n")
        let loaded = try CLIFailure.run { try Migration.load(from: migrations) }
        var store = try CLIFailure.run { try Store(path: path, migrations: loaded) }
        say("1. A fresh database at \(path), \(loaded.count) migrations from \(migrations.lastPathComponent)/.")
        let order = DemoOrder(id: 1, purchaseNum: 1, status: "new")
        try CLIFailure.run { try store.insert(order) }

        say("\n2. Three main-actor views bind to order 1; each shows the current value before binding returns:")
        var views: DemoViews? = DemoViews(order: order, console: console)

        say("\n3. order.purchaseNum = 3 writes through to SQLite and notifies before returning:")
        order.purchaseNum = 3
        say("   the database holds purchase_num = \(try column("purchase_num", of: store))")

        say("\n4. A transaction: two properties change, each view hears once, after COMMIT:")
        try CLIFailure.run {
            try store.transaction {
                order.purchaseNum = 4
                order.status = "paid"
            }
        }

        say("\n5. A transaction that fails rolls back: no view hears anything, the value reverts:")
        _ = try? store.transaction {
            order.purchaseNum = 99
            throw CLIError("the payment was declined")
        }
        say("   order.purchaseNum is \(order.purchaseNum) again; the database holds \(try column("purchase_num", of: store))")

        try changeFromAnotherProcess(views)

        say("\n7. Close and reopen the database: the state persisted.")
        views = nil
        store.close()
        store = try CLIFailure.run { try Store(path: path, migrations: loaded) }
        let reopened = try CLIFailure.run { try store.find(DemoOrder.self, id: Int64(1)) }
        say("   order 1: purchaseNum \(reopened?.purchaseNum ?? -1), status \(reopened?.status ?? "?")")

        say("\n8. The change feed recorded every committed change, from both processes:")
        let entries = try CLIFailure.run { try store.journalEntries(after: 0) }
        let columnOrder = try SchemaReader.table("orders", in: store).columns.map(\.name)
        let printer = Printer(json: false)
        var table = TextTable("SEQ", "TABLE", "ID", "OPERATION", "CHANGE")
        for change in entries {
            table.append(["\(change.seq)", change.table, "\(change.rowID)", change.operation.rawValue, ChangeFormat.detail(change, columnOrder: columnOrder)])
        }
        table.lines.forEach { printer.line("   " + $0) }
        store.close()
    }

    /// Step 6: `signalstore set` in a second process; the store's poller notices the commit and
    /// the views hear it on the main actor, through the main queue that the demo keeps running.
    private func changeFromAnotherProcess(_ views: DemoViews?) throws {
        guard let executable = context.executablePath, FileManager.default.isExecutableFile(atPath: executable) else {
            say("\n6. (Skipped: the signalstore executable was not found, so no second process can run.)")
            return
        }
        say("\n6. Another process runs `signalstore set orders 1 purchase_num=7`; the views hear it:")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["set", "orders", "1", "purchase_num=7", "--db", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw CLIError("cannot run \(display(executable)) for the demo's second process: \(error.localizedDescription)")
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError("the demo's second process failed: \(String(decoding: printed, as: UTF8.self))")
        }
        let deadline = Date().addingTimeInterval(10)
        while views?.allShow(count: 7) != true, Date() < deadline {
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
        guard views?.allShow(count: 7) == true else {
            throw CLIError("the views did not hear the other process's change within 10 s; is the file system shared and writable?")
        }
        say("   (the other process printed:)")
        String(decoding: printed, as: UTF8.self).split(separator: "\n").forEach { say("   | \($0)") }
    }

    private func column(_ name: String, of store: Store) throws -> String {
        try store.readForCLI { connection in
            let value = try connection.scalar("SELECT \(identifier: name) FROM orders WHERE id = 1") ?? .null
            return ValueFormat.human(value)
        }
    }

    private func say(_ line: String) {
        console.print(line)
    }
}

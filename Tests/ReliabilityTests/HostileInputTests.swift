import Foundation
@testable import SignalStore
@testable import SignalStoreCLI
import Testing

/// The CLI against generated malformed invocations and damaged files: a clear error, the right
/// exit status, no crash, and the database bytes unchanged.
@Suite(.ownThread) struct HostileInputTests {
    /// Strings no schema would contain: unicode, SQL, control characters, flags, huge.
    static func hostileString(_ random: inout SeededGenerator) -> String {
        let pieces = [
            "orders; DROP TABLE orders", "' OR 1=1 --", "\"orders\"", "orders\"--", "`x`", "[orders]", "ørdérs", "订单", "🧾📦",
            "\u{202E}sredro", "e\u{301}", "zero\u{200B}width", "tab\there", "new\nline", "nul\u{0}byte", "\u{1B}[31mred", "%s%n%x",
            "../../etc/passwd", "*", "?", "NULL", "-", "--", "-x", "--json=1", "x=y=z", " ", "", "\\", "$(rm -rf /)", "1e309",
        ]
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            return String(repeating: pieces.randomElement(using: &random)!, count: Int.random(in: 200...4_000, using: &random))
        case 1...3:
            let scalars = (0..<Int.random(in: 1...40, using: &random)).compactMap { _ in UnicodeScalar(UInt32.random(in: 1...0x2FFFF, using: &random)) }
            return String(String.UnicodeScalarView(scalars))
        default:
            return (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
    }

    /// One malformed invocation of the example database, and the statuses it may end with.
    static func invocation(_ random: inout SeededGenerator, db: String) -> (arguments: [String], statuses: Set<Int32>) {
        var hostile = hostileString(&random)
        let usageOrFailure: Set<Int32> = [1, 2]
        switch Int.random(in: 0..<7, using: &random) {
        case 0:
            // An unknown table in any command that takes one.
            let shapes: [[String]] = [["get", hostile], ["get", hostile, "1"], ["set", hostile, "1", "a=1"], ["insert", hostile, "a=1"], ["delete", hostile, "1"], ["watch", hostile], ["schema", hostile]]
            return (shapes.randomElement(using: &random)! + ["--db", db], usageOrFailure)
        case 1:
            // An unknown column.
            hostile = hostile.replacingOccurrences(of: "=", with: "")
            return (["set", "orders", "1", "\(hostile)=1", "--db", db], usageOrFailure)
        case 2:
            // A value that does not fit an INTEGER column with CHECK (purchase_num >= 0).
            if Int64(hostile).map({ $0 >= 0 }) ?? false { hostile = "x" + hostile }
            return (["set", "orders", "1", "purchase_num=\(hostile)", "--db", db], usageOrFailure)
        case 3:
            // An id that matches no row.
            if let id = Int64(hostile), id == 1 || id == 2 { hostile = "9\(id)" }
            let shapes: [[String]] = [["get", "orders", hostile], ["set", "orders", hostile, "status=x"], ["delete", "orders", hostile], ["watch", "orders", hostile]]
            return (shapes.randomElement(using: &random)! + ["--db", db], usageOrFailure)
        case 4:
            // An unknown flag.
            return (["get", "orders", "--" + hostile.filter { $0 != "=" } + "zz", "--db", db], [2])
        case 5:
            // An option with a value of the wrong kind.
            let option = ["--since", "--limit", "--timeout", "--through"].randomElement(using: &random)!
            let command = option == "--through" ? "prune" : (option == "--timeout" ? "get" : "changes")
            let value = Double(hostile) == nil ? hostile : "x" + hostile
            return ([command] + (command == "get" ? ["orders"] : []) + ["\(option)=\(value)", "--db", db], [2])
        default:
            // Not a command at all.
            let arguments = Bool.random(using: &random) ? [hostile + "zz", "--db", db] : [hostile + "zz"]
            return (arguments, [2])
        }
    }

    @Test func generatedMalformedInvocationsFailCleanly() throws {
        // Under a sanitizer each invocation starts a sanitized process (about 0.5 s of CPU, the
        // longest test of those runs at 300): 100 still take every branch of the generator
        // several times, and the plain run makes 1,000.
        let count = isHeavy ? 10_000 : (isSanitized ? 100 : 1_000)
        let directory = TemporaryDirectory()
        let db = try migratedExample(in: directory)
        let before = fileBytes(db)
        var random = SeededGenerator(seed: 1)
        var statuses: [Int32: Int] = [:]
        for index in 1...count {
            let (arguments, allowed) = Self.invocation(&random, db: db)
            let result = runCLI(arguments)
            statuses[result.status, default: 0] += 1
            let shown = arguments.map { String($0.prefix(60)) }
            #expect(allowed.contains(result.status), "invocation \(index) \(shown) exited \(result.status): \(result.error.prefix(300))")
            #expect(result.output.isEmpty, "invocation \(index) \(shown) printed to stdout")
            #expect(!result.error.isEmpty && result.error.count < 4_000, "invocation \(index) \(shown): stderr is empty or floods")
            if result.status == 1 {
                #expect(result.error.hasPrefix("error: ") && result.error.filter(\.isNewline).count == 1, "invocation \(index) \(shown): not one line")
            }
            if fileBytes(db) != before {
                Issue.record("invocation \(index) \(shown) changed the database")
                break
            }
        }
        print("hostile input: \(count) generated malformed invocations, exit statuses \(statuses.sorted { $0.key < $1.key }), database unchanged")
    }

    @Test func damagedDatabaseFilesFailCleanlyAndStayUnchanged() throws {
        let directory = TemporaryDirectory()
        let good = fileBytes(try migratedExample(in: directory))
        var random = SeededGenerator(seed: 2)
        let path = directory.path("damaged.sqlite")
        var tried = 0
        func check(_ bytes: Data, _ commands: [[String]], allowed: Set<Int32>, _ label: String) throws {
            for command in commands {
                try bytes.write(to: URL(fileURLWithPath: path))
                try? FileManager.default.removeItem(atPath: path + "-wal")
                try? FileManager.default.removeItem(atPath: path + "-shm")
                let result = runCLI(command + ["--db", path])
                tried += 1
                #expect(allowed.contains(result.status), "\(label) \(command): exit \(result.status) \(result.error)")
                if result.status != 0 {
                    #expect(result.error.hasPrefix("error: ") && result.error.filter(\.isNewline).count == 1, "\(label): \(result.error)")
                }
                #expect(fileBytes(path) == bytes, "\(label) \(command) changed the file")
            }
        }
        let read = ["get", "orders"], write = ["set", "orders", "1", "status=x"]
        for _ in 0..<30 {
            let length = Int.random(in: 0..<good.count, using: &random)
            try check(good.prefix(length), [read, write], allowed: [1], "truncated to \(length)")
        }
        for _ in 0..<20 {
            let bytes = Data((0..<Int.random(in: 0...65_536, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            try check(bytes, [read, write], allowed: [1], "random bytes")
        }
        for _ in 0..<10 {
            var bytes = good
            bytes[Int.random(in: 0..<16, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            try check(bytes, [read, write], allowed: [1], "wrong header")
        }
        for _ in 0..<20 {
            // Damage inside the pages: reads may fail or succeed, but never crash or write.
            var bytes = good
            for _ in 0..<8 { bytes[Int.random(in: 100..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            try check(bytes, [read, ["changes"], ["status"]], allowed: [0, 1], "damaged pages")
        }
        print("damaged databases: \(tried) invocations on truncated, random, wrong-header and damaged files; none crashed or changed the file")
    }

    /// Each damaged migration folder: `migrate` fails, names the file, and changes nothing.
    static let damagedMigrations: [(name: String, files: [String: Data], message: String)] = [
        ("syntax error", ["0003_broken.sql": Data("CREATE TABLE fine (id INTEGER PRIMARY KEY);\nCREATE TABLE (;\n".utf8)], "0003_broken.sql:2:"),
        ("edited after apply", ["0001_create_orders.sql": Data("CREATE TABLE orders (id INTEGER PRIMARY KEY);".utf8)], "0001_create_orders.sql"),
        ("missing", ["0001_create_orders.sql": Data()], "version 1 is missing"),
        ("duplicate number", ["0002_again.sql": Data("SELECT 1;".utf8)], "both have version 2"),
        ("not UTF-8", ["0003_binary.sql": Data([0x43, 0x52, 0xFF, 0xFE, 0x00, 0xC3])], "0003_binary.sql"),
    ]

    @Test(arguments: damagedMigrations.indices)
    func damagedMigrationsFailCleanlyAndChangeNothing(index: Int) throws {
        let damage = Self.damagedMigrations[index]
        let directory = TemporaryDirectory()
        let db = try migratedExample(in: directory)
        let folder = directory.url.appendingPathComponent("Migrations")
        try FileManager.default.copyItem(at: packageMigrations, to: folder)
        for (name, bytes) in damage.files {
            let file = folder.appendingPathComponent(name)
            if bytes.isEmpty { try FileManager.default.removeItem(at: file) } else { try bytes.write(to: file) }
        }
        let before = fileBytes(db)
        let result = runCLI(["migrate", "--db", db, "--migrations", folder.path])
        #expect(result.status == 1, "\(damage.name)")
        #expect(result.error.hasPrefix("error: migration failed: ") && result.error.contains(damage.message), "\(damage.name): \(result.error)")
        #expect(result.error.filter(\.isNewline).count == 1)
        #expect(fileBytes(db) == before, "\(damage.name) changed the database")
    }
}

/// The example database with two orders, made through the CLI.
func migratedExample(in directory: TemporaryDirectory) throws -> String {
    let path = directory.path("app.sqlite")
    #expect(runCLI(["migrate", "--db", path, "--migrations", packageMigrations.path]).status == 0)
    #expect(runCLI(["insert", "orders", "purchase_num=1", "status=new", "--db", path]).status == 0)
    #expect(runCLI(["insert", "orders", "purchase_num=2", "status=paid", "--db", path]).status == 0)
    return path
}

/// Runs the CLI in this process, recording what it prints.
func runCLI(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
    let output = CapturedText(), error = CapturedText()
    let context = CommandContext(console: Console(output: { output.append($0) }, error: { error.append($0) }), environment: [:])
    let status = SignalStoreTool.run(arguments, in: context)
    return (status, output.value, error.value)
}

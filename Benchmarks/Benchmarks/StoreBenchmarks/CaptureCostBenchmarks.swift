import Benchmark
import Foundation
import GRDBSQLite
import SignalStore

// What change capture adds to a plain write, measured in one transaction (so the numbers are
// SQLite's statement cost, not the disk's fsync): raw C statements on three copies of the same
// database: no triggers; the insert/update/delete triggers alone (the eviction staging removed,
// as capture was before rows evicted by REPLACE were journaled); full capture. `compare.py`
// reports µs per statement and the ratios.

/// How a database's triggers are set up.
enum CaptureVariant: String, CaseIterable {
    case none = "no triggers"
    case withoutEvictions = "journal without evictions"
    case full = "full capture"
}

let statementsPerTransaction = 1_000

func captureCostBenchmarks() {
    for variant in CaptureVariant.allCases {
        captureCostBenchmark("m insert 1000 in one transaction • \(variant.rawValue)", variant) { connection, counter in
            let id = counter.next()
            connection.run("INSERT INTO customers (id, name, email) VALUES (?, 'name', ?)", id, "c\(id)@example.com")
        }
        captureCostBenchmark("m update 1000 in one transaction • \(variant.rawValue)", variant) { connection, counter in
            let value = counter.next()
            connection.run(updateSQL, value, value % 100 + 1)
        }
    }
}

private func captureCostBenchmark(_ name: String, _ variant: CaptureVariant, _ statement: @escaping @Sendable (RawConnection, Counter) -> Void) {
    let database = BenchDatabase(captured: variant != .none)
    let connection = Holder<RawConnection>()
    let counter = Counter()
    Benchmark(
        name,
        closure: { benchmark in
            let connection = connection.value!
            benchmark.startMeasurement()
            connection.beginImmediate()
            for _ in 0..<statementsPerTransaction { statement(connection, counter) }
            connection.commit()
            benchmark.stopMeasurement()
        },
        setup: {
            database.create()
            connection.value = RawConnection(path: database.path)
            if variant == .withoutEvictions { removeEvictionStaging(connection.value!) }
        },
        teardown: {
            connection.value = nil
            database.remove()
        }
    )
}

/// Drops the eviction triggers and takes the staging statements out of the insert and delete
/// triggers, leaving capture as it was before evictions were journaled.
private func removeEvictionStaging(_ connection: RawConnection) {
    for (name, sql) in connection.triggers() {
        if [":stage-insert", ":evict-insert", ":stage-update", ":evict-update"].contains(where: { name.hasSuffix($0) }) {
            connection.execute("DROP TRIGGER \"\(name)\"")
        } else if sql.contains("_signalstore_evictions") {
            let statements = sql.components(separatedBy: "; ").filter { !$0.contains("_signalstore_evictions") }
            let header = sql.components(separatedBy: " BEGIN ")[0]
            let body = statements.map { $0.components(separatedBy: " BEGIN ").last! }.filter { $0 != "END" && !$0.isEmpty }
            connection.execute("DROP TRIGGER \"\(name)\"")
            connection.execute(header + " BEGIN " + body.map { $0 + "; " }.joined() + "END")
        }
    }
}

extension RawConnection {
    /// The store's capture triggers: name and SQL.
    func triggers() -> [(String, String)] {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(handle, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var result: [(String, String)] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            result.append((String(cString: sqlite3_column_text(statement, 0)), String(cString: sqlite3_column_text(statement, 1))))
        }
        return result
    }

    /// Runs `sql` with integer and text arguments through a statement cached by SQL.
    func run(_ sql: String, _ arguments: any Sendable...) {
        let statement = cachedStatement(sql)
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            switch argument {
            case let value as Int64: sqlite3_bind_int64(statement, index, value)
            case let value as String: sqlite3_bind_text(statement, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            default: preconditionFailure("unsupported argument \(argument)")
            }
        }
        let code = sqlite3_step(statement)
        precondition(code == SQLITE_DONE, String(cString: sqlite3_errmsg(handle)))
        sqlite3_reset(statement)
    }
}

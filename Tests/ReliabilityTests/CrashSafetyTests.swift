import Foundation
@testable import SignalStore
import Testing

/// A child process writes through models and acknowledges each write after it returns; the
/// parent kills it with SIGKILL at random moments. After every kill the database is sound, holds
/// every acknowledged write, and its change journal replays to exactly its tables.
@Suite(.ownThread) struct CrashSafetyTests {
    /// What the parent knows of an order: its acknowledged values, or deleted.
    enum OrderState: Equatable, CustomStringConvertible {
        case present(purchaseNum: Int64, status: String)

        var description: String {
            switch self {
            case .present(let purchaseNum, let status): return "(\(purchaseNum), \(status))"
            }
        }
    }

    /// One operation the child printed.
    enum Operation: Equatable {
        case set(id: Int64, purchaseNum: Int64, status: String)
        case delete(id: Int64)

        init?(_ words: ArraySlice<Substring>) {
            let words = Array(words)
            switch (words.first, words.count) {
            case ("set", 4):
                guard let id = Int64(words[1]), let purchaseNum = Int64(words[2]) else { return nil }
                self = .set(id: id, purchaseNum: purchaseNum, status: String(words[3]))
            case ("delete", 2):
                guard let id = Int64(words[1]) else { return nil }
                self = .delete(id: id)
            default:
                return nil
            }
        }

        func apply(to state: inout [Int64: OrderState]) {
            switch self {
            case .set(let id, let purchaseNum, let status): state[id] = .present(purchaseNum: purchaseNum, status: status)
            case .delete(let id): state[id] = nil
            }
        }
    }

    @Test func acknowledgedWritesSurviveSIGKILLAndTheJournalNeverDiverges() throws {
        let kills = isHeavy ? 1_000 : 100
        let directory = TemporaryDirectory()
        let path = directory.path("crash.sqlite")
        var acknowledged: [Int64: OrderState] = [:]
        var random = SeededGenerator(seed: 2026)
        var totalAcks = 0, inFlightCommitted = 0

        for kill in 1...kills {
            let child = try ChildProcess(reliabilityHelper, ["crash-writer", path, packageMigrations.path, "\(kill)"])
            // A random moment: every fifth kill while the process starts and opens the store,
            // the others while it writes (timed from its "ready", so a slow start under a
            // sanitizer does not turn every kill into a kill at startup).
            if kill % 5 == 0 {
                usleep(UInt32.random(in: 0...30_000, using: &random))
            } else {
                #expect(child.output.wait(timeout: 30) { $0.contains("ready") })
                usleep(UInt32.random(in: 0...25_000, using: &random))
            }
            child.send(SIGKILL)
            let status = try #require(child.waitForExit())
            #expect(status == 9 || status == 0, "the writer failed by itself: \(child.error.value)")

            var inFlight: Operation?
            for line in child.output.lines {
                let words = line.split(separator: " ")
                switch words.first {
                case "begin": inFlight = Operation(words.dropFirst())
                case "ack":
                    let operation = try #require(Operation(words.dropFirst()))
                    operation.apply(to: &acknowledged)
                    inFlight = nil
                    totalAcks += 1
                default: break
                }
            }
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let audit = try DatabaseAudit(path: path)
            #expect(try audit.integrity() == "ok", "after kill \(kill)")
            guard try audit.hasTable("orders") else {
                #expect(acknowledged.isEmpty)
                continue
            }
            let actual = try Self.orders(audit)
            if actual != acknowledged, let inFlight {
                // The write in flight may have committed before the kill, unacknowledged.
                var withInFlight = acknowledged
                inFlight.apply(to: &withInFlight)
                if actual == withInFlight {
                    acknowledged = withInFlight
                    inFlightCommitted += 1
                }
            }
            #expect(actual == acknowledged, "after kill \(kill): the table differs from the acknowledged writes")
            #expect(try audit.replayedRows(of: "orders") == audit.rows(of: "orders"), "after kill \(kill): the journal diverges from the table")
            if actual != acknowledged { break }
        }
        #expect(totalAcks > kills, "too few writes were acknowledged to mean anything")
        print("crash safety: \(kills) SIGKILLs, \(totalAcks) acknowledged writes, \(inFlightCommitted) unacknowledged writes committed, nothing lost")
    }

    private static func orders(_ audit: DatabaseAudit) throws -> [Int64: OrderState] {
        try audit.rows(of: "orders").mapValues { row in
            guard case .integer(let purchaseNum)? = row["purchase_num"], case .text(let status)? = row["status"] else {
                return .present(purchaseNum: -1, status: "?")
            }
            return .present(purchaseNum: purchaseNum, status: status)
        }
    }
}

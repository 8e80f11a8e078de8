import Foundation
import PropertyBased
@testable import SignalStore
import Testing

/// Random sequences of operations run against the store and against a plain in-memory
/// reference; after every step the live objects, the database and a replay of the change feed
/// all agree with the reference.
@Suite struct ModelBasedTests {
    /// One order as the reference holds it.
    struct Values: Equatable, CustomStringConvertible {
        var purchaseNum: Int
        var status: String
        var note: String?

        var description: String { "(\(purchaseNum), \(status), \(note ?? "nil"))" }
    }

    /// An operation, decoded from a generated integer so the library can shrink sequences.
    enum Step: Equatable, CustomStringConvertible {
        case insert(id: Int64, purchaseNum: Int)
        case setPurchaseNum(id: Int64, Int)
        case setStatus(id: Int64, String)
        case setNote(id: Int64, String?)
        case delete(id: Int64)
        case transaction(id: Int64, Int, other: Int64, String)
        case rollback(id: Int64, Int)
        case reopen
        case externalUpdate(id: Int64, Int)
        case externalDelete(id: Int64)

        init(_ code: Int) {
            let id = Int64(code / 11 % 4 + 1)
            let value = code / 44 % 60
            switch code % 11 {
            case 0: self = .insert(id: id, purchaseNum: value)
            case 1: self = .setPurchaseNum(id: id, value)
            case 2: self = .setStatus(id: id, "s\(value)")
            case 3: self = .setNote(id: id, value.isMultiple(of: 3) ? nil : "n\(value)")
            case 4: self = .delete(id: id)
            case 5: self = .transaction(id: id, value, other: id % 4 + 1, "t\(value)")
            case 6: self = .rollback(id: id, value)
            case 7: self = .reopen
            case 8: self = .externalUpdate(id: id, value)
            case 9: self = .externalDelete(id: id)
            default: self = .insert(id: id, purchaseNum: value + 1)
            }
        }

        var description: String {
            switch self {
            case .insert(let id, let purchaseNum): return "insert(\(id), \(purchaseNum))"
            case .setPurchaseNum(let id, let value): return "set(\(id).purchaseNum = \(value))"
            case .setStatus(let id, let value): return "set(\(id).status = \(value))"
            case .setNote(let id, let value): return "set(\(id).note = \(value ?? "nil"))"
            case .delete(let id): return "delete(\(id))"
            case .transaction(let id, let value, let other, let status): return "transaction(\(id).purchaseNum = \(value), \(other).status = \(status))"
            case .rollback(let id, let value): return "rollback(\(id).purchaseNum = \(value))"
            case .reopen: return "reopen"
            case .externalUpdate(let id, let value): return "external(\(id).purchaseNum = \(value))"
            case .externalDelete(let id): return "external(delete \(id))"
            }
        }
    }

    struct Abort: Error {}

    /// The system under test and its reference.
    final class Harness {
        let directory = TemporaryDirectory()
        let path: String
        var store: Store
        var objects: [Int64: Order] = [:]
        var lastSignalled: [Int64: Locked<Int?>] = [:]
        var subscriptions: [any Disposable] = []
        var reference: [Int64: Values] = [:]

        init() throws {
            path = directory.path("model.sqlite")
            store = try Store(path: path, migrations: packageMigrations)
        }

        deinit {
            subscriptions.forEach { $0.dispose() }
            store.close()
        }

        func run(_ step: Step) async throws {
            switch step {
            case .insert(let id, let purchaseNum):
                let order = Order(id: id, purchaseNum: purchaseNum, status: "new")
                do {
                    try store.insert(order)
                    #expect(reference[id] == nil, "inserting an existing id succeeded")
                    reference[id] = Values(purchaseNum: purchaseNum, status: "new", note: nil)
                    track(order)
                } catch {
                    #expect(reference[id] != nil, "insert failed: \(error)")
                }
            case .setPurchaseNum(let id, let value):
                guard let order = objects[id] else { return }
                order.purchaseNum = value
                reference[id]?.purchaseNum = value
            case .setStatus(let id, let value):
                guard let order = objects[id] else { return }
                order.status = value
                reference[id]?.status = value
            case .setNote(let id, let value):
                guard let order = objects[id] else { return }
                order.note = value
                reference[id]?.note = value
            case .delete(let id):
                guard let order = objects[id] else { return }
                try store.delete(order)
                objects[id] = nil
                reference[id] = nil
            case .transaction(let id, let value, let other, let status):
                try store.transaction {
                    objects[id]?.purchaseNum = value
                    objects[other]?.status = status
                }
                if objects[id] != nil { reference[id]?.purchaseNum = value }
                if objects[other] != nil { reference[other]?.status = status }
            case .rollback(let id, let value):
                _ = try? store.transaction {
                    objects[id]?.purchaseNum = value + 1_000
                    throw Abort()
                }
            case .reopen:
                subscriptions.forEach { $0.dispose() }
                subscriptions = []
                objects = [:]
                lastSignalled = [:]
                store.close()
                store = try Store(path: path, migrations: packageMigrations)
                for order in try store.all(Order.self) { track(order) }
            case .externalUpdate(let id, let value):
                let connection = try Connection(path: path)
                try connection.statement("UPDATE orders SET purchase_num = ? WHERE id = ?").run([.integer(Int64(value)), .integer(id)])
                await store.settle()
                if reference[id] != nil { reference[id]?.purchaseNum = value }
            case .externalDelete(let id):
                let connection = try Connection(path: path)
                try connection.statement("DELETE FROM orders WHERE id = ?").run([.integer(id)])
                await store.settle()
                reference[id] = nil
                objects[id] = nil
            }
        }

        /// Keeps `order` alive and records what its purchaseNum signal last said.
        private func track(_ order: Order) {
            objects[order.id] = order
            let last = Locked<Int?>(nil)
            lastSignalled[order.id] = last
            subscriptions.append(order.signal(for: \.purchaseNum).subscribe(onValue: { value in last.withLock { $0 = value } }))
        }

        /// Objects, signals, database and feed replay against the reference.
        func check(after steps: ArraySlice<Step>) throws {
            let context = "after \(steps.map(\.description).joined(separator: ", "))"
            #expect(Set(objects.keys) == Set(reference.keys), "live objects differ \(context)")
            for (id, expected) in reference {
                guard let order = objects[id] else { continue }
                #expect(Values(purchaseNum: order.purchaseNum, status: order.status, note: order.note) == expected, "object \(id) \(context)")
                #expect(lastSignalled[id]?.withLock { $0 } == expected.purchaseNum, "signal of \(id) \(context)")
            }
            let audit = try DatabaseAudit(path: path)
            let rows = try audit.rows(of: "orders")
            let stored = rows.mapValues { row -> Values in
                var note: String?
                if case .text(let text)? = row["note"] { note = text }
                guard case .integer(let purchaseNum)? = row["purchase_num"], case .text(let status)? = row["status"] else {
                    return Values(purchaseNum: -1, status: "?", note: note)
                }
                return Values(purchaseNum: Int(purchaseNum), status: status, note: note)
            }
            #expect(stored == reference, "database \(context)")
            #expect(try audit.replayedRows(of: "orders") == rows, "feed replay \(context)")
        }
    }

    /// Runs `steps` from a fresh database, checking after each.
    static func check(_ steps: [Step]) async throws {
        let harness = try Harness()
        for index in steps.indices {
            try await harness.run(steps[index])
            try harness.check(after: steps[...index])
        }
    }

    @Test func randomSequencesKeepObjectsDatabaseAndFeedInAgreement() async {
        await propertyCheck(count: isHeavy ? 1_000 : 60, input: Gen.int(in: 0...100_000).array(of: 1...30)) { codes in
            try await Self.check(codes.map(Step.init))
        }
    }

    /// Sequences worth keeping: the edges the random search is least likely to hit together.
    static let regressions: [[Step]] = [
        [.insert(id: 1, purchaseNum: 1), .externalDelete(id: 1), .insert(id: 1, purchaseNum: 2), .setPurchaseNum(id: 1, 3)],
        [.insert(id: 1, purchaseNum: 1), .rollback(id: 1, 5), .reopen, .setPurchaseNum(id: 1, 1), .externalUpdate(id: 1, 9)],
        [.insert(id: 2, purchaseNum: 0), .insert(id: 2, purchaseNum: 4), .transaction(id: 2, 7, other: 3, "x"), .delete(id: 2), .reopen],
        [.insert(id: 1, purchaseNum: 1), .setNote(id: 1, "a"), .setNote(id: 1, nil), .externalUpdate(id: 1, 1), .delete(id: 1), .insert(id: 1, purchaseNum: 1)],
    ]

    @Test(arguments: regressions.indices)
    func regressionSequences(index: Int) async throws {
        try await Self.check(Self.regressions[index])
    }
}

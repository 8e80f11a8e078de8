import Dispatch
import Foundation
import Observation
import Signals
@testable import SignalStore
import SignalStoreTestSupport
import Testing

/// A model marked `@MainActor` in a module without default isolation (as most libraries are).
@MainActor @Model(table: "customers")
final class MainActorCustomer {
    var id: Int64
    var name: String
    var email: String?

    init(id: Int64, name: String, email: String? = nil) {
        self.id = id
        self.name = name
        self.email = email
    }
}

@Suite(.ownThread) struct MainActorModelTests {
    @Test func theModelKnowsItIsMainActorIsolated() {
        #expect(MainActorCustomer._$isolation.isMainActor)
        #expect(!Order._$isolation.isMainActor)
    }

    /// The store loads, files and updates the object off the main actor; Observation hears of it
    /// on the main actor; a filter made there is used from any thread.
    @MainActor @Test func theStoreServesItFromAnyThreadAndObservationRunsOnTheMainActor() async throws {
        let directory = TemporaryDirectory()
        let store = try Store(path: directory.path("main.sqlite"), migrations: packageMigrationList)
        let customer = MainActorCustomer(id: 1, name: "Ann")
        try store.insert(customer)
        // A key path of a main-actor property is formed on the main actor; the filter is a value
        // any thread can use.
        let named: ModelFilter<MainActorCustomer> = \.name == "Ann"
        let found = try await Task.detached {
            try store.all(MainActorCustomer.self, where: named)
        }.value
        #expect(found.count == 1 && found[0] === customer)
        let onMain = Locked<[Bool]>([])
        withObservationTracking { _ = customer.name } onChange: {
            let isMain = MainScheduler.isOnMainQueue
            onMain.withLock { $0.append(isMain) }
        }
        try await Task.detached { _ = try store.execute("UPDATE customers SET name = 'Bea' WHERE id = 1") }.value
        #expect(await eventuallyOnMain { customer.name == "Bea" && !onMain.withLock { $0.isEmpty } })
        #expect(onMain.withLock { $0 } == [true])
        store.close()
    }
}

/// Lets the main actor run until `condition` holds (at most 60 s: a sleeping task resumes through
/// the shared thread pool, which other tests' synchronous work can hold for seconds).
@MainActor private func eventuallyOnMain(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition(), ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

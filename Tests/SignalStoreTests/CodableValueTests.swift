import Foundation
import SignalsTesting
import Testing
@testable import SignalStore

/// A reading kept as JSON text: `Codable`, stored through `SQLiteValueConvertible`.
struct SensorReading: Codable, Equatable, SQLiteValueConvertible {
    var celsius: Double
}

@Model(table: "sensors")
final class Sensor {
    var id: Int64
    var last: SensorReading
    var previous: SensorReading?

    init(id: Int64, last: SensorReading, previous: SensorReading? = nil) {
        self.id = id
        self.last = last
        self.previous = previous
    }
}

/// Issue 33, item 6: a `Codable` value its JSON encoder refuses was stored as NULL, silently
/// (a NOT NULL column refused it with a message about NULL; a nullable one lost the value).
@Suite("Codable values")
struct CodableValueTests {
    private func openStore() throws -> Store {
        try Store.inMemory(migrations: [Migration(version: 1, name: "sensors", sql: "CREATE TABLE sensors (id INTEGER PRIMARY KEY, last TEXT NOT NULL, previous TEXT)")])
    }

    @Test func anUnencodableValueIsAnErrorAndNothingIsWritten() throws {
        let store = try openStore()
        defer { store.close() }
        #expect {
            try store.insert(Sensor(id: 1, last: SensorReading(celsius: .nan)))
        } throws: { error in
            guard case StoreError.invalidArgument(let message) = error else { return false }
            return message.hasPrefix("cannot store Sensor.last: SensorReading is stored as JSON and its encoder failed")
                && message.contains("nothing was written")
        }
        #expect(try store.all(Sensor.self).isEmpty)
        #expect(try store.lastChangeSeq == 0)

        let sensor = Sensor(id: 2, last: SensorReading(celsius: 20))
        try store.insert(sensor)
        let errors = store.errors.record()
        let values = sensor.signal(for: \.last).record()
        sensor.last = SensorReading(celsius: .infinity)
        #expect(sensor.last == SensorReading(celsius: 20), "the object keeps the value the database holds")
        #expect(values.values == [SensorReading(celsius: 20)])
        #expect(errors.values.count == 1 && errors.values.first?.description.contains("cannot store Sensor.last") == true)
        #expect(try store.readConnection { try $0.scalar("SELECT last FROM sensors WHERE id = 2") } == .text(#"{"celsius":20}"#))
        // An object not in a store refuses it too, keeping its value (there is no store to tell).
        let loose = Sensor(id: 3, last: SensorReading(celsius: 1))
        loose.previous = SensorReading(celsius: -.infinity)
        #expect(loose.previous == nil)
        sensor.previous = nil   // a nil is NULL, not a failure
        sensor.last = SensorReading(celsius: 21.5)
        #expect(try store.readConnection { try $0.scalar("SELECT last FROM sensors WHERE id = 2") } == .text(#"{"celsius":21.5}"#))
        #expect(errors.values.count == 1)
    }
}

import Testing

/// Every misuse of `@Model` is a compiler error with an ID and a message that says what to do.
@Suite("@Model diagnostics")
struct ModelDiagnosticsTests {
    private func ids(_ source: String) -> [String] {
        diagnostics(of: source).map(\.id)
    }

    @Test func aStructIsRejected() {
        let found = diagnostics(of: """
            @Model(table: "t")
            struct Point { var id: Int64 }
            """)
        #expect(found.map(\.id) == ["notAClass"])
        #expect(found.first?.message.contains("final class") == true)
    }

    @Test func aNonFinalClassIsRejected() {
        #expect(ids("""
            @Model(table: "t")
            class Point { var id: Int64 }
            """) == ["notFinal"])
    }

    @Test func aLetWithoutDefaultIsRejected() {
        let found = diagnostics(of: """
            @Model(table: "t")
            final class Point {
                var id: Int64
                let x: Int
            }
            """)
        #expect(found.map(\.id) == ["letWithoutDefault"])
        #expect(found.first?.message.contains("'x'") == true)
    }

    @Test func aLetWithDefaultIsAllowedAndNotPersisted() {
        #expect(ids("""
            @Model(table: "t")
            final class Point {
                var id: Int64
                let kind = "point"
            }
            """).isEmpty)
    }

    @Test func aMissingPrimaryKeyIsRejected() {
        #expect(ids("""
            @Model(table: "t")
            final class Point { var x: Int }
            """) == ["noPrimaryKey"])
    }

    @Test func aMarkedPrimaryKeyReplacesID() {
        #expect(ids("""
            @Model(table: "t")
            final class Point {
                @PrimaryKey var code: String
            }
            """).isEmpty)
    }

    @Test func twoPrimaryKeysAreRejected() {
        #expect(ids("""
            @Model(table: "t")
            final class Point {
                @PrimaryKey var a: Int64
                @PrimaryKey var b: Int64
            }
            """) == ["severalPrimaryKeys"])
    }

    @Test("unsupported property types are rejected", arguments: ["(Int, Int)", "() -> Void", "any Error", "Int!", "Int.Type"])
    func unsupportedTypes(type: String) {
        let found = diagnostics(of: """
            @Model(table: "t")
            final class Point {
                var id: Int64
                var bad: \(type)
            }
            """)
        #expect(found.map(\.id) == ["unsupportedType"])
        #expect(found.first?.message.contains("'bad'") == true)
    }

    @Test func aPersistedPropertyWithoutATypeIsRejected() {
        #expect(ids("""
            @Model(table: "t")
            final class Point {
                var id: Int64
                var x = 3
            }
            """) == ["missingType"])
    }

    @Test func duplicateColumnsAreRejected() {
        let found = diagnostics(of: """
            @Model(table: "t")
            final class Point {
                var id: Int64
                var purchaseNum: Int
                @Column("purchase_num") var other: Int
            }
            """)
        #expect(found.map(\.id) == ["duplicateColumn"])
        #expect(found.first?.message.contains("'purchaseNum' and 'other'") == true)
    }

    @Test func aTransientWithoutDefaultIsRejected() {
        #expect(ids("""
            @Model(table: "t")
            final class Point {
                var id: Int64
                @Transient var selected: Bool
            }
            """) == ["transientWithoutDefault"])
    }

    @Test func severalBindingsInOneDeclarationAreRejected() {
        #expect(ids("""
            @Model(table: "t")
            final class Point {
                var id: Int64
                var x: Int, y: Int
            }
            """) == ["severalBindings"])
    }

    /// An observer on a property was skipped in silence: the property was then neither
    /// persisted nor observable, and its value was lost at the next launch.
    @Test func observersAreRejectedAndSayWhatToUseInstead() {
        let found = diagnostics(of: """
            @Model(table: "t")
            final class Point {
                var id: Int64
                var x: Int { didSet { print(x) } }
                @Transient var selected = false { willSet { print(newValue) } }
                var doubled: Int { x * 2 }
            }
            """)
        #expect(found.map(\.id) == ["observerOnProperty", "observerOnProperty"])
        #expect(found.first?.message.contains("'didSet' of 'x'") == true)
        #expect(found.first?.message.contains("signal(for:") == true)
        #expect(found.last?.message.contains("'willSet' of 'selected'") == true)
    }

    @Test func propertyNamesBecomeSnakeCaseColumns() {
        let found = diagnostics(of: """
            @Model(table: "t")
            final class Point {
                var id: Int64
                var customerID: Int
                @Column("customer_id") var other: Int
            }
            """)
        #expect(found.map(\.id) == ["duplicateColumn"], "customerID maps to customer_id")
    }

    @Test func relationshipMisuseIsExplained() {
        let found = diagnostics(of: #"""
            @Model(table: "orders")
            final class Order {
                var id: Int64
                var customerID: Int64?
                @Transient var draftID: Int64? = nil
                @Parent(\Order.customerID) var required: Customer
                @Parent(\.customerID) var rootless: Customer?
                @Parent(\Line.orderID) var elsewhere: Customer?
                @Parent(\Order.draftID) var transient: Customer?
                @Parent(\Order.customerID) let constant: Customer?
                @Parent(\Order.customerID) var valued: Customer? = nil
                @Children(\Line.orderID) var lines: [Line]
                @Children(\Line.orderID) var mismatched: LiveResults<Note>
                @Parent(\Order.customerID) var customer: Customer?
                @Children(\Line.orderID) var fine: LiveResults<Line>
            }
            """#)
        #expect(found.map(\.id) == [
            "parentNotOptional", "relationshipNeedsKeyPath", "parentKeyElsewhere", "relationshipNotVar",
            "relationshipWithValue", "childrenNotLiveResults", "childrenNotLiveResults", "parentKeyNotPersisted",
        ])
        #expect(found.first?.message.contains("'required'") == true)
        #expect(found.last?.message.contains("'transient' names 'draftID'") == true)
    }
}

import Testing

/// What `@Model` and its property macros generate, exactly.
@Suite("@Model expansion")
struct ModelExpansionTests {
    /// The members that implement `PersistentModel`; a public or package model needs them at
    /// its own access level to be usable from another module.
    static let witnesses = [
        "nonisolated let _$model", "nonisolated static let _$table", "nonisolated static let _$columns",
        "nonisolated static let _$relationships", "nonisolated static let _$isolation", "nonisolated init(_$row", "nonisolated func _$values()",
        "nonisolated func _$value(column", "nonisolated func _$apply(column", "nonisolated func _$transientSignal(at",
    ]

    @Test(arguments: ["public", "package"])
    func aModelsWitnessesFollowItsAccessLevel(access: String) {
        let expanded = expandedText(of: """
            @Model(table: "points")
            \(access) final class Point {
                \(access) var id: Int64
            }
            """)
        for witness in Self.witnesses {
            #expect(expanded.contains("\(access) \(witness)"), "\(witness) is not \(access)")
        }
        #expect(expanded.contains("\n    nonisolated let _$observationRegistrar"), "the registrar is an implementation detail and stays internal")
        #expect(expanded.contains("\n    static func _$keyPaths()") && expanded.contains("\n    static func _$willChange("),
                "the functions that carry the class's isolation stay internal and are not nonisolated")
    }

    @Test func modelMembersAndConformance() {
        expectExpansion(
            #"""
            @Model(table: "points")
            final class Point {
                var id: Int64
                @Column("x_pos") var x: Double
                @Transient var isSelected = false
            }
            """#,
            #"""
            final class Point {
                @SignalStore._Persisted(column: 0)
                var id: Int64
                @SignalStore._Persisted(column: 1) var x: Double
                @SignalStore._Transient var isSelected = false

                nonisolated let _$model = SignalStore.ModelState()

                nonisolated let _$observationRegistrar = SignalStore.ObservationRegistrar()

                nonisolated static let _$table: Swift.String = "points"

                nonisolated static let _$columns: [SignalStore.ModelColumn<Point>] = [
                    SignalStore.ModelColumn<Point>(name: "id", property: "id", valueType: (Int64).self, isPrimaryKey: true),
                    SignalStore.ModelColumn<Point>(name: "x_pos", property: "x", valueType: (Double).self, isPrimaryKey: false)
                ]

                nonisolated static let _$relationships: [SignalStore.ModelRelationship] = []

                nonisolated static let _$isolation = SignalStore.ModelIsolation<Point>(
                    isolation: Point._$keyPaths,
                    keyPaths: Point._$keyPaths,
                    willChange: Point._$willChange
                )

                static func _$keyPaths() -> [Swift.AnyKeyPath] {
                    [\Point.id, \Point.x, \Point.isSelected]
                }

                static func _$willChange(_ model: Point, column index: Swift.Int) {
                    switch index {
                    case 0:
                        model._$observationRegistrar.withMutation(of: model, keyPath: \.id) {
                        }
                    case 1:
                        model._$observationRegistrar.withMutation(of: model, keyPath: \.x) {
                        }
                    default:
                        break
                    }
                }

                nonisolated init(_$row row: SignalStore.ModelRow) throws {
                    _$id = try row.value(at: 0, as: (Int64).self, column: Self._$columns[0], table: Self._$table)
                    _$x = try row.value(at: 1, as: (Double).self, column: Self._$columns[1], table: Self._$table)
                }

                nonisolated func _$values() throws -> [SignalStore.SQLiteValue] {
                    try _$model.withLock {
                        [try SignalStore.ModelRuntime.storable(_$id, column: 0, of: Self.self), try SignalStore.ModelRuntime.storable(_$x, column: 1, of: Self.self)]
                    }
                }

                nonisolated func _$value(column index: Swift.Int) -> SignalStore.SQLiteValue {
                    _$model.withLock {
                        switch index {
                        case 0:
                            return SignalStore.ModelRuntime.sqliteValue(of: _$id)
                        case 1:
                            return SignalStore.ModelRuntime.sqliteValue(of: _$x)
                        default:
                            return .null
                        }
                    }
                }

                nonisolated func _$apply(column index: Swift.Int, value: SignalStore.SQLiteValue) -> Swift.Bool {
                    _$model.withLock {
                        switch index {
                        case 0:
                            return SignalStore.ModelRuntime.assign(value, to: &_$id)
                        case 1:
                            return SignalStore.ModelRuntime.assign(value, to: &_$x)
                        default:
                            return false
                        }
                    }
                }

                nonisolated func _$transientSignal(at index: Swift.Int) -> Any? {
                    switch index {
                    case 0:
                        return _$isSelected.signal
                    default:
                        return nil
                    }
                }
            }

            // @unchecked Sendable: every stored value is read and written under `_$model`'s lock
            // (persisted ones) or lives in a thread-safe `TransientStorage` (transient ones).
            extension Point: nonisolated SignalStore.PersistentModel, nonisolated SignalStore.Observable, @unchecked Swift.Sendable {
            }
            """#
        )
    }

    @Test func relationshipsBecomeAccessorsAndAreListedForTheSchemaCheck() {
        let expanded = expandedText(of: #"""
            @Model(table: "orders")
            final class Order {
                var id: Int64
                @Column("customer_id") var customerID: Int64?
                @Parent(\Order.customerID) var customer: Customer?
                @Children(\Line.orderID, orderBy: .ascending(\Line.id)) var lines: LiveResults<Line>
            }
            """#)
        #expect(expanded.contains(#"""
                    SignalStore.ModelRelationship(property: "customer", kind: .parent, keyProperty: "customerID", related: Customer.self),
                    SignalStore.ModelRelationship(property: "lines", kind: .children, keyProperty: "orderID", related: Line.self)
            """#))
        #expect(expanded.contains(#"[\Order.id, \Order.customerID, \Order.customer, \Order.lines]"#), "relationships come last among the key paths")
        #expect(expanded.contains(#"SignalStore.ModelRelationships.parent(of: self, through: \Order.customerID, property: "customer")"#))
        #expect(expanded.contains(#"SignalStore.ModelRelationships.setParent(of: self, through: \Order.customerID, property: "customer", to: newValue)"#))
        #expect(expanded.contains(#"SignalStore.ModelRelationships.children(of: self, through: \Line.orderID, orderBy: [.ascending(\Line.id)], property: "lines")"#))
        #expect(!expanded.contains("_Persisted(column: 2)"), "a relationship is not a column")
    }

    @Test func persistedPropertyAccessorsAndStorage() {
        expectExpansion(
            """
            final class Point {
                @_Persisted(column: 1) var x: Double
            }
            """,
            #"""
            final class Point {
                var x: Double {
                    @storageRestrictions(initializes: _$x)
                    init(initialValue) {
                        _$x = initialValue
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.x)
                        return _$model.withLock {
                            _$model.visible(column: 1, committed: _$x)
                        }
                    }
                    set {
                        SignalStore.ModelRuntime.set(self, column: 1, to: newValue)
                    }
                }

                // nonisolated(unsafe), @exclusivity(unchecked): read and written only under `_$model`'s
                // lock, from any thread, so the lock also keeps accesses from overlapping.
                @exclusivity(unchecked) nonisolated(unsafe) private var _$x: Double
            }
            """#
        )
    }

    @Test func transientPropertyAccessorsAndStorage() {
        expectExpansion(
            """
            final class Point {
                @_Transient var isSelected = false
            }
            """,
            #"""
            final class Point {
                var isSelected {
                    @storageRestrictions(initializes: _$isSelected)
                    init(initialValue) {
                        _$isSelected = SignalStore.TransientStorage(initialValue)
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.isSelected)
                        return _$isSelected.value
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.isSelected) {
                            _$isSelected.value = newValue
                        }
                    }
                }

                nonisolated private let _$isSelected: SignalStore.TransientStorage<Swift.Bool>
            }
            """#
        )
    }
}

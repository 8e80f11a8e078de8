import Testing

/// What `@Model` and its property macros generate, exactly.
@Suite("@Model expansion")
struct ModelExpansionTests {
    /// The members that implement `PersistentModel`; a public or package model needs them at
    /// its own access level to be usable from another module.
    static let witnesses = [
        "let _$model", "static let _$table", "static let _$columns", "init(_$row", "func _$values()",
        "func _$value(column", "func _$apply(column", "func _$willChange(column", "func _$transientSignal(for",
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
        #expect(expanded.contains("\n    let _$observationRegistrar"), "the registrar is an implementation detail and stays internal")
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

                let _$model = SignalStore.ModelState()

                let _$observationRegistrar = SignalStore.ObservationRegistrar()

                static let _$table: Swift.String = "points"

                static let _$columns: [SignalStore.ModelColumn<Point>] = [
                    SignalStore.ModelColumn<Point>(name: "id", property: "id", keyPath: \Point.id, valueType: (Int64).self, isPrimaryKey: true),
                    SignalStore.ModelColumn<Point>(name: "x_pos", property: "x", keyPath: \Point.x, valueType: (Double).self, isPrimaryKey: false)
                ]

                init(_$row row: SignalStore.ModelRow) throws {
                    _$id = try row.value(at: 0, as: (Int64).self, column: Self._$columns[0], table: Self._$table)
                    _$x = try row.value(at: 1, as: (Double).self, column: Self._$columns[1], table: Self._$table)
                }

                func _$values() -> [SignalStore.SQLiteValue] {
                    _$model.withLock {
                        [_$id.sqliteValue, _$x.sqliteValue]
                    }
                }

                func _$value(column index: Swift.Int) -> SignalStore.SQLiteValue {
                    _$model.withLock {
                        switch index {
                        case 0:
                            return _$id.sqliteValue
                        case 1:
                            return _$x.sqliteValue
                        default:
                            return .null
                        }
                    }
                }

                func _$apply(column index: Swift.Int, value: SignalStore.SQLiteValue) -> Swift.Bool {
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

                func _$willChange(column index: Swift.Int) {
                    switch index {
                    case 0:
                        _$observationRegistrar.withMutation(of: self, keyPath: \.id) {
                        }
                    case 1:
                        _$observationRegistrar.withMutation(of: self, keyPath: \.x) {
                        }
                    default:
                        break
                    }
                }

                func _$transientSignal(for keyPath: Swift.AnyKeyPath) -> Any? {
                    if keyPath == \Point.isSelected as Swift.AnyKeyPath {
                        return _$isSelected.signal
                    }
                    return nil
                }
            }

            // @unchecked Sendable: every stored value is read and written under `_$model`'s lock
            // (persisted ones) or lives in a thread-safe `TransientStorage` (transient ones).
            extension Point: SignalStore.PersistentModel, SignalStore.Observable, @unchecked Swift.Sendable {
            }
            """#
        )
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

                private var _$x: Double
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

                private let _$isSelected: SignalStore.TransientStorage<Swift.Bool>
            }
            """#
        )
    }
}

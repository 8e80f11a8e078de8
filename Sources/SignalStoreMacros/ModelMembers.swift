import SwiftSyntax

/// The members `@Model` adds to a class.
struct ModelMembers {
    let model: ModelAnalysis
    let table: String

    var declarations: [DeclSyntax] {
        [runtimeState, registrar, tableDeclaration, columnsDeclaration, relationshipsDeclaration, isolationDeclaration, keyPathsFunction, willChangeFunction, rowInitializer, valuesFunction, valueFunction, applyFunction, transientSignalFunction]
    }

    private var type: String { model.typeName }
    /// The access modifier of the members that implement `PersistentModel`.
    private var access: String { model.witnessAccess }

    private var runtimeState: DeclSyntax {
        "\(raw: access)nonisolated let _$model = SignalStore.ModelState()"
    }

    private var registrar: DeclSyntax {
        "nonisolated let _$observationRegistrar = SignalStore.ObservationRegistrar()"
    }

    private var tableDeclaration: DeclSyntax {
        "\(raw: access)nonisolated static let _$table: Swift.String = \(literal: table)"
    }

    private var columnsDeclaration: DeclSyntax {
        let entries = model.persisted.map { property in
            "SignalStore.ModelColumn<\(type)>(name: \(quoted(property.column!)), property: \(quoted(property.name)), valueType: (\(property.type!.trimmedDescription)).self, isPrimaryKey: \(property.isPrimaryKey))"
        }
        return """
            \(raw: access)nonisolated static let _$columns: [SignalStore.ModelColumn<\(raw: type)>] = [
                \(raw: entries.joined(separator: ",\n    "))
            ]
            """
    }

    /// The `@Parent` and `@Children` properties: names and types, which the store checks
    /// against the schema's foreign keys at first use.
    private var relationshipsDeclaration: DeclSyntax {
        let entries = model.relationships.map { relationship in
            "SignalStore.ModelRelationship(property: \(quoted(relationship.name)), kind: .\(relationship.kind.rawValue), keyProperty: \(quoted(relationship.keyProperty)), related: \(relationship.related).self)"
        }
        guard !entries.isEmpty else {
            return "\(raw: access)nonisolated static let _$relationships: [SignalStore.ModelRelationship] = []"
        }
        return """
            \(raw: access)nonisolated static let _$relationships: [SignalStore.ModelRelationship] = [
                \(raw: entries.joined(separator: ",\n    "))
            ]
            """
    }

    private var rowInitializer: DeclSyntax {
        var lines: [String] = []
        for (index, property) in model.persisted.enumerated() {
            lines.append("_$\(property.name) = try row.value(at: \(index), as: (\(property.type!.trimmedDescription)).self, column: Self._$columns[\(index)], table: Self._$table)")
        }
        // Transient properties are initialized by their default values.
        return """
            \(raw: access)nonisolated init(_$row row: SignalStore.ModelRow) throws {
                \(raw: lines.joined(separator: "\n    "))
            }
            """
    }

    private var valuesFunction: DeclSyntax {
        let values = model.persisted.enumerated().map { index, property in
            "try SignalStore.ModelRuntime.storable(_$\(property.name), column: \(index), of: Self.self)"
        }.joined(separator: ", ")
        return """
            \(raw: access)nonisolated func _$values() throws -> [SignalStore.SQLiteValue] {
                try _$model.withLock { [\(raw: values)] }
            }
            """
    }

    private var valueFunction: DeclSyntax {
        let cases = model.persisted.enumerated().map { index, property in
            "case \(index): return SignalStore.ModelRuntime.sqliteValue(of: _$\(property.name))"
        }
        return """
            \(raw: access)nonisolated func _$value(column index: Swift.Int) -> SignalStore.SQLiteValue {
                _$model.withLock {
                    switch index {
                    \(raw: cases.joined(separator: "\n        "))
                    default: return .null
                    }
                }
            }
            """
    }

    private var applyFunction: DeclSyntax {
        let cases = model.persisted.enumerated().map { index, property in
            "case \(index): return SignalStore.ModelRuntime.assign(value, to: &_$\(property.name))"
        }
        return """
            \(raw: access)nonisolated func _$apply(column index: Swift.Int, value: SignalStore.SQLiteValue) -> Swift.Bool {
                _$model.withLock {
                    switch index {
                    \(raw: cases.joined(separator: "\n        "))
                    default: return false
                    }
                }
            }
            """
    }

    /// Learns the class's isolation from the two functions below, which take it (no
    /// `nonisolated`): main actor, explicit or by the module's default, or none.
    private var isolationDeclaration: DeclSyntax {
        """
            \(raw: access)nonisolated static let _$isolation = SignalStore.ModelIsolation<\(raw: type)>(
                isolation: \(raw: type)._$keyPaths,
                keyPaths: \(raw: type)._$keyPaths,
                willChange: \(raw: type)._$willChange
            )
            """
    }

    /// The key paths of the persisted properties in column order, then the transient ones, then
    /// the relationships.
    private var keyPathsFunction: DeclSyntax {
        let names = (model.persisted + model.transients).map(\.name) + model.relationships.map(\.name)
        let paths = names.map { "\\\(type).\($0)" }
        return """
            static func _$keyPaths() -> [Swift.AnyKeyPath] {
                [\(raw: paths.joined(separator: ", "))]
            }
            """
    }

    private var willChangeFunction: DeclSyntax {
        let cases = model.persisted.enumerated().map { index, property in
            "case \(index): model._$observationRegistrar.withMutation(of: model, keyPath: \\.\(property.name)) {}"
        }
        return """
            static func _$willChange(_ model: \(raw: type), column index: Swift.Int) {
                switch index {
                \(raw: cases.joined(separator: "\n    "))
                default: break
                }
            }
            """
    }

    private var transientSignalFunction: DeclSyntax {
        let cases = model.transients.enumerated().map { index, property in
            "case \(index): return _$\(property.name).signal"
        }
        return """
            \(raw: access)nonisolated func _$transientSignal(at index: Swift.Int) -> Any? {
                switch index {
                \(raw: (cases + ["default: return nil"]).joined(separator: "\n    "))
                }
            }
            """
    }

    /// `text` as a Swift string literal.
    private func quoted(_ text: String) -> String {
        StringLiteralExprSyntax(content: text).description
    }
}

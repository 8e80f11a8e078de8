import SwiftSyntax

/// The members `@Model` adds to a class.
struct ModelMembers {
    let model: ModelAnalysis
    let table: String

    var declarations: [DeclSyntax] {
        [runtimeState, registrar, tableDeclaration, columnsDeclaration, rowInitializer, valuesFunction, valueFunction, applyFunction, willChangeFunction, transientSignalFunction]
    }

    private var type: String { model.typeName }
    /// The access modifier of the members that implement `PersistentModel`.
    private var access: String { model.witnessAccess }

    private var runtimeState: DeclSyntax {
        "\(raw: access)let _$model = SignalStore.ModelState()"
    }

    private var registrar: DeclSyntax {
        "let _$observationRegistrar = SignalStore.ObservationRegistrar()"
    }

    private var tableDeclaration: DeclSyntax {
        "\(raw: access)static let _$table: Swift.String = \(literal: table)"
    }

    private var columnsDeclaration: DeclSyntax {
        let entries = model.persisted.map { property in
            "SignalStore.ModelColumn<\(type)>(name: \(quoted(property.column!)), property: \(quoted(property.name)), keyPath: \\\(type).\(property.name), valueType: (\(property.type!.trimmedDescription)).self, isPrimaryKey: \(property.isPrimaryKey))"
        }
        return """
            \(raw: access)static let _$columns: [SignalStore.ModelColumn<\(raw: type)>] = [
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
            \(raw: access)init(_$row row: SignalStore.ModelRow) throws {
                \(raw: lines.joined(separator: "\n    "))
            }
            """
    }

    private var valuesFunction: DeclSyntax {
        let values = model.persisted.map { "_$\($0.name).sqliteValue" }.joined(separator: ", ")
        return """
            \(raw: access)func _$values() -> [SignalStore.SQLiteValue] {
                _$model.withLock { [\(raw: values)] }
            }
            """
    }

    private var valueFunction: DeclSyntax {
        let cases = model.persisted.enumerated().map { index, property in
            "case \(index): return _$\(property.name).sqliteValue"
        }
        return """
            \(raw: access)func _$value(column index: Swift.Int) -> SignalStore.SQLiteValue {
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
            \(raw: access)func _$apply(column index: Swift.Int, value: SignalStore.SQLiteValue) -> Swift.Bool {
                _$model.withLock {
                    switch index {
                    \(raw: cases.joined(separator: "\n        "))
                    default: return false
                    }
                }
            }
            """
    }

    private var willChangeFunction: DeclSyntax {
        let cases = model.persisted.enumerated().map { index, property in
            "case \(index): _$observationRegistrar.withMutation(of: self, keyPath: \\.\(property.name)) {}"
        }
        return """
            \(raw: access)func _$willChange(column index: Swift.Int) {
                switch index {
                \(raw: cases.joined(separator: "\n    "))
                default: break
                }
            }
            """
    }

    private var transientSignalFunction: DeclSyntax {
        let checks = model.transients.map { property in
            "if keyPath == \\\(type).\(property.name) as Swift.AnyKeyPath { return _$\(property.name).signal }"
        }
        return """
            \(raw: access)func _$transientSignal(for keyPath: Swift.AnyKeyPath) -> Any? {
                \(raw: (checks + ["return nil"]).joined(separator: "\n    "))
            }
            """
    }

    /// `text` as a Swift string literal.
    private func quoted(_ text: String) -> String {
        StringLiteralExprSyntax(content: text).description
    }
}

import SwiftDiagnostics

/// The problems `@Model` reports, each with an ID and a message that says what to change.
enum ModelDiagnostic: String, DiagnosticMessage {
    case notAClass
    case notFinal
    case letWithoutDefault
    case noPrimaryKey
    case severalPrimaryKeys
    case missingType
    case unsupportedType
    case duplicateColumn
    case transientWithoutDefault
    case severalBindings
    case observerOnProperty

    var severity: DiagnosticSeverity { .error }

    var diagnosticID: MessageID {
        MessageID(domain: "SignalStoreMacros", id: rawValue)
    }

    var message: String {
        switch self {
        case .notAClass: return "@Model can only be applied to a final class; make this a final class"
        case .notFinal: return "@Model classes must be final; add 'final'"
        case .letWithoutDefault: return "a 'let' property of a @Model must have a default value (it is then not persisted); make it 'var' to persist it"
        case .noPrimaryKey: return "@Model needs a primary key: add a property named 'id' or mark one with @PrimaryKey"
        case .severalPrimaryKeys: return "only one property can be marked @PrimaryKey"
        case .missingType: return "a persisted property needs a type annotation, e.g. 'var count: Int'"
        case .unsupportedType: return "this type cannot be stored in a column; use a type that conforms to SQLiteValueConvertible, or mark the property @Transient"
        case .duplicateColumn: return "two properties map to the same column; give one of them a different @Column name"
        case .transientWithoutDefault: return "a @Transient property needs a default value, e.g. '@Transient var isSelected = false'"
        case .severalBindings: return "declare one property per 'var' in a @Model"
        case .observerOnProperty: return "a @Model property cannot have 'willSet' or 'didSet': @Model writes its accessors, and a change made by another process or by sync would not call them; subscribe to the property's signal instead, e.g. 'order.signal(for: \\.status)'"
        }
    }

    /// A message with a detail appended (which property, which column).
    func with(_ detail: String) -> DetailedDiagnostic {
        DetailedDiagnostic(base: self, detail: detail)
    }
}

/// A ``ModelDiagnostic`` whose message names the declaration concerned.
struct DetailedDiagnostic: DiagnosticMessage {
    let base: ModelDiagnostic
    let detail: String

    var message: String { "\(base.message) (\(detail))" }
    var diagnosticID: MessageID { base.diagnosticID }
    var severity: DiagnosticSeverity { base.severity }
}

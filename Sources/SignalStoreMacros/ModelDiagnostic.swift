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
    case relationshipNeedsKeyPath
    case relationshipNotVar
    case relationshipWithValue
    case parentNotOptional
    case parentKeyElsewhere
    case parentKeyNotPersisted
    case childrenNotLiveResults

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
        case .relationshipNeedsKeyPath: return "name the key column by a key path that starts with its model's type, e.g. '@Parent(\\Order.customerID)' or '@Children(\\Order.customerID, orderBy: .ascending(\\Order.id))'"
        case .relationshipNotVar: return "declare a relationship with 'var' (it reads the related rows; setting a @Parent writes the key column)"
        case .relationshipWithValue: return "a relationship has no default value: it reads the related rows; remove the '= …'"
        case .parentNotOptional: return "a @Parent property must be optional, nil while the key is NULL or names no row, e.g. '@Parent(\\Order.customerID) var customer: Customer?'"
        case .parentKeyElsewhere: return "the key path of @Parent must name a property of this model, the one holding the key, e.g. '@Parent(\\Order.customerID)' inside Order"
        case .parentKeyNotPersisted: return "the key path of @Parent must name a persisted property of this model (not @Transient, not a relationship): the column holding the parent's key"
        case .childrenNotLiveResults: return "a @Children property must be 'LiveResults<Child>' of the model whose key path it names, e.g. '@Children(\\Order.customerID) var orders: LiveResults<Order>'"
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

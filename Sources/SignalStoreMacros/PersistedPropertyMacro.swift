import SwiftSyntax
import SwiftSyntaxMacros

/// `@SignalStore._Persisted(column: N)` (added by `@Model`): turns a stored property into
/// accessors over lock-protected `_$name` storage. Reads register with Observation and see the
/// reading thread's own uncommitted value inside a transaction; writes hand the column index and
/// the value to the model runtime (write-through when managed).
public struct PersistedPropertyMacro {}

extension PersistedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = declaration.singleBinding?.name, let column = node.columnIndexArgument else { return [] }
        return [
            """
            @storageRestrictions(initializes: _$\(raw: name))
            init(initialValue) {
                _$\(raw: name) = initialValue
            }
            """,
            """
            get {
                _$observationRegistrar.access(self, keyPath: \\.\(raw: name))
                return _$model.withLock { _$model.visible(column: \(raw: column), committed: _$\(raw: name)) }
            }
            """,
            """
            set {
                SignalStore.ModelRuntime.set(self, column: \(raw: column), to: newValue)
            }
            """,
        ]
    }
}

extension PersistedPropertyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let (binding, name) = declaration.singleBinding, let type = binding.typeAnnotation?.type else { return [] }
        return [
            """
            // nonisolated(unsafe), @exclusivity(unchecked): read and written only under `_$model`'s
            // lock, from any thread, so the lock also keeps accesses from overlapping.
            @exclusivity(unchecked) nonisolated(unsafe) private var _$\(raw: name): \(type.trimmed)
            """,
        ]
    }
}

extension AttributeSyntax {
    /// The `N` of `@_Persisted(column: N)`.
    var columnIndexArgument: Int? {
        guard case .argumentList(let arguments) = self.arguments,
              let argument = arguments.first(where: { $0.label?.text == "column" }),
              let literal = argument.expression.as(IntegerLiteralExprSyntax.self)
        else { return nil }
        return Int(literal.literal.text)
    }
}

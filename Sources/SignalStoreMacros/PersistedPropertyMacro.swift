import SwiftSyntax
import SwiftSyntaxMacros

/// `@SignalStore._Persisted` (added by `@Model`): turns a stored property into accessors over
/// lock-protected `_$name` storage. Reads register with Observation; writes go through the
/// model runtime (write-through when managed).
public struct PersistedPropertyMacro {}

extension PersistedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = declaration.singleBinding?.name else { return [] }
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
                return _$model.withLock { _$\(raw: name) }
            }
            """,
            """
            set {
                SignalStore.ModelRuntime.set(self, property: \(literal: name), to: newValue)
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
        return ["private var _$\(raw: name): \(type.trimmed)"]
    }
}

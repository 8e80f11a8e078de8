import SwiftSyntax
import SwiftSyntaxMacros

/// `@SignalStore._Transient` (added by `@Model` to `@Transient` properties): an observable,
/// thread-safe value that is never written to the database.
public struct TransientPropertyMacro {}

extension TransientPropertyMacro: AccessorMacro {
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
                _$\(raw: name) = SignalStore.TransientStorage(initialValue)
            }
            """,
            """
            get {
                _$observationRegistrar.access(self, keyPath: \\.\(raw: name))
                return _$\(raw: name).value
            }
            """,
            """
            set {
                _$observationRegistrar.withMutation(of: self, keyPath: \\.\(raw: name)) {
                    _$\(raw: name).value = newValue
                }
            }
            """,
        ]
    }
}

extension TransientPropertyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let (binding, name) = declaration.singleBinding else { return [] }
        let type = binding.typeAnnotation?.type.trimmedDescription ?? binding.initializer.flatMap { ModelAnalysis.literalType($0.value) }
        guard let type else { return [] }
        return ["nonisolated private let _$\(raw: name): SignalStore.TransientStorage<\(raw: type)>"]
    }
}

import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model(table: "orders")`: makes a final class a persistent, observable model.
///
/// - member: the runtime state, the observation registrar, the column table, a row
///   initializer and the switches the runtime calls by column index;
/// - memberAttribute: `@SignalStore._Persisted` on persisted stored properties,
///   `@SignalStore._Transient` on `@Transient` ones;
/// - extension: conformance to `SignalStore.PersistentModel`, `Observation.Observable` and
///   `Sendable`.
public struct ModelMacro {}

extension ModelMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let model = ModelAnalysis(declaration, in: context)
        guard model.isValid, let table = tableName(node) else { return [] }
        return ModelMembers(model: model, table: table).declarations
    }

    /// The string literal passed as `table:`.
    static func tableName(_ node: AttributeSyntax) -> String? {
        guard case .argumentList(let arguments) = node.arguments,
              let literal = arguments.first(where: { $0.label?.text == "table" })?.expression.as(StringLiteralExprSyntax.self)
        else { return nil }
        return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    }
}

extension ModelMacro: MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self),
              let variable = member.as(VariableDeclSyntax.self),
              !variable.isStatic, !variable.isComputed,
              variable.bindingSpecifier.text == "var",
              variable.bindings.count == 1,
              let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              !name.hasPrefix("_$")
        else { return [] }
        if variable.attribute(named: "Transient") != nil {
            return ["@SignalStore._Transient"]
        }
        guard let type = variable.bindings.first?.typeAnnotation?.type, ModelAnalysis.isStorable(type),
              let column = ModelAnalysis(declaration, diagnose: { _, _ in }).persisted.firstIndex(where: { $0.name == name })
        else { return [] }
        return ["@SignalStore._Persisted(column: \(raw: column))"]
    }
}

extension ModelMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self) else { return [] }
        let conformance: DeclSyntax = """
            // @unchecked Sendable: every stored value is read and written under `_$model`'s lock
            // (persisted ones) or lives in a thread-safe `TransientStorage` (transient ones).
            extension \(type.trimmed): nonisolated SignalStore.PersistentModel, nonisolated SignalStore.Observable, @unchecked Swift.Sendable {}
            """
        return [conformance.cast(ExtensionDeclSyntax.self)]
    }
}

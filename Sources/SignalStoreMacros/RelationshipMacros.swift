import SwiftSyntax
import SwiftSyntaxMacros

/// `@Parent(\Order.customerID) var customer: Customer?`: turns the property into accessors that
/// read the live parent the key column names and write the key column. `@Model` checks the
/// declaration and reports its problems; this expands only a well-formed one.
public struct ParentMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = declaration.singleBinding?.name, let keyPath = firstArgument(of: node) else { return [] }
        return [
            """
            get {
                SignalStore.ModelRelationships.parent(of: self, through: \(keyPath), property: \(literal: name))
            }
            """,
            """
            set {
                SignalStore.ModelRelationships.setParent(of: self, through: \(keyPath), property: \(literal: name), to: newValue)
            }
            """,
        ]
    }
}

/// `@Children(\Order.customerID, orderBy: .ascending(\Order.id)) var orders: LiveResults<Order>`:
/// turns the property into a getter of the live result of the rows whose key column holds this
/// object's key, made once per object.
public struct ChildrenMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = declaration.singleBinding?.name, let keyPath = firstArgument(of: node),
              case .argumentList(let arguments) = node.arguments
        else { return [] }
        let orderings = arguments.dropFirst().map(\.expression.trimmedDescription).joined(separator: ", ")
        return [
            """
            get {
                SignalStore.ModelRelationships.children(of: self, through: \(keyPath), orderBy: [\(raw: orderings)], property: \(literal: name))
            }
            """,
        ]
    }
}

/// The first argument of an attribute: the relationship's key path.
private func firstArgument(of node: AttributeSyntax) -> ExprSyntax? {
    guard case .argumentList(let arguments) = node.arguments else { return nil }
    return arguments.first?.expression.trimmed
}

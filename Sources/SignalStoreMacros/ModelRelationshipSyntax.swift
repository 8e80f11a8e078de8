import SwiftSyntax

/// A `@Parent` or `@Children` property of a @Model class, as the macros read it.
struct ModelRelationshipSyntax {
    enum Kind: String {
        case parent, children
    }

    let name: String
    let kind: Kind
    /// The type named by the key path's root: the model holding the key column.
    let keyRoot: String
    /// The key path's property: the key column's property in `keyRoot`.
    let keyProperty: String
    /// The other end: the parent's type, or the children's.
    let related: String

    /// The relationship declared by `variable`, or the problem with it.
    static func read(_ variable: VariableDeclSyntax, attribute: AttributeSyntax, kind: Kind, name: String, in model: String) -> Result<ModelRelationshipSyntax, RelationshipProblem> {
        guard variable.bindingSpecifier.text == "var" else { return .failure(.init(node: Syntax(variable), message: .relationshipNotVar)) }
        guard let binding = variable.bindings.first, binding.initializer == nil else {
            return .failure(.init(node: Syntax(variable), message: .relationshipWithValue))
        }
        guard let (root, property) = keyPath(of: attribute) else {
            return .failure(.init(node: Syntax(attribute), message: .relationshipNeedsKeyPath))
        }
        let type = binding.typeAnnotation?.type
        switch kind {
        case .parent:
            guard let wrapped = type?.as(OptionalTypeSyntax.self)?.wrappedType.trimmedDescription else {
                return .failure(.init(node: type.map(Syntax.init) ?? Syntax(binding.pattern), message: .parentNotOptional))
            }
            guard root == model else { return .failure(.init(node: Syntax(attribute), message: .parentKeyElsewhere)) }
            return .success(ModelRelationshipSyntax(name: name, kind: kind, keyRoot: root, keyProperty: property, related: wrapped))
        case .children:
            guard let element = type.flatMap(liveResultsElement), element == root else {
                return .failure(.init(node: type.map(Syntax.init) ?? Syntax(binding.pattern), message: .childrenNotLiveResults))
            }
            return .success(ModelRelationshipSyntax(name: name, kind: kind, keyRoot: root, keyProperty: property, related: element))
        }
    }

    /// `(Order, customerID)` of the attribute's first argument, `\Order.customerID`.
    static func keyPath(of attribute: AttributeSyntax) -> (root: String, property: String)? {
        guard case .argumentList(let arguments) = attribute.arguments,
              let keyPath = arguments.first?.expression.as(KeyPathExprSyntax.self),
              let root = keyPath.root?.trimmedDescription,
              keyPath.components.count == 1,
              let property = keyPath.components.first?.component.as(KeyPathPropertyComponentSyntax.self)?.declName.baseName.text
        else { return nil }
        return (root, property)
    }

    /// `Order` of `LiveResults<Order>` (or `SignalStore.LiveResults<Order>`).
    private static func liveResultsElement(_ type: TypeSyntax) -> String? {
        let (name, arguments): (String, GenericArgumentClauseSyntax?)
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            (name, arguments) = (identifier.name.text, identifier.genericArgumentClause)
        } else if let member = type.as(MemberTypeSyntax.self) {
            (name, arguments) = (member.name.text, member.genericArgumentClause)
        } else {
            return nil
        }
        guard name == "LiveResults", let arguments, arguments.arguments.count == 1 else { return nil }
        return arguments.arguments.first?.argument.trimmedDescription
    }
}

/// Why a relationship property cannot be expanded.
struct RelationshipProblem: Error {
    let node: Syntax
    let message: ModelDiagnostic
}

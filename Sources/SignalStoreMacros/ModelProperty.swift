import SwiftSyntax

/// One stored property of a @Model class, as the macros see it.
struct ModelProperty {
    enum Kind {
        /// Written to a column.
        case persisted(column: String, isPrimaryKey: Bool)
        /// Observable, not written.
        case transient
    }

    let name: String
    let type: TypeSyntax?
    let initializer: ExprSyntax?
    let kind: Kind
    let declaration: VariableDeclSyntax

    var column: String? {
        if case .persisted(let column, _) = kind { return column }
        return nil
    }

    var isPrimaryKey: Bool {
        if case .persisted(_, let isPrimaryKey) = kind { return isPrimaryKey }
        return false
    }
}

extension DeclSyntaxProtocol {
    /// The single binding of a `var`/`let` declaration and its name, for the property macros.
    var singleBinding: (binding: PatternBindingSyntax, name: String)? {
        guard let binding = self.as(VariableDeclSyntax.self)?.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return nil }
        return (binding, name)
    }
}

extension VariableDeclSyntax {
    /// Whether this is `static` or `class`.
    var isStatic: Bool {
        modifiers.contains { ["static", "class"].contains($0.name.text) }
    }

    /// Whether the first binding has accessors (a computed property, or observers).
    var isComputed: Bool {
        bindings.first?.accessorBlock != nil
    }

    /// The `willSet` or `didSet` observer of the first binding, if it has one.
    var observer: AccessorDeclSyntax? {
        guard case .accessors(let accessors) = bindings.first?.accessorBlock?.accessors else { return nil }
        return accessors.first { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
    }

    /// The attribute named `name` (`Column`, `SignalStore.Column`), if present.
    func attribute(named name: String) -> AttributeSyntax? {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            let typeName = attribute.attributeName.trimmedDescription
            if typeName == name || typeName.hasSuffix("." + name) { return attribute }
        }
        return nil
    }

    /// The string literal argument of `@Column("name")`.
    var columnNameArgument: String? {
        guard let attribute = attribute(named: "Column"),
              case .argumentList(let arguments) = attribute.arguments,
              let literal = arguments.first?.expression.as(StringLiteralExprSyntax.self)
        else { return nil }
        return literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
    }
}

extension String {
    /// `purchaseNum` → `purchase_num`, `customerID` → `customer_id`, `URLString` → `url_string`.
    var snakeCased: String {
        var result = ""
        let characters = Array(self)
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    result.append("_")
                }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}

import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Reads a @Model class: its properties, columns and primary key, reporting every problem.
struct ModelAnalysis {
    let typeName: String
    /// The modifier the generated protocol witnesses need (`"public "`, `"package "` or `""`),
    /// so a model can be declared in one module and used from another.
    let witnessAccess: String
    let properties: [ModelProperty]
    /// The `@Parent` and `@Children` properties, in declaration order.
    let relationships: [ModelRelationshipSyntax]
    /// Whether the declaration can be expanded (no error was reported).
    let isValid: Bool

    var persisted: [ModelProperty] { properties.filter { $0.column != nil } }
    var transients: [ModelProperty] { properties.filter { $0.column == nil } }

    init(_ declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) {
        self.init(declaration) { node, message in context.diagnose(Diagnostic(node: node, message: message)) }
    }

    /// Analyzes `declaration`, handing each problem to `diagnose` (the member-attribute role
    /// passes none: the member role reports them once).
    init(_ declaration: some DeclGroupSyntax, diagnose: (Syntax, any DiagnosticMessage) -> Void) {
        var valid = true
        func report(_ node: some SyntaxProtocol, _ message: some DiagnosticMessage) {
            diagnose(Syntax(node), message)
            valid = false
        }
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            report(declaration, ModelDiagnostic.notAClass)
            self.init(typeName: "", witnessAccess: "", properties: [], relationships: [], isValid: false)
            return
        }
        if !classDecl.modifiers.contains(where: { $0.name.text == "final" }) {
            report(classDecl.classKeyword, ModelDiagnostic.notFinal)
        }
        var properties: [ModelProperty] = []
        var relationships: [ModelRelationshipSyntax] = []
        for member in classDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic else { continue }
            if let observer = variable.observer, let name = variable.singleBinding?.name {
                report(observer, ModelDiagnostic.observerOnProperty.with("'\(observer.accessorSpecifier.text)' of '\(name)'"))
                continue
            }
            guard !variable.isComputed else { continue }
            guard variable.bindings.count == 1, let binding = variable.bindings.first,
                  let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            else {
                report(variable, ModelDiagnostic.severalBindings)
                continue
            }
            if let (attribute, kind) = Self.relationshipAttribute(of: variable) {
                switch ModelRelationshipSyntax.read(variable, attribute: attribute, kind: kind, name: name, in: classDecl.name.text) {
                case .success(let relationship): relationships.append(relationship)
                case .failure(let problem): report(problem.node, problem.message.with("'\(name)'"))
                }
                continue
            }
            let type = binding.typeAnnotation?.type
            let initializer = binding.initializer?.value
            if variable.bindingSpecifier.text == "let" {
                if initializer == nil { report(variable, ModelDiagnostic.letWithoutDefault.with("'\(name)'")) }
                continue
            }
            if variable.attribute(named: "Transient") != nil {
                if initializer == nil { report(variable, ModelDiagnostic.transientWithoutDefault.with("'\(name)'")) }
                if type == nil, initializer.flatMap(Self.literalType) == nil {
                    report(variable, ModelDiagnostic.missingType.with("'\(name)'"))
                }
                properties.append(ModelProperty(name: name, type: type, initializer: initializer, kind: .transient, declaration: variable))
                continue
            }
            guard let type else {
                report(variable, ModelDiagnostic.missingType.with("'\(name)'"))
                continue
            }
            if !Self.isStorable(type) {
                report(type, ModelDiagnostic.unsupportedType.with("'\(name)': \(type.trimmedDescription)"))
                continue
            }
            let column = variable.columnNameArgument ?? name.snakeCased
            let isKey = variable.attribute(named: "PrimaryKey") != nil
            properties.append(ModelProperty(name: name, type: type, initializer: initializer, kind: .persisted(column: column, isPrimaryKey: isKey), declaration: variable))
        }
        let keys = properties.filter(\.isPrimaryKey)
        keys.dropFirst().forEach { report($0.declaration, ModelDiagnostic.severalPrimaryKeys) }
        if let keyed = Self.withPrimaryKey(properties) {
            properties = keyed
        } else if valid {
            report(classDecl.name, ModelDiagnostic.noPrimaryKey)
        }
        for relationship in relationships where relationship.kind == .parent {
            if !properties.contains(where: { $0.name == relationship.keyProperty && $0.column != nil }) {
                let declaration = classDecl.memberBlock.members.first { $0.decl.singleBinding?.name == relationship.name }?.decl
                report(declaration ?? DeclSyntax(classDecl), ModelDiagnostic.parentKeyNotPersisted.with("'\(relationship.name)' names '\(relationship.keyProperty)'"))
            }
        }
        var seen: [String: String] = [:]
        for property in properties {
            guard let column = property.column else { continue }
            if let other = seen[column] {
                report(property.declaration, ModelDiagnostic.duplicateColumn.with("'\(other)' and '\(property.name)' both use column '\(column)'"))
            }
            seen[column] = property.name
        }
        self.init(typeName: classDecl.name.text, witnessAccess: Self.witnessAccess(of: classDecl), properties: properties, relationships: relationships, isValid: valid)
    }

    private init(typeName: String, witnessAccess: String, properties: [ModelProperty], relationships: [ModelRelationshipSyntax], isValid: Bool) {
        self.typeName = typeName
        self.witnessAccess = witnessAccess
        self.properties = properties
        self.relationships = relationships
        self.isValid = isValid
    }

    /// The `@Parent` or `@Children` attribute of a property, if it has one.
    static func relationshipAttribute(of variable: VariableDeclSyntax) -> (AttributeSyntax, ModelRelationshipSyntax.Kind)? {
        if let parent = variable.attribute(named: "Parent") { return (parent, .parent) }
        if let children = variable.attribute(named: "Children") { return (children, .children) }
        return nil
    }

    /// A public class needs public witnesses for its public conformance, a package class
    /// package ones. (An open class is not final, which `@Model` rejects.)
    private static func witnessAccess(of classDecl: ClassDeclSyntax) -> String {
        let modifiers = Set(classDecl.modifiers.map(\.name.text))
        if modifiers.contains("public") { return "public " }
        if modifiers.contains("package") { return "package " }
        return ""
    }

    /// Marks the primary key: the `@PrimaryKey` property, or else the one named `id`. Returns
    /// `nil` when there is none.
    private static func withPrimaryKey(_ properties: [ModelProperty]) -> [ModelProperty]? {
        if properties.contains(where: \.isPrimaryKey) { return properties }
        guard let index = properties.firstIndex(where: { $0.name == "id" && $0.column != nil }) else { return nil }
        var properties = properties
        let id = properties[index]
        properties[index] = ModelProperty(
            name: id.name, type: id.type, initializer: id.initializer,
            kind: .persisted(column: id.column!, isPrimaryKey: true), declaration: id.declaration
        )
        return properties
    }

    /// Types a column cannot hold, recognizable from syntax alone. Everything else must conform
    /// to `SQLiteValueConvertible`, which the compiler checks.
    static func isStorable(_ type: TypeSyntax) -> Bool {
        if type.is(TupleTypeSyntax.self) || type.is(FunctionTypeSyntax.self) || type.is(SomeOrAnyTypeSyntax.self)
            || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) || type.is(MetatypeTypeSyntax.self) {
            return false
        }
        if let optional = type.as(OptionalTypeSyntax.self) { return isStorable(optional.wrappedType) }
        if let attributed = type.as(AttributedTypeSyntax.self) { return isStorable(attributed.baseType) }
        return true
    }

    /// The type of a simple literal default value, for transients declared without a type.
    static func literalType(_ expression: ExprSyntax) -> String? {
        if expression.is(BooleanLiteralExprSyntax.self) { return "Swift.Bool" }
        if expression.is(IntegerLiteralExprSyntax.self) { return "Swift.Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Swift.Double" }
        if expression.is(StringLiteralExprSyntax.self) { return "Swift.String" }
        return nil
    }
}

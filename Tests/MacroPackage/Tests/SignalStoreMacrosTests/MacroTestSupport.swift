import SignalStoreMacros
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros as the compiler sees them, by the names user code writes.
let macroSpecs: [String: MacroSpec] = [
    "Model": MacroSpec(type: ModelMacro.self, conformances: ["PersistentModel", "Observable", "Sendable"]),
    "_Persisted": MacroSpec(type: PersistedPropertyMacro.self),
    "_Transient": MacroSpec(type: TransientPropertyMacro.self),
    "Column": MacroSpec(type: MarkerMacro.self),
    "PrimaryKey": MacroSpec(type: MarkerMacro.self),
    "Transient": MacroSpec(type: MarkerMacro.self),
    "Parent": MacroSpec(type: ParentMacro.self),
    "Children": MacroSpec(type: ChildrenMacro.self),
]

/// `source` with every macro expanded.
func expandedText(of source: String) -> String {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "Test.swift")])
    return file.expand(macroSpecs: macroSpecs, contextGenerator: { _ in context }, indentationWidth: .spaces(4)).description
}

/// Expands `source` and returns the diagnostics' messages and IDs (the IDs' names, e.g.
/// `notAClass`).
func diagnostics(of source: String) -> [(message: String, id: String)] {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "Test.swift")])
    _ = file.expand(macroSpecs: macroSpecs, contextGenerator: { _ in context }, indentationWidth: .spaces(4))
    let names = ["notAClass", "notFinal", "letWithoutDefault", "noPrimaryKey", "severalPrimaryKeys", "missingType",
                 "unsupportedType", "duplicateColumn", "transientWithoutDefault", "severalBindings", "observerOnProperty",
                 "relationshipNeedsKeyPath", "relationshipNotVar", "relationshipWithValue", "parentNotOptional",
                 "parentKeyElsewhere", "parentKeyNotPersisted", "childrenNotLiveResults"]
    return context.diagnostics.map { diagnostic in
        let id = names.first { MessageID(domain: "SignalStoreMacros", id: $0) == diagnostic.diagMessage.diagnosticID } ?? "other: \(diagnostic.message)"
        return (diagnostic.message, id)
    }
}

/// Checks that `source` expands to `expected`, reporting differences as test issues.
func expectExpansion(_ source: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    assertMacroExpansion(
        source,
        expandedSource: expected,
        macroSpecs: macroSpecs,
        indentationWidth: .spaces(4),
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    )
}

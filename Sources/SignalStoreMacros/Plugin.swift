import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides SignalStore's macros.
@main
struct SignalStoreMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        ModelMacro.self,
        PersistedPropertyMacro.self,
        TransientPropertyMacro.self,
        MarkerMacro.self,
        ParentMacro.self,
        ChildrenMacro.self,
    ]
}

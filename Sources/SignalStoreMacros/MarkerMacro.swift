import SwiftSyntax
import SwiftSyntaxMacros

/// `@Column("name")`, `@PrimaryKey` and `@Transient`: markers that `@Model` reads; they add
/// nothing themselves.
public struct MarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

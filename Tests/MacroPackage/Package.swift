// swift-tools-version:6.2
import CompilerPluginSupport
import PackageDescription

// The @Model macro's expansion and diagnostics tests, in a package of their own: a test target
// that depends on a macro target makes SwiftPM build that test product, and with it every other
// test target and all of their dependencies, for the host as well as for the destination. Here
// only the macro is built twice. `Sources/SignalStoreMacros` is a symbolic link to the macro's
// only copy, `../../Sources/SignalStoreMacros`. Run with `swift test --package-path Tests/MacroPackage`.
let package = Package(
    name: "SignalStoreMacroTests",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        .macro(
            name: "SignalStoreMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "SignalStoreMacrosTests",
            dependencies: [
                "SignalStoreMacros",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)

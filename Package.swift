// swift-tools-version:6.2
import CompilerPluginSupport
import Foundation
import PackageDescription

// Sync through PostgreSQL builds SwiftNIO, BoringSSL and postgres-nio, and the CLI's inspector
// builds Hummingbird on SwiftNIO. CI's Address Sanitizer run sets SIGNALSTORE_WITHOUT_NETWORKING=1
// to leave the sync product, its tests, the CLI's `sync` and `inspect` commands and their
// packages out, so that a third build of them does not take CI past its budget; the plain run
// and the Thread Sanitizer run build and test everything. Apps never need this: a package that
// does not use the SignalStoreSync product does not build its dependencies anyway, and the CLI's
// `sync` and `inspect` commands come only with the Sync and Inspector traits (below), so the
// first `swift run signalstore demo` builds none of them either.
let withNetworking = ProcessInfo.processInfo.environment["SIGNALSTORE_WITHOUT_NETWORKING"] == nil

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SignalStore",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "SignalsTesting", targets: ["SignalsTesting"]),
        .library(name: "SignalStore", targets: ["SignalStore"]),
        // For the tests of code that changes state: TestStore, exhaustive change-feed
        // expectations, settle(), foreign writers, golden feeds.
        .library(name: "SignalStoreTesting", targets: ["SignalStoreTesting"]),
        .executable(name: "signalstore", targets: ["signalstore"]),
    ] + (withNetworking ? [
        // Sync through PostgreSQL: its own product, so apps that do not sync never build
        // postgres-nio and SwiftNIO.
        .library(name: "SignalStoreSync", targets: ["SignalStoreSync"]),
    ] : []),
    traits: [
        .trait(name: "Sync", description: "The CLI's `signalstore sync` (builds SwiftNIO, BoringSSL and postgres-nio: about 4 minutes on 2 cores)."),
        .trait(name: "Inspector", description: "The CLI's `signalstore inspect`, a live web inspector (builds SwiftNIO and Hummingbird 2)."),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Test-only: property-based (model-based) testing in the reliability suites.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ] + (withNetworking ? [
        // SignalStoreSync only: the PostgreSQL client, and the packages it is built on whose
        // types sync names (a logger, the TLS settings `sslmode` and `sslrootcert` become, and
        // SwiftNIO's errors and buffers, which tell a refused connection from a timed-out one).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The CLI's inspector only (the Inspector trait): its HTTP server. Without its default
        // traits, which add swift-configuration and nothing the inspector uses.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Hummingbird's header names (the inspector sets Referrer-Policy and X-Frame-Options).
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ] : []),
    targets: [
        .target(name: "Signals", swiftSettings: strictSwift),
        .target(name: "SignalsTesting", dependencies: ["Signals"], swiftSettings: strictSwift),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .macro(
            name: "SignalStoreMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ],
            swiftSettings: strictSwift
        ),
        .target(name: "SignalStore", dependencies: ["Signals", "CSQLite", "SignalStoreMacros"], swiftSettings: strictSwift),
        .target(name: "SignalStoreTesting", dependencies: ["SignalStore", "SignalsTesting"], swiftSettings: strictSwift),
        .testTarget(
            name: "SignalStoreTestingTests",
            dependencies: ["SignalStoreTesting", "SignalStoreTestSupport", "StoreTestHelper", "signalstore"],
            // Golden feeds are read from the source folder at run time, not bundled.
            exclude: ["__Feeds__"],
            swiftSettings: strictSwift
        ),
        // The CLI's commands live in a library so tests can drive them in-process.
        // The CLI's `sync` command comes with the Sync trait (`swift build --traits Sync`), so
        // the first `swift run signalstore demo` builds neither SwiftNIO nor postgres-nio.
        .target(
            name: "SignalStoreCLI",
            dependencies: ["SignalStore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
                + (withNetworking ? [
                    .target(name: "SignalStoreSync", condition: .when(traits: ["Sync"])),
                    .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Inspector"])),
                    .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Inspector"])),
                    .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Inspector"])),
                ] : []),
            swiftSettings: strictSwift + (withNetworking ? [
                .define("SIGNALSTORE_SYNC", .when(traits: ["Sync"])),
                .define("SIGNALSTORE_INSPECTOR", .when(traits: ["Inspector"])),
            ] : [])
        ),
        .executableTarget(name: "signalstore", dependencies: ["SignalStoreCLI"], swiftSettings: strictSwift),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "SignalsTesting"], swiftSettings: strictSwift),
        .testTarget(name: "SignalsTestingTests", dependencies: ["Signals", "SignalsTesting"], swiftSettings: strictSwift),
        .testTarget(
            name: "SignalStoreTests",
            dependencies: ["SignalStore", "SignalsTesting", "SignalStoreTesting", "CSQLite", "StoreTestHelper", "SignalStoreTestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "SignalStoreCLITests",
            dependencies: ["SignalStoreCLI", "SignalStore", "SignalsTesting", "signalstore", "SignalStoreTestSupport"],
            swiftSettings: strictSwift + (withNetworking ? [.define("SIGNALSTORE_INSPECTOR", .when(traits: ["Inspector"]))] : [])
        ),
        // The macro's own expansion and diagnostics tests are a package of their own,
        // Tests/MacroPackage: here they would make SwiftPM build every test target and its
        // dependencies twice (see that manifest).
        // What the test targets share: the example Order model, temporary folders, child processes,
        // seeded randomness.
        .target(name: "SignalStoreTestSupport", dependencies: ["SignalStore"], path: "Tests/TestSupport", swiftSettings: strictSwift),
        .testTarget(
            name: "AppTests",
            dependencies: ["SignalStore", "SignalsTesting", "SignalStoreTestSupport"],
            swiftSettings: strictSwift + [.defaultIsolation(MainActor.self)]
        ),
        // The reliability suites (issue 6): crashes, many writers, model-based and hostile input.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "SignalStore", "SignalStoreCLI", "SignalsTesting", "SignalStoreTestSupport", "ReliabilityHelper", "signalstore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSwift
        ),
        // The other processes of the reliability suites: a writer killed at random, concurrent
        // writers, watchers.
        .executableTarget(
            name: "ReliabilityHelper",
            dependencies: ["SignalStore", "SignalStoreTestSupport"],
            path: "Tests/ReliabilityHelper",
            swiftSettings: strictSwift
        ),
        // A second process for cross-process tests: opens a Store and writes through it.
        .executableTarget(
            name: "StoreTestHelper",
            dependencies: ["SignalStore"],
            path: "Tests/StoreTestHelper",
            swiftSettings: strictSwift
        ),
    ] + (withNetworking ? [
        // Its packages come with the Sync trait only, so that an app that does not sync never
        // resolves them (SwiftPM leaves a dependency that only a disabled trait uses out of
        // resolution): a package that uses this product writes
        // `.package(…, traits: ["Sync"])`. Without the trait the module holds only a
        // `SyncClient` whose use is an error saying so (`WithoutTheSyncTrait.swift`).
        .target(
            name: "SignalStoreSync",
            dependencies: [
                "SignalStore",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Sync"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Sync"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Sync"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Sync"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Sync"])),
            ],
            swiftSettings: strictSwift + [.define("SIGNALSTORE_SYNC", .when(traits: ["Sync"]))]
        ),
        // Sync through a real PostgreSQL server (SIGNALSTORE_TEST_POSTGRES_URL; `.ci/postgres`).
        .testTarget(
            name: "SyncTests",
            dependencies: ["SignalStoreSync", "SignalStore", "SignalsTesting", "SignalStoreTestSupport", "signalstore"],
            exclude: ["tcp_proxy.py", "chaos_writer.py"],
            swiftSettings: strictSwift + [.define("SIGNALSTORE_SYNC", .when(traits: ["Sync"])), .define("SIGNALSTORE_INSPECTOR", .when(traits: ["Inspector"]))]
        ),
    ] : [])
)

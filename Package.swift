// swift-tools-version:6.0
import PackageDescription

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
        .executable(name: "signalstore", targets: ["signalstore"]),
    ],
    targets: [
        .target(name: "Signals", swiftSettings: strictSwift),
        .target(name: "SignalsTesting", dependencies: ["Signals"], swiftSettings: strictSwift),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "SignalStore", dependencies: ["Signals", "CSQLite"], swiftSettings: strictSwift),
        .executableTarget(name: "signalstore", dependencies: ["Signals"], swiftSettings: strictSwift),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "SignalsTesting"], swiftSettings: strictSwift),
        .testTarget(name: "SignalsTestingTests", dependencies: ["Signals", "SignalsTesting"], swiftSettings: strictSwift),
        .testTarget(
            name: "SignalStoreTests",
            dependencies: ["SignalStore", "SignalsTesting", "CSQLite", "StoreTestHelper"],
            swiftSettings: strictSwift
        ),
        // A second process for cross-process tests: opens a Store and writes through it.
        .executableTarget(
            name: "StoreTestHelper",
            dependencies: ["SignalStore"],
            path: "Tests/StoreTestHelper",
            swiftSettings: strictSwift
        ),
    ]
)

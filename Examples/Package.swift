// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Shop",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // As the README prints it; .ci/examples builds it with .package(path: "../SignalStore"),
        // as the README says to until a release is tagged.
        .package(url: "<the repository's URL>", from: "0.1.0"),
    ],
    targets: [
        .executableTarget(
            name: "Shop",
            dependencies: [.product(name: "SignalStore", package: "SignalStore")],
            swiftSettings: [.defaultIsolation(MainActor.self)]   // app code on the main actor, as views expect
        ),
        // Not in the README's manifest: the store article's top-level snippet.
        .executableTarget(name: "StoreFeed", dependencies: [.product(name: "SignalStore", package: "SignalStore")]),
        // Not in the README: the DocC articles' Swift, one target a catalog (ShopTests holds the
        // SignalStoreTesting articles' tests).
        .executableTarget(name: "SignalsArticles", dependencies: [.product(name: "Signals", package: "SignalStore")]),
        .executableTarget(
            name: "StoreArticles",
            dependencies: [.product(name: "SignalStore", package: "SignalStore")],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .executableTarget(
            name: "RelationshipsArticle",
            dependencies: [.product(name: "SignalStore", package: "SignalStore")],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .testTarget(name: "SignalsArticleTests", dependencies: [.product(name: "SignalsTesting", package: "SignalStore")]),
        .testTarget(
            name: "ShopTests",
            dependencies: ["Shop", .product(name: "SignalStoreTesting", package: "SignalStore")],
            exclude: ["__Feeds__"]   // golden feeds, read from the source folder
        ),
    ]
)

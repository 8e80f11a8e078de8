// swift-tools-version:6.1
import Foundation
import PackageDescription

// The benchmarks depend on SignalStore by path. SwiftPM names a path dependency after its folder,
// which is whatever the clone was called, so read it instead of hard-coding it.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = rootFolder.lastPathComponent.lowercased()

let package = Package(
    name: "SignalStoreBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "..", traits: ["Sync"]),   // SyncHarness uses SignalStoreSync
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(name: "MallocStats"),
        // The peer's record of the same table, for the harnesses that compare with GRDB.
        .target(name: "GRDBModels", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // The model and migrations the store benchmarks share.
        .target(name: "BenchmarkModels", dependencies: [.product(name: "SignalStore", package: rootIdentity)]),
        .executableTarget(
            name: "SignalsBenchmarks",
            dependencies: [
                .product(name: "Signals", package: rootIdentity),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                "MallocStats",
            ],
            path: "Benchmarks/SignalsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "SignalStore", package: rootIdentity),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "MallocStats",
                "BenchmarkModels",
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A plain executable (no harness): Signals' hot path and main-actor delivery against
        // OpenCombine, plain loops and wall clock, as one table.
        .executableTarget(
            name: "SignalsHarness",
            dependencies: [
                .product(name: "SignalStore", package: rootIdentity),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                "MallocStats",
                "BenchmarkModels",
            ],
            path: "Benchmarks/SignalsHarness"
        ),
        // A plain executable (no harness): sync through PostgreSQL against its goals and the bare
        // postgres-nio NOTIFY round trip (needs SIGNALSTORE_TEST_POSTGRES_URL; ../.ci/postgres).
        .executableTarget(
            name: "SyncHarness",
            dependencies: [
                .product(name: "SignalStoreSync", package: rootIdentity),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                "BenchmarkModels",
            ],
            path: "Benchmarks/SyncHarness"
        ),
        // A plain executable (no harness): sync per scope at 1,000 scopes and up to 100
        // replicas, each its own role (needs SIGNALSTORE_TEST_POSTGRES_URL; ../.ci/postgres).
        .executableTarget(
            name: "ScopesHarness",
            dependencies: [
                .product(name: "SignalStoreSync", package: rootIdentity),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/ScopesHarness"
        ),
        // A plain executable (no harness): what the test kit costs a test suite: creating a
        // TestStore, and expectChanges around one write against the bare write.
        .executableTarget(
            name: "TestKitHarness",
            dependencies: [
                .product(name: "SignalStoreTesting", package: rootIdentity),
                "BenchmarkModels",
            ],
            path: "Benchmarks/TestKitHarness"
        ),
        // A plain executable (no harness): live results against GRDB's ValueObservation re-fetch
        // of the same query, and the heap a result holds per row.
        .executableTarget(
            name: "ResultsHarness",
            dependencies: [
                .product(name: "SignalStore", package: rootIdentity),
                .product(name: "GRDB", package: "GRDB.swift"),
                "BenchmarkModels",
                "GRDBModels",
                "MallocStats",
            ],
            path: "Benchmarks/ResultsHarness"
        ),
        // A plain executable (no harness): windows, live counts, sums and groups, and a list
        // ordered by a parent, against GRDB's ValueObservation of the same queries.
        .executableTarget(
            name: "LiveQueriesHarness",
            dependencies: [
                .product(name: "SignalStore", package: rootIdentity),
                .product(name: "GRDB", package: "GRDB.swift"),
                "BenchmarkModels",
                "GRDBModels",
            ],
            path: "Benchmarks/LiveQueriesHarness"
        ),
        // A plain executable (no harness): the CPU of one write with 1 to 10,000 live results
        // beside it (live `@Children` lists, results with no key to route by).
        .executableTarget(
            name: "LiveListsHarness",
            dependencies: [
                .product(name: "SignalStore", package: rootIdentity),
                "BenchmarkModels",
            ],
            path: "Benchmarks/LiveListsHarness"
        ),
        // A plain executable (no harness): relationships against GRDB's associations: a graph
        // read with `including:`, a live parent's read, a foreign insert into a relationship.
        .executableTarget(
            name: "RelationshipsHarness",
            dependencies: [
                .product(name: "SignalStore", package: rootIdentity),
                .product(name: "GRDB", package: "GRDB.swift"),
                "BenchmarkModels",
            ],
            path: "Benchmarks/RelationshipsHarness"
        ),
        // A plain executable (no harness): open-loop read latency beside a writer, the write
        // path's CPU time and live queries, against GRDB and raw C, printed as one table.
        .executableTarget(
            name: "ReadWriteHarness",
            dependencies: [
                .product(name: "SignalStore", package: rootIdentity),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "BenchmarkModels",
                "GRDBModels",
            ],
            path: "Benchmarks/ReadWriteHarness"
        ),
    ]
)

import ArgumentParser

#if !SIGNALSTORE_SYNC
/// `sync` in a `signalstore` built without the Sync trait: says how to get it, instead of
/// "unknown command". (The trait keeps SwiftNIO and postgres-nio out of the first build.)
struct SyncUnavailableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the database with other machines' databases through PostgreSQL (not in this build: it needs the Sync trait)."
    )

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        throw CLIError("this signalstore was built without sync; build it with `swift build --product signalstore --traits Sync` in a clone of SignalStore, or give SignalStore `traits: [\"Sync\"]` in your Package.swift and run `swift build --product signalstore` (it adds SwiftNIO, BoringSSL and postgres-nio: about 4 minutes the first time), then run sync again")
    }
}
#endif

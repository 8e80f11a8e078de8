import ArgumentParser

#if !SIGNALSTORE_INSPECTOR
/// `inspect` in a `signalstore` built without the Inspector trait: says how to get it, instead
/// of "unknown command". (The trait keeps SwiftNIO and Hummingbird out of the first build.)
struct InspectUnavailableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Serve a live web inspector of the database (not in this build: it needs the Inspector trait)."
    )

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        throw CLIError("this signalstore was built without the inspector; build it with `swift build --product signalstore --traits Inspector` in a clone of SignalStore, or give SignalStore `traits: [\"Inspector\"]` in your Package.swift and run `swift build --product signalstore` (it adds SwiftNIO and Hummingbird: 1 min 19 s here, after the plain tool), then run inspect again")
    }
}
#endif

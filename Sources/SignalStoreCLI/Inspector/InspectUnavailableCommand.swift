import ArgumentParser

#if !SIGNALSTORE_INSPECTOR
/// `inspect` in a `signalstore` built without the Inspector trait: says how to get it, instead
/// of "unknown command". (The trait keeps SwiftNIO and Hummingbird out of the first build.)
struct InspectUnavailableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Serve a live web inspector of the database (not in this build: build with --traits Inspector)."
    )

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        throw CLIError("this signalstore was built without the inspector; build it with `swift build --traits Inspector` (it adds SwiftNIO and Hummingbird: about 2 minutes the first time), then run inspect again")
    }
}
#endif

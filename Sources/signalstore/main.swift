import Dispatch
import Foundation
import SignalStoreCLI

// The `signalstore` executable: the commands live in SignalStoreCLI; this file connects them to
// the process (arguments, environment, standard streams, SIGINT, exit status).

/// Runs the command line and returns its exit status. Ctrl-C (SIGINT) ends `watch` and
/// `changes --follow` cleanly, with status 0, instead of killing the process.
func runSignalStore() -> Int32 {
    let stop = StopRequest()
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    interrupt.setEventHandler { @Sendable in stop.fire() }
    interrupt.resume()
    defer { interrupt.cancel() }
    let context = CommandContext(
        console: .standard,
        environment: ProcessInfo.processInfo.environment,
        stop: stop,
        executablePath: Bundle.main.executablePath
    )
    return SignalStoreTool.run(Array(CommandLine.arguments.dropFirst()), in: context)
}

exit(runSignalStore())

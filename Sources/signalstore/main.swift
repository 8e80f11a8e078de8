import Dispatch
import Foundation
import SignalStoreCLI

// The `signalstore` executable: the commands live in SignalStoreCLI; this file connects them to
// the process (arguments, environment, standard streams, SIGINT, exit status).

let stop = StopRequest()
// Ctrl-C ends `watch` and `changes --follow` cleanly (exit 0) instead of killing the process.
signal(SIGINT, SIG_IGN)
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
interrupt.setEventHandler { stop.fire() }
interrupt.resume()

let context = CommandContext(
    console: .standard,
    environment: ProcessInfo.processInfo.environment,
    stop: stop,
    executablePath: Bundle.main.executablePath
)
exit(SignalStoreTool.run(Array(CommandLine.arguments.dropFirst()), in: context))

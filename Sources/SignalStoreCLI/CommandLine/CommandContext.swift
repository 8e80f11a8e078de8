/// What a command runs with besides its arguments: its console, its environment and its stop
/// request. The executable passes the real ones; tests pass their own.
public struct CommandContext: Sendable {
    /// Where output goes.
    public var console: Console
    /// The environment variables (for `SIGNALSTORE_DB`).
    public var environment: [String: String]
    /// Ends `watch` and `changes --follow`; the executable fires it on SIGINT.
    public var stop: StopRequest
    /// The `signalstore` executable, for the demo's second process; `nil` when unknown.
    public var executablePath: String?

    /// A context.
    public init(console: Console, environment: [String: String], stop: StopRequest = StopRequest(), executablePath: String? = nil) {
        self.console = console
        self.environment = environment
        self.stop = stop
        self.executablePath = executablePath
    }

    /// The context of the command being run.
    @TaskLocal static var current = CommandContext(console: .standard, environment: [:])
}

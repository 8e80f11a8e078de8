import ArgumentParser
import SignalStore

/// `signalstore consumers`: the durable consumers of the change feed and how far behind each is.
struct ConsumersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consumers",
        abstract: "List the durable consumers of the change feed with their lag; remove one.",
        discussion: """
            A durable consumer (store.changes(consumer:) in an app) resumes after the last seq \\
            it acknowledged, and prune keeps every entry it has not acknowledged. LAG is the \\
            number of entries after its acknowledgment. --remove NAME removes a consumer that is \\
            gone for good, so its entries no longer hold back prune.

            Examples:
              signalstore consumers --db app.sqlite
              signalstore consumers --remove old-uploader --db app.sqlite
            """
    )

    @Option(name: .long, help: ArgumentHelp("Remove this consumer.", valueName: "name"))
    var remove: String?

    @OptionGroup var options: GlobalOptions

    func run() throws {
        let store = try DatabaseOpener.open(options, access: remove == nil ? .readOnly : .readWrite)
        defer { store.close() }
        if let remove {
            try CLIFailure.run { try store.removeConsumer(remove) }
        }
        let consumers = try CLIFailure.run { try store.consumers }
        let lastSeq = try CLIFailure.run { try store.lastChangeSeq }
        let printer = Printer(json: options.json)
        if options.json {
            printer.document(.array(consumers.map { consumer in
                .object([
                    ("name", .string(consumer.name)), ("acknowledgedSeq", .integer(consumer.acknowledgedSeq)),
                    ("lag", .integer(lastSeq - consumer.acknowledgedSeq)),
                ])
            }))
            return
        }
        if let remove { printer.line("removed consumer \(remove)") }
        guard !consumers.isEmpty else {
            printer.line("no durable consumers (an app registers one with store.changes(consumer:))")
            return
        }
        var output = TextTable("CONSUMER", "ACKNOWLEDGED", "LAG")
        for consumer in consumers {
            output.append([consumer.name, "#\(consumer.acknowledgedSeq)", "\(lastSeq - consumer.acknowledgedSeq)"])
        }
        printer.table(output)
    }
}

import SignalStore

/// Reads the change journal a page at a time, so a command prints its first entry at once and
/// holds at most one page in memory, whatever the journal's size, and notices Ctrl-C between
/// pages.
enum JournalPages {
    /// Entries per page: small enough to print the first one at once and to stop within a few
    /// milliseconds of Ctrl-C.
    static let pageSize = 1_000

    /// How reading ended.
    struct Outcome {
        /// The last seq read (`since` if none).
        var lastSeq: Int64
        /// How many entries were handed to the body.
        var count: Int
        /// Whether the stop request (Ctrl-C) ended it early.
        var interrupted: Bool
    }

    /// Hands `body` the entries after `since` that `include` accepts, in seq order, at most
    /// `limit` of them, up to the last entry committed when each page is read.
    /// - Throws: A ``CLIError`` if entries after `since` were pruned (never a silent gap).
    static func forEach(
        in store: Store, after since: Int64, limit: Int?, progress: ProgressLine? = nil,
        include: (Change) -> Bool = { _ in true }, _ body: (Change) -> Void
    ) throws(CLIError) -> Outcome {
        defer { progress?.finish() }
        let stop = CommandContext.current.stop
        var outcome = Outcome(lastSeq: since, count: 0, interrupted: false)
        let limit = limit ?? Int.max
        while outcome.count < limit {
            if stop.isFired {
                outcome.interrupted = true
                return outcome
            }
            let page = try CLIFailure.run { [outcome] in try store.journalEntries(after: outcome.lastSeq, limit: pageSize) }
            for change in page where outcome.count < limit {
                outcome.lastSeq = change.seq
                guard include(change) else { continue }
                body(change)
                outcome.count += 1
            }
            progress?.update(Int64(outcome.count))
            if page.count < pageSize { break }
        }
        return outcome
    }
}

/// A one-shot command stopped by Ctrl-C before it finished: exit status 130, as shells expect.
struct CommandInterrupted: Error {}

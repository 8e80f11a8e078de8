#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStore

/// Change-feed entries written together, shown as one line: a transaction, or writes so close
/// in time that the journal cannot tell them apart.
///
/// The journal records no commit boundaries (its capture triggers run for every writer, and
/// SQLite tells a trigger nothing of its transaction), so the inspector groups by time: an
/// entry joins the group of the entry before it when it was written at most ``closeness``
/// later. A transaction's statements run microseconds apart, so a 2,000-row transaction is one
/// group; two writers' commits a few milliseconds apart are two.
///
/// A group holds its first ``shownMembers`` entries (their values already cut, see
/// ``FeedEntry``) and a tally of all of them, so a group of any size costs the same memory.
struct FeedGroup: Sendable {
    /// The longest time between two entries of one group.
    static let closeness = 0.002
    /// The most entries a group keeps to show.
    static let shownMembers = 20

    /// One kept entry: what filters look at, its row, and its live event's JSON (rendered once,
    /// for every client).
    struct Member: Sendable {
        let seq: Int64
        let table: String
        let operation: Change.Operation
        let row: HTML
        let json: String
    }

    /// How many entries of one table and operation the group holds.
    struct Tally: Sendable {
        let table: String
        let operation: Change.Operation
        var count: Int
    }

    /// What ties the group's line to its members' rows on a page: the first seq it was built
    /// from (``extend(with:)`` moves ``from`` and not this).
    private let key: Int64
    /// The first and last seq of the group.
    private(set) var from: Int64
    private(set) var through: Int64
    /// When its first entry was written (UTC, as ``FeedEntry/time``).
    let time: String
    private(set) var tallies: [Tally]
    private(set) var members: [Member]
    /// The first entry's row as a line of its own, for a group of one.
    private let soloRow: HTML
    private var lastTimestamp: Date
    /// Whether entries before ``from`` may belong to the group too (it was counted back only
    /// ``longestExtension`` seqs).
    private var mayGoOn = false

    /// The number of entries.
    var count: Int { tallies.reduce(0) { $0 + $1.count } }

    private init(_ entry: FeedEntry, writes: Bool) {
        key = entry.change.seq
        from = entry.change.seq
        through = entry.change.seq
        time = entry.time
        tallies = []
        members = []
        soloRow = entry.row(writes: writes)
        lastTimestamp = entry.change.timestamp
        add(entry, writes: writes)
    }

    /// Whether `change` belongs after the group's last entry.
    private func takes(_ change: Change) -> Bool {
        change.timestamp.timeIntervalSince(lastTimestamp) <= Self.closeness && change.seq > through
    }

    private mutating func add(_ entry: FeedEntry, writes: Bool) {
        let change = entry.change
        through = change.seq
        lastTimestamp = change.timestamp
        if let index = tallies.firstIndex(where: { $0.table == change.table && $0.operation == change.operation }) {
            tallies[index].count += 1
        } else {
            tallies.append(Tally(table: change.table, operation: change.operation, count: 1))
        }
        if members.count < Self.shownMembers {
            members.append(Member(seq: change.seq, table: change.table, operation: change.operation, row: entry.row(writes: writes, group: key), json: entry.json(writes: writes).rendered))
        }
    }

    /// How far back ``extend(_:)`` looks for the start of a group (in seqs).
    static let longestExtension: Int64 = 200_000

    /// The group with the entries before it that go on it (from the journal, counted, without
    /// values).
    mutating func extend(with run: JournalRun) {
        from = min(from, run.first)
        mayGoOn = run.mayGoOn
        for counted in run.counts {
            if let index = tallies.firstIndex(where: { $0.table == counted.table && $0.operation == counted.operation }) {
                tallies[index].count += counted.count
            } else {
                tallies.append(Tally(table: counted.table, operation: counted.operation, count: counted.count))
            }
        }
    }

    /// What the group holds, in words: `2,000 inserts into customers, 1 update of orders`.
    static func summary(_ tallies: [Tally]) -> String {
        tallies.map { tally in
            let noun = tally.count == 1 ? tally.operation.rawValue : tally.operation.rawValue + "s"
            let preposition = tally.operation == .insert ? "into" : tally.operation == .delete ? "from" : "of"
            return "\(tally.count.formatted()) \(noun) \(preposition) \(tally.table)"
        }.joined(separator: ", ")
    }

    /// The feed page listing every entry of the group (with the page's filters).
    func path(_ filters: QueryString) -> String {
        "/feed" + filters.setting("from", String(from)).setting("through", String(through)).encoded
    }
}

extension FeedGroup {
    /// Builds groups from entries read in seq order, a batch at a time, keeping only each
    /// group's first members: a transaction of any size passes through in bounded memory.
    struct Builder {
        let columnOrders: [String: [String]]
        let writes: Bool
        private(set) var open: FeedGroup?

        init(columnOrders: [String: [String]], writes: Bool) {
            self.columnOrders = columnOrders
            self.writes = writes
        }

        /// Adds `changes` (after every entry added before) and returns the groups they closed.
        mutating func add(_ changes: [Change]) -> [FeedGroup] {
            var closed: [FeedGroup] = []
            for change in changes {
                let entry = FeedEntry(change: change, columnOrder: columnOrders[change.table] ?? [])
                if var group = open, group.takes(change) {
                    group.add(entry, writes: writes)
                    open = group
                } else {
                    if let group = open { closed.append(group) }
                    open = FeedGroup(entry, writes: writes)
                }
            }
            return closed
        }

        /// Closes the open group, if any.
        mutating func finish() -> FeedGroup? {
            defer { open = nil }
            return open
        }
    }

    /// `changes` (in seq order) grouped.
    static func grouping(_ changes: [Change], columnOrders: [String: [String]], writes: Bool) -> [FeedGroup] {
        var builder = Builder(columnOrders: columnOrders, writes: writes)
        var groups = builder.add(changes)
        if let last = builder.finish() { groups.append(last) }
        return groups
    }
}

extension FeedGroup {
    /// The group as one client sees it: only entries of `table` and `operation` when given,
    /// and only those after `cursor`; `nil` when none is left.
    func filtered(table: String?, operation: Change.Operation?, after cursor: Int64) -> FeedGroup? {
        guard through > cursor else { return nil }
        let keeps = { (name: String, op: Change.Operation) in name == (table ?? name) && op == (operation ?? op) }
        var copy = self
        copy.members = members.filter { $0.seq > cursor && keeps($0.table, $0.operation) }
        if from > cursor {
            copy.tallies = tallies.filter { keeps($0.table, $0.operation) }
        } else {
            // Partly sent already: what is left is what the kept members say.
            copy.tallies = copy.members.reduce(into: []) { tallies, member in
                if let index = tallies.firstIndex(where: { $0.table == member.table && $0.operation == member.operation }) {
                    tallies[index].count += 1
                } else {
                    tallies.append(Tally(table: member.table, operation: member.operation, count: 1))
                }
            }
        }
        return copy.count == 0 ? nil : copy
    }

    /// The group's server-sent event: one entry is an event `change` (its id the entry's seq),
    /// more are an event `group` with the first members and a link to all of them (its id the
    /// group's last seq, so a reconnecting browser resumes after the group).
    func event(_ filters: QueryString) -> String {
        if count == 1, let member = members.first {
            return "event: change\nid: \(member.seq)\ndata: \(member.json)\n\n"
        }
        let header = JSONValue.object([
            ("from", .integer(from)), ("through", .integer(through)), ("count", .integer(Int64(count))), ("time", .string(time)),
            ("summary", .string(Self.summary(tallies))), ("open", .string(path(filters))),
        ]).rendered
        let entries = members.map(\.json).joined(separator: ",")
        return "event: group\nid: \(through)\ndata: \(header.dropLast()),\"entries\":[\(entries)]}\n\n"
    }

    /// The group on a feed page: one entry as its row; more as a line that says what they are
    /// and links to them all, followed by the kept entries' rows, hidden until the line is
    /// opened (by the page's script; without it, the link lists them).
    func rows(_ filters: QueryString) -> HTML {
        if count == 1 { return soloRow }
        let shown = members.count < count ? " (\(members.count) of them below)" : ""
        return """
            <tr class="group" data-seq="\(through)" data-group="\(key)"><td class="num">#\(from)–#\(through)</td><td class="time">\(time)</td>\
            <td colspan="5"><button type="button" class="toggle" hidden aria-expanded="false">▸</button> \
            <a class="group-link" href="\(path(filters))">\(mayGoOn ? "at least " : "")\(count.formatted()) entries written together</a>: \(Self.summary(tallies))\(shown)</td></tr>
            \(members.reversed().map(\.row))
            """
    }
}
#endif

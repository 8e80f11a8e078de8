#if SIGNALSTORE_INSPECTOR
import Hummingbird
import SignalStore
import Signals

/// The live pages (overview, table, row history) rendered once per commit for every viewer.
///
/// Each open live page reloads itself after every commit, so fifty tabs on one table would
/// read and count it fifty times for each commit. Here the first request for an address after
/// a commit renders it; requests for the same address that arrive while it renders, or later
/// before the next commit, get the same page. A page is the same for every viewer (the token
/// is the inspector's own), so only the address, the feed's newest entry, the schema and the
/// file's state decide it.
///
/// A page may show commits newer than the stamp it is kept under (one landed while it
/// rendered), never older ones: a viewer reloading for entry N always gets a page that has it.
final class LivePageCache: Sendable {
    /// What a page was rendered for, besides its address.
    struct Stamp: Equatable, Sendable {
        let newestSeq: Int64
        let schemaVersion: Int64
        let fileChange: String?
    }

    private struct Slot {
        let stamp: Stamp
        let page: Task<Response, Never>
        var lastUse: UInt64
    }

    private struct State {
        var slots: [String: Slot] = [:]
        var uses: UInt64 = 0
    }

    /// How many addresses are kept; the least recently used goes first.
    static let capacity = 64

    private let state = Locked(State())

    /// The page at `address` for the database as it is now: the kept one if nothing was
    /// committed since it was rendered, else `render`'s, shared with every request for the
    /// address that arrives before it is done.
    func page(at address: String, of inspector: Inspector, render: @escaping @Sendable () -> Response) async -> Response {
        guard let stamp = Self.stamp(inspector) else { return render() }
        let page = state.withLock { state -> Task<Response, Never> in
            state.uses += 1
            if let slot = state.slots[address], slot.stamp == stamp {
                state.slots[address]?.lastUse = state.uses
                return slot.page
            }
            let page = Task { render() }
            state.slots[address] = Slot(stamp: stamp, page: page, lastUse: state.uses)
            if state.slots.count > Self.capacity, let oldest = state.slots.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                state.slots[oldest] = nil
            }
            return page
        }
        return await page.value
    }

    /// The database's state as the page would show it; `nil` when it cannot be read (the page
    /// then renders its own error, uncached).
    private static func stamp(_ inspector: Inspector) -> Stamp? {
        let read = try? inspector.store.readConnection { connection in
            (try Journal.highestSeq(connection), try connection.schemaVersion())
        }
        return read.map { Stamp(newestSeq: $0.0, schemaVersion: $0.1, fileChange: inspector.fileChange) }
    }
}
#endif

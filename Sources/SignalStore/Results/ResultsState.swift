import Foundation

/// What a ``LiveResults`` holds behind its lock: the ordered rows, the objects read so far
/// (aligned with the rows), and how far the journal has been applied.
struct ResultsState<Model: PersistentModel> {
    private(set) var index = ResultsIndex(ordering: ResultsOrdering(terms: []), rows: [])
    /// The ordering the rows are placed by; `nil` when the query re-runs instead.
    private(set) var ordering: ResultsOrdering?
    /// The object of each row, once read.
    private(set) var objects: [Model?] = []
    /// The journal is applied through this entry.
    private(set) var seq: Int64 = 0
    /// The last incremental step or query failed: the next commit runs the query again.
    var needsRerun = false
    /// Whether a query has succeeded yet (a result that never could be read sends nothing).
    private(set) var hasResult = false
    /// Whether the rows are every matching row: always without a limit; for a window, while it
    /// is not full.
    private(set) var isComplete = true

    var rowIDs: [Int64] { index.rowIDs }

    /// What a batch asks of the result.
    enum Plan {
        /// Run the whole query again; `touched` are the result's rows the batch changed.
        case rerun(touched: Set<Int64>)
        /// Place the `changed` rows: `read` must be read again; `told` the commit's entries
        /// told, with their keys (`nil`: no longer members); `kept` changed only in columns the
        /// filter and order do not read, so a member stays where it is (as a modification) and
        /// a row that is not one stays out. The children of `parents` are read again too.
        case rows(changed: Set<Int64>, read: Set<Int64>, told: [Int64: [SQLiteValue]?], kept: Set<Int64>, ResultsOrdering, parents: ParentChanges)
    }

    /// Starts over from a whole query's rows.
    mutating func reset(_ rows: ResultsQuery<Model>.Rows) {
        index = ResultsIndex(ordering: rows.ordering ?? ResultsOrdering(terms: []), rows: rows.rows)
        ordering = rows.ordering
        objects = Array(repeating: nil, count: index.count)
        missing = Set(index.rowIDs)
        seq = rows.seq
        isComplete = rows.isComplete
        needsRerun = false
        hasResult = true
    }

    /// What `routed` asks for, or `nil` when it changes nothing here (the journal position then
    /// moves past it).
    mutating func plan(for routed: ResultsRouter.Routed, query: ResultsQuery<Model>, _ membership: JournalMembership) -> Plan? {
        guard routed.through > seq else { return nil }
        let after = routed.changes.drop { $0.seq <= seq }
        // What membership and order read; `nil`: unknown, so any column may change them.
        let dependencies = ordering.flatMap { ordering in
            query.filterColumns.map { $0.union(ordering.terms.map { $0.term.ownColumn.lowercased() }) }
        }
        let rows = BatchRows(after, table: Model._$table, stableColumns: query.stableColumns, dependencies: dependencies)
        let (changed, read, gone) = (rows.changed, rows.read, rows.gone)
        if needsRerun || (hasResult && routed.skippedEntries) || (query.readsOtherTables && !after.isEmpty) { return .rerun(touched: changed) }
        guard let parents = query.parentReads.isEmpty ? ParentChanges() : ParentChanges(after, reads: query.parentReads) else {
            return .rerun(touched: changed)
        }
        let kept = rows.valueOnly.subtracting(read).subtracting(gone).filter(index.contains)
        guard !read.isEmpty || !kept.isEmpty || gone.contains(where: index.contains) || !parents.isEmpty else {
            seq = routed.through
            return nil
        }
        guard let ordering else { return .rerun(touched: changed) }
        // A window holds only its first rows: whether a row after it matches is not known here.
        guard query.limit == nil, !read.isEmpty else { return .rows(changed: changed, read: read, told: [:], kept: kept, ordering, parents: parents) }
        let index = index
        let (told, unread) = membership.tell(read, from: after, table: Model._$table, carrying: ordering.carried) { rowID in
            index.key(of: rowID)
        }
        return .rows(changed: changed, read: unread, told: told, kept: kept, ordering, parents: parents)
    }

    /// The sort keys of the members among `rowIDs`, children of a parent whose entries set
    /// `values` (its columns, lowercased): each term that reads one of those columns through
    /// `link` takes its new value, the rest of the key stays; each goes into `keys`. Rows that
    /// are not members have none.
    func keys(ofChildren rowIDs: Set<Int64>, through link: ParentJoin, setting values: [String: SQLiteValue], into keys: inout [Int64: [SQLiteValue]]) {
        guard let ordering else { return }
        var replaced: [(term: Int, value: SQLiteValue)] = []
        for term in 0..<ordering.terms.count where ordering.terms[term].term.link == link {
            if let value = values[ordering.terms[term].term.column.lowercased()] { replaced.append((term, value)) }
        }
        keys.reserveCapacity(keys.count + rowIDs.count)
        for rowID in rowIDs {
            guard var key = index.key(of: rowID) else { continue }
            var term = 0   // a counter, not an iterator: a debug build makes one generically per row
            while term < replaced.count {
                key[replaced[term].term] = replaced[term].value
                term += 1
            }
            keys[rowID] = key
        }
    }

    /// Places the rows a batch changed: `current` are those read that match now, with their
    /// keys; `kept` members keep theirs.
    mutating func apply(changed: Set<Int64>, current: [Int64: [SQLiteValue]], kept: Set<Int64>, through last: Int64) -> ResultsDiff {
        var current = current
        for rowID in kept { current[rowID] = index.key(of: rowID) }
        let (diff, leaving) = index.apply(changed: changed, current: current)
        // The deleted rows' ids: the deletions are some of the leaving rows' indices, both ascending.
        var deleted: [Int64] = []
        deleted.reserveCapacity(diff.deletions.count)
        var cursor = 0
        for index in diff.deletions {
            while leaving[cursor].index != index { cursor += 1 }
            deleted.append(leaving[cursor].rowID)
        }
        realign(diff, deleted: deleted)
        seq = max(seq, last)
        return diff
    }

    /// Places the rows a batch changed in a window of the first `limit` rows: as ``apply(changed:current:kept:through:)``,
    /// then a row that lands after the window's last one stays out (the rows between are not
    /// known here), the window keeps its first `limit` rows, and a window that rows left is
    /// refilled with the next ones, `refill(window's rows, how many)`.
    mutating func apply(
        changed: Set<Int64>, current: [Int64: [SQLiteValue]], kept: Set<Int64>, through last: Int64,
        window limit: Int, refill: (_ window: [Int64], _ count: Int) throws -> [Int64: [SQLiteValue]]
    ) rethrows -> ResultsDiff {
        var current = current
        for rowID in kept { current[rowID] = index.key(of: rowID) }
        let before = index.rowIDs
        // Every matching row up to the window's last one is a member or changed here; of the
        // rows after it, only the changed ones are known.
        let boundary = isComplete ? nil : index.last
        index.apply(changed: changed, current: current)
        if index.trim(after: boundary, limit: limit) { isComplete = false }
        if index.count < limit, !isComplete {
            let needed = limit - index.count
            let next = try refill(index.rowIDs, needed)
            index.apply(changed: Set(next.keys), current: next)
            isComplete = next.count < needed
        }
        let diff = ResultsDiff(old: before, new: index.rowIDs, touched: changed)
        realign(diff, deleted: diff.deletions.map { before[$0] })
        seq = max(seq, last)
        return diff
    }

    /// Takes a whole query's rows, diffed against the current ones.
    mutating func replace(with rows: ResultsQuery<Model>.Rows, touched: Set<Int64>, through last: Int64) -> ResultsDiff {
        let before = index.rowIDs
        let diff = ResultsDiff(old: before, new: rows.rows.map(\.rowID), touched: touched)
        let kept = keptObjects(before)
        reset(rows)
        objects = index.rowIDs.map { kept[$0] }
        missing = Set(index.rowIDs.filter { kept[$0] == nil })
        seq = max(rows.seq, last)
        return diff
    }

    /// Moves the objects along with the rows (`deleted`: the rowid of each of the diff's
    /// deletions): a few changes in place (a row that moved keeps its object), many by moving the
    /// runs between them as words (an object reference is one word, `nil` is zero): no retain,
    /// and one `memmove` per run instead of a generic move per object. A retain of every object
    /// of a long list costs more than the rest of an update (live objects have side tables, so
    /// each takes the slow path), and so did a generic move per object, which looks up
    /// `Model?`'s metadata each time.
    private mutating func realign(_ diff: ResultsDiff, deleted: [Int64]) {
        if !missing.isEmpty {
            for rowID in deleted { missing.remove(rowID) }
        }
        var moved: [Int64: Model] = [:]
        guard diff.deletions.count + diff.insertions.count > 32 else {
            var offset = deleted.count - 1
            while offset >= 0 {
                if let object = objects.remove(at: diff.deletions[offset]) { moved[deleted[offset]] = object }
                offset -= 1
            }
            for index in diff.insertions { place(moved[self.index.rowIDs[index]], at: index, inserting: true) }
            return
        }
        // Room for the inserted rows (nil), then, as words: take the deleted rows' objects out
        // (each word's reference moves into `moved`, the word becomes nil), close the gaps, zero
        // the words after the kept ones (their references moved too) and open the inserted
        // rows' slots; then put back the objects of rows that moved.
        let (oldCount, newCount) = (objects.count, index.count)
        if newCount > oldCount { objects.append(contentsOf: [Model?](repeating: nil, count: newCount - oldCount)) }
        withObjectWords { words in
            var offset = 0
            while offset < deleted.count {
                let position = diff.deletions[offset]
                if let reference = UnsafeRawPointer(bitPattern: words[position]) {
                    moved[deleted[offset]] = Unmanaged<Model>.fromOpaque(reference).takeRetainedValue()
                    words[position] = 0
                }
                offset += 1
            }
            let kept = RunMoves.close(UnsafeMutableBufferPointer(rebasing: words[..<oldCount]), at: diff.deletions)
            if let base = words.baseAddress, oldCount > kept { memset(base + kept, 0, (oldCount - kept) * MemoryLayout<UInt>.stride) }
            RunMoves.open(UnsafeMutableBufferPointer(rebasing: words[..<newCount]), at: diff.insertions) { _ in 0 }
        }
        if oldCount > newCount { objects.removeLast(oldCount - newCount) }
        let rowIDs = index.rowIDs
        var inserted = 0   // a counter, not an iterator: a debug build makes one generically
        while inserted < diff.insertions.count {
            let position = diff.insertions[inserted]
            if let object = moved[rowIDs[position]] { objects[position] = object } else { missing.insert(rowIDs[position]) }
            inserted += 1
        }
    }

    /// The objects as words (a class reference or `nil`, one word each), to move without
    /// retaining. Every word must hold exactly one reference when `body` returns.
    private mutating func withObjectWords(_ body: (UnsafeMutableBufferPointer<UInt>) -> Void) {
        precondition(MemoryLayout<Model?>.stride == MemoryLayout<UInt>.stride)
        objects.withUnsafeMutableBufferPointer { objects in
            objects.withMemoryRebound(to: UInt.self, body)
        }
    }

    /// Puts a row's object (or none yet) at `position`, inserted or into an empty slot.
    private mutating func place(_ object: Model?, at position: Int, inserting: Bool) {
        if inserting { objects.insert(object, at: position) } else { objects[position] = object }
        if object == nil { missing.insert(index.rowIDs[position]) }
    }

    private func keptObjects(_ rowIDs: [Int64]) -> [Int64: Model] {
        var kept: [Int64: Model] = [:]
        for (offset, object) in objects.enumerated() {
            if let object { kept[rowIDs[offset]] = object }
        }
        return kept
    }

    /// The rows that have no object yet (kept, so a result finds them without walking its
    /// objects: each step of such a walk retains an object).
    private(set) var missing: Set<Int64> = []

    /// The rows whose objects have not been read.
    var missingRowIDs: [Int64] {
        Array(missing)
    }

    /// Every object, in order, when all have been read. The array of optionals is handed out
    /// as an array of objects: for a class, `Optional` stores `nil` as the null pointer, so the
    /// two share their layout, and the result's buffer is shared (copy-on-write) instead of
    /// copied with a retain of each of its n objects, which would make every update O(n).
    var allObjects: [Model]? {
        guard missing.isEmpty else { return nil }
        return unsafeBitCast(objects, to: [Model].self)
    }

    /// Keeps the objects read for many rows, each wherever its row is now. When they are a good
    /// part of the result (a first read of every row), or the rows have no ordering to search
    /// by, one walk of the rows places them all: O(n) lookups rather than O(k log n) comparisons
    /// of keys, or O(k × n) for a linear search each.
    mutating func keep(_ loaded: [Int64: Model]) {
        guard ordering == nil || loaded.count * 16 > index.count else {
            for (rowID, object) in loaded { keep(object, rowID: rowID, near: nil) }
            return
        }
        for (position, rowID) in index.rowIDs.enumerated() {
            guard let object = loaded[rowID], missing.remove(rowID) != nil else { continue }
            objects[position] = object
        }
    }

    /// Keeps an object read for a row, at `position` if the row is still there, else wherever
    /// the row is now.
    mutating func keep(_ object: Model, rowID: Int64, near position: Int?) {
        let found: Int?
        if let position, index.rowIDs.indices.contains(position), index.rowIDs[position] == rowID {
            found = position
        } else if ordering != nil {
            found = index.index(of: rowID)
        } else {
            found = index.rowIDs.firstIndex(of: rowID)
        }
        guard let found, missing.remove(rowID) != nil else { return }
        objects[found] = object
    }
}

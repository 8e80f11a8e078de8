/// One group's totals in a live aggregate, kept from each changed row's old and new value.
struct AggregateTotals: Sendable, Equatable {
    /// The rows of the group.
    var rows = 0
    /// Its rows whose value is not NULL (what `sum`, `average`, `minimum` and `maximum` see).
    var values = 0
    var integerSum: Int64 = 0
    var realSum: Double = 0
    /// The values summed that are not integers (REAL, TEXT, BLOB): while there is one, the sum
    /// is a REAL, as SQLite's `sum` makes it.
    var nonIntegers = 0
    var sumIsReal: Bool { nonIntegers != 0 }
    /// How many times the integer sum wrapped past `Int64`, up (+1) or down (-1): the exact sum
    /// is `integerSum + carry × 2⁶⁴`, so it fits again once the value that took it past leaves.
    var carry = 0
    /// The integer sum is past `Int64`: SQLite's `sum` fails there too.
    var overflowed: Bool { carry != 0 }
    var minimum: SQLiteValue?
    var maximum: SQLiteValue?

    /// The sum as SQLite's `sum` gives it (0 for no values): a REAL while a value is not an
    /// integer, else an INTEGER, or `nil` past `Int64`.
    var sum: SQLiteValue? {
        if sumIsReal { return .real(realSum + exactIntegerSum) }
        return overflowed ? nil : .integer(integerSum)
    }

    /// The mean of the values, `nil` for none.
    var average: Double? {
        values == 0 ? nil : (realSum + exactIntegerSum) / Double(values)
    }

    /// The integer values' sum, past `Int64` too.
    private var exactIntegerSum: Double {
        Double(integerSum) + Double(carry) * 0x1p64
    }

    mutating func add(_ value: SQLiteValue, sign: Int64) {
        rows += Int(sign)
        guard value != .null else { return }
        values += Int(sign)
        switch value {
        case .integer(let number):
            let adding = sign > 0
            let (sum, overflow) = adding ? integerSum.addingReportingOverflow(number) : integerSum.subtractingReportingOverflow(number)
            integerSum = sum
            if overflow { carry += (number >= 0) == adding ? 1 : -1 }
        case .real(let number):
            realSum += Double(sign) * number
            nonIntegers += Int(sign)
        case .text(let text):
            realSum += Double(sign) * (Double(text) ?? 0)
            nonIntegers += Int(sign)
        case .blob:
            nonIntegers += Int(sign)
        case .null:
            break
        }
    }
}

/// What a live aggregate holds: each member row's group and value, and each group's totals.
/// A value type with no lock and no I/O; ``LiveAggregate`` owns one behind its lock.
struct AggregateState {
    struct Member: Equatable {
        let group: SQLiteValue
        let value: SQLiteValue
    }

    private(set) var members: [Int64: Member] = [:]
    /// Whether each group's minimum and maximum are kept (a count, sum or average needs neither).
    let keepsExtremes: Bool
    private(set) var groups: [SQLiteValue: AggregateTotals] = [:]
    /// Groups whose minimum or maximum left: they are read again.
    private(set) var staleExtremes: Set<SQLiteValue> = []
    /// The totals, before this step, of each group it touched (`nil`: the group was absent).
    private var totalsBefore: [SQLiteValue: AggregateTotals?] = [:]
    /// The journal is applied through this entry.
    var seq: Int64 = 0
    /// Counts the steps that changed the totals: a copy of ``groups`` at version `v` holds every
    /// change up to `v`.
    private(set) var version = 0
    /// The last step failed or entries were skipped: the next commit reads everything again.
    var needsRerun = false
    private(set) var hasResult = false

    init(keepsExtremes: Bool) {
        self.keepsExtremes = keepsExtremes
    }

    /// Starts over from every member row.
    mutating func reset(_ rows: [(rowID: Int64, member: Member)], through seq: Int64) {
        members = [:]
        groups = [:]
        staleExtremes = []
        for (rowID, member) in rows { add(member, rowID) }
        totalsBefore = [:]
        version += 1
        self.seq = seq
        needsRerun = false
        hasResult = true
    }

    /// Replaces the members among `rowIDs` with `current` (those that match now).
    mutating func replace(_ rowIDs: Set<Int64>, with current: [Int64: Member]) {
        for rowID in rowIDs {
            let old = members[rowID]
            let new = current[rowID]
            guard old != new else { continue }
            if let old { noteBefore(old.group); remove(old, rowID) }
            if let new { noteBefore(new.group); add(new, rowID) }
        }
    }

    /// The totals of each group that differs from what it was before the steps since the last
    /// call (`nil`: the group has no rows now), and starts again: what a commit changed, found
    /// without looking at the other groups. A change that is not empty is a new version.
    mutating func takeChanges() -> [SQLiteValue: AggregateTotals?] {
        var changes = [SQLiteValue: AggregateTotals?]()
        for (group, before) in totalsBefore {
            let now = groups[group]
            if now != before { changes[group] = .some(now) }
        }
        totalsBefore = .init()
        if !changes.isEmpty { version += 1 }
        return changes
    }

    /// Takes the minimum and maximum read again for the stale groups.
    mutating func setExtremes(_ extremes: [SQLiteValue: (minimum: SQLiteValue, maximum: SQLiteValue)]) {
        for group in staleExtremes where groups[group] != nil {
            groups[group]?.minimum = extremes[group]?.minimum
            groups[group]?.maximum = extremes[group]?.maximum
        }
        staleExtremes = []
    }

    private mutating func add(_ member: Member, _ rowID: Int64) {
        members[rowID] = member
        var totals = groups[member.group] ?? AggregateTotals()
        totals.add(member.value, sign: 1)
        if keepsExtremes, member.value != .null, !staleExtremes.contains(member.group) {
            if totals.minimum.map({ Self.compare(member.value, $0) < 0 }) ?? true { totals.minimum = member.value }
            if totals.maximum.map({ Self.compare(member.value, $0) > 0 }) ?? true { totals.maximum = member.value }
        }
        groups[member.group] = totals
    }

    private mutating func remove(_ member: Member, _ rowID: Int64) {
        members[rowID] = nil
        guard var totals = groups[member.group] else { return }
        totals.add(member.value, sign: -1)
        if totals.rows == 0 {
            groups[member.group] = nil
            staleExtremes.remove(member.group)
            return
        }
        if keepsExtremes, member.value != .null, member.value == totals.minimum || member.value == totals.maximum {
            staleExtremes.insert(member.group)
        }
        groups[member.group] = totals
    }

    private mutating func noteBefore(_ group: SQLiteValue) {
        if totalsBefore.index(forKey: group) == nil { totalsBefore[group] = .some(groups[group]) }
    }

    /// SQLite's order of two values (numbers by value, text by bytes).
    static func compare(_ a: SQLiteValue, _ b: SQLiteValue) -> Int {
        ResultsOrdering.compare(a, b, .binary)
    }
}

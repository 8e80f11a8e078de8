import Foundation

/// How a live result orders its rows: the `ORDER BY` terms on the model's own columns, each
/// with its direction and collation, then the rowid. Compares rows exactly as SQLite's
/// `ORDER BY` does, so a row placed by ``areInIncreasingOrder(_:_:)`` lands where a fresh query
/// would put it:
/// - NULL sorts first, then numbers (INTEGER and REAL compared by value), then TEXT (by the
///   collation), then BLOB (byte by byte); `DESC` reverses that, NULL last.
/// - TEXT compares by the term's `COLLATE`, else the column's declared collation: `BINARY`
///   (UTF-8 bytes), `NOCASE` (ASCII letters folded) or `RTRIM` (trailing spaces ignored).
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#sort_order>,
/// <https://www.sqlite.org/datatype3.html#collation>
struct ResultsOrdering: Sendable {
    /// SQLite's built-in collating functions.
    enum Collation: String, Sendable {
        case binary = "BINARY"
        case noCase = "NOCASE"
        case rightTrim = "RTRIM"

        /// The collation `column` of `table` declares (`BINARY` when it declares none), read
        /// from `schema`; `nil` for one that is not built in, or no such column.
        init?(declaredBy column: String, of table: String, _ schema: SchemaCache, _ connection: Connection) {
            guard let name = try? schema.table(table, connection)?.column(named: column)?.collation else { return nil }
            self.init(rawValue: name.uppercased())
        }
    }

    /// One `ORDER BY` term: a column of the model's table, or of its parent's through a link.
    struct Term: Sendable, Equatable {
        let column: String
        let descending: Bool
        /// The `COLLATE` the term names; `nil` takes the column's.
        let explicitCollation: Collation?
        /// The `@Parent` link whose table holds `column`; `nil`: the model's own table.
        let link: ParentJoin?

        init(column: String, descending: Bool, explicitCollation: Collation?, link: ParentJoin? = nil) {
            self.column = column
            self.descending = descending
            self.explicitCollation = explicitCollation
            self.link = link
        }

        /// The value the term sorts by, as an expression of the model's query.
        var value: String {
            if let link { return link.value(of: column).text }
            return column == "rowid" ? "rowid" : SQL("\(identifier: column)").text
        }

        /// The column of the model's own table the term reads: its own, or the link's key.
        var ownColumn: String { link?.keyColumn ?? column }

        /// The term as SQL: `value [COLLATE name] ASC|DESC`.
        var sql: String {
            let collation = explicitCollation.map { " COLLATE \($0.rawValue)" } ?? ""
            return value + collation + (descending ? " DESC" : " ASC")
        }
    }

    /// The terms, with the collation each compares by.
    let terms: [(term: Term, collation: Collation)]
    /// Each term's direction and collation, apart: a comparison reads these two words and never
    /// copies a term (with its strings), which cost a retain and a release per term compared.
    private let directions: [(descending: Bool, collation: Collation)]

    init(terms: [(term: Term, collation: Collation)]) {
        self.terms = terms
        directions = terms.map { ($0.term.descending, $0.collation) }
    }

    /// The columns a row's sort key holds, in term order (each quoted), for a `SELECT`.
    var keyColumnsSQL: String {
        terms.map { $0.term.value }.joined(separator: ", ")
    }

    /// The sort key as a commit's entries tell it (``JournalMembership``): a column of the
    /// model's own, the rowid, or a parent's column, held while the row keeps its parent.
    var carried: [JournalMembership.Carried] {
        terms.map { resolved in
            let term = resolved.term
            if let link = term.link { return .held(link: link.keyColumn.lowercased()) }
            return term.column.lowercased() == "rowid" ? .rowID : .column(term.column.lowercased())
        }
    }

    /// Whether row `a` (its rowid and sort key) comes before row `b`.
    func areInIncreasingOrder(_ a: (rowID: Int64, key: [SQLiteValue]), _ b: (rowID: Int64, key: [SQLiteValue])) -> Bool {
        var index = 0   // a counter, not `indices`: a debug build asks the runtime for those each call
        while index < directions.count {
            let direction = directions[index]
            let order = Self.compare(a.key[index], b.key[index], direction.collation)
            if order != 0 { return direction.descending ? order > 0 : order < 0 }
            index += 1
        }
        return a.rowID < b.rowID
    }

    /// SQLite's comparison of two stored values: negative, zero or positive.
    static func compare(_ a: SQLiteValue, _ b: SQLiteValue, _ collation: Collation) -> Int {
        let (rankA, rankB) = (rank(a), rank(b))
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.integer(let x), .real(let y)): return compareExactly(x, y)
        case (.real(let x), .integer(let y)): return -compareExactly(y, x)
        case (.real(let x), .real(let y)): return compareNumbers(x, y)
        case (.text(let x), .text(let y)): return compareText(x, y, collation)
        case (.blob(let x), .blob(let y)): return compareBytes(x, y)
        default: return 0   // both NULL
        }
    }

    /// NULL, numbers, TEXT, BLOB.
    private static func rank(_ value: SQLiteValue) -> Int {
        switch value {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        case .blob: 3
        }
    }

    /// An INTEGER against a REAL by their exact values, as SQLite compares them (through
    /// `Double`, two integers past 2^53 would compare equal to one real).
    static func compareExactly(_ x: Int64, _ y: Double) -> Int {
        if y.isNaN { return 1 }
        if y >= 9_223_372_036_854_775_808.0 { return -1 }   // 2^63: above every Int64
        if y < -9_223_372_036_854_775_808.0 { return 1 }
        let floor = y.rounded(.down)
        let whole = Int64(floor)
        if x != whole { return x < whole ? -1 : 1 }
        return floor == y ? 0 : -1
    }

    private static func compareNumbers(_ x: Double, _ y: Double) -> Int {
        x < y ? -1 : (x == y ? 0 : 1)
    }

    private static func compareText(_ x: String, _ y: String, _ collation: Collation) -> Int {
        switch collation {
        case .binary:
            // `withUTF8` returns what its body returns: a debug build would look up the type of
            // an optional result (`withContiguousStorageIfAvailable`) at every comparison.
            var (x, y) = (x, y)
            return x.withUTF8 { a in y.withUTF8 { b in compareMemory(a, b) } }
        case .noCase:
            return compareBytes(x.utf8.lazy.map(foldASCII), y.utf8.lazy.map(foldASCII))
        case .rightTrim:
            return compareBytes(trimmingTrailingSpaces(x.utf8), trimmingTrailingSpaces(y.utf8))
        }
    }

    private static func foldASCII(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    private static func trimmingTrailingSpaces(_ bytes: String.UTF8View) -> ArraySlice<UInt8> {
        let array = Array(bytes)
        var end = array.endIndex
        while end > array.startIndex, array[end - 1] == 0x20 { end -= 1 }
        return array[..<end]
    }

    /// `memcmp` order, shorter first on a common prefix, of two buffers.
    private static func compareMemory(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let order = memcmp(left, right, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// `memcmp` order, shorter first on a common prefix.
    private static func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Int {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }
}

extension ResultsOrdering {
    /// The ordering of an `ORDER BY` fragment on `table`'s columns, or `nil` when it is not a
    /// plain list of `column [COLLATE name] [ASC|DESC]` terms whose collations are built in (an
    /// expression, `NULLS FIRST`, a collation of the app's own): such a result re-runs its
    /// query instead.
    static func parse(_ fragment: String?, table: String, columns: [String], _ schema: SchemaCache, _ connection: Connection) -> ResultsOrdering? {
        guard let fragment, !fragment.trimmingCharacters(in: .whitespaces).isEmpty else { return ResultsOrdering(terms: []) }
        var terms: [Term] = []
        for part in fragment.split(separator: ",", omittingEmptySubsequences: false) {
            guard let term = Term(parsing: Substring(part)) else { return nil }
            let column = term.column.caseInsensitiveCompare("rowid") == .orderedSame
                ? "rowid" : columns.first { $0.caseInsensitiveCompare(term.column) == .orderedSame }
            guard let column else { return nil }
            terms.append(Term(column: column, descending: term.descending, explicitCollation: term.explicitCollation))
        }
        return resolving(terms, table: table, schema, connection)
    }

    /// The ordering of `terms` on `table`'s columns (a typed ordering's, or a parsed fragment's),
    /// each comparing by its `COLLATE` or else the column's declared collation; `nil` when that
    /// is not one of SQLite's built-in collations.
    static func resolving(_ terms: [Term], table: String, _ schema: SchemaCache, _ connection: Connection) -> ResultsOrdering? {
        var resolved: [(Term, Collation)] = []
        for term in terms {
            let collation = term.explicitCollation
                ?? (term.column == "rowid" && term.link == nil ? .binary : Collation(declaredBy: term.column, of: term.link?.parentTable ?? table, schema, connection))
            guard let collation else { return nil }
            resolved.append((term, collation))
        }
        // The rowid that ends every result's order is compared last anyway.
        while let last = resolved.last, last.0.column == "rowid", last.0.link == nil, !last.0.descending { resolved.removeLast() }
        return ResultsOrdering(terms: resolved)
    }
}

extension ResultsOrdering.Term {
    /// Parses `column [COLLATE name] [ASC|DESC]`; the column bare or quoted with `"`, `` ` ``
    /// or `[]`.
    init?(parsing text: Substring) {
        var words = Self.words(text)
        guard !words.isEmpty, let column = Self.identifier(words.removeFirst()) else { return nil }
        var collation: ResultsOrdering.Collation?
        var descending = false
        if words.count >= 2, words[0].uppercased() == "COLLATE" {
            guard let name = Self.identifier(words[1]), let known = ResultsOrdering.Collation(rawValue: name.uppercased()) else { return nil }
            collation = known
            words.removeFirst(2)
        }
        if let direction = words.first?.uppercased(), direction == "ASC" || direction == "DESC" {
            descending = direction == "DESC"
            words.removeFirst()
        }
        guard words.isEmpty else { return nil }
        self.init(column: column, descending: descending, explicitCollation: collation)
    }

    /// Splits on white space outside quotes.
    private static func words(_ text: Substring) -> [Substring] {
        var words: [Substring] = []
        var start: Substring.Index?
        var quote: Character?
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == (open == "[" ? "]" : open) { quote = nil }
                continue
            }
            if character.isWhitespace {
                if let begun = start { words.append(text[begun..<index]) }
                start = nil
            } else {
                if start == nil { start = index }
                if character == "\"" || character == "`" || character == "[" { quote = character }
            }
        }
        if let begun = start { words.append(text[begun...]) }
        return words
    }

    /// A bare or quoted identifier's name; `nil` for anything else (an expression).
    private static func identifier(_ word: Substring) -> String? {
        if let first = word.first, let last = word.last, word.count >= 2,
           (first == "\"" && last == "\"") || (first == "`" && last == "`") || (first == "[" && last == "]") {
            let inner = word.dropFirst().dropLast()
            return first == "[" ? String(inner) : inner.replacingOccurrences(of: "\(first)\(first)", with: "\(first)")
        }
        let isBare = word.first.map { $0.isLetter || $0 == "_" } == true && word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        return isBare ? String(word) : nil
    }
}

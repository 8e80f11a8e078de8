import Foundation

/// The key every member of a live result holds: `column IS value` for an integer (the children
/// of one parent, `\.customerID == 7`) or a text (`\.status == "open"`). Commits are routed by
/// it: a commit reaches the result only when a row it changed holds, or held, this key.
///
/// Keys are compared as routing keys (``routingKeys(of:)``), a superset of SQL's `IS`: a text
/// is folded (ASCII letters lowercased, trailing spaces dropped), so it meets every text that
/// `BINARY`, `NOCASE` or `RTRIM` finds equal. A result whose rows may hold more than its key
/// routes to is never keyed: a text that reads as a number (a column's numeric affinity may turn
/// it into one), or a column compared by a collation of the app's own (see
/// ``ResultsQuery/route(_:)``). The result decides membership by a query, so a superset only
/// costs a read.
struct ResultsKey: Sendable, Hashable {
    /// The column, as the model names it.
    let column: String
    /// `.integer`, or `.text` folded.
    let value: SQLiteValue

    /// The key of `column IS value`, or `nil` when commits cannot be routed by it.
    init?(column: String, equalTo value: SQLiteValue) {
        switch value {
        case .integer:
            self.column = column
            self.value = value
        case .text(let text) where Double(text.trimmingCharacters(in: .whitespaces)) == nil:
            self.column = column
            self.value = .text(Self.fold(text))
        default:
            return nil
        }
    }

    /// Whether the key is a text, which holds only where the column compares by a built-in
    /// collation.
    var isText: Bool {
        if case .text = value { return true }
        return false
    }

    /// The routing keys a stored value meets: the integer it equals under SQL's `IS` with an
    /// integer (an INTEGER, a REAL with no fraction, or TEXT of the digits a TEXT column compares
    /// an integer as, trailing spaces allowed), and a text's folded form.
    static func routingKeys(of stored: SQLiteValue) -> [SQLiteValue] {
        if let key = onlyRoutingKey(of: stored) { return [key] }   // every INTEGER among them
        switch stored {
        case .real(let value):
            return Int64(exactly: value).map { [.integer($0)] } ?? []
        case .text(let text):
            var digits = Substring(text)
            while digits.last == " " { digits.removeLast() }
            let folded = SQLiteValue.text(fold(text))
            guard let value = Int64(digits), String(value) == digits else { return [folded] }
            return [.integer(value), folded]
        case .integer, .null, .blob:
            return []
        }
    }

    /// The one routing key of the values most keys are, found without building a list: an
    /// INTEGER is its own, and so is a text that is its own folded form and reads as no integer.
    /// `nil` for any other value (see ``routingKeys(of:)``).
    static func onlyRoutingKey(of stored: SQLiteValue) -> SQLiteValue? {
        switch stored {
        case .integer: stored
        case .text(let text) where isFoldedWord(text): stored
        default: nil
        }
    }

    /// Whether `text` is its own folded form and reads as no integer: it does not begin with a
    /// digit or a sign, and holds no ASCII capital and no trailing space (`open`, `paid`). Most
    /// keys are such words, and checking costs less than folding and parsing.
    /// Reads the bytes through a pointer: a debug build iterates a `String` many times slower.
    private static func isFoldedWord(_ text: String) -> Bool {
        let checked = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            // Bytes as numbers: a debug build calls `UInt8(ascii:)`, `first` and `last` generically.
            guard var pointer = bytes.baseAddress, bytes.count > 0 else { return false }
            let end = pointer + bytes.count
            let first = pointer.pointee, last = end[-1]
            guard last != 0x20, !(first >= 0x30 && first <= 0x39), first != 0x2B, first != 0x2D else { return false }   // space, digit, +, -
            while pointer < end {
                if pointer.pointee >= 0x41 && pointer.pointee <= 0x5A { return false }   // A-Z
                pointer += 1
            }
            return true
        }
        return checked ?? false
    }

    /// A text with ASCII letters lowercased and trailing spaces dropped.
    private static func fold(_ text: String) -> String {
        var bytes = Array(text.utf8)
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        for index in bytes.indices where (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[index]) {
            bytes[index] += 32
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

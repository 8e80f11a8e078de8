import Foundation

/// A URL's query (`?table=orders&sort=id`): parsed as browsers send it (forms write a space as
/// `+`), and written for the inspector's links.
struct QueryString: Sendable {
    private(set) var pairs: [(name: String, value: String)]

    init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    /// Parses `query` (the part after `?`, without it). Malformed escapes are kept as typed.
    init(parsing query: String?) {
        pairs = (query ?? "").split(separator: "&").map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) -> String in
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(pieces[0]), pieces.count > 1 ? decode(pieces[1]) : "")
        }
    }

    /// The first value named `name`; `nil` if there is none or it is empty.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name && !$0.value.isEmpty }?.value
    }

    /// The value named `name` as a whole number in `range`; `nil` when the URL does not give it.
    /// Every number a page reads from its URL comes through here, so that no value a URL can
    /// carry, however large, reaches arithmetic that would trap.
    /// - Throws: ``CLIError`` naming the parameter and the numbers it takes, when the value is
    ///   not a whole number (`12`, `-3`) in `range`; the page answers it with 400.
    func number(_ name: String, in range: ClosedRange<Int64>) throws(CLIError) -> Int64? {
        guard let text = self[name] else { return nil }
        return try Self.number(text, named: name, in: range)
    }

    /// `text`, the value of `name` (a query parameter or a header), as a whole number in `range`.
    /// - Throws: ``CLIError`` naming `name` and the numbers it takes.
    static func number(_ text: String, named name: String, in range: ClosedRange<Int64>) throws(CLIError) -> Int64 {
        guard let number = Int64(text), range.contains(number) else {
            let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
            throw CLIError("\(name) must be a whole number from \(range.lowerBound.formatted()) to \(range.upperBound.formatted()), not \(shown); fix it in the address, or follow the page's own links")
        }
        return number
    }

    /// A copy with `name` set to `value` (removed when `nil`).
    func setting(_ name: String, _ value: String?) -> QueryString {
        var copy = self
        copy.pairs.removeAll { $0.name == name }
        if let value { copy.pairs.append((name, value)) }
        return copy
    }

    /// `?a=1&b=2`, percent-encoded; empty when there are no pairs.
    var encoded: String {
        let kept = pairs.filter { !$0.value.isEmpty }
        guard !kept.isEmpty else { return "" }
        return "?" + kept.map { Self.escape($0.name) + "=" + Self.escape($0.value) }.joined(separator: "&")
    }

    /// `text` with everything but unreserved characters percent-encoded: a query value or a
    /// path segment.
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

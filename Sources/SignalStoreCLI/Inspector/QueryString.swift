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

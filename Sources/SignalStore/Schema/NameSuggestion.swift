/// "Did you mean …?" for a name the user mistyped: a table, a column, a subcommand. The schema
/// check of a model uses it for a column the table lacks, and the CLI for everything typed.
///
/// A candidate matches when it is the same name in another case convention (`purchaseNum` and
/// `purchase_num`), or within a small edit distance (`ordrs` → `orders`).
package enum Suggestion {
    /// The closest of `candidates` to `typed`, if one is close enough to be what was meant.
    package static func closest(to typed: String, in candidates: [String]) -> String? {
        let key = normalized(typed)
        if let same = candidates.first(where: { normalized($0) == key }) { return same }
        let scored = candidates.map { ($0, distance(key, normalized($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, min(3, key.count / 3)) ? best.0 : nil
    }

    /// `" (did you mean orders?)"`, to follow the mistyped name in a message, or "" when
    /// nothing is close.
    package static func phrase(for typed: String, in candidates: [String]) -> String {
        closest(to: typed, in: candidates).map { " (did you mean \($0)?)" } ?? ""
    }

    /// Lowercased, without `_` and `-`: camelCase, snake_case and kebab-case compare equal.
    private static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    /// Edit distance counting a swap of two neighbouring letters as one edit (optimal string
    /// alignment): `gte` is one edit from `get`, as `ordrs` is from `orders`.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for (i, charA) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, charB) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (charA == charB ? 0 : 1))
                if i > 0, j > 0, charA == b[j - 1], a[i - 1] == charB {
                    current[j + 1] = min(current[j + 1], beforePrevious[j - 1] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}

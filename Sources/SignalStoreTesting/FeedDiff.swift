/// Two lists of lines side by side, the first difference named in a headline and marked with
/// `→`: what a failed feed expectation shows.
struct FeedDiff {
    let expected: [String]
    let actual: [String]
    /// Whether line `index` of each side is the same.
    let same: (Int) -> Bool

    /// The message, or `nil` when both sides agree.
    func message(_ subject: String) -> String? {
        guard let first = (0..<max(expected.count, actual.count)).first(where: { index in
            index >= expected.count || index >= actual.count || !same(index)
        }) else { return nil }
        return headline(subject, first) + "\n" + table(marking: first)
    }

    private func headline(_ subject: String, _ index: Int) -> String {
        let counts = "(expected \(expected.count) \(expected.count == 1 ? "entry" : "entries"), \(actual.count) arrived)"
        if index >= actual.count {
            return "\(subject) is missing entry \(index + 1) \(counts): \(expected[index])"
        }
        if index >= expected.count {
            return "\(subject) has an unexpected entry \(index + 1) \(counts): \(actual[index])"
        }
        return "\(subject) differs at entry \(index + 1) \(counts): expected \(expected[index]), got \(actual[index])"
    }

    private func table(marking first: Int) -> String {
        let width = min(60, max("expected".count, expected.map(\.count).max() ?? 0))
        func cell(_ text: String) -> String {
            text.count > width ? String(text.prefix(width - 1)) + "…" : text + String(repeating: " ", count: width - text.count)
        }
        var lines = ["    #  " + cell("expected") + " | actual"]
        for index in 0..<max(expected.count, actual.count) {
            let left = index < expected.count ? expected[index] : "(none)"
            let right = index < actual.count ? actual[index] : "(none)"
            let number = String(index + 1)
            let mark = index == first ? "  → " : "    "
            lines.append(mark + number + String(repeating: " ", count: max(1, 3 - number.count)) + cell(left) + " | " + right)
        }
        return lines.joined(separator: "\n")
    }
}

/// Rows printed as aligned columns under a header, for human output.
struct TextTable {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) {
        self.headers = headers
    }

    init(headers: [String]) {
        self.headers = headers
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The lines: the header, then each row; every column but the last padded to its widest
    /// cell.
    var lines: [String] {
        ([headers] + rows).map { format($0, widths: widths) }
    }

    /// The width of each column: its widest cell, header included.
    var widths: [Int] {
        let all = [headers] + rows
        return headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
    }

    /// The rows alone, padded to `widths` (a later page of a streamed table keeps the first
    /// page's alignment; a longer cell pushes its line's later cells right).
    func rowLines(widths: [Int]) -> [String] {
        rows.map { format($0, widths: widths) }
    }

    private func format(_ row: [String], widths: [Int]) -> String {
        row.enumerated().map { column, cell in
            column == row.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count))
        }.joined(separator: "  ").trimmingTrailingSpaces()
    }
}

extension String {
    /// The string without trailing spaces (a row whose last cells are empty).
    fileprivate func trimmingTrailingSpaces() -> String {
        var trimmed = Substring(self)
        while trimmed.last == " " { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}

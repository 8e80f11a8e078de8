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
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
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

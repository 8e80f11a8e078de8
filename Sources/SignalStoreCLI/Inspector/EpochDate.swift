#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStore

/// Numbers that hold times (seconds or milliseconds since 1970) shown as dates on a table
/// page, with the number itself on hover. Which columns: the URL's `dates` (a comma-separated
/// list, `-` for none); without it, INTEGER and REAL columns whose names say they hold a time
/// (`created_at`, `timestamp`, `updated`…).
enum EpochDate {
    /// The columns of `table` shown as dates for a page asked for with `query`.
    static func columns(of table: TableSchema, _ query: QueryString) -> Set<String> {
        guard let listed = query["dates"] else { return Set(table.columns.filter(holdsTimesByName).map(\.name)) }
        let names = Set(listed.split(separator: ",").map { $0.lowercased() })
        return Set(table.columns.filter { names.contains($0.name.lowercased()) }.map(\.name))
    }

    /// The `dates` parameter that shows `column` as a date or not, the others as now.
    static func toggling(_ column: String, in shown: Set<String>) -> String {
        let next = shown.contains(column) ? shown.subtracting([column]) : shown.union([column])
        return next.isEmpty ? "-" : next.sorted().joined(separator: ",")
    }

    /// Whether a column's name and type say it holds times.
    private static func holdsTimesByName(_ column: ColumnSchema) -> Bool {
        guard [.integer, .real, .numeric].contains(column.affinity) else { return false }
        let name = column.name.lowercased()
        return name.hasSuffix("_at") || name.hasSuffix("time") || name.hasSuffix("timestamp") || name.hasSuffix("date")
            || ["created", "updated", "modified", "deleted", "time", "date", "timestamp"].contains(name)
    }

    /// `value` as a UTC date (`2026-11-26 05:25:58.919`), read as seconds since 1970, or as
    /// milliseconds when it is too large to be seconds before the year 5138; `nil` for a value
    /// that is not a number.
    static func text(_ value: SQLiteValue) -> String? {
        let number: Double
        switch value {
        case .integer(let integer): number = Double(integer)
        case .real(let real): number = real
        default: return nil
        }
        let seconds = abs(number) >= 1e11 ? number / 1000 : number
        guard abs(seconds) < 1e11 else { return nil }
        return Date(timeIntervalSince1970: seconds).formatted(style)
    }

    private static let style = Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeZone: .gmt)
        .year().month().day().time(includingFractionalSeconds: true)
}
#endif

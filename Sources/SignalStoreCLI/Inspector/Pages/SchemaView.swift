#if SIGNALSTORE_INSPECTOR
import SignalStore

/// A table's schema on its page, folded (`<details>`, so it opens without JavaScript): its
/// columns with type, nullability, default and key, then its rules as `signalstore schema`
/// prints them (UNIQUE, CHECK, foreign keys with their actions, each parent a link) and its
/// indexes as written.
enum SchemaView {
    static func details(_ table: TableSchema, _ rules: TableRules, indexes: [String]) -> HTML {
        let columns = table.columns.map { column -> HTML in
            """
            <tr><td>\(column.name)</td><td>\(column.declaredType.isEmpty ? "(none)" : column.declaredType)</td>\
            <td>\(column.notNull ? "NOT NULL" : "")</td><td>\(column.defaultSQL ?? "")</td><td>\(column.primaryKeyPosition > 0 ? "primary key" : "")</td></tr>
            """
        }
        let unique = rules.uniqueKeys.map { key -> HTML in "<li><code>\(key.sql)</code></li>" }
        let checks = rules.checks.map { check -> HTML in "<li><code>CHECK (\(check))</code></li>" }
        let foreignKeys = rules.foreignKeys.map { key -> HTML in
            "<li class=\"foreign-key\"><code>\(key.sql)</code> → <a href=\"/tables/\(PathSegment.encode(key.parent))\">\(key.parent)</a></li>"
        }
        let indexList = indexes.map { sql -> HTML in "<li><code>\(sql)</code></li>" }
        let ruleItems = unique + checks + foreignKeys
        return """
            <details id="schema"><summary>Schema: \(table.columns.count) \(table.columns.count == 1 ? "column" : "columns"), \(ruleItems.count) \(ruleItems.count == 1 ? "rule" : "rules"), \(indexes.count) \(indexes.count == 1 ? "index" : "indexes")</summary>
            <table class="rows schema"><thead><tr><th>column</th><th>type</th><th>null</th><th>default</th><th>key</th></tr></thead><tbody>\(columns)</tbody></table>
            \(ruleItems.isEmpty ? "<p class=\"none\">No UNIQUE, CHECK or foreign key rules.</p>" as HTML : "<ul class=\"rules\">\(ruleItems)</ul>")
            \(indexList.isEmpty ? "" : "<p>Indexes:</p><ul class=\"indexes\">\(indexList)</ul>" as HTML)
            </details>
            """
    }
}
#endif

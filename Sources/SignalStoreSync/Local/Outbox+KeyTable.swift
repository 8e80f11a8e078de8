#if SIGNALSTORE_SYNC
import SignalStore

extension Outbox {
    /// Where a big transaction's keys wait between the walk back and the stamping, which may
    /// take several transactions: the keys of the entries in (`after`, `through`] walked back
    /// from `through` (the journal's head then), as temporary tables of the writer connection.
    /// Entries written since do not change what an earlier entry's key was, so the keys stay
    /// true until they are stamped; a rolled-back transaction takes its part of the walk back
    /// with it, and a new connection walks again.
    enum KeyTable {
        private static let keys = "_signalstore_sync_keys"
        private static let range = "_signalstore_sync_keys_range"

        /// Walks the entries in (`lower`, `upper`] back, a window at a time, and keeps their keys.
        static func walk(after lower: Int64, through upper: Int64, keyColumns: (String) -> [String]?, _ connection: Connection) throws {
            try drop(connection)
            try connection.execute("""
                CREATE TEMP TABLE \(keys) (seq INTEGER PRIMARY KEY, row_key TEXT NOT NULL);
                CREATE TEMP TABLE \(range) (after INTEGER NOT NULL, through INTEGER NOT NULL);
                """)
            var walk = Journal.KeyWalk()
            var end = upper
            while end > lower {
                let start = max(lower, end - window)
                let found = try walk.keys(of: entries(after: start, through: end, connection), keyColumns: keyColumns, keyingInserts: false, connection)
                let insert = try connection.statement("INSERT INTO temp.\(keys) (seq, row_key) VALUES (?, ?)")
                for (seq, key) in found { try insert.run([.integer(seq), .text(SyncValueCoding.encodeKey(key))]) }
                end = start
            }
            try connection.statement("INSERT INTO temp.\(range) (after, through) VALUES (?, ?)").run([.integer(lower), .integer(upper)])
        }

        /// The last entry walked, if a walk holds the keys of the entries right after `seq`.
        static func walked(after seq: Int64, _ connection: Connection) throws -> Int64? {
            guard try connection.scalar("SELECT count(*) FROM temp.sqlite_master WHERE name = ?", [.text(range)])?.integerValue == 1,
                  let row = try connection.statement("SELECT after, through FROM temp.\(range)").rows().first,
                  row[0].integerValue == seq else { return nil }
            return row[1].integerValue
        }

        /// The keys of the entries in (`lower`, `upper`] (encoded, by seq), no longer kept;
        /// the tables go once the walk is all taken.
        static func take(after lower: Int64, through upper: Int64, _ connection: Connection) throws -> [Int64: String] {
            var found: [Int64: String] = [:]
            for row in try connection.statement("SELECT seq, row_key FROM temp.\(keys) WHERE seq > ? AND seq <= ?").rows([.integer(lower), .integer(upper)]) {
                if case .integer(let seq) = row[0], case .text(let key) = row[1] { found[seq] = key }
            }
            if try walked(after: lower, connection) == upper {
                try drop(connection)
            } else {
                try connection.statement("DELETE FROM temp.\(keys) WHERE seq <= ?").run([.integer(upper)])
                try connection.statement("UPDATE temp.\(range) SET after = ?").run([.integer(upper)])
            }
            return found
        }

        private static func drop(_ connection: Connection) throws {
            try connection.execute("DROP TABLE IF EXISTS temp.\(keys); DROP TABLE IF EXISTS temp.\(range)")
        }
    }
}
#endif

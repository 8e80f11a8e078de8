#if SIGNALSTORE_SYNC
/// What `append` checks of each entry of an upload (``ServerLogSQL``): its fields read once, and
/// why the server refuses it, as SQL the upload function splices in.
extension ServerLogSQL {
    /// A JSON path predicate on `@`: one value in the log's encoding (null, {"i":7},
    /// {"r":"1.5"}, {"t":"…"}, {"b":"…"}). The client reads values strictly; the server's
    /// check keeps out what no encoder writes. (JSON paths, not SQL functions per value: those
    /// cost 350 µs an entry, which 50,000 entries in one upload could not afford.)
    static let valuePredicate = #"@.type() == "null" || exists(@.i ? (@.type() == "number")) || exists(@.t ? (@.type() == "string")) || exists(@.r ? (@.type() == "string")) || exists(@.b ? (@.type() == "string"))"#

    /// An entry's fields, read once (`u`): its number `n`, origin seq, stamp (as text, to
    /// compare without rounding), table, key and payload text and parsed, operation, column.
    /// Its shape is checked here: an array of seven, the seq and stamp whole numbers. (The
    /// other fields are read as text whatever their JSON type: the checks below read them so.)
    /// `jsonb` refuses the escape of NUL, which a text value may hold: key and payload are
    /// parsed for the checks with another control character in its place; the log stores the
    /// text as sent.
    static func fields(_ s: String) -> String {
        """
        SELECT a.n, CASE WHEN jsonb_typeof(a.e) = 'array' AND jsonb_array_length(a.e) IN (7, 10)
                              AND (a.e ->> 0) ~ '^[0-9]{1,19}$' AND (a.e ->> 1) ~ '^[0-9]{1,19}$'
                              AND coalesce(a.e ->> 7, '0') ~ '^[0-9]{1,19}$' AND coalesce(a.e ->> 9, '0') ~ '^[0-9]{1,19}$'
                         THEN (a.e ->> 0)::bigint
                         ELSE \(s).malformed('an entry is [seq, stamp, table, key, operation, column, payload], or that and [seen position, base, resolved position]; the seq and stamp whole numbers, and the positions')::bigint END AS seq,
               a.e ->> 1 AS hlc, a.e ->> 2 AS tbl, a.e ->> 3 AS key, replace(a.e ->> 3, '\\u0000', '\\u0001')::jsonb AS k,
               a.e ->> 4 AS op, a.e ->> 5 AS col, a.e ->> 6 AS payload, replace(a.e ->> 6, '\\u0000', '\\u0001')::jsonb AS p,
               a.e ->> 7 AS seen, a.e ->> 8 AS base, replace(a.e ->> 8, '\\u0000', '\\u0001')::jsonb AS b, a.e ->> 9 AS resolves
        FROM jsonb_array_elements(offered) WITH ORDINALITY AS a(e, n) OFFSET 0
        """
    }

    /// Why the server refuses an entry (``fields(_:)``'s `u`), or NULL: an SQL expression that
    /// raises for a malformed one (`malformed`) and gives the reason for one the deployment
    /// does not take. `known` says whether the server lists its synced tables, `t` is the
    /// entry's table's row in that list (`t.columns`, `t.key_length`: NULL when not listed),
    /// `max_bytes` the size limit of a value, `latest` the latest stamp taken. The checks of
    /// one operation first, then those of every entry: each entry meets few conditions.
    static func problem(_ s: String) -> String {
        let value = valuePredicate
        return """
            coalesce(CASE u.op
                WHEN 'insert' THEN CASE
                    WHEN u.col IS NOT NULL OR u.p IS NULL OR jsonb_typeof(u.p) <> 'object' OR jsonb_path_exists(u.p, '$.* ? (!(\(value)))')
                        THEN \(s).malformed(format('an insert into %s carries no column and a row that is an object of values', u.tbl))
                    WHEN known AND (u.p - t.columns) <> '{}'::jsonb
                        THEN format('an insert into %s names a column that does not sync on this server (its owner adds it with `signalstore sync setup … --db`)', u.tbl)
                    END
                WHEN 'update' THEN CASE
                    WHEN u.col IS NULL OR NOT coalesce(jsonb_path_exists(u.p, '$ ? (\(value))'), false)
                        THEN \(s).malformed(format('an update of %s names its column and carries a value of the log', u.tbl))
                    WHEN known AND u.col <> ALL(t.columns)
                        THEN format('column %s.%s does not sync on this server (its owner adds it with `signalstore sync setup … --db`)', u.tbl, u.col)
                    END
                WHEN 'delete' THEN CASE
                    WHEN u.col IS NOT NULL OR u.payload IS NOT NULL
                        THEN \(s).malformed(format('a delete from %s carries no column and no payload', u.tbl))
                    END
                ELSE \(s).malformed(format('the operation %L is none of insert, update, delete', u.op))
            END, CASE
                WHEN u.resolves IS NOT NULL AND u.op <> 'update'
                    THEN \(s).malformed(format('a change to %s other than an update resolves a concurrent edit', u.tbl))
                WHEN u.seen IS NOT NULL AND u.op = 'update' AND (u.base IS NULL OR NOT coalesce(jsonb_path_exists(u.b, '$ ? (\(value))'), false))
                    THEN \(s).malformed(format('an update of %s that says what it had seen carries the value it replaced', u.tbl))
                WHEN u.base IS NOT NULL AND (u.op <> 'update' OR u.seen IS NULL)
                    THEN \(s).malformed(format('only an update of %s that says what it had seen carries a base', u.tbl))
            END, CASE
                WHEN u.tbl IS NULL OR jsonb_typeof(u.k) IS DISTINCT FROM 'array' OR jsonb_array_length(u.k) = 0 OR jsonb_path_exists(u.k, '$[*] ? (!(\(value)))')
                    THEN \(s).malformed(format('the key of a change to %s is not a JSON array of values', u.tbl))
                WHEN known AND t.columns IS NULL
                    THEN format('table %s does not sync on this server (its owner adds it with `signalstore sync setup … --db`)', u.tbl)
                WHEN known AND jsonb_array_length(u.k) <> t.key_length
                    THEN format('the key of a change to %s has %s values, and the table''s primary key has %s', u.tbl, jsonb_array_length(u.k), t.key_length)
                WHEN octet_length(u.payload) > max_bytes
                    AND CASE WHEN u.op = 'update' THEN true
                             ELSE EXISTS (SELECT 1 FROM jsonb_each(u.p) AS m(c, v) WHERE octet_length(m.v::text) > max_bytes) END
                    THEN format('a value of %s is over the server''s limit of %s bytes a value (its owner raises it with `signalstore sync setup … --max-value-bytes N`)', u.tbl, max_bytes)
                WHEN octet_length(u.key) > max_bytes
                    THEN format('the key of a change to %s is over the server''s limit of %s bytes a value', u.tbl, max_bytes)
                WHEN length(u.hlc) > 18 AND u.hlc::numeric > latest
                    THEN format('the change to %s is stamped more than a day ahead of the server''s clock; set this machine''s clock right', u.tbl)
            END)
            """
    }

    /// Every entry of the upload (`offered`) with its fields and its problem (NULL for one the
    /// server takes, and for one it already holds: `seq` at most `stored`).
    static func checked(_ s: String) -> String {
        """
        SELECT u.n, u.seq, u.hlc, u.tbl, u.key, u.op, u.col, u.payload, u.seen, u.base, u.resolves,
               CASE WHEN u.seq > stored THEN \(problem(s)) END AS problem
        FROM (\(fields(s))) AS u LEFT JOIN \(s).synced_tables t ON t.tbl = u.tbl
        """
    }
}
#endif

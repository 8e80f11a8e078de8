#if SIGNALSTORE_SYNC
/// The SQL with which the server tells concurrent edits apart, which every deployment installs
/// with the upload path (``ServerLogSQL``).
///
/// An update says what its writer had seen (``SeenState``): the log position through which its
/// replica had applied the log, and the value it replaced. When `append` stores it,
/// `mark_concurrent_edits` looks for another replica's update of the same column stored after
/// that position and before the new entry: a change the writer never saw, whose writer never
/// saw this one either (it was not in the log). The two are a concurrent edit, and the new
/// entry's `overlap` records the other one (position, stamp, origin, role, value; the latest by
/// stamp, if there are several) and the base. Which of the two stands is still decided by the
/// stamps, on every replica alike; the overlap only lists the one that lost.
///
/// Decided once, by the server, and kept in the log: every replica that reads the entry lists
/// the same edit under the entry's position, whenever it joins, and compaction keeps such
/// entries. One edit per column and pair of replicas stays listed: a later overlapping entry of
/// the same column between the same two replicas (a replica that edited the column again while
/// still apart) takes the earlier one's place (`replaces`), keeping its base, so the listing
/// shows the last value of each side. An entry that resolves an edit (`resolves`) clears that
/// edit's overlap, so a replica that reads the log afterwards never lists it.
///
/// `silent_columns` lists what is never marked (`col` `*`: the whole table): columns where last
/// writer wins is what the app wants, set with `signalstore sync policy TABLE.COLUMN --silent` (``SyncClient/setPolicy(_:table:column:on:)``).
enum ConcurrentEditsSQL {
    static func statements(schema s: String) -> [String] {
        [
            """
            ALTER TABLE \(s).log ADD COLUMN IF NOT EXISTS seen bigint, ADD COLUMN IF NOT EXISTS base text,
                ADD COLUMN IF NOT EXISTS resolves bigint, ADD COLUMN IF NOT EXISTS overlap text
            """,
            "CREATE INDEX IF NOT EXISTS log_column_updates ON \(s).log (tbl, row_key, col, position) WHERE op = 'update'",
            "CREATE INDEX IF NOT EXISTS log_row_lifecycle ON \(s).log (tbl, row_key, position) WHERE op <> 'update'",
            "CREATE INDEX IF NOT EXISTS log_overlaps ON \(s).log (tbl, row_key) WHERE overlap IS NOT NULL",
            "CREATE TABLE IF NOT EXISTS \(s).silent_columns (tbl text NOT NULL, col text NOT NULL, PRIMARY KEY (tbl, col))",
            editIDFunction(s),
            markFunction(s),
            "REVOKE ALL ON FUNCTION \(s).mark_concurrent_edits(bigint, bigint) FROM PUBLIC",
        ]
    }

    /// Whether the concurrent edit path is installed, with the listing of concurrent inserts
    /// (an older deployment refuses an insert that says what its writer had seen).
    static func installedCheck(schema s: String) -> String {
        "to_regprocedure('\(s).mark_concurrent_edits(bigint, bigint)') IS NOT NULL AND to_regprocedure('\(s).concurrent_edit_id(bigint, bigint)') IS NOT NULL"
    }

    /// The first id of the listings that are not under a log position of their own: the
    /// columns after the first that two concurrent inserts of a row set differently (the first
    /// is listed under the later insert's position). Far above any position a log reaches.
    static let firstDerivedID: Int64 = 9_000_000_000_000_000_000

    /// The id of the `ordinal`-th further column (1, 2, …) two inserts set differently, the later
    /// at `position`: ``firstDerivedID`` + position × 10,000 + ordinal, the same on every replica.
    private static func editIDFunction(_ s: String) -> String {
        """
        CREATE OR REPLACE FUNCTION \(s).concurrent_edit_id(entry_position bigint, ordinal bigint) RETURNS bigint
        LANGUAGE sql IMMUTABLE STRICT AS $f$ SELECT \(firstDerivedID) + entry_position * 10000 + ordinal $f$
        """
    }

    /// Marks the entries stored at positions [first, next) (called by `append`, as the log's
    /// owner): the overlaps, the edits they replace, and the edits they resolve.
    ///
    /// An update meets the latest (by stamp) of the unseen updates of its column, or else an
    /// unseen delete of its row that no insert followed; a delete meets the latest unseen update
    /// of each column of its row: the latest of all as its listing, the others in `also` (each
    /// listed by replicas under the update's position); an insert meets the latest unseen insert
    /// of its row that no delete followed, and lists each column the two set differently: the
    /// first by name as its listing, the others in `also`, each under an id of its own
    /// (`concurrent_edit_id`). The listing names its column (`col`: a delete's or an insert's
    /// entry has none) and the other change's operation (`op`); its base is the update's (a
    /// delete's entry replaced no value, and before an insert the row had none). Taking a
    /// listing out keeps `also`.
    private static func markFunction(_ s: String) -> String {
        // Takes an entry's listing out but keeps the other updates its delete swallowed.
        let keepingSwallowed = """
            CASE WHEN jsonb_typeof(p.overlap::jsonb -> 'also') = 'array' AND jsonb_array_length(p.overlap::jsonb -> 'also') > 0
                            THEN jsonb_build_object('also', p.overlap::jsonb -> 'also')::text END
            """
        let unseen = { (entry: String) in
            "l.tbl = \(entry).tbl AND l.row_key = \(entry).row_key AND l.position > \(entry).seen AND l.position < \(entry).position AND l.origin <> \(entry).origin"
        }
        return """
        CREATE OR REPLACE FUNCTION \(s).mark_concurrent_edits(first bigint, next bigint) RETURNS void
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE
            one record;
            other record;
            inserted record;
            differing text[];
            earlier record;
            listed text;
            also json;
        BEGIN
            -- One statement finds the few entries to look at: those that resolve, and those that
            -- meet a change from another replica they had not seen (one probe of an index each,
            -- not a loop over every entry).
            FOR one IN SELECT * FROM \(s).log c WHERE c.position >= first AND c.position < next
                       AND (c.resolves IS NOT NULL OR (c.seen IS NOT NULL AND (
                           (c.op = 'update' AND EXISTS (SELECT 1 FROM \(s).log l WHERE \(unseen("c")) AND l.op = 'update' AND l.col = c.col))
                           OR (c.op = 'update' AND EXISTS (SELECT 1 FROM \(s).log l WHERE \(unseen("c")) AND l.op = 'delete'))
                           OR (c.op = 'delete' AND EXISTS (SELECT 1 FROM \(s).log l WHERE \(unseen("c")) AND l.op = 'update'))
                           OR (c.op = 'insert' AND EXISTS (SELECT 1 FROM \(s).log l WHERE \(unseen("c")) AND l.op = 'insert')))))
                       ORDER BY c.position LOOP
                IF one.resolves IS NOT NULL THEN
                    UPDATE \(s).log p SET overlap = \(keepingSwallowed)
                    WHERE p.position = one.resolves AND p.position < one.position AND p.tbl = one.tbl AND p.row_key = one.row_key
                      AND coalesce(p.overlap::jsonb ->> 'col', p.col) = one.col AND p.overlap IS NOT NULL;
                    -- An update a delete swallowed beside its listed one (`also`), listed under the
                    -- update's position.
                    -- An insert's further columns are known by their `id`.
                    UPDATE \(s).log p SET overlap = jsonb_set(p.overlap::jsonb, '{also}', coalesce(
                            (SELECT jsonb_agg(e) FROM jsonb_array_elements(p.overlap::jsonb -> 'also') e
                             WHERE coalesce((e ->> 'id')::bigint, (e ->> 'position')::bigint) <> one.resolves),
                            '[]'::jsonb))::text
                    WHERE p.tbl = one.tbl AND p.row_key = one.row_key AND p.overlap IS NOT NULL AND p.position < one.position
                      AND jsonb_typeof(p.overlap::jsonb -> 'also') = 'array'
                      AND EXISTS (SELECT 1 FROM jsonb_array_elements(p.overlap::jsonb -> 'also') e
                                  WHERE coalesce((e ->> 'id')::bigint, (e ->> 'position')::bigint) = one.resolves AND e ->> 'col' = one.col);
                END IF;
                CONTINUE WHEN one.seen IS NULL;
                IF one.op = 'update' THEN
                    SELECT l.position, l.hlc, l.origin, l.uploaded_by, l.payload, l.op, l.col, l.base INTO other FROM \(s).log l
                    WHERE \(unseen("one")) AND l.op = 'update' AND l.col = one.col
                    ORDER BY l.hlc DESC, l.origin COLLATE "C" DESC LIMIT 1;
                    IF other.position IS NULL THEN
                        SELECT l.position, l.hlc, l.origin, l.uploaded_by, NULL::text AS payload, l.op, one.col AS col, NULL::text AS base INTO other FROM \(s).log l
                        WHERE \(unseen("one")) AND l.op = 'delete'
                          AND NOT EXISTS (SELECT 1 FROM \(s).log i WHERE i.tbl = one.tbl AND i.row_key = one.row_key AND i.op = 'insert'
                                                                     AND i.position > l.position AND i.position < one.position)
                        ORDER BY l.position DESC LIMIT 1;
                    END IF;
                ELSIF one.op = 'insert' THEN
                    -- The latest unseen insert of the row that no delete followed, and the columns
                    -- the two set differently: the first listed here, the others in `also`.
                    SELECT l.position, l.hlc, l.origin, l.uploaded_by, l.payload INTO inserted FROM \(s).log l
                    WHERE \(unseen("one")) AND l.op = 'insert'
                      AND NOT EXISTS (SELECT 1 FROM \(s).log d WHERE d.tbl = one.tbl AND d.row_key = one.row_key AND d.op = 'delete'
                                                                 AND d.position > l.position AND d.position < one.position)
                    ORDER BY l.position DESC LIMIT 1;
                    CONTINUE WHEN inserted.position IS NULL;
                    SELECT array_agg(k ORDER BY k COLLATE "C") INTO differing FROM jsonb_object_keys(one.payload::jsonb) AS k
                    WHERE (one.payload::jsonb -> k) IS DISTINCT FROM (inserted.payload::jsonb -> k)
                      AND NOT EXISTS (SELECT 1 FROM \(s).silent_columns q WHERE q.tbl = one.tbl AND q.col IN (k, '*'));
                    CONTINUE WHEN differing IS NULL;
                    SELECT inserted.position AS position, inserted.hlc AS hlc, inserted.origin AS origin, inserted.uploaded_by AS uploaded_by,
                           (inserted.payload::jsonb -> differing[1])::text AS payload, 'insert'::text AS op, differing[1] AS col, NULL::text AS base
                        INTO other;
                    SELECT json_agg(json_build_object('position', inserted.position, 'hlc', inserted.hlc, 'origin', inserted.origin,
                                                      'by', inserted.uploaded_by, 'value', (inserted.payload::jsonb -> d.k)::text, 'col', d.k, 'op', 'insert',
                                                      'id', \(s).concurrent_edit_id(one.position, d.n - 1)) ORDER BY d.n) INTO also
                    FROM unnest(differing) WITH ORDINALITY AS d(k, n) WHERE d.n > 1 AND d.n <= 10000;
                ELSE
                    -- The latest unseen update of a column that is listed, and (`also`) the latest
                    -- of each other such column: a delete swallows every one of them.
                    SELECT l.position, l.hlc, l.origin, l.uploaded_by, l.payload, l.op, l.col, l.base INTO other FROM \(s).log l
                    WHERE \(unseen("one")) AND l.op = 'update'
                      AND NOT EXISTS (SELECT 1 FROM \(s).silent_columns q WHERE q.tbl = one.tbl AND q.col IN (l.col, '*'))
                    ORDER BY l.position DESC LIMIT 1;
                    SELECT json_agg(json_build_object('position', a.position, 'hlc', a.hlc, 'origin', a.origin, 'by', a.uploaded_by,
                                                      'value', a.payload, 'col', a.col, 'base', a.base) ORDER BY a.position) INTO also
                    FROM (SELECT DISTINCT ON (l.col) l.position, l.hlc, l.origin, l.uploaded_by, l.payload, l.col, l.base FROM \(s).log l
                          WHERE \(unseen("one")) AND l.op = 'update' AND l.col <> other.col
                            AND NOT EXISTS (SELECT 1 FROM \(s).silent_columns q WHERE q.tbl = one.tbl AND q.col IN (l.col, '*'))
                          ORDER BY l.col, l.position DESC) a;
                END IF;
                CONTINUE WHEN other.position IS NULL;
                listed := other.col;
                CONTINUE WHEN EXISTS (SELECT 1 FROM \(s).silent_columns q WHERE q.tbl = one.tbl AND q.col IN (listed, '*'));
                -- An edit of the same column still listed between the same two replicas.
                SELECT p.position, p.overlap::jsonb ->> 'base' AS base INTO earlier FROM \(s).log p
                WHERE p.tbl = one.tbl AND p.row_key = one.row_key AND p.overlap IS NOT NULL AND p.position < one.position
                  AND coalesce(p.overlap::jsonb ->> 'col', p.col) = listed
                  AND ((p.origin = one.origin AND p.overlap::jsonb ->> 'origin' = other.origin)
                    OR (p.origin = other.origin AND p.overlap::jsonb ->> 'origin' = one.origin))
                ORDER BY p.position DESC LIMIT 1;
                IF earlier.position IS NOT NULL THEN
                    UPDATE \(s).log p SET overlap = \(keepingSwallowed) WHERE p.position = earlier.position;
                END IF;
                UPDATE \(s).log e SET overlap = json_build_object(
                        'position', other.position, 'hlc', other.hlc, 'origin', other.origin, 'by', other.uploaded_by,
                        'value', other.payload, 'op', other.op, 'col', listed,
                        'base', coalesce(earlier.base, one.base, other.base), 'replaces', earlier.position,
                        'also', CASE WHEN one.op IN ('delete', 'insert') THEN also END)::text
                WHERE e.position = one.position;
            END LOOP;
        END
        $f$
        """
    }
}
#endif

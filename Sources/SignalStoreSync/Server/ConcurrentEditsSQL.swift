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
            "CREATE TABLE IF NOT EXISTS \(s).silent_columns (tbl text NOT NULL, col text NOT NULL, PRIMARY KEY (tbl, col))",
            markFunction(s),
            "REVOKE ALL ON FUNCTION \(s).mark_concurrent_edits(bigint, bigint) FROM PUBLIC",
        ]
    }

    /// Whether the concurrent edit path is installed.
    static func installedCheck(schema s: String) -> String {
        "to_regprocedure('\(s).mark_concurrent_edits(bigint, bigint)') IS NOT NULL"
    }

    /// Marks the entries stored at positions [first, next) (called by `append`, as the log's
    /// owner): the overlaps, the edits they replace, and the edits they resolve.
    private static func markFunction(_ s: String) -> String {
        """
        CREATE OR REPLACE FUNCTION \(s).mark_concurrent_edits(first bigint, next bigint) RETURNS void
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
        DECLARE
            one record;
            other record;
            earlier record;
        BEGIN
            -- One statement finds the few entries to look at: those that resolve, and those
            -- with an update of their column from another replica that they had not seen (one
            -- probe of the index each, not a loop over every entry).
            FOR one IN SELECT * FROM \(s).log n WHERE n.position >= first AND n.position < next AND n.op = 'update'
                       AND (n.resolves IS NOT NULL OR (n.seen IS NOT NULL AND EXISTS (
                           SELECT 1 FROM \(s).log l WHERE l.tbl = n.tbl AND l.row_key = n.row_key AND l.op = 'update' AND l.col = n.col
                             AND l.position > n.seen AND l.position < n.position AND l.origin <> n.origin)))
                       ORDER BY n.position LOOP
                IF one.resolves IS NOT NULL THEN
                    UPDATE \(s).log p SET overlap = NULL
                    WHERE p.position = one.resolves AND p.position < one.position AND p.tbl = one.tbl AND p.row_key = one.row_key
                      AND p.col = one.col AND p.overlap IS NOT NULL;
                END IF;
                CONTINUE WHEN one.seen IS NULL
                    OR EXISTS (SELECT 1 FROM \(s).silent_columns q WHERE q.tbl = one.tbl AND q.col IN (one.col, '*'));
                -- The latest (by stamp) of the column's updates the writer had not seen.
                SELECT l.position, l.hlc, l.origin, l.uploaded_by, l.payload INTO other FROM \(s).log l
                WHERE l.tbl = one.tbl AND l.row_key = one.row_key AND l.op = 'update' AND l.col = one.col
                  AND l.position > one.seen AND l.position < one.position AND l.origin <> one.origin
                ORDER BY l.hlc DESC, l.origin COLLATE "C" DESC LIMIT 1;
                CONTINUE WHEN other.position IS NULL;
                -- An edit of the same column still listed between the same two replicas.
                SELECT p.position, p.overlap::jsonb ->> 'base' AS base INTO earlier FROM \(s).log p
                WHERE p.tbl = one.tbl AND p.row_key = one.row_key AND p.op = 'update' AND p.col = one.col AND p.overlap IS NOT NULL
                  AND p.position < one.position
                  AND ((p.origin = one.origin AND p.overlap::jsonb ->> 'origin' = other.origin)
                    OR (p.origin = other.origin AND p.overlap::jsonb ->> 'origin' = one.origin))
                ORDER BY p.position DESC LIMIT 1;
                IF earlier.position IS NOT NULL THEN
                    UPDATE \(s).log p SET overlap = NULL WHERE p.position = earlier.position;
                END IF;
                UPDATE \(s).log n SET overlap = json_build_object(
                        'position', other.position, 'hlc', other.hlc, 'origin', other.origin, 'by', other.uploaded_by,
                        'value', other.payload, 'base', coalesce(earlier.base, one.base), 'replaces', earlier.position)::text
                WHERE n.position = one.position;
            END LOOP;
        END
        $f$
        """
    }
}
#endif

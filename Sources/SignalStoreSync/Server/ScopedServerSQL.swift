#if SIGNALSTORE_SYNC
/// The SQL that ``ScopedServer`` installs: tables, functions, the log's trigger and the
/// row-level security policies, each statement idempotent. `schema` is a plain lowercase name
/// (``PostgresURL/schema`` checks it), so it is spliced in as is.
enum ScopedServerSQL {
    static func statements(schema s: String) -> [String] {
        tables(s) + functions(s) + policies(s)
    }

    /// The privileges a replica's role needs, as `format` templates whose `%I` is the role.
    static func replicaPrivileges(schema s: String) -> [String] {
        [
            "GRANT USAGE ON SCHEMA \(s) TO %I",
            "GRANT SELECT, INSERT ON \(s).log TO %I",
            "GRANT SELECT, UPDATE ON \(s).counter TO %I",
            "GRANT SELECT, INSERT, UPDATE ON \(s).origins, \(s).refusals TO %I",
            "GRANT SELECT ON \(s).grants, \(s).scoped_tables TO %I",
        ]
    }

    private static func tables(_ s: String) -> [String] {
        [
            "CREATE TABLE IF NOT EXISTS \(s).scoped_tables (tbl text PRIMARY KEY, col text NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(s).grants (role name NOT NULL, scope text NOT NULL CHECK (scope <> ''), PRIMARY KEY (role, scope))",
            "CREATE INDEX IF NOT EXISTS grants_scope ON \(s).grants (scope)",
            """
            CREATE TABLE IF NOT EXISTS \(s).row_scopes (
                tbl text NOT NULL, row_key text NOT NULL, scope text NOT NULL, deleted boolean NOT NULL, PRIMARY KEY (tbl, row_key))
            """,
            """
            CREATE TABLE IF NOT EXISTS \(s).refusals (
                origin text NOT NULL, origin_seq bigint NOT NULL, uploaded_by name NOT NULL DEFAULT current_user,
                reason text NOT NULL, refused_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (origin, origin_seq))
            """,
            "CREATE INDEX IF NOT EXISTS log_scope ON \(s).log (scope, position)",
            "CREATE INDEX IF NOT EXISTS log_previous_scope ON \(s).log (previous_scope, position) WHERE previous_scope IS NOT NULL",
            "REVOKE ALL ON ALL TABLES IN SCHEMA \(s) FROM PUBLIC",
        ]
    }

    private static func functions(_ s: String) -> [String] {
        [
            // The text of a scope column's value as the log encodes it ({"i":7} → 7).
            """
            CREATE OR REPLACE FUNCTION \(s).scope_text(value jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
                SELECT coalesce(value->>'i', value->>'t', value->>'r', value->>'b')
            $f$
            """,
            // Whether `who` may write `wanted`: a grant to it or a role it inherits from, or it
            // owns the log. Runs as the trigger's owner, so every grant is visible to it.
            // (`to_regrole` rather than a join with the `pg_roles` view: a third of the cost.)
            """
            CREATE OR REPLACE FUNCTION \(s).holds(who name, wanted text) RETURNS boolean LANGUAGE sql STABLE AS $f$
                SELECT pg_catalog.pg_has_role(who, (SELECT relowner FROM pg_catalog.pg_class WHERE oid = '\(s).log'::regclass), 'USAGE')
                    OR EXISTS (SELECT 1 FROM \(s).grants g
                               WHERE g.scope = wanted AND pg_catalog.pg_has_role(who, pg_catalog.to_regrole(pg_catalog.quote_ident(g.role)), 'USAGE'))
            $f$
            """,
            // The scope an entry gets, from the entry and the row's recorded scope.
            """
            CREATE OR REPLACE FUNCTION \(s).entry_scope(entry \(s).log, scope_column text, known_scope text) RETURNS text
            LANGUAGE sql IMMUTABLE AS $f$
                SELECT CASE
                    WHEN entry.op = 'insert' THEN \(s).scope_text(entry.payload::jsonb -> scope_column)
                    WHEN entry.op = 'update' AND entry.col = scope_column THEN \(s).scope_text(entry.payload::jsonb)
                    ELSE known_scope END
            $f$
            """,
            """
            CREATE OR REPLACE FUNCTION \(s).scope_entry() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $f$
            DECLARE
                scope_column text;
                known record;
                wanted text;
            BEGIN
                SELECT col INTO scope_column FROM \(s).scoped_tables WHERE tbl = NEW.tbl;
                IF scope_column IS NULL THEN
                    NEW.scope := NULL;
                    NEW.previous_scope := NULL;
                    RETURN NEW;
                END IF;
                SELECT scope, deleted INTO known FROM \(s).row_scopes WHERE tbl = NEW.tbl AND row_key = NEW.row_key;
                wanted := \(s).entry_scope(NEW, scope_column, known.scope);
                IF wanted IS NULL OR wanted = '' THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('%s %s has no %s, and a row of a scoped table needs one', NEW.tbl, NEW.row_key, scope_column);
                END IF;
                NEW.scope := wanted;
                NEW.previous_scope := CASE WHEN known.scope IS DISTINCT FROM wanted AND NOT known.deleted THEN known.scope END;
                IF NOT \(s).holds(NEW.uploaded_by, wanted) THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('role %s has no grant for scope %s (%s.%s)', NEW.uploaded_by, wanted, NEW.tbl, scope_column);
                END IF;
                IF NEW.previous_scope IS NOT NULL AND NOT \(s).holds(NEW.uploaded_by, NEW.previous_scope) THEN
                    RAISE EXCEPTION USING ERRCODE = 'SS001',
                        MESSAGE = format('role %s has no grant for scope %s, which %s %s is in', NEW.uploaded_by, NEW.previous_scope, NEW.tbl, NEW.row_key);
                END IF;
                INSERT INTO \(s).row_scopes VALUES (NEW.tbl, NEW.row_key, wanted, NEW.op = 'delete')
                    ON CONFLICT (tbl, row_key) DO UPDATE SET scope = excluded.scope, deleted = excluded.deleted;
                RETURN NEW;
            END
            $f$
            """,
            // Rings the doorbells of what an upload added, once per statement: every entry's
            // (the owner listens there), the shared tables', and each scope's it touched.
            """
            CREATE OR REPLACE FUNCTION \(s).ring() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $f$
            BEGIN
                PERFORM pg_notify('\(s)_log_all', '');
                PERFORM pg_notify('\(s)_log', '') WHERE EXISTS (SELECT 1 FROM added WHERE scope IS NULL);
                PERFORM pg_notify('\(s)_log_' || left(md5(touched), 16), '')
                    FROM (SELECT scope FROM added WHERE scope IS NOT NULL
                          UNION SELECT previous_scope FROM added WHERE previous_scope IS NOT NULL) AS t(touched);
                RETURN NULL;
            END
            $f$
            """,
            // Gives the entries already in the log (a deployment that had no scopes, a table
            // scoped later) their scopes, in log order, as the trigger would have; an entry
            // whose row has no scope gets '' (no role's), so it is nobody's to read. A row that
            // moved between scopes then gets its whole row as an insert at the log's end, as a
            // replica that moves a row uploads it: a replica that gains it takes it whole.
            """
            CREATE OR REPLACE FUNCTION \(s).assign_scopes() RETURNS void LANGUAGE plpgsql
            SET search_path = pg_catalog, pg_temp AS $f$
            DECLARE
                entry \(s).log;
                scope_column text;
                known record;
                wanted text;
                moved record;
                whole jsonb;
                last_insert bigint;
                change record;
                next_position bigint;
            BEGIN
                FOR entry IN SELECT l.* FROM \(s).log l JOIN \(s).scoped_tables t ON t.tbl = l.tbl WHERE l.scope IS NULL ORDER BY l.position LOOP
                    SELECT col INTO scope_column FROM \(s).scoped_tables WHERE tbl = entry.tbl;
                    SELECT scope, deleted INTO known FROM \(s).row_scopes WHERE tbl = entry.tbl AND row_key = entry.row_key;
                    wanted := coalesce(\(s).entry_scope(entry, scope_column, known.scope), '');
                    UPDATE \(s).log SET scope = wanted,
                        previous_scope = CASE WHEN known.scope IS DISTINCT FROM wanted AND NOT known.deleted THEN known.scope END
                        WHERE position = entry.position;
                    INSERT INTO \(s).row_scopes VALUES (entry.tbl, entry.row_key, wanted, entry.op = 'delete')
                        ON CONFLICT (tbl, row_key) DO UPDATE SET scope = excluded.scope, deleted = excluded.deleted;
                    IF known.scope IS DISTINCT FROM wanted AND NOT known.deleted THEN
                        INSERT INTO pg_temp.moved_rows VALUES (entry.tbl, entry.row_key) ON CONFLICT DO NOTHING;
                    END IF;
                END LOOP;
                FOR moved IN SELECT m.tbl, m.row_key, max(l.hlc) AS hlc FROM pg_temp.moved_rows m
                             JOIN \(s).row_scopes r ON r.tbl = m.tbl AND r.row_key = m.row_key AND NOT r.deleted
                             JOIN \(s).log l ON l.tbl = m.tbl AND l.row_key = m.row_key GROUP BY 1, 2 LOOP
                    SELECT position, payload::jsonb INTO last_insert, whole FROM \(s).log
                        WHERE tbl = moved.tbl AND row_key = moved.row_key AND op = 'insert' ORDER BY position DESC LIMIT 1;
                    CONTINUE WHEN whole IS NULL;
                    FOR change IN SELECT col, payload FROM \(s).log WHERE tbl = moved.tbl AND row_key = moved.row_key
                                  AND op = 'update' AND position > last_insert ORDER BY position LOOP
                        whole := jsonb_set(whole, ARRAY[change.col], change.payload::jsonb);
                    END LOOP;
                    SELECT next INTO next_position FROM \(s).counter WHERE id = 1 FOR UPDATE;
                    INSERT INTO \(s).log (position, origin, origin_seq, hlc, tbl, row_key, op, payload)
                        VALUES (next_position, 'signalstore-setup', next_position, moved.hlc, moved.tbl, moved.row_key, 'insert', whole::text);
                    UPDATE \(s).counter SET next = next_position + 1 WHERE id = 1;
                END LOOP;
                TRUNCATE pg_temp.moved_rows;
            END
            $f$
            """,
            "REVOKE ALL ON FUNCTION \(s).holds(name, text), \(s).scope_entry(), \(s).ring(), \(s).assign_scopes() FROM PUBLIC",
            "CREATE TEMP TABLE IF NOT EXISTS moved_rows (tbl text, row_key text, PRIMARY KEY (tbl, row_key))",
            "DROP TRIGGER IF EXISTS scope_entry ON \(s).log",
            "CREATE TRIGGER scope_entry BEFORE INSERT ON \(s).log FOR EACH ROW EXECUTE FUNCTION \(s).scope_entry()",
            "DROP TRIGGER IF EXISTS ring ON \(s).log",
            "CREATE TRIGGER ring AFTER INSERT ON \(s).log REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION \(s).ring()",
        ]
    }

    private static func policies(_ s: String) -> [String] {
        let tables = ["log", "counter", "origins", "grants", "scoped_tables", "row_scopes", "refusals"]
        let mine = "SELECT g.scope FROM \(s).grants g"
        return tables.map { "ALTER TABLE \(s).\($0) ENABLE ROW LEVEL SECURITY" } + policy(s, "log", "reads", "FOR SELECT USING (scope IS NULL OR uploaded_by = current_user OR scope IN (\(mine)) OR previous_scope IN (\(mine)))")
            + policy(s, "log", "appends", "FOR INSERT WITH CHECK (uploaded_by = current_user)")
            + policy(s, "counter", "everyone", "USING (true) WITH CHECK (true)")
            + policy(s, "origins", "own", "USING (uploaded_by = current_user) WITH CHECK (uploaded_by = current_user)")
            + policy(s, "refusals", "own", "USING (uploaded_by = current_user) WITH CHECK (uploaded_by = current_user)")
            + policy(s, "grants", "own", "FOR SELECT USING (role IN (SELECT rolname FROM pg_catalog.pg_roles WHERE pg_catalog.pg_has_role(current_user, oid, 'USAGE')))")
            + policy(s, "scoped_tables", "everyone", "FOR SELECT USING (true)")
    }

    private static func policy(_ s: String, _ table: String, _ name: String, _ body: String) -> [String] {
        ["DROP POLICY IF EXISTS \(name) ON \(s).\(table)", "CREATE POLICY \(name) ON \(s).\(table) \(body)"]
    }
}
#endif
